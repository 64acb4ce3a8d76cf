// SPDX-License-Identifier: GPL-2.0
/*
 * The plan as data (plan.h): the profiles' rules, and the plan's items
 * with the keys they are saved under.  Below the planner's files, which
 * only append to it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpuset.h"
#include "lib/plan.h"

static const struct plan_rules profiles[PROFILE_COUNT] = {
	/*
	 * latency: no coalescing (a threshold of 4 holds a QD1 completion
	 * for the whole aggregation time on a drive that coalesces), and
	 * each I/O vector on the CPUs that submit to its queue.
	 */
	[PROFILE_LATENCY] = { "latency", 2, 0, "performance", NULL, 1, "off",
			      true, "none", "2", "2",
			      "CPU for latency: a polled reader spins its core, and idle cores stay awake" },
	[PROFILE_IOPS] = { "iops", 10, 1, "performance", NULL, 1, "iops",
			   false, "none", "1", "1",
			   "latency for CPU: a completion may wait for its batch (coalescing)" },
	/*
	 * throughput and balanced: as latency's interrupts.  Measured in
	 * make bench-profiles, the iops profile's coalescing and interrupt
	 * core cost 0.65-0.77x stock's IOPS at 128K-1M sequential reads and
	 * the balanced profile's 0.53-0.62x at QD8 and the 70/30 mix: a
	 * held completion leaves a fast drive idle at a depth of 4-8.
	 */
	[PROFILE_THROUGHPUT] = { "throughput", 50, 0, "performance", NULL, 1, "off",
				 true, "none", "0", "1", NULL },
	[PROFILE_BALANCED] = { "balanced", -1, 0, NULL, "balance_performance", -1,
			       "off", true, NULL, NULL, NULL, NULL },
};

const struct plan_rules *plan_rules(int profile)
{
	return &profiles[profile];
}

int plan_profile_parse(const char *name)
{
	int i;

	for (i = 0; i < PROFILE_COUNT; i++)
		if (!strcmp(name, profiles[i].name))
			return i;
	return -1;
}

const char *plan_profile_name(int profile)
{
	return profile >= 0 && profile < PROFILE_COUNT ? profiles[profile].name : "?";
}

int plan_latency_bound_us(int profile)
{
	return profiles[profile].latency_us;
}

int plan_follow_target(const char *qcpus, const char *within, char *buf,
		       size_t len)
{
	struct cpuset q, w, both;
	int r = -ENOMEM, i;

	if (cpuset_init(&q, 8192) || cpuset_init(&w, 8192) ||
	    cpuset_init(&both, 8192))
		goto out;
	r = -EINVAL;
	if (cpuset_add_list(&q, qcpus) || cpuset_add_list(&w, within) ||
	    !cpuset_count(&q))
		goto out;
	for (i = 0; i < q.n; i++)
		if (cpuset_has(&q, i) && cpuset_has(&w, i))
			cpuset_set(&both, i);
	cpuset_format(cpuset_count(&both) ? &both : &q, buf, len);
	r = 0;
out:
	cpuset_free(&q);
	cpuset_free(&w);
	cpuset_free(&both);
	return r;
}

void plan_irq_key(const char *bdf, int index, char *buf, size_t len)
{
	snprintf(buf, len, "irq %s vector %d", bdf, index);
}

void plan_ctrl_key(const char *serial, const char *model, const char *file,
		   char *buf, size_t len)
{
	snprintf(buf, len, "ssdtune serial %s model %s %s", serial, model, file);
}

void plan_partition_value(const char *cpus, char *buf, size_t len)
{
	snprintf(buf, len, "cpus=%s partition=isolated", cpus);
}

int plan_add(struct plan *p, enum plan_kind kind, const char *key,
	     const char *path, const char *old, const char *val,
	     const char *fmt, ...)
{
	struct plan_item *it;
	char reason[1024];
	va_list ap;

	if (p->nitems == p->cap) {
		int cap = p->cap ? p->cap * 2 : 64;
		struct plan_item *n = realloc(p->items, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->items = n;
		p->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	it = &p->items[p->nitems];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->vector = -1;
	it->key = strdup(key ? key : path);
	it->path = strdup(path);
	it->old = strdup(old);
	it->val = strdup(val);
	it->reason = strdup(reason);
	p->nitems++;
	if (!it->key || !it->path || !it->old || !it->val || !it->reason)
		return -ENOMEM;
	return 0;
}

void plan_free(struct plan *p)
{
	int i;

	for (i = 0; i < p->nitems; i++) {
		free(p->items[i].key);
		free(p->items[i].path);
		free(p->items[i].old);
		free(p->items[i].val);
		free(p->items[i].reason);
		free(p->items[i].serial);
		free(p->items[i].model);
		free(p->items[i].follow);
		free(p->items[i].within);
	}
	free(p->items);
	free(p->devs);
	memset(p, 0, sizeof(*p));
}
