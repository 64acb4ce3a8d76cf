// SPDX-License-Identifier: GPL-2.0
/*
 * qualify CTRL: what ssdtune does differently from nvme on this drive,
 * before trusting it with data.  The controller is read under nvme, then
 * attached to ssdtune (the refusals are attach's) and read again, then
 * put back on the driver it came from.  Reads only, no knob; with
 * --write-test --destroy-data, data written through each driver on the
 * range the admin names is read back through the other (lib/qualio.c).
 * The run is lib/qualify_run.c's, the views and their differences
 * lib/ctrlview.c's; this file checks the arguments and presents.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/output.h"
#include "cmd/tuning.h"
#include "bench/bench.h"
#include "lib/bind.h"
#include "lib/ctrlview.h"
#include "lib/parse.h"
#include "lib/qualify_run.h"
#include "lib/report.h"
#include "lib/state.h"
#include "uapi/linux/ssdtune.h"

static const char *output_file;

/* --write-test and its options, then the run */
static struct {
	bool on, destroy, range_set, nsid_set;
	struct qual_io_range r;
} wt;

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static void row(FILE *f, const char *what, const char *a, const char *b)
{
	fprintf(f, "%-26s %-26s %s\n", what, or_dash(a), or_dash(b));
}

static void fmt_vs(const struct qual_view *v, char *buf, size_t len)
{
	if (!v->id_ok)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%u.%u.%u", v->vs >> 16, (v->vs >> 8) & 0xff,
			 v->vs & 0xff);
}

static void fmt_hmb(const struct qual_view *v, char *buf, size_t len)
{
	if (v->id_ok && !v->hmpre)
		snprintf(buf, len, "not asked (HMPRE 0)");
	else if (!v->hmb[0])
		snprintf(buf, len, "?");
	else if (!strcmp(v->driver, "nvme"))
		snprintf(buf, len, "%s", !strcmp(v->hmb, "yes") ? "given" : "none");
	else
		snprintf(buf, len, "%s bytes", v->hmb);
}

static void fmt_apst(const struct qual_view *v, char *buf, size_t len)
{
	size_t o;
	int i;

	if (v->id_ok && !v->apsta) {
		snprintf(buf, len, "unsupported (APSTA 0)");
		return;
	}
	if (!v->apst_known) {
		snprintf(buf, len, "?");
		return;
	}
	o = (size_t)snprintf(buf, len, "%s", v->apst_on ? "on" : "off");
	for (i = 0; i < v->napst && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " PS%d>PS%d@%ums",
				      v->apst[i].from, v->apst[i].to, v->apst[i].ms);
}

/* The driver the controller was on when qualify began, and is back on. */
static const char *started_on(const struct qual_run *q)
{
	return q->was_ssdt ? SSDTUNE_DRV_NAME : "nvme";
}

/* Each namespace either driver serves, its limits side by side. */
static void print_namespaces(FILE *f, const struct qual_view *s,
			     const struct qual_view *t)
{
	char a[64];
	int i, j;

	for (i = 0; i < s->nns || i < t->nns; i++) {
		const struct qual_ns *x = i < s->nns ? &s->ns[i] : NULL;
		const struct qual_ns *y = NULL;
		unsigned int nsid = x ? x->nsid : t->ns[i].nsid;

		for (j = 0; j < t->nns; j++)
			if (t->ns[j].nsid == nsid)
				y = &t->ns[j];
		if (!x && y && i < s->nns)
			continue;
		snprintf(a, sizeof(a), "namespace %u", nsid);
		row(f, a, x ? x->disk : "(not served)", y ? y->disk : "(not served)");
#define NSROW(what, m) row(f, "  " what, x ? x->m : "", y ? y->m : "")
		NSROW("logical block size", lbs);
		NSROW("physical block size", pbs);
		NSROW("max transfer KiB", max_kb);
		NSROW("max segments", segs);
		NSROW("discard max bytes", discard);
		NSROW("write zeroes max bytes", zeroes);
		NSROW("write cache", wcache);
		NSROW("FUA", fua);
#undef NSROW
	}
}

static void print_text(FILE *f, const struct qual_run *q)
{
	const struct qual_view *s = &q->nvme, *t = &q->ssdt;
	int i, nd = q->ndiff;
	char a[512], b[512];

	fprintf(f, "qualify %s: %s, serial %s, firmware %s (back on %s)\n",
		q->bdf, or_dash(s->model), or_dash(s->serial), or_dash(s->firmware),
		started_on(q));
	if (!nd)
		fprintf(f, "verdict: as stock nvme, in every field below that matters\n");
	else
		fprintf(f, "verdict: %d difference%s from stock nvme that matter%s:\n",
			nd, nd == 1 ? "" : "s", nd == 1 ? "s" : "");
	for (i = 0; i < nd && i < QUAL_MAX_DIFFS; i++)
		fprintf(f, "  %s\n", q->diff[i]);
	fprintf(f, "\n");
	row(f, "", "nvme", "ssdtune");
	row(f, "controller", s->ctrl, t->ctrl);
	row(f, "firmware", s->firmware, t->firmware);	/* lint-names: a heading */
	fmt_vs(s, a, sizeof(a));
	fmt_vs(t, b, sizeof(b));
	row(f, "NVMe version", a, b);
	row(f, "quirks", "(not shown by nvme)", t->quirks);	/* lint-names: a heading */
	fmt_hmb(s, a, sizeof(a));
	fmt_hmb(t, b, sizeof(b));
	row(f, "Host Memory Buffer", a, b);
	fmt_apst(s, a, sizeof(a));
	fmt_apst(t, b, sizeof(b));
	row(f, "APST", a, b);
	snprintf(a, sizeof(a), "%d (%d steerable)", s->nvectors, s->nsteerable);
	snprintf(b, sizeof(b), "%d (%d steerable)", t->nvectors, t->nsteerable);
	row(f, "interrupt vectors", a, b);
	snprintf(a, sizeof(a), "%d / %d", s->wctemp_c, s->cctemp_c);
	snprintf(b, sizeof(b), "%d / %d", t->wctemp_c, t->cctemp_c);
	row(f, "temperature warn/crit C", s->wctemp_c > -274 ? a : "-",
	    t->wctemp_c > -274 ? b : "-");
	snprintf(a, sizeof(a), "%u", s->npss + 1);
	snprintf(b, sizeof(b), "%u", t->npss + 1);
	row(f, "power states", s->id_ok ? a : "-", t->id_ok ? b : "-");
	print_namespaces(f, s, t);
	if (q->nlog) {
		fprintf(f, "\nssdtune's log at attach:\n");
		for (i = 0; i < q->nlog; i++)
			fprintf(f, "  %s\n", q->log[i]);
	}
}

static struct json_object *jnum(long long v)
{
	return json_object_new_int64(v);
}

static struct json_object *view_json(const struct qual_view *v)
{
	struct json_object *j = json_object_new_object(), *ns = json_object_new_array(),
		*apst = json_object_new_array();
	char vs[32];
	int i;

	json_object_object_add(j, "driver", out_jstr(v->driver));
	json_object_object_add(j, "controller", out_jstr(v->ctrl));
	json_object_object_add(j, "model", out_jstr(v->model));
	json_object_object_add(j, "serial", out_jstr(v->serial));
	json_object_object_add(j, "firmware", out_jstr(v->firmware));
	fmt_vs(v, vs, sizeof(vs));
	json_object_object_add(j, "nvme_version", v->id_ok ? out_jstr(vs) : NULL);
	json_object_object_add(j, "quirks", out_jstr(v->quirks));
	json_object_object_add(j, "hmb_asked_bytes", v->id_ok ? jnum((long long)v->hmpre) : NULL);
	json_object_object_add(j, "hmb_min_bytes", v->id_ok ? jnum((long long)v->hmmin) : NULL);
	json_object_object_add(j, "hmb_given", out_jstr(v->hmb));
	json_object_object_add(j, "apst_supported", v->id_ok ? json_object_new_boolean(v->apsta) : NULL);
	json_object_object_add(j, "apst_enabled", v->apst_known ? json_object_new_boolean(v->apst_on) : NULL);
	for (i = 0; i < v->napst; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "from", jnum(v->apst[i].from));
		json_object_object_add(e, "to", jnum(v->apst[i].to));
		json_object_object_add(e, "idle_ms", jnum(v->apst[i].ms));
		json_object_array_add(apst, e);
	}
	json_object_object_add(j, "apst_table", apst);
	json_object_object_add(j, "apst_max_latency_us", out_jstr(v->apst_knob));
	json_object_object_add(j, "vectors", jnum(v->nvectors));
	json_object_object_add(j, "vectors_steerable", jnum(v->nsteerable));
	json_object_object_add(j, "power_states", v->id_ok ? jnum(v->npss + 1) : NULL);
	json_object_object_add(j, "temp_warn_c", v->wctemp_c > -274 ? jnum(v->wctemp_c) : NULL);
	json_object_object_add(j, "temp_crit_c", v->cctemp_c > -274 ? jnum(v->cctemp_c) : NULL);
	for (i = 0; i < v->nns; i++) {
		const struct qual_ns *n = &v->ns[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "nsid", jnum(n->nsid));
		json_object_object_add(o, "disk", out_jstr(n->disk));
		json_object_object_add(o, "logical_block_size", out_jstr(n->lbs));
		json_object_object_add(o, "physical_block_size", out_jstr(n->pbs));
		json_object_object_add(o, "max_hw_sectors_kb", out_jstr(n->max_kb));
		json_object_object_add(o, "max_segments", out_jstr(n->segs));
		json_object_object_add(o, "discard_max_hw_bytes", out_jstr(n->discard));
		json_object_object_add(o, "write_zeroes_max_bytes", out_jstr(n->zeroes));
		json_object_object_add(o, "write_cache", out_jstr(n->wcache));
		json_object_object_add(o, "fua", out_jstr(n->fua));
		json_object_array_add(ns, o);
	}
	json_object_object_add(j, "namespaces", ns);
	return j;
}

static struct json_object *lines_json(const char (*l)[QUAL_DIFF_LEN], int n)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(l[i]));
	return a;
}

static void print_write_test(FILE *f, const struct qual_run *q)
{
	int i;

	fprintf(f, "\nwrite test: namespace %u, %llu bytes at %llu: %s\n", q->range.nsid,
		q->range.len, q->range.off, q->write_failed ? "FAILED" : "passed");
	for (i = 0; i < q->nsteps; i++) {
		const struct qual_io_step *st = &q->step[i];
		char what[96];

		snprintf(what, sizeof(what), "%s pattern %d through %s (%s)",
			 st->write ? "write and read back" : "read", st->pattern,
			 st->driver, or_dash(st->disk));
		if (st->ok)
			fprintf(f, "  %-57s ok, %.1f s\n", what, st->seconds);
		else
			fprintf(f, "  %-57s FAILED: %s\n", what, st->error);
	}
	if (!q->nspeed)
		return;
	fprintf(f, "4 KiB random reads of the range, QD32, %d s under each (a glance;\n"
		"'ssdtune bench' measures):\n", QUAL_SPEED_S);
	for (i = 0; i < q->nspeed; i++)
		if (q->speed[i].error[0])
			fprintf(f, "  %-8s FAILED: %s\n", q->speed[i].driver, q->speed[i].error);
		else
			fprintf(f, "  %-8s %.0f IOPS, p99 %.0f us\n", q->speed[i].driver,
				q->speed[i].iops, q->speed[i].p99_us);
}

static struct json_object *step_json(const struct qual_io_step *st)
{
	struct json_object *o = json_object_new_object();
	char secs[32];

	json_object_object_add(o, "action", out_jstr(st->write ? "write" : "read"));
	json_object_object_add(o, "pattern", jnum(st->pattern));
	json_object_object_add(o, "driver", out_jstr(st->driver));
	json_object_object_add(o, "disk", out_jstr(st->disk));
	json_object_object_add(o, "ran", json_object_new_boolean(st->ran));
	json_object_object_add(o, "ok", json_object_new_boolean(st->ok));
	snprintf(secs, sizeof(secs), "%.3f", st->seconds);
	json_object_object_add(o, "seconds", st->ran ? json_object_new_double_s(st->seconds, secs) : NULL);
	json_object_object_add(o, "error", out_jstr(st->error));
	json_object_object_add(o, "command", out_jstr(st->command));
	return o;
}

static struct json_object *speed_json(const struct qual_speed *sp)
{
	struct json_object *o = json_object_new_object();
	bool ok = !sp->error[0];

	json_object_object_add(o, "driver", out_jstr(sp->driver));
	json_object_object_add(o, "disk", out_jstr(sp->disk));
	json_object_object_add(o, "seconds", jnum(QUAL_SPEED_S));
	json_object_object_add(o, "iops", ok ? json_object_new_int64((long long)(sp->iops + 0.5)) : NULL);
	json_object_object_add(o, "clat_p99_us", ok ? json_object_new_int64((long long)(sp->p99_us + 0.5)) : NULL);
	json_object_object_add(o, "error", out_jstr(sp->error));
	return o;
}

static struct json_object *write_test_json(const struct qual_run *q)
{
	struct json_object *j, *steps, *speed;
	int i;

	if (!q->write_test)
		return NULL;
	j = json_object_new_object();
	steps = json_object_new_array();
	speed = json_object_new_array();
	json_object_object_add(j, "namespace", jnum(q->range.nsid));
	json_object_object_add(j, "offset_bytes", jnum((long long)q->range.off));
	json_object_object_add(j, "length_bytes", jnum((long long)q->range.len));
	json_object_object_add(j, "passed", json_object_new_boolean(!q->write_failed));
	for (i = 0; i < q->nsteps; i++)
		json_object_array_add(steps, step_json(&q->step[i]));
	json_object_object_add(j, "steps", steps);
	for (i = 0; i < q->nspeed; i++)
		json_object_array_add(speed, speed_json(&q->speed[i]));
	json_object_object_add(j, "speed", speed);
	return j;
}

/* The report of @q to @f (stdout or --output's file); the exit status. */
static int qualify_report(FILE *f, const struct qual_run *q)
{
	struct json_object *j = report_obj();
	int r;

	report_set_str("status", "qualified");
	report_set_str("pci_address", q->bdf);
	/* the moves' own fields said where each move started: the run's
	 * start is what counts, and the views have the disks */
	report_set_str("previous_driver", started_on(q));
	json_object_object_del(j, "block_devices");
	report_set_str("back_on", started_on(q));
	json_object_object_add(j, "differences",
			       lines_json(q->diff, q->ndiff < QUAL_MAX_DIFFS ? q->ndiff : QUAL_MAX_DIFFS));
	json_object_object_add(j, "nvme", view_json(&q->nvme));
	json_object_object_add(j, "ssdtune", view_json(&q->ssdt));
	json_object_object_add(j, "log", lines_json(q->log, q->nlog));
	json_object_object_add(j, "write_test", write_test_json(q));
	if (out_json() && f != stdout) {
		fprintf(f, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY));
	} else if (!out_json()) {
		print_text(f, q);
		if (q->write_test)
			print_write_test(f, q);
	}
	if (f != stdout) {
		if (fclose(f))
			return out_fail(EXIT_REFUSED, "writing %s failed", output_file);
		if (!out_json())
			printf("report written to %s\n", output_file);
	}
	r = out_done();
	if (q->write_failed) {
		fprintf(stderr, "ssdtune: qualify %s: the write test failed: %s\n",
			q->bdf, qual_write_error(q));
		r = EXIT_REFUSED;
	}
	return r;
}

static int cmd_qualify(const struct command *cmd, struct cli *cli)
{
	static struct qual_run q;
	struct bind_dev d;
	struct lib_err err;
	int r, fd;
	FILE *f = stdout;

	if (wt.on && !wt.destroy)
		return usage_error(cmd, "--write-test overwrites the --range it is given: add --destroy-data");
	if (wt.on && !wt.range_set)
		return usage_error(cmd, "--write-test needs --range OFFSET:LENGTH, a scratch range of the namespace");
	if (!wt.on && (wt.range_set || wt.nsid_set || wt.destroy))
		return usage_error(cmd, "--range, --namespace and --destroy-data go with --write-test");
	r = bind_attach_begin(cli->argv[0], &d, &err);
	if (r == -EINVAL)
		return usage_error(cmd, "%s", err.msg);
	if (r < 0)
		return out_fail_err(&err);
	q.was_ssdt = r > 0;
	/* a mounted or open namespace: refused before any wait */
	if (!q.was_ssdt && bind_check_idle("attach", &d, &err))
		return out_fail_err(&err);
	if (wt.on && qual_io_ready(&err))
		return out_fail_err(&err);
	if (output_file && !(f = fopen(output_file, "w")))
		return out_fail(EXIT_REFUSED, "cannot write %s: %s", output_file,
				strerror(errno));
	snprintf(q.bdf, sizeof(q.bdf), "%s", d.pd.name);
	q.write_test = wt.on;
	q.range = wt.r;
	q.glance = bench_quick_read;
	/* apply and revert find controllers by identity: not mid-rebind */
	fd = state_lock(tuning_state_dir(), &err);
	r = fd < 0 ? fd : qual_run(&q, &err);
	state_unlock(fd);
	if (r) {
		if (f != stdout)
			fclose(f);
		return out_fail_err(&err);
	}
	return qualify_report(f, &q);
}

/* above tuning.c's options: --state-dir is theirs (0x201) */
enum { OPT_OUTPUT = 0x2ff, OPT_WRITE_TEST = 0x2fe, OPT_DESTROY = 0x2fd,
       OPT_RANGE = 0x2fc, OPT_NSID = 0x2fb };

static const struct option qualify_options[] = {
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "write-test", no_argument, NULL, OPT_WRITE_TEST },
	{ "destroy-data", no_argument, NULL, OPT_DESTROY },
	{ "yes-destroy-data", no_argument, NULL, OPT_DESTROY },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "namespace", required_argument, NULL, OPT_NSID },
	{ "state-dir", required_argument, NULL, 0x201 },	/* OPT_STATE_DIR */
	{ NULL, 0, NULL, 0 },
};

extern const struct command qualify_command;

static int qualify_option(struct cli *cli, int val, const char *arg)
{
	const char *p = arg;

	switch (val) {
	case OPT_OUTPUT:
		output_file = arg;
		return 0;
	case OPT_WRITE_TEST:
		wt.on = true;
		return 0;
	case OPT_DESTROY:
		wt.destroy = true;
		return 0;
	case OPT_RANGE:
		if (parse_byte_range(arg, &wt.r.off, &wt.r.len))
			return usage_error(&qualify_command, "--range '%s': OFFSET:LENGTH in bytes, k, m, g or t (1g:64m)", arg);
		wt.range_set = true;
		return 0;
	case OPT_NSID:
		if (parse_dec(&p, &wt.r.nsid) || *p || !wt.r.nsid || wt.r.nsid == 0xffffffffu)
			return usage_error(&qualify_command, "--namespace '%s': a namespace id from 1", arg);
		wt.nsid_set = true;
		return 0;
	}
	return tuning_option(cli, val, arg);
}

const struct command qualify_command = {
	.name = "qualify",
	.args = "CTRL",
	.summary = "what ssdtune does differently from nvme on this drive",
	.help =
"Read the controller CTRL (its PCI address, nvmeN, ssdtN or a namespace)\n"
"under nvme, attach it to ssdtune and read it again, then put it back on\n"
"the driver it came from.  Refuses, changing nothing, while one of its\n"
"namespaces is mounted, swap, held or open (as attach).  Reads only, no\n"
"knob, unless --write-test.  Prints a verdict (the differences that\n"
"matter: namespaces served or not, queue limits, write cache and FUA,\n"
"Host Memory Buffer, APST), then both side by side: identity, NVMe\n"
"version, quirks, HMB, APST table, vectors and how many are steerable,\n"
"temperature thresholds, power states, each namespace's limits, and\n"
"ssdtune's log lines at attach (a namespace it refused says why there).\n"
"With --write-test --destroy-data --range OFFSET:LENGTH, DESTROYS the\n"
"data in that range of the namespace (--namespace N, default the first):\n"
"fio writes a pattern there through the driver the controller is on and\n"
"reads it back through the other, then writes a second pattern through\n"
"the other and reads it back through the first (fio\n"
"verify=pattern: every byte compared); after each driver's first step,\n"
"3 s of 4 KiB random reads of the range show IOPS and p99 side by side.\n"
"Exit status: 0 when both reads (and the write test) completed,\n"
"differences or not; 1 when something failed.\n"
"  --output FILE    write the report (text, or JSON with --json) to FILE\n"
"  --write-test     also test data across the drivers (needs the next two)\n"
"  --destroy-data   allow --write-test to overwrite the range\n"
"  --range OFF:LEN  the scratch range in bytes (k, m, g, t: 1g:64m),\n"
"                   aligned to the namespace's logical block size\n"
"  --namespace N    the namespace of the range (default: the first)\n"
"  --state-dir DIR  the state directory (default " "/var/lib/ssdtune" ")\n",
	.min_args = 1, .max_args = 1,
	.run = cmd_qualify,
	.options = qualify_options, .option = qualify_option,
};
