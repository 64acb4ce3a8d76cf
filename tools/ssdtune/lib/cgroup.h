/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 pieces apply writes, as values the state can save and
 * restore like any file (Documentation/tuning.md, "CPU isolation"):
 *  - a controller in a cgroup.subtree_control file reads "+cpuset" or
 *    "-cpuset", which is also what turns it on or off;
 *  - a cpuset partition directory reads "" when it does not exist, else
 *    "cpus=LIST partition=TYPE"; writing "" removes it.
 * Every change goes through sys_write(), sys_mkdir() and sys_rmdir().
 */
#ifndef SSDTUNE_CGROUP_H
#define SSDTUNE_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/isol.h"

#define CGROUP_PARTITION_DEFAULT "ssdtune"

/* "+CTRL" if controller CTRL (@want without its sign) is in @file, else
 * "-CTRL".  0 or -errno. */
int cgroup_controller_read(const char *file, const char *want, char *buf,
			   size_t len);

/* The saved form of partition @dir: "" if absent.  0 or -errno. */
int cgroup_partition_read(const char *dir, char *buf, size_t len);
/*
 * Make @dir hold @val: "" removes it (its tasks, if any, go to the root
 * cgroup only with @move_tasks; else -EBUSY), else create or update it.
 * 0 or -errno; -EINVAL when the kernel finds the partition invalid (the
 * reason is in @why, if given).
 */
int cgroup_partition_write(const char *dir, const char *val, bool move_tasks,
			   char *why, size_t wlen);

/* A partition name the tool may create: a plain directory name. */
bool cgroup_name_valid(const char *name);

/* Move this process into cgroup @dir.  0 or -errno. */
int cgroup_enter(const char *dir);

#endif
