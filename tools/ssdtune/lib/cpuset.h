/* SPDX-License-Identifier: GPL-2.0 */
/* CPU sets as the kernel spells them ("0-3,8"): parse, combine, format.
 * Pure: the planner and verify use them, tests/unit.c reaches them. */
#ifndef SSDTUNE_CPUSET_H
#define SSDTUNE_CPUSET_H

#include <stdbool.h>
#include <stddef.h>

struct cpuset {
	int n;			/* CPUs 0..n-1 */
	bool *on;
};

int cpuset_init(struct cpuset *s, int n);	/* empty; 0 or -ENOMEM */
void cpuset_free(struct cpuset *s);
void cpuset_clear(struct cpuset *s);

/* Add the CPUs of cpulist @list ("" is empty, a trailing newline is
 * allowed).  0, or -1 if malformed or naming a CPU >= s->n. */
int cpuset_add_list(struct cpuset *s, const char *list);

void cpuset_set(struct cpuset *s, int cpu);	/* ignored if out of range */
bool cpuset_has(const struct cpuset *s, int cpu);
int cpuset_count(const struct cpuset *s);
void cpuset_or(struct cpuset *dst, const struct cpuset *src);
bool cpuset_subset(const struct cpuset *a, const struct cpuset *b); /* a <= b */
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);

/*
 * As a cpulist into @buf ("0-3,8,10-11"; "" if empty), truncated to fit
 * (never a partial range).  Returns @buf.  cpulist_format() does the same
 * for @n CPU (or node) numbers, ascending.
 */
char *cpuset_format(const struct cpuset *s, char *buf, size_t len);
char *cpulist_format(const int *ids, size_t n, char *buf, size_t len);

/*
 * Kernel bitmaps ("%*pb": 32-bit hex words, most significant first, as in
 * /proc/irq/default_smp_affinity or a workqueue's cpumask).  Add the CPUs
 * of mask @mask (a trailing newline allowed; bits >= s->n ignored): 0 or
 * -1 if malformed.  Format @s like @like, a mask the same file printed:
 * the same number of words and of digits in the first one, so the file
 * reads back exactly what was written.
 */
int cpuset_add_mask(struct cpuset *s, const char *mask);
char *cpuset_format_mask(const struct cpuset *s, const char *like, char *buf,
			 size_t len);

/* Do two cpulists name the same CPUs?  false if either is malformed. */
bool cpulist_same(const char *a, const char *b, int ncpus);

#endif
