/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the planner: what plan.c shares with plan_isol.c. */
#ifndef SSDTUNE_PLAN_ISOL_H
#define SSDTUNE_PLAN_ISOL_H

#include "lib/cpuset.h"
#include "lib/plan.h"

/* Append an item (the strings are copied).  0 or -ENOMEM. */
int plan_add(struct plan *p, enum plan_kind kind, const char *key,
	     const char *path, const char *old, const char *val,
	     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

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

#endif
