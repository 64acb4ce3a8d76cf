/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The planner: a pure function of a gathered topology (topo.h) and a
 * profile.  It reads no file and writes none; it returns every setting it
 * would touch as path, current value, wanted value and reason, plus the
 * settings it skips and the advice it only prints.  See
 * Documentation/tuning.md for the rules and why.
 */
#ifndef SSDTUNE_PLANNER_H
#define SSDTUNE_PLANNER_H

#include "lib/plan.h"

/*
 * Plan @profile for the storage functions t->pcis[sel[0..nsel-1]] (nsel
 * 0: every NVMe function).  Returns 0, -ENODEV if there is no NVMe
 * function to tune, -ENOMEM.  Free with plan_free() in every case.
 */
int plan_build(const struct topo *t, const struct plan_opts *o, const int *sel,
	       int nsel, struct plan *p);

#endif
