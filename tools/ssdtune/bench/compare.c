// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench compare A.json B.json: the vendors' delta table (setting,
 * metric, A, B, delta %) from the median, min and max of each cell's
 * rounds, with bench_stats.c's rule: a difference inside the runs' spread
 * is "within noise", not a gain.  Host settings that differ are listed
 * first, since they are usually why the figures differ.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <errno.h>

#include "bench/engine.h"
#include "bench/stats.h"

/* What compare shows of a cell (the rest stays in the JSON reports). */
static const char *const shown[] = {
	"iops", "mbps", "clat_mean_us", "clat_p99_us", "clat_p99_99_us",
	"cpu_us_per_io", "irq_per_io",
};

/* A qos cell: the reader's figures, and what the writer achieved. */
static const char *const shown_qos[] = {
	"read_iops", "read_clat_p50_us", "read_clat_p99_us", "read_clat_p99_9_us",
	"read_clat_p99_99_us", "write_mbps",
};
#define NSHOWN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const host_keys[] = {
	"kernel", "driver", "scheduler", "cpufreq_driver", "governor", "epp",
	"turbo", "cpuidle_driver",
};

static const struct bench_metric *metric(const char *key)
{
	int i;

	for (i = 0; i < bench_nmetrics; i++)
		if (!strcmp(bench_metrics[i].key, key))
			return &bench_metrics[i];
	return NULL;
}

static int load(const char *path, struct json_object **rep,
		struct lib_err *err)
{
	*rep = json_object_from_file(path);
	if (!*rep)
		return lib_errf(err, EIO, "cannot read %s as JSON", path);
	if (!bench_jget(*rep, "cells") || !bench_jget(*rep, "method"))
		return lib_errf(err, EINVAL, "%s is not an ssdtune bench report (no \"cells\")",
				path);
	return 0;
}

static void stat_of(struct json_object *cell, const char *key, struct stat3 *s)
{
	struct json_object *m = bench_jget(bench_jget(cell, "summary"), key);

	s->median = bench_jnum(m, "median");
	s->min = bench_jnum(m, "min");
	s->max = bench_jnum(m, "max");
	s->n = isnan(s->median) ? 0 : (int)bench_jnum(m, "n");
}

static struct json_object *stat_json(const struct stat3 *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "median", bench_jdouble(s->median));
	json_object_object_add(o, "min", bench_jdouble(s->min));
	json_object_object_add(o, "max", bench_jdouble(s->max));
	json_object_object_add(o, "n", json_object_new_int(s->n));
	return o;
}

static const char *str_or(struct json_object *o, const char *key)
{
	const char *s = bench_jstr(o, key);

	return s ? s : "-";
}

/* A setting's row into @out when A's @x and B's @y differ. */
static void setting_row(struct json_object *out, const char *setting,
			const char *x, const char *y)
{
	struct json_object *row;

	if (!strcmp(x, y))
		return;
	row = json_object_new_object();
	json_object_object_add(row, "setting", json_object_new_string(setting));
	json_object_object_add(row, "a", json_object_new_string(x));
	json_object_object_add(row, "b", json_object_new_string(y));
	json_object_array_add(out, row);
}

/* --suite qos: the bandwidth the writer's levels are shares of (each run
 * measures its own), and where the reader and the writer ran. */
static void qos_settings(struct json_object *a, struct json_object *b,
			 struct json_object *out)
{
	static const char *const keys[] = { "writer", "reader_cpus", "writer_cpus" };
	struct json_object *qa = bench_jget(a, "qos"), *qb = bench_jget(b, "qos");
	char x[32], y[32];
	size_t i;

	if (!qa || !qb)
		return;
	snprintf(x, sizeof(x), "%.1f", bench_jnum(qa, "bandwidth_mbps"));
	snprintf(y, sizeof(y), "%.1f", bench_jnum(qb, "bandwidth_mbps"));
	setting_row(out, "qos bandwidth MB/s", x, y);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(x, sizeof(x), "qos %s", keys[i]);
		setting_row(out, x, str_or(qa, keys[i]), str_or(qb, keys[i]));
	}
}

static void settings(struct json_object *a, struct json_object *b,
		     struct json_object *out)
{
	struct json_object *ha = bench_jget(a, "host"), *hb = bench_jget(b, "host");
	struct json_object *sa = NULL, *sb = NULL;
	size_t i;

	for (i = 0; i < sizeof(host_keys) / sizeof(host_keys[0]); i++)
		setting_row(out, host_keys[i], str_or(ha, host_keys[i]),
			    str_or(hb, host_keys[i]));
	qos_settings(a, b, out);
	/* the ssdtune knobs of the first cell of each */
	json_object_object_foreach(bench_jget(a, "cells"), ia, ca) {
		(void)ia;
		sa = bench_jget(ca, "ssdtune");
		break;
	}
	json_object_object_foreach(bench_jget(b, "cells"), ib, cb) {
		(void)ib;
		sb = bench_jget(cb, "ssdtune");
		break;
	}
	if (!sa || !sb)
		return;
	json_object_object_foreach(sa, key, va)
		setting_row(out, key, va ? json_object_get_string(va) : "-",
			    str_or(sb, key));
}

static void fmt_stat(const struct stat3 *s, char *buf, size_t len)
{
	if (!s->n)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.5g [%.5g..%.5g]", s->median, s->min, s->max);
}

void bench_print_compare(struct json_object *out, FILE *f)
{
	struct json_object *rows = bench_jget(out, "rows"), *set = bench_jget(out, "settings");
	size_t i;

	fprintf(f, "A: %s\nB: %s\n", str_or(out, "a"), str_or(out, "b"));
	for (i = 0; i < json_object_array_length(set); i++) {
		struct json_object *r = json_object_array_get_idx(set, i);

		fprintf(f, "%s %s: A %s, B %s\n", i ? "  " : "settings that differ:\n ",
			str_or(r, "setting"), str_or(r, "a"), str_or(r, "b"));
	}
	fprintf(f, "%-28s %-12s %-28s %-28s %8s  %s\n", "setting", "metric",
		"A median [min..max]", "B median [min..max]", "delta %", "verdict");
	for (i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		const struct bench_metric *m = metric(str_or(r, "metric"));
		struct stat3 sa, sb;
		char x[64], y[64], d[16];
		double delta = bench_jnum(r, "delta_pct");

		sa = (struct stat3){ bench_jnum(bench_jget(r, "a"), "median"),
				     bench_jnum(bench_jget(r, "a"), "min"),
				     bench_jnum(bench_jget(r, "a"), "max"),
				     (int)bench_jnum(bench_jget(r, "a"), "n") };
		sb = (struct stat3){ bench_jnum(bench_jget(r, "b"), "median"),
				     bench_jnum(bench_jget(r, "b"), "min"),
				     bench_jnum(bench_jget(r, "b"), "max"),
				     (int)bench_jnum(bench_jget(r, "b"), "n") };
		fmt_stat(&sa, x, sizeof(x));
		fmt_stat(&sb, y, sizeof(y));
		if (isnan(delta))
			snprintf(d, sizeof(d), "-");
		else
			snprintf(d, sizeof(d), "%+.1f%%", delta);
		fprintf(f, "%-28s %-12s %-28s %-28s %8s  %s\n", str_or(r, "setting"),
			m ? m->head : str_or(r, "metric"), x, y, d,
			str_or(r, "verdict"));
	}
}

int bench_compare_files(const char *pa, const char *pb,
			struct json_object *out, struct lib_err *err)
{
	struct json_object *a = NULL, *b = NULL, *rows, *set, *cb;
	int rc, common = 0;
	size_t k;

	rc = load(pa, &a, err);
	if (!rc)
		rc = load(pb, &b, err);
	if (rc)
		goto out;
	rows = json_object_new_array();
	set = json_object_new_array();
	json_object_object_add(out, "a", json_object_new_string(pa));
	json_object_object_add(out, "b", json_object_new_string(pb));
	json_object_object_add(out, "settings", set);
	json_object_object_add(out, "rows", rows);
	settings(a, b, set);
	json_object_object_foreach(bench_jget(a, "cells"), id, ca) {
		if (!json_object_object_get_ex(bench_jget(b, "cells"), id, &cb))
			continue;
		bool qos = bench_jget(ca, "qos") != NULL;
		const char *const *keys = qos ? shown_qos : shown;

		common++;
		for (k = 0; k < (qos ? NSHOWN(shown_qos) : NSHOWN(shown)); k++) {
			const struct bench_metric *m = metric(keys[k]);
			struct json_object *row;
			struct stat3 sa, sb;
			struct cmp_result r;

			stat_of(ca, m->key, &sa);
			stat_of(cb, m->key, &sb);
			if (!sa.n && !sb.n)
				continue;
			cmp_metric(&sa, &sb, m->higher_is_better, &r);
			row = json_object_new_object();
			json_object_object_add(row, "setting", json_object_new_string(
				str_or(ca, "label")));
			json_object_object_add(row, "cell", json_object_new_string(id));
			json_object_object_add(row, "metric", json_object_new_string(m->key));
			json_object_object_add(row, "a", stat_json(&sa));
			json_object_object_add(row, "b", stat_json(&sb));
			json_object_object_add(row, "delta_pct", bench_jdouble(r.delta_pct));
			json_object_object_add(row, "verdict", json_object_new_string(
				cmp_verdict_name(r.verdict)));
			json_object_array_add(rows, row);
		}
	}
	if (!common)
		rc = lib_errf(err, ENODATA, "%s and %s have no cell in common",
			      pa, pb);
out:
	json_object_put(a);
	json_object_put(b);
	return rc;
}
