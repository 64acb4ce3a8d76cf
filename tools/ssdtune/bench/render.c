// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: a report (bench.json) as CSV, as a readable table, and as
 * gnuplot PNGs, and the files of a run written from it.  Everything here
 * reads the JSON report only, so a report copied from another host renders
 * the same.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/stats.h"

const struct bench_metric bench_metrics[] = {
	{ "iops",		"IOPS",		true,	0 },
	{ "mbps",		"MB/s",		true,	0 },
	{ "clat_mean_us",	"clat mean us",	false,	0 },
	{ "clat_p50_us",	"p50 us",	false,	50 },
	{ "clat_p99_us",	"p99 us",	false,	99 },
	{ "clat_p99_9_us",	"p99.9 us",	false,	99.9 },
	{ "clat_p99_99_us",	"p99.99 us",	false,	99.99 },
	{ "cpu_pct",		"CPU %",	false,	0 },
	{ "cpu_us_per_io",	"CPU us/IO",	false,	0 },
	{ "irq_per_io",		"IRQ/IO",	false,	0 },
	/* the CSV's columns after steady_state: added since */
	{ "clat_p99_9999_us",	"p99.9999 us",	false,	99.9999 },
	{ "read_iops",		"read IOPS",	true,	0 },
	{ "read_mbps",		"read MB/s",	true,	0 },
	{ "read_clat_mean_us",	"read mean us",	false,	0 },
	{ "read_clat_p50_us",	"read p50 us",	false,	50 },
	{ "read_clat_p99_us",	"read p99 us",	false,	99 },
	{ "read_clat_p99_9_us",	"read p99.9 us", false,	99.9 },
	{ "read_clat_p99_99_us", "read p99.99 us", false, 99.99 },
	{ "read_clat_p99_9999_us", "read p99.9999 us", false, 99.9999 },
	{ "write_iops",		"write IOPS",	true,	0 },
	{ "write_mbps",		"write MB/s",	true,	0 },
	{ "write_clat_mean_us",	"write mean us", false,	0 },
	{ "write_clat_p50_us",	"write p50 us",	false,	50 },
	{ "write_clat_p99_us",	"write p99 us",	false,	99 },
	{ "write_clat_p99_9_us", "write p99.9 us", false, 99.9 },
	{ "write_clat_p99_99_us", "write p99.99 us", false, 99.99 },
	{ "write_clat_p99_9999_us", "write p99.9999 us", false, 99.9999 },
	/* the CSV's last columns: added since */
	{ "clat_max_us",	"max us",	false,	0 },
	{ "read_clat_max_us",	"read max us",	false,	0 },
	{ "write_clat_max_us",	"write max us",	false,	0 },
};
const int bench_nmetrics = sizeof(bench_metrics) / sizeof(bench_metrics[0]);
const int bench_nmetrics_base = 10;
const int bench_nmetrics_tail = 27;

void bench_put_num(FILE *f, double v, const char *sep)
{
	if (isnan(v))
		fprintf(f, "%s", sep);
	else
		fprintf(f, "%.6g%s", v, sep);
}

/* ",99.9": the highest percentile of PREFIX that round @r holds enough
 * samples for (",": none). */
void bench_put_meaningful(FILE *f, struct json_object *r, const char *prefix)
{
	struct json_object *m = bench_jget(r, "meaningful");
	char key[64];
	int i;

	fputc(',', f);
	for (i = FIO_NPCT - 1; i >= 0; i--) {
		snprintf(key, sizeof(key), "%sclat_%s_us", prefix, fio_pct_names[i]);
		if (json_object_get_boolean(bench_jget(m, key))) {
			fprintf(f, "%g", fio_pcts[i]);
			return;
		}
	}
}

/* ",V" for metrics [@from, @to) of round @r. */
static void put_metrics(FILE *f, struct json_object *r, int from, int to)
{
	int k;

	for (k = from; k < to; k++) {
		fputc(',', f);
		bench_put_num(f, bench_jnum(r, bench_metrics[k].key), "");
	}
}

static int write_csv(struct json_object *rep, const char *path)
{
	FILE *f = fopen(path, "w");
	int k, bad;

	if (!f)
		return -errno;
	fprintf(f, "cell,rw,read_pct,pattern,io_size,bs,threads,depth,round");
	for (k = 0; k < bench_nmetrics_base; k++)
		fprintf(f, ",%s", bench_metrics[k].key);
	fprintf(f, ",temperature_c,power_estimate_mw,throttle_events,suspect,steady_state");
	for (k = bench_nmetrics_base; k < bench_nmetrics_tail; k++)
		fprintf(f, ",%s", bench_metrics[k].key);
	fprintf(f, ",read_ios,write_ios,meaningful_pct,read_meaningful_pct,write_meaningful_pct");
	for (k = bench_nmetrics_tail; k < bench_nmetrics; k++)
		fprintf(f, ",%s", bench_metrics[k].key);
	fputc('\n', f);
	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *rounds = bench_jget(cell, "rounds");
		const char *ss = bench_jstr(bench_jget(cell, "steady_state"), "status");
		size_t i;

		for (i = 0; rounds && i < json_object_array_length(rounds); i++) {
			struct json_object *r = json_object_array_get_idx(rounds, i);

			fprintf(f, "%s,%s,%d,%s,%s,%.0f,%.0f,%.0f,%.0f", id,
				bench_jstr(cell, "rw"),
				(int)bench_jnum(cell, "read_pct"),
				bench_jstr(cell, "pattern"),
				bench_jstr(cell, "io_size"),
				bench_jnum(cell, "bs"), bench_jnum(cell, "threads"),
				bench_jnum(cell, "depth"), bench_jnum(r, "round"));
			put_metrics(f, r, 0, bench_nmetrics_base);
			fputc(',', f);
			bench_put_num(f, bench_jnum(r, "temperature_c"), ",");
			bench_put_num(f, bench_jnum(r, "power_estimate_mw"), ",");
			bench_put_num(f, bench_jnum(r, "throttle_events"), ",");
			fprintf(f, "%s,%s", json_object_get_boolean(bench_jget(r, "suspect")) ?
				"yes" : "no", ss ? ss : "");
			put_metrics(f, r, bench_nmetrics_base, bench_nmetrics_tail);
			fputc(',', f);
			bench_put_num(f, bench_jnum(r, "read_ios"), ",");
			bench_put_num(f, bench_jnum(r, "write_ios"), "");
			bench_put_meaningful(f, r, "");
			bench_put_meaningful(f, r, "read_");
			bench_put_meaningful(f, r, "write_");
			put_metrics(f, r, bench_nmetrics_tail, bench_nmetrics);
			fputc('\n', f);
		}
	}
	bad = ferror(f);
	bad |= fclose(f) != 0;
	return bad ? -EIO : 0;
}

static double med(struct json_object *cell, const char *key)
{
	return bench_jnum(bench_jget(bench_jget(cell, "summary"), key), "median");
}

void bench_col_num(FILE *f, const char *fmt, double v)
{
	char buf[32];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), fmt, v);
	fprintf(f, " %10s", buf);
}

bool bench_marked_num(FILE *f, double v, struct json_object *ok)
{
	bool mark = ok && !json_object_get_boolean(ok) && !isnan(v);

	bench_col_num(f, mark ? "%.1f*" : "%.1f", v);
	return mark;
}

/* A percentile's median, marked '*' when its rounds hold too few
 * samples for it (reports before the mark have none); true if marked. */
static bool pct_num(FILE *f, struct json_object *cell, const char *key)
{
	struct json_object *m = bench_jget(bench_jget(cell, "summary"), key);

	return bench_marked_num(f, bench_jnum(m, "median"), bench_jget(m, "meaningful"));
}

/* IOPS .. p99.9999 of direction @prefix ("", "read_", "write_"). */
static bool dir_nums(FILE *f, struct json_object *cell, const char *prefix)
{
	char key[64];
	bool marked = false;
	int i;

	snprintf(key, sizeof(key), "%siops", prefix);
	bench_col_num(f, "%.0f", med(cell, key));
	snprintf(key, sizeof(key), "%smbps", prefix);
	bench_col_num(f, "%.1f", med(cell, key));
	fprintf(f, " %7s", bench_jstr(cell, "io_size"));
	snprintf(key, sizeof(key), "%sclat_mean_us", prefix);
	bench_col_num(f, "%.1f", med(cell, key));
	for (i = 0; i < FIO_NPCT; i++) {
		snprintf(key, sizeof(key), "%sclat_%s_us", prefix, fio_pct_names[i]);
		marked |= pct_num(f, cell, key);
	}
	return marked;
}

/* Several devices: each one's row under the cell's (its figures while
 * all ran), then, with --scale, the scaling table. */
static bool device_rows(FILE *f, struct json_object *cell)
{
	bool marked = false;

	if (!bench_jget(cell, "devices"))
		return false;
	json_object_object_foreach(bench_jget(cell, "devices"), name, ds) {
		struct json_object *c = json_object_new_object();
		char label[64];

		/* dir_nums() reads a "summary" */
		json_object_object_add(c, "summary", json_object_get(ds));
		json_object_object_add(c, "io_size", json_object_get(bench_jget(cell, "io_size")));
		snprintf(label, sizeof(label), "  %s", name);
		fprintf(f, "%-24s", label);
		marked |= dir_nums(f, c, "");
		fprintf(f, " %10s", "-");
		bench_col_num(f, "%.3f", med(c, "irq_per_io"));
		bench_col_num(f, "%.1f", med(c, "fio_cpu_us_per_io"));
		fprintf(f, " fio CPU us/IO\n");
		json_object_put(c);
	}
	return marked;
}

static void scaling_rows(FILE *f, struct json_object *rep)
{
	bool head = false;

	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *sc = bench_jget(cell, "scaling");
		size_t i;

		if (!sc || json_object_array_length(sc) < 2)
			continue;
		if (!head)
			fprintf(f, "scaling: k devices at once; normalized = aggregate / (k x the first device alone)\n"
				"%-24s %7s %10s %10s %10s %10s %10s\n", "cell", "devices",
				"IOPS", "MB/s", "p99 us", "IOPS norm", "MB/s norm");
		head = true;
		for (i = 0; i < json_object_array_length(sc); i++) {
			struct json_object *st = json_object_array_get_idx(sc, i);

			fprintf(f, "%-24s %7d", i ? "" : id, (int)bench_jnum(st, "devices"));
			bench_col_num(f, "%.0f", med(st, "iops"));
			bench_col_num(f, "%.1f", med(st, "mbps"));
			bench_col_num(f, "%.1f", med(st, "clat_p99_us"));
			bench_col_num(f, "%.2f", bench_jnum(st, "normalized_iops"));
			bench_col_num(f, "%.2f", bench_jnum(st, "normalized_mbps"));
			fputc('\n', f);
		}
	}
}

/* The tail figures of pts-latency's report: a cell's summary as
 * (report key, summary key, percentile or 0, how it is taken). */
static const struct {
	const char *key, *from;
	double pct;
	bool max;	/* the largest of the summary rounds, not the median */
} pts_lat[] = {
	{ "mean_us",	"clat_mean_us",		0,	false },
	{ "max_us",	"clat_max_us",		0,	true },
	{ "p99_us",	"clat_p99_us",		99,	false },
	{ "p99_9_us",	"clat_p99_9_us",	99.9,	false },
	{ "p99_99_us",	"clat_p99_99_us",	99.99,	false },
};
#define NPTS_LAT (sizeof(pts_lat) / sizeof(pts_lat[0]))

/* pts-latency: SNIA PTS's latency report (mean and maximum completion
 * latency per block size and mix) with the tail percentiles beside them,
 * as @rep's "pts_latency". */
static void pts_latency_json(struct json_object *rep)
{
	struct json_object *a = json_object_new_array();

	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *row = json_object_new_object();
		struct json_object *m = json_object_new_object();
		size_t i;

		json_object_object_add(row, "cell", json_object_new_string(id));
		json_object_object_add(row, "label", json_object_get(bench_jget(cell, "label")));
		json_object_object_add(row, "io_size", json_object_get(bench_jget(cell, "io_size")));
		json_object_object_add(row, "read_pct", json_object_get(bench_jget(cell, "read_pct")));
		for (i = 0; i < NPTS_LAT; i++) {
			struct json_object *st = bench_jget(bench_jget(cell, "summary"),
							    pts_lat[i].from);

			bench_add_num(row, pts_lat[i].key, bench_jnum(st, pts_lat[i].max ?
								      "max" : "median"));
			if (pts_lat[i].pct > 0)
				json_object_object_add(m, pts_lat[i].key, json_object_new_boolean(
					json_object_get_boolean(bench_jget(st, "meaningful"))));
		}
		json_object_object_add(row, "meaningful", m);
		json_object_array_add(a, row);
	}
	json_object_object_add(rep, "pts_latency", a);
}

/* pts_latency_json()'s rows as a table; true if a value is marked. */
static bool pts_latency_rows(FILE *f, struct json_object *rep)
{
	struct json_object *a = bench_jget(rep, "pts_latency");
	bool marked = false;
	size_t i, k;

	if (!a)
		return false;
	fprintf(f, "PTS latency: completion latency of the summary rounds, us (mean and percentiles: medians; max: the largest)\n"
		"%-24s %7s %7s %10s %10s %10s %10s %10s\n", "cell", "IO", "R/W",
		"mean us", "max us", "p99 us", "p99.9 us", "p99.99 us");
	for (i = 0; i < json_object_array_length(a); i++) {
		struct json_object *row = json_object_array_get_idx(a, i);
		int rp = (int)bench_jnum(row, "read_pct");
		char mix[16];

		snprintf(mix, sizeof(mix), "%d/%d", rp, 100 - rp);
		fprintf(f, "%-24s %7s %7s", bench_jstr(row, "cell"),
			bench_jstr(row, "io_size") ?: "?", mix);
		for (k = 0; k < NPTS_LAT; k++)
			marked |= bench_marked_num(f, bench_jnum(row, pts_lat[k].key),
					     bench_jget(bench_jget(row, "meaningful"),
							pts_lat[k].key));
		fputc('\n', f);
	}
	return marked;
}

/* The cells' table (medians, a mix's reads and writes apart, several
 * devices' rows, scaling, pts-latency's report); true if a value is
 * marked. */
static bool cell_rows(struct json_object *rep, FILE *f)
{
	bool marked = false;

	fprintf(f, "medians over the summary rounds; MB/s = 10^6 bytes/s at the IO size shown; a mix's reads and writes below it\n");
	fprintf(f, "%-24s %10s %10s %7s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n",
		"cell", "IOPS", "MB/s", "IO", "mean us", "p50 us", "p99 us",
		"p99.9 us", "p99.99 us", "p99.9999", "CPU %", "IRQ/IO",
		"steady state");
	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		const char *ss = bench_jstr(bench_jget(cell, "steady_state"), "status");
		int rp = (int)bench_jnum(cell, "read_pct");

		fprintf(f, "%-24s", id);
		marked |= dir_nums(f, cell, "");
		bench_col_num(f, "%.1f", med(cell, "cpu_pct"));
		bench_col_num(f, "%.3f", med(cell, "irq_per_io"));
		fprintf(f, "  %s%s (%d rounds)\n", ss ? ss : "?",
			json_object_get_boolean(bench_jget(cell, "suspect")) ?
			", SUSPECT" : "",
			(int)json_object_array_length(bench_jget(cell, "rounds")));
		if (rp > 0 && rp < 100) {
			fprintf(f, "%-24s", "  reads");
			marked |= dir_nums(f, cell, "read_");
			fprintf(f, "\n%-24s", "  writes");
			marked |= dir_nums(f, cell, "write_");
			fprintf(f, "\n");
		}
		marked |= device_rows(f, cell);
	}
	scaling_rows(f, rep);
	marked |= pts_latency_rows(f, rep);
	return marked;
}

void bench_print_table(struct json_object *rep, FILE *f)
{
	struct json_object *dev = bench_jget(rep, "device"), *m = bench_jget(rep, "method");
	struct json_object *host = bench_jget(rep, "host");
	const char *pc = bench_jstr(rep, "purge");
	/* reports of earlier versions have the PCI address as "pci" */
	const char *pci = bench_jstr(dev, "pci_address") ?: bench_jstr(dev, "pci");
	bool marked = false;

	if (bench_jget(rep, "devices")) {
		struct json_object *devs = bench_jget(rep, "devices");
		size_t i;

		fprintf(f, "ssdtune bench: %zu devices at once:", json_object_array_length(devs));
		for (i = 0; i < json_object_array_length(devs); i++) {
			struct json_object *d = json_object_array_get_idx(devs, i);

			fprintf(f, "%s %s (%s, CPUs %s)", i ? "," : "", bench_jstr(d, "path"),
				bench_jstr(d, "driver") ?: "?", bench_jstr(d, "cpus") ?: "any");
		}
		fprintf(f, "; suite %s, %s, %g s rounds\n", bench_jstr(m, "suite"),
			bench_jstr(m, "ioengine"), bench_jnum(m, "runtime_s"));
	} else {
		fprintf(f, "ssdtune bench: %s (driver %s, %s), suite %s, %s, %g s rounds\n",
			bench_jstr(dev, "path"), bench_jstr(dev, "driver") ?: "?",
			pci ?: "no PCI address",
			bench_jstr(m, "suite"), bench_jstr(m, "ioengine"),
			bench_jnum(m, "runtime_s"));
	}
	fprintf(f, "host: kernel %s, governor %s, EPP %s, turbo %s, scheduler %s; purge %s, precondition %s\n",
		bench_jstr(host, "kernel") ?: "?",
		bench_jstr(host, "governor") ?: "n/a",
		bench_jstr(host, "epp") ?: "n/a",
		bench_jstr(host, "turbo") ?: "n/a",
		bench_jstr(host, "scheduler") ?: "n/a", pc ? pc : "none",
		bench_jget(rep, "precondition") ? "done" : "none");
	marked = bench_jget(rep, "qos") ? bench_qos_table(rep, f) : cell_rows(rep, f);
	if (marked)
		fprintf(f, "* too few samples per round for that percentile p: it needs %d/(1-p) (p99.9: 10^4, p99.99: 10^5, p99.9999: 10^7)\n",
			BENCH_PCT_TAIL);
}

/* One data file per IO size and mix: qd iops p99. */
static int write_qd_data(struct json_object *rep, const char *dir,
			 FILE *gp, const char *metric, const char *png,
			 const char *ylabel)
{
	char path[PATH_MAX + 64];
	int series = 0;

	fprintf(gp, "set output '%s'\nset xlabel 'queue depth (threads x depth)'\n"
		"set ylabel '%s'\nset logscale x 2\nplot ", png, ylabel);
	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		char name[128];
		FILE *f;

		/* one series per (rw, read_pct, pattern, bs): its first cell */
		snprintf(name, sizeof(name), "%s-%d-%s-%s",
			 bench_jstr(cell, "rw"), (int)bench_jnum(cell, "read_pct"),
			 bench_jstr(cell, "pattern"), bench_jstr(cell, "io_size"));
		snprintf(path, sizeof(path), "%s/plot-%s.dat", dir, name);
		if (!access(path, F_OK))
			continue;
		f = fopen(path, "w");
		if (!f)
			return -errno;
		json_object_object_foreach(bench_jget(rep, "cells"), id2, c2) {
			char n2[128];

			(void)id2;
			snprintf(n2, sizeof(n2), "%s-%d-%s-%s",
				 bench_jstr(c2, "rw"), (int)bench_jnum(c2, "read_pct"),
				 bench_jstr(c2, "pattern"), bench_jstr(c2, "io_size"));
			if (!strcmp(n2, name))
				fprintf(f, "%g %g\n", bench_jnum(c2, "qd"),
					med(c2, metric));
		}
		fclose(f);
		fprintf(gp, "%s'plot-%s.dat' using 1:2 with linespoints title '%s'",
			series++ ? ", " : "", name, name);
		(void)id;
	}
	fprintf(gp, "\nunset logscale x\n");
	return 0;
}

static void remove_data(const char *dir, struct json_object *rep)
{
	char path[PATH_MAX + 160];

	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		(void)id;
		snprintf(path, sizeof(path), "%s/plot-%s-%d-%s-%s.dat", dir,
			 bench_jstr(cell, "rw"), (int)bench_jnum(cell, "read_pct"),
			 bench_jstr(cell, "pattern"), bench_jstr(cell, "io_size"));
		unlink(path);
	}
}

/* The steady-state plot of one cell: tracking value per round, the
 * window average with its 90%/110% bands and the fit line. */
static int write_steady(struct json_object *cell, const char *id,
			const char *dir, FILE *gp, struct json_object *files)
{
	struct json_object *ss = bench_jget(cell, "steady_state"), *rounds = bench_jget(cell, "rounds");
	struct json_object *w = bench_jget(ss, "window");
	const char *key = bench_jstr(ss, "tracking");
	double avg = bench_jnum(ss, "average"), k = bench_jnum(ss, "fit_slope");
	double b = bench_jnum(ss, "fit_intercept");
	char path[PATH_MAX + 64], png[160];
	int first, last;
	size_t i;
	FILE *f;

	if (!w || isnan(avg) || !key)
		return 0;
	first = json_object_get_int(json_object_array_get_idx(w, 0));
	last = json_object_get_int(json_object_array_get_idx(w, 1));
	snprintf(path, sizeof(path), "%s/steady-%s.dat", dir, id);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (i = 0; i < json_object_array_length(rounds); i++)
		fprintf(f, "%zu %g\n", i + 1,
			bench_jnum(json_object_array_get_idx(rounds, i), key));
	fclose(f);
	snprintf(png, sizeof(png), "steady-%s.png", id);
	fprintf(gp, "set output '%s'\nset xlabel 'round'\nset ylabel '%s'\n"
		"set title '%s: %s (window %d-%d)'\n"
		"plot 'steady-%s.dat' using 1:2 with linespoints title '%s', "
		"[%d:%d] %g title 'window average', "
		"[%d:%d] %g dashtype 2 title '110%%', "
		"[%d:%d] %g dashtype 2 title '90%%', "
		"[%d:%d] %g + %g * (x - %d) title 'least-squares fit'\n"
		"unset title\n",
		png, key, id, bench_jstr(ss, "status"), first, last, id, key,
		first, last, avg, first, last, avg * 1.1, first, last, avg * 0.9,
		first, last, b, k, first);
	json_object_array_add(files, json_object_new_string(png));
	return 0;
}

/* --scale: normalized IOPS against the number of devices, a line per
 * cell, and the ideal 1.0. */
static int write_scaling(struct json_object *rep, const char *dir, FILE *gp,
			 struct json_object *files)
{
	char path[PATH_MAX + 64];
	int series = 0;

	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *sc = bench_jget(cell, "scaling");
		size_t i;
		FILE *f;

		if (!sc || json_object_array_length(sc) < 2)
			continue;
		snprintf(path, sizeof(path), "%s/scaling-%s.dat", dir, id);
		f = fopen(path, "w");
		if (!f)
			return -errno;
		for (i = 0; i < json_object_array_length(sc); i++) {
			struct json_object *st = json_object_array_get_idx(sc, i);

			fprintf(f, "%g %g\n", bench_jnum(st, "devices"),
				bench_jnum(st, "normalized_iops"));
		}
		fclose(f);
		if (!series++)
			fprintf(gp, "set output 'scaling.png'\nset xlabel 'devices at once'\n"
				"set ylabel 'aggregate IOPS / (devices x one device alone)'\n"
				"set yrange [0:*]\nplot 1 dashtype 2 title 'linear'");
		fprintf(gp, ", 'scaling-%s.dat' using 1:2 with linespoints title '%s'", id, id);
	}
	if (series) {
		fprintf(gp, "\nset autoscale y\n");
		json_object_array_add(files, json_object_new_string("scaling.png"));
	}
	return 0;
}

/* gnuplot PNGs in @dir, their names appended to @files; a reason in @why
 * if none were made. */
static int plot(struct json_object *rep, const char *dir,
		struct json_object *files, char *why, size_t len)
{
	char *argv[] = { "gnuplot", "plots.gp", NULL };
	char gpath[PATH_MAX + 16], cwd[PATH_MAX];
	FILE *gp;
	int rc;

	if (!sys_have("gnuplot")) {
		snprintf(why, len, "gnuplot is not installed");
		return -1;
	}
	snprintf(gpath, sizeof(gpath), "%s/plots.gp", dir);
	gp = fopen(gpath, "w");
	if (!gp) {
		snprintf(why, len, "cannot write %s/plots.gp: %s", dir,
			 strerror(errno));
		return -1;
	}
	fprintf(gp, "set terminal pngcairo size 900,600\nset grid\nset key outside\n");
	if (bench_jget(rep, "qos")) {
		/* one reader at QD1: the curve against the write rate instead */
		rc = bench_qos_plot(rep, dir, gp, files);
	} else {
		remove_data(dir, rep);
		rc = write_qd_data(rep, dir, gp, "iops", "iops-vs-qd.png", "IOPS (median)");
		remove_data(dir, rep);
		rc |= write_qd_data(rep, dir, gp, "clat_p99_us", "p99-vs-qd.png",
				    "p99 completion latency, us (median)");
		json_object_array_add(files, json_object_new_string("iops-vs-qd.png"));
		json_object_array_add(files, json_object_new_string("p99-vs-qd.png"));
	}
	json_object_object_foreach(bench_jget(rep, "cells"), id, cell)
		rc |= write_steady(cell, id, dir, gp, files);
	rc |= write_scaling(rep, dir, gp, files);
	fclose(gp);
	if (rc) {
		snprintf(why, len, "cannot write the plot data in %s", dir);
		return -1;
	}
	if (!getcwd(cwd, sizeof(cwd)) || chdir(dir)) {
		snprintf(why, len, "cannot enter %s", dir);
		return -1;
	}
	rc = sys_spawn(argv, NULL, "plots.err");
	if (chdir(cwd))
		rc = -1;
	if (rc) {
		snprintf(why, len, "gnuplot failed (exit %d; see %s/plots.err)", rc, dir);
		return -1;
	}
	return 0;
}

int bench_write_report(struct json_object *rep, const char *dir,
		       struct lib_err *err)
{
	struct json_object *files = json_object_new_object();
	char p[PATH_MAX], why[256] = "";
	FILE *f;

	if (!strcmp(bench_jstr(bench_jget(rep, "method"), "suite") ?: "", "pts-latency"))
		pts_latency_json(rep);
	json_object_object_add(rep, "files", files);
	snprintf(p, sizeof(p), "%s/bench.json", dir);
	json_object_object_add(files, "json", json_object_new_string(p));
	snprintf(p, sizeof(p), "%s/bench.csv", dir);
	json_object_object_add(files, "csv", json_object_new_string(p));
	snprintf(p, sizeof(p), "%s/bench.txt", dir);
	json_object_object_add(files, "table", json_object_new_string(p));
	if (bench_jget(rep, "qos")) {
		snprintf(p, sizeof(p), "%s/qos.csv", dir);
		json_object_object_add(files, "qos_csv", json_object_new_string(p));
	}
	json_object_object_add(files, "plots", json_object_new_array());
	if (plot(rep, dir, json_object_object_get(files, "plots"), why,
		 sizeof(why)))
		json_object_object_add(files, "plots_skipped",
				       json_object_new_string(why));
	snprintf(p, sizeof(p), "%s/bench.csv", dir);
	if (write_csv(rep, p))
		return lib_errf(err, EIO, "cannot write %s", p);
	snprintf(p, sizeof(p), "%s/qos.csv", dir);
	if (bench_jget(rep, "qos") && bench_qos_csv(rep, p))
		return lib_errf(err, EIO, "cannot write %s", p);
	snprintf(p, sizeof(p), "%s/bench.txt", dir);
	f = fopen(p, "w");
	if (!f)
		return lib_errf(err, errno, "cannot write %s", p);
	bench_print_table(rep, f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/bench.json", dir);
	if (json_object_to_file_ext(p, rep, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE))
		return lib_errf(err, EIO, "cannot write %s", p);
	return 0;
}
