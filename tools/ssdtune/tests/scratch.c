// SPDX-License-Identifier: GPL-2.0
/* Scratch files for the unit tests (tests.h): one mkdtemp() directory a run. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "tests.h"

static char root[PATH_MAX];

static void bail_out(const char *what, const char *path)
{
	printf("Bail out! cannot create %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

const char *scratch_root(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!root[0]) {
		snprintf(root, sizeof(root), "%s/ssdtune-unit.XXXXXX",
			 tmp && tmp[0] ? tmp : "/tmp");
		if (!mkdtemp(root))
			bail_out("the scratch directory", root);
	}
	return root;
}

void scratch_dir(const char *name, char *buf, size_t len)
{
	scratch_root();
	if ((size_t)snprintf(buf, len, "%s/%s", root, name) >= len) {
		errno = ENAMETOOLONG;
		bail_out("scratch directory", name);
	}
	if (mkdir(buf, 0700))
		bail_out("scratch directory", buf);
}

int scratch_put(const char *dir, const char *file, const char *text)
{
	char p[PATH_MAX];
	FILE *f;
	int r;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	if (!f)
		return -1;
	r = fputs(text, f) < 0;
	return fclose(f) || r ? -1 : 0;
}

char *scratch_get(const char *dir, const char *file, char *buf, size_t len)
{
	char p[PATH_MAX];
	size_t n = 0;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void scratch_remove(void)
{
	if (!root[0])
		return;
	if (tap_failed)
		printf("# scratch files kept in %s\n", root);
	else if (nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		printf("# cannot remove %s: %s\n", root, strerror(errno));
}
