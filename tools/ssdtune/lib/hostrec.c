// SPDX-License-Identifier: GPL-2.0
/* A recorded host: topology --save writes one, --root replays one
 * (lib/hostrec.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/hostrec.h"
#include "uapi/linux/ssdtune.h"

#define REC_MAX_FILE	(32u << 20)	/* /proc/interrupts of a big host */

struct rec {
	const char *dst;		/* the recording's root */
	struct hostrec_stats *st;
	struct lib_err *err;
};

/* Which entries of a directory to leave out: fnmatch patterns. */
struct rec_rule {
	const char *const *skip;
	int depth;			/* levels below the start to copy */
};

static int rec_mkdirs(struct rec *r, const char *path)
{
	char p[PATH_MAX];
	size_t i, n;

	n = (size_t)snprintf(p, sizeof(p), "%s%s", r->dst, path);
	if (n >= sizeof(p))
		return lib_errf(r->err, ENAMETOOLONG, "%s%s: path too long", r->dst, path);
	for (i = strlen(r->dst) + 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			return lib_errf(r->err, errno, "cannot create %s: %s", p, strerror(errno));
		if (i == n)
			break;
		p[i] = '/';
	}
	r->st->dirs++;
	return 0;
}

/* The parent directory of @path inside the recording. */
static int rec_parent(struct rec *r, const char *path)
{
	char parent[PATH_MAX];
	char *slash;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return 0;
	*slash = '\0';
	return rec_mkdirs(r, parent);
}

static int rec_link(struct rec *r, const char *path)
{
	char target[PATH_MAX], p[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return 0;
	target[n] = '\0';
	snprintf(p, sizeof(p), "%s%s", r->dst, path);
	if (rec_parent(r, path))
		return -1;
	if (symlink(target, p) && errno != EEXIST)
		return lib_errf(r->err, errno, "cannot create %s: %s", p, strerror(errno));
	r->st->links++;
	return 0;
}

/* Read all of @fd (sysfs and proc files report no size). */
static char *slurp(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *nb;
	ssize_t got;

	while (buf && (got = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n < cap)
			continue;
		if (cap >= REC_MAX_FILE)
			break;
		nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			return NULL;
		}
		buf = nb;
		cap *= 2;
	}
	if (buf && got < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Write @len bytes of @buf to the new file @p with @mode. */
static int rec_write(struct rec *r, const char *p, const char *buf, size_t len,
		     mode_t mode)
{
	int out, ok;

	errno = 0;
	out = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ok = out >= 0 && write(out, buf, len) == (ssize_t)len &&
	     !fchmod(out, mode & 07777);
	if (out >= 0 && close(out))
		ok = 0;
	if (!ok)
		return lib_errf(r->err, errno ? errno : EIO, "cannot write %s: %s", p,
				strerror(errno ? errno : EIO));
	return 0;
}

/* Copy the regular file @path, with its mode; a file the kernel will not
 * read is left out and counted. */
static int rec_file(struct rec *r, const char *path, mode_t mode)
{
	char p[PATH_MAX], *buf;
	size_t len = 0;
	int in, ret;

	in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	buf = in < 0 ? NULL : slurp(in, &len);
	if (in >= 0)
		close(in);
	if (!buf) {
		r->st->skipped++;
		return 0;
	}
	snprintf(p, sizeof(p), "%s%s", r->dst, path);
	ret = rec_parent(r, path);
	if (!ret)
		ret = rec_write(r, p, buf, len, mode);
	free(buf);
	if (!ret) {
		r->st->files++;
		r->st->bytes += len;
	}
	return ret;
}

static bool rec_skipped(const struct rec_rule *rule, const char *name)
{
	const char *const *s;

	for (s = rule->skip; s && *s; s++)
		if (!fnmatch(*s, name, 0))
			return true;
	return false;
}

/* Copy @path (a file, a link, or a directory down to @depth levels). */
static int rec_tree(struct rec *r, const char *path, const struct rec_rule *rule,
		    int depth)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(path, &st))
		return 0;
	if (S_ISLNK(st.st_mode))
		return rec_link(r, path);
	if (S_ISREG(st.st_mode))
		return rec_file(r, path, st.st_mode);
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (rec_mkdirs(r, path))
		return -1;
	if (depth <= 0 || !(d = opendir(path)))
		return 0;
	while (!ret && (de = readdir(d))) {
		char child[PATH_MAX];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    rec_skipped(rule, de->d_name))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", path, de->d_name) >=
		    sizeof(child))
			continue;
		ret = rec_tree(r, child, rule, depth - 1);
	}
	closedir(d);
	return ret;
}

/* Nothing below these is read by the tool, or reading it is not safe on
 * every device (vpd can stall; resourceN and rom are BARs). */
static const char *const skip_common[] = {
	"trace", "holders", "slaves", "uevent", NULL,
};
static const char *const skip_cpu[] = {
	"cache", "microcode", "hotplug", "vulnerabilities", "uevent",
	"crash_notes*", NULL,
};
static const char *const skip_pci[] = {
	"resource?*", "rom", "vpd", "remove", "rescan", "reset",
	"uevent", "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:*",	/* a child function */
	"consumer:*", "supplier:*", "link", "net", "drm", "sound", "hwmon",
	"i2c-*", "usb*", "graphics", "infiniband*", "host*", "ata*", "virtio*",
	"ptp", "mdev_supported_types", "iommu", "sriov_*", NULL,
};

/* Call @one for each entry of @dir (made in the recording first) but
 * "." and ".."; stop at the first error. */
static int rec_entries(struct rec *r, const char *dir,
		       int (*one)(struct rec *r, const char *path, const char *name))
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = rec_mkdirs(r, dir);

	if (!d)
		return ret;
	while (!ret && (de = readdir(d))) {
		char path[PATH_MAX];

		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    sizeof(path))
			continue;
		ret = one(r, path, de->d_name);
	}
	closedir(d);
	return ret;
}

/* In a PCI function: its own files and what ssdtune reads below it
 * (vectors, the NVMe or ssdtune controller and its disks); never its
 * children, which are functions of their own. */
static int rec_pci_entry(struct rec *r, const char *path, const char *name)
{
	static const struct rec_rule pci = { skip_pci, 6 }, below = { skip_common, 6 };

	return rec_skipped(&pci, name) ? 0 : rec_tree(r, path, &below, pci.depth);
}

/* Every PCI function (/sys/bus/pci/devices: links to each one's place
 * under /sys/devices), links and places both. */
static int rec_pci_link(struct rec *r, const char *path, const char *name)
{
	char real[PATH_MAX];
	int ret = rec_link(r, path);

	(void)name;
	if (!ret && realpath(path, real) && !strncmp(real, "/sys/devices/", 13))
		ret = rec_entries(r, real, rec_pci_entry);
	return ret;
}

/* The class and block directories: their links, and the devices they
 * point at outside the PCI tree (a multipath head's nvme-subsystem). */
static int rec_class_entry(struct rec *r, const char *path, const char *name)
{
	static const struct rec_rule below = { skip_common, 4 };
	char real[PATH_MAX];
	int ret = rec_tree(r, path, &below, 0);

	if (!ret && (!fnmatch("nvme*", name, 0) ||
		     !fnmatch(SSDTUNE_CTRL_PREFIX "*", name, 0)) &&
	    realpath(path, real) && !strncmp(real, "/sys/devices/virtual/", 21))
		ret = rec_tree(r, real, &below, below.depth);
	return ret;
}

/* ssdtune-recording.txt: what made the recording, and how to replay it. */
static int rec_stamp(struct rec *r)
{
	char p[PATH_MAX], text[1024];
	struct utsname u;
	int n;

	snprintf(p, sizeof(p), "%s/ssdtune-recording.txt", r->dst);
	uname(&u);
	n = snprintf(text, sizeof(text),
		     "ssdtune %s recording of a host's /sys and /proc pieces\n"
		     "kernel %s %s\nsaved %ld (seconds since 1970)\n"
		     "replay: ssdtune --root DIR topology | plan\n",
		     SSDTUNE_VERSION, u.release, u.machine, (long)time(NULL));
	return rec_write(r, p, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1,
			 0644);
}

int hostrec_save(const char *dir, struct hostrec_stats *st, struct lib_err *err)
{
	static const struct rec_rule cpu = { skip_cpu, 4 }, node = { skip_common, 2 },
		cg = { skip_common, 2 }, flat = { skip_common, 2 };
	static const char *const classes[] = {
		"/sys/class/nvme", "/sys/class/" SSDTUNE_DRV_NAME, "/sys/class/block",
		"/sys/block", NULL,
	};
	struct rec r = { dir, st, err };
	const char *const *c;
	DIR *d;
	int ret;

	memset(st, 0, sizeof(*st));
	if (mkdir(dir, 0755) && errno != EEXIST)
		return lib_errf(err, errno, "cannot create %s: %s", dir, strerror(errno));
	d = opendir(dir);
	if (!d)
		return lib_errf(err, errno, "cannot read %s: %s", dir, strerror(errno));
	for (ret = 0; !ret;) {
		struct dirent *de = readdir(d);

		if (!de)
			break;
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ret = -1;
	}
	closedir(d);
	if (ret)
		return lib_errf(err, EEXIST, "%s is not empty: a recording goes into a new directory", dir);
	ret = rec_stamp(&r);
	if (!ret)
		ret = rec_tree(&r, "/sys/devices/system/cpu", &cpu, cpu.depth);
	if (!ret)
		ret = rec_tree(&r, "/sys/devices/system/node", &node, node.depth);
	if (!ret)
		ret = rec_entries(&r, "/sys/bus/pci/devices", rec_pci_link);
	if (!ret)
		ret = rec_tree(&r, "/sys/bus/pci/drivers", &flat, 2);
	for (c = classes; !ret && *c; c++)
		ret = rec_entries(&r, *c, rec_class_entry);
	if (!ret)
		ret = rec_tree(&r, "/sys/fs/cgroup", &cg, cg.depth);
	if (!ret)
		ret = rec_tree(&r, "/sys/devices/virtual/workqueue", &flat, 2);
	if (!ret)
		ret = rec_tree(&r, "/proc/irq", &flat, 2);
	if (!ret)
		ret = rec_tree(&r, "/proc/interrupts", &flat, 0);
	if (!ret)
		ret = rec_tree(&r, "/proc/cmdline", &flat, 0);
	return ret;
}

static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) || !ok ? -1 : 0;
}

/* A mount namespace of our own: as root, or inside a user namespace
 * that maps us to root. */
static int own_namespace(struct lib_err *err)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];

	if (!unshare(CLONE_NEWNS))
		return 0;
	if (errno != EPERM || unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return lib_errf(err, errno, "--root: cannot make a mount namespace: %s",
				strerror(errno));
	write_proc("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned int)uid);
	if (write_proc("/proc/self/uid_map", map))
		return lib_errf(err, errno, "--root: cannot map the user: %s", strerror(errno));
	snprintf(map, sizeof(map), "0 %u 1", (unsigned int)gid);
	if (write_proc("/proc/self/gid_map", map))
		return lib_errf(err, errno, "--root: cannot map the group: %s", strerror(errno));
	return 0;
}

/* @src over @dst, read-only (keeping the flags a user namespace may not
 * drop).  A missing @src is no error: the live @dst stays. */
static int bind_ro(const char *src, const char *dst, struct lib_err *err)
{
	unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
	struct statvfs sv;
	struct stat st;

	if (stat(src, &st))
		return 0;
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL))
		return lib_errf(err, errno, "--root: cannot mount %s over %s: %s", src,
				dst, strerror(errno));
	if (!statvfs(dst, &sv)) {
		if (sv.f_flag & ST_NOSUID)
			flags |= MS_NOSUID;
		if (sv.f_flag & ST_NODEV)
			flags |= MS_NODEV;
		if (sv.f_flag & ST_NOEXEC)
			flags |= MS_NOEXEC;
	}
	if (mount(NULL, dst, NULL, flags, NULL))
		return lib_errf(err, errno, "--root: cannot make %s read-only: %s", dst,
				strerror(errno));
	return 0;
}

int hostrec_enter(const char *dir, struct lib_err *err)
{
	static const char *const procs[] = { "irq", "interrupts", "cmdline" };
	char p[PATH_MAX], live[64];
	struct stat st;
	size_t i;
	int ret;

	snprintf(p, sizeof(p), "%s/sys/devices/system", dir);
	if (stat(p, &st) || !S_ISDIR(st.st_mode))
		return lib_errf(err, EINVAL, "--root %s: not a recorded host (no sys/devices/system; record one with 'ssdtune topology --save DIR')",
				dir);
	ret = own_namespace(err);
	if (!ret && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ret = lib_errf(err, errno, "--root: cannot make the mounts private: %s",
			       strerror(errno));
	snprintf(p, sizeof(p), "%s/sys", dir);
	if (!ret)
		ret = bind_ro(p, "/sys", err);
	for (i = 0; !ret && i < sizeof(procs) / sizeof(procs[0]); i++) {
		snprintf(p, sizeof(p), "%s/proc/%s", dir, procs[i]);
		snprintf(live, sizeof(live), "/proc/%s", procs[i]);
		ret = bind_ro(p, live, err);
	}
	return ret;
}
