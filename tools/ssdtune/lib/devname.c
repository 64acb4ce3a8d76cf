// SPDX-License-Identifier: GPL-2.0
/* Controller names to PCI addresses (devname.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/devname.h"
#include "lib/parse.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

#define SYS_CLASS_NVME	"/sys/class/nvme"

/* "PREFIXN" (N decimal, nothing after): N's length, or 0. */
static size_t numbered(const char *s, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p = s + pl;
	unsigned int v;

	if (strncmp(s, prefix, pl))
		return 0;
	if (parse_dec(&p, &v))
		return 0;
	return (size_t)(p - s);
}

/* A controller "PREFIXN", or a namespace of one "PREFIXNnM" (nvme: also
 * a path "nvmeNcKnM"): true for either, *@disk for the second. */
static bool ctrl_or_disk(const char *s, const char *prefix, bool *disk)
{
	size_t n = numbered(s, prefix), m;

	if (!n)
		return false;
	if (!s[n]) {
		*disk = false;
		return true;
	}
	if (s[n] == 'c' && !strcmp(prefix, "nvme")) {
		m = numbered(s + n, "c");
		if (!m)
			return false;
		n += m;
	}
	m = numbered(s + n, "n");
	*disk = m && !s[n + m];
	return *disk;
}

/* The PCI function above sysfs path @path: the last component of its
 * real path that is a PCI address.  0 or -ENODEV. */
static int bdf_above(const char *path, char *bdf, size_t len)
{
	char rp[PATH_MAX], *c, *save = NULL;
	struct bdf b;
	int found = -ENODEV;

	if (sys_realpath(path, rp))
		return -ENODEV;
	for (c = strtok_r(rp, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (!bdf_parse(c, &b)) {
			bdf_format(&b, bdf, len);
			found = 0;
		}
	return found;
}

/* Is @path (a /sys/block name) a path disk nvme<A>c<N>n<B> of the head
 * disk nvme<A>n<B>? */
static bool path_of(const char *path, const char *head)
{
	unsigned int a, b, c, ha, hb;
	int end = 0, hend = 0;

	if (sscanf(head, "nvme%un%u%n", &ha, &hb, &hend) != 2 || head[hend])
		return false;
	if (sscanf(path, "nvme%uc%un%u%n", &a, &c, &b, &end) != 3 || path[end])
		return false;
	return a == ha && b == hb;
}

/*
 * A multipath head disk: the PCI function of its one path.  Its paths are
 * listed in /sys/block/HEAD/multipath from Linux 6.14; before (6.1, 6.12)
 * they are the disks nvme<A>c<N>n<B> of head nvme<A>n<B> (the subsystem's
 * instance, the controller's, the head's).
 */
static int multipath_bdf(const char *name, char *bdf, size_t len,
			 struct lib_err *err)
{
	char dir[PATH_MAX], p[PATH_MAX + 256], one[256] = "";
	bool listed = true;
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), SYS_BLOCK "/%s/multipath", name);
	d = opendir(dir);
	if (!d) {
		listed = false;
		snprintf(dir, sizeof(dir), SYS_BLOCK);
		d = opendir(dir);
	}
	if (!d)
		return -ENODEV;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && (listed || path_of(e->d_name, name)) && !n++)
			snprintf(one, sizeof(one), "%s", e->d_name);
	closedir(d);
	if (n > 1)
		return lib_errf(err, ENOTUNIQ, "%s has %d paths, one per controller: name the controller (see 'ssdtune topology')",
				name, n);
	snprintf(p, sizeof(p), "%s/%s", dir, one);
	return n ? bdf_above(p, bdf, len) : -ENODEV;
}

int devname_bdf(const char *name, char *bdf, size_t len, struct lib_err *err)
{
	const char *s = name;
	bool disk = false, ssdt = false;
	char path[PATH_MAX];
	struct bdf b;
	int r;

	if (!bdf_parse(name, &b)) {
		bdf_format(&b, bdf, len);
		return 0;
	}
	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (ctrl_or_disk(s, SSDTUNE_CTRL_PREFIX, &disk))
		ssdt = true;
	else if (!ctrl_or_disk(s, "nvme", &disk))
		return lib_errf(err, EINVAL, "'%s' names no controller: give %s",
				name, DEVNAME_FORMS);
	if (disk) {
		snprintf(path, sizeof(path), SYS_BLOCK "/%s", s);
		r = bdf_above(path, bdf, len);
		/* a multipath head lives under the subsystem, not a device */
		if (r && !ssdt && sys_exists(path))
			r = multipath_bdf(s, bdf, len, err);
		if (r == -ENOTUNIQ)
			return r;
		if (r)
			return lib_errf(err, ENODEV, "no namespace %s on this host (see 'ssdtune topology')",
					name);
		return 0;
	}
	if (ssdt)	/* not ssdtdev_path(): ssdtdev.c resolves names here */
		snprintf(path, sizeof(path), SSDTDEV_CLASS_DIR "/%s", s);
	else
		snprintf(path, sizeof(path), SYS_CLASS_NVME "/%s", s);
	if (bdf_above(path, bdf, len))
		return lib_errf(err, ENODEV, "no controller %s on this host (%s: none; see 'ssdtune topology')",
				name, path);
	return 0;
}
