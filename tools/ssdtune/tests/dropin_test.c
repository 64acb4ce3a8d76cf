// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the configuration files the tool owns (dropin.c), on
 * drop-in paths in a scratch directory: read ("" for none), write with
 * the directories it needs, remove with "", a dry run that only records,
 * and whether a GRUB drop-in waits for a reboot (against this boot's
 * /proc/cmdline, read here too).  Left to the bats tests (tests/host):
 * what a path under /etc/systemd/system or /etc/default/grub.d sets off
 * (systemctl daemon-reload and try-restart, update-grub, the unit's
 * empty directory removed), which only those fixed paths do, and
 * dropin_systemd(), which reads the host's /run/systemd/system.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/dropin.h"
#include "lib/state.h"
#include "lib/sysfs.h"

/* What a dry run said it would do: "path <- value", one a line. */
static char said[2048];

static void observe(const char *path, const char *value)
{
	size_t n = strlen(said);

	snprintf(said + n, sizeof(said) - n, "%s <- %s\n", path, value);
}

static void test_read_write(void)
{
	char dir[SCRATCH_LEN], p[PATH_MAX], sub[PATH_MAX], want[4 * PATH_MAX], buf[256];
	int r;

	scratch_dir("dropin", dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s/none.conf", dir);
	snprintf(buf, sizeof(buf), "stale");
	CHECK(!dropin_read(p, buf, sizeof(buf)) && !buf[0],
	      "dropin_read: a drop-in that is not there reads \"\"");
	CHECK(dropin_read(dir, buf, sizeof(buf)) == -EISDIR,
	      "dropin_read: one it cannot read is an error, not \"\"");

	snprintf(p, sizeof(p), "%s/unit.service.d/ssdtune.conf", dir);
	r = dropin_write(p, "[Service]\nCPUAffinity=0-3\n");
	CHECK(!r && !dropin_read(p, buf, sizeof(buf)) &&
	      !strcmp(buf, "[Service]\nCPUAffinity=0-3\n"),
	      "dropin_write: the directory made, the content as it is, newline kept");
	r = dropin_write(p, "[Service]\n");
	CHECK(!r && !dropin_read(p, buf, sizeof(buf)) && !strcmp(buf, "[Service]\n"),
	      "dropin_write: a new content replaces the old one whole");
	snprintf(p, sizeof(p), "%s/a/b/c/ssdtune.cfg", dir);
	CHECK(!dropin_write(p, "x\n") && !dropin_read(p, buf, sizeof(buf)) && !strcmp(buf, "x\n"),
	      "dropin_write: every missing directory above made");

	r = dropin_write(p, "");
	snprintf(sub, sizeof(sub), "%s/a/b/c", dir);
	CHECK(!r && !sys_exists(p) && sys_is_dir(sub) && !dropin_write(p, ""),
	      "dropin_write \"\": the file removed, a directory no unit's kept; nothing to remove is fine");

	scratch_put(dir, "file", "");
	snprintf(p, sizeof(p), "%s/file/ssdtune.conf", dir);
	CHECK(dropin_write(p, "x\n") == -EEXIST && !sys_exists(p),
	      "dropin_write: a file where its directory belongs is an error, nothing written");

	snprintf(p, sizeof(p), "%s/new.d/ssdtune.conf", dir);
	snprintf(want, sizeof(want), "%s/new.d <- (mkdir)\n%s <- x\n", dir, p);
	said[0] = '\0';
	sys_dry_run_observer(observe);
	sys_write_mode(true);
	r = dropin_write(p, "x");
	snprintf(sub, sizeof(sub), "%s/new.d", dir);
	CHECK(!r && !strcmp(said, want) && !sys_exists(sub),
	      "dropin_write in a dry run: the directory and the file only said, nothing made");
	snprintf(p, sizeof(p), "%s/unit.service.d/ssdtune.conf", dir);
	snprintf(want, sizeof(want), "%s <- (unlink)\n", p);
	said[0] = '\0';
	r = dropin_write(p, "");
	sys_write_mode(false);
	sys_dry_run_observer(NULL);
	CHECK(!r && !strcmp(said, want) && sys_exists(p),
	      "dropin_write \"\" in a dry run: the removal only said, the file stays");
}

/* A GRUB drop-in that adds @args, as apply writes it, into @buf. */
static const char *grub(const char *args, char *buf, size_t len)
{
	snprintf(buf, len, "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT %s\"\n", args);
	return buf;
}

static void test_pending(void)
{
	char conf[2048], cmdline[4096], first[1024] = "", args[1100], why[256];

	snprintf(why, sizeof(why), "stale");
	CHECK(!dropin_pending("[Service]\nCPUAffinity=0-3\n", why, sizeof(why)) &&
	      !dropin_pending("", why, sizeof(why)) && !strcmp(why, "stale"),
	      "dropin_pending: a drop-in that adds no kernel arguments waits for nothing");
	CHECK(!dropin_pending("GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT x=1\n",
			      why, sizeof(why)),
	      "dropin_pending: arguments without their closing quote are none");
	CHECK(dropin_pending(grub("ssdtune.never_booted=1", conf, sizeof(conf)), why, sizeof(why)) &&
	      !strcmp(why, "written, but the running kernel did not boot with ssdtune.never_booted=1: reboot"),
	      "dropin_pending: an argument this boot lacks: pending, a reboot, named");

	/* this boot's first argument, alone, with one it lacks, cut short */
	if (!state_read_raw("/proc/cmdline", cmdline, sizeof(cmdline)))
		sscanf(cmdline, "%1023s", first);
	if (first[0]) {
		snprintf(args, sizeof(args), "%s ssdtune.never_booted=1", first);
		CHECK(!dropin_pending(grub(first, conf, sizeof(conf)), why, sizeof(why)) &&
		      dropin_pending(grub(args, conf, sizeof(conf)), why, sizeof(why)),
		      "dropin_pending: an argument this boot has is not pending; one it lacks is enough");
		first[strlen(first) - 1] = '\0';
		CHECK(!first[0] || dropin_pending(grub(first, conf, sizeof(conf)), why, sizeof(why)),
		      "dropin_pending: whole arguments compared, a part of one is not it");
	} else {
		CHECK(dropin_pending(grub("quiet", conf, sizeof(conf)), why, sizeof(why)),
		      "dropin_pending: without /proc/cmdline, any argument is pending");
	}
}

void test_dropin(void)
{
	test_read_write();
	test_pending();
}
