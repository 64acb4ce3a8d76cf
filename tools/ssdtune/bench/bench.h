/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune bench: measure with fio the way SSD vendors do (SNIA PTS).
 * The engine: it never prints to stdout or stderr and never exits.  It
 * writes the report files (bench.json, the source of truth, and CSV, table
 * and PNGs made from it) and runs fio, gnuplot, blkdiscard and ssdtune
 * itself; progress lines go to a hook of the caller, errors come back as
 * values (lib/error.h).  cmd/bench.c is the command.  See
 * Documentation/bench.md.
 */
#ifndef SSDTUNE_BENCH_H
#define SSDTUNE_BENCH_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "bench/fio.h"
#include "lib/error.h"

#define BENCH_MAX_IRQS	256
#define BENCH_MAX_LIST	16	/* values of --bs, --qd, --rw */
#define BENCH_MAX_DEVS	32	/* devices measured at once */

/* What the command line asks for; bench_apply_suite() fills the rest. */
struct bench_settings {
	long bs[BENCH_MAX_LIST];
	int nbs;
	int qd_threads[BENCH_MAX_LIST], qd_depth[BENCH_MAX_LIST];
	int nqd;
	int rw_read[BENCH_MAX_LIST], rw_random[BENCH_MAX_LIST];
	int nrw;
	int jobs;		/* 0: unset */
	int pattern;		/* -1 unset, 0 seq, 1 random */
	const char *ioengine;
	int runtime;		/* seconds, 0: unset */
	int rounds;		/* 0: unset */
	bool steady;		/* rounds until steady state (max 25) */
	bool purge, precondition, destroy;
	const char *suite;	/* NULL: quick */
	const char *cpus;	/* --cpus */
	const char *state_dir;	/* --state-dir, passed to apply and revert */
	int temp_warn_c;	/* --temp-warn, 0: not given */
	bool scale;		/* --scale: 1, 2, .. N of the devices in turn */
	/* --suite qos: the writer ("seq128k", "rand4k"; NULL: seq128k),
	 * a trim job beside it, and the bandwidth its levels are shares of
	 * (MB/s; 0: measured first) */
	const char *qos_writer;
	bool qos_trim;
	double qos_bw_mbps;
};

/* Fill what the command line left unset from the suite (quick, pts-*,
 * qos). */
void bench_apply_suite(struct bench_settings *s);
/* --suite qos: the writer's rates, % of the device's write bandwidth. */
#define BENCH_QOS_LEVELS 4
extern const int bench_qos_levels[BENCH_QOS_LEVELS];
bool bench_suite_qos(const struct bench_settings *s);

/* What the caller supplies; every hook may be NULL. */
struct bench_hooks {
	void *ctx;
	/* One line of progress ("bench: ID: N rounds, STATUS"), no '\n'. */
	void (*progress)(void *ctx, const char *line);
	/* Asked before each round: stop now (Ctrl-C)?  NULL: never. */
	bool (*stopped)(void *ctx);
};

/* The device under test. */
struct bench_dev {
	char name[NAME_MAX + 1];	/* "ssdt0n1" */
	char path[PATH_MAX];		/* "/dev/ssdt0n1" */
	char sysdir[PATH_MAX];		/* realpath of /sys/block/NAME */
	char ctrl[NAME_MAX + 1];	/* "ssdt0", "nvme0", "" */
	char ssdt_dir[PATH_MAX];	/* /sys/class/ssdtune/ssdtN or "" */
	char pci_dir[PATH_MAX];		/* the PCI function's sysfs dir or "" */
	char bdf[32];
	char driver[64];
	int irqs[BENCH_MAX_IRQS];	/* the controller's vectors */
	int nirqs;
	long long temp_warn_mc;		/* ssdtune: temperature_warn_mc */
	bool have_temp_warn;
	/* several devices at once: where its job runs ("": anywhere), and
	 * why ("none", "option", "plan") */
	char cpus[1024];
	const char *cpus_source;
};

/* One measurement: bench_open() fills it, the rest read it. */
struct bench {
	const struct bench_settings *set;
	struct bench_hooks hooks;
	struct bench_dev dev;
	/* bench DEV DEV ...: every device (devs[0] is @dev's twin); ndevs
	 * is 1 for one device, whose run and report stay as they were */
	struct bench_dev *devs;
	int ndevs;
	struct bench_cell *cells;	/* the matrix, in report order */
	int ncells;
	char fio_version[64];		/* bench_check(): "fio-3.33" */
	/* The temperature that marks a round suspect, and where it came
	 * from: "option", "device" or "default". */
	long long temp_warn_mc;
	const char *temp_warn_source;
	/* Where fio runs, settled before each run: NULL (anywhere), --cpus
	 * or the applied profile's I/O cores (lib/tune.h); source "none", "option" or
	 * "plan" (then @plan_profile names the profile). */
	const char *cpus, *cpus_source;
	char plan_cpus[1024], plan_profile[32];
	/* --ab's tuned run: the state directory its apply used */
	const char *ab_state_dir;
	/* --suite qos: the reader's CPU and the writer's, where each set
	 * came from ("option", "plan", "node", "online"), and the writer's
	 * full-rate bandwidth in bytes/s (0 until it is known) */
	char qos_reader_cpus[1024], qos_writer_cpus[1024];
	const char *qos_cpus_from, *qos_writer_from;
	double qos_bw;
};

/*
 * Resolve @device ("/dev/ssdt0n1" or "ssdt0n1"; NULL: the first ssdtune
 * disk), settle the temperature threshold and lay out the cells of @s.
 * 0, or -errno with @err filled: -EINVAL only when @device is not a
 * device name at all (a usage error).  bench_close() frees.
 */
int bench_open(struct bench *b, const struct bench_settings *s,
	       const struct bench_hooks *h, const char *device,
	       struct lib_err *err);
/* The same for @n devices (@devices[i] as for bench_open(); n 0: the
 * first ssdtune disk), measured at once; -EINVAL also for one named
 * twice. */
int bench_open_many(struct bench *b, const struct bench_settings *s,
		    const struct bench_hooks *h, const char *const *devices,
		    int n, struct lib_err *err);
void bench_close(struct bench *b);

/* Before anything runs: destructive steps only with --destroy-data and on
 * a controller nothing uses, and a fio that is new enough. */
int bench_check(struct bench *b, struct lib_err *err);

/* One whole measurement into @dir (report files included); the report in
 * @rep even on error (the caller puts it). */
int bench_run(struct bench *b, const char *dir, struct json_object **rep,
	      struct lib_err *err);

/* What a run would do, into @out: "cpus_source", "cpus", "purge",
 * "precondition", "qos" (suite qos) and "jobs" (one {"cell", "job"} per
 * cell). */
int bench_dry_run(struct bench *b, struct json_object *out,
		  struct lib_err *err);

/* --ab: can this ssdtune run apply and revert? */
int bench_ab_ready(const struct bench *b, struct lib_err *err);
/* Baseline into @base, 'ssdtune apply --profile @profile', the same into
 * @tuned, 'ssdtune revert', then the delta table as @out's "compare". */
int bench_ab(struct bench *b, const char *profile, const char *base,
	     const char *tuned, struct json_object *out, struct lib_err *err);

/*
 * One quick figure, no measurement (qualify): 4 KiB random reads at QD32
 * for @secs seconds over bytes [@off, @off + @len) of /dev/@disk; IOPS
 * into *@iops, the p99 completion latency into *@p99_us.  0, or -errno
 * with @err filled.  Reads only.
 */
int bench_quick_read(const char *disk, unsigned long long off,
		     unsigned long long len, int secs, double *iops,
		     double *p99_us, struct lib_err *err);

/* compare: the delta table of reports @a and @b into @out ("a", "b",
 * "settings", "rows"); 0 or -errno. */
int bench_compare_files(const char *a, const char *b, struct json_object *out,
			struct lib_err *err);
/* A compare's @out, and a report, as text into @f. */
void bench_print_compare(struct json_object *out, FILE *f);
void bench_print_table(struct json_object *report, FILE *f);

/* UTC now through strftime(@fmt). */
void bench_timestamp(char *buf, size_t len, const char *fmt);

/* json helpers */
struct json_object *bench_jget(struct json_object *o, const char *key);
double bench_jnum(struct json_object *o, const char *key);	/* NaN */
const char *bench_jstr(struct json_object *o, const char *key);	/* NULL */
struct json_object *bench_jdouble(double v);	/* NaN -> NULL (null) */

#endif
