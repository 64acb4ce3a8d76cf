// SPDX-License-Identifier: GPL-2.0
/* Interrupt cores sized to the drives (lib/planner_size.h). */
#include "lib/planner_size.h"

/* Leeway for sums of fractions such as 3 x 1/3. */
#define SIZE_EPS 1e-9

void size_slot(int j, int ndrives, int ncpus, int *first, int *count)
{
	*first = (int)((long long)j * ncpus / ndrives);
	*count = (int)((long long)(j + 1) * ncpus / ndrives) - *first;
}

double size_slot_share(int nvec, int ncpus, double load)
{
	int most;

	if (nvec <= 0 || ncpus <= 0)
		return load;
	most = (nvec + ncpus - 1) / ncpus;
	return (double)most / nvec + load;
}

/* The busiest interrupt CPU's share with @k interrupt cores, or -1 if
 * their CPUs are fewer than the drives. */
static double share_with(const struct size_node *n, int k)
{
	int c, j, ncpus = 0, first, count, i;
	double worst = 0;

	for (c = 0; c < k; c++)
		ncpus += n->core_ncpus[c];
	if (ncpus < n->ndrives)
		return -1;
	for (j = 0; j < n->ndrives; j++) {
		double load = 0, s;

		size_slot(j, n->ndrives, ncpus, &first, &count);
		for (i = first; i < first + count; i++)
			if (n->load && n->load[i] > load)
				load = n->load[i];
		s = size_slot_share(n->nvec[j], count, load);
		if (s > worst)
			worst = s;
	}
	return worst;
}

void size_node(struct size_node *n)
{
	int base = n->base < 1 ? 1 : n->base, k, need;
	double s = -1;

	n->local = false;
	n->share = 0;
	if (n->usable <= 1) {	/* one core: interrupts and I/O share it */
		n->irq_cores = 1;
		n->want_cores = 1;
		if (n->ndrives)
			n->share = share_with(n, 1);
		if (n->share < 0)	/* more drives than CPUs */
			n->share = (double)n->ndrives / n->core_ncpus[0];
		return;
	}
	if (base > n->usable - 1)
		base = n->usable - 1;
	if (!n->ndrives) {
		n->irq_cores = base;
		n->want_cores = base;
		return;
	}
	for (k = base; k <= n->usable; k++) {
		s = share_with(n, k);
		if (s >= 0 && s <= SIZE_CPU_CAPACITY + SIZE_EPS)
			break;
	}
	n->want_cores = k;
	need = n->io_cores > 0 ? n->io_cores : k;
	if (k > n->usable || n->usable - k < need) {
		n->local = true;
		n->irq_cores = base;
		return;
	}
	n->irq_cores = k;
	n->share = s;
}
