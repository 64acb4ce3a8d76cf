// SPDX-License-Identifier: GPL-2.0
/* ssdtune bench: steady state, summaries, the compare rule, flag parsing. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stats.h"

bool ss_window_at(const double *v, int n, struct ss_window *w)
{
	const double *y;
	double sum = 0, min, max, sxy = 0, sxx = 0, xm;
	int i;

	if (n < SS_WINDOW)
		return false;
	y = v + n - SS_WINDOW;
	min = max = y[0];
	for (i = 0; i < SS_WINDOW; i++) {
		sum += y[i];
		min = fmin(min, y[i]);
		max = fmax(max, y[i]);
	}
	w->first = n - SS_WINDOW;
	w->last = n - 1;
	w->avg = sum / SS_WINDOW;
	w->excursion = max - min;
	xm = (SS_WINDOW - 1) / 2.0;
	for (i = 0; i < SS_WINDOW; i++) {
		sxy += (i - xm) * (y[i] - w->avg);
		sxx += (i - xm) * (i - xm);
	}
	w->slope = sxy / sxx;
	w->intercept = w->avg - w->slope * xm;
	w->slope_excursion = fabs(w->slope) * (SS_WINDOW - 1);
	w->steady = w->avg > 0 &&
		    w->excursion <= SS_DATA_LIMIT * w->avg &&
		    w->slope_excursion <= SS_SLOPE_LIMIT * w->avg;
	return true;
}

int ss_scan(const double *v, int n, struct ss_window *w)
{
	int end;

	if (n < SS_WINDOW)
		return -1;
	for (end = SS_WINDOW; end <= n; end++) {
		ss_window_at(v, end, w);
		if (w->steady)
			return 1;
	}
	return 0;
}

long long bench_pct_samples(double pct)
{
	/* in parts per million, so that 99.9999 gives exactly 10^7 */
	long long ppm = llround(pct * 10000), beyond = 1000000 - ppm;

	if (ppm <= 0 || beyond <= 0)
		return -1;
	return (BENCH_PCT_TAIL * 1000000LL + beyond - 1) / beyond;
}

bool bench_pct_meaningful(double pct, long long samples)
{
	long long need = bench_pct_samples(pct);

	return need > 0 && samples >= need;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stat3_of(const double *v, int n, struct stat3 *s)
{
	double *c;

	s->n = n;
	s->median = s->min = s->max = NAN;
	if (n <= 0)
		return;
	c = malloc(n * sizeof(*c));
	if (!c) {
		s->n = 0;
		return;
	}
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	s->min = c[0];
	s->max = c[n - 1];
	s->median = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
}

void cmp_metric(const struct stat3 *a, const struct stat3 *b,
		bool higher_is_better, struct cmp_result *r)
{
	double diff;

	r->delta_pct = NAN;
	r->spread = NAN;
	r->verdict = CMP_NA;
	if (a->n <= 0 || b->n <= 0 || isnan(a->median) || isnan(b->median))
		return;
	diff = b->median - a->median;
	if (a->median != 0)
		r->delta_pct = diff / fabs(a->median) * 100.0;
	r->spread = fmax(a->max - a->min, b->max - b->min);
	if (a->n < CMP_VERDICT_RUNS || b->n < CMP_VERDICT_RUNS)
		r->verdict = CMP_FEW_RUNS;
	else if (fabs(diff) <= r->spread)
		r->verdict = CMP_NOISE;
	else if (isnan(r->delta_pct))
		r->verdict = CMP_NA;
	else
		r->verdict = (diff > 0) == higher_is_better ? CMP_BETTER
							    : CMP_WORSE;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_BETTER:
		return "better";
	case CMP_WORSE:
		return "worse";
	case CMP_NOISE:
		return "within noise";
	case CMP_FEW_RUNS:
		return "too few runs";
	default:
		return "n/a";
	}
}

long bench_parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > (1ULL << 20))
		return -1;
	if (*end == 'k' || *end == 'K') {
		v <<= 10;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		v <<= 20;
		end++;
	}
	if (*end || v < 512 || v > (1UL << 20) || v % 512)
		return -1;
	return (long)v;
}

char *bench_format_size(long bytes, char *buf, size_t len)
{
	if (bytes >= (1L << 20) && !(bytes % (1L << 20)))
		snprintf(buf, len, "%ldm", bytes >> 20);
	else if (bytes >= 1024 && !(bytes % 1024))
		snprintf(buf, len, "%ldk", bytes >> 10);
	else
		snprintf(buf, len, "%ld", bytes);
	return buf;
}

static int parse_uint(const char *s, const char **end, int max)
{
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > max)
			return -1;
	}
	*end = s;
	return (int)v;
}

int bench_parse_rw(const char *s, int *read_pct, int *random)
{
	static const struct { const char *name; int pct, random; } names[] = {
		{ "read", 100, 0 }, { "write", 0, 0 },
		{ "randread", 100, 1 }, { "randwrite", 0, 1 },
	};
	const char *p;
	size_t i;
	int r, w;

	if (!s)
		return -1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			*read_pct = names[i].pct;
			*random = names[i].random;
			return 0;
		}
	}
	r = parse_uint(s, &p, 100);
	if (r < 0 || *p != '/')
		return -1;
	w = parse_uint(p + 1, &p, 100);
	if (w < 0 || *p || r + w != 100)
		return -1;
	*read_pct = r;
	*random = -1;
	return 0;
}

int bench_parse_qd(const char *s, int *threads, int *depth)
{
	const char *p;
	int a, b;

	if (!s)
		return -1;
	a = parse_uint(s, &p, 256);
	if (a < 1)
		return -1;
	if (!*p) {
		*threads = 0;
		*depth = a;
		return 0;
	}
	if (*p != 'x')
		return -1;
	b = parse_uint(p + 1, &p, 256);
	if (b < 1 || *p)
		return -1;
	*threads = a;
	*depth = b;
	return 0;
}

const char *bench_fio_rw(int read_pct, bool random)
{
	if (read_pct == 100)
		return random ? "randread" : "read";
	if (read_pct == 0)
		return random ? "randwrite" : "write";
	return random ? "randrw" : "rw";
}

int bench_fio_version(const char *s)
{
	const char *p;
	int maj, min;

	if (!s || strncmp(s, "fio-", 4))
		return -1;
	maj = parse_uint(s + 4, &p, 999);
	if (maj < 0 || *p != '.')
		return -1;
	min = parse_uint(p + 1, &p, 999);
	if (min < 0)
		return -1;
	return maj * 1000 + min;
}
