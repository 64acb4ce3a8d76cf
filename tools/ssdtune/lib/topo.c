// SPDX-License-Identifier: GPL-2.0
/*
 * Gather the host's topology: libnuma for nodes, CPUs and distances,
 * libpci for storage functions and their PCIe links, sysfs and procfs for
 * CPU cores, interrupt vectors, cpuidle and cpufreq.  Read-only.
 */
#include <setjmp.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <numa.h>
#include <pci/pci.h>

#include "lib/blkdev.h"
#include "lib/cpuset.h"
#include "lib/dropin.h"
#include "lib/irqvec.h"
#include "lib/isol.h"
#include "lib/error.h"
#include "lib/parse.h"
#include "lib/pcidev.h"
#include "lib/knobtab.h"
#include "lib/ssdtdev.h"
#include "lib/state.h"
#include "lib/sysfs.h"
#include "lib/topo.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_CPUIDLE	SYS_CPU "/cpuidle"
#define SYS_CPUFREQ	SYS_CPU "/cpufreq"
#define PROC_IRQ	"/proc/irq"

/* libnuma reports through these weak hooks; keep its words off stderr,
 * the tool says what went wrong in its own one line. */
void numa_error(char *where)
{
	(void)where;
}

void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

/* A decimal integer file.  0: read; -ENOENT: missing (not an error
 * here, @err untouched); another -errno: @err names @path. */
static int read_int(const char *path, int *v, struct lib_err *err)
{
	char buf[64], *end;
	long x;
	int r = sys_read(path, buf, sizeof(buf));

	if (r == -ENOENT)
		return r;
	if (r)
		return lib_errf(err, -r, "cannot read %s: %s", path,
				strerror(-r));
	errno = 0;
	x = strtol(buf, &end, 10);
	if (!buf[0] || *end || errno || x < -1 || x > 0x7fffffff)
		return lib_errf(err, EINVAL, "%s: malformed (expected an integer, got '%s')",
				path, buf);
	*v = (int)x;
	return 0;
}

/* A read_int() result that is an error, not a missing file. */
static bool failed(int r)
{
	return r < 0 && r != -ENOENT;
}

static int gather_numa(struct topo *t, struct lib_err *err)
{
	struct bitmask *cpus;
	int max, n, i, j, k, ncpus;

	if (numa_available() < 0)
		return lib_errf(err, ENODEV, "libnuma: NUMA is not available (no /sys/devices/system/node?)");
	max = numa_max_node();
	ncpus = numa_num_possible_cpus();
	t->nodes = calloc((size_t)max + 1, sizeof(*t->nodes));
	cpus = numa_allocate_cpumask();
	if (!t->nodes || !cpus)
		return lib_enomem(err);
	for (n = 0; n <= max; n++) {
		struct topo_node *node;

		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned int)n))
			continue;
		node = &t->nodes[t->nnodes++];
		node->id = n;
		numa_bitmask_clearall(cpus);
		if (numa_node_to_cpus(n, cpus)) {
			char p[128];

			numa_free_cpumask(cpus);
			return lib_errf(err, EIO, "%s: libnuma cannot read it",
					sys_pathf(p, sizeof(p), "/sys/devices/system/node/node%d/cpumap", n));
		}
		node->cpus = calloc((size_t)ncpus + 1, sizeof(int));
		if (!node->cpus) {
			numa_free_cpumask(cpus);
			return lib_enomem(err);
		}
		for (i = 0; i < ncpus; i++)
			if (numa_bitmask_isbitset(cpus, (unsigned int)i))
				node->cpus[node->ncpus++] = i;
		node->mem_total = numa_node_size64(n, &node->mem_free);
		if (node->mem_total < 0)
			node->mem_free = -1;
	}
	numa_free_cpumask(cpus);
	for (i = 0; i < t->nnodes; i++) {
		t->nodes[i].distance = calloc((size_t)t->nnodes, sizeof(int));
		if (!t->nodes[i].distance)
			return lib_enomem(err);
		for (j = 0; j < t->nnodes; j++) {
			k = numa_distance(t->nodes[i].id, t->nodes[j].id);
			t->nodes[i].distance[j] = k;
		}
	}
	return 0;
}

static int gather_cpus(struct topo *t, struct lib_err *err)
{
	struct cpuset online = { 0 };
	char p[PATH_MAX], buf[TOPO_LIST];
	bool have_online = false;
	int *ids, n, i, r, v = 0;

	n = sys_list_numbered(SYS_CPU, "cpu", &ids);
	if (n < 0)
		return lib_enomem(err);
	if (n == 0)
		return lib_errf(err, ENOENT, "%s: no cpuN directories", SYS_CPU);
	t->cpus = calloc((size_t)n, sizeof(*t->cpus));
	if (!t->cpus) {
		free(ids);
		return lib_enomem(err);
	}
	t->ncpus = n;
	if (!cpuset_init(&online, ids[n - 1] + 1) &&
	    !sys_read(SYS_CPU "/online", buf, sizeof(buf)) &&
	    !cpuset_add_list(&online, buf))
		have_online = true;
	for (i = 0; i < n; i++) {
		struct topo_cpu *c = &t->cpus[i];

		c->id = ids[i];
		c->online = true;	/* cpu0 often has no "online" file */
		c->package = c->core = -1;
		if (have_online) {
			/* one read instead of one per CPU (512-CPU hosts) */
			c->online = cpuset_has(&online, c->id);
		} else {
			r = read_int(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/online", c->id),
				     &v, err);
			if (failed(r))
				goto fail;
			if (!r)
				c->online = v != 0;
		}
		r = read_int(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/topology/physical_package_id", c->id),
			     &c->package, err);
		if (failed(r))
			goto fail;
		r = read_int(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/topology/core_id", c->id),
			     &c->core, err);
		if (failed(r))
			goto fail;
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/topology/thread_siblings_list", c->id),
			 c->siblings, sizeof(c->siblings));
		c->node = numa_node_of_cpu(c->id);
	}
	free(ids);
	cpuset_free(&online);
	return 0;
fail:
	free(ids);
	cpuset_free(&online);
	return r;
}

/* Can userspace steer this vector?  irqvec_managed() judges. */
static void classify_irq(struct topo_irq *q, const char *driver)
{
	q->managed = (enum topo_managed)irqvec_managed(q->irq, q->entry, driver,
							q->vmd, &q->managed_why);
}

static int gather_irqs(struct topo *t, struct topo_pci *pc,
		       const struct irqtable *tab, struct lib_err *err)
{
	struct irqvecs v;
	char p[PATH_MAX];
	int i, r;

	r = irqvec_list(pc->bdf, pc->ssdt, tab, &v, err);
	if (r)
		return r;
	pc->irqs = calloc((size_t)v.n + 1, sizeof(*pc->irqs));
	if (!pc->irqs) {
		irqvec_free(&v);
		return lib_enomem(err);
	}
	for (i = 0; i < v.n; i++) {
		struct topo_irq *q = &pc->irqs[i];

		q->irq = v.v[i].irq;
		q->entry = v.v[i].entry;
		q->queue = v.v[i].queue;
		q->vmd = v.v[i].vmd;
		snprintf(q->name, sizeof(q->name), "%s", v.v[i].name);
		sys_read_opt(sys_pathf(p, sizeof(p), PROC_IRQ "/%d/smp_affinity_list", q->irq),
			 q->affinity, sizeof(q->affinity));
		sys_read_opt(sys_pathf(p, sizeof(p), PROC_IRQ "/%d/effective_affinity_list", q->irq),
			 q->effective, sizeof(q->effective));
		if (q->queue > 0) {
			sys_read_opt(ssdtdev_queue_path(p, sizeof(p), pc->ssdt, q->queue,
							QUEUE_FILE(cpus)),
				     q->qcpus, sizeof(q->qcpus));
		}
		if (q->affinity[0])
			t->proc_irq = true;
		classify_irq(q, pc->driver);
	}
	pc->nirqs = v.n;
	pc->irqs_by_rank = v.by_rank;
	irqvec_free(&v);
	return 0;
}

static void read_link(struct pci_dev *d, bool *pcie, struct pcie_link *cap,
		      struct pcie_link *cur)
{
	struct pci_cap *c = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	u32 lnkcap;
	u16 lnksta;

	*pcie = c != NULL;
	if (!c)
		return;
	lnkcap = pci_read_long(d, c->addr + PCI_EXP_LNKCAP);
	cap->speed = (int)(lnkcap & PCI_EXP_LNKCAP_SPEED);
	cap->width = (int)((lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4);
	if (cur) {
		lnksta = pci_read_word(d, c->addr + PCI_EXP_LNKSTA);
		cur->speed = lnksta & PCI_EXP_LNKSTA_SPEED;
		cur->width = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
	}
}

static int by_bdf(const void *a, const void *b)
{
	return strcmp(((const struct topo_pci *)a)->bdf,
		      ((const struct topo_pci *)b)->bdf);
}

/* The storage functions, from libpci: identity, node, driver, links. */
static int scan_pci_bus(struct topo *t, struct lib_err *err)
{
	struct pci_access *a;
	struct pci_dev *d;
	int n = 0;

	a = pcidev_open();
	pci_scan_bus(a);
	for (d = a->devices; d; d = d->next)
		n++;
	t->pcis = calloc((size_t)n + 1, sizeof(*t->pcis));
	if (!t->pcis) {
		pci_cleanup(a);
		return lib_enomem(err);
	}
	for (d = a->devices; d; d = d->next) {
		struct topo_pci *pc;
		const char *drv;
		char rp[PATH_MAX], p[PATH_MAX];
		struct bdf b;

		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS |
			      PCI_FILL_CLASS_EXT | PCI_FILL_NUMA_NODE |
			      PCI_FILL_DRIVER | PCI_FILL_CAPS | PCI_FILL_PARENT);
		if (d->device_class >> 8 != PCI_BASE_CLASS_STORAGE)
			continue;
		pc = &t->pcis[t->npcis++];
		b = (struct bdf){ (unsigned int)d->domain, d->bus, d->dev, d->func };
		bdf_format(&b, pc->bdf, sizeof(pc->bdf));
		pc->vendor = d->vendor_id;
		pc->device = d->device_id;
		pc->class24 = (unsigned int)d->device_class << 8 | d->prog_if;
		pc->node = d->numa_node;
		drv = pci_get_string_property(d, PCI_FILL_DRIVER);
		snprintf(pc->driver, sizeof(pc->driver), "%s", drv ? drv : "");
		pci_lookup_name(a, pc->name, sizeof(pc->name),
				PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE,
				d->vendor_id, d->device_id);
		read_link(d, &pc->pcie, &pc->cap, &pc->cur);
		if (d->parent) {
			bool port_pcie;

			pci_fill_info(d->parent, PCI_FILL_CAPS);
			read_link(d->parent, &port_pcie, &pc->port_cap, NULL);
			pc->port_known = port_pcie;
			b = (struct bdf){ (unsigned int)d->parent->domain,
					  d->parent->bus, d->parent->dev,
					  d->parent->func };
			bdf_format(&b, pc->port, sizeof(pc->port));
		}
		if (!sys_realpath(sys_pathf(p, sizeof(p), SYS_PCI_DEVICES "/%s", pc->bdf), rp))
			ssdtdev_of_pci(rp, pc->ssdt, sizeof(pc->ssdt));
		if (pc->ssdt[0]) {
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, KNOB_FILE(coalesce_profile)),
				 pc->coalesce_profile, sizeof(pc->coalesce_profile));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, KNOB_FILE(poll_queues)),
				 pc->poll_queues, sizeof(pc->poll_queues));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, ATTR_FILE(io_queues)),
				 pc->io_queues, sizeof(pc->io_queues));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, KNOB_FILE(power_limit_mw)),
				 pc->power_limit_mw, sizeof(pc->power_limit_mw));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, KNOB_FILE(apst_max_latency_us)),
				 pc->apst, sizeof(pc->apst));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, ATTR_FILE(quirks)),
				 pc->quirks, sizeof(pc->quirks));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, ATTR_FILE(serial)),
				 pc->ssdt_serial, sizeof(pc->ssdt_serial));
			sys_read_opt(ssdtdev_path(p, sizeof(p), pc->ssdt, ATTR_FILE(model)),
				 pc->ssdt_model, sizeof(pc->ssdt_model));
		}
	}
	pci_cleanup(a);
	return 0;
}

/* scan_pci_bus(), with libpci's fatal errors caught (pcidev.h). */
static int scan_pci(struct topo *t, struct lib_err *err)
{
	jmp_buf jb;
	int r;

	if (setjmp(jb))
		return pcidev_caught(err);
	pcidev_catch(&jb);
	r = scan_pci_bus(t, err);
	pcidev_catch(NULL);
	return r;
}

/* The disks of @pc and their queue settings (blkdev.c finds them). */
static int gather_disks(struct topo_pci *pc, struct lib_err *err)
{
	char p[PATH_MAX], rp[PATH_MAX], buf[256];
	struct blklist l;
	size_t i;
	int r;

	if (sys_realpath(sys_pathf(p, sizeof(p), SYS_PCI_DEVICES "/%s", pc->bdf), rp))
		return 0;
	r = blk_collect_disks(rp, pc->ssdt[0] ? pc->ssdt : NULL, &l);
	if (r)
		return 0;	/* no /sys/block: no disks */
	pc->disks = calloc(l.n + 1, sizeof(*pc->disks));
	if (!pc->disks) {
		blk_free(&l);
		return lib_enomem(err);
	}
	for (i = 0; i < l.n; i++) {
		struct topo_disk *d = &pc->disks[pc->ndisks++];

		snprintf(d->name, sizeof(d->name), "%s", l.v[i].name);
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/queue/scheduler", d->name),
			 buf, sizeof(buf));
		sched_active(buf, d->scheduler, sizeof(d->scheduler));
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/queue/nomerges", d->name),
			 d->nomerges, sizeof(d->nomerges));
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_BLOCK "/%s/queue/rq_affinity", d->name),
			 d->rq_affinity, sizeof(d->rq_affinity));
	}
	blk_free(&l);
	return 0;
}

static int gather_pci(struct topo *t, struct lib_err *err)
{
	struct irqtable tab;
	int i, r;

	if (!sys_is_dir(SYS_PCI_DEVICES))
		return 0;	/* no PCI bus (some VMs): nothing to list */
	r = scan_pci(t, err);
	if (r)
		return r;
	if (t->npcis)
		qsort(t->pcis, (size_t)t->npcis, sizeof(*t->pcis), by_bdf);
	r = irqtable_read(&tab, err);	/* once for every function */
	for (i = 0; !r && i < t->npcis; i++) {
		r = gather_irqs(t, &t->pcis[i], &tab, err);
		if (!r)
			r = gather_disks(&t->pcis[i], err);
	}
	irqtable_free(&tab);
	return r;
}

static int gather_idle(struct topo *t, struct lib_err *err)
{
	char p[PATH_MAX], val[32];
	int *states = NULL, n, i, j, v, r, ids[4096];
	int first = -1;

	if (!sys_is_dir(SYS_CPUIDLE))
		return 0;
	sys_read_opt(SYS_CPUIDLE "/current_driver", t->idle_driver, sizeof(t->idle_driver));
	sys_read_opt(SYS_CPUIDLE "/current_governor_ro", t->idle_governor,
		 sizeof(t->idle_governor));
	if (!t->idle_governor[0])
		sys_read_opt(SYS_CPUIDLE "/current_governor", t->idle_governor,
			 sizeof(t->idle_governor));
	for (i = 0; i < t->ncpus && first < 0; i++)
		if (t->cpus[i].online)
			first = t->cpus[i].id;
	if (first < 0)
		return 0;
	n = sys_list_numbered(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/cpuidle", first),
			  "state", &states);	/* lint-names: cpuidle's */
	if (n < 0)
		return lib_enomem(err);
	t->idle_available = true;
	t->idle_states = calloc((size_t)n + 1, sizeof(*t->idle_states));
	if (!t->idle_states) {
		free(states);
		return lib_enomem(err);
	}
	for (i = 0; i < n; i++) {
		struct topo_idle_state *s = &t->idle_states[i];
		int nd = 0;

		s->index = states[i];
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/cpuidle/state%d/name", first, states[i]),
			 s->name, sizeof(s->name));
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/cpuidle/state%d/desc", first, states[i]),
			 s->desc, sizeof(s->desc));
		r = read_int(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/cpuidle/state%d/latency", first, states[i]),
			     &v, err);
		if (failed(r)) {
			free(states);
			return r;
		}
		s->latency_us = r ? 0 : (unsigned int)v;
		for (j = 0; j < t->ncpus && nd < (int)(sizeof(ids) / sizeof(ids[0])); j++) {
			if (!t->cpus[j].online)
				continue;
			sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPU "/cpu%d/cpuidle/state%d/disable",
				       t->cpus[j].id, states[i]), val, sizeof(val));
			if (!strcmp(val, "1"))
				ids[nd++] = t->cpus[j].id;
		}
		cpulist_format(ids, (size_t)nd, s->disabled_on, sizeof(s->disabled_on));
	}
	t->nidle_states = n;
	free(states);
	return 0;
}

/* "0 1 2 5" (affected_cpus) -> "0-2,5". */
static void spaced_to_cpulist(const char *in, char *out, size_t len)
{
	int ids[4096], n = 0;
	const char *s = in;
	char *end;
	long v;

	while (*s && n < (int)(sizeof(ids) / sizeof(ids[0]))) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		v = strtol(s, &end, 10);
		if (end == s)
			break;
		ids[n++] = (int)v;
		s = end;
	}
	qsort(ids, (size_t)n, sizeof(ids[0]), int_cmp);
	cpulist_format(ids, (size_t)n, out, len);
}

static int gather_freq(struct topo *t, struct lib_err *err)
{
	char p[PATH_MAX], buf[TOPO_LIST];
	int *ids, n, i, v, r;

	n = sys_list_numbered(SYS_CPUFREQ, "policy", &ids);
	if (n < 0)
		return lib_enomem(err);
	t->turbo = -1;
	r = read_int(SYS_CPU "/intel_pstate/no_turbo", &v, err);
	if (r == -ENOENT)
		r = read_int(SYS_CPUFREQ "/boost", &v, err);
	else if (!r)
		v = !v;		/* no_turbo */
	if (failed(r)) {
		free(ids);
		return r;
	}
	if (!r) {
		t->turbo = !!v;
		t->turbo_file = sys_exists(SYS_CPU "/intel_pstate/no_turbo") ?
			SYS_CPU "/intel_pstate/no_turbo" : SYS_CPUFREQ "/boost";
	}
	if (n == 0)
		return 0;
	t->freq_available = true;
	t->policies = calloc((size_t)n, sizeof(*t->policies));
	if (!t->policies) {
		free(ids);
		return lib_enomem(err);
	}
	for (i = 0; i < n; i++) {
		struct topo_policy *pol = &t->policies[i];

		pol->id = ids[i];
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPUFREQ "/policy%d/affected_cpus", ids[i]),
			 buf, sizeof(buf));
		spaced_to_cpulist(buf, pol->cpus, sizeof(pol->cpus));
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPUFREQ "/policy%d/scaling_governor", ids[i]),
			 pol->governor, sizeof(pol->governor));
		sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPUFREQ "/policy%d/energy_performance_preference", ids[i]),
			 pol->epp, sizeof(pol->epp));
		if (i == 0)
			sys_read_opt(sys_pathf(p, sizeof(p), SYS_CPUFREQ "/policy%d/scaling_driver", ids[i]),
				 t->freq_driver, sizeof(t->freq_driver));
	}
	t->npolicies = n;
	free(ids);
	return 0;
}

/* The pid of a process whose comm is @name (truncated to 15 as the
 * kernel keeps it), or 0. */
static int find_process(const char *name)
{
	char p[64 + NAME_MAX], comm[64];
	struct dirent *e;
	DIR *d = opendir("/proc");
	int pid = 0;

	if (!d)
		return 0;
	while (!pid && (e = readdir(d))) {
		if (!all_digits(e->d_name))
			continue;
		snprintf(p, sizeof(p), "/proc/%s/comm", e->d_name);
		if (!sys_read(p, comm, sizeof(comm)) && !strncmp(comm, name, 15) &&
		    strlen(comm) == (strlen(name) < 15 ? strlen(name) : 15))
			pid = atoi(e->d_name);
	}
	closedir(d);
	return pid;
}

/* Daemons that tune the CPUs too: tuned and power-profiles-daemon, and
 * the profile each has active. */
static void find_tuners(struct topo *t)
{
	char ini[512], *s;

	if (find_process("tuned")) {
		sys_read_opt("/etc/tuned/active_profile", t->tuned_profile,
			 sizeof(t->tuned_profile));
		if (!t->tuned_profile[0])
			snprintf(t->tuned_profile, sizeof(t->tuned_profile), "?");
	}
	if (find_process("power-profiles-daemon")) {
		snprintf(t->ppd_profile, sizeof(t->ppd_profile), "?");
		if (!state_read_raw("/var/lib/power-profiles-daemon/state.ini", ini, sizeof(ini)) &&
		    (s = strstr(ini, "Profile=")))
			snprintf(t->ppd_profile, sizeof(t->ppd_profile), "%.*s",
				 (int)strcspn(s + 8, "\n"), s + 8);
	}
}

static void find_irqbalance(struct topo *t)
{
	char *is_active[] = { "systemctl", "--quiet", "is-active", "irqbalance.service", NULL };
	char p[64];
	ssize_t n;

	find_tuners(t);
	t->irqbalance_pid = find_process("irqbalance");
	if (!t->irqbalance_pid)
		return;
	/* systemd's irqbalance.service (ask systemd), and its program */
	t->irqbalance_unit = dropin_systemd() && !sys_spawn(is_active, NULL, NULL);
	snprintf(p, sizeof(p), "/proc/%d/exe", t->irqbalance_pid);
	n = readlink(p, t->irqbalance_exe, sizeof(t->irqbalance_exe) - 1);
	t->irqbalance_exe[n > 0 ? n : 0] = '\0';
	if (dropin_read(IRQBALANCE_DROPIN, t->irqbalance_dropin,
			sizeof(t->irqbalance_dropin)))
		t->irqbalance_dropin[0] = '\0';
}

int topo_gather(struct topo *t, struct lib_err *err)
{
	int r;

	memset(t, 0, sizeof(*t));
	t->turbo = -1;
	r = gather_numa(t, err);
	if (!r)
		r = gather_cpus(t, err);
	if (!r)
		r = gather_pci(t, err);
	if (!r)
		r = gather_idle(t, err);
	if (!r)
		r = gather_freq(t, err);
	if (!r)
		r = isol_gather(t, err);
	if (!r) {
		t->update_grub = sys_have("update-grub");
		if (dropin_read(GRUB_DROPIN, t->grub_dropin, sizeof(t->grub_dropin)))
			t->grub_dropin[0] = '\0';
	}
	if (!r)
		find_irqbalance(t);
	return r;
}

void topo_free(struct topo *t)
{
	int i;

	for (i = 0; i < t->nnodes; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].distance);
	}
	free(t->nodes);
	free(t->cpus);
	for (i = 0; i < t->npcis; i++) {
		free(t->pcis[i].irqs);
		free(t->pcis[i].disks);
	}
	free(t->pcis);
	free(t->idle_states);
	free(t->policies);
	isol_free(&t->isol);
	memset(t, 0, sizeof(*t));
}
