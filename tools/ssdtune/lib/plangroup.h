/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A plan as a person reads it: the items that write the same file of
 * different CPUs (cpuN/..., cpufreq/policyN/...) the same way for the
 * same reason, the vectors of one function placed or skipped for the
 * same reason, and the same file of several controllers or disks set the
 * same way for the same reason, are one group.  Pure: the text of plan
 * and apply prints one line a group; --verbose and --json keep every
 * item.
 */
#ifndef SSDTUNE_LIB_PLANGROUP_H
#define SSDTUNE_LIB_PLANGROUP_H

#include "lib/planner.h"

struct plan_group {
	int first;		/* its first item in p->items */
	int n;			/* items; 1: the item stands alone */
	char what[256];		/* the path, the CPU or IRQ number as N */
	char who[TOPO_LIST + 96];	/* "CPUs 2-3" or "16 vectors of BDF
					 * (1-16, IRQs 201-216)" */
	const char *reason;	/* the first item's reason without its
				 * CPU, vector, controller or disk name
				 * (points into it) */
	char val[TOPO_LIST];	/* vectors set or kept: every CPU they go
				 * to, one cpulist */
	bool mixed;		/* ... and they go to different CPUs (what
				 * each read before may differ in any case) */
};

/* @path as a file of one CPU or cpufreq policy ("cpuN/...",
 * "cpufreq/policyN/..."): its shape, the number written N, into @what;
 * the number, or -1 if @path is no such file.  Pure. */
int plangroup_cpu_path(const char *path, char *what, size_t len);

/* The groups of @p in the order of their first items, into *@out (free
 * it) and *@n.  0 or -ENOMEM. */
int plan_group(const struct plan *p, struct plan_group **out, int *n);

#endif
