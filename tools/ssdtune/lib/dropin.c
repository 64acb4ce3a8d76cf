// SPDX-License-Identifier: GPL-2.0
/* Configuration files the tool owns, and the unit they configure (dropin.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The kernel arguments a GRUB drop-in adds (its
 * GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT ARGS"), into
 * @args; false if @conf has none. */
static bool grub_args(const char *conf, char *args, size_t len)
{
	static const char head[] = "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT ";
	const char *s = strstr(conf, head), *q;

	if (!s)
		return false;
	s += strlen(head);
	q = strchr(s, '"');
	if (!q)
		return false;
	snprintf(args, len, "%.*s", (int)(q - s), s);
	return true;
}

/* Did the running kernel boot with every one of @args? */
static bool booted_with(const char *args)
{
	char cmdline[4096], want[4096], padded[4100], tok[1024], *t, *save;

	if (sys_read("/proc/cmdline", cmdline, sizeof(cmdline)))
		return false;
	snprintf(padded, sizeof(padded), " %s ", cmdline);
	snprintf(want, sizeof(want), "%s", args);
	for (t = strtok_r(want, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		snprintf(tok, sizeof(tok), " %s ", t);
		if (!strstr(padded, tok))
			return false;
	}
	return true;
}

bool dropin_pending(const char *conf, char *why, size_t len)
{
	char args[1024];

	if (!grub_args(conf, args, sizeof(args)) || booted_with(args))
		return false;
	snprintf(why, len, "written, but the running kernel did not boot with %s: reboot",
		 args);
	return true;
}

static int reload(const char *path)
{
	char unit[NAME_MAX + 1];
	char *reload_argv[] = { "systemctl", "daemon-reload", NULL };
	char *restart_argv[] = { "systemctl", "try-restart", unit, NULL };
	char *grub_argv[] = { "update-grub", NULL };
	int r;

	if (!strncmp(path, "/etc/default/grub.d/", 20))
		return sys_have("update-grub") ? sys_run(grub_argv) : 0;
	if (!unit_of(path, unit, sizeof(unit)) || !dropin_systemd())
		return 0;
	r = sys_run(reload_argv);
	return r ? r : sys_run(restart_argv);
}

static bool dir_empty(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

int dropin_write(const char *path, const char *val)
{
	char dir[PATH_MAX], unit[NAME_MAX + 1], *slash;
	int r;

	if (!val[0]) {
		if (!sys_exists(path))
			return 0;
		r = sys_unlink(path);
		if (r)
			return r;
		/* a unit's drop-in directory goes when it is empty (apply
		 * made it, as a rule); /etc/default/grub.d is GRUB's own */
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash && unit_of(path, unit, sizeof(unit))) {
			*slash = '\0';
			if (dir_empty(dir))
				sys_rmdir(dir);
		}
		return reload(path);
	}
	r = make_parents(path);
	if (!r)
		r = sys_create(path, val);
	return r ? r : reload(path);
}
