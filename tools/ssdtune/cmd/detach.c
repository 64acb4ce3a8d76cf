// SPDX-License-Identifier: GPL-2.0
/*
 * detach BDF: give a controller on ssdtune back to the kernel, so that
 * nvme probes it again; refuses while any of its disks is in use.  The
 * work is lib/bind.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "cmd/rebind.h"
#include "cmd/tuning.h"
#include "lib/bind.h"
#include "lib/state.h"
#include "uapi/linux/ssdtune.h"

/*
 * Detach the controller @arg names; its outcome in @j (the report for one
 * CTRL, an entry of "detached" for several) and a line of text.  0 or
 * -errno with @err filled (-EINVAL: @arg names no controller).
 */
static int detach_dev(struct cli *cli, const char *arg, struct json_object *j,
		      struct lib_err *err)
{
	struct bind_dev d;
	const char *from;
	char now[64];
	int r, fd = -1;

	r = bind_detach_begin(arg, &d, err);
	if (r == -EINVAL)
		return r;
	/* apply and revert find controllers by identity: not mid-rebind */
	if (!r && !cli->dry_run && (fd = state_lock(tuning_state_dir(), err)) < 0)
		r = fd;
	if (!r) {
		rebind_set_str(j, "controller", d.ctrl[0] ? d.ctrl : NULL);
		r = bind_release(&d, err);
	}
	if (!r && cli->dry_run) {
		rebind_set_str(j, "status", "would_detach");
		rebind_set_str(j, "driver", NULL);
		return 0;
	}
	if (!r)
		r = bind_wait_other(&d, now, sizeof(now), err);
	state_unlock(fd);
	if (r)
		return r;
	rebind_set_str(j, "status", "detached");
	rebind_set_str(j, "driver", now[0] ? now : NULL);
	from = d.ctrl[0] ? d.ctrl : SSDTUNE_DRV_NAME;
	if (!out_json() && now[0])
		printf("detached %s from %s: bound to %s\n", d.pd.name, from, now);
	else if (!out_json())
		printf("detached %s from %s: no driver bound it (is nvme loaded?)\n",
		       d.pd.name, from);
	return 0;
}

static int cmd_detach(const struct command *cmd, struct cli *cli)
{
	struct lib_err err;
	int r;

	if (cli->argc > 1)
		return rebind_several(cmd, cli, "detached",
				      cli->dry_run ? "would_detach" : "detached",
				      detach_dev);
	r = detach_dev(cli, cli->argv[0], report_obj(), &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r)
		return out_fail_err(&err);
	return out_done();
}

const struct command detach_command = {
	.name = "detach",
	.args = "CTRL...",
	.summary = "give controllers on ssdtune back to the nvme driver",
	.help =
"Unbind the controller CTRL (its PCI address, ssdtN, /dev/ssdtN or a\n"
"namespace such as /dev/ssdt0n1) from ssdtune and let the kernel probe it\n"
"again, so that nvme takes it back.  Refuses, changing nothing,\n"
"while any of its /dev/ssdtNnM disks is mounted, swap, held or open.\n"
"Prints: detached BDF from ssdtN: bound to nvme\n"
"With several CTRL, each is checked first and none is moved if one\n"
"cannot go (not on ssdtune, named twice, in use); then each is detached\n"
"in turn, a line each (--json: \"detached\", an object each).\n"
"Holds the state lock (DIR/lock) while it rebinds, so no apply or revert\n"
"runs meanwhile.\n"
"  --state-dir DIR  the state directory (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 1, .max_args = BIND_MAX_ARGS,
	.run = cmd_detach,
	.options = state_options, .option = tuning_option,
};
