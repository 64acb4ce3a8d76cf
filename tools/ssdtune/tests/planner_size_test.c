// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the interrupt cores sized to the drives (planner_size.c). */
#include <math.h>

#include "tap.h"
#include "tests.h"
#include "lib/planner_size.h"

#define MAXC 64

/* A node of @cores cores of @threads CPUs, CPU 0's core last. */
static struct size_node node(int cores, int threads, const int *nvec, int ndrives,
			     int base, int io_cores, int *ncpus, double *load)
{
	int i;

	for (i = 0; i < cores; i++)
		ncpus[i] = threads;
	return (struct size_node){
		.ncores = cores, .core_ncpus = ncpus, .load = load,
		.usable = cores - 1, .base = base, .io_cores = io_cores,
		.nvec = nvec, .ndrives = ndrives,
	};
}

void test_planner_size(void)
{
	int ncpus[MAXC], v32[24], v8[24], i, first, count, seen[MAXC] = { 0 };
	double load[2 * MAXC] = { 0 };
	struct size_node n;

	for (i = 0; i < 24; i++) {
		v32[i] = 32;
		v8[i] = 8;
	}
	/* 2 sockets x 16 cores x 2 threads, 8 drives a node (issue fixture) */
	n = node(16, 2, v32, 8, 2, 0, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 4 && fabs(n.share - 1.0) < 1e-9,
	      "8 drives on 16 cores x 2 threads: 4 interrupt cores, one drive per CPU, not the profile's 2");
	n = node(16, 2, v32, 1, 2, 0, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 2 && n.share < 0.5 + 1e-9,
	      "one drive: the profile's 2 cores, half a drive per CPU");
	n = node(8, 2, v8, 6, 1, 0, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 3 && n.share <= 1.0 + 1e-9 && n.usable - n.irq_cores >= 3,
	      "6 drives on 8 cores x 2 threads: 3 interrupt cores, 4 left for I/O");
	n = node(8, 2, v8, 16, 1, 0, ncpus, load);
	size_node(&n);
	CHECK(n.local && n.irq_cores == 1 && n.want_cores > n.usable,
	      "16 drives on 8 cores x 2 threads: too few cores, queue-local completions");
	n = node(8, 2, v8, 8, 1, 0, ncpus, load);
	size_node(&n);
	CHECK(n.local && n.want_cores == 4,
	      "8 drives on 7 usable cores: 4 for interrupts would leave 3 for I/O, fewer than 4: local");
	n = node(8, 2, v8, 8, 1, 3, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 4,
	      "... with --io-cores 3 the 3 left are enough: dedicated");
	for (i = 0; i < 4; i++)
		load[i] = 0.125;	/* four stock drives over 32 CPUs */
	n = node(16, 2, v8, 2, 1, 0, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 2 && n.share <= 1.0 + 1e-9,
	      "stock drives' vectors count: 2 drives take 2 cores, not 1, where a CPU already carries 1/8");
	for (i = 0; i < 4; i++)
		load[i] = 0;
	n = node(4, 1, v8, 0, 1, 0, ncpus, load);
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 1 && n.share == 0,
	      "no drive with interrupt vectors: the profile's cores");
	n = node(1, 2, v8, 3, 1, 0, ncpus, load);
	n.usable = 1;
	size_node(&n);
	CHECK(!n.local && n.irq_cores == 1 && n.share > 1.0,
	      "one core: interrupts and I/O share it, and the share says it is over");
	for (i = 0; i < 5; i++) {
		size_slot(i, 5, 8, &first, &count);
		for (int c = first; c < first + count; c++)
			seen[c]++;
	}
	for (i = 0; i < 8 && seen[i] == 1; i++)
		;
	CHECK(i == 8, "slots: 5 drives over 8 CPUs cover each CPU once");
	size_slot(2, 3, 3, &first, &count);
	CHECK(first == 2 && count == 1, "slots: one CPU a drive where there are as many");
	CHECK(fabs(size_slot_share(33, 2, 0) - 17.0 / 33) < 1e-9 &&
	      fabs(size_slot_share(8, 1, 0.25) - 1.25) < 1e-9,
	      "slot share: the most vectors one CPU takes, plus stock load");
}
