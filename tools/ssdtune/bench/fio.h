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

#define FIO_MIN_VERSION 3026	/* 3.26: unified_rw_reporting=both */

/* One point of the matrix. */
struct bench_cell {
	int read_pct;		/* 100 = read only, 0 = write only */
	bool random;
	long bs;		/* bytes */
	int threads;		/* fio numjobs */
	int depth;		/* fio iodepth */
	/* --suite qos: a QD1 4k random reader (the fields above) beside a
	 * writer at @qos_pct % of the device's write bandwidth, random 4k
	 * writes if @qos_rand (else sequential 128k), with a trim job if
	 * @qos_trim */
	bool qos;
	int qos_pct;
	bool qos_rand, qos_trim;
};

/* The qos writer's I/O: random 4k or sequential 128k, QD32. */
#define QOS_WRITER_BS(rand)	((rand) ? 4096L : 131072L)
#define QOS_WRITER_DEPTH	32

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
/*
 * The fio job file of one round of @c on @n devices at once (@j[i]: the
 * i-th device and its CPUs; the engine and runtime are @j[0]'s): one job
 * section per device, each its own reporting group (new_group), named
 * "ID.DEVICE", all started together and ended by the same runtime.
 */
int bench_multi_job_format(const struct bench_job *j, int n,
			   const struct bench_cell *c, char *buf, size_t len);
/*
 * --suite qos.  One fio run per round of a cell: the reader in a reporting
 * group of its own on @reader_cpus; unless @rate is 0, the writer in the
 * second group on @writer_cpus capped at @rate bytes/s (rate=), and with
 * @trim a trim job in a third, trimming as fast (psync: trims are
 * synchronous in fio's engines anyway).  @rate -1: not known yet (a dry
 * run before the bandwidth is measured): the job says "@pct % of the
 * measured write bandwidth" where the number would be.
 */
struct bench_qos_job {
	const char *filename, *ioengine;
	int runtime_s;
	const char *reader_cpus, *writer_cpus;
	long long rate;
	int pct;
};
int bench_qos_job_format(const struct bench_qos_job *q,
			 const struct bench_cell *c, char *buf, size_t len);
/* The bandwidth the qos levels are shares of: @c's writer alone, at full
 * rate, on @q's writer CPUs. */
int bench_qos_bw_format(const struct bench_qos_job *q,
			const struct bench_cell *c, char *buf, size_t len);
/* "seq128k" or "rand4k": the writer of qos cell @c. */
const char *bench_qos_writer(const struct bench_cell *c);

/* The workload-independent precondition: sequential 128 KiB writes over
 * the whole device, twice. */
int bench_precondition_format(const struct bench_job *j, char *buf,
			      size_t len);

/*
 * The completion-latency percentiles every job asks fio for
 * (percentile_list), as fio's JSON names them ("99.999900") and as the
 * report does ("p99_9999": clat_p99_9999_us, read_clat_p99_9999_us).
 */
#define FIO_NPCT 5
extern const double fio_pcts[FIO_NPCT];		/* 50 .. 99.9999 */
extern const char *const fio_pct_names[FIO_NPCT];	/* "p50" .. "p99_9999" */

/* One direction of a run (reads, writes, or all together). */
struct fio_dir {
	double iops;
	double bw_bytes;	/* bytes per second */
	double clat_mean_us;
	double pct_us[FIO_NPCT];	/* NaN: not reported */
	double max_us;		/* the slowest completion; NaN: not reported */
	long long ios;		/* I/Os completed; 0: none this way */
	long long samples;	/* latency samples behind pct_us */
};

/* What one fio run measured (all the jobs of the group together). */
struct fio_figures {
	struct fio_dir all;		/* reads and writes together */
	struct fio_dir read, write;	/* apart (ios 0 where fio gave none) */
	struct fio_dir trim;		/* trims (fio's "trim"; ios 0: none) */
	double cpu_s;		/* fio's own user + system CPU seconds */
	double runtime_s;
	char version[32];	/* "fio-3.33" */
};

/*
 * Read @json (fio's JSON output of one group-reported job) into @f.
 * "all" is the "mixed" direction if present (unified_rw_reporting=mixed
 * or both), else "read", "write" and "trim" added up with the
 * percentiles of the busier one; "read" and "write" are fio's own where
 * it reports them apart (both).  0, or -1 with the reason in @err.
 */
int fio_parse(const char *json, struct fio_figures *f, char *err,
	      size_t errlen);

/*
 * fio's --output-format=json+ of a run with @n reporting groups (one per
 * device, in job-file order) into @dev[0..n-1], and all of them together
 * into @all: rates and I/Os added, means weighted by I/Os, percentiles of
 * the groups' latency histograms ("bins") merged, the way fio computes its
 * own (the first bin whose running count reaches p% of all).  0, or -1
 * with the reason in @err.
 */
int fio_parse_groups(const char *json, int n, struct fio_figures *dev,
		     struct fio_figures *all, char *err, size_t errlen);

#endif
