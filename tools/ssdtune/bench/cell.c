// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: one cell of the matrix.  Its job file, then rounds: a
 * fixed number, or with --steady-state until the SNIA PTS rule holds (at
 * most 25); the steady-state verdict and the summary (median/min/max of
 * the steady-state window if reached, else of all rounds).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench/engine.h"
#include "bench/stats.h"

/* PTS's tracking variable: IOPS, mean latency for pts-latency, and the
 * reader's mean latency for qos. */
static const char *tracking(const struct bench_settings *o)
{
	if (bench_suite_qos(o))
		return "read_clat_mean_us";
	return o->suite && !strcmp(o->suite, "pts-latency") ? "clat_mean_us" : "iops";
}

double bench_tracking(const struct bench_settings *o,
		      struct json_object *round)
{
	return bench_jnum(round, tracking(o));
}

struct json_object *bench_steady_json(const struct bench_settings *o,
				      const double *v, int n)
{
	struct json_object *s = json_object_new_object(), *w;
	struct ss_window win;
	int r = ss_scan(v, n, &win);
	const char *status = r < 0 ? "not evaluated (fewer than 5 rounds)" :
			     r ? "reached" : "steady state NOT reached";

	json_object_object_add(s, "status", json_object_new_string(status));
	json_object_object_add(s, "reached", json_object_new_boolean(r == 1));
	json_object_object_add(s, "tracking", json_object_new_string(tracking(o)));
	json_object_object_add(s, "rounds", json_object_new_int(n));
	if (r < 0)
		return s;
	w = json_object_new_array();
	json_object_array_add(w, json_object_new_int(win.first + 1));
	json_object_array_add(w, json_object_new_int(win.last + 1));
	json_object_object_add(s, "window", w);
	bench_add_num(s, "average", win.avg);
	bench_add_num(s, "data_excursion_pct",
		      win.avg ? win.excursion / win.avg * 100 : NAN);
	bench_add_num(s, "slope_excursion_pct",
		      win.avg ? win.slope_excursion / win.avg * 100 : NAN);
	bench_add_num(s, "fit_slope", win.slope);
	bench_add_num(s, "fit_intercept", win.intercept);
	return s;
}

/* Whether every round of [first, last] that has percentile @key holds
 * enough samples for it (and one does). */
static bool meaningful(struct json_object *rounds, int first, int last,
		       const char *key)
{
	bool any = false;
	int i;

	for (i = first; i <= last; i++) {
		struct json_object *r = json_object_array_get_idx(rounds, i);

		if (isnan(bench_jnum(r, key)))
			continue;
		if (!json_object_get_boolean(bench_jget(bench_jget(r, "meaningful"), key)))
			return false;
		any = true;
	}
	return any;
}

struct json_object *bench_stat_json(struct json_object *rounds, int first,
				    int last, const char *key, double pct)
{
	struct json_object *m = json_object_new_object();
	double v[SS_MAX_ROUNDS];
	struct stat3 st;
	int i, n = 0;

	for (i = first; i <= last; i++) {
		double x = bench_jnum(json_object_array_get_idx(rounds, i), key);

		if (!isnan(x))
			v[n++] = x;
	}
	stat3_of(v, n, &st);
	bench_add_num(m, "median", st.median);
	bench_add_num(m, "min", st.min);
	bench_add_num(m, "max", st.max);
	json_object_object_add(m, "n", json_object_new_int(st.n));
	if (pct > 0)
		json_object_object_add(m, "meaningful", json_object_new_boolean(
			meaningful(rounds, first, last, key)));
	return m;
}

struct json_object *bench_summary_json(struct json_object *rounds, int first,
				       int last)
{
	struct json_object *s = json_object_new_object();
	int k;

	for (k = 0; k < bench_nmetrics; k++)
		json_object_object_add(s, bench_metrics[k].key, bench_stat_json(
			rounds, first, last, bench_metrics[k].key, bench_metrics[k].pct));
	return s;
}

struct json_object *bench_settle(const struct bench_settings *o,
				 const double *v, int n,
				 struct json_object *rounds,
				 struct json_object *into, int *first, int *end)
{
	struct json_object *ss = bench_steady_json(o, v, n);
	struct ss_window w;

	json_object_object_add(into, "steady_state", ss);
	*first = 0;
	*end = n;
	/* The figures of the steady-state window if reached, else all. */
	if (json_object_get_boolean(json_object_object_get(ss, "reached")) &&
	    ss_scan(v, n, &w) == 1) {
		*first = w.first;
		*end = w.last + 1;
	}
	json_object_object_add(into, "summary_rounds", json_object_new_string(
		*first || *end < (int)json_object_array_length(rounds) ?
		"steady-state window" : "all rounds"));
	json_object_object_add(into, "summary",
			       bench_summary_json(rounds, *first, *end - 1));
	return ss;
}

/* What the cell is: the matrix point and the device's knobs. */
struct json_object *bench_cell_json(const struct bench *b,
				    const struct bench_cell *c,
				    const char *jobfile)
{
	struct json_object *cell = json_object_new_object();
	char label[96], bs[16];

	json_object_object_add(cell, "label", json_object_new_string(
		bench_cell_label(c, label, sizeof(label))));
	json_object_object_add(cell, "rw", json_object_new_string(
		bench_fio_rw(c->read_pct, c->random)));
	json_object_object_add(cell, "read_pct", json_object_new_int(c->read_pct));
	json_object_object_add(cell, "pattern", json_object_new_string(
		c->random ? "random" : "sequential"));
	json_object_object_add(cell, "bs", json_object_new_int64(c->bs));
	json_object_object_add(cell, "io_size", json_object_new_string(
		bench_format_size(c->bs, bs, sizeof(bs))));
	json_object_object_add(cell, "threads", json_object_new_int(c->threads));
	json_object_object_add(cell, "depth", json_object_new_int(c->depth));
	json_object_object_add(cell, "qd", json_object_new_int(c->threads * c->depth));
	json_object_object_add(cell, "job", json_object_new_string(jobfile));
	json_object_object_add(cell, "ssdtune", ssdt_settings(&b->dev));
	if (c->qos)
		json_object_object_add(cell, "qos", bench_qos_cell_json(b, c));
	return cell;
}

int bench_cell_run(const struct bench *b, const struct bench_cell *c,
		   const char *dir, struct json_object *cells,
		   struct lib_err *err)
{
	const struct bench_settings *o = b->set;
	struct bench_job j = { b->dev.path, o->ioengine, o->runtime, b->cpus };
	char id[64], jobfile[PATH_MAX], job[4096], line[256];
	struct json_object *cell, *rounds, *r, *ss;
	double v[SS_MAX_ROUNDS];
	int n = 0, max = o->steady ? SS_MAX_ROUNDS : o->rounds, rc, first = 0;
	struct ss_window w;
	bool suspect = false;

	if (b->ndevs > 1)
		return bench_multi_cell_run(b, c, dir, cells, err);
	bench_cell_id(c, id, sizeof(id));
	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	if (c->qos)
		bench_qos_job(b, c, job, sizeof(job));
	else
		bench_job_format(&j, c, job, sizeof(job));
	if (bench_write_text(jobfile, job))
		return lib_errf(err, EIO, "cannot write %s", jobfile);
	cell = bench_cell_json(b, c, jobfile);
	json_object_object_add(cells, id, cell);
	rounds = json_object_new_array();
	json_object_object_add(cell, "rounds", rounds);
	while (n < max) {
		if (b->hooks.stopped && b->hooks.stopped(b->hooks.ctx))
			return lib_errf(err, EINTR, "interrupted before round %d of %s",
					n + 1, id);
		rc = c->qos ? bench_qos_round(b, c, dir, id, n, &r, err) :
			      bench_round(b, dir, id, n, &r, err);
		if (rc)
			return rc;
		json_object_array_add(rounds, r);
		suspect |= json_object_get_boolean(json_object_object_get(r, "suspect"));
		v[n++] = bench_tracking(o, r);
		if (o->steady && n >= o->rounds && ss_window_at(v, n, &w) &&
		    w.steady)
			break;
	}
	ss = bench_settle(o, v, n, rounds, cell, &first, &n);
	if (c->qos)
		bench_qos_settle(c, cell, first, n);
	json_object_object_add(cell, "suspect", json_object_new_boolean(suspect));
	if (b->hooks.progress) {
		snprintf(line, sizeof(line), "bench: %s: %d rounds, %s", id,
			 (int)json_object_array_length(rounds),
			 bench_jstr(ss, "status"));
		b->hooks.progress(b->hooks.ctx, line);
	}
	return 0;
}
