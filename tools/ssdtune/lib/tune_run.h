/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One `ssdtune apply`, start to end, without the printing: plan, lock,
 * plan again under the lock, load the saved state, save the originals,
 * restore what an earlier profile left behind, write the plan, set the
 * configured knobs (a knob transaction per controller, knobs.h) and
 * record what the host kept.  cmd/apply.c shows what it did: at the
 * moments the text must appear (before the first write, between the
 * writes) through the hooks, and the rest from the result.
 */
#ifndef SSDTUNE_LIB_TUNE_RUN_H
#define SSDTUNE_LIB_TUNE_RUN_H

#include <limits.h>
#include <stdbool.h>

#include "lib/config.h"
#include "lib/ctrls.h"
#include "lib/error.h"
#include "lib/planner.h"
#include "lib/topo.h"
#include "lib/tune.h"

/* What to apply. */
struct tune_run_in {
	char *const *devs;		/* PCI addresses or ssdtN; none: every
					 * NVMe function (without @conf) */
	int ndevs;
	const struct plan_opts *o;
	const struct config *conf;	/* --config, or NULL */
	struct ctrl_id *ids;		/* the controllers @conf selects */
	int nids;
	const char *state_dir;
	bool dry_run;
};

/* Called as the run goes (any may be NULL). */
struct tune_run_hooks {
	/* A controller @conf selects is not on ssdtune: tuned without
	 * the knobs. */
	void (*not_ssdtune)(void *ctx, const struct ctrl_id *id);
	/* The plan, before any write. */
	void (*planned)(void *ctx, const struct plan *p);
	/* @done values an earlier profile set and @p does not, restored. */
	void (*restored)(void *ctx, const struct plan *p, int done);
	/* After each write of the plan: how many so far. */
	void (*written)(void *ctx, int done);
	/* Controller @ctrl's @n configured knobs are set. */
	void (*knobs_set)(void *ctx, const char *ctrl, int n);
	void *ctx;
};

/* Why a run stopped. */
enum tune_run_fail {
	TUNE_RUN_OK,
	TUNE_RUN_ERR,		/* err says what */
	TUNE_RUN_FOREIGN,	/* err: the partition's cgroup is someone
				 * else's (the command line's mistake) */
	TUNE_RUN_RESIDUE,	/* residue.failed values not restored */
	TUNE_RUN_WRITES,	/* w.failed writes of the plan failed */
	TUNE_RUN_KNOBS,		/* the driver refused knobs_failed knob
				 * writes (that controller's are undone) */
};

/* What the run did. */
struct tune_run {
	enum tune_run_fail fail;
	struct lib_err err;
	bool none_present;	/* @conf selects no controller present:
				 * nothing done */
	struct topo t;
	struct plan p;		/* the plan (profile, counts) */
	struct tune_writes residue;	/* what an earlier profile left */
	struct tune_writes w;	/* the plan's writes */
	bool wrote;		/* the plan's writes were made */
	int knobs_set;		/* configured knob writes kept */
	int knobs_failed;
	char knobs_first[PATH_MAX + 128];	/* the first refused */
};

/* Run @in.  0 (done), or 1 with run->fail saying why it stopped.  Free
 * @run with tune_run_free() in every case. */
int tune_run(const struct tune_run_in *in, const struct tune_run_hooks *h,
	     struct tune_run *run);
void tune_run_free(struct tune_run *run);

#endif
