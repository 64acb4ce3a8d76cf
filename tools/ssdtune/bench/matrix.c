// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune bench: the matrix.  What each suite fills in when the command
 * line leaves it unset (Documentation/bench.md's table), and the cells:
 * every mix x block size x queue depth, in that order.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/engine.h"

const int bench_qos_levels[BENCH_QOS_LEVELS] = { 0, 25, 50, 100 };

bool bench_suite_qos(const struct bench_settings *o)
{
	return o->suite && !strcmp(o->suite, "qos");
}

void bench_apply_suite(struct bench_settings *o)
{
	static const long pts_bs[] = { 512, 4096, 8192, 16384, 32768, 65536,
				       131072, 1048576 };
	static const int pts_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
	const char *s = o->suite ? o->suite : "quick";
	bool pts = strncmp(s, "pts-", 4) == 0;
	int i;

	if (!o->nbs) {
		if (!strcmp(s, "pts-iops"))
			for (i = 0; i < 8; i++)
				o->bs[o->nbs++] = pts_bs[i];
		else if (!strcmp(s, "pts-throughput"))
			o->bs[o->nbs++] = 131072, o->bs[o->nbs++] = 1048576;
		else if (!strcmp(s, "pts-latency"))
			o->bs[o->nbs++] = 512, o->bs[o->nbs++] = 4096,
			o->bs[o->nbs++] = 8192;
		else
			o->bs[o->nbs++] = 4096, o->bs[o->nbs++] = 131072;
	}
	if (!o->nqd) {
		if (!strcmp(s, "pts-iops"))	/* PTS: T4 Q32 */
			o->qd_threads[o->nqd] = 4, o->qd_depth[o->nqd++] = 32;
		else if (!strcmp(s, "pts-throughput"))
			o->qd_threads[o->nqd] = 1, o->qd_depth[o->nqd++] = 32;
		else if (!strcmp(s, "pts-latency"))	/* PTS: T1 Q1 */
			o->qd_threads[o->nqd] = 1, o->qd_depth[o->nqd++] = 1;
		else
			o->qd_depth[o->nqd++] = 1, o->qd_depth[o->nqd++] = 32;
	}
	if (!o->nrw) {
		if (!strcmp(s, "pts-iops")) {
			for (i = 0; i < 7; i++)
				o->rw_read[o->nrw] = pts_mix[i],
				o->rw_random[o->nrw++] = -1;
		} else if (pts) {
			o->rw_read[o->nrw] = 100, o->rw_random[o->nrw++] = -1;
			if (!strcmp(s, "pts-latency"))
				o->rw_read[o->nrw] = 65, o->rw_random[o->nrw++] = -1;
			o->rw_read[o->nrw] = 0, o->rw_random[o->nrw++] = -1;
		} else {
			o->rw_read[o->nrw] = 100, o->rw_random[o->nrw++] = -1;
		}
	}
	if (o->pattern < 0)
		o->pattern = strcmp(s, "pts-throughput") != 0;
	if (!o->jobs)
		o->jobs = 1;
	if (!o->ioengine)
		o->ioengine = "libaio";
	if (!o->runtime)
		o->runtime = pts ? 60 : bench_suite_qos(o) ? 30 : 5;
	if (!o->rounds)
		o->rounds = 3;
	if (pts) {
		o->steady = true;
		o->purge = true;
		o->precondition = true;
	}
}

/* --suite qos: a QD1 4k random reader beside the writer at each level. */
static int qos_cells(const struct bench_settings *o, struct bench_cell **cells)
{
	int i;

	*cells = calloc(BENCH_QOS_LEVELS, sizeof(**cells));
	if (!*cells)
		return -1;
	for (i = 0; i < BENCH_QOS_LEVELS; i++)
		(*cells)[i] = (struct bench_cell){
			.read_pct = 100, .random = true, .bs = 4096, .threads = 1,
			.depth = 1, .qos = true, .qos_pct = bench_qos_levels[i],
			.qos_rand = o->qos_writer && !strcmp(o->qos_writer, "rand4k"),
			.qos_trim = o->qos_trim,
		};
	return BENCH_QOS_LEVELS;
}

int bench_cells(const struct bench_settings *o, struct bench_cell **cells)
{
	int n = 0, a, b, c;

	if (bench_suite_qos(o))
		return qos_cells(o, cells);

	*cells = calloc(o->nrw * o->nbs * o->nqd, sizeof(**cells));
	if (!*cells)
		return -1;
	for (a = 0; a < o->nrw; a++)
		for (b = 0; b < o->nbs; b++)
			for (c = 0; c < o->nqd; c++) {
				struct bench_cell *x = &(*cells)[n++];

				x->read_pct = o->rw_read[a];
				x->random = o->rw_random[a] < 0 ? o->pattern
								: o->rw_random[a];
				x->bs = o->bs[b];
				x->threads = o->qd_threads[c] ? o->qd_threads[c]
							      : o->jobs;
				x->depth = o->qd_depth[c];
			}
	return n;
}

bool bench_writes_data(const struct bench_settings *o,
		       const struct bench_cell *cells, int n)
{
	int i;

	if (o->purge || o->precondition)
		return true;
	for (i = 0; i < n; i++)
		if (cells[i].read_pct < 100 || cells[i].qos)
			return true;
	return false;
}
