// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench DEV DEV ...: a cell on several devices at once.  One fio
 * run per round with one job section per device, each its own reporting
 * group (bench_multi_job_format()): fio starts them together and one
 * runtime ends them, so every device's figures cover the same seconds,
 * which separate fio instances, started one after another, would not;
 * each section still runs in processes of its own, on its own CPUs.  A
 * round gives the devices together (rates added, percentiles from the
 * merged latency histograms of fio's json+) and each device apart; with
 * --scale the cell runs on the first 1, 2, .. N devices in turn, and each
 * step's aggregate is normalized to k times the first device's alone.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/stats.h"

/* The figures a device has on its own (the rest are the host's). */
static const char *const dev_keys[] = {
	"iops", "mbps", "clat_mean_us", "clat_p50_us", "clat_p99_us",
	"clat_p99_9_us", "clat_p99_99_us", "clat_p99_9999_us", "read_iops",
	"read_clat_p99_us", "read_clat_p99_9_us", "write_iops",
	"write_clat_p99_us", "write_clat_p99_9_us", "irq_per_io",
	"fio_cpu_us_per_io",
};

/* "randread-4k-t1q32" on all devices, "randread-4k-t1q32-d2" on the
 * first 2 (--scale). */
static void step_id(const struct bench *b, const char *id, int k, char *buf,
		    size_t len)
{
	if (k == b->ndevs)
		snprintf(buf, len, "%s", id);
	else
		snprintf(buf, len, "%s-d%d", id, k);
}

static int step_job(const struct bench *b, const struct bench_cell *c, int k,
		    char *buf, size_t len)
{
	struct bench_job j[BENCH_MAX_DEVS];
	int i;

	for (i = 0; i < k; i++)
		j[i] = (struct bench_job){ b->devs[i].path, b->set->ioengine,
					   b->set->runtime,
					   b->devs[i].cpus[0] ? b->devs[i].cpus : NULL };
	return bench_multi_job_format(j, k, c, buf, len);
}

static double per_io(double v, long long ios)
{
	return ios > 0 ? v / (double)ios : NAN;
}

/* One device's figures of a round. */
static struct json_object *dev_json(const struct bench_dev *d,
				    const struct fio_figures *f,
				    const struct host_sample *a,
				    const struct host_sample *s)
{
	struct json_object *o = json_object_new_object(), *m = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(d->name));
	bench_dir_json(o, m, "", &f->all);
	json_object_object_add(o, "ios", json_object_new_int64(f->all.ios));
	bench_add_num(o, "irq_per_io", a->have_irqs && s->have_irqs ?
		      per_io((double)(s->irqs - a->irqs), f->all.ios) : NAN);
	bench_add_num(o, "fio_cpu_us_per_io", per_io(f->cpu_s * 1e6, f->all.ios));
	bench_dir_json(o, m, "read_", &f->read);
	bench_dir_json(o, m, "write_", &f->write);
	json_object_object_add(o, "meaningful", m);
	return o;
}

/* One round of step @sid on the first @k devices into @out. */
static int multi_round(const struct bench *b, const char *dir, const char *sid,
		       int k, int round, struct json_object **out,
		       struct lib_err *err)
{
	char jobfile[PATH_MAX], raw[PATH_MAX], what[128], why[512] = "", one[200];
	struct host_sample a[BENCH_MAX_DEVS], s[BENCH_MAX_DEVS];
	struct fio_figures f[BENCH_MAX_DEVS], all;
	struct json_object *r, *mean, *devs;
	double ticks, busy, irqs = 0, temp = NAN, power = NAN, thr = NAN;
	bool have_irqs = true;
	int i, rc;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, sid);
	snprintf(raw, sizeof(raw), "%s/raw/%s-r%02d.json", dir, sid, round + 1);
	snprintf(what, sizeof(what), "%s round %d", sid, round + 1);
	for (i = 0; i < k; i++)
		host_sample(&b->devs[i], &a[i]);
	rc = bench_fio_run_groups(what, jobfile, raw, k, f, &all, err);
	for (i = 0; i < k; i++)
		host_sample(&b->devs[i], &s[i]);
	if (rc)
		return rc;
	r = json_object_new_object();
	mean = json_object_new_object();
	devs = json_object_new_array();
	ticks = (double)(s[0].cpu_total - a[0].cpu_total);
	busy = (double)(s[0].cpu_busy - a[0].cpu_busy);
	for (i = 0; i < k; i++) {
		have_irqs &= a[i].have_irqs && s[i].have_irqs;
		if (a[i].have_irqs && s[i].have_irqs)
			irqs += (double)(s[i].irqs - a[i].irqs);
		if (s[i].have_temp)
			temp = fmax(isnan(temp) ? -INFINITY : temp, s[i].temp_mc / 1000.0);
		if (s[i].have_power)
			power = (isnan(power) ? 0 : power) + (double)s[i].power_mw;
		if (a[i].have_throttle && s[i].have_throttle)
			thr = (isnan(thr) ? 0 : thr) +
			      (double)(s[i].throttle_events - a[i].throttle_events);
		one[0] = '\0';
		bench_suspect_reason(b, &a[i], &s[i], one, sizeof(one));
		if (one[0] && !why[0])
			snprintf(why, sizeof(why), "%s: %s", b->devs[i].name, one);
		json_object_array_add(devs, dev_json(&b->devs[i], &f[i], &a[i], &s[i]));
	}
	json_object_object_add(r, "round", json_object_new_int(round + 1));
	bench_dir_json(r, mean, "", &all.all);
	bench_add_num(r, "cpu_pct", ticks > 0 ? busy / ticks * 100 : NAN);
	bench_add_num(r, "cpu_us_per_io",
		      per_io(busy / sysconf(_SC_CLK_TCK) * 1e6, all.all.ios));
	bench_add_num(r, "irq_per_io", have_irqs ? per_io(irqs, all.all.ios) : NAN);
	json_object_object_add(r, "ios", json_object_new_int64(all.all.ios));
	bench_add_num(r, "temperature_c", temp);
	bench_add_num(r, "power_estimate_mw", power);
	bench_add_num(r, "throttle_events", thr);
	bench_round_tail(r, mean, why, raw, &all);
	bench_add_num(r, "fio_cpu_us_per_io", per_io(all.cpu_s * 1e6, all.all.ios));
	json_object_object_add(r, "devices", devs);
	*out = r;
	return 0;
}

/* Device @i's summary over rounds [first, last]. */
static struct json_object *dev_summary(struct json_object *rounds, int i,
				       int first, int last)
{
	struct json_object *each = json_object_new_array(), *s;
	size_t k, n;

	for (n = 0; n < json_object_array_length(rounds); n++)
		json_object_array_add(each, json_object_get(json_object_array_get_idx(
			bench_jget(json_object_array_get_idx(rounds, n), "devices"), i)));
	s = json_object_new_object();
	for (k = 0; k < sizeof(dev_keys) / sizeof(dev_keys[0]); k++) {
		const char *key = dev_keys[k];
		double pct = strstr(key, "clat_p") ? 1 : 0;

		json_object_object_add(s, key, bench_stat_json(each, first, last,
							       key, pct));
	}
	json_object_put(each);
	return s;
}

/* The rounds of one step, until steady state or the rounds asked for. */
static int step_rounds(const struct bench *b, const char *dir, const char *sid,
		       int k, struct json_object *rounds, double *v, int *n,
		       bool *suspect, struct lib_err *err)
{
	const struct bench_settings *o = b->set;
	int max = o->steady ? SS_MAX_ROUNDS : o->rounds, rc;
	struct json_object *r;
	struct ss_window w;

	*n = 0;
	while (*n < max) {
		if (b->hooks.stopped && b->hooks.stopped(b->hooks.ctx))
			return lib_errf(err, EINTR, "interrupted before round %d of %s",
					*n + 1, sid);
		rc = multi_round(b, dir, sid, k, *n, &r, err);
		if (rc)
			return rc;
		json_object_array_add(rounds, r);
		*suspect |= json_object_get_boolean(bench_jget(r, "suspect"));
		v[(*n)++] = bench_tracking(o, r);
		if (o->steady && *n >= o->rounds && ss_window_at(v, *n, &w) &&
		    w.steady)
			break;
	}
	return 0;
}

/* Step @k of cell @id: its job, rounds, verdict and summaries. */
static int step_run(const struct bench *b, const struct bench_cell *c,
		    const char *dir, const char *id, int k,
		    struct json_object **out, bool *suspect,
		    struct lib_err *err)
{
	char sid[96], jobfile[PATH_MAX], job[8192], line[256];
	struct json_object *st, *rounds, *ss, *names, *ds;
	double v[SS_MAX_ROUNDS];
	int n, first = 0, i, rc;

	step_id(b, id, k, sid, sizeof(sid));
	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, sid);
	step_job(b, c, k, job, sizeof(job));
	if (bench_write_text(jobfile, job))
		return lib_errf(err, EIO, "cannot write %s", jobfile);
	st = json_object_new_object();
	*out = st;
	names = json_object_new_array();
	for (i = 0; i < k; i++)
		json_object_array_add(names, json_object_new_string(b->devs[i].name));
	json_object_object_add(st, "devices", json_object_new_int(k));
	json_object_object_add(st, "names", names);
	json_object_object_add(st, "job", json_object_new_string(jobfile));
	rounds = json_object_new_array();
	json_object_object_add(st, "rounds", rounds);
	rc = step_rounds(b, dir, sid, k, rounds, v, &n, suspect, err);
	if (rc)
		return rc;
	ss = bench_settle(b->set, v, n, rounds, st, &first, &n);
	ds = json_object_new_object();
	for (i = 0; i < k; i++)
		json_object_object_add(ds, b->devs[i].name,
				       dev_summary(rounds, i, first, n - 1));
	json_object_object_add(st, "device_summary", ds);
	if (b->hooks.progress) {
		snprintf(line, sizeof(line), "bench: %s (%d devices): %d rounds, %s",
			 sid, k, (int)json_object_array_length(rounds),
			 bench_jstr(ss, "status"));
		b->hooks.progress(b->hooks.ctx, line);
	}
	return 0;
}

static double median_of(struct json_object *step, const char *key)
{
	return bench_jnum(bench_jget(bench_jget(step, "summary"), key), "median");
}

int bench_multi_cell_run(const struct bench *b, const struct bench_cell *c,
			 const char *dir, struct json_object *cells,
			 struct lib_err *err)
{
	struct json_object *cell, *scaling, *st = NULL;
	double one_iops = NAN, one_mbps = NAN;
	char id[64], jobfile[PATH_MAX];
	bool suspect = false;
	int k, rc;
	static const char *const shared[] = {
		"rounds", "steady_state", "summary_rounds", "summary",
	};
	size_t i;

	bench_cell_id(c, id, sizeof(id));
	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	cell = bench_cell_json(b, c, jobfile);
	json_object_object_add(cells, id, cell);
	scaling = json_object_new_array();
	for (k = b->set->scale ? 1 : b->ndevs; k <= b->ndevs; k++) {
		rc = step_run(b, c, dir, id, k, &st, &suspect, err);
		json_object_array_add(scaling, st);
		if (rc) {
			json_object_object_add(cell, "scaling", scaling);
			return rc;
		}
		if (k == 1) {
			one_iops = median_of(st, "iops");
			one_mbps = median_of(st, "mbps");
		}
		/* the aggregate over k times the first device's alone */
		bench_add_num(st, "normalized_iops", median_of(st, "iops") / (k * one_iops));
		bench_add_num(st, "normalized_mbps", median_of(st, "mbps") / (k * one_mbps));
	}
	/* the cell's own figures are those of all the devices */
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		json_object_object_add(cell, shared[i],
				       json_object_get(bench_jget(st, shared[i])));
	json_object_object_add(cell, "suspect", json_object_new_boolean(suspect));
	json_object_object_add(cell, "devices",
			       json_object_get(bench_jget(st, "device_summary")));
	json_object_object_add(cell, "scaling", scaling);
	return 0;
}

int bench_multi_dry_run(const struct bench *b, struct json_object *out,
			struct json_object *jobs)
{
	char id[64], sid[96], job[8192];
	int i, k;

	for (i = 0; i < b->ncells; i++) {
		bench_cell_id(&b->cells[i], id, sizeof(id));
		for (k = b->set->scale ? 1 : b->ndevs; k <= b->ndevs; k++) {
			step_id(b, id, k, sid, sizeof(sid));
			step_job(b, &b->cells[i], k, job, sizeof(job));
			bench_job_entry(jobs, sid, job);
		}
	}
	json_object_object_add(out, "jobs", jobs);
	return 0;
}
