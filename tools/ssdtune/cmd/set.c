// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune set [CTRL] KNOB=VALUE...: a validated front end to the driver's
 * knobs in /sys/class/ssdtune/ssdtN/.  Every value is checked before any
 * is written; what a knob write changes is saved first in the same state
 * directory as apply (state.c), so `ssdtune revert` undoes it.  The knob
 * table is lib/knobtab.c's, the transaction around the writes
 * lib/knobs.c's (knob_set_run()).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/knobs.h"
#include "lib/state.h"

static const char *set_state_dir;	/* --state-dir; NULL: state_dir_env() */

static const char *set_dir(void)
{
	return set_state_dir ? set_state_dir : state_dir_env();
}

enum { OPT_STATE_DIR = 0x200 };

static const struct option set_options[] = {
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ NULL, 0, NULL, 0 },
};

static int set_option(struct cli *cli, int val, const char *arg)
{
	(void)cli;
	if (val == OPT_STATE_DIR) {
		if (!arg[0])
			return usage_error(NULL, "--state-dir needs a directory");
		set_state_dir = arg;
	}
	return 0;
}

static int parse_args(const struct command *cmd, struct cli *cli, const char **ctrl,
		      struct knob_set *a, int *na)
{
	char why[256], names[256];
	int i;

	*ctrl = NULL;
	*na = 0;
	for (i = 0; i < cli->argc; i++) {
		const char *arg = cli->argv[i], *eq = strchr(arg, '=');

		if (!eq) {
			if (*ctrl)
				return usage_error(cmd, "'%s': expected KNOB=VALUE", arg);
			*ctrl = arg;
			continue;
		}
		if (*na == KNOB_MAX)
			return usage_error(cmd, "at most %d knobs at once", KNOB_MAX);
		a[*na].k = knob_find(arg, (size_t)(eq - arg));
		if (!a[*na].k) {
			knob_names(names, sizeof(names));
			return usage_error(cmd, "unknown knob '%.*s' (knobs: %s)",
					   (int)(eq - arg), arg, names);
		}
		a[*na].value = eq + 1;
		if (knob_check(a[*na].k, a[*na].value, why, sizeof(why)))
			return usage_error(cmd, "%s", why);
		(*na)++;
	}
	if (!*na)
		return usage_error(cmd, "no KNOB=VALUE given");
	return 0;
}

/* A knob library error, "set: <what was wrong>"; E2BIG, ENOTUNIQ and
 * EINVAL (too many knobs, which controller?, a name of none of the
 * forms) are the command line's: usage errors, pointing at set --help. */
static int knob_fail(const struct command *cmd, int r, const struct lib_err *err)
{
	if (r == -E2BIG || r == -ENOTUNIQ || r == -EINVAL)
		return usage_error(cmd, "%s", err->msg);
	return out_fail(EXIT_REFUSED, "set: %s", err->msg);
}

/* After each write that worked (@ctx: the command line). */
static void written(void *ctx, const struct knob_set *a)
{
	const struct cli *cli = ctx;

	if (!cli->dry_run && !out_json())
		printf("%s = %s\n", a->path, a->value);
}

static int cmd_set(const struct command *cmd, struct cli *cli)
{
	struct knob_set a[KNOB_MAX];
	struct knob_run res;
	const char *ctrl;
	int r, na;

	r = parse_args(cmd, cli, &ctrl, a, &na);
	if (r)
		return r;
	r = knob_set_run(ctrl, a, na, set_dir(), cli->dry_run, written, cli,
			 &res);
	if (res.ctrl[0])
		report_set_str("controller", res.ctrl);
	if (r)
		return res.state_err ? out_fail_err(&res.err) : knob_fail(cmd, r, &res.err);
	if (res.saved)
		json_object_object_add(report_obj(), "state_dir",
				       json_object_new_string(set_dir()));
	if (res.failed)
		return out_fail(EXIT_REFUSED, "set: the driver refused %d of %d writes, so none is kept; first: %s",
				res.failed, na, res.first);
	return out_done();
}

const struct command set_command = {
	.name = "set",
	.args = "[CTRL] KNOB=VALUE...",
	.summary = "change driver knobs, validated, saved for revert",
	.help =
"Write the driver's knobs of controller CTRL (ssdtN or its PCI address;\n"
"optional when one controller is attached):\n"
"  coalesce_mode=off|hw|host|auto      coalesce_threshold=0..256\n"
"  coalesce_time_us=0..25500           coalesce_profile=balanced|iops|\n"
"                                        latency|adaptive|off\n"
"  power_limit_mw=0..1000000 (0: none) power_limit_mode=hw|host|auto\n"
"  apst_max_latency_us=0..100000000 (0: APST off)\n"
"  poll_queues=0..64 (queues without interrupts, for io_uring IOPOLL;\n"
"                    the I/O queues are made again live)\n"
"  energy_model=VALUE (format: Documentation/ABI/testing/sysfs-class-ssdtune)\n"
"Every value is checked before any is written; a bad one writes nothing.\n"
"The files a knob changes are saved first in the state directory, as\n"
"apply does, so 'ssdtune revert' restores them and 'ssdtune verify'\n"
"checks they hold.  If the driver refuses a write (for example hw mode on\n"
"a device that cannot), this command's other writes are undone.\n\n"
"  --state-dir DIR   saved state (default /var/lib/ssdtune)\n",
	.flags = CMD_DRY_RUN,
	.min_args = 1, .max_args = 17,	/* CTRL and 16 knobs */
	.run = cmd_set,
	.options = set_options,
	.option = set_option,
};
