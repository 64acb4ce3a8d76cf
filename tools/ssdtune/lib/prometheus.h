/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's counters and settings, and the tuning's state, as
 * Prometheus metrics (text exposition format 0.0.4), for node_exporter's
 * textfile collector.  Read from /sys/class/ssdtune (every controller and
 * queue), the state directory (the applied profile, and whether verify
 * would find drift) and the configuration (are the controllers it selects
 * on ssdtune).  Names follow Prometheus conventions: the ssdtune_
 * prefix, base units (seconds, watts, celsius) in the name, _total on
 * counters; an enumeration is one sample per value, 1 for the current one.
 * Documentation/fleet.md lists them.  Reads only; writes only the output
 * file (metrics_write_file()).
 */
#ifndef SSDTUNE_PROMETHEUS_H
#define SSDTUNE_PROMETHEUS_H

#include <stdio.h>

#include "lib/config.h"
#include "lib/error.h"

#define METRIC_MAX_LABELS	6

struct metric_sample {
	int nlabels;
	const char *key[METRIC_MAX_LABELS];	/* static strings */
	char *val[METRIC_MAX_LABELS];		/* owned */
	char value[32];				/* as printed */
};

struct metric_family {
	const char *name, *type, *help;		/* static strings */
	struct metric_sample *s;
	int n, cap;
};

struct metrics {
	struct metric_family *f;
	int n;
	int controllers, queues;	/* how many were read */
};

/*
 * Read every ssdtune controller and the state in @state_dir into @m, and
 * with a configuration @c (NULL: none) whether each controller present
 * that it selects is on ssdtune.  A file a controller cannot answer now
 * (temperature, power state) leaves its sample out.  0 or -errno with
 * @err filled; metrics_free() in every case.
 */
int metrics_gather(struct metrics *m, const char *state_dir,
		   const struct config *c, struct lib_err *err);
void metrics_free(struct metrics *m);

/* The exposition text of @m to @f.  0 or -errno (a write failed). */
int metrics_render(const struct metrics *m, FILE *f);

/*
 * Replace @path atomically with @m's text: a temporary file in the same
 * directory (not ending in .prom, so the textfile collector never reads a
 * half-written file), fsync, rename.  0 or -errno with @err filled.
 */
int metrics_write_file(const struct metrics *m, const char *path,
		       struct lib_err *err);

#endif
