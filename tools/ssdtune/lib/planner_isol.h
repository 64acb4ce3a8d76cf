/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the planner: the isolation items planner.c asks planner_isol.c for. */
#ifndef SSDTUNE_PLANNER_ISOL_H
#define SSDTUNE_PLANNER_ISOL_H

#include "lib/cpuset.h"
#include "lib/plan.h"

/*
 * Runtime isolation of the I/O cores @io (o->isolate): the default IRQ
 * affinity, every movable host interrupt but the planned devices', the
 * unbound and writeback workqueue masks, and a cpuset partition.  Then
 * the notes on what the host already isolates.  0 or -ENOMEM.
 */
int plan_isolation(struct plan *p, const struct topo *t,
		   const struct plan_opts *o, const struct cpuset *io, int ncpu);

/* The latency profile's PM QoS resume latency bound on the I/O cores. */
int plan_pm_qos(struct plan *p, const struct topo *t, const struct cpuset *io,
		int ncpu);

/* Notes on tuned and power-profiles-daemon, which tune the CPUs too. */
int plan_tuners(struct plan *p, const struct topo *t);

/* Boot isolation (p->cmdline) as the GRUB drop-in, or why not. */
int plan_boot(struct plan *p, const struct topo *t);

/*
 * When irqbalance runs: keep it away from the planned devices' vectors
 * (--banirq) and, but for balanced, off the I/O cores
 * (IRQBALANCE_BANNED_CPULIST, with the CPUs isolated at boot that this
 * replaces irqbalance's own ban of).  As a systemd drop-in where it is
 * irqbalance.service (lib/dropin.h restarts it), else a note.
 */
int plan_irqbalance(struct plan *p, const struct topo *t);

#endif
