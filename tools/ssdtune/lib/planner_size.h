/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many interrupt cores a node gets: sized to the interrupt work that
 * the drives planned on it bring (Documentation/tuning.md, "Interrupt
 * cores sized to the drives").  Pure arithmetic, no topology reading.
 *
 * The unit of work is one drive's worth of interrupts: a CPU's share is
 * the sum over its vectors of 1/(that drive's interrupt vectors), and no
 * interrupt CPU may carry more than SIZE_CPU_CAPACITY of it.  Each drive
 * gets interrupt CPUs of its own (a slot), so the share of a slot's CPU
 * is what it takes of that one drive, plus the load that kernel-managed
 * vectors of stock drives already put there.
 */
#ifndef SSDTUNE_LIB_PLANNER_SIZE_H
#define SSDTUNE_LIB_PLANNER_SIZE_H

#include <stdbool.h>

/* Drives' worth of interrupts one CPU may carry. */
#define SIZE_CPU_CAPACITY 1.0

struct size_node {
	/* in */
	int ncores;		/* the node's cores, in the planner's order
				 * (CPU 0's last) */
	const int *core_ncpus;	/* CPUs of each core */
	const double *load;	/* per CPU, cores flattened in order: the
				 * share stock drives' managed vectors
				 * already put there */
	int usable;		/* cores that may take interrupts or I/O
				 * (CPU 0's core left out where others
				 * remain) */
	int base;		/* the profile's interrupt cores (>= 1) */
	int io_cores;		/* --io-cores N, 0: no bound */
	const int *nvec;	/* each drive's vectors that go to the
				 * interrupt cores (> 0) */
	int ndrives;
	/* out */
	int irq_cores;		/* cores for interrupts, the first ones */
	bool local;		/* dedicated cores would leave too few for
				 * I/O: the drives' I/O vectors stay on
				 * their queues' CPUs (the base cores keep
				 * the rest) */
	int want_cores;		/* what dedicated cores would have taken */
	double share;		/* the most any interrupt CPU carries, in
				 * drives (dedicated; 0 if local) */
};

/*
 * Size @n.  The fewest cores, at least @base, whose CPUs give every drive
 * a slot of its own with no CPU over SIZE_CPU_CAPACITY; dedicated only if
 * the node then keeps at least as many I/O cores as interrupt cores (or
 * the --io-cores N asked for), else local.  Without drives: @base.
 */
void size_node(struct size_node *n);

/* Drive @j's slot among @ncpus interrupt CPUs shared by @ndrives drives:
 * *@first and *@count, in the flattened CPU order (@ndrives <= @ncpus). */
void size_slot(int j, int ndrives, int ncpus, int *first, int *count);

/*
 * The share of a slot's busiest CPU: its drive's @nvec vectors spread
 * over the slot's @ncpus CPUs (a vector set to several CPUs takes the one
 * with the fewest vectors: x86's vector allocator), plus the slot's
 * highest stock @load.
 */
double size_slot_share(int nvec, int ncpus, double load);

#endif
