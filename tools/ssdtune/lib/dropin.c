// SPDX-License-Identifier: GPL-2.0
/* Configuration files the tool owns, and the unit they configure (dropin.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/dropin.h"
#include "lib/state.h"
#include "lib/sysfs.h"

bool dropin_systemd(void)
{
	return sys_is_dir("/run/systemd/system");
}

int dropin_read(const char *path, char *buf, size_t len)
{
	int r = state_read_raw(path, buf, len);

	if (r == -ENOENT) {
		buf[0] = '\0';
		return 0;
	}
	return r;
}

/* mkdir -p the directory of @path. */
static int make_parents(const char *path)
{
	char dir[PATH_MAX], *s;
	int r;

	snprintf(dir, sizeof(dir), "%s", path);
	for (s = strchr(dir + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (!sys_is_dir(dir)) {
			r = sys_mkdir(dir);
			if (r)
				return r;
		}
		*s = '/';
	}
	return 0;
}

/* "/etc/systemd/system/UNIT.service.d/x.conf": UNIT.service into @unit. */
static bool unit_of(const char *path, char *unit, size_t len)
{
	const char *base = "/etc/systemd/system/";
	const char *u = path + strlen(base), *d;

	if (strncmp(path, base, strlen(base)))
		return false;
	d = strstr(u, ".d/");
	if (!d)
		return false;
	snprintf(unit, len, "%.*s", (int)(d - u), u);
	return true;
}

static int reload(const char *path)
{
	char unit[NAME_MAX + 1];
	char *reload_argv[] = { "systemctl", "daemon-reload", NULL };
	char *restart_argv[] = { "systemctl", "try-restart", unit, NULL };
	int r;

	if (!unit_of(path, unit, sizeof(unit)) || !dropin_systemd())
		return 0;
	r = sys_run(reload_argv);
	return r ? r : sys_run(restart_argv);
}

int dropin_write(const char *path, const char *val)
{
	char dir[PATH_MAX], *slash;
	int r;

	if (!val[0]) {
		if (!sys_exists(path))
			return 0;
		r = sys_unlink(path);
		if (r)
			return r;
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			if (sys_rmdir(dir) == -ENOTEMPTY)	/* another drop-in */
				r = 0;
		}
		return reload(path);
	}
	r = make_parents(path);
	if (!r)
		r = sys_create(path, val);
	return r ? r : reload(path);
}
