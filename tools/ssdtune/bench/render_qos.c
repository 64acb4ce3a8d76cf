// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench --suite qos: its report's curve (the reader's latency
 * against the writer's rate, "qos" of bench.json) as the table of
 * bench.txt, as qos.csv (a row per round) and as qos-latency.png.  Reads
 * the JSON report only, as render.c does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/engine.h"

/* The reader's percentiles of the curve: key, column head, the PNG's line. */
static const struct {
	const char *key, *head, *line;
} qos_pcts[] = {
	{ "read_clat_p50_us",	 "p50 us",	"p50" },
	{ "read_clat_p99_us",	 "p99 us",	"p99" },
	{ "read_clat_p99_9_us",	 "p99.9 us",	"p99.9" },
	{ "read_clat_p99_99_us", "p99.99 us",	"p99.99" },
};
#define NQOS_PCTS (sizeof(qos_pcts) / sizeof(qos_pcts[0]))

bool bench_qos_table(struct json_object *rep, FILE *f)
{
	struct json_object *q = bench_jget(rep, "qos"), *curve = bench_jget(q, "curve");
	bool trim = json_object_get_boolean(bench_jget(q, "trim")), marked = false;
	const char *src = bench_jstr(q, "bandwidth_source");
	size_t i, k;

	fprintf(f, "qos: 4k random reads QD1 on CPU %s (%s) beside %s writes QD%d%s on CPUs %s (%s)\n",
		bench_jstr(q, "reader_cpus") ?: "?", bench_jstr(q, "cpus_from") ?: "?",
		bench_jstr(q, "writer") ?: "?", QOS_WRITER_DEPTH, trim ? " and trims" : "",
		bench_jstr(q, "writer_cpus") ?: "?", bench_jstr(q, "writer_cpus_from") ?: "?");
	fprintf(f, "writer rates in %% of %.1f MB/s (%s); medians over the summary rounds; latency: the reader's completion latency, us\n",
		bench_jnum(q, "bandwidth_mbps"),
		src && !strcmp(src, "option") ? "--qos-bw" : "its bandwidth alone, measured first");
	fprintf(f, "%-24s %8s %11s %10s", "cell", "writer %", "target MB/s", "write MB/s");
	if (trim)
		fprintf(f, " %10s", "trim MB/s");
	fprintf(f, " %10s", "read IOPS");
	for (k = 0; k < NQOS_PCTS; k++)
		fprintf(f, " %10s", qos_pcts[k].head);
	fprintf(f, "  steady state\n");
	for (i = 0; curve && i < json_object_array_length(curve); i++) {
		struct json_object *row = json_object_array_get_idx(curve, i);
		const char *id = bench_jstr(row, "cell");
		struct json_object *cell = bench_jget(bench_jget(rep, "cells"), id ?: "");
		const char *ss = bench_jstr(bench_jget(cell, "steady_state"), "status");

		fprintf(f, "%-24s %8.0f", id ?: "?", bench_jnum(row, "level_pct"));
		fprintf(f, " %11.1f", bench_jnum(row, "writer_target_mbps"));
		bench_col_num(f, "%.1f", bench_jnum(row, "write_mbps"));
		if (trim)
			bench_col_num(f, "%.1f", bench_jnum(row, "trim_mbps"));
		bench_col_num(f, "%.0f", bench_jnum(row, "read_iops"));
		for (k = 0; k < NQOS_PCTS; k++)
			marked |= bench_marked_num(f, bench_jnum(row, qos_pcts[k].key),
						   bench_jget(bench_jget(row, "meaningful"),
							      qos_pcts[k].key));
		fprintf(f, "  %s%s (%d rounds)\n", ss ? ss : "?",
			json_object_get_boolean(bench_jget(cell, "suspect")) ? ", SUSPECT" : "",
			(int)json_object_array_length(bench_jget(cell, "rounds")));
	}
	return marked;
}

int bench_qos_csv(struct json_object *rep, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t k;
	int bad;

	if (!f)
		return -errno;
	fprintf(f, "cell,level_pct,writer,trim,round,writer_target_mbps,write_mbps,trim_mbps,read_iops");
	for (k = 0; k < NQOS_PCTS; k++)
		fprintf(f, ",%s", qos_pcts[k].key);
	fprintf(f, ",read_meaningful_pct,suspect\n");
	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *q = bench_jget(cell, "qos"), *rounds = bench_jget(cell, "rounds");
		size_t i;

		for (i = 0; q && rounds && i < json_object_array_length(rounds); i++) {
			struct json_object *r = json_object_array_get_idx(rounds, i);

			fprintf(f, "%s,%.0f,%s,%s,%.0f,", id, bench_jnum(q, "level_pct"),
				bench_jstr(q, "writer") ?: "",
				json_object_get_boolean(bench_jget(q, "trim")) ? "yes" : "no",
				bench_jnum(r, "round"));
			bench_put_num(f, bench_jnum(q, "writer_target_mbps"), ",");
			bench_put_num(f, bench_jnum(r, "write_mbps"), ",");
			bench_put_num(f, bench_jnum(r, "trim_mbps"), ",");
			bench_put_num(f, bench_jnum(r, "read_iops"), "");
			for (k = 0; k < NQOS_PCTS; k++) {
				fputc(',', f);
				bench_put_num(f, bench_jnum(r, qos_pcts[k].key), "");
			}
			bench_put_meaningful(f, r, "read_");
			fprintf(f, ",%s\n", json_object_get_boolean(bench_jget(r, "suspect")) ?
				"yes" : "no");
		}
	}
	bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? -EIO : 0;
}

/* Whether percentile @key means something at every rate of @curve. */
static bool all_meaningful(struct json_object *curve, const char *key)
{
	size_t i;

	for (i = 0; i < json_object_array_length(curve); i++)
		if (!json_object_get_boolean(bench_jget(bench_jget(
			json_object_array_get_idx(curve, i), "meaningful"), key)))
			return false;
	return true;
}

int bench_qos_plot(struct json_object *rep, const char *dir, FILE *gp,
		   struct json_object *files)
{
	struct json_object *q = bench_jget(rep, "qos"), *curve = bench_jget(q, "curve");
	char path[PATH_MAX + 32];
	bool few = false;
	size_t i, k;
	FILE *f;

	if (!curve || !json_object_array_length(curve))
		return 0;
	snprintf(path, sizeof(path), "%s/qos-curve.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	/* x: the writer's achieved MB/s; then the reader's percentiles */
	for (i = 0; i < json_object_array_length(curve); i++) {
		struct json_object *row = json_object_array_get_idx(curve, i);

		fprintf(f, "%g", bench_jnum(row, "write_mbps"));
		for (k = 0; k < NQOS_PCTS; k++)
			fprintf(f, " %g", bench_jnum(row, qos_pcts[k].key));
		fputc('\n', f);
	}
	if (fclose(f))
		return -EIO;
	for (k = 0; k < NQOS_PCTS; k++)
		few |= !all_meaningful(curve, qos_pcts[k].key);
	fprintf(gp, "set output 'qos-latency.png'\n"
		"set title \"reads (4k random, QD1) while %s writes run%s\"\n"
		"set xlabel 'writer MB/s (achieved; at 0, 25, 50, 100%% of %.1f MB/s)'\n"
		"set ylabel 'read completion latency, us (median of the rounds)'\n"
		"set key inside bottom right\nset logscale y\nplot ",
		bench_jstr(q, "writer") ?: "?",
		few ? "\\n* too few samples per round at some rates: 10/(1-p) wanted" : "",
		bench_jnum(q, "bandwidth_mbps"));
	for (k = 0; k < NQOS_PCTS; k++)
		fprintf(gp, "%s'qos-curve.dat' using 1:%zu with linespoints title '%s%s'",
			k ? ", " : "", k + 2, qos_pcts[k].line,
			all_meaningful(curve, qos_pcts[k].key) ? "" : "*");
	fprintf(gp, "\nunset logscale y\nunset title\nset key outside\n");
	json_object_array_add(files, json_object_new_string("qos-latency.png"));
	return 0;
}
