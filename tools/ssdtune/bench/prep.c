// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: before the cells.  The checks that come before anything
 * runs (destructive steps need --destroy-data and a controller nothing
 * uses; fio must be new enough), then purge and precondition, each
 * recorded in the report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/engine.h"
#include "bench/stats.h"
#include "lib/blkdev.h"
#include "lib/format.h"
#include "lib/sysfs.h"

/* Destructive steps: the flag, and nothing of @d's controller in use. */
static int check_safe(const struct bench *b, const struct bench_dev *d,
		      struct lib_err *err)
{
	const struct bench_settings *o = b->set;
	struct blklist l;
	char why[512], dir[PATH_MAX];
	int r;

	if (!bench_writes_data(o, b->cells, b->ncells))
		return 0;
	if (!o->destroy)
		return lib_errf(err, EPERM,
				"refusing to write to %s (%s): bench destroys its data only with --destroy-data",
				d->name, o->purge ? "purge" :
				o->precondition ? "precondition" :
				bench_suite_qos(o) ? "qos writer" : "write workload");
	snprintf(dir, sizeof(dir), "%s", d->pci_dir[0] ? d->pci_dir : d->sysdir);
	if (!d->pci_dir[0])
		*strrchr(dir, '/') = '\0';
	r = blk_collect(dir, d->ctrl[0] ? d->ctrl : NULL, &l);
	if (r)
		return lib_errf(err, -r, "cannot list the block devices of %s: %s",
				d->name, strerror(-r));
	r = blk_busy(&l, why, sizeof(why), false);
	blk_free(&l);
	if (r < 0)
		return lib_errf(err, -r, "cannot check whether %s is in use: %s",
				d->name, strerror(-r));
	if (r)
		return lib_errf(err, EBUSY, "refusing to write to %s: %s",
				d->name, why);
	return 0;
}

static int check_fio(char *version, size_t len, struct lib_err *err)
{
	char *argv[] = { "fio", "--version", NULL };
	char tmp[] = "/tmp/ssdtune-fio-XXXXXX";
	int fd, v, rc;

	if (!sys_have("fio"))
		return lib_errf(err, ENOENT, "fio is not installed (bench uses fio as its load generator; apt-get install fio)");
	fd = mkstemp(tmp);
	if (fd < 0)
		return lib_errf(err, errno, "cannot create a temporary file: %s",
				strerror(errno));
	close(fd);
	rc = sys_spawn(argv, tmp, NULL);
	bench_first_line(tmp, version, len);
	unlink(tmp);
	v = bench_fio_version(version);
	if (rc || v < 0)
		return lib_errf(err, EIO, "fio --version did not name a fio version ('%s')",
				version);
	if (v < FIO_MIN_VERSION)
		return lib_errf(err, ENOTSUP, "%s is too old: bench needs fio 3.26 or newer",
				version);
	return 0;
}

int bench_check(struct bench *b, struct lib_err *err)
{
	int i, rc = 0;

	for (i = 0; i < b->ndevs && !rc; i++)
		rc = check_safe(b, &b->devs[i], err);
	return rc ? rc : check_fio(b->fio_version, sizeof(b->fio_version), err);
}

/*
 * Purge: NVMe Format NVM with user data erase where the controller and
 * its driver allow it, else blkdiscard.  The report's "purge" says which
 * ran and "purge_note" why Format did not.
 */
int bench_purge(const struct bench *b, const char *dir,
		struct json_object *rep, struct lib_err *err)
{
	const struct bench_dev *d = &b->dev;
	char *argv[] = { "blkdiscard", "-f", (char *)d->path, NULL };
	char path[PATH_MAX], line[256], why[512];
	int rc;

	rc = format_namespace(d->driver, d->ctrl, d->name, d->path, why,
			      sizeof(why));
	json_object_object_add(rep, "purge_note", rc == FORMAT_DONE ? NULL :
			       json_object_new_string(why));
	if (rc == FORMAT_DONE) {
		json_object_object_add(rep, "purge", json_object_new_string("format"));
		return 0;
	}
	if (!sys_have("blkdiscard"))
		return lib_errf(err, ENOENT, "purge needs blkdiscard (util-linux), which is not installed (Format NVM: %s)",
				why);
	snprintf(path, sizeof(path), "%s/raw/purge.err", dir);
	rc = sys_spawn(argv, NULL, path);
	bench_first_line(path, line, sizeof(line));
	if (rc)
		return lib_errf(err, EIO, "purge of %s failed (blkdiscard exit %d)%s%s",
				d->path, rc, line[0] ? ": " : "", line);
	json_object_object_add(rep, "purge", json_object_new_string("blkdiscard"));
	return 0;
}

/* PTS's workload-independent precondition: the whole device, twice. */
int bench_precondition(const struct bench *b, const char *dir,
		       struct json_object *rep, struct lib_err *err)
{
	struct bench_job j = { b->dev.path, b->set->ioengine, 0, b->cpus };
	char job[2048], jobfile[PATH_MAX], raw[PATH_MAX];
	struct fio_figures f;
	long long t0 = sys_now_ms();
	struct json_object *p;
	int rc;

	snprintf(jobfile, sizeof(jobfile), "%s/jobs/precondition.fio", dir);
	snprintf(raw, sizeof(raw), "%s/raw/precondition.json", dir);
	bench_precondition_format(&j, job, sizeof(job));
	rc = bench_write_text(jobfile, job);
	if (rc)
		return lib_errf(err, -rc, "cannot write %s", jobfile);
	rc = bench_fio_run("precondition", jobfile, raw, &f, err);
	if (rc)
		return rc;
	p = json_object_new_object();
	json_object_object_add(p, "method", json_object_new_string(
		"sequential 128k writes, QD32, the whole device twice"));
	bench_add_num(p, "mbps", f.all.bw_bytes / 1e6);
	bench_add_num(p, "seconds", (sys_now_ms() - t0) / 1000.0);
	json_object_object_add(rep, "precondition", p);
	return 0;
}
