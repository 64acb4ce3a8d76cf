// SPDX-License-Identifier: GPL-2.0
/* ssdtune verify: does every applied value still hold? */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/tuning.h"
#include "lib/cpuset.h"
#include "lib/plangroup.h"
#include "lib/tune.h"

/*
 * The "ok" lines as a person reads them: the same file of many CPUs
 * holding the same value is one line ("cpuN/... on CPUs 2-5 = 1"), in
 * the place of its first CPU; drift and pending lines stand alone.
 * --verbose and --json keep one a value.
 */
struct ok_line {
	char what[PATH_MAX];		/* the path, or its shape with N */
	const char *val;		/* the saved entry's */
	struct cpuset cpus;		/* of a shape; empty otherwise */
	bool plain;			/* a line of its own, printed as is */
	char *text;
};

static struct ok_line *lines;
static int nlines;

/* Add a line; an "ok" one of a per-CPU file joins its group. */
static void add_line(const char *path, const char *val, char *text)
{
	char what[PATH_MAX];
	int cpu = -1, i;

	if (val)
		cpu = plangroup_cpu_path(path, what, sizeof(what));
	for (i = 0; cpu >= 0 && i < nlines; i++)
		if (!lines[i].plain && !strcmp(lines[i].what, what) &&
		    !strcmp(lines[i].val, val)) {
			cpuset_set(&lines[i].cpus, cpu);
			free(text);
			return;
		}
	lines[nlines].plain = cpu < 0 || cpuset_init(&lines[nlines].cpus, 65536);
	if (!lines[nlines].plain)
		cpuset_set(&lines[nlines].cpus, cpu);
	snprintf(lines[nlines].what, sizeof(lines[nlines].what), "%s",
		 cpu < 0 ? path : what);
	lines[nlines].val = val;
	lines[nlines].text = text;
	nlines++;
}

static void print_lines(void)
{
	char cpus[4096];
	int i;

	for (i = 0; i < nlines; i++) {
		struct ok_line *l = &lines[i];

		if (l->plain || cpuset_count(&l->cpus) == 1)
			fputs(l->text ? l->text : "", stdout);
		else
			printf("ok     %s on CPUs %s = %s\n", l->what,
			       cpuset_format(&l->cpus, cpus, sizeof(cpus)), l->val);
		if (!l->plain)
			cpuset_free(&l->cpus);
		free(l->text);
	}
	free(lines);
	lines = NULL;
	nlines = 0;
}

/*
 * --config and nothing applied: drift if a controller the file selects is
 * present (apply would have tuned it), else what apply did: nothing.
 */
static int verify_unapplied(const struct config *conf)
{
	struct ctrl_id *ids = NULL;
	int r, n;

	r = tuning_config_ctrls(conf, &ids, &n);
	free(ids);
	if (r)
		return r;
	if (n)
		return out_fail(EXIT_DRIFT, "nothing is applied and %s selects %d present controller%s: 'ssdtune apply --config %s'",
				conf->file, n, n == 1 ? "" : "s", conf->file);
	report_set_str("status", "none_present");
	if (!out_json())
		printf("no controller %s selects is present: nothing to verify\n",
		       conf->file);
	return out_done();
}

/*
 * --config: was the applied plan made with the file's isolate and
 * io_cores?  (A file changed since apply plans other I/O cores.)  0, or
 * the drift reported.
 */
static int verify_config_match(const struct config *conf, const struct state *s)
{
	bool isolate = conf->isolate && conf->profile != PROFILE_BALANCED;
	char want[16], have[16];

	if (isolate != s->isolate)
		return out_fail(EXIT_DRIFT, "the profile was applied %s isolation, %s asks for isolate = %s: 'ssdtune apply --config %s'",
				s->isolate ? "with" : "without", conf->file,
				conf->isolate ? "yes" : "no", conf->file);
	if (conf->io_cores == s->io_cores)
		return 0;
	snprintf(want, sizeof(want), "%d", conf->io_cores);
	snprintf(have, sizeof(have), "%d", s->io_cores);
	return out_fail(EXIT_DRIFT, "the profile was applied with io_cores = %s, %s asks for io_cores = %s: 'ssdtune apply --config %s'",
			s->io_cores ? have : "auto", conf->file,
			conf->io_cores ? want : "auto", conf->file);
}

/* Was @s applied as @conf (if any) asks, and in this boot?  0, or the
 * drift reported. */
static int verify_state(const struct config *conf, const struct state *s)
{
	char now[40];
	int r;

	if (conf && strcmp(s->profile, plan_profile_name(conf->profile))) {
		json_object_object_add(report_obj(), "profile", json_object_new_string(s->profile));
		return out_fail(EXIT_DRIFT, "the applied profile is %s, %s asks for %s: 'ssdtune apply --config %s'",
				s->profile, conf->file, plan_profile_name(conf->profile), conf->file);
	}
	if (conf && (r = verify_config_match(conf, s)))
		return r;
	if (tune_stale(s, now, sizeof(now))) {
		json_object_object_add(report_obj(), "profile", json_object_new_string(s->profile));
		report_set_bool("stale", true);
		return out_fail(EXIT_DRIFT, "not applied since boot: the state in %s was saved before the last reboot (boot %s, now %s); 'ssdtune apply' again, or 'ssdtune revert --force'",
				tuning_state_dir(), s->boot_id, now);
	}
	return 0;
}

/* One saved value checked: into @arr, and a line unless --json. */
static void show_check(const struct state_entry *e, const struct tune_check *c,
		       struct json_object *arr)
{
	struct json_object *j = json_object_new_object();
	char *text;
	int n;

	json_object_object_add(j, "path", json_object_new_string(c->path));
	json_object_object_add(j, "key", json_object_new_string(e->key));
	json_object_object_add(j, "applied", json_object_new_string(e->val));
	json_object_object_add(j, "now", json_object_new_string(c->now));
	json_object_object_add(j, "holds", json_object_new_boolean(c->ok));
	if (c->pending)
		json_object_object_add(j, "pending", json_object_new_string(c->why));
	if (!c->ok)
		json_object_object_add(j, "drift", json_object_new_string(c->why));
	json_object_array_add(arr, j);
	if (out_json())
		return;
	if (c->pending)
		n = asprintf(&text, "pending %s: %s\n", c->path, c->why);
	else if (c->ok)
		n = asprintf(&text, "ok     %s = %s\n", c->path,
			     e->type == TYPE_DROPIN ? "(as written)" : e->val);
	else
		n = asprintf(&text, "drift  %s: %s\n", c->path, c->why);
	if (n < 0)
		text = NULL;
	if (lines) {
		add_line(c->path, c->ok && !c->pending && e->type != TYPE_DROPIN ?
			 e->val : NULL, text);
	} else {
		fputs(text ? text : "", stdout);
		free(text);
	}
}

/* Every value of @s against the live system, into @arr; the verdict. */
static int verify_values(const struct state *s, struct json_object *arr)
{
	int i, drift = 0, pending = 0;
	bool waiting_boot = false;
	struct tune_check c;

	/* without memory for the groups, one line a value */
	if (!tuning_verbose() && !out_json())
		lines = calloc((size_t)s->n + 1, sizeof(*lines));
	for (i = 0; i < s->n; i++) {
		const struct state_entry *e = &s->e[i];

		tune_check(e, &c);
		drift += !c.ok;
		pending += c.pending;
		waiting_boot |= c.pending && e->vector < 0;
		show_check(e, &c, arr);
	}
	print_lines();
	json_object_object_add(report_obj(), "profile", json_object_new_string(s->profile));
	json_object_object_add(report_obj(), "drifted", json_object_new_int(drift));
	json_object_object_add(report_obj(), "pending", json_object_new_int(pending));
	if (drift)
		return out_fail(EXIT_DRIFT, "%d of %d applied settings drifted", drift, s->n);
	if (!out_json() && pending)
		printf("all %d applied settings hold (profile %s); %d %s\n",
		       s->n, s->profile, pending, waiting_boot ?
		       "wait (a vector's next interrupt, or a reboot)" :
		       "vector moves wait for the vector's next interrupt");
	else if (!out_json())
		printf("all %d applied settings hold (profile %s)\n", s->n, s->profile);
	return out_done();
}

static int cmd_verify(const struct command *cmd, struct cli *cli)
{
	struct json_object *arr = json_object_new_array();
	const struct config *conf;
	struct lib_err err;
	struct state s;
	int r;

	(void)cli;
	r = tuning_config(cmd, &conf);
	if (r) {
		json_object_put(arr);
		return r;
	}
	json_object_object_add(report_obj(), "checks", arr);
	r = tune_load(tuning_state_dir(), &s, &err);
	if (r == -ENOENT && conf)
		return verify_unapplied(conf);
	if (r)
		return out_fail_err(&err);
	r = verify_state(conf, &s);
	if (!r)
		r = verify_values(&s, arr);
	state_free(&s);
	return r;
}

const struct command verify_command = {
	.name = "verify",
	.args = "",
	.summary = "check that the applied plan still holds",
	.help =
"Compare every applied value with the live system; for interrupt vectors\n"
"also check that the effective affinity lies inside the applied mask (a\n"
"vector that has not fired since apply moves at its next interrupt: that\n"
"is 'pending', not drift).  A state saved before the last reboot is not\n"
"applied since boot: verify says so and fails.\n"
"Prints 'ok', 'pending' or 'drift' per value; the same file of many CPUs\n"
"holding the same value is one 'ok' line.\n"
"Exit status: 0 all hold; 3 drift: a value drifted, the state predates\n"
"the last boot, or (with --config) the applied profile, isolate or\n"
"io_cores is not the configured one, or nothing is applied; 1 verify\n"
"could not check (no state without --config, unreadable state); 2 usage\n"
"or a bad config file.\n"
"  -c, --config FILE also check that FILE is good and that its profile,\n"
"                    isolate and io_cores are the ones applied (what\n"
"                    'apply --config FILE' saved is for the configured\n"
"                    controllers and their knobs)\n"
"  --state-dir DIR  where apply saved (default /var/lib/ssdtune)\n"
"  --verbose        one line per value (--json always has every one)\n",
	.min_args = 0, .max_args = 0,
	.run = cmd_verify,
	.options = verify_options, .option = tuning_option,
};

