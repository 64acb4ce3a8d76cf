// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the in-use checks of block devices (blkdev.c) on lists
 * made here, whose sysfs directories are in a scratch directory: holders
 * (LVM, md, dm) on a disk or a partition, a mount found by device number
 * (the scratch directory's own file system is mounted, wherever the run
 * is), and a device nothing uses.  blk_collect() reads the host's fixed
 * /sys/block, so only its filter is tested: nothing lies under a scratch
 * directory, and no disk is a controller that is not there.  Left to the
 * bats tests (tests/host), which have disks of their own to use: the
 * disks and partitions of a real controller, swap, a device open by a
 * process or claimed (the exclusive open, and holding it), and udev's
 * probe retried.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tap.h"
#include "tests.h"
#include "lib/blkdev.h"

/* Device @i of @l: @name, sysfs directory @sysdir, number @maj:@min (if
 * @has), no open. */
static void dev(struct blklist *l, size_t i, const char *name, const char *sysdir,
		bool has, unsigned int maj, unsigned int min)
{
	struct blkdev *b = &l->v[i];

	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->sysdir, sizeof(b->sysdir), "%s", sysdir);
	b->has_devnum = has;
	b->maj = maj;
	b->min = min;
	b->partition = i > 0;
	b->fd = -1;
}

/* A list of @n devices, to fill with dev(). */
static bool list(struct blklist *l, size_t n)
{
	l->v = calloc(n, sizeof(*l->v));
	l->n = l->v ? n : 0;
	l->cap = l->n;
	return l->v;
}

static void test_collect(void)
{
	char dir[SCRATCH_LEN];
	struct blklist l;

	scratch_dir("blkdev-collect", dir, sizeof(dir));
	CHECK(!blk_collect(dir, NULL, &l) && !l.n && !l.v &&
	      !blk_collect_disks(dir, "ssdt4000", &l) && !l.n,
	      "blk_collect: no disk under a directory that has none, none of a controller not there");
	blk_free(&l);
}

static void test_holders(void)
{
	char dir[SCRATCH_LEN], disk[SCRATCH_LEN], part[SCRATCH_LEN], why[256];
	struct blklist l;

	scratch_dir("blkdev-holders", dir, sizeof(dir));
	scratch_dir("blkdev-holders/disk0", disk, sizeof(disk));
	scratch_dir("blkdev-holders/disk0/holders", why, sizeof(why));
	scratch_dir("blkdev-holders/disk0/disk0p1", part, sizeof(part));
	scratch_dir("blkdev-holders/disk0/disk0p1/holders", why, sizeof(why));
	if (!list(&l, 2))
		return;
	dev(&l, 0, "disk0", disk, false, 0, 0);
	dev(&l, 1, "disk0p1", part, false, 0, 0);
	snprintf(why, sizeof(why), "stale");
	CHECK(!blk_busy(&l, why, sizeof(why), false) && !strcmp(why, "stale"),
	      "blk_busy: empty holders, no number, no node: not in use, nothing said");
	scratch_put(part, "holders/dm-0", "");
	CHECK(blk_busy(&l, why, sizeof(why), false) == 1 &&
	      !strcmp(why, "disk0p1 has holders (dm-0: LVM, md or device-mapper)"),
	      "blk_busy: a partition's holder makes it in use, named with the holder");
	scratch_put(disk, "holders/md127", "");
	CHECK(blk_busy(&l, why, sizeof(why), false) == 1 &&
	      !strcmp(why, "disk0 has holders (md127: LVM, md or device-mapper)"),
	      "blk_busy: the disk's own holder found first, in the list's order");
	blk_free(&l);
	CHECK(!l.v && !l.n && !l.cap, "blk_free leaves an empty list");
}

static void test_mounts(void)
{
	char dir[SCRATCH_LEN], why[PATH_MAX + 64];
	struct blklist l;
	struct stat st;

	scratch_dir("blkdev-mounts", dir, sizeof(dir));
	if (stat(dir, &st) || !list(&l, 1))
		return;
	/* the scratch directory's file system: mounted, by definition */
	dev(&l, 0, "fake0", dir, false, major(st.st_dev), minor(st.st_dev));
	snprintf(why, sizeof(why), "stale");
	CHECK(!blk_busy(&l, why, sizeof(why), false) && !strcmp(why, "stale"),
	      "blk_busy: a device without a number matches no mount");
	l.v[0].has_devnum = true;
	CHECK(blk_busy(&l, why, sizeof(why), false) == 1 &&
	      !strncmp(why, "fake0 is mounted on /", 21),
	      "blk_busy: a device whose number a mount has is mounted, named with where");
	l.v[0].maj = 4095;
	l.v[0].min = 1048575;
	snprintf(why, sizeof(why), "stale");
	CHECK(!blk_busy(&l, why, sizeof(why), true) && !strcmp(why, "stale") && l.v[0].fd == -1,
	      "blk_busy: a number no mount, swap or process has: not in use, no node to hold");
	blk_free(&l);
}

void test_blkdev(void)
{
	test_collect();
	test_holders();
	test_mounts();
}
