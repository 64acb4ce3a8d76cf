/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdtune bench: the pure arithmetic of a measurement.  The SNIA PTS
 * steady-state rule, median/min/max over repeated rounds, the compare rule
 * (delta %, and "within noise" when the difference is inside the runs'
 * spread), and the parsing of the matrix flags.  No I/O: tests/bench_unit.c
 * reaches every function directly.
 */
#ifndef SSDTUNE_BENCH_STATS_H
#define SSDTUNE_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* SNIA PTS: a window of 5 rounds, data excursion (max - min) within 20% of
 * the window average, excursion of the least-squares fit line across the
 * window within 10% of it; give up after 25 rounds. */
#define SS_WINDOW	5
#define SS_MAX_ROUNDS	25
#define SS_DATA_LIMIT	0.20
#define SS_SLOPE_LIMIT	0.10

struct ss_window {
	int first, last;	/* rounds (0-based) of the window */
	double avg;
	double excursion;	/* max - min */
	double slope;		/* least-squares, per round */
	double intercept;	/* fit line at round @first */
	double slope_excursion;	/* |slope| * (SS_WINDOW - 1) */
	bool steady;
};

/* The window of SS_WINDOW rounds ending at round @n - 1 of @v.
 * Returns false (and fills nothing) if @n < SS_WINDOW. */
bool ss_window_at(const double *v, int n, struct ss_window *w);

/*
 * The first window of @v[0..n-1] that meets the rule, in @w (steady =
 * true); else the last window evaluated (steady = false).  Returns 1 if
 * reached, 0 if not, -1 if @n < SS_WINDOW (nothing evaluated).
 */
int ss_scan(const double *v, int n, struct ss_window *w);

/* Median, min and max of @n values (n == 0: all NaN). */
struct stat3 {
	double median, min, max;
	int n;
};
void stat3_of(const double *v, int n, struct stat3 *s);

/* The compare rule. */
enum cmp_verdict {
	CMP_BETTER,
	CMP_WORSE,
	CMP_NOISE,	/* |B - A| (medians) <= the larger min..max spread */
	CMP_FEW_RUNS,	/* fewer than CMP_VERDICT_RUNS on either side */
	CMP_NA,		/* a value is missing, or A is 0 */
};
#define CMP_MIN_RUNS 3		/* rounds a bench cell needs at all */
/*
 * Rounds a side needs for better or worse: with 5 a side, every round of
 * one above every round of the other happens by chance once in 126 (two-
 * sided, the rounds exchangeable); with 3, once in 10, and the demo's
 * QD32 p99 was once called worse so.
 */
#define CMP_VERDICT_RUNS 5

struct cmp_result {
	double delta_pct;	/* (B - A) / A * 100; NaN if A is 0 */
	double spread;		/* max(A.max - A.min, B.max - B.min) */
	enum cmp_verdict verdict;
};
void cmp_metric(const struct stat3 *a, const struct stat3 *b,
		bool higher_is_better, struct cmp_result *r);
const char *cmp_verdict_name(enum cmp_verdict v);

/*
 * When a latency percentile of a round means something.  p needs 1/(1-p)
 * samples for one to lie beyond it; such a value is that one sample, and
 * the next round's differs by as much as the tail does.  The rule here:
 * BENCH_PCT_TAIL samples beyond it, so at least BENCH_PCT_TAIL / (1 - p)
 * (p50: 20, p99: 1000, p99.9: 10^4, p99.99: 10^5, p99.9999: 10^7).
 */
#define BENCH_PCT_TAIL 10
/* The samples percentile @pct (50, 99.9999) needs; -1 if @pct is not
 * below 100 and above 0. */
long long bench_pct_samples(double pct);
bool bench_pct_meaningful(double pct, long long samples);

/* "4k", "512", "128K", "1m", "4096" -> bytes; 512 B .. 1 MiB and a
 * multiple of 512, else -1. */
long bench_parse_size(const char *s);
/* 4096 -> "4k", 1048576 -> "1m", 512 -> "512". */
char *bench_format_size(long bytes, char *buf, size_t len);

/*
 * One --rw entry: "read", "write", "randread", "randwrite" or a mix
 * "R/W" with R + W = 100 ("70/30").  @read_pct gets R; @random gets 1
 * (rand*), 0 (plain read/write) or -1 (a mix: pattern from
 * --random/--seq).  0, or -1 if malformed.
 */
int bench_parse_rw(const char *s, int *read_pct, int *random);

/* One --qd entry: "32" (depth) or "4x32" (threads x depth); depth 1..256,
 * threads 1..256 (0 if not given).  0 or -1. */
int bench_parse_qd(const char *s, int *threads, int *depth);

/* fio's rw= for a mix: randread/randwrite/randrw or read/write/rw. */
const char *bench_fio_rw(int read_pct, bool random);

/* "fio-3.33" -> 3033 (major * 1000 + minor), -1 if not fio's format. */
int bench_fio_version(const char *s);

#endif
