// SPDX-License-Identifier: GPL-2.0
/*
 * The planner's CPU isolation (planner_isol.h), pure like planner.c.  What it
 * moves off the I/O cores, and why, follows tuned's cpu-partitioning
 * profile and the kernel's isolation documentation (admin-guide
 * kernel-per-CPU-kthreads.rst, cgroup-v2.rst "Cpuset"); see
 * Documentation/tuning.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/dropin.h"
#include "lib/planner_isol.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* A kernel bitmap file off @io: what it has minus @io, or @keep if that
 * leaves nothing. */
static int mask_off(struct plan *p, const char *path, const char *now,
		    const struct cpuset *io, const struct cpuset *keep, int ncpu,
		    const char *why)
{
	char want[TOPO_LIST];
	struct cpuset s;
	int i;

	if (!now[0])
		return plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
	if (cpuset_init(&s, ncpu))
		return -ENOMEM;
	if (cpuset_add_mask(&s, now)) {
		cpuset_free(&s);
		return plan_add(p, PLAN_SKIP, NULL, path, now, "",
				"not a CPU mask: left alone");
	}
	for (i = 0; i < ncpu; i++)
		if (cpuset_has(io, i))
			s.on[i] = false;
	if (!cpuset_count(&s))
		cpuset_or(&s, keep);
	cpuset_format_mask(&s, now, want, sizeof(want));
	cpuset_free(&s);
	return plan_add(p, strcmp(now, want) ? PLAN_SET : PLAN_KEEP, NULL, path,
			now, want, "%s", why);
}

/* Is @irq a vector of a planned device, or one the kernel manages? */
static bool device_irq(const struct plan *p, const struct topo *t, int irq)
{
	int i, j, d;

	for (i = 0; i < t->npcis; i++)
		for (j = 0; j < t->pcis[i].nirqs; j++) {
			if (t->pcis[i].irqs[j].irq != irq)
				continue;
			if (t->pcis[i].irqs[j].managed == MANAGED_YES)
				return true;
			for (d = 0; d < p->ndevs; d++)
				if (!strcmp(p->devs[d].bdf, t->pcis[i].bdf))
					return true;
		}
	return false;
}

static int host_irqs(struct plan *p, const struct topo *t,
		     const struct cpuset *io, const struct cpuset *keep, int ncpu)
{
	char path[PATH_MAX], want[TOPO_LIST], keeps[TOPO_LIST];
	struct cpuset s;
	int i, c, fixed = 0, r = 0;

	if (cpuset_init(&s, ncpu))
		return -ENOMEM;
	cpuset_format(keep, keeps, sizeof(keeps));
	for (i = 0; i < t->isol.nirqs && !r; i++) {
		const struct topo_host_irq *q = &t->isol.irqs[i];

		if (device_irq(p, t, q->irq))
			continue;
		if (!q->writable) {
			fixed++;
			continue;
		}
		cpuset_clear(&s);
		if (cpuset_add_list(&s, q->affinity))
			continue;
		for (c = 0; c < ncpu; c++)
			if (cpuset_has(io, c))
				s.on[c] = false;
		if (!cpuset_count(&s))
			cpuset_or(&s, keep);
		cpuset_format(&s, want, sizeof(want));
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", q->irq);
		r = plan_add(p, strcmp(q->affinity, want) ? PLAN_SET : PLAN_KEEP, NULL,
			     path, q->affinity, want,
			     "IRQ %d (%s): a host interrupt, off the I/O cores",
			     q->irq, q->name[0] ? q->name : "no handler");
		if (!r)
			p->items[p->nitems - 1].may_refuse = true;
	}
	cpuset_free(&s);
	if (!r && fixed)
		r = plan_add(p, PLAN_NOTE, "note fixed irqs", "", "", "",
			     "%d host interrupts cannot be moved (their smp_affinity is read-only: kernel-managed or per-CPU); the kernel places them",
			     fixed);
	return r;
}

/* @s = the CPUs of cpulist @list that are in @io; how many (-1 if @list
 * is empty or malformed). */
static int overlap(struct cpuset *s, const char *list, const struct cpuset *io,
		   int ncpu)
{
	int c;

	cpuset_clear(s);
	if (!list[0] || cpuset_add_list(s, list))
		return -1;
	for (c = 0; c < ncpu; c++)
		s->on[c] = s->on[c] && cpuset_has(io, c);
	return cpuset_count(s);
}

/* A cpuset partition other than ours (@name)? */
static bool other_partition(const struct topo_cgroup *g, const char *name)
{
	return strcmp(g->name, name) && g->partition[0] &&
	       strncmp(g->partition, "member", 6);
}

/* Another partition that holds some of @io: its index, or -1. */
static int foreign_partition(const struct topo *t, const char *name,
			     const struct cpuset *io, int ncpu)
{
	struct cpuset s;
	int i, hit = -1;

	if (cpuset_init(&s, ncpu))
		return -1;
	for (i = 0; i < t->isol.ncgroups && hit < 0; i++)
		if (other_partition(&t->isol.cgroups[i], name) &&
		    overlap(&s, t->isol.cgroups[i].cpus, io, ncpu) > 0)
			hit = i;
	cpuset_free(&s);
	return hit;
}

/* The cpuset partition for the I/O cores, and the controller it needs. */
static int partition(struct plan *p, const struct topo *t,
		     const struct plan_opts *o, const struct cpuset *io,
		     const char *ios, int ncpu)
{
	const char *name = o->partition ? o->partition : "ssdtune";
	char old[TOPO_LIST + 96] = "", want[TOPO_LIST + 96], key[128];
	int i, r;

	snprintf(p->partition, sizeof(p->partition), "/sys/fs/cgroup/%s", name);
	if (!t->isol.cgroup2)
		return plan_add(p, PLAN_SKIP, NULL, p->partition, "", "",
				"no cgroup v2 at /sys/fs/cgroup: no cpuset partition, tasks are not kept off the I/O cores");
	if (!t->isol.cpuset)
		return plan_add(p, PLAN_SKIP, NULL, p->partition, "", "",
				"the kernel has no cpuset controller: no partition, tasks are not kept off the I/O cores");
	i = foreign_partition(t, name, io, ncpu);
	if (i >= 0)
		return plan_add(p, PLAN_SKIP, NULL, p->partition, "", "",
				"the cpuset partition /sys/fs/cgroup/%s (CPUs %s) holds I/O cores: no partition of the I/O cores while it does",
				t->isol.cgroups[i].name, t->isol.cgroups[i].cpus);
	r = plan_add(p, t->isol.cpuset_on ? PLAN_KEEP : PLAN_SET, NULL,
		     "/sys/fs/cgroup/cgroup.subtree_control",
		     t->isol.cpuset_on ? "+cpuset" : "-cpuset", "+cpuset",
		     "the root hands the cpuset controller down: a partition needs it");
	if (r)
		return r;
	p->items[p->nitems - 1].type = TYPE_CONTROLLER;
	for (i = 0; i < t->isol.ncgroups; i++)
		if (!strcmp(t->isol.cgroups[i].name, name))
			snprintf(old, sizeof(old), "cpus=%s partition=%s",
				 t->isol.cgroups[i].cpus, t->isol.cgroups[i].partition);
	plan_partition_value(ios, want, sizeof(want));
	snprintf(key, sizeof(key), "cpuset partition %s", name);
	r = plan_add(p, strcmp(old, want) ? PLAN_SET : PLAN_KEEP, key, p->partition,
		     old, want,
		     "an isolated cpuset partition of the I/O cores: no other task runs there, no load balancing; 'ssdtune run' starts the workload in it");
	if (!r)
		p->items[p->nitems - 1].type = TYPE_PARTITION;
	return r;
}

/* What the host isolated already, where the I/O cores meet it. */
static int host_isolation(struct plan *p, const struct topo *t,
			  const struct plan_opts *o, const struct cpuset *io,
			  int ncpu)
{
	const char *name = o->partition ? o->partition : "ssdtune";
	const struct { const char *what, *list; } boot[] = {
		{ "isolcpus", t->isol.isolated },
		{ "nohz_full", t->isol.nohz_full },
	};
	struct cpuset s;
	char both[TOPO_LIST];
	size_t i;
	int n, r = 0;

	if (cpuset_init(&s, ncpu))
		return -ENOMEM;
	for (i = 0; i < sizeof(boot) / sizeof(boot[0]) && !r; i++)
		if (overlap(&s, boot[i].list, io, ncpu) > 0)
			r = plan_add(p, PLAN_NOTE, "note boot isolated", "", "", "",
				     "CPUs %s were isolated at boot (%s=%s): the plan puts I/O on %s of them; if they were isolated for something else, choose the devices or profile again",
				     boot[i].list, boot[i].what, boot[i].list,
				     cpuset_format(&s, both, sizeof(both)));
	for (i = 0; i < (size_t)t->isol.ncgroups && !r; i++) {
		const struct topo_cgroup *g = &t->isol.cgroups[i];

		if (!other_partition(g, name))
			continue;
		n = overlap(&s, g->cpus, io, ncpu);
		r = plan_add(p, PLAN_NOTE, "note partition", "", "", "",
			     "the cpuset partition /sys/fs/cgroup/%s (%s, CPUs %s) %s",
			     g->name, g->partition, g->cpus, n > 0 ?
			     "holds I/O cores: their work shares those CPUs with its tasks" :
			     "exists: left alone");
	}
	cpuset_free(&s);
	return r;
}

int plan_isolation(struct plan *p, const struct topo *t,
		   const struct plan_opts *o, const struct cpuset *io, int ncpu)
{
	char ios[TOPO_LIST];
	struct cpuset keep;
	int i, r;

	cpuset_format(io, ios, sizeof(ios));
	if (cpuset_init(&keep, ncpu))
		return -ENOMEM;
	for (i = 0; i < t->ncpus; i++)
		if (t->cpus[i].online && !cpuset_has(io, t->cpus[i].id))
			cpuset_set(&keep, t->cpus[i].id);
	r = host_isolation(p, t, o, io, ncpu);
	if (r || !o->isolate)
		goto out;
	if (!cpuset_count(io) || !cpuset_count(&keep)) {
		r = plan_add(p, PLAN_NOTE, "note isolation", "", "", "",
			     "isolation: the I/O cores %s leave no CPU for the rest of the host: nothing isolated",
			     ios);
		goto out;
	}
	r = mask_off(p, "/proc/irq/default_smp_affinity", t->isol.default_affinity,
		     io, &keep, ncpu,
		     "interrupts requested from now on start off the I/O cores");
	if (!r)
		r = host_irqs(p, t, io, &keep, ncpu);
	if (!r)
		r = mask_off(p, "/sys/devices/virtual/workqueue/cpumask", t->isol.wq_mask,
			     io, &keep, ncpu, "unbound workqueues run off the I/O cores");
	if (!r)
		r = mask_off(p, "/sys/devices/virtual/workqueue/writeback/cpumask",
			     t->isol.wb_mask, io, &keep, ncpu,
			     "writeback (flusher) work runs off the I/O cores");
	if (!r)
		r = partition(p, t, o, io, ios, ncpu);
out:
	cpuset_free(&keep);
	return r;
}

int plan_pm_qos(struct plan *p, const struct topo *t, const struct cpuset *io,
		int ncpu)
{
	int bound = plan_latency_bound_us(p->profile), i, r = 0, have = 0;
	char path[PATH_MAX], want[16];

	(void)ncpu;
	for (i = 0; i < t->ncpus; i++)
		have += t->cpus[i].pm_qos[0] != '\0';
	if (!have)
		return plan_add(p, PLAN_SKIP, NULL, SYS_CPU "/cpuN/power/pm_qos_resume_latency_us",
				"", "", "not present (no CPU PM QoS)");
	snprintf(want, sizeof(want), "%d", bound);
	for (i = 0; i < t->ncpus && !r; i++) {
		const struct topo_cpu *c = &t->cpus[i];

		if (!c->online || !cpuset_has(io, c->id))
			continue;
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/power/pm_qos_resume_latency_us",
			 c->id);
		if (!c->pm_qos[0])
			r = plan_add(p, PLAN_SKIP, NULL, path, "", "", "not present");
		else
			r = plan_add(p, strcmp(c->pm_qos, want) ? PLAN_SET : PLAN_KEEP,
				     NULL, path, c->pm_qos, want,
				     "CPU %d: cpuidle picks no state slower to leave than %d us (PM QoS, latency profile)",
				     c->id, bound);
	}
	return r;
}

/* The CPUs irqbalance must not use: the I/O cores and what the host
 * isolated at boot.  "" for balanced. */
static int banned_cpus(const struct plan *p, const struct topo *t, char *buf,
		       size_t len)
{
	const char *lists[] = { p->io_cpus, t->isol.isolated, t->isol.nohz_full };
	struct cpuset s;
	size_t i;

	buf[0] = '\0';
	if (p->profile == PROFILE_BALANCED)
		return 0;
	if (cpuset_init(&s, 8192))
		return -ENOMEM;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (lists[i][0])
			cpuset_add_list(&s, lists[i]);
	cpuset_format(&s, buf, len);
	cpuset_free(&s);
	return 0;
}

/* " --banirq=N" for each vector of the planned devices. */
static void banned_irqs(const struct plan *p, const struct topo *t, char *buf,
			size_t len)
{
	size_t used = 0;
	int i, j, d;

	buf[0] = '\0';
	for (i = 0; i < t->npcis; i++)
		for (d = 0; d < p->ndevs; d++) {
			if (strcmp(p->devs[d].bdf, t->pcis[i].bdf))
				continue;
			for (j = 0; j < t->pcis[i].nirqs && used + 24 < len; j++)
				used += (size_t)snprintf(buf + used, len - used, " --banirq=%d",
							 t->pcis[i].irqs[j].irq);
		}
}

int plan_tuners(struct plan *p, const struct topo *t)
{
	int r = 0;

	if (t->tuned_profile[0])
		r = plan_add(p, PLAN_NOTE, "note tuned", "", "", "",
			     "tuned runs (profile %s): it sets governors, EPP, C-states and IRQ affinity of its own and may undo this plan ('verify' shows that as drift); 'tuned-adm off' first, or a tuned profile that leaves them",
			     t->tuned_profile);
	if (!r && t->ppd_profile[0])
		r = plan_add(p, PLAN_NOTE, "note ppd", "", "", "",
			     "power-profiles-daemon runs (profile %s): it sets EPP and turbo of its own and may undo this plan ('verify' shows that as drift); 'powerprofilesctl set performance', or stop it",
			     t->ppd_profile);
	return r;
}

int plan_irqbalance(struct plan *p, const struct topo *t)
{
	char cpus[TOPO_LIST], irqs[4096], env[TOPO_LIST + 64] = "", conf[8192];
	int r;

	if (!t->irqbalance_pid)
		return plan_add(p, PLAN_NOTE, "note irqbalance", "", "", "",
				"irqbalance: not running");
	r = banned_cpus(p, t, cpus, sizeof(cpus));
	if (r)
		return r;
	banned_irqs(p, t, irqs, sizeof(irqs));
	p->irqbalance.pid = t->irqbalance_pid;
	p->irqbalance.unit = t->irqbalance_unit;
	snprintf(p->irqbalance.args, sizeof(p->irqbalance.args), "%s",
		 irqs[0] ? irqs + 1 : "");
	snprintf(p->irqbalance.banned_cpus, sizeof(p->irqbalance.banned_cpus), "%s", cpus);
	if (cpus[0])
		snprintf(env, sizeof(env), "IRQBALANCE_BANNED_CPULIST=%s", cpus);
	if (!t->irqbalance_unit)
		return plan_add(p, PLAN_NOTE, "note irqbalance", "", "", "",
				"irqbalance (pid %d) is not systemd's irqbalance.service, so ssdtune cannot restart it: run it with%s%s%s to keep it off the vectors%s, or stop it",
				t->irqbalance_pid, irqs, env[0] ? " and " : "", env,
				env[0] ? " and the I/O cores" : "");
	r = snprintf(conf, sizeof(conf),
		 "# Written by 'ssdtune apply' (profile %s); 'ssdtune revert' removes it.\n"
		 "# irqbalance leaves the tuned vectors alone (--banirq)%s.\n"
		 "[Service]\n%s%s%s"
		 "ExecStart=\n"
		 "ExecStart=%s --foreground $IRQBALANCE_ARGS%s\n",
		 plan_profile_name(p->profile),
		 env[0] ? " and puts no interrupt on the I/O cores (the banned list\n"
			  "# replaces irqbalance's own ban of isolcpus/nohz_full CPUs: they are in it)" : "",
		 env[0] ? "Environment=" : "", env, env[0] ? "\n" : "",
		 t->irqbalance_exe[0] ? t->irqbalance_exe : "/usr/sbin/irqbalance", irqs);
	if (r < 0 || (size_t)r >= sizeof(conf) - 1)
		return plan_add(p, PLAN_SKIP, NULL, IRQBALANCE_DROPIN, "", "",
				"too many vectors for one drop-in: irqbalance left as it is");
	r = plan_add(p, strcmp(t->irqbalance_dropin, conf) ? PLAN_SET : PLAN_KEEP, NULL,
		     IRQBALANCE_DROPIN, t->irqbalance_dropin, conf,
		     "irqbalance keeps off the vectors (%s)%s%s, then systemctl try-restart irqbalance",
		     irqs[0] ? irqs + 1 : "none", env[0] ? " and " : "", env);
	if (!r)
		p->items[p->nitems - 1].type = TYPE_DROPIN;
	return r;
}

int plan_boot(struct plan *p, const struct topo *t)
{
	char conf[2 * sizeof(p->cmdline) + 256];
	int r;

	if (!t->update_grub)
		return plan_add(p, PLAN_SKIP, NULL, GRUB_DROPIN, "", "",
				"no update-grub (not GRUB as Debian installs it): add to the boot loader's kernel command line: %s",
				p->cmdline);
	snprintf(conf, sizeof(conf),
		 "# Written by 'ssdtune apply --boot' (profile %s); 'ssdtune revert' removes it.\n"
		 "# Boot isolation of the I/O cores; takes effect at the next boot.\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n",
		 plan_profile_name(p->profile), p->cmdline);
	r = plan_add(p, strcmp(t->grub_dropin, conf) ? PLAN_SET : PLAN_KEEP, NULL,
		     GRUB_DROPIN, t->grub_dropin, conf,
		     "boot isolation at the next boot: %s; then update-grub", p->cmdline);
	if (!r)
		p->items[p->nitems - 1].type = TYPE_DROPIN;
	return r;
}
