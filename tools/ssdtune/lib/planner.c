// SPDX-License-Identifier: GPL-2.0
/*
 * The planner.  Pure: everything comes from struct topo, everything goes
 * into struct plan.  Rules (Documentation/tuning.md):
 *  - interrupt cores on the device's local node, separate from the I/O
 *    cores, whole cores (SMT siblings together), CPU 0's core last;
 *  - C-states deeper than the profile's exit-latency bound disabled on the
 *    chosen cores, chosen by exit latency (the index is only the path);
 *  - governor and turbo per profile, EPP where the governor leaves it;
 *  - coalescing profile and no power limit on ssdtune controllers;
 *  - with --isolate, host interrupts, workqueues and tasks off the I/O
 *    cores (planner_isol.c); boot isolation and irqbalance: printed.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpuset.h"
#include "lib/parse.h"
#include "lib/planner.h"
#include "lib/planner_isol.h"
#include "lib/planner_size.h"
#include "lib/knobtab.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* Why each block queue value (Documentation/block/queue-sysfs.rst). */
static const char *const nomerges_why[] = {
	"merging on: fewer, larger I/Os for throughput",
	"only one-hit merges: less CPU per I/O at high IOPS",
	"no merge attempts: nothing added to a small I/O's path",
};
static const char *const rq_affinity_why[] = {
	"",
	"completions in the submitting CPU's group (the default)",
	"completions on the submitting CPU itself: no hop to another CPU",
};

/* A setting: SET if @old differs from @val, else KEEP. */
static int setting(struct plan *p, const char *path, const char *old,
		   const char *val, const char *reason)
{
	return plan_add(p, strcmp(old, val) ? PLAN_SET : PLAN_KEEP, NULL, path,
		   old, val, "%s", reason);
}

static int max_cpu(const struct topo *t)
{
	int i, m = 0;

	for (i = 0; i < t->ncpus; i++)
		if (t->cpus[i].id > m)
			m = t->cpus[i].id;
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].ncpus && t->nodes[i].cpus[t->nodes[i].ncpus - 1] > m)
			m = t->nodes[i].cpus[t->nodes[i].ncpus - 1];
	return m + 1;
}

static const struct topo_cpu *cpu_of(const struct topo *t, int id)
{
	int i;

	for (i = 0; i < t->ncpus; i++)
		if (t->cpus[i].id == id)
			return &t->cpus[i];
	return NULL;
}

/* The cores of one node, each a set of online SMT siblings; CPU 0's
 * core last. */
struct cores {
	struct cpuset *core;
	int n;
};

static void cores_free(struct cores *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		cpuset_free(&c->core[i]);
	free(c->core);
	c->core = NULL;
	c->n = 0;
}

static int node_cores(const struct topo *t, const struct topo_node *node,
		      int ncpu, struct cores *out)
{
	struct cpuset seen, sib;
	int i, j, zero = -1;

	out->n = 0;
	out->core = calloc((size_t)node->ncpus + 1, sizeof(*out->core));
	if (!out->core || cpuset_init(&seen, ncpu))
		return -ENOMEM;
	for (i = 0; i < node->ncpus; i++) {
		const struct topo_cpu *c = cpu_of(t, node->cpus[i]);
		struct cpuset *core;

		if (cpuset_has(&seen, node->cpus[i]) || (c && !c->online))
			continue;
		core = &out->core[out->n];
		if (cpuset_init(core, ncpu))
			goto nomem;
		out->n++;
		cpuset_set(core, node->cpus[i]);
		if (c && c->siblings[0] && !cpuset_init(&sib, ncpu)) {
			if (!cpuset_add_list(&sib, c->siblings))
				for (j = 0; j < node->ncpus; j++) {
					const struct topo_cpu *s = cpu_of(t, node->cpus[j]);

					if (cpuset_has(&sib, node->cpus[j]) &&
					    (!s || s->online))
						cpuset_set(core, node->cpus[j]);
				}
			cpuset_free(&sib);
		}
		cpuset_or(&seen, core);
		if (cpuset_has(core, 0))
			zero = out->n - 1;
	}
	cpuset_free(&seen);
	if (zero >= 0 && out->n > 1) {
		struct cpuset z = out->core[zero];

		memmove(&out->core[zero], &out->core[zero + 1],
			(size_t)(out->n - zero - 1) * sizeof(*out->core));
		out->core[out->n - 1] = z;
	}
	return 0;
nomem:
	cpuset_free(&seen);
	return -ENOMEM;
}

static const struct topo_node *find_node(const struct topo *t, int id)
{
	int i;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

/*
 * The plan of one node: its cores, how many take interrupts (sized to
 * the drives, lib/planner_size.h), its I/O cores, and the slots of its
 * drives.  Every device planned on the node shares it.
 */
struct node_plan {
	const struct topo_node *node;
	struct cores cores;
	int usable;		/* cores for interrupts or I/O */
	int *devs, ndevs;	/* t->pcis indices planned here */
	int *nvec, ndrives;	/* drives with vectors for the interrupt cores */
	int *flat, nflat;	/* the interrupt cores' CPUs, in order */
	double *load;		/* ... what stock drives put on each */
	struct size_node sz;
	struct cpuset irq, io;
	int next;		/* the next drive's slot */
};

/* Which cores may serve: CPU 0's core (last) left out if at least one
 * other core remains for interrupts and one for I/O. */
static int usable_cores(const struct cores *c)
{
	bool zero_last = c->n > 1 && cpuset_has(&c->core[c->n - 1], 0);

	return zero_last && c->n - 1 >= 2 ? c->n - 1 : c->n;
}

/* The profile's interrupt cores for a node of @ncores cores, before any
 * drive is counted. */
static int base_cores(int profile, int ncores)
{
	int want = ncores / 8 * plan_rules(profile)->irq_cores_per8;

	return want < 1 ? 1 : want;
}

/* Size node @np for its @ndrives drives and fill its interrupt and I/O
 * cores (@io_cores: at most that many I/O cores, 0 all). */
static int size_plan(struct node_plan *np, int profile, int io_cores,
		     const double *cpu_load)
{
	struct cores *c = &np->cores;
	int *ncpus = calloc((size_t)c->n + 1, sizeof(int)), i, k, cpu, last;
	double *load;
	int total = 0;

	if (!ncpus)
		return -ENOMEM;
	for (i = 0; i < c->n; i++) {
		ncpus[i] = cpuset_count(&c->core[i]);
		total += ncpus[i];
	}
	np->flat = calloc((size_t)total + 1, sizeof(int));
	load = calloc((size_t)total + 1, sizeof(double));
	if (!np->flat || !load) {
		free(ncpus);
		free(load);
		return -ENOMEM;
	}
	for (i = 0, k = 0; i < c->n; i++)
		for (cpu = 0; cpu < c->core[i].n; cpu++)
			if (cpuset_has(&c->core[i], cpu)) {
				np->flat[k] = cpu;
				load[k++] = cpu_load[cpu];
			}
	np->usable = usable_cores(c);
	np->sz = (struct size_node){
		.ncores = c->n, .core_ncpus = ncpus, .load = load,
		.usable = np->usable, .base = base_cores(profile, c->n),
		.io_cores = io_cores, .nvec = np->nvec, .ndrives = np->ndrives,
	};
	size_node(&np->sz);
	np->nflat = 0;
	for (i = 0; i < np->sz.irq_cores; i++) {
		cpuset_or(&np->irq, &c->core[i]);
		np->nflat += ncpus[i];
	}
	last = np->usable;
	if (io_cores > 0 && last > np->sz.irq_cores + io_cores)
		last = np->sz.irq_cores + io_cores;
	for (i = np->sz.irq_cores; i < last; i++)
		cpuset_or(&np->io, &c->core[i]);
	if (np->usable == 1)	/* one core: interrupts and I/O share it */
		cpuset_or(&np->io, &c->core[0]);
	np->load = load;
	np->sz.load = NULL;
	np->sz.core_ncpus = NULL;
	free(ncpus);
	return 0;
}

/* Does vector @q of @pc follow its queue (the profile's irq_local, or
 * @local: the node's drives complete on their queues' CPUs)? */
static bool follows_queue(const struct plan *p, const struct topo_pci *pc,
			  const struct topo_irq *q, bool local)
{
	return (plan_rules(p->profile)->irq_local || local) && pc->ssdt[0] &&
	       q->queue > 0 && q->qcpus[0] && q->managed != MANAGED_YES;
}

/* What the plan does with a vector. */
enum vec_way {
	VEC_NO_QUEUE,	/* a poll queue's, serving none now */
	VEC_POLLED,	/* its queue becomes a poll queue */
	VEC_FOLLOWS,	/* follows its queue (plan_local_irqs()) */
	VEC_MANAGED,	/* kernel-managed: not steerable */
	VEC_IRQ_CORE,	/* to the interrupt cores */
};

/* Does @pc say which queue each vector serves (ssdtune's queues/qK)? */
static bool queues_known(const struct topo_pci *pc)
{
	int i;

	for (i = 0; i < pc->nirqs; i++)
		if (pc->ssdt[0] && pc->irqs[i].queue >= 0)
			return true;
	return false;
}

static enum vec_way vec_way(const struct plan *p, const struct topo_pci *pc,
			    const struct topo_irq *q, bool known, int polled,
			    bool local)
{
	if (known && q->entry > 0 && q->queue < 0)
		return VEC_NO_QUEUE;
	if (known && q->queue >= polled)
		return VEC_POLLED;
	if (known && follows_queue(p, pc, q, local))
		return VEC_FOLLOWS;
	if (q->managed == MANAGED_YES)
		return VEC_MANAGED;
	return VEC_IRQ_CORE;
}

/* The I/O vectors of @pc that the plan puts on interrupt cores: its
 * interrupt work there (the admin vector's is none to speak of). */
static int irq_core_vectors(const struct plan *p, const struct topo_pci *pc,
			    int polled, bool local)
{
	bool known = queues_known(pc);
	int i, n = 0;

	for (i = 0; i < pc->nirqs; i++)
		n += pc->irqs[i].entry > 0 &&
		     vec_way(p, pc, &pc->irqs[i], known, polled, local) == VEC_IRQ_CORE;
	return n;
}

/*
 * The interrupt cores for @pc's vectors, round robin over @irq (a
 * drive's slot, or the node's interrupt cores).  An ssdtune controller's
 * I/O vector whose queue is polled, now or from @polled on (queues/qK),
 * has no interrupt to place: left alone.  One that follows its queue is
 * planned by plan_local_irqs(), after the controller's knobs.
 */
static int plan_irqs(struct plan *p, const struct topo_pci *pc,
		     const struct cpuset *irq, int nirq, int node, int polled,
		     bool local, const char *why)
{
	char key[128], path[PATH_MAX], want[TOPO_LIST];
	bool known = queues_known(pc);
	int i, k = 0, r = 0;

	for (i = 0; i < pc->nirqs && !r; i++) {
		const struct topo_irq *q = &pc->irqs[i];

		plan_irq_key(pc->bdf, q->entry, key, sizeof(key));
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", q->irq);
		switch (vec_way(p, pc, q, known, polled, local)) {
		case VEC_NO_QUEUE:
			r = plan_add(p, PLAN_SKIP, key, path, q->affinity, "",
				"%s vector %d: serves no queue (a poll queue's, kept for when it takes interrupts): left alone",
				pc->bdf, q->entry);
			continue;
		case VEC_POLLED:
			r = plan_add(p, PLAN_SKIP, key, path, q->affinity, "",
				"%s (%s vector %d): its queue becomes a poll queue (poll_queues): left alone",
				q->name[0] ? q->name : "?", pc->bdf, q->entry);
			continue;
		case VEC_FOLLOWS:
			continue;
		case VEC_MANAGED:
			r = plan_add(p, PLAN_SKIP, key, path, q->effective, "",
				"%s (%s vector %d): not steerable, not moved: %s; 'ssdtune attach %s' makes it steerable",
				q->name[0] ? q->name : "?", pc->bdf, q->entry,
				q->managed_why, pc->bdf);
			continue;
		case VEC_IRQ_CORE:
			break;
		}
		cpuset_format(&irq[k % nirq], want, sizeof(want));
		k++;
		r = plan_add(p, strcmp(q->affinity, want) ? PLAN_SET : PLAN_KEEP, key,
			path, q->affinity, want,
			"%s (%s vector %d): %s on node %d, the device's, apart from the I/O cores",
			q->name[0] ? q->name : "?", pc->bdf, q->entry, why, node);
		if (!r) {
			snprintf(p->items[p->nitems - 1].bdf, BDF_BUFSZ, "%s", pc->bdf);
			p->items[p->nitems - 1].vector = q->entry;
		}
	}
	return r;
}

/*
 * The vectors that follow their queues: each on the CPUs that submit to
 * its queue, those of the node's I/O cores first, so a completion at low
 * depth wakes its reader on the CPU it runs on, as stock's managed
 * vectors do, and not through a second interrupt from an interrupt core.
 * Planned after the controller's knobs: when the plan changes poll_queues
 * (@remap), the queues are mapped anew, so apply reads each queue's CPUs
 * again when it writes the vector (the target shown is today's map).
 */
static int plan_local_irqs(struct plan *p, const struct topo_pci *pc,
			   const struct node_plan *n, int polled, bool remap)
{
	char key[128], path[PATH_MAX], want[TOPO_LIST], within[TOPO_LIST];
	int i, r = 0;

	cpuset_format(&n->io, within, sizeof(within));
	for (i = 0; i < pc->nirqs && !r; i++) {
		const struct topo_irq *q = &pc->irqs[i];
		struct plan_item *it;

		if (!follows_queue(p, pc, q, n->sz.local) || q->queue >= polled)
			continue;
		plan_irq_key(pc->bdf, q->entry, key, sizeof(key));
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", q->irq);
		r = plan_follow_target(q->qcpus, within, want, sizeof(want));
		if (r)
			return r;
		r = plan_add(p, strcmp(q->affinity, want) ? PLAN_SET : PLAN_KEEP,
			key, path, q->affinity, want,
			"%s (%s vector %d): on the CPUs that submit to its queue%s: a completion wakes its reader without an interrupt between CPUs%s",
			q->name[0] ? q->name : "?", pc->bdf, q->entry,
			strcmp(want, q->qcpus) ? ", those of the I/O cores" : "",
			remap ? "; read again after poll_queues maps the queues anew" : "");
		if (r)
			return r;
		it = &p->items[p->nitems - 1];
		snprintf(it->bdf, BDF_BUFSZ, "%s", pc->bdf);
		it->vector = q->entry;
		if (remap) {
			it->follow = strdup(ssdtdev_queue_path(path, sizeof(path), pc->ssdt,
							       q->queue, QUEUE_FILE(cpus)));
			it->within = strdup(within);
			if (!it->follow || !it->within)
				return -ENOMEM;
		}
	}
	return 0;
}

/* The item just added is file @file of ssdtune controller @pc: key it by
 * the controller's identity where the controller has one. */
static int ctrl_item(struct plan *p, const struct topo_pci *pc, const char *file)
{
	struct plan_item *it = &p->items[p->nitems - 1];
	char key[512];

	if (!pc->ssdt_serial[0] || !pc->ssdt_model[0])
		return 0;
	plan_ctrl_key(pc->ssdt_serial, pc->ssdt_model, file, key, sizeof(key));
	free(it->key);
	it->key = strdup(key);
	it->serial = strdup(pc->ssdt_serial);
	it->model = strdup(pc->ssdt_model);
	snprintf(it->bdf, sizeof(it->bdf), "%s", pc->bdf);
	return it->key && it->serial && it->model ? 0 : -ENOMEM;
}

/* A number file of a controller as read ("" or junk: -1). */
static int ctrl_number(const char *v)
{
	unsigned int n;

	if (parse_dec(&v, &n) || *v || n > INT_MAX)
		return -1;
	return (int)n;
}

/*
 * The poll queues the plan gives ssdtune controller @pc: under the latency
 * profile one of its I/O queues when it has none and at least two (the
 * others keep their interrupts), else the ones it has.  -1: no knob, or
 * the plan leaves it (another profile, the configuration sets it).
 */
static int poll_target(const struct plan *p, const struct plan_opts *o,
		       const struct topo_pci *pc)
{
	int cur = ctrl_number(pc->poll_queues), nio = ctrl_number(pc->io_queues);

	if (!pc->ssdt[0] || cur < 0 || p->profile != PROFILE_LATENCY || o->keep_poll)
		return -1;
	return cur == 0 && nio >= 2 ? 1 : cur;
}

/*
 * The first queue the plan leaves polled (1-based, as queues/qK; INT_MAX
 * none): its vector, and those after it, serve no interrupt.
 */
static int poll_from(const struct plan *p, const struct plan_opts *o,
		     const struct topo_pci *pc)
{
	int want = poll_target(p, o, pc), nio = ctrl_number(pc->io_queues);

	return want > 0 && nio > 0 ? nio - want + 1 : INT_MAX;
}

/* Does the plan write @pc's poll_queues (and so map its queues anew)? */
static bool poll_changes(const struct plan *p, const struct plan_opts *o,
			 const struct topo_pci *pc)
{
	int want = poll_target(p, o, pc);

	return want >= 0 && want != ctrl_number(pc->poll_queues);
}

/*
 * latency: polled I/O completes without an interrupt, on the driver's
 * poll queues, and the controller's poll_queues knob changes them live
 * (the kernel ignores writes to queue/io_poll).
 */
static int plan_poll(struct plan *p, const struct plan_opts *o,
		     const struct topo_pci *pc)
{
	char path[PATH_MAX], val[16], why[320];
	int want = poll_target(p, o, pc), nio = ctrl_number(pc->io_queues);
	int r;

	if (p->profile != PROFILE_LATENCY || !pc->poll_queues[0])
		return 0;
	ssdtdev_path(path, sizeof(path), pc->ssdt, KNOB_FILE(poll_queues));
	if (o->keep_poll)
		return plan_add(p, PLAN_SKIP, NULL, path, pc->poll_queues, "",
			"the configuration sets poll_queues: left to it");
	if (want <= 0)
		return plan_add(p, PLAN_NOTE, "note poll", "", "", "",
			"%s: one I/O queue, which keeps its interrupt: none to poll",
			pc->ssdt);
	if (!strcmp(pc->poll_queues, "0"))
		snprintf(why, sizeof(why), "%s: one of its %d I/O queues polled: polled I/O (io_uring with IOPOLL, fio --hipri) completes there without an interrupt, the other %d keep theirs; a drain and a controller reset, live",
			 pc->ssdt, nio, nio - 1);
	else
		snprintf(why, sizeof(why), "%s: %s poll queues: polled I/O (io_uring with IOPOLL, fio --hipri) completes on them without an interrupt",
			 pc->ssdt, pc->poll_queues);
	snprintf(val, sizeof(val), "%d", want);
	r = setting(p, path, pc->poll_queues, val, why);
	return r ? r : ctrl_item(p, pc, KNOB_FILE(poll_queues));
}

/*
 * The drive's own C-states (APST): like the CPU's, the latency profile
 * turns them off, since the first I/O after an idle spell would wait for
 * the drive to leave a non-operational state (milliseconds on client
 * drives); the other profiles keep what the driver set at attach, stock's
 * table (default_ps_max_latency_us).
 */
static int plan_apst(struct plan *p, const struct plan_opts *o,
		     const struct topo_pci *pc)
{
	char path[PATH_MAX], why[256];
	int r;

	ssdtdev_path(path, sizeof(path), pc->ssdt, KNOB_FILE(apst_max_latency_us));
	if (!pc->apst[0])
		return plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
	if (!strcmp(pc->apst, SSDTUNE_APST_UNSUPPORTED))
		return plan_add(p, PLAN_SKIP, NULL, path, pc->apst, "",
			"%s: the drive has no APST (or refused it): nothing to plan", pc->ssdt);
	if (o->keep_apst)
		return plan_add(p, PLAN_SKIP, NULL, path, pc->apst, "",
			"the configuration sets apst_max_latency_us: left to it");
	if (p->profile == PROFILE_LATENCY)
		snprintf(why, sizeof(why), "%s: APST off: no idle descent into the drive's non-operational states, whose exit the next I/O would wait for",
			 pc->ssdt);
	else
		snprintf(why, sizeof(why), "%s: APST as the driver set it (the %s profile keeps the drive's idle states)",
			 pc->ssdt, plan_profile_name(p->profile));
	r = setting(p, path, pc->apst,
		    p->profile == PROFILE_LATENCY ? "0" : pc->apst, why);
	return r ? r : ctrl_item(p, pc, KNOB_FILE(apst_max_latency_us));
}

static int plan_ssdt(struct plan *p, const struct plan_opts *o,
		     const struct topo_pci *pc)
{
	char path[PATH_MAX], why[256];
	int r;

	if (!pc->ssdt[0])
		return plan_add(p, PLAN_NOTE, "note coalesce", "", "", "",
			   "%s: coalescing and power limit are live knobs only on ssdtune controllers ('ssdtune attach %s')",
			   pc->bdf, pc->bdf);
	ssdtdev_path(path, sizeof(path), pc->ssdt, KNOB_FILE(coalesce_profile));
	snprintf(why, sizeof(why), "%s: interrupt coalescing for the %s profile",
		 pc->ssdt, plan_profile_name(p->profile));
	if (o->keep_coalesce)
		r = plan_add(p, PLAN_SKIP, NULL, path, pc->coalesce_profile, "",
			"the configuration sets the coalescing knobs: left to them");
	else if (!strcmp(pc->coalesce_profile, "custom"))
		/* Hand-set knobs: a profile file reading "custom" cannot be
		 * written back, so revert could not restore it.  Leave it. */
		r = plan_add(p, PLAN_SKIP, NULL, path, "custom", "",
			"set by hand (coalesce_profile reads custom): left alone; 'ssdtune set' changes it");
	else if (!pc->coalesce_profile[0])
		r = plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
	else if (!(r = setting(p, path, pc->coalesce_profile,
			       plan_rules(p->profile)->coalesce, why)))
		r = ctrl_item(p, pc, KNOB_FILE(coalesce_profile));
	if (!r)
		r = plan_poll(p, o, pc);
	if (r)
		return r;
	ssdtdev_path(path, sizeof(path), pc->ssdt, KNOB_FILE(power_limit_mw));
	if (!pc->power_limit_mw[0])
		return plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
	if (o->keep_power)
		return plan_add(p, PLAN_SKIP, NULL, path, pc->power_limit_mw, "",
			"the configuration sets power_limit_mw: left to it");
	snprintf(why, sizeof(why), "%s: no power limit (a limit costs up to ~40%% IOPS)",
		 pc->ssdt);
	r = setting(p, path, pc->power_limit_mw, "0", why);
	if (!r)
		r = ctrl_item(p, pc, KNOB_FILE(power_limit_mw));
	return r ? r : plan_apst(p, o, pc);
}

/* One queue file of disk @d: set it to @want unless it is absent. */
static int queue_setting(struct plan *p, const struct topo_disk *d,
			 const char *file, const char *old, const char *want,
			 const char *why)
{
	char path[PATH_MAX], reason[NAME_MAX + 256];

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/queue/%s", d->name, file);
	if (!old[0])
		return plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
	snprintf(reason, sizeof(reason), "%s: %s", d->name, why);
	return setting(p, path, old, want, reason);
}

/* The block queues of @pc's disks, for the profile. */
static int plan_disks(struct plan *p, const struct topo_pci *pc)
{
	const char *sched = plan_rules(p->profile)->scheduler;
	const char *nom = plan_rules(p->profile)->nomerges;
	const char *rqa = plan_rules(p->profile)->rq_affinity;
	int i, r = 0;

	for (i = 0; i < pc->ndisks && !r; i++) {
		const struct topo_disk *d = &pc->disks[i];

		if (sched)
			r = queue_setting(p, d, "scheduler", d->scheduler, sched,
					  "no I/O scheduler: each CPU has its own NVMe queue, and a scheduler adds a lock and a queue to every I/O");
		if (!r && nom)
			r = queue_setting(p, d, "nomerges", d->nomerges, nom,
					  nomerges_why[nom[0] - '0']);
		if (!r && rqa)
			r = queue_setting(p, d, "rq_affinity", d->rq_affinity, rqa,
					  rq_affinity_why[rqa[0] - '0']);
	}
	return r;
}

static int plan_idle(struct plan *p, const struct topo *t,
		     const struct cpuset *chosen, int ncpu)
{
	int bound = plan_rules(p->profile)->latency_us, i, c, r = 0;
	char path[PATH_MAX], why[256];
	struct cpuset off;

	if (!t->idle_available)
		return plan_add(p, PLAN_SKIP, NULL, SYS_CPU "/cpuidle", "", "",
			   "not present (no cpuidle): C-state limits skipped");
	if (bound < 0)
		return plan_add(p, PLAN_NOTE, "note cpuidle", "", "", "",
			   "C-states: left alone by the %s profile",
			   plan_profile_name(p->profile));
	if (cpuset_init(&off, ncpu))
		return -ENOMEM;
	for (i = 0; i < t->nidle_states && !r; i++) {
		const struct topo_idle_state *s = &t->idle_states[i];

		if ((int)s->latency_us <= bound)
			continue;
		cpuset_clear(&off);
		if (cpuset_add_list(&off, s->disabled_on))
			cpuset_clear(&off);
		snprintf(why, sizeof(why), "%s: exit latency %u us > %d us (%s profile)",
			 s->name, s->latency_us, bound, plan_profile_name(p->profile));
		for (c = 0; c < ncpu && !r; c++) {
			if (!cpuset_has(chosen, c))
				continue;
			snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/disable",
				 c, s->index);
			r = setting(p, path, cpuset_has(&off, c) ? "1" : "0", "1", why);
		}
	}
	cpuset_free(&off);
	return r;
}

static int plan_freq(struct plan *p, const struct topo *t,
		     const struct cpuset *chosen, int ncpu)
{
	const char *gov = plan_rules(p->profile)->governor;
	const char *epp = plan_rules(p->profile)->epp;
	char path[PATH_MAX], why[TOPO_LIST + 128];
	struct cpuset pc;
	int i, c, r = 0;

	if (!t->freq_available) {
		r = plan_add(p, PLAN_SKIP, NULL, SYS_CPU "/cpufreq", "", "",
			"not present (no cpufreq): governor and EPP skipped");
	} else if (!cpuset_init(&pc, ncpu)) {
		for (i = 0; i < t->npolicies && !r; i++) {
			const struct topo_policy *pol = &t->policies[i];
			bool hit = false;

			cpuset_clear(&pc);
			cpuset_add_list(&pc, pol->cpus);
			for (c = 0; c < ncpu; c++)
				hit |= cpuset_has(&pc, c) && cpuset_has(chosen, c);
			if (!hit)
				continue;
			if (gov) {
				snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/scaling_governor",
					 pol->id);
				snprintf(why, sizeof(why), "CPUs %s: no frequency scaling (%s profile)",
					 pol->cpus, plan_profile_name(p->profile));
				r = setting(p, path, pol->governor, gov, why);
			} else if (epp && pol->epp[0] && strcmp(pol->governor, "performance")) {
				/* intel_pstate refuses EPP writes under the
				 * performance governor (EBUSY): it pins EPP */
				snprintf(path, sizeof(path),
					 SYS_CPU "/cpufreq/policy%d/energy_performance_preference",
					 pol->id);
				snprintf(why, sizeof(why), "CPUs %s: energy/performance bias (%s profile)",
					 pol->cpus, plan_profile_name(p->profile));
				r = setting(p, path, pol->epp, epp, why);
			}
		}
		cpuset_free(&pc);
	} else {
		return -ENOMEM;
	}
	if (r)
		return r;
	if (t->turbo < 0)
		return plan_add(p, PLAN_SKIP, NULL, SYS_CPU "/cpufreq/boost", "", "",
			   "not present: turbo skipped");
	if (plan_rules(p->profile)->turbo < 0)
		return plan_add(p, PLAN_NOTE, "note turbo", "", "", "",
			   "turbo: left %s by the %s profile", t->turbo ? "on" : "off",
			   plan_profile_name(p->profile));
	snprintf(why, sizeof(why), "turbo on: a low CPU ratio costs ~10%% (%s profile)",
		 plan_profile_name(p->profile));
	if (strstr(t->turbo_file, "no_turbo"))
		return setting(p, t->turbo_file, t->turbo ? "0" : "1", "0", why);
	return setting(p, t->turbo_file, t->turbo ? "1" : "0", "1", why);
}

static int plan_advice(struct plan *p, const struct topo *t)
{
	int i, r;

	if (p->profile != PROFILE_BALANCED && p->io_cpus[0]) {
		snprintf(p->cmdline, sizeof(p->cmdline),
			 "isolcpus=managed_irq,domain,%s nohz_full=%s rcu_nocbs=%s%s%s",
			 p->io_cpus, p->io_cpus, p->io_cpus,
			 p->housekeeping[0] ? " irqaffinity=" : "", p->housekeeping);
		r = p->boot ? plan_boot(p, t) :
			plan_add(p, PLAN_NOTE, "note boot", "", "", "",
				 "boot isolation (printed, not written; 'ssdtune apply --boot' writes it for GRUB): add to the kernel command line: %s",
				 p->cmdline);
		if (!r && !p->isolate)
			r = plan_add(p, PLAN_NOTE, "note cpuset", "", "", "",
				     "runtime isolation not asked for: 'ssdtune apply --isolate' moves host interrupts, workqueues and every other task off the I/O cores %s (a cpuset partition; 'ssdtune run' starts the workload in it)",
				     p->io_cpus);
		if (r)
			return r;
	}
	for (i = 0; i < p->ndevs; i++) {
		r = plan_add(p, PLAN_NOTE, "note io", "", "", "",
			"%s: I/O cores %s: fio --cpus_allowed=%s, numactl --physcpubind=%s --membind=%d",
			p->devs[i].bdf, p->devs[i].io_cpus, p->devs[i].io_cpus,
			p->devs[i].io_cpus, p->devs[i].node);
		if (r)
			return r;
	}
	r = plan_tuners(p, t);
	return r ? r : plan_irqbalance(p, t);
}

static bool selected(const int *sel, int nsel, int i, const struct topo_pci *pc)
{
	int k;

	if (!nsel)
		return pci_class_is_nvme(pc->class24);
	for (k = 0; k < nsel; k++)
		if (sel[k] == i)
			return true;
	return false;
}

/* Has @node a CPU that can serve (online, or of unknown state)? */
static bool node_serves(const struct topo *t, const struct topo_node *node)
{
	int i;

	for (i = 0; i < node->ncpus; i++) {
		const struct topo_cpu *c = cpu_of(t, node->cpus[i]);

		if (!c || c->online)
			return true;
	}
	return false;
}

/*
 * The index in t->nodes of the node @pc is planned on: its own, or where
 * that has no CPU to serve or is unknown, the nearest one that has (the
 * first, if unknown).  -1 if no node has a CPU.  A note says which.
 */
static int plan_node_index(struct plan *p, const struct topo *t,
			   const struct topo_pci *pc, int *r)
{
	const struct topo_node *own = find_node(t, pc->node);
	int from = own ? (int)(own - t->nodes) : -1, best = -1, i, dist;

	if (own && node_serves(t, own))
		return from;
	for (i = 0; i < t->nnodes; i++) {
		if (!node_serves(t, &t->nodes[i]))
			continue;
		dist = from >= 0 && t->nodes[from].distance ? t->nodes[from].distance[i] : 0;
		if (best < 0 || (from >= 0 && t->nodes[from].distance &&
				 dist < t->nodes[from].distance[best]))
			best = i;
	}
	if (best < 0)
		return -1;
	if (!own && t->nnodes > 1)
		*r = plan_add(p, PLAN_NOTE, "note node", "", "", "",
			"%s: NUMA node unknown: planning on node %d",
			pc->bdf, t->nodes[best].id);
	else if (own)
		*r = plan_add(p, PLAN_NOTE, "note node", "", "", "",
			"%s: its node %d has no CPU: planning on node %d, the nearest that has",
			pc->bdf, own->id, t->nodes[best].id);
	return best;
}

/* The first CPU of cpulist @list, or -1. */
static int first_cpu(const char *list)
{
	unsigned int n;

	if (parse_dec(&list, &n) || n > INT_MAX)
		return -1;
	return (int)n;
}

/*
 * What the vectors the plan does not move put on each CPU, in drives'
 * worth (@load[ncpu]): a stock drive's kernel-managed ones, and every I/O
 * vector of an NVMe function not in the plan.
 */
static void fixed_load(const struct topo *t, const int *sel, int nsel,
		       double *load, int ncpu)
{
	int i, k, n, cpu;

	for (i = 0; i < t->npcis; i++) {
		const struct topo_pci *pc = &t->pcis[i];
		bool planned = selected(sel, nsel, i, pc);

		if (!pci_class_is_nvme(pc->class24))
			continue;
		for (k = 0, n = 0; k < pc->nirqs; k++)
			n += pc->irqs[k].entry > 0 &&
			     (!planned || pc->irqs[k].managed == MANAGED_YES);
		for (k = 0; n && k < pc->nirqs; k++) {
			const struct topo_irq *q = &pc->irqs[k];

			if (q->entry <= 0 || (planned && q->managed != MANAGED_YES))
				continue;
			cpu = first_cpu(q->effective[0] ? q->effective : q->affinity);
			if (cpu >= 0 && cpu < ncpu)
				load[cpu] += 1.0 / n;
		}
	}
}

static void node_plan_free(struct node_plan *np)
{
	cores_free(&np->cores);
	free(np->devs);
	free(np->nvec);
	free(np->flat);
	free(np->load);
	cpuset_free(&np->irq);
	cpuset_free(&np->io);
}

/* One line for node @np: which way its interrupt cores were chosen, and
 * why. */
static int node_note(struct plan *p, const struct node_plan *np)
{
	char irq[TOPO_LIST], io[TOPO_LIST];
	int i, nvec = 0;

	cpuset_format(&np->irq, irq, sizeof(irq));
	cpuset_format(&np->io, io, sizeof(io));
	for (i = 0; i < np->ndrives; i++)
		nvec += np->nvec[i];
	if (!np->ndrives)
		return plan_add(p, PLAN_NOTE, "note node", "", "", "",
			"node %d: %d device%s, none with I/O vectors for interrupt cores (%s): interrupt cores %s, for the admin vectors; I/O cores %s",
			np->node->id, np->ndevs, np->ndevs == 1 ? "" : "s",
			plan_rules(p->profile)->irq_local ?
			"the profile completes each queue on its own CPUs" :
			"polled or kernel-managed", irq, io);
	if (np->sz.local)
		return plan_add(p, PLAN_NOTE, "note node", "", "", "",
			"node %d: queue-local completions: interrupt cores for its %d drive%s with interrupt-driven queues (%d vectors) would take %d of its %d cores and leave too few for I/O (%d wanted): each I/O vector stays on the CPUs that submit to its queue, as stock's do; interrupt cores %s keep the rest; I/O cores %s",
			np->node->id, np->ndrives, np->ndrives == 1 ? "" : "s",
			nvec, np->sz.want_cores, np->usable,
			np->sz.io_cores > 0 ? np->sz.io_cores : np->sz.want_cores,
			irq, io);
	return plan_add(p, PLAN_NOTE, "note node", "", "", "",
		"node %d: interrupt cores %s sized to its %d drive%s with interrupt-driven queues (%d vectors), %s: the busiest interrupt CPU carries %.2f of a drive's interrupts (at most %.0f); I/O cores %s",
		np->node->id, irq, np->ndrives, np->ndrives == 1 ? "" : "s",
		nvec, np->nflat >= np->ndrives ? "each on CPUs of its own" :
		"all sharing them (fewer CPUs than drives)",
		np->sz.share, SIZE_CPU_CAPACITY, io);
}

/* Size every node that has devices: np[k] for t->nodes[k]. */
static int plan_nodes(struct plan *p, const struct topo *t,
		      const struct plan_opts *o, struct node_plan *np,
		      const double *load, int ncpu)
{
	int k, j, nv, r = 0;

	for (k = 0; k < t->nnodes && !r; k++) {
		struct node_plan *n = &np[k];

		if (!n->ndevs)
			continue;
		if ((r = node_cores(t, n->node, ncpu, &n->cores)))
			return r;
		if (!n->cores.n)
			return -ENODEV;
		n->nvec = calloc((size_t)n->ndevs, sizeof(int));
		if (!n->nvec)
			return -ENOMEM;
		for (j = 0; j < n->ndevs; j++) {
			const struct topo_pci *pc = &t->pcis[n->devs[j]];

			nv = irq_core_vectors(p, pc, poll_from(p, o, pc), false);
			if (nv > 0)
				n->nvec[n->ndrives++] = nv;
		}
		r = size_plan(n, p->profile, o->io_cores, load);
		if (!r)
			r = node_note(p, n);
	}
	return r;
}

static void dev_irq_free(struct cpuset *irq, int nirq, int slot)
{
	int i;

	for (i = 0; slot > 0 && i < nirq; i++)
		cpuset_free(&irq[i]);
	free(irq);
}

/*
 * The interrupt CPUs of @pc, a device of node @n, into *@irq (*@nirq
 * sets, round robin) and @cpus: a slot of its own if its I/O vectors go
 * to the interrupt cores and they have a CPU for each drive, each core
 * of the slot a set; else the node's interrupt cores.  Returns whether
 * it has a slot, or -ENOMEM.
 */
static int dev_irq_cpus(struct node_plan *n, int nv, struct cpuset **irq,
			int *nirq, struct cpuset *cpus, int ncpu)
{
	int first, count, i, c, g = -1, last = -1;
	/* a slot each needs a CPU each: else they share the node's cores */
	bool slot = !n->sz.local && nv > 0 && n->ndrives && n->nflat >= n->ndrives;

	*irq = calloc((size_t)(slot ? n->nflat : n->sz.irq_cores) + 1, sizeof(**irq));
	if (!*irq)
		return -ENOMEM;
	cpuset_clear(cpus);
	if (!slot) {
		for (i = 0; i < n->sz.irq_cores; i++)
			(*irq)[i] = n->cores.core[i];	/* shared, not owned */
		*nirq = n->sz.irq_cores;
		cpuset_or(cpus, &n->irq);
		return 0;
	}
	size_slot(n->next++ % n->ndrives, n->ndrives, n->nflat, &first, &count);
	for (i = first; i < first + count; i++) {
		for (c = 0; !cpuset_has(&n->cores.core[c], n->flat[i]); c++)
			;
		if (c != last) {
			if (cpuset_init(&(*irq)[++g], ncpu)) {
				dev_irq_free(*irq, g, 1);
				*irq = NULL;
				return -ENOMEM;
			}
			last = c;
		}
		cpuset_set(&(*irq)[g], n->flat[i]);
		cpuset_set(cpus, n->flat[i]);
	}
	*nirq = g + 1;
	return 1;
}

int plan_build(const struct topo *t, const struct plan_opts *o, const int *sel,
	       int nsel, struct plan *p)
{
	int profile = o->profile;
	int ncpu = max_cpu(t), i, r = 0, nirq = 0, slot = 0;
	/* shared: the one core of a device's node, interrupts and I/O */
	struct cpuset all_irq, all_io, shared, chosen, *irq = NULL;
	struct node_plan *np;
	double *load;
	int *at;

	memset(p, 0, sizeof(*p));
	p->profile = profile;
	p->isolate = o->isolate && profile != PROFILE_BALANCED;
	p->boot = o->boot && profile != PROFILE_BALANCED;
	p->io_cores = o->io_cores;
	p->devs = calloc((size_t)t->npcis + 1, sizeof(*p->devs));
	np = calloc((size_t)t->nnodes + 1, sizeof(*np));
	at = calloc((size_t)t->npcis + 1, sizeof(int));
	load = calloc((size_t)ncpu + 1, sizeof(double));
	if (!p->devs || !np || !at || !load || cpuset_init(&all_irq, ncpu) ||
	    cpuset_init(&all_io, ncpu) || cpuset_init(&shared, ncpu) ||
	    cpuset_init(&chosen, ncpu)) {
		free(np);
		free(at);
		free(load);
		return -ENOMEM;
	}
	for (i = 0; i < t->nnodes && !r; i++) {
		np[i].node = &t->nodes[i];
		if (cpuset_init(&np[i].irq, ncpu) || cpuset_init(&np[i].io, ncpu))
			r = -ENOMEM;
	}
	/* which node each device is planned on, then each node sized */
	for (i = 0; i < t->npcis && !r; i++) {
		struct node_plan *n;

		at[i] = -1;
		if (!selected(sel, nsel, i, &t->pcis[i]))
			continue;
		at[i] = plan_node_index(p, t, &t->pcis[i], &r);
		if (at[i] < 0) {
			r = r ? r : -ENODEV;
			break;
		}
		n = &np[at[i]];
		if (!n->devs && !(n->devs = calloc((size_t)t->npcis, sizeof(int))))
			r = -ENOMEM;
		else
			n->devs[n->ndevs++] = i;
	}
	if (!r) {
		fixed_load(t, sel, nsel, load, ncpu);
		r = plan_nodes(p, t, o, np, load, ncpu);
	}
	for (i = 0; i < t->npcis && !r; i++) {
		const struct topo_pci *pc = &t->pcis[i];
		struct node_plan *n;
		struct plan_dev *d;
		int k, polled;

		if (at[i] < 0)
			continue;
		n = &np[at[i]];
		polled = poll_from(p, o, pc);
		d = &p->devs[p->ndevs++];
		snprintf(d->bdf, sizeof(d->bdf), "%s", pc->bdf);
		snprintf(d->driver, sizeof(d->driver), "%s", pc->driver);
		snprintf(d->ssdt, sizeof(d->ssdt), "%s", pc->ssdt);
		d->node = n->node->id;
		dev_irq_free(irq, nirq, slot);
		irq = NULL;
		slot = dev_irq_cpus(n, irq_core_vectors(p, pc, polled, n->sz.local),
				    &irq, &nirq, &chosen, ncpu);
		if (slot < 0) {
			r = slot;
			break;
		}
		cpuset_format(&chosen, d->irq_cpus, sizeof(d->irq_cpus));
		cpuset_format(&n->io, d->io_cpus, sizeof(d->io_cpus));
		cpuset_or(&all_irq, &n->irq);
		cpuset_or(&all_io, &n->io);
		d->nvectors = pc->nirqs;
		for (k = 0; k < pc->nirqs; k++)
			d->nmanaged += pc->irqs[k].managed == MANAGED_YES;
		if (n->cores.n == 1) {
			cpuset_or(&shared, &n->io);
			r = plan_add(p, PLAN_NOTE, "note shared", "", "", "",
				"%s: node %d has one core: interrupts and I/O share it",
				pc->bdf, n->node->id);
		}
		if (!r)
			r = plan_irqs(p, pc, irq, nirq, n->node->id, polled,
				      n->sz.local, slot ? "interrupt CPUs of its own" :
				      "interrupt core");
		if (!r)
			r = plan_ssdt(p, o, pc);
		if (!r)
			r = plan_local_irqs(p, pc, n, polled, poll_changes(p, o, pc));
		if (!r)
			r = plan_disks(p, pc);
	}
	dev_irq_free(irq, nirq, slot);
	if (!r && !p->ndevs)
		r = -ENODEV;
	if (!r) {
		/* I/O cores of one node's devices may be another's interrupt
		 * cores (a device planned on a node not its own): interrupts
		 * win, but for the one core of a node, which stays both
		 * (isolation keeps the host's work off it). */
		for (i = 0; i < ncpu; i++)
			if (cpuset_has(&all_irq, i) && !cpuset_has(&shared, i))
				all_io.on[i] = false;
		cpuset_format(&all_irq, p->irq_cpus, sizeof(p->irq_cpus));
		cpuset_format(&all_io, p->io_cpus, sizeof(p->io_cpus));
		cpuset_clear(&chosen);
		for (i = 0; i < t->ncpus; i++)
			if (t->cpus[i].online)
				cpuset_set(&chosen, t->cpus[i].id);
		for (i = 0; i < ncpu; i++)
			if (cpuset_has(&all_irq, i) || cpuset_has(&all_io, i))
				chosen.on[i] = false;
		cpuset_format(&chosen, p->housekeeping, sizeof(p->housekeeping));
		cpuset_clear(&chosen);
		cpuset_or(&chosen, &all_irq);
		cpuset_or(&chosen, &all_io);
		r = plan_idle(p, t, &chosen, ncpu);
	}
	if (!r)
		r = plan_freq(p, t, &chosen, ncpu);
	if (!r && profile == PROFILE_LATENCY)
		r = plan_pm_qos(p, t, &all_io, ncpu);
	if (!r && profile != PROFILE_BALANCED)
		r = plan_isolation(p, t, o, &all_io, ncpu);
	if (!r)
		r = plan_advice(p, t);
	for (i = 0; i < t->nnodes; i++)
		node_plan_free(&np[i]);
	free(np);
	free(at);
	free(load);
	cpuset_free(&all_irq);
	cpuset_free(&all_io);
	cpuset_free(&shared);
	cpuset_free(&chosen);
	return r;
}
