// SPDX-License-Identifier: GPL-2.0
/* Namespace block devices of a controller, and the in-use checks. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/blkdev.h"
#include "lib/parse.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

static struct blkdev *blk_add(struct blklist *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct blkdev *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].fd = -1;
	return &l->v[l->n++];
}

void blk_free(struct blklist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].fd >= 0)
			close(l->v[i].fd);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int fill(struct blkdev *b, const char *name, const char *sysdir,
		bool partition)
{
	char path[PATH_MAX + 8], val[64];

	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->sysdir, sizeof(b->sysdir), "%s", sysdir);
	b->partition = partition;
	snprintf(path, sizeof(path), "%s/dev", sysdir);
	b->has_devnum = !sys_read(path, val, sizeof(val)) &&
			!parse_devnum(val, &b->maj, &b->min);
	return 0;
}

/* Is @rp (a disk's sysfs dir) an NVMe multipath head disk whose subsystem
 * holds a controller under @pci_sysdir? */
static bool mpath_head_of(const char *rp, const char *pci_sysdir)
{
	char subsys[PATH_MAX], p[PATH_MAX * 2], target[PATH_MAX];
	struct dirent *e;
	bool found = false;
	char *slash;
	DIR *d;

	if (!strstr(rp, "/nvme-subsystem/"))
		return false;
	snprintf(subsys, sizeof(subsys), "%s", rp);
	slash = strrchr(subsys, '/');
	if (!slash)
		return false;
	*slash = '\0';
	d = opendir(subsys);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || e->d_type != DT_LNK)
			continue;
		snprintf(p, sizeof(p), "%s/%s", subsys, e->d_name);
		if (!sys_realpath(p, target) && path_is_under(target, pci_sysdir))
			found = true;
	}
	closedir(d);
	return found;
}

static int add_partitions(struct blklist *l, const char *disk_sysdir,
			  const char *disk)
{
	char p[PATH_MAX * 2];
	struct dirent *e;
	struct blkdev *b;
	DIR *d = opendir(disk_sysdir);

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, disk, strlen(disk)))
			continue;
		snprintf(p, sizeof(p), "%s/%s/partition", disk_sysdir, e->d_name);
		if (!sys_exists(p))
			continue;
		b = blk_add(l);
		if (!b) {
			closedir(d);
			return -ENOMEM;
		}
		snprintf(p, sizeof(p), "%s/%s", disk_sysdir, e->d_name);
		fill(b, e->d_name, p, true);
	}
	closedir(d);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct blkdev *)a)->name,
		      ((const struct blkdev *)b)->name);
}

static int collect(const char *pci_sysdir, const char *ctrl,
		   struct blklist *l, bool parts)
{
	char p[PATH_MAX * 2], rp[PATH_MAX];
	struct dirent *e;
	struct blkdev *b;
	int err = 0;
	DIR *d;

	memset(l, 0, sizeof(*l));
	d = opendir(SYS_BLOCK);
	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", SYS_BLOCK, e->d_name);
		if (sys_realpath(p, rp))
			continue;
		if (!path_is_under(rp, pci_sysdir) &&
		    !(ctrl && ssdtdev_is_disk(e->d_name, ctrl)) &&
		    !mpath_head_of(rp, pci_sysdir))
			continue;
		b = blk_add(l);
		if (!b) {
			err = -ENOMEM;
			break;
		}
		fill(b, e->d_name, rp, false);
		if (parts)
			err = add_partitions(l, rp, e->d_name);
	}
	closedir(d);
	if (err) {
		blk_free(l);
		return err;
	}
	if (l->n)
		qsort(l->v, l->n, sizeof(l->v[0]), by_name);
	return 0;
}

int blk_collect(const char *pci_sysdir, const char *ctrl, struct blklist *l)
{
	return collect(pci_sysdir, ctrl, l, true);
}

int blk_collect_disks(const char *pci_sysdir, const char *ctrl,
		      struct blklist *l)
{
	return collect(pci_sysdir, ctrl, l, false);
}

static const struct blkdev *match_rdev(const struct blklist *l, dev_t rdev)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].has_devnum &&
		    major(rdev) == l->v[i].maj && minor(rdev) == l->v[i].min)
			return &l->v[i];
	return NULL;
}

/*
 * The block device @path names (following links), if it is one of @l.
 * Only paths under /dev/ are looked at: a stat() of anything else (a FUSE
 * or network file a process holds) could hang, and is no block device.
 */
static const struct blkdev *match_path(const struct blklist *l,
				       const char *path)
{
	struct stat st;

	if (strncmp(path, "/dev/", 5) || stat(path, &st) ||
	    !S_ISBLK(st.st_mode))
		return NULL;
	return match_rdev(l, st.st_rdev);
}

static int check_holders(const struct blklist *l, char *why, size_t len)
{
	char p[PATH_MAX * 2];
	struct dirent *e;
	size_t i;
	DIR *d;

	for (i = 0; i < l->n; i++) {
		snprintf(p, sizeof(p), "%s/holders", l->v[i].sysdir);
		d = opendir(p);
		if (!d)
			continue;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(why, len, "%s has holders (%s: LVM, md or device-mapper)",
				 l->v[i].name, e->d_name);
			closedir(d);
			return 1;
		}
		closedir(d);
	}
	return 0;
}

static int check_mounts(const struct blklist *l, char *why, size_t len)
{
	struct mountinfo_entry *me = malloc(sizeof(*me));
	const struct blkdev *b;
	char *line = NULL;
	size_t cap = 0;
	int busy = 0;
	FILE *f;

	if (!me)
		return -ENOMEM;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f) {
		free(me);
		return -errno;
	}
	while (!busy && getline(&line, &cap, f) > 0) {
		if (parse_mountinfo_line(line, me))
			continue;
		b = match_rdev(l, makedev(me->maj, me->min));
		/* btrfs and friends report an anonymous 0:N; try the source */
		if (!b)
			b = match_path(l, me->source);
		if (b) {
			snprintf(why, len, "%s is mounted on %s", b->name,
				 me->mountpoint);
			busy = 1;
		}
	}
	free(line);
	fclose(f);
	free(me);
	return busy;
}

static int check_swaps(const struct blklist *l, char *why, size_t len)
{
	char path[PATH_MAX];
	const struct blkdev *b;
	char *line = NULL;
	size_t cap = 0;
	int busy = 0;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return 0;	/* no swap support */
	while (!busy && getline(&line, &cap, f) > 0) {
		if (parse_swaps_line(line, path, sizeof(path)))
			continue;
		b = match_path(l, path);
		if (b) {
			snprintf(why, len, "%s is in use as swap", b->name);
			busy = 1;
		}
	}
	free(line);
	fclose(f);
	return busy;
}

/* Like fuser: any process with an open file descriptor on one of @l? */
static int check_open(const struct blklist *l, char *why, size_t len)
{
	char p[64 + 2 * NAME_MAX], comm[64], target[PATH_MAX];
	const struct blkdev *b;
	struct dirent *pe, *fe;
	struct stat st;
	DIR *proc, *fds;
	ssize_t n;
	int busy = 0;

	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while (!busy && (pe = readdir(proc))) {
		if (!all_digits(pe->d_name))
			continue;
		snprintf(p, sizeof(p), "/proc/%s/fd", pe->d_name);
		fds = opendir(p);
		if (!fds)
			continue;	/* gone, or not ours to see */
		while (!busy && (fe = readdir(fds))) {
			if (!all_digits(fe->d_name))
				continue;
			snprintf(p, sizeof(p), "/proc/%s/fd/%s", pe->d_name,
				 fe->d_name);
			/* Device nodes only (see match_path); then stat the
			 * fd itself: it reaches the inode even when the
			 * process sees another /dev (a container). */
			n = readlink(p, target, sizeof(target) - 1);
			if (n < 5 || strncmp(target, "/dev/", 5))
				continue;
			if (stat(p, &st) || !S_ISBLK(st.st_mode))
				continue;
			b = match_rdev(l, st.st_rdev);
			if (!b)
				continue;
			snprintf(p, sizeof(p), "/proc/%s/comm", pe->d_name);
			if (sys_read(p, comm, sizeof(comm)))
				strcpy(comm, "?");
			snprintf(why, len, "%s is open by process %s (%s)",
				 b->name, pe->d_name, comm);
			busy = 1;
		}
		closedir(fds);
	}
	closedir(proc);
	return busy;
}

/* The kernel's own answer: an exclusive open fails with EBUSY while the
 * device is mounted or claimed (md, dm, swap, another O_EXCL opener). */
static int check_exclusive(struct blklist *l, char *why, size_t len,
			   bool hold)
{
	char node[NAME_MAX + 8];
	size_t i;
	int fd;

	for (i = 0; i < l->n; i++) {
		snprintf(node, sizeof(node), "/dev/%s", l->v[i].name);
		if (match_path(l, node) != &l->v[i])
			continue;	/* no node, or not this device */
		fd = open(node, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			if (hold && l->v[i].fd < 0)
				l->v[i].fd = fd;
			else
				close(fd);
			continue;
		}
		if (errno == EBUSY) {
			snprintf(why, len, "%s is busy (an exclusive open fails: %s)",
				 l->v[i].name, strerror(EBUSY));
			return 1;
		}
	}
	return 0;
}

/*
 * udev probes a disk that just appeared (blkid opens it for a moment): an
 * opener named like udev is not a user, so such a result is retried for a
 * few seconds before it counts.
 */
static bool udev_opener(const char *why)
{
	return strstr(why, "(udev-worker)") || strstr(why, "(systemd-udevd)") ||
	       strstr(why, "(udevd)");
}

#define UDEV_RETRIES	50	/* x 100 ms */

int blk_busy(struct blklist *l, char *why, size_t len, bool hold)
{
	int (*const checks[])(const struct blklist *, char *, size_t) = {
		check_holders, check_mounts, check_swaps, check_open,
	};
	const struct timespec pause = { .tv_nsec = 100 * 1000 * 1000 };
	unsigned int tries = 0;
	size_t i;
	int r;

again:
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		r = checks[i](l, why, len);
		if (r == 1 && udev_opener(why) && tries++ < UDEV_RETRIES) {
			nanosleep(&pause, NULL);
			goto again;
		}
		if (r)
			return r;
	}
	return check_exclusive(l, why, len, hold);
}
