/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune bench: what the engine's files share (not for cmd/).
 *   measure.c a measurement: open, placement, report assembly, dry run
 *   matrix.c  suites and the cells of the matrix (pure)
 *   prep.c    safety checks, purge, precondition
 *   cell.c    one cell: rounds, steady state, summary
 *   round.c   one fio run with the host sampled around it
 *   qos.c     --suite qos: CPUs apart, bandwidth, rounds, the curve
 *   ab.c      --ab: baseline, apply, tuned run, revert, compare
 *   host.c    the device, the host's state, subprocesses
 *   render.c  the report as files: JSON, CSV, table, PNGs
 *   render_qos.c  --suite qos's table, qos.csv and curve PNG
 *   compare.c two reports' delta table
 *   quick.c   one quick figure outside a measurement (qualify)
 */
#ifndef SSDTUNE_BENCH_ENGINE_H
#define SSDTUNE_BENCH_ENGINE_H

#include "bench/bench.h"
#include "bench/fio.h"
#include "lib/sysfs.h"

/* host.c: resolve the device (see bench_open() for the errors). */
int bench_dev_resolve(const char *arg, struct bench_dev *d,
		      struct lib_err *err);

/* host.c: counters read before and after every round. */
struct host_sample {
	unsigned long long cpu_busy, cpu_total;	/* /proc/stat ticks */
	unsigned long long irqs;		/* the device's vectors */
	bool have_irqs;
	long long temp_mc;			/* ssdtune: temperature_mc */
	bool have_temp;
	long long throttle_events;
	bool have_throttle;
	long long power_mw;			/* power_estimate_mw */
	bool have_power;
};
void host_sample(const struct bench_dev *d, struct host_sample *s);

/* host.c: the host's tuning state (governor, EPP, turbo, cpuidle, IRQ
 * affinity, scheduler, kernel, driver), and an ssdtune controller's
 * settings (NULL for other devices). */
/* The host as it bears on the result, read on the first CPU of @cpus
 * (where the load runs; NULL: cpu0). */
struct json_object *host_state(const struct bench_dev *d, const char *cpus);
struct json_object *ssdt_settings(const struct bench_dev *d);

/* Subprocesses: sys_spawn() and sys_have() (lib/sysfs.h). */
/* host.c: the first line of file @path into @buf ("" if none). */
void bench_first_line(const char *path, char *buf, size_t len);

/* matrix.c: the cells of @s (calloc'd; -1 if out of memory), and whether
 * a run of them writes to the device. */
int bench_cells(const struct bench_settings *s, struct bench_cell **cells);
bool bench_writes_data(const struct bench_settings *s,
		       const struct bench_cell *cells, int n);

/* prep.c: the steps before the cells, recorded in @rep. */
int bench_purge(const struct bench *b, const char *dir,
		struct json_object *rep, struct lib_err *err);
int bench_precondition(const struct bench *b, const char *dir,
		       struct json_object *rep, struct lib_err *err);

/* cell.c: every round of @c, as @cells' member named by its id. */
int bench_cell_run(const struct bench *b, const struct bench_cell *c,
		   const char *dir, struct json_object *cells,
		   struct lib_err *err);
/* cell.c: what the cell is; PTS's tracking variable of a round; the
 * steady-state verdict of @v[0..n-1]; median/min/max of @key over rounds
 * [first, last] (and whether percentile @pct is meaningful there, if
 * @pct > 0); and of every metric. */
struct json_object *bench_cell_json(const struct bench *b,
				    const struct bench_cell *c,
				    const char *jobfile);
double bench_tracking(const struct bench_settings *o,
		      struct json_object *round);
struct json_object *bench_steady_json(const struct bench_settings *o,
				      const double *v, int n);
struct json_object *bench_stat_json(struct json_object *rounds, int first,
				    int last, const char *key, double pct);
struct json_object *bench_summary_json(struct json_object *rounds, int first,
				       int last);
/* cell.c: after the rounds (@v their tracking values), into @into:
 * "steady_state" (returned), "summary_rounds" and "summary" over rounds
 * [*first, *end) (the steady-state window if reached, else all). */
struct json_object *bench_settle(const struct bench_settings *o,
				 const double *v, int n,
				 struct json_object *rounds,
				 struct json_object *into, int *first, int *end);

/* multi.c: a cell on every device at once (with --scale on 1, 2, .. N of
 * them in turn), as bench_cell_run(); and the dry run's jobs of all
 * cells into @jobs (then put in @out). */
int bench_multi_cell_run(const struct bench *b, const struct bench_cell *c,
			 const char *dir, struct json_object *cells,
			 struct lib_err *err);
int bench_multi_dry_run(const struct bench *b, struct json_object *out,
			struct json_object *jobs);
/* qos.c (--suite qos): the reader's and the writer's CPUs (nothing for
 * other suites); qos cell @c's job file; the bandwidth its levels are
 * shares of, measured or --qos-bw, as @rep's "qos"; one round; the
 * cell's "qos"; its trim figures' summary over rounds [first, end); the
 * curve into @rep's "qos" from its cells; the dry run's "qos". */
int bench_qos_place(struct bench *b, struct lib_err *err);
int bench_qos_job(const struct bench *b, const struct bench_cell *c,
		  char *buf, size_t len);
int bench_qos_bandwidth(struct bench *b, const char *dir,
			struct json_object *rep, struct lib_err *err);
int bench_qos_round(const struct bench *b, const struct bench_cell *c,
		    const char *dir, const char *id, int round,
		    struct json_object **out, struct lib_err *err);
struct json_object *bench_qos_cell_json(const struct bench *b,
					const struct bench_cell *c);
void bench_qos_settle(const struct bench_cell *c, struct json_object *cell,
		      int first, int end);
void bench_qos_curve(struct json_object *rep);
struct json_object *bench_qos_dry_run(struct bench *b);
/* measure.c: a device as the report's "device" gives it. */
struct json_object *bench_device_json(const struct bench_dev *d);

/* round.c: fio on @jobfile, its JSON to @raw, read into @f (@what names
 * the run in errors); one round of cell @id into @out. */
int bench_fio_run(const char *what, const char *jobfile, const char *raw,
		  struct fio_figures *f, struct lib_err *err);
int bench_round(const struct bench *b, const char *dir, const char *id,
		int round, struct json_object **out, struct lib_err *err);
/* round.c: a round's JSON from fio's figures @f and the host's samples
 * before (@a) and after (@s) it. */
struct json_object *bench_round_json(const struct bench *b,
				     const struct host_sample *a,
				     const struct host_sample *s,
				     const struct fio_figures *f,
				     const char *raw, int round);
/* round.c: the same with --output-format=json+ for @n devices at once
 * (fio_parse_groups()). */
int bench_fio_run_groups(const char *what, const char *jobfile,
			 const char *raw, int n, struct fio_figures *dev,
			 struct fio_figures *all, struct lib_err *err);
/* round.c: why a round between samples @a and @s is suspect, or "". */
void bench_suspect_reason(const struct bench *b, const struct host_sample *a,
			  const struct host_sample *s, char *why, size_t len);
/* round.c: @text as file @path; 0 or -errno. */
int bench_write_text(const char *path, const char *text);
/* round.c: @d's figures into @r as PREFIXiops, PREFIXmbps,
 * PREFIXclat_mean_us, PREFIXclat_p50_us .. PREFIXclat_p99_9999_us,
 * PREFIXclat_max_us (null where fio gave none) and, for a prefix,
 * PREFIXios; into @meaningful
 * each percentile's key, true when the round's samples meet
 * bench_pct_meaningful(). */
void bench_dir_json(struct json_object *r, struct json_object *meaningful,
		    const char *prefix, const struct fio_dir *d);
/* round.c: the end of a round's JSON @r: whether it is suspect (@why,
 * "" if not) and why, its @raw file, @f's reads and writes apart, and
 * @mean, which percentiles mean something. */
void bench_round_tail(struct json_object *r, struct json_object *mean,
		      const char *why, const char *raw,
		      const struct fio_figures *f);
/* measure.c: a dry run's entry {cell, job} appended to @jobs. */
void bench_job_entry(struct json_object *jobs, const char *cell,
		     const char *job);
/* @v as @key, null if NaN. */
void bench_add_num(struct json_object *o, const char *key, double v);

/* render.c: per-round figures, in report order: the key in JSON and CSV,
 * the column head, whether more is better (for compare), and which
 * percentile it is. */
struct bench_metric {
	const char *key;
	const char *head;
	bool higher_is_better;
	double pct;	/* a latency percentile (99.9): its summary says
			 * whether it is meaningful; else 0 */
};
extern const struct bench_metric bench_metrics[];
extern const int bench_nmetrics;
/* the first bench_nmetrics_base: the CSV's columns before temperature_c;
 * then up to bench_nmetrics_tail after steady_state, and the rest after
 * write_meaningful_pct, so that older columns keep their place */
extern const int bench_nmetrics_base;
extern const int bench_nmetrics_tail;

/* render.c: @v as CSV (%.6g, nothing if NaN) and @sep; ",99.9", the
 * highest percentile of direction @prefix that round @r holds enough
 * samples for (",": none); a latency in a table column ("-" if none, '*'
 * after it when @ok is there and false; true if marked). */
void bench_put_num(FILE *f, double v, const char *sep);
/* render.c: @v through @fmt in a table column, "-" if NaN. */
void bench_col_num(FILE *f, const char *fmt, double v);
void bench_put_meaningful(FILE *f, struct json_object *r, const char *prefix);
bool bench_marked_num(FILE *f, double v, struct json_object *ok);
/* render_qos.c: --suite qos's table (true if a value is marked), its
 * qos.csv (0 or -errno), and its curve's PNG (gnuplot commands into @gp,
 * the PNG's name into @files; 0 or -errno). */
bool bench_qos_table(struct json_object *rep, FILE *f);
int bench_qos_csv(struct json_object *rep, const char *path);
int bench_qos_plot(struct json_object *rep, const char *dir, FILE *gp,
		   struct json_object *files);

/* render.c: @rep's "files", then bench.csv, bench.txt, the PNGs (what
 * gnuplot could not make is said in "plots_skipped") and bench.json in
 * @dir. */
int bench_write_report(struct json_object *rep, const char *dir,
		       struct lib_err *err);

#endif
