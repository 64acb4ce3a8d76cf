// SPDX-License-Identifier: GPL-2.0
/* Directories and files a root tool may trust (trust.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/trust.h"

static bool owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* The directories above the one open on @fd: each owned by root or the
 * caller, and writable by others only with the sticky bit. */
static int check_above(int fd, const char *dir, const char *what,
		       struct lib_err *err)
{
	char real[PATH_MAX], link[64], *slash;
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0 || real[0] != '/')
		return 0;	/* no /proc: the directory itself was checked */
	real[n] = '\0';
	while ((slash = strrchr(real, '/'))) {
		slash[slash == real] = '\0';
		if (stat(real, &st))
			return lib_errf(err, errno, "cannot check %s above %s %s: %s",
					real, what, dir, strerror(errno));
		if (!owner_ok(st.st_uid))
			return lib_errf(err, EPERM, "refusing %s %s: %s above it is owned by uid %u, not root",
					what, dir, real, (unsigned int)st.st_uid);
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
			return lib_errf(err, EPERM, "refusing %s %s: %s above it is writable by group or others (mode %04o)",
					what, dir, real, (unsigned int)(st.st_mode & 07777));
		if (slash == real)
			break;
	}
	return 0;
}

int trust_dir_open(const char *dir, const char *what, struct lib_err *err)
{
	struct stat st;
	int fd, r;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = errno;
		if ((r == ELOOP || r == ENOTDIR) && !lstat(dir, &st) && S_ISLNK(st.st_mode))
			return lib_errf(err, EPERM, "refusing %s %s: it is a symbolic link",
					what, dir);
		return lib_errf(err, r, "cannot open %s %s: %s", what, dir, strerror(r));
	}
	r = 0;
	if (fstat(fd, &st))
		r = lib_errf(err, errno, "cannot check %s %s: %s", what, dir, strerror(errno));
	else if (!owner_ok(st.st_uid))
		r = lib_errf(err, EPERM, "refusing %s %s: owned by uid %u, not root",
			     what, dir, (unsigned int)st.st_uid);
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		r = lib_errf(err, EPERM, "refusing %s %s: mode %04o lets group or others write it",
			     what, dir, (unsigned int)(st.st_mode & 07777));
	else
		r = check_above(fd, dir, what, err);
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

int trust_file_check(int fd, const char *path, const char *what,
		     struct lib_err *err)
{
	struct stat st;

	if (fstat(fd, &st))
		return lib_errf(err, errno, "cannot check %s %s: %s", what, path,
				strerror(errno));
	if (!S_ISREG(st.st_mode))
		return lib_errf(err, EPERM, "refusing %s %s: not a regular file", what, path);
	if (!owner_ok(st.st_uid))
		return lib_errf(err, EPERM, "refusing %s %s: owned by uid %u, not root",
				what, path, (unsigned int)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return lib_errf(err, EPERM, "refusing %s %s: mode %04o lets group or others write it",
				what, path, (unsigned int)(st.st_mode & 07777));
	return 0;
}

/* The next component of *@rel (skipping slashes) into @name; false at
 * the end. */
static bool next_name(const char **rel, char *name, size_t len)
{
	const char *s = *rel, *e;

	while (*s == '/')
		s++;
	if (!*s)
		return false;
	e = strchrnul(s, '/');
	snprintf(name, len, "%.*s", (int)(e - s), s);
	*rel = e;
	return true;
}

static bool last_name(const char *rel)
{
	while (*rel == '/')
		rel++;
	return !*rel;
}

int trust_openat_walk(int dfd, const char *rel, int flags, mode_t mode)
{
	char name[NAME_MAX + 1];
	int cur = dfd, fd;

	if (rel[0] == '/')
		return -EXDEV;
	while (next_name(&rel, name, sizeof(name))) {
		if (!strcmp(name, ".."))
			fd = -EXDEV;
		else if (last_name(rel))
			fd = openat(cur, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
		else
			fd = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd == -1)
			fd = errno == ENOTDIR && !last_name(rel) ? -ELOOP : -errno;
		if (cur != dfd)
			close(cur);
		if (fd < 0 || last_name(rel))
			return fd;
		cur = fd;
	}
	return -EINVAL;
}

int trust_openat(int dfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_NOFOLLOW | O_CLOEXEC),
		.mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dfd, rel, &how, sizeof(how));

	if (fd >= 0)
		return (int)fd;
	/* before 5.6, or a seccomp filter that does not know it */
	if (errno == ENOSYS || errno == EPERM)
		return trust_openat_walk(dfd, rel, flags, mode);
	return -errno;
}

int trust_mkdirs(int dfd, const char *rel, mode_t mode)
{
	char name[NAME_MAX + 1];
	int cur = dfd, fd = -EINVAL;

	while (next_name(&rel, name, sizeof(name))) {
		if (!strcmp(name, "..") || !strcmp(name, "."))
			fd = -EXDEV;
		else if (mkdirat(cur, name, mode) && errno != EEXIST)
			fd = -errno;
		else
			fd = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd == -1)
			fd = errno == ENOTDIR ? -ELOOP : -errno;
		if (cur != dfd)
			close(cur);
		if (fd < 0)
			return fd;
		cur = fd;
	}
	return cur == dfd ? fcntl(dfd, F_DUPFD_CLOEXEC, 0) : cur;
}

int trust_mkdir_new(const char *path, const char *what, struct lib_err *err)
{
	struct stat st;
	int fd;

	if (mkdir(path, 0700)) {
		if (errno == EEXIST)
			return lib_errf(err, EEXIST, "refusing %s %s: it exists already (the tool makes it, mode 0700)",
					what, path);
		return lib_errf(err, errno, "cannot create %s %s: %s", what, path,
				strerror(errno));
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return lib_errf(err, errno, "cannot open %s %s: %s", what, path,
				strerror(errno));
	/* the one just made, whatever the umask, or someone swapped it */
	if (fstat(fd, &st) || st.st_uid != geteuid() || fchmod(fd, 0700)) {
		close(fd);
		return lib_errf(err, EPERM, "refusing %s %s: it changed hands as it was made",
				what, path);
	}
	return fd;
}
