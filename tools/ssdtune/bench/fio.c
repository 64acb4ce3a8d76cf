// SPDX-License-Identifier: GPL-2.0
/* ssdtune bench: fio job files and fio's JSON output. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "bench/fio.h"
#include "bench/stats.h"

const char *bench_qos_writer(const struct bench_cell *c)
{
	return c->qos_rand ? "rand4k" : "seq128k";
}

char *bench_cell_id(const struct bench_cell *c, char *buf, size_t len)
{
	char bs[16];

	bench_format_size(c->bs, bs, sizeof(bs));
	if (c->qos)
		snprintf(buf, len, "qos-%s%s-w%d", bench_qos_writer(c),
			 c->qos_trim ? "-trim" : "", c->qos_pct);
	else if (c->read_pct == 100 || c->read_pct == 0)
		snprintf(buf, len, "%s-%s-t%dq%d",
			 bench_fio_rw(c->read_pct, c->random), bs,
			 c->threads, c->depth);
	else
		snprintf(buf, len, "%s-%dr-%s-t%dq%d",
			 c->random ? "rand" : "seq", c->read_pct, bs,
			 c->threads, c->depth);
	return buf;
}

char *bench_cell_label(const struct bench_cell *c, char *buf, size_t len)
{
	const char *pat = c->random ? "random" : "seq";
	char bs[16], mix[16];

	bench_format_size(c->bs, bs, sizeof(bs));
	if (c->qos) {
		snprintf(buf, len, "%s %s read QD%d beside %s writes%s at %d%%",
			 bs, pat, c->depth, c->qos_rand ? "random 4k" : "seq 128k",
			 c->qos_trim ? " and trims" : "", c->qos_pct);
		return buf;
	}
	if (c->read_pct == 100)
		snprintf(mix, sizeof(mix), "read");
	else if (c->read_pct == 0)
		snprintf(mix, sizeof(mix), "write");
	else
		snprintf(mix, sizeof(mix), "%d/%d", c->read_pct,
			 100 - c->read_pct);
	snprintf(buf, len, "%s %s %s QD%dx%d", bs, pat, mix, c->threads,
		 c->depth);
	return buf;
}

/* snprintf at @n of @buf (@len), like one long snprintf. */
static int append(char *buf, size_t len, int n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(len > (size_t)n ? buf + n : NULL,
		      len > (size_t)n ? len - n : 0, fmt, ap);
	va_end(ap);
	return n + r;
}

static int global_format(const struct bench_job *j, char *buf, size_t len)
{
	return snprintf(buf, len,
			"[global]\n"
			"filename=%s\n"
			"ioengine=%s\n"
			"direct=1\n"
			"group_reporting=1\n"
			"unified_rw_reporting=both\n"
			"percentile_list=50:99:99.9:99.99:99.9999\n"
			"%s%s%s",
			j->filename, j->ioengine,
			j->cpus ? "cpus_allowed=" : "", j->cpus ? j->cpus : "",
			j->cpus ? "\ncpus_allowed_policy=split\n" : "");
}

/* [global] of a timed round: @j's runtime, random offsets as they come. */
static int timed_format(const struct bench_job *j, char *buf, size_t len)
{
	return append(buf, len, global_format(j, buf, len),
		      "time_based=1\n"
		      "runtime=%d\n"
		      "norandommap=1\n"
		      "randrepeat=0\n", j->runtime_s);
}

int bench_job_format(const struct bench_job *j, const struct bench_cell *c,
		     char *buf, size_t len)
{
	char id[64], mix[32] = "";
	int n = timed_format(j, buf, len);

	if (c->read_pct != 0 && c->read_pct != 100)
		snprintf(mix, sizeof(mix), "rwmixread=%d\n", c->read_pct);
	return append(buf, len, n,
			    "\n[%s]\n"
			    "rw=%s\n%s"
			    "bs=%ld\n"
			    "iodepth=%d\n"
			    "numjobs=%d\n",
			    bench_cell_id(c, id, sizeof(id)),
			    bench_fio_rw(c->read_pct, c->random), mix, c->bs,
			    c->depth, c->threads);
}

int bench_multi_job_format(const struct bench_job *j, int n,
			   const struct bench_cell *c, char *buf, size_t len)
{
	char id[64], mix[32] = "", name[128];
	int i, r;

	if (c->read_pct != 0 && c->read_pct != 100)
		snprintf(mix, sizeof(mix), "rwmixread=%d\n", c->read_pct);
	bench_cell_id(c, id, sizeof(id));
	r = snprintf(buf, len,
		     "[global]\n"
		     "ioengine=%s\n"
		     "direct=1\n"
		     "group_reporting=1\n"
		     "unified_rw_reporting=both\n"
		     "percentile_list=50:99:99.9:99.99:99.9999\n"
		     "time_based=1\n"
		     "runtime=%d\n"
		     "norandommap=1\n"
		     "randrepeat=0\n"
		     "rw=%s\n%s"
		     "bs=%ld\n"
		     "iodepth=%d\n"
		     "numjobs=%d\n",
		     j[0].ioengine, j[0].runtime_s,
		     bench_fio_rw(c->read_pct, c->random), mix, c->bs, c->depth,
		     c->threads);
	for (i = 0; i < n; i++) {
		const char *dev = strrchr(j[i].filename, '/');

		snprintf(name, sizeof(name), "%s.%s", id, dev ? dev + 1 : j[i].filename);
		r = append(buf, len, r, "\n[%s]\nnew_group\nfilename=%s\n", name,
			   j[i].filename);
		if (j[i].cpus)
			r = append(buf, len, r,
				   "cpus_allowed=%s\ncpus_allowed_policy=split\n",
				   j[i].cpus);
	}
	return r;
}

/* The qos [global]: what the reader and the writer share (each job has
 * CPUs of its own). */
static int qos_global(const struct bench_qos_job *q, char *buf, size_t len)
{
	struct bench_job j = { q->filename, q->ioengine, q->runtime_s, NULL };

	return timed_format(&j, buf, len);
}

/* A job section of the writer side: @what (writer, trim) of cell @id. */
static int qos_writer_job(const struct bench_qos_job *q,
			  const struct bench_cell *c, const char *id,
			  const char *what, bool group, char *buf, size_t len,
			  int n)
{
	bool trim = !strcmp(what, "trim");

	n = append(buf, len, n, "\n[%s.%s]\n%s"
		   "rw=%s\nbs=%ld\n%siodepth=%d\nnumjobs=1\n", id, what,
		   group ? "new_group\n" : "",
		   trim ? "randtrim" : c->qos_rand ? "randwrite" : "write",
		   QOS_WRITER_BS(c->qos_rand), trim ? "ioengine=psync\n" : "",
		   trim ? 1 : QOS_WRITER_DEPTH);
	if (q->rate > 0)
		n = append(buf, len, n, "rate=%lld\n", q->rate);
	else if (q->rate < 0)
		n = append(buf, len, n,
			   "rate=<%d%% of the measured write bandwidth, bytes/s>\n",
			   q->pct);
	if (q->writer_cpus)
		n = append(buf, len, n, "cpus_allowed=%s\n", q->writer_cpus);
	return n;
}

int bench_qos_job_format(const struct bench_qos_job *q,
			 const struct bench_cell *c, char *buf, size_t len)
{
	char id[64];
	int n = qos_global(q, buf, len);

	bench_cell_id(c, id, sizeof(id));
	n = append(buf, len, n, "\n[%s.reader]\nrw=%s\nbs=%ld\niodepth=%d\nnumjobs=1\n",
		   id, bench_fio_rw(100, c->random), c->bs, c->depth);
	if (q->reader_cpus)
		n = append(buf, len, n, "cpus_allowed=%s\n", q->reader_cpus);
	if (!q->rate)
		return n;
	n = qos_writer_job(q, c, id, "writer", true, buf, len, n);
	if (c->qos_trim)
		n = qos_writer_job(q, c, id, "trim", true, buf, len, n);
	return n;
}

int bench_qos_bw_format(const struct bench_qos_job *q,
			const struct bench_cell *c, char *buf, size_t len)
{
	struct bench_qos_job alone = *q;
	char id[64];

	alone.rate = 0;
	snprintf(id, sizeof(id), "qos-%s-bw", bench_qos_writer(c));
	return qos_writer_job(&alone, c, id, "writer", false, buf, len,
			      qos_global(q, buf, len));
}

int bench_precondition_format(const struct bench_job *j, char *buf,
			      size_t len)
{
	int n = global_format(j, buf, len);

	return append(buf, len, n,
			    "\n[precondition]\n"
			    "rw=write\n"
			    "bs=128k\n"
			    "iodepth=32\n"
			    "numjobs=1\n"
			    "loops=2\n");
}

const double fio_pcts[FIO_NPCT] = { 50, 99, 99.9, 99.99, 99.9999 };
const char *const fio_pct_names[FIO_NPCT] = {
	"p50", "p99", "p99_9", "p99_99", "p99_9999",
};

static double num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NAN;
	return json_object_get_double(v);
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* One direction object of fio's JSON ("read", "mixed") into @d; false if
 * it holds no I/O. */
static bool read_dir(struct json_object *o, struct fio_dir *d)
{
	struct json_object *clat = get(o, "clat_ns"), *p = get(clat, "percentile");
	double ios = num(o, "total_ios"), n = num(clat, "N");
	char key[32];
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < FIO_NPCT; i++)
		d->pct_us[i] = NAN;
	d->clat_mean_us = NAN;
	d->max_us = NAN;
	if (!o || isnan(ios) || ios <= 0)
		return false;
	d->iops = num(o, "iops");
	d->bw_bytes = num(o, "bw_bytes");
	d->ios = (long long)ios;
	d->samples = isnan(n) ? d->ios : (long long)n;
	d->clat_mean_us = num(clat, "mean") / 1000.0;
	d->max_us = num(clat, "max") / 1000.0;
	for (i = 0; i < FIO_NPCT; i++) {
		/* fio names a percentile with %f: 99.9999 -> "99.999900" */
		snprintf(key, sizeof(key), "%f", fio_pcts[i]);
		d->pct_us[i] = num(p, key) / 1000.0;
	}
	return true;
}

/* No "mixed": the directions added up, the percentiles of the busier. */
static void add_dir(struct fio_dir *all, const struct fio_dir *d)
{
	double lat;

	if (!d->ios)
		return;
	lat = (all->ios ? all->clat_mean_us * all->ios : 0) +
	      d->clat_mean_us * d->ios;
	all->iops += d->iops;
	all->bw_bytes += d->bw_bytes;
	all->max_us = fmax(all->max_us, d->max_us);	/* NaN gives way */
	if (d->samples > all->samples) {
		memcpy(all->pct_us, d->pct_us, sizeof(all->pct_us));
		all->samples = d->samples;
	}
	all->ios += d->ios;
	all->clat_mean_us = lat / all->ios;
}

/* One job (reporting group) of fio's JSON into @f; -1 and @err if it
 * failed or did no I/O. */
static int parse_job(struct json_object *job, struct fio_figures *f,
		     char *err, size_t errlen)
{
	if (num(job, "error") > 0) {
		snprintf(err, errlen, "fio job failed: error %d",
			 (int)num(job, "error"));
		return -1;
	}
	read_dir(get(job, "read"), &f->read);
	read_dir(get(job, "write"), &f->write);
	read_dir(get(job, "trim"), &f->trim);
	if (!read_dir(get(job, "mixed"), &f->all)) {
		read_dir(NULL, &f->all);
		add_dir(&f->all, &f->read);
		add_dir(&f->all, &f->write);
		add_dir(&f->all, &f->trim);
	}
	if (f->all.ios <= 0) {
		snprintf(err, errlen, "fio completed no I/O");
		return -1;
	}
	/* fio's usr_cpu and sys_cpu are percent of job_runtime (ms, summed
	 * over the group's jobs) */
	f->runtime_s = num(job, "job_runtime") / 1000.0;
	f->cpu_s = (num(job, "usr_cpu") + num(job, "sys_cpu")) / 100.0 *
		   f->runtime_s;
	return 0;
}

/* The JSON object of @json and its "jobs" (at least @min), or NULL. */
static struct json_object *parse_root(const char *json, int min,
				      struct json_object **jobs, char *err,
				      size_t errlen)
{
	struct json_object *root = json_tokener_parse(json);

	if (!root || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "fio output is not a JSON object");
		json_object_put(root);
		return NULL;
	}
	*jobs = get(root, "jobs");
	if (!*jobs || !json_object_is_type(*jobs, json_type_array) ||
	    (int)json_object_array_length(*jobs) < min) {
		snprintf(err, errlen, "fio output has no jobs");
		json_object_put(root);
		return NULL;
	}
	return root;
}

static void version_of(struct json_object *root, struct fio_figures *f)
{
	struct json_object *v = get(root, "fio version");

	snprintf(f->version, sizeof(f->version), "%s",
		 v ? json_object_get_string(v) : "");
}

int fio_parse(const char *json, struct fio_figures *f, char *err,
	      size_t errlen)
{
	struct json_object *root, *jobs;
	int rc;

	memset(f, 0, sizeof(*f));
	root = parse_root(json, 1, &jobs, err, errlen);
	if (!root)
		return -1;
	version_of(root, f);
	rc = parse_job(json_object_array_get_idx(jobs, 0), f, err, errlen);
	json_object_put(root);
	return rc;
}

/* A latency histogram: (value in ns, count) pairs, in any order. */
struct hist {
	struct bin { double ns; long long n; } *v;
	size_t len, cap;
};

static int hist_add(struct hist *h, struct json_object *bins)
{
	json_object_object_foreach(bins, key, val) {
		char *end;
		double ns = strtod(key, &end);

		if (end == key || *end || !json_object_is_type(val, json_type_int))
			return -1;
		if (h->len == h->cap) {
			size_t cap = h->cap ? h->cap * 2 : 1024;
			struct bin *v = realloc(h->v, cap * sizeof(*v));

			if (!v)
				return -1;
			h->v = v;
			h->cap = cap;
		}
		h->v[h->len].ns = ns;
		h->v[h->len++].n = json_object_get_int64(val);
	}
	return 0;
}

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

/* fio's rule (stat.c, calc_clat_percentiles) on the merged bins. */
static void hist_pcts(struct hist *h, struct fio_dir *d)
{
	long long total = 0, sum = 0;
	size_t i;
	int j = 0;

	for (i = 0; i < h->len; i++)
		total += h->v[i].n;
	if (!total)
		return;
	qsort(h->v, h->len, sizeof(*h->v), bin_cmp);
	for (i = 0; i < h->len && j < FIO_NPCT; i++) {
		sum += h->v[i].n;
		while (j < FIO_NPCT && sum >= fio_pcts[j] / 100.0 * total)
			d->pct_us[j++] = h->v[i].ns / 1000.0;
	}
}

static const struct fio_dir *dir_of(const struct fio_figures *f, int which)
{
	return which == 0 ? &f->all : which == 1 ? &f->read : &f->write;
}

/*
 * Direction @which (0 all, 1 read, 2 write; fio's "mixed", "read",
 * "write") of every group together into @d; percentiles only if every
 * group with I/O that way gave its histogram.  -1 if a histogram is
 * malformed.
 */
static int merge_dir(struct json_object *jobs, int n,
		     const struct fio_figures *dev, int which,
		     struct fio_dir *d)
{
	static const char *const keys[] = { "mixed", "read", "write" };
	struct hist h = { 0 };
	bool whole = true;
	double lat = 0;
	int i, rc = 0;

	read_dir(NULL, d);
	for (i = 0; i < n; i++) {
		const struct fio_dir *x = dir_of(&dev[i], which);
		struct json_object *o = get(json_object_array_get_idx(jobs, i), keys[which]);
		struct json_object *bins = get(get(o, "clat_ns"), "bins");

		if (!x->ios)
			continue;
		d->iops += x->iops;
		d->bw_bytes += x->bw_bytes;
		d->max_us = fmax(d->max_us, x->max_us);
		d->ios += x->ios;
		d->samples += x->samples;
		lat += x->clat_mean_us * x->ios;
		if (!bins)
			whole = false;
		else if (hist_add(&h, bins))
			rc = -1;
	}
	if (d->ios)
		d->clat_mean_us = lat / d->ios;
	if (!rc && whole)
		hist_pcts(&h, d);
	free(h.v);
	return rc;
}

int fio_parse_groups(const char *json, int n, struct fio_figures *dev,
		     struct fio_figures *all, char *err, size_t errlen)
{
	struct json_object *root, *jobs;
	int i, rc = 0;

	memset(all, 0, sizeof(*all));
	memset(dev, 0, n * sizeof(*dev));
	root = parse_root(json, 1, &jobs, err, errlen);
	if (!root)
		return -1;
	version_of(root, all);
	if ((int)json_object_array_length(jobs) != n) {
		snprintf(err, errlen, "fio output has %d reporting groups, not %d (one per device)",
			 (int)json_object_array_length(jobs), n);
		json_object_put(root);
		return -1;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = parse_job(json_object_array_get_idx(jobs, i), &dev[i], err, errlen);
		all->cpu_s += dev[i].cpu_s;
		all->runtime_s = fmax(all->runtime_s, dev[i].runtime_s);
	}
	if (!rc && (merge_dir(jobs, n, dev, 0, &all->all) ||
		    merge_dir(jobs, n, dev, 1, &all->read) ||
		    merge_dir(jobs, n, dev, 2, &all->write))) {
		snprintf(err, errlen, "fio's latency histogram (\"bins\") is not one");
		rc = -1;
	}
	json_object_put(root);
	return rc;
}
