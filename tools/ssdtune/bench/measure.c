// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: a measurement.  Open settles the device, the temperature
 * threshold and the cells; a run places fio, records the method, the
 * device and the host, then purge -> precondition -> every cell, and
 * writes the report files; a dry run says what a run would do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/stats.h"
#include "lib/state.h"
#include "lib/trust.h"
#include "lib/tune.h"
#include "uapi/linux/ssdtune.h"

/*
 * The temperature that marks a round suspect: --temp-warn, else the
 * drive's own warning threshold (ssdtune: temperature_warn_mc, Identify
 * WCTEMP), else 70 C.
 */
#define TEMP_WARN_DEFAULT_MC	70000LL

static void settle_temp_warn(struct bench *b)
{
	b->temp_warn_mc = TEMP_WARN_DEFAULT_MC;
	b->temp_warn_source = "default";
	if (b->set->temp_warn_c) {
		b->temp_warn_mc = b->set->temp_warn_c * 1000LL;
		b->temp_warn_source = "option";
	} else if (b->dev.have_temp_warn && b->dev.temp_warn_mc > 0) {
		b->temp_warn_mc = b->dev.temp_warn_mc;
		b->temp_warn_source = "device";
	}
}

int bench_open(struct bench *b, const struct bench_settings *s,
	       const struct bench_hooks *h, const char *device,
	       struct lib_err *err)
{
	return bench_open_many(b, s, h, &device, device ? 1 : 0, err);
}

int bench_open_many(struct bench *b, const struct bench_settings *s,
		    const struct bench_hooks *h, const char *const *devices,
		    int n, struct lib_err *err)
{
	int rc, i, k;

	memset(b, 0, sizeof(*b));
	b->set = s;
	if (h)
		b->hooks = *h;
	b->cpus_source = "none";
	if (n > BENCH_MAX_DEVS)
		return lib_errf(err, EINVAL, "bench: more than %d devices",
				BENCH_MAX_DEVS);
	b->ndevs = n ? n : 1;
	b->devs = calloc(b->ndevs, sizeof(*b->devs));
	if (!b->devs)
		return lib_enomem(err);
	for (i = 0; i < b->ndevs; i++) {
		rc = bench_dev_resolve(n ? devices[i] : NULL, &b->devs[i], err);
		if (rc)
			return rc;
		for (k = 0; k < i; k++)
			if (!strcmp(b->devs[k].sysdir, b->devs[i].sysdir))
				return lib_errf(err, EINVAL, "bench: %s is given twice",
						b->devs[i].name);
	}
	b->dev = b->devs[0];
	settle_temp_warn(b);
	b->ncells = bench_cells(s, &b->cells);
	if (b->ncells < 0)
		return lib_enomem(err);
	return 0;
}

void bench_close(struct bench *b)
{
	free(b->cells);
	b->cells = NULL;
	free(b->devs);
	b->devs = NULL;
}

/*
 * Where fio runs: --cpus, else the I/O cores the applied profile plans for
 * the device (ssdtune apply's saved state), else wherever the scheduler
 * puts it.  Settled before each run: --ab's baseline runs unplaced and its
 * tuned run on the profile's cores.
 */
static int place_devs(struct bench *b, const char *dir, struct lib_err *err)
{
	char prof[32];
	int i, r;

	b->cpus = b->set->cpus;
	b->cpus_source = b->set->cpus ? "option" : "none";
	for (i = 0; i < b->ndevs; i++) {
		struct bench_dev *d = &b->devs[i];

		snprintf(d->cpus, sizeof(d->cpus), "%s", b->set->cpus ? b->set->cpus : "");
		d->cpus_source = b->set->cpus ? "option" : "none";
		if (b->set->cpus || !d->bdf[0])
			continue;
		r = tune_applied_io_cpus(dir ? dir : STATE_DIR_DEFAULT, d->bdf,
					 d->cpus, sizeof(d->cpus), prof,
					 sizeof(prof), err);
		if (r == -ENOENT) {
			d->cpus[0] = '\0';
			continue;
		}
		if (r)
			return r;
		if (d->cpus[0]) {
			d->cpus_source = "plan";
			b->cpus_source = "plan";
			snprintf(b->plan_profile, sizeof(b->plan_profile), "%s", prof);
		}
	}
	return 0;
}

static int place_fio(struct bench *b, struct lib_err *err)
{
	const char *dir = b->ab_state_dir ? b->ab_state_dir : b->set->state_dir;
	int r;

	if (b->ndevs > 1)
		return place_devs(b, dir, err);
	b->cpus = b->set->cpus;
	b->cpus_source = b->set->cpus ? "option" : "none";
	if (b->set->cpus || !b->dev.bdf[0])
		return 0;
	r = tune_applied_io_cpus(dir ? dir : STATE_DIR_DEFAULT, b->dev.bdf,
				 b->plan_cpus, sizeof(b->plan_cpus),
				 b->plan_profile, sizeof(b->plan_profile), err);
	if (r == -ENOENT)
		return 0;
	if (r)
		return r;
	if (b->plan_cpus[0]) {
		b->cpus = b->plan_cpus;
		b->cpus_source = "plan";
	}
	return 0;
}

/* fio's CPUs, and with --suite qos the reader's and the writer's apart. */
static int place(struct bench *b, struct lib_err *err)
{
	int r = place_fio(b, err);

	return r ? r : bench_qos_place(b, err);
}

static struct json_object *method_json(const struct bench *b)
{
	const struct bench_settings *o = b->set;
	struct json_object *m = json_object_new_object();

	json_object_object_add(m, "suite", json_object_new_string(
		o->suite ? o->suite : "quick"));
	json_object_object_add(m, "fio", json_object_new_string(b->fio_version));
	json_object_object_add(m, "ioengine", json_object_new_string(o->ioengine));
	json_object_object_add(m, "runtime_s", json_object_new_int(o->runtime));
	json_object_object_add(m, "rounds", json_object_new_int(o->rounds));
	json_object_object_add(m, "steady_state", json_object_new_boolean(o->steady));
	json_object_object_add(m, "max_rounds", json_object_new_int(
		o->steady ? SS_MAX_ROUNDS : o->rounds));
	json_object_object_add(m, "cpus", b->cpus ? json_object_new_string(b->cpus) : NULL);
	json_object_object_add(m, "cpus_source", json_object_new_string(b->cpus_source));
	json_object_object_add(m, "cpus_profile", strcmp(b->cpus_source, "plan") ? NULL :
			       json_object_new_string(b->plan_profile));
	json_object_object_add(m, "temp_warn_c",
			       json_object_new_double(b->temp_warn_mc / 1000.0));
	json_object_object_add(m, "temp_warn_source",
			       json_object_new_string(b->temp_warn_source));
	json_object_object_add(m, "destroy_data", json_object_new_boolean(o->destroy));
	if (b->ndevs > 1) {
		json_object_object_add(m, "devices", json_object_new_int(b->ndevs));
		json_object_object_add(m, "scale", json_object_new_boolean(o->scale));
	}
	return m;
}

struct json_object *bench_device_json(const struct bench_dev *d)
{
	struct json_object *v = json_object_new_object();

	json_object_object_add(v, "name", json_object_new_string(d->name));
	json_object_object_add(v, "path", json_object_new_string(d->path));
	json_object_object_add(v, "controller", d->ctrl[0] ?
			       json_object_new_string(d->ctrl) : NULL);
	json_object_object_add(v, "pci_address", d->bdf[0] ?
			       json_object_new_string(d->bdf) : NULL);
	json_object_object_add(v, "driver", d->driver[0] ?
			       json_object_new_string(d->driver) : NULL);
	json_object_object_add(v, "irqs", json_object_new_int(d->nirqs));
	return v;
}

/* Several devices: each with where its job ran. */
static struct json_object *devices_json(const struct bench *b)
{
	struct json_object *a = json_object_new_array(), *v;
	int i;

	for (i = 0; i < b->ndevs; i++) {
		v = bench_device_json(&b->devs[i]);
		json_object_object_add(v, "cpus", b->devs[i].cpus[0] ?
				       json_object_new_string(b->devs[i].cpus) : NULL);
		json_object_object_add(v, "cpus_source",
				       json_object_new_string(b->devs[i].cpus_source));
		json_object_array_add(a, v);
	}
	return a;
}

void bench_timestamp(char *buf, size_t len, const char *fmt)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, fmt, &tm);
}

/* @path and the directories above it; the last one 0700. */
static int mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * The output directory @dir and its raw/ and jobs/, made where missing,
 * each root's and writable by nobody else (lib/trust.h): fio reads its
 * job files from jobs/, and a job file runs what its exec_prerun= says.
 */
static int output_dirs(const char *dir, struct lib_err *err)
{
	static const char *const subs[] = { "", "/raw", "/jobs" };
	char p[PATH_MAX];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", dir, subs[i]);
		rc = mkdirs(p);
		if (rc)
			return lib_errf(err, -rc, "cannot create %s: %s", p, strerror(-rc));
		rc = trust_dir_open(p, "bench output directory", err);
		if (rc < 0)
			return rc;
		close(rc);
	}
	return 0;
}

int bench_run(struct bench *b, const char *dir, struct json_object **out,
	      struct lib_err *err)
{
	const struct bench_settings *o = b->set;
	struct json_object *rep = json_object_new_object(), *cj;
	const char *cpus = b->cpus;
	char when[32];
	int i, rc;

	*out = rep;
	rc = place(b, err);
	if (rc)
		return rc;
	cpus = b->cpus;
	rc = output_dirs(dir, err);
	if (rc)
		return rc;
	bench_timestamp(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ");
	json_object_object_add(rep, "command", json_object_new_string("bench"));
	json_object_object_add(rep, "version", json_object_new_string(SSDTUNE_VERSION));
	json_object_object_add(rep, "started", json_object_new_string(when));
	json_object_object_add(rep, "device", bench_device_json(&b->dev));
	if (b->ndevs > 1)
		json_object_object_add(rep, "devices", devices_json(b));
	/* several devices: the host as the first one's job sees it */
	if (b->ndevs > 1)
		cpus = b->devs[0].cpus[0] ? b->devs[0].cpus : NULL;
	/* qos: as the reader sees it */
	if (bench_suite_qos(o))
		cpus = b->qos_reader_cpus;
	json_object_object_add(rep, "host", host_state(&b->dev, cpus));
	json_object_object_add(rep, "method", method_json(b));
	json_object_object_add(rep, "purge", json_object_new_string("none"));
	json_object_object_add(rep, "purge_note", NULL);
	json_object_object_add(rep, "precondition", NULL);
	if (o->purge && (rc = bench_purge(b, dir, rep, err)))
		return rc;
	if (o->precondition && (rc = bench_precondition(b, dir, rep, err)))
		return rc;
	if (bench_suite_qos(o) && (rc = bench_qos_bandwidth(b, dir, rep, err)))
		return rc;
	cj = json_object_new_object();
	json_object_object_add(rep, "cells", cj);
	for (i = 0; i < b->ncells; i++)
		if ((rc = bench_cell_run(b, &b->cells[i], dir, cj, err)))
			return rc;
	if (bench_suite_qos(o))
		bench_qos_curve(rep);
	return bench_write_report(rep, dir, err);
}

void bench_job_entry(struct json_object *jobs, const char *cell,
		     const char *job)
{
	struct json_object *x = json_object_new_object();

	json_object_object_add(x, "cell", json_object_new_string(cell));
	json_object_object_add(x, "job", json_object_new_string(job));
	json_object_array_add(jobs, x);
}

int bench_dry_run(struct bench *b, struct json_object *out,
		  struct lib_err *err)
{
	const struct bench_settings *o = b->set;
	struct bench_job j = { b->dev.path, o->ioengine, o->runtime, NULL };
	struct json_object *jobs;
	char job[4096], id[64];
	int i, r;

	r = place(b, err);
	if (r)
		return r;
	j.cpus = b->cpus;
	jobs = json_object_new_array();
	json_object_object_add(out, "cpus_source",
			       json_object_new_string(b->cpus_source));
	if (b->cpus)
		json_object_object_add(out, "cpus", json_object_new_string(b->cpus));
	if (o->purge)
		json_object_object_add(out, "purge",
				       json_object_new_string("format, else blkdiscard"));
	if (o->precondition) {
		bench_precondition_format(&j, job, sizeof(job));
		json_object_object_add(out, "precondition", json_object_new_string(job));
	}
	if (b->ndevs > 1)
		return bench_multi_dry_run(b, out, jobs);
	if (bench_suite_qos(o))
		json_object_object_add(out, "qos", bench_qos_dry_run(b));
	for (i = 0; i < b->ncells; i++) {
		if (b->cells[i].qos)
			bench_qos_job(b, &b->cells[i], job, sizeof(job));
		else
			bench_job_format(&j, &b->cells[i], job, sizeof(job));
		bench_cell_id(&b->cells[i], id, sizeof(id));
		bench_job_entry(jobs, id, job);
	}
	json_object_object_add(out, "jobs", jobs);
	return 0;
}
