/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune bench: the fio side, as pure functions.  The job file of one
 * cell (or of the precondition fill) as text, and the figures of one run
 * read from fio's --output-format=json (json-c; no file or process here).
 */
#ifndef SSDTUNE_BENCH_FIO_H
#define SSDTUNE_BENCH_FIO_H

#include <stdbool.h>
#include <stddef.h>

#define FIO_MIN_VERSION 3026	/* 3.26: unified_rw_reporting=mixed */

/* One point of the matrix. */
struct bench_cell {
	int read_pct;		/* 100 = read only, 0 = write only */
	bool random;
	long bs;		/* bytes */
	int threads;		/* fio numjobs */
	int depth;		/* fio iodepth */
};

/* "randread-4k-t1q32", "seq-70r-128k-t4q32" (a stable key for compare). */
char *bench_cell_id(const struct bench_cell *c, char *buf, size_t len);
/* "4k random read QD1x32", "128k seq 70/30 QD4x32". */
char *bench_cell_label(const struct bench_cell *c, char *buf, size_t len);

struct bench_job {
	const char *filename;	/* the device */
	const char *ioengine;	/* libaio, io_uring */
	int runtime_s;
	const char *cpus;	/* cpus_allowed, or NULL */
};

/* The fio job file of one round of @c.  Returns the length written (or
 * that would have been, like snprintf). */
int bench_job_format(const struct bench_job *j, const struct bench_cell *c,
		     char *buf, size_t len);
/* The workload-independent precondition: sequential 128 KiB writes over
 * the whole device, twice. */
int bench_precondition_format(const struct bench_job *j, char *buf,
			      size_t len);

/* What one fio run measured (all the jobs of the group together). */
struct fio_figures {
	double iops;
	double bw_bytes;	/* bytes per second */
	double clat_mean_us;
	double clat_p50_us, clat_p99_us, clat_p99_9_us, clat_p99_99_us;
	long long ios;		/* I/Os completed */
	double runtime_s;
	char version[32];	/* "fio-3.33" */
};

/*
 * Read @json (fio's JSON output of one group-reported job) into @f.
 * Uses the "mixed" direction if present (unified_rw_reporting=mixed),
 * else adds "read", "write" and "trim".  0, or -1 with the reason in @err.
 */
int fio_parse(const char *json, struct fio_figures *f, char *err,
	      size_t errlen);

#endif
