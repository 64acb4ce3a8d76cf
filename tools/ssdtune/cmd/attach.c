// SPDX-License-Identifier: GPL-2.0
/*
 * attach BDF: hand an NVMe controller from its driver (nvme) to ssdtune;
 * refuses while any namespace is in use.  The work is lib/bind.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "cmd/tune.h"
#include "lib/bind.h"
#include "lib/state.h"
#include "uapi/linux/ssdtune.h"

/* Report @ctrl's disks ("/dev/ssdt0n1 ...") into @text and JSON. */
static void report_disks(const struct bind_dev *d, char *text, size_t len)
{
	struct blklist l;
	size_t i, o = 0;

	out_set_array("disks");
	text[0] = '\0';
	if (bind_ctrl_disks(d->pd.sysdir, d->ctrl, &l))
		return;
	for (i = 0; i < l.n; i++) {
		char dev[NAME_MAX + 8];

		snprintf(dev, sizeof(dev), "/dev/%s", l.v[i].name);
		out_append_str("disks", dev);
		if (o + 1 < len)
			o += (size_t)snprintf(text + o, len - o, "%s%s",
					      o ? " " : "", dev);
	}
	if (!o)
		snprintf(text, len, "no namespaces");
	blk_free(&l);
}

/* @d is on ssdtune: say so ("attached", "already attached"). */
static int attached(const struct bind_dev *d, const char *status,
		    const char *verb)
{
	char disks[1024];

	report_disks(d, disks, sizeof(disks));
	out_set_str("status", status);
	out_set_str("driver", SSDTUNE_DRV_NAME);
	out_set_str("controller", d->ctrl);
	if (!out_json())
		printf("%s %s as %s: %s\n", verb, d->pd.name, d->ctrl, disks);
	return out_done();
}

static int cmd_attach(const struct command *cmd, struct cli *cli)
{
	struct bind_dev d;
	struct lib_err err;
	int r, fd = -1;

	r = bind_attach_begin(cli->argv[0], &d, &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r > 0)
		return attached(&d, "already_attached", "already attached");
	/* apply and revert find controllers by identity: not mid-rebind */
	if (!r && !cli->dry_run && (fd = state_lock(tune_state_dir(), &err)) < 0)
		r = fd;
	if (!r)
		r = bind_to_ssdtune(&d, &err);
	if (r) {
		r = out_fail_err(&err);
	} else if (cli->dry_run) {
		out_set_str("status", "would_attach");
		out_set_str("driver", SSDTUNE_DRV_NAME);
		out_set_str("controller", NULL);
		out_set_array("disks");
		r = out_done();
	} else if (bind_wait_ctrl(&d, &err)) {
		r = out_fail_err(&err);
	} else {
		r = attached(&d, "attached", "attached");
	}
	state_unlock(fd);
	return r;
}

const struct command attach_command = {
	.name = "attach",
	.args = "BDF",
	.summary = "hand an NVMe controller from its driver to ssdtune",
	.help =
"Unbind the NVMe controller at PCI address BDF (e.g. 0000:41:00.0) from its\n"
"driver (normally nvme) and bind it to the ssdtune driver, which must be\n"
"loaded.  Refuses, changing nothing, if any namespace or partition of the\n"
"controller is mounted, used as swap, held by LVM, md or device-mapper, or\n"
"open by a process.  Prints: attached BDF as ssdtN: /dev/ssdtNn1 ...\n"
"Holds the state lock (DIR/lock) while it rebinds, so no apply or revert\n"
"runs meanwhile.\n"
"  --state-dir DIR  the state directory (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 1, .max_args = 1,
	.run = cmd_attach,
	.options = state_options, .option = tune_option,
};
