/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block devices of a PCI storage controller and whether any is in use
 * (mounted, swap, holders such as LVM/md/dm, open by a process, claimed).
 */
#ifndef SSDTUNE_BLKDEV_H
#define SSDTUNE_BLKDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct blkdev {
	char name[NAME_MAX + 1];	/* "nvme0n1", "nvme0n1p2", "ssdt0n1" */
	char sysdir[PATH_MAX];		/* realpath of its sysfs directory */
	unsigned int maj, min;
	bool has_devnum;
	bool partition;
	int fd;				/* held exclusive open, or -1 */
};

struct blklist {
	struct blkdev *v;
	size_t n, cap;
};

/*
 * Every /sys/block disk whose sysfs directory lies under @pci_sysdir, or
 * that is an NVMe multipath head over a controller under it, or (if @ctrl)
 * is named "<ctrl>n<M>"; plus their partitions.  Sorted by name.
 * Returns 0 or -errno.
 */
int blk_collect(const char *pci_sysdir, const char *ctrl, struct blklist *l);

/* Just the whole disks (no partitions), named "<ctrl>n<M>" or under
 * @pci_sysdir, into @l. */
int blk_collect_disks(const char *pci_sysdir, const char *ctrl,
		      struct blklist *l);

/*
 * Is any device of @l in use?  Returns 1 with a reason such as
 * "nvme0n1p1 is mounted on /data" in @why, 0 if none is, -errno on error.
 * The last check opens each device node O_EXCL; with @hold those opens stay
 * (until blk_free()), so nothing can mount or claim a device in between.
 */
int blk_busy(struct blklist *l, char *why, size_t len, bool hold);

/* Close held opens and free the list. */
void blk_free(struct blklist *l);

#endif
