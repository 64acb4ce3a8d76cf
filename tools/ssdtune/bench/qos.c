// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench --suite qos: read latency while writes run, in the manner
 * of OCP's and FioSynth's latency-under-load tests.  The writer alone at
 * full rate first gives the device's write bandwidth; then each cell is
 * one fio run per round of a QD1 4k random reader, in a reporting group
 * of its own, beside the writer (and a trim job, with --qos-trim) capped
 * at 0, 25, 50 and 100% of that bandwidth, each side on CPUs of its own.
 * A round's figures are those of any cell (all the groups' I/Os together,
 * fio_parse_groups()); its read_* are the reader's, its write_* the
 * writer's, trim_* the trim job's.  The curve (read percentiles against
 * the write rate) goes into the report's "qos".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"
#include "lib/cpuset.h"
#include "lib/sysfs.h"

#define QOS_CPUS	8192	/* CPU numbers a cpulist here may name */

/* @list, less what is not online (when @online is known), into @s. */
static int cpus_of(const char *list, const char *online, struct cpuset *s)
{
	struct cpuset on;
	int c, r;

	cpuset_clear(s);
	if (!list || !list[0] || cpuset_add_list(s, list))
		return -1;
	if (!online[0])
		return 0;
	r = cpuset_init(&on, QOS_CPUS);
	if (r)
		return r;
	if (!cpuset_add_list(&on, online))
		for (c = 0; c < QOS_CPUS; c++)
			if (!cpuset_has(&on, c))
				s->on[c] = false;
	cpuset_free(&on);
	return 0;
}

static int first_cpu(const struct cpuset *s)
{
	int c;

	for (c = 0; c < s->n; c++)
		if (cpuset_has(s, c))
			return c;
	return -1;
}

/*
 * Where the reader and the writer run: the first CPU of a set for the
 * reader, the rest of it for the writer.  The set is where bench places
 * fio (--cpus, or the applied profile's I/O cores), else the CPUs of the
 * device's NUMA node (its PCI function's local_cpulist), else every
 * online CPU.  When the set holds the reader's CPU alone, the writer
 * takes the node's other CPUs, else the host's.
 */
static int qos_place(struct bench *b, struct lib_err *err)
{
	char node[1024] = "", online[1024] = "", p[PATH_MAX + 32];
	const char *lists[3], *from[3];
	struct cpuset s;
	int i, reader = -1;

	sys_read_opt("/sys/devices/system/cpu/online", online, sizeof(online));
	if (b->dev.pci_dir[0]) {
		snprintf(p, sizeof(p), "%s/local_cpulist", b->dev.pci_dir);
		sys_read_opt(p, node, sizeof(node));
	}
	lists[0] = b->cpus ? b->cpus : node[0] ? node : online;
	from[0] = b->cpus ? b->cpus_source : node[0] ? "node" : "online";
	lists[1] = node;
	from[1] = "node";
	lists[2] = online;
	from[2] = "online";
	b->qos_cpus_from = from[0];
	b->qos_writer_from = NULL;
	if (cpuset_init(&s, QOS_CPUS))
		return lib_enomem(err);
	for (i = 0; i < 3 && !b->qos_writer_from; i++) {
		if (cpus_of(lists[i], online, &s)) {
			if (!i)
				break;	/* no reader */
			continue;
		}
		if (i == 0) {
			reader = first_cpu(&s);
			if (reader < 0)
				break;
			snprintf(b->qos_reader_cpus, sizeof(b->qos_reader_cpus), "%d",
				 reader);
		}
		s.on[reader] = false;
		if (cpuset_count(&s)) {
			cpuset_format(&s, b->qos_writer_cpus, sizeof(b->qos_writer_cpus));
			b->qos_writer_from = from[i];
		}
	}
	cpuset_free(&s);
	if (reader < 0)
		return lib_errf(err, ENODEV, "bench --suite qos: no online CPU in '%s' (%s) to run the reader on",
				lists[0], from[0]);
	if (!b->qos_writer_from)
		return lib_errf(err, ENODEV, "bench --suite qos needs a CPU for the writer apart from the reader's (CPU %d), and this host has no other online",
				reader);
	return 0;
}

int bench_qos_place(struct bench *b, struct lib_err *err)
{
	return bench_suite_qos(b->set) ? qos_place(b, err) : 0;
}

/* The writer's rate at @pct % of the bandwidth (-1: not known yet). */
static long long qos_rate(const struct bench *b, int pct)
{
	long long r;

	if (!pct)
		return 0;
	if (b->qos_bw <= 0)
		return -1;
	r = llround(b->qos_bw * pct / 100.0);
	return r > 0 ? r : 1;
}

static struct bench_qos_job qos_job(const struct bench *b, int pct)
{
	return (struct bench_qos_job){
		.filename = b->dev.path, .ioengine = b->set->ioengine,
		.runtime_s = b->set->runtime, .reader_cpus = b->qos_reader_cpus,
		.writer_cpus = b->qos_writer_cpus, .rate = qos_rate(b, pct),
		.pct = pct,
	};
}

int bench_qos_job(const struct bench *b, const struct bench_cell *c,
		  char *buf, size_t len)
{
	struct bench_qos_job q = qos_job(b, c->qos_pct);

	return bench_qos_job_format(&q, c, buf, len);
}

/* What the report's and the dry run's "qos" share. */
static struct json_object *qos_json(const struct bench *b)
{
	const struct bench_cell *c = &b->cells[0];
	struct json_object *o = json_object_new_object(), *l = json_object_new_array();
	int i;

	for (i = 0; i < BENCH_QOS_LEVELS; i++)
		json_object_array_add(l, json_object_new_int(bench_qos_levels[i]));
	json_object_object_add(o, "writer", json_object_new_string(bench_qos_writer(c)));
	json_object_object_add(o, "trim", json_object_new_boolean(c->qos_trim));
	json_object_object_add(o, "levels_pct", l);
	json_object_object_add(o, "reader_cpus", json_object_new_string(b->qos_reader_cpus));
	json_object_object_add(o, "writer_cpus", json_object_new_string(b->qos_writer_cpus));
	json_object_object_add(o, "cpus_from", json_object_new_string(b->qos_cpus_from));
	json_object_object_add(o, "writer_cpus_from", json_object_new_string(b->qos_writer_from));
	bench_add_num(o, "bandwidth_mbps", b->qos_bw > 0 ? b->qos_bw / 1e6 : NAN);
	return o;
}

struct json_object *bench_qos_dry_run(struct bench *b)
{
	struct json_object *o;
	char job[2048];

	b->qos_bw = b->set->qos_bw_mbps * 1e6;
	o = qos_json(b);
	if (b->qos_bw > 0) {
		json_object_object_add(o, "bandwidth_job", NULL);
	} else {
		struct bench_qos_job q = qos_job(b, 100);

		bench_qos_bw_format(&q, &b->cells[0], job, sizeof(job));
		json_object_object_add(o, "bandwidth_job", json_object_new_string(job));
	}
	return o;
}

/* The writer alone at full rate: its write bandwidth into b->qos_bw,
 * the run as *@out. */
static int measure_bw(struct bench *b, const char *dir, struct json_object **out,
		      struct lib_err *err)
{
	struct bench_qos_job j = qos_job(b, 100);
	char job[2048], jobfile[PATH_MAX], raw[PATH_MAX], name[64], line[256];
	long long t0 = sys_now_ms();
	struct fio_figures f;
	struct json_object *m;
	int rc;

	if (b->hooks.stopped && b->hooks.stopped(b->hooks.ctx))
		return lib_errf(err, EINTR, "interrupted before the qos bandwidth run");
	snprintf(name, sizeof(name), "qos-%s-bw", bench_qos_writer(&b->cells[0]));
	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, name);
	snprintf(raw, sizeof(raw), "%s/raw/%s.json", dir, name);
	bench_qos_bw_format(&j, &b->cells[0], job, sizeof(job));
	rc = bench_write_text(jobfile, job);
	if (rc)
		return lib_errf(err, -rc, "cannot write %s", jobfile);
	rc = bench_fio_run("qos bandwidth", jobfile, raw, &f, err);
	if (rc)
		return rc;
	if (!f.write.ios || !(f.write.bw_bytes > 0))
		return lib_errf(err, EIO, "the qos writer alone wrote nothing (%s)", raw);
	b->qos_bw = f.write.bw_bytes;
	m = json_object_new_object();
	json_object_object_add(m, "job", json_object_new_string(jobfile));
	json_object_object_add(m, "raw", json_object_new_string(raw));
	bench_add_num(m, "mbps", f.write.bw_bytes / 1e6);
	bench_add_num(m, "iops", f.write.iops);
	bench_add_num(m, "seconds", (sys_now_ms() - t0) / 1000.0);
	*out = m;
	if (b->hooks.progress) {
		snprintf(line, sizeof(line), "bench: qos: the %s writer alone: %.1f MB/s",
			 bench_qos_writer(&b->cells[0]), b->qos_bw / 1e6);
		b->hooks.progress(b->hooks.ctx, line);
	}
	return 0;
}

int bench_qos_bandwidth(struct bench *b, const char *dir,
			struct json_object *rep, struct lib_err *err)
{
	struct json_object *q, *m = NULL;
	int rc = 0;

	b->qos_bw = b->set->qos_bw_mbps * 1e6;
	if (b->qos_bw <= 0)
		rc = measure_bw(b, dir, &m, err);
	q = qos_json(b);
	json_object_object_add(q, "bandwidth_source", json_object_new_string(
		b->set->qos_bw_mbps > 0 ? "option" : "measured"));
	json_object_object_add(q, "bandwidth", m);
	json_object_object_add(rep, "qos", q);
	return rc;
}

int bench_qos_round(const struct bench *b, const struct bench_cell *c,
		    const char *dir, const char *id, int round,
		    struct json_object **out, struct lib_err *err)
{
	char jobfile[PATH_MAX], raw[PATH_MAX], what[96];
	/* reader; writer; trim job */
	int n = !c->qos_pct ? 1 : c->qos_trim ? 3 : 2, rc;
	struct fio_figures f[3], all;
	struct host_sample a, s;
	struct json_object *r;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/%s.fio", dir, id);
	snprintf(raw, sizeof(raw), "%s/raw/%s-r%02d.json", dir, id, round + 1);
	snprintf(what, sizeof(what), "%s round %d", id, round + 1);
	host_sample(&b->dev, &a);
	rc = bench_fio_run_groups(what, jobfile, raw, n, f, &all, err);
	host_sample(&b->dev, &s);
	if (rc)
		return rc;
	if (!f[0].read.ios)
		return lib_errf(err, EIO, "the qos reader read nothing (%s)", raw);
	r = bench_round_json(b, &a, &s, &all, raw, round);
	if (c->qos_trim) {
		bool have = n == 3 && f[2].trim.ios > 0;

		bench_add_num(r, "trim_iops", have ? f[2].trim.iops : NAN);
		bench_add_num(r, "trim_mbps", have ? f[2].trim.bw_bytes / 1e6 : NAN);
		json_object_object_add(r, "trim_ios", json_object_new_int64(
			have ? f[2].trim.ios : 0));
	}
	*out = r;
	return 0;
}

struct json_object *bench_qos_cell_json(const struct bench *b,
					const struct bench_cell *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "level_pct", json_object_new_int(c->qos_pct));
	json_object_object_add(o, "writer", json_object_new_string(bench_qos_writer(c)));
	json_object_object_add(o, "trim", json_object_new_boolean(c->qos_trim));
	bench_add_num(o, "writer_target_mbps", b->qos_bw * c->qos_pct / 100 / 1e6);
	json_object_object_add(o, "reader_cpus", json_object_new_string(b->qos_reader_cpus));
	json_object_object_add(o, "writer_cpus", c->qos_pct ?
			       json_object_new_string(b->qos_writer_cpus) : NULL);
	return o;
}

void bench_qos_settle(const struct bench_cell *c, struct json_object *cell,
		      int first, int end)
{
	struct json_object *sum = bench_jget(cell, "summary");
	struct json_object *rounds = bench_jget(cell, "rounds");

	if (!c->qos_trim)
		return;
	json_object_object_add(sum, "trim_iops",
			       bench_stat_json(rounds, first, end - 1, "trim_iops", 0));
	json_object_object_add(sum, "trim_mbps",
			       bench_stat_json(rounds, first, end - 1, "trim_mbps", 0));
}

/* The reader's figures the curve gives, and the writer's. */
static const char *const curve_keys[] = {
	"read_iops", "read_clat_p50_us", "read_clat_p99_us",
	"read_clat_p99_9_us", "read_clat_p99_99_us", "write_mbps", "trim_mbps",
};

void bench_qos_curve(struct json_object *rep)
{
	struct json_object *a = json_object_new_array();
	size_t k;

	json_object_object_foreach(bench_jget(rep, "cells"), id, cell) {
		struct json_object *q = bench_jget(cell, "qos"), *row, *m;
		struct json_object *sum = bench_jget(cell, "summary");
		bool idle = bench_jnum(q, "level_pct") == 0;

		if (!q)
			continue;
		row = json_object_new_object();
		m = json_object_new_object();
		json_object_object_add(row, "cell", json_object_new_string(id));
		json_object_object_add(row, "level_pct", json_object_get(bench_jget(q, "level_pct")));
		json_object_object_add(row, "writer_target_mbps",
				       json_object_get(bench_jget(q, "writer_target_mbps")));
		for (k = 0; k < sizeof(curve_keys) / sizeof(curve_keys[0]); k++) {
			struct json_object *st = bench_jget(sum, curve_keys[k]);
			double v = bench_jnum(st, "median");

			/* no writer at 0%: it wrote (and trimmed) nothing */
			if (idle && !strncmp(curve_keys[k], "write", 5))
				v = 0;
			if (idle && !strncmp(curve_keys[k], "trim", 4) &&
			    json_object_get_boolean(bench_jget(q, "trim")))
				v = 0;
			bench_add_num(row, curve_keys[k], v);
			if (bench_jget(st, "meaningful"))
				json_object_object_add(m, curve_keys[k], json_object_get(
					bench_jget(st, "meaningful")));
		}
		json_object_object_add(row, "meaningful", m);
		json_object_array_add(a, row);
	}
	json_object_object_add(bench_jget(rep, "qos"), "curve", a);
}
