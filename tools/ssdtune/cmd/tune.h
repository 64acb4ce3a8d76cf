/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What plan, apply, verify and revert share: their options (--profile,
 * --state-dir) and the presentation of a plan.  The work is lib/tune.h's.
 */
#ifndef SSDTUNE_CMD_TUNE_H
#define SSDTUNE_CMD_TUNE_H

#include <getopt.h>
#include <stdbool.h>

#include "cmd/cli.h"
#include "lib/plan.h"

extern const struct option plan_options[], apply_options[], state_options[],
	revert_options[];
int tune_option(struct cli *cli, int val, const char *arg);
/* --profile (default balanced), --isolate, --partition; a usage error
 * (its exit status in *@usage) if they do not go together. */
const struct plan_opts *tune_opts(const struct command *cmd, int *usage);
const char *tune_state_dir(void);	/* --state-dir, $SSDTUNE_STATE_DIR */
bool tune_force(void);			/* --force */

/* The plan in the report, and as text unless --json. */
void report_plan(const struct plan *p);
/* How many items of @p are set, kept and skipped. */
void plan_count(const struct plan *p, int *set, int *keep, int *skip);

#endif
