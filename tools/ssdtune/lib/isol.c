// SPDX-License-Identifier: GPL-2.0
/* What isolation can use and what the host already isolates (isol.h). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/isol.h"
#include "lib/parse.h"
#include "lib/sysfs.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* A cpulist file that may read "(null)" or be empty: "" unless a list. */
static void read_cpulist(const char *path, char *buf, size_t len)
{
	sys_read_opt(path, buf, len);
	if (buf[0] < '0' || buf[0] > '9')
		buf[0] = '\0';
}

/* Is word @w in the space-separated list @list? */
static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n] || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

static bool is_dir(const char *parent, const struct dirent *e)
{
	char p[PATH_MAX];

	if (e->d_name[0] == '.')
		return false;
	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	snprintf(p, sizeof(p), "%s/%s", parent, e->d_name);
	return sys_is_dir(p);
}

/* The name of @irq's first action (a directory in /proc/irq/N). */
static void irq_name(int irq, char *buf, size_t len)
{
	char dir[64];
	struct dirent *e;
	DIR *d;

	buf[0] = '\0';
	snprintf(dir, sizeof(dir), PROC_IRQ "/%d", irq);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (is_dir(dir, e)) {
			snprintf(buf, len, "%.*s", (int)len - 1, e->d_name);
			break;
		}
	closedir(d);
}

static int gather_irqs(struct topo_isol *is, struct lib_err *err)
{
	char p[96];
	struct stat st;
	int *ids, n, i;

	n = sys_list_numbered(PROC_IRQ, "", &ids);
	if (n < 0)
		return lib_enomem(err);
	is->irqs = calloc((size_t)n + 1, sizeof(*is->irqs));
	if (!is->irqs) {
		free(ids);
		return lib_enomem(err);
	}
	for (i = 0; i < n; i++) {
		struct topo_host_irq *q = &is->irqs[is->nirqs];

		snprintf(p, sizeof(p), PROC_IRQ "/%d/smp_affinity_list", ids[i]);
		if (stat(p, &st) || sys_read(p, q->affinity, sizeof(q->affinity)))
			continue;
		q->irq = ids[i];
		q->writable = st.st_mode & 0200;
		irq_name(ids[i], q->name, sizeof(q->name));
		is->nirqs++;
	}
	free(ids);
	return 0;
}

/* The children of the cgroup v2 root and their partition state. */
static int gather_cgroups(struct topo_isol *is, struct lib_err *err)
{
	char p[PATH_MAX], ctl[256];
	struct dirent *e;
	DIR *d;

	if (sys_read(CGROUP_ROOT "/cgroup.controllers", ctl, sizeof(ctl)))
		return 0;
	is->cgroup2 = true;
	is->cpuset = has_word(ctl, "cpuset");
	if (!sys_read(CGROUP_ROOT "/cgroup.subtree_control", ctl, sizeof(ctl)))
		is->cpuset_on = has_word(ctl, "cpuset");
	d = opendir(CGROUP_ROOT);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct topo_cgroup *c, *nc;

		if (!is_dir(CGROUP_ROOT, e))
			continue;
		nc = realloc(is->cgroups, (size_t)(is->ncgroups + 1) * sizeof(*nc));
		if (!nc) {
			closedir(d);
			return lib_enomem(err);
		}
		is->cgroups = nc;
		c = &is->cgroups[is->ncgroups++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", e->d_name);
		snprintf(p, sizeof(p), CGROUP_ROOT "/%s/cpuset.cpus", e->d_name);
		sys_read_opt(p, c->cpus, sizeof(c->cpus));
		snprintf(p, sizeof(p), CGROUP_ROOT "/%s/cpuset.cpus.partition", e->d_name);
		sys_read_opt(p, c->partition, sizeof(c->partition));
	}
	closedir(d);
	return 0;
}

int isol_gather(struct topo *t, struct lib_err *err)
{
	struct topo_isol *is = &t->isol;
	char p[96];
	int i, r;

	sys_read_opt(IRQ_DEFAULT_AFFINITY, is->default_affinity, sizeof(is->default_affinity));
	sys_read_opt(WQ_CPUMASK, is->wq_mask, sizeof(is->wq_mask));
	sys_read_opt(WQ_WRITEBACK_CPUMASK, is->wb_mask, sizeof(is->wb_mask));
	read_cpulist(SYS_CPU "/isolated", is->isolated, sizeof(is->isolated));
	read_cpulist(SYS_CPU "/nohz_full", is->nohz_full, sizeof(is->nohz_full));
	for (i = 0; i < t->ncpus; i++) {
		snprintf(p, sizeof(p), SYS_CPU "/cpu%d/power/pm_qos_resume_latency_us",
			 t->cpus[i].id);
		sys_read_opt(p, t->cpus[i].pm_qos, sizeof(t->cpus[i].pm_qos));
	}
	r = gather_irqs(is, err);
	return r ? r : gather_cgroups(is, err);
}

void isol_free(struct topo_isol *is)
{
	free(is->irqs);
	free(is->cgroups);
	memset(is, 0, sizeof(*is));
}
