// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune metrics [--output FILE]: the driver's counters and settings and
 * the tuning's state in the Prometheus text format, on stdout or
 * atomically into FILE for node_exporter's textfile collector (the
 * package's ssdtune-metrics.timer refreshes it).  The metrics are
 * lib/prometheus.c's; Documentation/fleet.md lists them.  With the
 * configuration (--config FILE, else /etc/ssdtune/ssdtune.conf where there
 * is one) also whether each controller it selects is on ssdtune.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/config.h"
#include "lib/prometheus.h"
#include "lib/state.h"

static const char *metrics_output;	/* --output; NULL: stdout */
static const char *metrics_state_dir;	/* --state-dir; NULL: state_dir_env() */
static const char *metrics_config;	/* --config; NULL: the default, if there */

enum { OPT_OUTPUT = 0x200, OPT_STATE_DIR, OPT_CONFIG };

static const struct option metrics_options[] = {
	{ "output",	required_argument, NULL, OPT_OUTPUT },
	{ "state-dir",	required_argument, NULL, OPT_STATE_DIR },
	{ "config",	required_argument, NULL, OPT_CONFIG },
	{ NULL, 0, NULL, 0 },
};

static int metrics_option(struct cli *cli, int val, const char *arg)
{
	static const char *const opt[] = { "--output", "--state-dir", "--config" };
	static const char *const what[] = { "file", "directory", "file" };

	(void)cli;
	if (!arg[0])
		return usage_error(NULL, "%s needs a %s", opt[val - OPT_OUTPUT],
				   what[val - OPT_OUTPUT]);
	if (val == OPT_OUTPUT)
		metrics_output = arg;
	else if (val == OPT_STATE_DIR)
		metrics_state_dir = arg;
	else
		metrics_config = arg;
	return 0;
}

/*
 * The configuration to report on in @c, or NULL: --config's (a bad one
 * is a usage error in *@r), else the default file where there is one (a
 * bad one is a warning: the other metrics still go out).
 */
static const struct config *metrics_config_load(struct config *c, int *r)
{
	const char *path = metrics_config ? metrics_config : CONFIG_PATH_DEFAULT;
	struct lib_err err;

	*r = 0;
	if (!metrics_config && access(path, F_OK))
		return NULL;
	if (!config_load(path, c, &err))
		return c;
	if (metrics_config) {
		*r = out_fail(EXIT_USAGE, "%s", err.msg);
		return NULL;
	}
	fprintf(stderr, "ssdtune: metrics: warning: %s: no ssdtune_config_ samples\n", err.msg);
	report_append_str("warnings", err.msg);
	return NULL;
}

/* --json: the families and their samples, as printed in the text. */
static void show_metrics(const struct metrics *m)
{
	struct json_object *arr = json_object_new_array();
	int i, j, k;

	for (i = 0; i < m->n; i++) {
		const struct metric_family *f = &m->f[i];
		struct json_object *jf, *samples;

		if (!f->n)
			continue;
		jf = json_object_new_object();
		samples = json_object_new_array();
		json_object_object_add(jf, "name", json_object_new_string(f->name));
		json_object_object_add(jf, "type", json_object_new_string(f->type));
		json_object_object_add(jf, "help", json_object_new_string(f->help));
		for (j = 0; j < f->n; j++) {
			struct json_object *js = json_object_new_object(),
				*labels = json_object_new_object();

			for (k = 0; k < f->s[j].nlabels; k++)
				json_object_object_add(labels, f->s[j].key[k],
						       json_object_new_string(f->s[j].val[k]));
			json_object_object_add(js, "labels", labels);
			/* the number as printed (json-c keeps the text) */
			json_object_object_add(js, "value",
					       json_object_new_double_s(strtod(f->s[j].value, NULL),
									f->s[j].value));
			json_object_array_add(samples, js);
		}
		json_object_object_add(jf, "samples", samples);
		json_object_array_add(arr, jf);
	}
	json_object_object_add(report_obj(), "controllers", json_object_new_int(m->controllers));
	json_object_object_add(report_obj(), "queues", json_object_new_int(m->queues));
	json_object_object_add(report_obj(), "metrics", arr);
}

static int cmd_metrics(const struct command *cmd, struct cli *cli)
{
	const char *dir = metrics_state_dir ? metrics_state_dir : state_dir_env();
	static struct config config;
	const struct config *c;
	struct lib_err err;
	struct metrics m;
	int r;

	(void)cmd;
	(void)cli;
	c = metrics_config_load(&config, &r);
	if (r)
		return r;
	r = metrics_gather(&m, dir, c, &err);
	if (r) {
		metrics_free(&m);
		return out_fail_err(&err);
	}
	if (metrics_output && metrics_write_file(&m, metrics_output, &err)) {
		metrics_free(&m);
		return out_fail_err(&err);
	}
	report_set_str("output", metrics_output);
	show_metrics(&m);
	if (!out_json()) {
		if (metrics_output)
			printf("%s: %d controller%s, %d queues\n", metrics_output,
			       m.controllers, m.controllers == 1 ? "" : "s", m.queues);
		else if (metrics_render(&m, stdout))
			r = out_fail(EXIT_REFUSED, "cannot write the metrics to stdout");
	}
	report_set_str("status", "ok");
	metrics_free(&m);
	return r ? r : out_done();
}

const struct command metrics_command = {
	.name = "metrics",
	.args = "",
	.summary = "the driver's counters and the tuning's state for Prometheus",
	.help =
"Print every ssdtune controller's counters and settings, and the tuning's\n"
"state, in the Prometheus text exposition format: per queue the commands,\n"
"completions and interrupts (_total counters); per controller the\n"
"coalescing mode and settings, the power limit, estimate, state and\n"
"throttling, the temperature; the applied profile and whether 'ssdtune\n"
"verify' would find drift.  Names start with ssdtune_ and carry base\n"
"units (seconds, watts, celsius).  Reads only; reading the temperature or\n"
"the power state may ask the controller (at most once a second).  With a\n"
"configuration, each controller present that it selects: on ssdtune (1)\n"
"or still on another driver (0).\n"
"  --output FILE    write FILE atomically instead (a temporary file in its\n"
"                   directory, then rename): for node_exporter's textfile\n"
"                   collector, FILE in its directory and ending in .prom\n"
"                   (Debian: /var/lib/prometheus/node-exporter/ssdtune.prom)\n"
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n"
"  -c, --config FILE the configuration (default /etc/ssdtune/ssdtune.conf\n"
"                    where there is one; a bad default is a warning)\n"
"With --json: the same samples as JSON.  See Documentation/fleet.md.\n",
	.min_args = 0, .max_args = 0,
	.run = cmd_metrics,
	.options = metrics_options, .option = metrics_option,
};
