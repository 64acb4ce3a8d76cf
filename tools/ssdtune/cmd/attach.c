// SPDX-License-Identifier: GPL-2.0
/*
 * attach BDF: hand an NVMe controller from its driver (nvme) to ssdtune;
 * refuses while any namespace is in use.  attach --config FILE [BDF]: the
 * controllers a configuration file selects.  The work is lib/bind.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "cmd/rebind.h"
#include "cmd/tuning.h"
#include "lib/bind.h"
#include "lib/state.h"
#include "uapi/linux/ssdtune.h"

/* @d's disks ("/dev/ssdt0n1 ...") into @text and the array "disks" of @j. */
static void show_disks(const struct bind_dev *d, struct json_object *j,
		       char *text, size_t len)
{
	struct json_object *arr = json_object_new_array();
	struct blklist l;
	size_t i, o = 0;

	json_object_object_add(j, "disks", arr);
	text[0] = '\0';
	if (bind_ctrl_disks(d->pd.sysdir, d->ctrl, &l))
		return;
	for (i = 0; i < l.n; i++) {
		char dev[NAME_MAX + 8];

		snprintf(dev, sizeof(dev), "/dev/%s", l.v[i].name);
		json_object_array_add(arr, json_object_new_string(dev));
		if (o + 1 < len)
			o += (size_t)snprintf(text + o, len - o, "%s%s",
					      o ? " " : "", dev);
	}
	if (!o)
		snprintf(text, len, "no namespaces");
	blk_free(&l);
}

/* @d is on ssdtune: say so ("attached", "already attached"), in @j too. */
static void attached(const struct bind_dev *d, struct json_object *j,
		     const char *status, const char *verb)
{
	char disks[1024];

	show_disks(d, j, disks, sizeof(disks));
	rebind_set_str(j, "status", status);
	rebind_set_str(j, "driver", SSDTUNE_DRV_NAME);
	rebind_set_str(j, "controller", d->ctrl);
	if (!out_json())
		printf("%s %s as %s: %s\n", verb, d->pd.name, d->ctrl, disks);
}

/*
 * Attach the function @arg names, its outcome in @j (and a line of text).
 * 0; -EINVAL if @arg is no PCI address; else -errno; @err filled.
 */
static int attach_dev(struct cli *cli, const char *arg, struct json_object *j,
		      struct lib_err *err)
{
	struct bind_dev d;
	int r, fd = -1;

	r = bind_attach_begin(arg, &d, err);
	if (r == -EINVAL)
		return r;
	if (r > 0) {
		attached(&d, j, "already_attached", "already attached");
		return 0;
	}
	/* apply and revert find controllers by identity: not mid-rebind */
	if (!r && !cli->dry_run && (fd = state_lock(tuning_state_dir(), err)) < 0)
		r = fd;
	if (!r)
		r = bind_to_ssdtune(&d, err);
	if (!r && cli->dry_run) {
		rebind_set_str(j, "status", "would_attach");
		rebind_set_str(j, "driver", SSDTUNE_DRV_NAME);
		rebind_set_str(j, "controller", NULL);
		json_object_object_add(j, "disks", json_object_new_array());
	} else if (!r && !(r = bind_wait_ctrl(&d, err))) {
		attached(&d, j, "attached", "attached");
	}
	state_unlock(fd);
	return r;
}

/*
 * attach --config FILE [BDF]: every configured controller present that is
 * not on ssdtune yet; with BDF only that one, and only if FILE selects it
 * (udev runs this for every NVMe controller that appears).
 */
static int attach_configured(const struct command *cmd, struct cli *cli,
			     const struct config *c)
{
	struct json_object *arr = json_object_new_array();
	char first[sizeof(((struct lib_err *)0)->msg)] = "";
	int r, i, n, failed = 0, todo = 0;
	struct ctrl_id *ids = NULL;
	struct lib_err err;
	struct bdf b;
	char want[BDF_BUFSZ] = "";

	if (cli->argc) {
		if (bdf_parse(cli->argv[0], &b))
			return usage_error(cmd, "'%s' is not a PCI address (DDDD:BB:DD.F)",
					   cli->argv[0]);
		bdf_format(&b, want, sizeof(want));
	}
	json_object_object_add(report_obj(), "attached", arr);
	r = tuning_config_ctrls(c, &ids, &n);
	if (r)
		return r;
	for (i = 0; i < n; i++) {
		struct json_object *j;

		if (want[0] && strcmp(ids[i].bdf, want))
			continue;
		todo++;
		j = json_object_new_object();
		rebind_set_str(j, "pci_address", ids[i].bdf);
		json_object_array_add(arr, j);
		r = attach_dev(cli, ids[i].bdf, j, &err);
		if (r) {
			rebind_set_str(j, "status", "failed");
			rebind_set_str(j, "error", err.msg);
			if (!failed++)
				snprintf(first, sizeof(first), "%s", err.msg);
		}
	}
	free(ids);
	if (want[0] && !todo) {
		report_set_str("status", "not_configured");
		if (!out_json())
			printf("%s is not configured in %s: nothing to do\n", want, c->file);
		return out_done();
	}
	if (failed)
		return out_fail(EXIT_REFUSED, "%d of %d configured controllers not attached; first: %s",
				failed, todo, first);
	report_set_str("status", todo ? "ok" : "none_present");
	if (!todo && !out_json())
		printf("no controller %s selects is present: nothing to do\n", c->file);
	return out_done();
}

static int cmd_attach(const struct command *cmd, struct cli *cli)
{
	const struct config *c;
	struct lib_err err;
	int r;

	r = tuning_config(cmd, &c);
	if (r)
		return r;
	if (c && cli->argc > 1)
		return usage_error(cmd, "--config takes at most one CTRL");
	if (c)
		return attach_configured(cmd, cli, c);
	if (!cli->argc)
		return usage_error(cmd, "missing %s", cmd->args);
	if (cli->argc > 1)
		return rebind_several(cmd, cli, "attached", "ok", attach_dev);
	r = attach_dev(cli, cli->argv[0], report_obj(), &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r)
		return out_fail_err(&err);
	return out_done();
}

const struct command attach_command = {
	.name = "attach",
	.args = "CTRL...",
	.summary = "hand NVMe controllers from their driver to ssdtune",
	.help =
"Unbind the NVMe controller CTRL from its driver (normally nvme) and bind\n"
"it to the ssdtune driver, which must be loaded.  CTRL is its PCI address\n"
"(0000:41:00.0), nvmeN, /dev/nvmeN or a namespace (/dev/nvme0n1).\n"
"Refuses, changing nothing, if any namespace or partition of the\n"
"controller is mounted, used as swap, held by LVM, md or device-mapper, or\n"
"open by a process.  Prints: attached BDF as ssdtN: /dev/ssdtNn1 ...\n"
"With several CTRL, each is checked first and none is moved if one\n"
"cannot go (not NVMe, named twice, in use); then each is attached in\n"
"turn, a line each (--json: \"attached\", an object each).\n"
"Holds the state lock (DIR/lock) while it rebinds, so no apply or revert\n"
"runs meanwhile.\n"
"  -c, --config FILE attach every controller FILE selects (see 'ssdtune\n"
"                    check-config --help') that is present and not on\n"
"                    ssdtune yet; with CTRL (a PCI address) only that one,\n"
"                    and only if FILE selects it: if it does not, say so\n"
"                    and exit 0 (what udev runs for every NVMe controller\n"
"                    that appears)\n"
"  --state-dir DIR  the state directory (default " "/var/lib/ssdtune" ")\n",
	.flags = CMD_DRY_RUN,
	.min_args = 0, .max_args = BIND_MAX_ARGS,
	.run = cmd_attach,
	.options = config_state_options, .option = tuning_option,
};
