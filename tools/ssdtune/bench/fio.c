// SPDX-License-Identifier: GPL-2.0
/* ssdtune bench: fio job files and fio's JSON output. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "bench/fio.h"
#include "bench/stats.h"

char *bench_cell_id(const struct bench_cell *c, char *buf, size_t len)
{
	char bs[16];

	bench_format_size(c->bs, bs, sizeof(bs));
	if (c->read_pct == 100 || c->read_pct == 0)
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
			"unified_rw_reporting=mixed\n"
			"percentile_list=50:99:99.9:99.99\n"
			"%s%s%s",
			j->filename, j->ioengine,
			j->cpus ? "cpus_allowed=" : "", j->cpus ? j->cpus : "",
			j->cpus ? "\ncpus_allowed_policy=split\n" : "");
}

int bench_job_format(const struct bench_job *j, const struct bench_cell *c,
		     char *buf, size_t len)
{
	char id[64], mix[32] = "";
	int n = global_format(j, buf, len);

	if (c->read_pct != 0 && c->read_pct != 100)
		snprintf(mix, sizeof(mix), "rwmixread=%d\n", c->read_pct);
	return append(buf, len, n,
			    "time_based=1\n"
			    "runtime=%d\n"
			    "norandommap=1\n"
			    "randrepeat=0\n"
			    "\n[%s]\n"
			    "rw=%s\n%s"
			    "bs=%ld\n"
			    "iodepth=%d\n"
			    "numjobs=%d\n",
			    j->runtime_s, bench_cell_id(c, id, sizeof(id)),
			    bench_fio_rw(c->read_pct, c->random), mix, c->bs,
			    c->depth, c->threads);
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

struct dir_sum {
	double iops, bw, ios, lat_sum;
	double pct[4], pct_ios;	/* percentiles of the busiest direction */
};

static void add_direction(struct json_object *d, struct dir_sum *s)
{
	static const char *const keys[4] = {
		"50.000000", "99.000000", "99.900000", "99.990000",
	};
	struct json_object *clat = get(d, "clat_ns"), *p;
	double ios = num(d, "total_ios");
	int i;

	if (!d || isnan(ios) || ios <= 0)
		return;
	s->iops += num(d, "iops");
	s->bw += num(d, "bw_bytes");
	s->ios += ios;
	s->lat_sum += num(clat, "mean") * ios;
	if (ios <= s->pct_ios)
		return;
	p = get(clat, "percentile");
	for (i = 0; i < 4; i++)
		s->pct[i] = num(p, keys[i]);
	s->pct_ios = ios;
}

int fio_parse(const char *json, struct fio_figures *f, char *err,
	      size_t errlen)
{
	struct json_object *root, *jobs, *job, *v;
	struct dir_sum s = { 0 };
	int i;

	memset(f, 0, sizeof(*f));
	root = json_tokener_parse(json);
	if (!root || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "fio output is not a JSON object");
		json_object_put(root);
		return -1;
	}
	v = get(root, "fio version");
	snprintf(f->version, sizeof(f->version), "%s",
		 v ? json_object_get_string(v) : "");
	jobs = get(root, "jobs");
	if (!jobs || !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) < 1) {
		snprintf(err, errlen, "fio output has no jobs");
		json_object_put(root);
		return -1;
	}
	job = json_object_array_get_idx(jobs, 0);
	if (num(job, "error") > 0) {
		snprintf(err, errlen, "fio job failed: error %d",
			 (int)num(job, "error"));
		json_object_put(root);
		return -1;
	}
	for (i = 0; i < 4; i++)
		s.pct[i] = NAN;
	if (get(job, "mixed")) {
		add_direction(get(job, "mixed"), &s);
	} else {
		add_direction(get(job, "read"), &s);
		add_direction(get(job, "write"), &s);
		add_direction(get(job, "trim"), &s);
	}
	if (s.ios <= 0) {
		snprintf(err, errlen, "fio completed no I/O");
		json_object_put(root);
		return -1;
	}
	f->iops = s.iops;
	f->bw_bytes = s.bw;
	f->ios = (long long)s.ios;
	f->clat_mean_us = s.lat_sum / s.ios / 1000.0;
	f->clat_p50_us = s.pct[0] / 1000.0;
	f->clat_p99_us = s.pct[1] / 1000.0;
	f->clat_p99_9_us = s.pct[2] / 1000.0;
	f->clat_p99_99_us = s.pct[3] / 1000.0;
	f->runtime_s = num(job, "job_runtime") / 1000.0;
	json_object_put(root);
	return 0;
}
