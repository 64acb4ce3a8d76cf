// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 controllers and cpuset partitions as saved values (cgroup.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/sysfs.h"

int cgroup_controller_read(const char *file, const char *want, char *buf,
			   size_t len)
{
	const char *name = want + (want[0] == '+' || want[0] == '-');
	char list[512], *tok, *save;
	bool on = false;
	int r = sys_read(file, list, sizeof(list));

	if (r)
		return r;
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		on |= !strcmp(tok, name);
	snprintf(buf, len, "%c%s", on ? '+' : '-', name);
	return 0;
}

static void file_in(const char *dir, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", dir, file);
}

int cgroup_partition_read(const char *dir, char *buf, size_t len)
{
	char p[PATH_MAX], cpus[1024], part[128];
	int r;

	buf[0] = '\0';
	if (!sys_is_dir(dir))
		return 0;
	file_in(dir, "cpuset.cpus", p, sizeof(p));
	r = sys_read(p, cpus, sizeof(cpus));
	file_in(dir, "cpuset.cpus.partition", p, sizeof(p));
	if (!r)
		r = sys_read(p, part, sizeof(part));
	if (r)
		return r;
	snprintf(buf, len, "cpus=%s partition=%s", cpus, part);
	return 0;
}

/* "cpus=LIST partition=TYPE" into its two parts. */
static int parse_value(const char *val, char *cpus, size_t clen, char *type,
		       size_t tlen)
{
	const char *sp = strchr(val, ' ');

	if (strncmp(val, "cpus=", 5) || !sp || strncmp(sp + 1, "partition=", 10))
		return -EINVAL;
	snprintf(cpus, clen, "%.*s", (int)(sp - val - 5), val + 5);
	snprintf(type, tlen, "%s", sp + 11);
	type[strcspn(type, "\n")] = '\0';
	return cpus[0] && type[0] ? 0 : -EINVAL;
}

/* Move the tasks of @dir to the root cgroup. */
static int move_out(const char *dir)
{
	char p[PATH_MAX], pid[32];
	int r = 0;
	FILE *f;

	file_in(dir, "cgroup.procs", p, sizeof(p));
	f = fopen(p, "re");
	if (!f)
		return -errno;
	while (!r && fgets(pid, sizeof(pid), f)) {
		pid[strcspn(pid, "\n")] = '\0';
		r = sys_write(CGROUP_ROOT "/cgroup.procs", pid);
		if (r == -ESRCH)	/* it exited meanwhile */
			r = 0;
	}
	fclose(f);
	return r;
}

static bool has_tasks(const char *dir)
{
	char p[PATH_MAX], buf[32] = "";

	file_in(dir, "cgroup.procs", p, sizeof(p));
	return !sys_read(p, buf, sizeof(buf)) && buf[0];
}

static int remove_partition(const char *dir, bool move_tasks)
{
	char p[PATH_MAX];
	int r;

	if (!sys_is_dir(dir))
		return 0;
	if (has_tasks(dir)) {
		if (!move_tasks)
			return -EBUSY;
		r = move_out(dir);
		if (r)
			return r;
	}
	/* Its CPUs go back to the root first; rmdir would do it too, but
	 * this way a failed rmdir leaves no partition behind.  (No such
	 * file: the cpuset controller is off, there is no partition.) */
	file_in(dir, "cpuset.cpus.partition", p, sizeof(p));
	if (sys_exists(p)) {
		r = sys_write(p, "member");
		if (r)
			return r;
	}
	return sys_rmdir(dir);
}

int cgroup_partition_write(const char *dir, const char *val, bool move_tasks,
			   char *why, size_t wlen)
{
	char p[PATH_MAX], cpus[1024], type[64], now[128];
	int r;

	if (why && wlen)
		why[0] = '\0';
	if (!val[0] || !strcmp(val, "\n"))
		return remove_partition(dir, move_tasks);
	if (parse_value(val, cpus, sizeof(cpus), type, sizeof(type)))
		return -EINVAL;
	if (!sys_is_dir(dir)) {
		r = sys_mkdir(dir);
		if (r)
			return r;
	} else {
		/* New CPUs for an existing partition: as a member first, so
		 * the kernel checks the new set as a whole. */
		file_in(dir, "cpuset.cpus.partition", p, sizeof(p));
		r = sys_write(p, "member");
		if (r)
			return r;
	}
	file_in(dir, "cpuset.cpus", p, sizeof(p));
	r = sys_write(p, cpus);
	if (r)
		return r;
	file_in(dir, "cpuset.cpus.partition", p, sizeof(p));
	r = sys_write(p, type);
	if (r || sys_dry_run())
		return r;
	/* The kernel takes an impossible partition and marks it invalid. */
	if (!sys_read(p, now, sizeof(now)) && strstr(now, "invalid")) {
		if (why && wlen)
			snprintf(why, wlen, "%s", now);
		return -EINVAL;
	}
	return 0;
}

bool cgroup_name_valid(const char *name)
{
	const char *c;

	if (!name[0] || strlen(name) > 64 || name[0] == '.' ||
	    !strncmp(name, "cgroup.", 7) || !strncmp(name, "cpuset.", 7))
		return false;
	for (c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'))
			return false;
	return true;
}

int cgroup_enter(const char *dir)
{
	char p[PATH_MAX], pid[32];

	file_in(dir, "cgroup.procs", p, sizeof(p));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return sys_write(p, pid);
}
