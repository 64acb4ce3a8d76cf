/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plan, apply, verify and revert, without the printing: the glue between
 * topo_gather(), the pure planner (planner.h), the saved state (state.h) and
 * the one write path (sys_write()).  The commands (cmd/plan.c, apply.c,
 * verify.c, revert.c) show what these return.  See Documentation/tuning.md.
 */
#ifndef SSDTUNE_LIB_TUNE_H
#define SSDTUNE_LIB_TUNE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/error.h"
#include "lib/planner.h"
#include "lib/state.h"
#include "lib/topo.h"

/*
 * Gather the topology into @t and plan @profile for the devices @names
 * (PCI addresses or ssdtune controller names; none: every NVMe function)
 * into @p.  0 or -errno with @err filled.  Free both in every case.
 */
int tune_plan(char *const *names, int nnames, const struct plan_opts *o,
	      struct topo *t, struct plan *p, struct lib_err *err);

/*
 * Before the first write: add to @s (loaded from @dir, or empty) the
 * current value of everything @p touches, keeping values an earlier apply
 * saved (they are the originals), and save @s atomically.  The caller
 * holds @dir's lock.  0 or -errno with @err filled.
 */
int tune_save(const char *dir, const struct plan *p, struct state *s,
	      struct lib_err *err);

/*
 * Does @p make a cpuset partition out of a cgroup that exists and that no
 * earlier apply (@s) created?  Then it is someone else's: true, with
 * @err saying so.
 */
bool tune_foreign_partition(const struct plan *p, const struct state *s,
			    struct lib_err *err);

/* The outcome of a run of writes. */
struct tune_writes {
	int done, failed;
	int skipped;			/* revert --force: saved devices gone */
	int refused;			/* apply: host IRQs the kernel would
					 * not move (kernel-managed) */
	char first[PATH_MAX + 320];	/* the first failure, one line */
};

/*
 * Before a new profile's writes: restore what an earlier apply changed
 * that @p does not set (not what `set` changed), and drop it from @s, so
 * the host ends as a fresh apply of @p would leave it.  The caller saves
 * @s afterwards (tune_record()); until then revert still has the values.
 */
void tune_residue(const struct plan *p, struct state *s, struct tune_writes *w);

/*
 * Write every PLAN_SET item of @p, in order (and a PLAN_KEEP vector that
 * follows its queue, if the queue's CPUs moved).  After each write that
 * worked, @written(@ctx, writes so far) if given.  A host IRQ the kernel
 * refuses to move is counted in w->refused and dropped from @s (if
 * given).  A vector that follows its queue (item->follow) gets its value
 * from the queue's CPUs as they are when it is written, into the item
 * and its entry in @s.
 */
void tune_apply(struct plan *p, struct state *s, struct tune_writes *w,
		void (*written)(void *ctx, int done), void *ctx);

/*
 * After apply wrote @s's values: note each vector's interrupt count, so
 * verify can tell a move that waits for the next interrupt from drift,
 * and save @s again.  0 or -errno with @err filled.
 */
int tune_record(const char *dir, struct state *s, struct lib_err *err);

/* The saved state of @dir; "nothing applied" when there is none. */
int tune_load(const char *dir, struct state *s, struct lib_err *err);

/* Was @s saved in an earlier boot?  This boot's id in @now. */
bool tune_stale(const struct state *s, char *now, size_t len);

/* The tuning at a glance: what verify would say, without the listing. */
struct tune_summary {
	bool applied;		/* a state is saved */
	char profile[32];	/* "" when nothing is applied */
	bool isolate;
	bool stale;		/* saved before the last reboot */
	int settings, drifted, pending;
};

/* @out for the state in @dir: 0 (nothing applied included), or -errno
 * with @err filled (an unreadable state). */
int tune_summary(const char *dir, struct tune_summary *out,
		 struct lib_err *err);

/* One saved value against the live system. */
struct tune_check {
	char path[PATH_MAX];	/* where it lives now (or its key if gone) */
	char now[8192];		/* the live value */
	bool ok;
	bool pending;		/* ok, but the vector moves at its next
				 * interrupt: none since apply */
	char why[2 * TOPO_LIST + 128];	/* the drift, when not ok */
};

/* Does saved entry @e hold?  For an interrupt vector the effective
 * affinity must also lie inside the applied mask, unless the vector has
 * not fired since apply (then the move is pending, not drift). */
void tune_check(const struct state_entry *e, struct tune_check *c);

/*
 * Write back, newest first, every saved value of @s that differs from the
 * live one.  A saved device or vector that is gone is a failure, or with
 * @force a skip: @skipped(@ctx, its key) if given.  A cpuset partition
 * that still has tasks is a failure, or with @force its tasks move to the
 * root cgroup.
 */
void tune_restore(const struct state *s, bool force, struct tune_writes *w,
		  void (*skipped)(void *ctx, const char *key), void *ctx);

/*
 * bench's CPU placement: the I/O cores the profile applied in @dir plans
 * for @bdf.  0 with @cpus and @prof filled; -ENOENT when no profile is
 * applied (@err untouched); else -errno with @err filled.
 */
int tune_applied_io_cpus(const char *dir, const char *bdf, char *cpus,
			 size_t len, char *prof, size_t plen,
			 struct lib_err *err);

#endif
