// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune status: the tuning and the controllers in a few lines, as
 * tuned-adm active or systemctl status give theirs: the applied profile
 * and verify's verdict (not its listing), the NVMe controllers and the
 * driver each is on, the coalescing and power limit in force on ssdtune's,
 * and the drop-ins apply writes.  Reads only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/ctrls.h"
#include "lib/dropin.h"
#include "lib/knobtab.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"
#include "lib/tune.h"

#define JS(s) json_object_new_string(s)

/* The tuning: one line, and its fields in the report. */
static void show_tuning(const struct tune_summary *t)
{
	struct json_object *o = report_obj();

	json_object_object_add(o, "profile", t->applied ? JS(t->profile) : NULL);
	json_object_object_add(o, "isolate", t->applied ?
			       json_object_new_boolean(t->isolate) : NULL);
	json_object_object_add(o, "stale", json_object_new_boolean(t->stale));
	json_object_object_add(o, "settings", json_object_new_int(t->settings));
	json_object_object_add(o, "drifted", json_object_new_int(t->drifted));
	json_object_object_add(o, "pending", json_object_new_int(t->pending));
	if (out_json())
		return;
	if (!t->applied) {
		printf("tuning:      none applied ('ssdtune plan' shows what apply would do)\n");
		return;
	}
	printf("tuning:      profile %s%s, ", t->profile,
	       t->isolate ? " with isolation" : "");
	if (t->stale)
		printf("saved before the last reboot: not in force ('ssdtune apply' again)\n");
	else if (t->drifted)
		printf("%d of %d settings drifted ('ssdtune verify' lists them)\n",
		       t->drifted, t->settings);
	else
		printf("all %d settings hold%s\n", t->settings,
		       t->pending ? " (vector moves wait for an interrupt)" : "");
}

/* A file of ssdtune controller @ctrl, "" when unreadable. */
static void ctrl_file(const char *ctrl, const char *file, char *buf, size_t len)
{
	char p[PATH_MAX];

	if (sys_read(ssdtdev_path(p, sizeof(p), ctrl, file), buf, len))
		buf[0] = '\0';
}

/* One controller: a line, and an object in @arr. */
static void show_ctrl(const struct ctrl_id *id, struct json_object *arr,
		      bool first)
{
	struct json_object *j = json_object_new_object();
	char co[32] = "", prof[32] = "", pw[32] = "", mw[32] = "";
	bool limited;

	json_object_object_add(j, "pci_address", JS(id->bdf));
	json_object_object_add(j, "driver", out_jstr(id->driver));
	json_object_object_add(j, "controller", out_jstr(id->ctrl));
	if (ctrl_on_ssdtune(id)) {
		ctrl_file(id->ctrl, ATTR_FILE(coalesce_active), co, sizeof(co));
		ctrl_file(id->ctrl, KNOB_FILE(coalesce_profile), prof, sizeof(prof));
		ctrl_file(id->ctrl, ATTR_FILE(power_limit_active), pw, sizeof(pw));
		ctrl_file(id->ctrl, KNOB_FILE(power_limit_mw), mw, sizeof(mw));
	}
	json_object_object_add(j, "coalesce_active", out_jstr(co));
	json_object_object_add(j, "coalesce_profile", out_jstr(prof));
	json_object_object_add(j, "power_limit_active", out_jstr(pw));
	json_object_object_add(j, "power_limit_mw", mw[0] ?
			       json_object_new_int64(strtoll(mw, NULL, 10)) : NULL);
	json_object_array_add(arr, j);
	if (out_json())
		return;
	limited = mw[0] && strcmp(mw, "0");
	printf("%-13s%s %s", first ? "controllers:" : "", id->bdf,
	       id->ctrl[0] ? id->ctrl : "-");
	if (!ctrl_on_ssdtune(id))
		printf(" on %s\n", id->driver[0] ? id->driver : "no driver");
	else
		/* the knobs on a line of their own: one line would pass 80 columns */
		printf(" on ssdtune\n%15scoalescing %s (profile %s), power limit %s%s%s%s\n", "",
		       co[0] ? co : "?", prof[0] ? prof : "?", pw[0] ? pw : "?",
		       limited ? " at " : "", limited ? mw : "",
		       limited ? " mW" : "");
}

/* The controllers; their count. */
static int show_ctrls(void)
{
	struct json_object *arr = json_object_new_array();
	struct ctrl_id *ids = NULL;
	struct lib_err err;
	int n, i;

	json_object_object_add(report_obj(), "controllers", arr);
	n = ctrls_list(&ids, &err);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++)
		show_ctrl(&ids[i], arr, !i);
	if (!n && !out_json())
		printf("controllers: no NVMe controller on this host\n");
	free(ids);
	return n;
}

/* The drop-ins apply writes: present, and (GRUB) waiting for a reboot. */
static void show_dropins(void)
{
	struct json_object *o = json_object_new_object();
	char buf[4096], why[256] = "";
	bool irqb, grub, pending = false;

	irqb = !dropin_read(IRQBALANCE_DROPIN, buf, sizeof(buf)) && buf[0];
	grub = !dropin_read(GRUB_DROPIN, buf, sizeof(buf)) && buf[0];
	if (grub)
		pending = dropin_pending(buf, why, sizeof(why));
	json_object_object_add(o, "irqbalance", json_object_new_boolean(irqb));
	json_object_object_add(o, "boot", json_object_new_boolean(grub));
	json_object_object_add(o, "boot_pending", json_object_new_boolean(pending));
	json_object_object_add(report_obj(), "dropins", o);
	if (out_json())
		return;
	printf("drop-ins:    irqbalance %s, boot (GRUB) %s\n",
	       irqb ? "written" : "none",
	       !grub ? "none" : pending ? "written, waiting for a reboot" : "written, in force");
}

static int cmd_status(const struct command *cmd, struct cli *cli)
{
	struct tune_summary t;
	struct lib_err err;

	(void)cmd;
	(void)cli;
	if (tune_summary(tuning_state_dir(), &t, &err))
		return out_fail_err(&err);
	show_tuning(&t);
	show_ctrls();
	show_dropins();
	report_set_str("status", t.drifted || t.stale ? "drift" : "ok");
	out_done();
	/* verify's codes: drift (or a state of another boot) is 3 */
	return t.drifted || t.stale ? EXIT_DRIFT : EXIT_OK;
}

const struct command status_command = {
	.name = "status",
	.args = "",
	.summary = "the tuning and the controllers at a glance",
	.help =
"Show in a few lines the applied profile and whether it holds (verify's\n"
"verdict, not its listing), every NVMe controller with the driver it is\n"
"on and, on ssdtune, the coalescing and power limit in force, and the\n"
"drop-ins apply writes (irqbalance's, the boot command line's).  Reads\n"
"only.  Exit status as verify's: 0 holds, or nothing applied; 3 drift,\n"
"or a state saved before the last reboot; 1 an unreadable state.\n"
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n",
	.min_args = 0, .max_args = 0,
	.run = cmd_status,
	.options = state_options, .option = tuning_option,
};
