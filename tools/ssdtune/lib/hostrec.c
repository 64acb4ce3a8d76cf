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
#include "lib/parse.h"
#include "lib/trust.h"
#include "uapi/linux/ssdtune.h"

#define REC_MAX_FILE	(32u << 20)	/* /proc/interrupts of a big host */

struct rec_mode {
	char *rel;			/* below the recording's root */
	mode_t mode;
};

struct rec {
	const char *dst;		/* the recording's root, as named */
	int root;			/* ... and open */
	int pfd;			/* the directory last written in */
	char pdir[PATH_MAX];		/* ... its path below the root */
	struct rec_mode *modes;		/* set at the end */
	size_t nmodes, capmodes;
	struct hostrec_stats *st;
	struct lib_err *err;
};

/* Which entries of a directory to leave out: fnmatch patterns. */
struct rec_rule {
	const char *const *skip;
	int depth;			/* levels below the start to copy */
};

/* Give @rel mode @mode once everything is written. */
static int rec_mode_later(struct rec *r, const char *rel, mode_t mode)
{
	struct rec_mode *m;

	if (r->nmodes == r->capmodes) {
		size_t cap = r->capmodes ? r->capmodes * 2 : 1024;

		m = realloc(r->modes, cap * sizeof(*m));
		if (!m)
			return lib_enomem(r->err);
		r->modes = m;
		r->capmodes = cap;
	}
	m = &r->modes[r->nmodes];
	m->rel = strdup(rel);
	if (!m->rel)
		return lib_enomem(r->err);
	m->mode = mode & 07777;
	r->nmodes++;
	return 0;
}

/* Host directory @path (absolute) made in the recording, 0700 for now;
 * its fd is kept for the files that follow. */
static int rec_dir(struct rec *r, const char *path)
{
	const char *rel = path + 1;
	int fd;

	if (r->pfd >= 0 && !strcmp(r->pdir, rel))
		return r->pfd;
	fd = trust_mkdirs(r->root, rel, 0700);
	if (fd < 0)
		return lib_errf(r->err, -fd, "cannot create %s/%s: %s", r->dst, rel,
				strerror(-fd));
	if (r->pfd >= 0)
		close(r->pfd);
	r->pfd = fd;
	snprintf(r->pdir, sizeof(r->pdir), "%s", rel);
	return fd;
}

static int rec_mkdirs(struct rec *r, const char *path)
{
	int fd = rec_dir(r, path);

	if (fd < 0)
		return fd;
	r->st->dirs++;
	return 0;
}

/* The parent directory of @path inside the recording: its fd, with the
 * last name of @path in *@base. */
static int rec_parent(struct rec *r, const char *path, const char **base)
{
	char parent[PATH_MAX];
	char *slash;
	int ret;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*base = strrchr(path, '/') + 1;
	if (slash == parent)
		return r->root;
	*slash = '\0';
	ret = rec_mkdirs(r, parent);
	return ret ? ret : r->pfd;
}

static int rec_link(struct rec *r, const char *path)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *base;
	int dfd;

	if (n < 0)
		return 0;
	target[n] = '\0';
	dfd = rec_parent(r, path, &base);
	if (dfd < 0)
		return -1;
	if (symlinkat(target, dfd, base) && errno != EEXIST)
		return lib_errf(r->err, errno, "cannot create %s%s: %s", r->dst, path,
				strerror(errno));
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

/* Write @len bytes of @buf to the new file @base in @dfd (0600 until
 * the end, when it gets @mode); @path names it.  1: it is there already
 * (this run wrote it: nobody else can write in the recording). */
static int rec_write(struct rec *r, int dfd, const char *base, const char *path,
		     const char *buf, size_t len, mode_t mode)
{
	int out, ok;

	errno = 0;
	out = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0 && errno == EEXIST)
		return 1;	/* reached twice: recorded already */
	ok = out >= 0 && write(out, buf, len) == (ssize_t)len;
	if (out >= 0 && close(out))
		ok = 0;
	if (!ok)
		return lib_errf(r->err, errno ? errno : EIO, "cannot write %s%s: %s", r->dst,
				path, strerror(errno ? errno : EIO));
	return rec_mode_later(r, path + 1, mode);
}

/* Copy the regular file @path, with its mode; a file the kernel will not
 * read is left out and counted. */
static int rec_file(struct rec *r, const char *path, mode_t mode)
{
	const char *base;
	char *buf;
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
	ret = rec_parent(r, path, &base);
	if (ret >= 0)
		ret = rec_write(r, ret, base, path, buf, len, mode);
	free(buf);
	if (ret == 1)
		return 0;
	if (!ret) {
		r->st->files++;
		r->st->bytes += len;
	}
	return ret < 0 ? ret : 0;
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
	char text[1024];
	struct utsname u;
	int n;

	uname(&u);
	n = snprintf(text, sizeof(text),
		     "ssdtune %s recording of a host's /sys and /proc pieces\n"
		     "kernel %s %s\nsaved %ld (seconds since 1970)\n"
		     "replay: ssdtune --root DIR topology | plan\n",
		     SSDTUNE_VERSION, u.release, u.machine, (long)time(NULL));
	return rec_write(r, r->root, "ssdtune-recording.txt", "/ssdtune-recording.txt",
			 text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1,
			 0644);
}

/* A stream of directory @dfd's entries (@dfd stays open), or NULL. */
static DIR *dir_at(int dfd)
{
	int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Every directory below @dfd gets 0755 (they were 0700 while written). */
static int rec_dir_modes(struct rec *r, int dfd, int depth)
{
	DIR *d = dir_at(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return lib_errf(r->err, errno, "cannot read %s: %s", r->dst, strerror(errno));
	while (!ret && (de = readdir(d))) {
		int sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || fchmod(sub, 0755))
			ret = lib_errf(r->err, errno, "cannot set the mode of %s/.../%s: %s",
				       r->dst, de->d_name, strerror(errno));
		else if (depth < 64)
			ret = rec_dir_modes(r, sub, depth + 1);
		if (sub >= 0)
			close(sub);
	}
	closedir(d);
	return ret;
}

/* The modes of the host's files, now that all is written. */
static int rec_modes(struct rec *r)
{
	size_t i;
	int fd, ret = 0;

	for (i = 0; !ret && i < r->nmodes; i++) {
		fd = trust_openat(r->root, r->modes[i].rel, O_RDONLY | O_NONBLOCK, 0);
		if (fd < 0 || fchmod(fd, r->modes[i].mode))
			ret = lib_errf(r->err, fd < 0 ? -fd : errno, "cannot set the mode of %s/%s: %s",
				       r->dst, r->modes[i].rel,
				       strerror(fd < 0 ? -fd : errno));
		if (fd >= 0)
			close(fd);
	}
	return ret ? ret : rec_dir_modes(r, r->root, 0);
}

static void rec_free(struct rec *r)
{
	size_t i;

	for (i = 0; i < r->nmodes; i++)
		free(r->modes[i].rel);
	free(r->modes);
	if (r->pfd >= 0)
		close(r->pfd);
	if (r->root >= 0)
		close(r->root);
}

int hostrec_save(const char *dir, struct hostrec_stats *st, struct lib_err *err)
{
	static const struct rec_rule cpu = { skip_cpu, 4 }, node = { skip_common, 2 },
		cg = { skip_common, 2 }, flat = { skip_common, 2 };
	static const char *const classes[] = {
		"/sys/class/nvme", "/sys/class/" SSDTUNE_DRV_NAME, "/sys/class/block",
		"/sys/block", NULL,
	};
	struct rec r = { .dst = dir, .root = -1, .pfd = -1, .st = st, .err = err };
	const char *const *c;
	int ret;

	memset(st, 0, sizeof(*st));
	/* a new directory of our own, 0700 until the end: nobody else can
	 * plant a link in it, and every file in it is opened below its fd */
	r.root = trust_mkdir_new(dir, "recording directory", err);
	if (r.root < 0)
		return r.root;
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
	if (!ret)
		ret = rec_modes(&r);
	rec_free(&r);
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

/*
 * A recording as the replay reads it: directories, regular files, and
 * links that stay inside the piece they sit in (DIR/sys is /sys in the
 * replay, so a link that climbs out of it reaches the live host).  A
 * link's target is "../" a number of times, then names: each name is
 * checked where it lies, so the whole resolution stays inside.
 */
struct replay {
	const char *dir;		/* as named, for the messages */
	char rel[PATH_MAX];		/* the entry checked, below dir */
	struct lib_err *err;
};

static const char *kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}

static int replay_link(struct replay *p, int dfd, const char *name, int depth)
{
	char target[PATH_MAX], shown[256];
	const char *t = target;
	bool named = false;
	ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);

	if (n < 0)
		return lib_errf(p->err, errno, "--root %s: cannot read the link %s: %s",
				p->dir, p->rel, strerror(errno));
	target[n] = '\0';
	escape_value(target, shown, sizeof(shown));
	if (target[0] == '/')
		return lib_errf(p->err, EPERM, "--root %s: refusing the link %s -> %s: a recording's links are relative",
				p->dir, p->rel, shown);
	while (*t) {
		size_t len;

		t += strspn(t, "/");
		len = strcspn(t, "/");
		if (len == 2 && !strncmp(t, "..", 2)) {
			if (named || --depth < 0)
				return lib_errf(p->err, EPERM, "--root %s: refusing the link %s -> %s: it leads outside the recording",
						p->dir, p->rel, shown);
		} else if (len && !(len == 1 && *t == '.')) {
			named = true;
		}
		t += len;
	}
	return 0;
}

/* Everything below @dfd (at @depth below its piece's top). */
static int replay_walk(struct replay *p, int dfd, int depth)
{
	size_t at = strlen(p->rel);
	DIR *d = dir_at(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return lib_errf(p->err, errno, "--root %s: cannot read %s: %s", p->dir,
				p->rel, strerror(errno));
	while (!ret && (de = readdir(d))) {
		char name[4 * NAME_MAX + 1];
		struct stat st;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p->rel + at, sizeof(p->rel) - at, "/%s",
			 escape_value(de->d_name, name, sizeof(name)));
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = lib_errf(p->err, errno, "--root %s: cannot read %s: %s", p->dir,
				       p->rel, strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			ret = replay_link(p, dfd, de->d_name, depth);
		} else if (S_ISDIR(st.st_mode)) {
			sub = depth < 64 ? openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY |
						  O_NOFOLLOW | O_CLOEXEC) : -1;
			if (sub < 0)
				ret = lib_errf(p->err, depth < 64 ? errno : ELOOP,
					       "--root %s: cannot read %s: %s", p->dir, p->rel,
					       depth < 64 ? strerror(errno) : "too deep");
			else
				ret = replay_walk(p, sub, depth + 1);
			if (sub >= 0)
				close(sub);
		} else if (!S_ISREG(st.st_mode)) {
			ret = lib_errf(p->err, EPERM, "--root %s: refusing %s: %s (a recording holds only directories, regular files and links)",
				       p->dir, p->rel, kind(st.st_mode));
		}
	}
	p->rel[at] = '\0';
	closedir(d);
	return ret;
}

/*
 * Piece @rel of the recording (open on @root), checked: an O_PATH fd to
 * mount from, -ENOENT if it is not there (the live one stays), or -errno
 * with @err filled.
 */
static int replay_piece(struct replay *p, int root, const char *rel, bool dir)
{
	struct stat st;
	int fd = trust_openat(root, rel, O_PATH, 0), ret = 0;

	snprintf(p->rel, sizeof(p->rel), "%s", rel);
	if (fd == -ENOENT)
		return fd;
	if (fd < 0)
		return lib_errf(p->err, fd == -ELOOP ? EPERM : -fd,
				"--root %s: refusing %s: %s", p->dir, rel,
				fd == -ELOOP ? "a link where a recording has a directory or a file" :
				strerror(-fd));
	if (fstat(fd, &st))
		ret = lib_errf(p->err, errno, "--root %s: cannot read %s: %s", p->dir, rel,
			       strerror(errno));
	else if (S_ISLNK(st.st_mode))
		ret = lib_errf(p->err, EPERM, "--root %s: refusing %s: a link where a recording has a directory or a file",
			       p->dir, rel);
	else if (dir && !S_ISDIR(st.st_mode))
		ret = lib_errf(p->err, EPERM, "--root %s: refusing %s: not a directory",
			       p->dir, rel);
	else if (!dir && !S_ISREG(st.st_mode))
		ret = lib_errf(p->err, EPERM, "--root %s: refusing %s: %s (a recording holds only directories, regular files and links)",
			       p->dir, rel, S_ISDIR(st.st_mode) ? "a directory" : kind(st.st_mode));
	if (!ret && dir) {
		int rd = trust_openat(root, rel, O_RDONLY | O_DIRECTORY, 0);

		ret = rd < 0 ? lib_errf(p->err, -rd, "--root %s: cannot read %s: %s",
					p->dir, rel, strerror(-rd)) :
		      replay_walk(p, rd, 0);
		if (rd >= 0)
			close(rd);
	}
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* The piece open on @src over @dst, read-only (keeping the flags a user
 * namespace may not drop). */
static int bind_ro(int src, const char *dst, struct lib_err *err)
{
	unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
	char from[64];
	struct statvfs sv;

	snprintf(from, sizeof(from), "/proc/self/fd/%d", src);
	if (mount(from, dst, NULL, MS_BIND | MS_REC, NULL))
		return lib_errf(err, errno, "--root: cannot mount the recording over %s: %s",
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

/* Has @dir a sys/devices/system directory? */
static bool recorded(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/sys/devices/system", dir);
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

int hostrec_enter(const char *dir, struct lib_err *err)
{
	/* lint-names: /proc's */
	static const char *const pieces[] = { "sys", "proc/irq", "proc/interrupts",
					      "proc/cmdline" };
	struct replay p = { .dir = dir, .err = err };
	int fds[4] = { -1, -1, -1, -1 }, root, ret = 0;
	char live[64];
	size_t i;

	if (!recorded(dir))
		return lib_errf(err, EINVAL, "--root %s: not a recorded host (no sys/devices/system; record one with 'ssdtune topology --save DIR')",
				dir);
	ret = own_namespace(err);
	if (!ret && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		ret = lib_errf(err, errno, "--root: cannot make the mounts private: %s",
			       strerror(errno));
	root = ret ? -1 : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!ret && root < 0)
		ret = lib_errf(err, errno, "--root %s: %s", dir, strerror(errno));
	/* all checked before any is mounted, and mounted from the fds
	 * checked (opened in the new namespace, so a bind may take them):
	 * a FIFO or a link out of DIR is refused, never opened */
	for (i = 0; !ret && i < 4; i++) {
		fds[i] = replay_piece(&p, root, pieces[i], i < 2);
		if (fds[i] < 0 && fds[i] != -ENOENT)
			ret = fds[i];
	}
	if (root >= 0)
		close(root);
	for (i = 0; !ret && i < 4; i++) {
		snprintf(live, sizeof(live), "/%s", pieces[i]);
		if (fds[i] >= 0)
			ret = bind_ro(fds[i], live, err);
	}
	for (i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}
