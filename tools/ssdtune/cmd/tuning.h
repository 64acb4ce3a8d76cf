/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What plan, apply, verify and revert share: their options (--profile,
 * --state-dir) and the presentation of a plan.  The work is lib/tune.h's.
 */
#ifndef SSDTUNE_CMD_TUNING_H
#define SSDTUNE_CMD_TUNING_H

#include <getopt.h>
#include <stdbool.h>

#include "cmd/cli.h"
#include "lib/config.h"
#include "lib/ctrls.h"
#include "lib/planner.h"

extern const struct option plan_options[], apply_options[], state_options[],
	revert_options[], config_state_options[], verify_options[];
int tuning_option(struct cli *cli, int val, const char *arg);
/* --profile (default balanced), --isolate, --partition, --io-cores, or
 * with --config those of the file; a usage error (its exit status in
 * *@usage) if they do not go together or the file is bad. */
const struct plan_opts *tuning_opts(const struct command *cmd, int *usage);
/* Every DEVICE operand has one of the forms of a controller's name
 * (lib/devname.h): 0, or the exit status of the usage error reported. */
int tuning_names(const struct command *cmd, const struct cli *cli);
/* The --config file, parsed (*@c NULL without --config).  0, or the
 * exit status of a usage error already reported (a bad file, or
 * --profile, --isolate or --io-cores with it). */
int tuning_config(const struct command *cmd, const struct config **c);
/* The controllers present that @c selects, into *@ids (free it) and *@n
 * (maybe 0); the report gets "config" (them, and the selectors that find
 * nothing, which are also printed as notes).  0 or an exit status. */
int tuning_config_ctrls(const struct config *c, struct ctrl_id **ids, int *n);
const char *tuning_state_dir(void);	/* --state-dir, $SSDTUNE_STATE_DIR */
bool tuning_force(void);			/* --force */
bool tuning_verbose(void);			/* --verbose */

/* The plan in the report, and as text unless --json. */
void tuning_show_plan(const struct plan *p);
/* How many items of @p are set, kept and skipped. */
void tuning_count(const struct plan *p, int *set, int *keep, int *skip);

#endif
