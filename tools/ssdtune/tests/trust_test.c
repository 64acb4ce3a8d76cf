// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the trusted opens (trust.c) on a scratch directory: a
 * link planted on the way or at the end is refused by openat2() and by
 * the walk older kernels get, a ".." out of the directory too; a
 * directory that others can write, or a link to one, is refused with a
 * line that says why; a new directory is made 0700 and an existing one
 * refused.  Ownership by another user is left to the bats tests (the
 * run is root there).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "tests.h"
#include "lib/trust.h"

static void test_openat(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], q[PATH_MAX], buf[16] = "";
	int dfd, fd, i;
	int (*const how[])(int, const char *, int, mode_t) = {
		trust_openat, trust_openat_walk,
	};

	scratch_dir("trust", dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/sub", dir);
	mkdir(p, 0700);
	scratch_put(p, "file", "inside");
	scratch_put(dir, "victim", "root's");
	snprintf(p, sizeof(p), "%s/sub/link", dir);
	snprintf(q, sizeof(q), "%s/victim", dir);
	CHECK(!symlink(q, p), "a planted link to a file");
	snprintf(p, sizeof(p), "%s/dirlink", dir);
	CHECK(!symlink("sub", p), "a planted link to a directory");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	for (i = 0; i < 2; i++) {
		fd = how[i](dfd, "sub/file", O_RDONLY, 0);
		CHECK(fd >= 0 && read(fd, buf, sizeof(buf) - 1) == 6 && !strncmp(buf, "inside", 6),
		      i ? "trust_openat_walk: a file below the directory opens" : "trust_openat: a file below the directory opens");
		if (fd >= 0)
			close(fd);
		CHECK(how[i](dfd, "sub/link", O_WRONLY | O_TRUNC, 0) == -ELOOP,
		      i ? "trust_openat_walk: a link at the end is refused (-ELOOP)" : "trust_openat: a link at the end is refused (-ELOOP)");
		CHECK(how[i](dfd, "dirlink/file", O_RDONLY, 0) == -ELOOP,
		      i ? "trust_openat_walk: a link on the way is refused (-ELOOP)" : "trust_openat: a link on the way is refused (-ELOOP)");
		CHECK(how[i](dfd, "sub/../../x", O_RDONLY, 0) == -EXDEV,
		      i ? "trust_openat_walk: '..' out of the directory is refused (-EXDEV)" : "trust_openat: '..' out of the directory is refused (-EXDEV)");
		CHECK(how[i](dfd, "sub/new", O_WRONLY | O_CREAT | O_EXCL, 0600) >= 0 &&
		      how[i](dfd, "sub/new", O_WRONLY | O_CREAT | O_EXCL, 0600) == -EEXIST,
		      i ? "trust_openat_walk: O_EXCL holds" : "trust_openat: O_EXCL holds");
		snprintf(p, sizeof(p), "%s/sub/new", dir);
		unlink(p);
	}
	CHECK(!strcmp(scratch_get(dir, "victim", buf, sizeof(buf)), "root's"),
	      "the link's target is untouched");
	fd = trust_mkdirs(dfd, "a/b/c", 0700);
	CHECK(fd >= 0, "trust_mkdirs makes a/b/c");
	if (fd >= 0)
		close(fd);
	CHECK(trust_mkdirs(dfd, "dirlink/d", 0700) == -ELOOP,
	      "trust_mkdirs refuses a link on the way");
	close(dfd);
}

static void test_dirs(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], q[PATH_MAX];
	struct lib_err err = { 0 };
	struct stat st;
	int fd;

	scratch_dir("trust-dirs", dir, sizeof(dir));
	fd = trust_dir_open(dir, "state directory", &err);
	CHECK(fd >= 0, "a 0700 directory of the caller's is trusted");
	if (fd >= 0)
		close(fd);
	chmod(dir, 0777);
	CHECK(trust_dir_open(dir, "state directory", &err) == -EPERM &&
	      strstr(err.msg, "mode 0777 lets group or others write it"),
	      "a 0777 directory is refused");
	snprintf(p, sizeof(p), "%s/below", dir);
	mkdir(p, 0700);
	CHECK(trust_dir_open(p, "state directory", &err) == -EPERM &&
	      strstr(err.msg, "above it is writable by group or others (mode 0777)"),
	      "one below a 0777 directory is refused");
	chmod(dir, 01777);
	fd = trust_dir_open(p, "state directory", &err);
	CHECK(fd >= 0, "one below a sticky 1777 directory (/tmp) is trusted");
	if (fd >= 0)
		close(fd);
	chmod(dir, 0700);
	snprintf(q, sizeof(q), "%s/link", dir);
	CHECK(!symlink("below", q), "a link to the directory below");
	CHECK(trust_dir_open(q, "state directory", &err) == -EPERM &&
	      strstr(err.msg, "it is a symbolic link"), "a link is refused");
	snprintf(q, sizeof(q), "%s/none", dir);
	CHECK(trust_dir_open(q, "state directory", &err) == -ENOENT,
	      "a directory that is not there: -ENOENT");
	snprintf(q, sizeof(q), "%s/new", dir);
	umask(0);
	fd = trust_mkdir_new(q, "recording directory", &err);
	umask(022);
	CHECK(fd >= 0 && !fstat(fd, &st) && (st.st_mode & 07777) == 0700,
	      "trust_mkdir_new makes it 0700, whatever the umask");
	if (fd >= 0)
		close(fd);
	CHECK(trust_mkdir_new(q, "recording directory", &err) == -EEXIST &&
	      strstr(err.msg, "exists already"), "and refuses it the second time");
	CHECK(trust_mkdir_new(p + 0, "recording directory", &err) == -EEXIST,
	      "or any that is there");
}

void test_trust(void)
{
	test_openat();
	test_dirs();
}
