// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cgroup controllers and cpuset partitions as saved values
 * (cgroup.c), on plain files in a scratch directory standing in for
 * cgroupfs: a controller's sign, a partition read and written, the order
 * of its writes (seen in a dry run), its removal, the names the tool may
 * create, and entering a cgroup.  A plain file keeps what is written and
 * a plain directory keeps its files, where cgroupfs makes and removes
 * them itself: so a new partition stops at its first write (-ENOENT), a
 * removal at rmdir (-ENOTEMPTY), and the kernel's "invalid" verdict is a
 * type that says so.  Moving a partition's tasks out (@move_tasks) writes
 * the host's /sys/fs/cgroup/cgroup.procs, and is left to the bats tests
 * (tests/host).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tests.h"
#include "lib/cgroup.h"
#include "lib/sysfs.h"

/* What a dry run said it would do: "path <- value", one a line. */
static char said[4096];

static void observe(const char *path, const char *value)
{
	size_t n = strlen(said);

	snprintf(said + n, sizeof(said) - n, "%s <- %s\n", path, value);
}

/* A partition directory @name of @cpus, @type, and tasks @procs. */
static void partition(const char *name, const char *cpus, const char *type,
		      const char *procs, char *dir, size_t len)
{
	scratch_dir(name, dir, len);
	scratch_put(dir, "cpuset.cpus", cpus);
	scratch_put(dir, "cpuset.cpus.partition", type);
	scratch_put(dir, "cgroup.procs", procs);
}

static void test_controller(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], buf[64];

	scratch_dir("cgroup-controller", dir, sizeof(dir));
	scratch_put(dir, "cgroup.subtree_control", "cpuset cpu io memory pids\n");
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", dir);
	CHECK(!cgroup_controller_read(p, "+cpuset", buf, sizeof(buf)) && !strcmp(buf, "+cpuset") &&
	      !cgroup_controller_read(p, "-pids", buf, sizeof(buf)) && !strcmp(buf, "+pids") &&
	      !cgroup_controller_read(p, "io", buf, sizeof(buf)) && !strcmp(buf, "+io"),
	      "cgroup_controller_read: a controller that is on reads +, whatever sign was asked");
	CHECK(!cgroup_controller_read(p, "+hugetlb", buf, sizeof(buf)) && !strcmp(buf, "-hugetlb") &&
	      !cgroup_controller_read(p, "+cpus", buf, sizeof(buf)) && !strcmp(buf, "-cpus"),
	      "cgroup_controller_read: one that is off reads -; names compared whole");
	scratch_put(dir, "cgroup.subtree_control", "");
	CHECK(!cgroup_controller_read(p, "+cpuset", buf, sizeof(buf)) && !strcmp(buf, "-cpuset"),
	      "cgroup_controller_read: an empty list has every controller off");
	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(cgroup_controller_read(p, "+cpuset", buf, sizeof(buf)) == -ENOENT,
	      "cgroup_controller_read: a file that is not there is -ENOENT");
}

static void test_partition_read(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], buf[128];

	scratch_dir("cgroup-read", dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/none", dir);
	snprintf(buf, sizeof(buf), "stale");
	CHECK(!cgroup_partition_read(p, buf, sizeof(buf)) && !buf[0],
	      "cgroup_partition_read: a partition that is not there reads \"\"");
	partition("cgroup-read/io", "2-3\n", "isolated\n", "", p, sizeof(p));
	CHECK(!cgroup_partition_read(p, buf, sizeof(buf)) &&
	      !strcmp(buf, "cpus=2-3 partition=isolated"),
	      "cgroup_partition_read: \"cpus=LIST partition=TYPE\", newlines dropped");
	scratch_dir("cgroup-read/off", p, sizeof(p));
	CHECK(cgroup_partition_read(p, buf, sizeof(buf)) == -ENOENT,
	      "cgroup_partition_read: a directory without cpuset files is -ENOENT");
}

static void test_partition_write(void)
{
	static const char *const bad[] = {
		"cpus=2-3", "partition=isolated", "cpus= partition=isolated",
		"cpus=2-3 partition=", "cpus=2-3  partition=isolated", "2-3 isolated",
	};
	char dir[SCRATCH_LEN], p[PATH_MAX], want[4 * PATH_MAX], buf[128], why[64];
	size_t i;
	int r, ok = 1;

	scratch_dir("cgroup-write", dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/new", dir);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok &= cgroup_partition_write(p, bad[i], false, NULL, 0) == -EINVAL;
	CHECK(ok && !sys_exists(p),
	      "cgroup_partition_write: a value without cpus and type is -EINVAL, nothing made");
	CHECK(cgroup_partition_write(p, "cpus=2-3 partition=isolated", false, NULL, 0) == -ENOENT &&
	      sys_is_dir(p),
	      "cgroup_partition_write: a new directory, then its cpus: no cpuset files, -ENOENT");

	partition("cgroup-write/io", "2-3\n", "isolated\n", "", p, sizeof(p));
	snprintf(why, sizeof(why), "stale");
	r = cgroup_partition_write(p, "cpus=4-5 partition=root\n", false, why, sizeof(why));
	CHECK(!r && !why[0] && !strcmp(scratch_get(p, "cpuset.cpus", buf, sizeof(buf)), "4-5") &&
	      !strcmp(scratch_get(p, "cpuset.cpus.partition", buf, sizeof(buf)), "root") &&
	      !cgroup_partition_read(p, buf, sizeof(buf)) && !strcmp(buf, "cpus=4-5 partition=root"),
	      "cgroup_partition_write: an existing partition takes the cpus and the type; it reads back so");
	r = cgroup_partition_write(p, "cpus=6 partition=isolated invalid (Cpu list not exclusive)",
				   false, why, sizeof(why));
	CHECK(r == -EINVAL && !strcmp(why, "isolated invalid (Cpu list not exclusive)"),
	      "cgroup_partition_write: a partition that reads back invalid is -EINVAL, the reason in why");

	said[0] = '\0';
	sys_dry_run_observer(observe);
	sys_write_mode(true);
	r = cgroup_partition_write(p, "cpus=7 partition=isolated", false, NULL, 0);
	snprintf(want, sizeof(want), "%s/cpuset.cpus.partition <- member\n%s/cpuset.cpus <- 7\n"
		 "%s/cpuset.cpus.partition <- isolated\n", p, p, p);
	CHECK(!r && !strcmp(said, want) && !strcmp(scratch_get(p, "cpuset.cpus", buf, sizeof(buf)), "6"),
	      "cgroup_partition_write: new cpus as a member first, then the type; a dry run writes nothing");
	said[0] = '\0';
	snprintf(p, sizeof(p), "%s/dry", dir);
	r = cgroup_partition_write(p, "cpus=7 partition=isolated", false, NULL, 0);
	sys_write_mode(false);
	sys_dry_run_observer(NULL);
	snprintf(want, sizeof(want), "%s <- (mkdir)\n%s/cpuset.cpus <- 7\n"
		 "%s/cpuset.cpus.partition <- isolated\n", p, p, p);
	CHECK(!r && !strcmp(said, want) && !sys_exists(p),
	      "cgroup_partition_write: a new partition is made, then its cpus and type, no member step");
}

static void test_partition_remove(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], want[4 * PATH_MAX], buf[128];
	int r;

	scratch_dir("cgroup-remove", dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(!cgroup_partition_write(p, "", false, NULL, 0) &&
	      !cgroup_partition_write(p, "\n", true, NULL, 0),
	      "cgroup_partition_write \"\": a partition that is not there is removed already");

	partition("cgroup-remove/busy", "2-3\n", "isolated\n", "1234\n5678\n", p, sizeof(p));
	CHECK(cgroup_partition_write(p, "", false, NULL, 0) == -EBUSY &&
	      !strcmp(scratch_get(p, "cpuset.cpus.partition", buf, sizeof(buf)), "isolated\n"),
	      "cgroup_partition_write \"\": one with tasks, not to move them: -EBUSY, left as it is");

	partition("cgroup-remove/idle", "2-3\n", "isolated\n", "", p, sizeof(p));
	said[0] = '\0';
	sys_dry_run_observer(observe);
	sys_write_mode(true);
	r = cgroup_partition_write(p, "", false, NULL, 0);
	sys_write_mode(false);
	sys_dry_run_observer(NULL);
	snprintf(want, sizeof(want), "%s/cpuset.cpus.partition <- member\n%s <- (rmdir)\n", p, p);
	CHECK(!r && !strcmp(said, want) && sys_is_dir(p),
	      "cgroup_partition_write \"\": its cpus back to the root as a member, then rmdir");
	CHECK(cgroup_partition_write(p, "", false, NULL, 0) == -ENOTEMPTY &&
	      !strcmp(scratch_get(p, "cpuset.cpus.partition", buf, sizeof(buf)), "member"),
	      "cgroup_partition_write \"\": a failed rmdir is its error, and leaves no partition");

	scratch_dir("cgroup-remove/plain", p, sizeof(p));
	CHECK(!cgroup_partition_write(p, "", false, NULL, 0) && !sys_exists(p),
	      "cgroup_partition_write \"\": no cpuset files (controller off): just rmdir");
}

static void test_names_enter(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], pid[32], buf[32], name[80];

	memset(name, 'a', 64);
	name[64] = '\0';
	CHECK(cgroup_name_valid(CGROUP_PARTITION_DEFAULT) && cgroup_name_valid("io-1_A.b") &&
	      cgroup_name_valid(name),
	      "cgroup_name_valid: letters, digits, - _ and ., up to 64");
	name[64] = 'a';
	name[65] = '\0';
	CHECK(!cgroup_name_valid("") && !cgroup_name_valid(name) && !cgroup_name_valid(".hidden") &&
	      !cgroup_name_valid("..") && !cgroup_name_valid("cgroup.procs") &&
	      !cgroup_name_valid("cpuset.cpus") && !cgroup_name_valid("a/b") &&
	      !cgroup_name_valid("a b") && !cgroup_name_valid("caf\xc3\xa9"),
	      "cgroup_name_valid: none, too long, hidden, a cgroupfs file's, a path, a space, non-ASCII");

	scratch_dir("cgroup-enter", dir, sizeof(dir));
	scratch_put(dir, "cgroup.procs", "");
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	CHECK(!cgroup_enter(dir) && !strcmp(scratch_get(dir, "cgroup.procs", buf, sizeof(buf)), pid),
	      "cgroup_enter: this process's id into the cgroup's cgroup.procs");
	snprintf(p, sizeof(p), "%s/none", dir);
	CHECK(cgroup_enter(p) == -ENOENT, "cgroup_enter: a cgroup that is not there is -ENOENT");
}

void test_cgroup(void)
{
	test_controller();
	test_partition_read();
	test_partition_write();
	test_partition_remove();
	test_names_enter();
}
