// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune check-config [FILE]: parse and check the configuration file
 * (lib/config.h) and say what it asks for.  A bad file is a usage error:
 * one line "FILE:LINE: what is wrong", exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/bdf.h"
#include "lib/config.h"
#include "lib/ctrls.h"
#include "lib/planner.h"

static void show_config(const struct config *c)
{
	struct json_object *o = report_obj(), *ctrls = json_object_new_array(),
		*knobs = json_object_new_object();
	int i;

	json_object_object_add(o, "file", json_object_new_string(c->file));
	for (i = 0; i < c->nctrls; i++) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "by", json_object_new_string(config_by_name(c->ctrls[i].by)));
		json_object_object_add(j, "value", json_object_new_string(c->ctrls[i].value));
		json_object_object_add(j, "line", json_object_new_int(c->ctrls[i].line));
		json_object_array_add(ctrls, j);
	}
	json_object_object_add(o, "controllers", ctrls);
	json_object_object_add(o, "profile", json_object_new_string(plan_profile_name(c->profile)));
	json_object_object_add(o, "isolate", json_object_new_boolean(c->isolate));
	json_object_object_add(o, "io_cores", json_object_new_int(c->io_cores));
	for (i = 0; i < c->nknobs; i++)
		json_object_object_add(knobs, c->knobs[i].k->name,
				       json_object_new_string(c->knobs[i].value));
	json_object_object_add(o, "knobs", knobs);
	if (out_json())
		return;

	printf("%s: ok\n", c->file);
	if (!c->nctrls)
		printf("no controller line: ssdtune attaches and tunes nothing\n");
	for (i = 0; i < c->nctrls; i++)
		printf("controller %s %s\n", config_by_name(c->ctrls[i].by),
		       c->ctrls[i].value);
	printf("profile %s, isolate %s, io_cores ", plan_profile_name(c->profile),
	       c->isolate ? "yes" : "no");
	if (c->io_cores)
		printf("%d\n", c->io_cores);
	else
		printf("auto\n");
	for (i = 0; i < c->nknobs; i++)
		printf("knob %s = %s\n", c->knobs[i].k->name, c->knobs[i].value);
}

/*
 * check-config FILE BDF: does @c select the NVMe controller at @bdf?  Exit
 * 0 if so, 1 if not (ssdtune-attach@.service's ExecCondition: a controller
 * the file does not select is left alone, and nothing is restarted).
 */
static int selects(const struct config *c, const char *bdf)
{
	bool matched[CONFIG_MAX_CTRLS];
	struct ctrl_id *ids = NULL;
	struct lib_err err;
	int i, n, line = 0;

	n = ctrls_configured(c, &ids, matched, &err);
	if (n < 0)
		return out_fail_err(&err);
	for (i = 0; i < n && !line; i++)
		if (!strcmp(ids[i].bdf, bdf))
			line = ids[i].line;
	free(ids);
	report_set_str("file", c->file);
	report_set_str("pci_address", bdf);
	report_set_bool("selected", line > 0);
	if (!line) {
		report_set_str("status", "not_selected");
		if (!out_json())
			printf("%s does not select %s\n", c->file, bdf);
		out_done();
		return EXIT_REFUSED;
	}
	report_set_str("status", "ok");
	json_object_object_add(report_obj(), "line", json_object_new_int(line));
	if (!out_json())
		printf("%s:%d selects %s\n", c->file, line, bdf);
	return out_done();
}

static int cmd_check_config(const struct command *cmd, struct cli *cli)
{
	static struct config c;
	struct lib_err err;
	char want[BDF_BUFSZ];
	struct bdf b;

	if (cli->argc > 1) {
		if (bdf_parse(cli->argv[1], &b))
			return usage_error(cmd, "'%s' is not a PCI address (DDDD:BB:DD.F)",
					   cli->argv[1]);
		bdf_format(&b, want, sizeof(want));
	}
	if (config_load(cli->argc ? cli->argv[0] : CONFIG_PATH_DEFAULT, &c, &err))
		return out_fail(EXIT_USAGE, "%s", err.msg);
	if (cli->argc > 1)
		return selects(&c, want);
	report_set_str("status", "ok");
	show_config(&c);
	return out_done();
}

const struct command check_config_command = {
	.name = "check-config",
	.args = "[FILE [BDF]]",
	.summary = "check the configuration file and show what it asks for",
	.help =
"Parse and check FILE (default " CONFIG_PATH_DEFAULT "), the wanted\n"
"state that 'apply --config', 'verify --config' and 'attach --config'\n"
"read: which controllers (controller = serial:S, model:M or pci:BDF,\n"
"repeatable), profile, isolate (yes/no), io_cores (auto or N) and any\n"
"knob 'ssdtune set' takes (KNOB = VALUE, checked as set checks it).\n"
"Prints what the file asks for; with --json the parsed file.  A bad\n"
"file: one line 'FILE:LINE: what is wrong', exit status 2.  Reads\n"
"nothing else and changes nothing.  With BDF: does FILE select the NVMe\n"
"controller at that PCI address (present, on any driver)?  Exit status 0\n"
"if it does, 1 if not.  See CONFIGURATION in ssdtune(8).\n",
	.min_args = 0, .max_args = 2,
	.run = cmd_check_config,
};
