// SPDX-License-Identifier: GPL-2.0
/* Plan items grouped for reading (lib/plangroup.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpuset.h"
#include "lib/parse.h"
#include "lib/plangroup.h"

#define CPU_DIR "/sys/devices/system/cpu/"

enum member { M_NONE, M_CPU, M_VECTOR, M_DEV };

/* What an item shares with the others of its group, and its members. */
struct shape {
	enum member m;
	char what[256];
	const char *reason;	/* without the member's name */
	int ids[64], nids;	/* CPUs, or the vector */
	int irq;		/* M_VECTOR: its IRQ ... */
	char bdf[BDF_BUFSZ];	/* ... and function */
	char name[64];		/* M_DEV: the controller or disk */
};

/*
 * Append the CPUs of cpulist @s (up to ':', cpuset_add_list() parses it)
 * to @sh; -1 if malformed or more than @sh holds.
 */
static int add_cpus(struct shape *sh, const char *s)
{
	size_t len = strcspn(s, ":");
	int max = (int)(sizeof(sh->ids) / sizeof(sh->ids[0]));
	struct cpuset cs;
	char list[256];
	int cpu, r;

	if (len >= sizeof(list) || cpuset_init(&cs, 4096))
		return -1;
	memcpy(list, s, len);
	list[len] = '\0';
	r = cpuset_add_list(&cs, list);
	for (cpu = 0; !r && cpu < cs.n; cpu++) {
		if (!cpuset_has(&cs, cpu))
			continue;
		if (sh->nids == max)
			r = -1;
		else
			sh->ids[sh->nids++] = cpu;
	}
	cpuset_free(&cs);
	return r;
}

int plangroup_cpu_path(const char *path, char *what, size_t len)
{
	const char *rest = path + strlen(CPU_DIR), *pre = "cpu";
	char *end;
	long num;

	if (strncmp(path, CPU_DIR, strlen(CPU_DIR)))
		return -1;
	if (!strncmp(rest, "cpufreq/policy", 14))
		pre = "cpufreq/policy";
	else if (strncmp(rest, "cpu", 3))
		return -1;
	num = strtol(rest + strlen(pre), &end, 10);
	if (end == rest + strlen(pre) || *end != '/' || num < 0 || num > 65535)
		return -1;
	snprintf(what, len, "%s%sN%s", CPU_DIR, pre, end);
	return (int)num;
}

/* A file of one CPU or cpufreq policy: "cpuN/..." or "cpufreq/policyN/..." */
static int cpu_shape(const struct plan_item *it, struct shape *sh)
{
	const char *r = it->reason, *colon;
	int num = plangroup_cpu_path(it->path, sh->what, sizeof(sh->what));

	if (num < 0)
		return -1;
	sh->m = M_CPU;
	sh->reason = r;
	colon = strstr(r, ": ");
	if (colon && (!strncmp(r, "CPU ", 4) || !strncmp(r, "CPUs ", 5))) {
		sh->reason = colon + 2;
		return add_cpus(sh, strchr(r, ' ') + 1);
	}
	sh->ids[sh->nids++] = num;
	return 0;
}

/* A vector: "/proc/irq/N/...", reason "NAME (BDF vector V): ..." */
static int vector_shape(const struct plan_item *it, struct shape *sh)
{
	const char *r = strstr(it->reason, "): "), *open = strchr(it->reason, '(');
	char *end;
	long irq;
	int v;

	if (!r || !open || open > r ||
	    strncmp(it->path, "/proc/irq/", 10) ||
	    sscanf(open + 1, "%31s vector %d)", sh->bdf, &v) != 2)
		return -1;
	irq = strtol(it->path + 10, &end, 10);
	if (end == it->path + 10 || *end != '/')
		return -1;
	snprintf(sh->what, sizeof(sh->what), "/proc/irq/N%s", end);
	sh->m = M_VECTOR;
	sh->reason = r + 3;
	sh->ids[sh->nids++] = v;
	sh->irq = (int)irq;
	return 0;
}

/*
 * A file of one controller or disk: "/sys/class/ssdtune/NAME/FILE" or
 * "/sys/block/NAME/queue/FILE", its reason "NAME: ...".
 */
static int dev_shape(const struct plan_item *it, struct shape *sh)
{
	static const char *const dirs[] = { "/sys/class/ssdtune/", "/sys/block/" };
	size_t i, d, n;
	const char *rest;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		d = strlen(dirs[i]);
		if (strncmp(it->path, dirs[i], d))
			continue;
		n = strcspn(it->path + d, "/");
		if (!n || n >= sizeof(sh->name) || !it->path[d + n] ||
		    strncmp(it->reason, it->path + d, n) ||
		    strncmp(it->reason + n, ": ", 2))
			return -1;
		memcpy(sh->name, it->path + d, n);
		sh->name[n] = '\0';
		rest = it->path + d + n;
		snprintf(sh->what, sizeof(sh->what), "%s*%s", dirs[i], rest);
		sh->m = M_DEV;
		sh->reason = it->reason + n + 2;
		return 0;
	}
	return -1;
}

static void item_shape(const struct plan_item *it, struct shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	if (it->kind == PLAN_NOTE || it->type != TYPE_FILE ||
	    (cpu_shape(it, sh) && vector_shape(it, sh) && dev_shape(it, sh))) {
		memset(sh, 0, sizeof(*sh));
		snprintf(sh->what, sizeof(sh->what), "%s", it->path);
		sh->reason = it->reason;
	}
}

static bool same(const struct plan_item *a, const struct shape *sa,
		 const struct plan_item *b, const struct shape *sb)
{
	return sa->m != M_NONE && sa->m == sb->m && a->kind == b->kind &&
	       a->type == b->type && !strcmp(sa->what, sb->what) &&
	       !strcmp(sa->reason, sb->reason) &&
	       (a->kind == PLAN_SKIP ||	/* a skip shows no value */
		sa->m == M_VECTOR ||	/* each its own: the group shows all */
		(!strcmp(a->old, b->old) && !strcmp(a->val, b->val))) &&
	       !strcmp(sa->bdf, sb->bdf);
}

/* The values group @g's vectors are set to, as one cpulist, and whether
 * its members differ in value. */
static void vector_values(const struct plan *p, const int *of,
			  struct plan_group *g, int gi)
{
	const struct plan_item *a = &p->items[g->first];
	struct cpuset all;
	int i;

	if (cpuset_init(&all, 8192))
		return;
	for (i = g->first; i < p->nitems; i++) {
		if (of[i] != gi)
			continue;
		g->mixed |= strcmp(a->val, p->items[i].val) != 0;
		if (cpuset_add_list(&all, p->items[i].val))
			g->mixed = true;
	}
	cpuset_format(&all, g->val, sizeof(g->val));
	cpuset_free(&all);
}

/* "N controllers: ssdt0, ssdt1" (or disks) into @g->who. */
static void name_devs(const struct plan *p, const struct shape *sh,
		      const int *of, struct plan_group *g, int gi)
{
	size_t o;
	int i;

	o = (size_t)snprintf(g->who, sizeof(g->who), "%d %s:", g->n,
			     strstr(sh[g->first].what, "/sys/block/") ? "disks" : "controllers");
	for (i = g->first; i < p->nitems && o < sizeof(g->who); i++)
		if (of[i] == gi)
			o += (size_t)snprintf(g->who + o, sizeof(g->who) - o, "%s %s",
					      i == g->first ? "" : ",", sh[i].name);
}

/* The members of group @g (every item of @p shaped like its first) */
static int name_members(const struct plan *p, const struct shape *sh,
			const int *of, struct plan_group *g, int gi)
{
	int *ids, *irqs;
	char list[TOPO_LIST], irql[TOPO_LIST];
	int i, k, n = 0, nirq = 0;

	if (sh[g->first].m == M_DEV) {
		name_devs(p, sh, of, g, gi);
		return 0;
	}
	ids = malloc(sizeof(int) * (size_t)(64 * g->n));
	irqs = malloc(sizeof(int) * (size_t)g->n);
	if (!ids || !irqs) {
		free(ids);
		free(irqs);
		return -ENOMEM;
	}
	for (i = g->first; i < p->nitems; i++) {
		if (of[i] != gi)
			continue;
		for (k = 0; k < sh[i].nids; k++)
			ids[n++] = sh[i].ids[k];
		irqs[nirq++] = sh[i].irq;
	}
	qsort(ids, (size_t)n, sizeof(int), int_cmp);
	qsort(irqs, (size_t)nirq, sizeof(int), int_cmp);
	cpulist_format(ids, (size_t)n, list, sizeof(list));
	if (sh[g->first].m == M_VECTOR) {
		snprintf(g->who, sizeof(g->who), "%d vectors of %s (%s, IRQs %s)",
			 g->n, sh[g->first].bdf, list,
			 cpulist_format(irqs, (size_t)nirq, irql, sizeof(irql)));
		if (p->items[g->first].kind != PLAN_SKIP)
			vector_values(p, of, g, gi);
	} else {
		snprintf(g->who, sizeof(g->who), "CPUs %s", list);
	}
	free(ids);
	free(irqs);
	return 0;
}

int plan_group(const struct plan *p, struct plan_group **out, int *n)
{
	struct shape *sh = calloc((size_t)p->nitems + 1, sizeof(*sh));
	int *of = calloc((size_t)p->nitems + 1, sizeof(int));
	struct plan_group *g = calloc((size_t)p->nitems + 1, sizeof(*g));
	int i, k, ng = 0, r = 0;

	if (!sh || !of || !g)
		r = -ENOMEM;
	for (i = 0; !r && i < p->nitems; i++) {
		item_shape(&p->items[i], &sh[i]);
		for (k = 0; k < ng; k++)
			if (same(&p->items[g[k].first], &sh[g[k].first],
				 &p->items[i], &sh[i]))
				break;
		if (k == ng) {
			g[ng].first = i;
			snprintf(g[ng].what, sizeof(g[ng].what), "%s", sh[i].what);
			g[ng++].reason = sh[i].reason;
		}
		g[k].n++;
		of[i] = k;
	}
	for (k = 0; !r && k < ng; k++)
		if (g[k].n > 1)
			r = name_members(p, sh, of, &g[k], k);
	free(sh);
	free(of);
	if (r) {
		free(g);
		return r;
	}
	*out = g;
	*n = ng;
	return 0;
}
