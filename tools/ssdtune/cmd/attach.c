// SPDX-License-Identifier: GPL-2.0
/*
 * attach BDF: hand an NVMe controller from its driver (nvme) to ssdtune.
 * detach BDF: give it back.  Both refuse while any namespace is in use.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/blkdev.h"
#include "cmd/cli.h"
#include "cmd/output.h"
#include "lib/parse.h"
#include "lib/pcidev.h"
#include "lib/sysfs.h"

#define BIND_TIMEOUT_MS	10000	/* for the new driver to take the device */
#define DISK_GRACE_MS	2000	/* for its disks to show up after that */
#define POLL_MS		50

/* Report the controller's disks ("/dev/ssdt0n1 ...") into @text and JSON. */
static void report_disks(const char *pci_sysdir, const char *ctrl,
			 char *text, size_t len)
{
	struct blklist l;
	size_t i, o = 0;

	out_set_array("disks");
	text[0] = '\0';
	if (blk_collect_disks(pci_sysdir, ctrl, &l))
		return;
	for (i = 0; i < l.n; i++) {
		char dev[NAME_MAX + 8];

		if (!is_ctrl_disk(l.v[i].name, ctrl))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", l.v[i].name);
		out_append_str("disks", dev);
		if (o + 1 < len)
			o += (size_t)snprintf(text + o, len - o, "%s%s",
					      o ? " " : "", dev);
	}
	if (!o)
		snprintf(text, len, "no namespaces");
	blk_free(&l);
}

static bool has_ctrl_disks(const char *pci_sysdir, const char *ctrl)
{
	struct blklist l;
	bool any = false;
	size_t i;

	if (blk_collect_disks(pci_sysdir, ctrl, &l))
		return false;
	for (i = 0; i < l.n; i++)
		any |= is_ctrl_disk(l.v[i].name, ctrl);
	blk_free(&l);
	return any;
}

static void report_blockdevs(const struct blklist *l)
{
	size_t i;

	out_set_array("block_devices");
	for (i = 0; i < l->n; i++)
		out_append_str("block_devices", l->v[i].name);
}

/* Parse the operand and look the device up.  Returns 0 or an exit code
 * (already reported). */
static int lookup(const struct command *cmd, struct cli *cli,
		  struct pcidev *pd)
{
	struct lib_err err;
	struct bdf b;
	int r;

	out_set_bool("dry_run", cli->dry_run);
	if (bdf_parse(cli->argv[0], &b))
		return usage_error(cmd, "invalid PCI address '%s' (want DDDD:BB:DD.F, e.g. 0000:41:00.0)",
				   cli->argv[0]);
	bdf_format(&b, pd->name, sizeof(pd->name));
	out_set_str("bdf", pd->name);
	r = pcidev_lookup(&b, pd, &err);
	if (r == -ENOENT)
		return out_fail(EXIT_REFUSED, "no PCI device %s (%s/%s does not exist)",
				pd->name, SYS_PCI_DEVICES, pd->name);
	if (r)
		return out_fail_err(&err);
	out_set_str("previous_driver", pd->driver[0] ? pd->driver : NULL);
	return 0;
}

/*
 * Refuse if any block device of @pd (or of controller @ctrl) is in use.
 * Returns 0 or an exit code (already reported).  On 0, @l holds exclusive
 * opens of the devices (unless dry run) until the caller's blk_free(), so
 * nothing mounts or claims one while the driver changes.
 */
static int refuse_if_busy(const char *verb, const struct pcidev *pd,
			  const char *ctrl, struct blklist *l)
{
	char why[PATH_MAX + 256];
	int r;

	r = blk_collect(pd->sysdir, ctrl, l);
	if (r)
		return out_fail(EXIT_REFUSED, "cannot list the block devices of %s: %s",
				pd->name, strerror(-r));
	report_blockdevs(l);
	r = blk_busy(l, why, sizeof(why), !sys_dry_run());
	if (r)
		blk_free(l);
	if (r < 0)
		return out_fail(EXIT_REFUSED, "cannot check whether %s is in use: %s",
				pd->name, strerror(-r));
	if (r > 0)
		return out_fail(EXIT_REFUSED, "refusing to %s %s: %s", verb,
				pd->name, why);
	return 0;
}

/* Poll until @drv (NULL: any driver but ssdtune) drives @pd, or timeout. */
static bool wait_driver(const struct pcidev *pd, const char *drv,
			long long deadline, char *now, size_t len)
{
	for (;;) {
		if (pcidev_driver(&pd->bdf, now, len, NULL))
			now[0] = '\0';
		if (drv ? !strcmp(now, drv)
			: (now[0] && strcmp(now, SSDTUNE_DRV_NAME)))
			return true;
		if (sys_now_ms() >= deadline)
			return false;
		sys_sleep_ms(POLL_MS);
	}
}

static int write_path(const char *dir, const char *file, const char *value)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return sys_write(p, value);
}

static int dev_write(const struct pcidev *pd, const char *file,
		     const char *value)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", SYS_PCI_DEVICES, pd->name);
	return write_path(dir, file, value);
}

static int drv_write(const char *drv, const char *file, const char *value)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", SYS_PCI_DRIVERS, drv);
	return write_path(dir, file, value);
}

/* What to write to driver_override to put back its current value: the
 * kernel shows an unset override as "(null)", and "\n" clears it. */
static void save_override(const struct pcidev *pd, char *buf, size_t len)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s/driver_override", SYS_PCI_DEVICES,
		 pd->name);
	if (sys_read(p, buf, len) || !buf[0] || !strcmp(buf, "(null)"))
		snprintf(buf, len, "\n");
}

/*
 * A bind to ssdtune failed or never completed: put the override back, take
 * it off ssdtune if it got there, and let the original driver probe it
 * again.  Returns a short description of where the device ended up.
 */
static const char *give_back(const struct pcidev *pd, const char *override,
			     char *res, size_t len)
{
	char now[64];

	dev_write(pd, "driver_override", override);
	if (!pcidev_driver(&pd->bdf, now, sizeof(now), NULL) &&
	    !strcmp(now, SSDTUNE_DRV_NAME))
		drv_write(SSDTUNE_DRV_NAME, "unbind", pd->name);
	if (!pd->driver[0]) {
		snprintf(res, len, "left it unbound, as it was");
		return res;
	}
	sys_write(SYS_PCI_DRIVERS_PROBE, pd->name);
	if (wait_driver(pd, pd->driver, sys_now_ms() + BIND_TIMEOUT_MS,
			now, sizeof(now)))
		snprintf(res, len, "gave it back to %s", pd->driver);
	else
		snprintf(res, len, "could not give it back to %s (now: %s)",
			 pd->driver, now[0] ? now : "no driver");
	return res;
}

static int cmd_attach(const struct command *cmd, struct cli *cli)
{
	char ctrl[NAME_MAX + 1] = "", now[64], res[256], disks[1024];
	char override[256];
	struct blklist held;
	struct pcidev pd;
	long long deadline;
	int r;

	r = lookup(cmd, cli, &pd);
	if (r)
		return r;
	if (!pci_class_is_nvme(pd.class24))
		return out_fail(EXIT_REFUSED, "%s is not an NVMe controller (class 0x%06x, NVMe is 0x%06x)",
				pd.name, pd.class24, PCI_CLASS_NVME);
	if (!sys_is_dir(SYS_SSDT_DRIVER))
		return out_fail(EXIT_REFUSED, "the ssdtune driver is not loaded (no %s): run 'modprobe ssdtune' first",
				SYS_SSDT_DRIVER);
	if (!strcmp(pd.driver, SSDTUNE_DRV_NAME)) {
		if (!pcidev_ssdt_ctrl(pd.sysdir, ctrl, sizeof(ctrl)))
			return out_fail(EXIT_REFUSED, "%s is bound to ssdtune but has no controller in %s",
					pd.name, SYS_SSDT_CLASS);
		report_disks(pd.sysdir, ctrl, disks, sizeof(disks));
		out_set_str("status", "already_attached");
		out_set_str("driver", SSDTUNE_DRV_NAME);
		out_set_str("controller", ctrl);
		if (!out_json())
			printf("already attached %s as %s: %s\n", pd.name, ctrl, disks);
		return out_done();
	}

	r = refuse_if_busy("attach", &pd, NULL, &held);
	if (r)
		return r;

	save_override(&pd, override, sizeof(override));
	if ((r = dev_write(&pd, "driver_override", SSDTUNE_DRV_NAME))) {
		blk_free(&held);
		return out_fail(EXIT_REFUSED, "cannot set %s/%s/driver_override: %s",
				SYS_PCI_DEVICES, pd.name, strerror(-r));
	}
	if (pd.driver[0] && (r = drv_write(pd.driver, "unbind", pd.name))) {
		blk_free(&held);
		dev_write(&pd, "driver_override", override);
		return out_fail(EXIT_REFUSED, "cannot unbind %s from %s: %s",
				pd.name, pd.driver, strerror(-r));
	}
	/* The old disks are gone now: let go of them. */
	blk_free(&held);
	if ((r = drv_write(SSDTUNE_DRV_NAME, "bind", pd.name)))
		return out_fail(EXIT_REFUSED, "binding %s to ssdtune failed: %s; %s",
				pd.name, strerror(-r),
				give_back(&pd, override, res, sizeof(res)));
	if (sys_dry_run()) {
		out_set_str("status", "would_attach");
		out_set_str("driver", SSDTUNE_DRV_NAME);
		out_set_str("controller", NULL);
		out_set_array("disks");
		return out_done();
	}

	deadline = sys_now_ms() + BIND_TIMEOUT_MS;
	while (!pcidev_ssdt_ctrl(pd.sysdir, ctrl, sizeof(ctrl))) {
		if (sys_now_ms() >= deadline) {
			if (pcidev_driver(&pd.bdf, now, sizeof(now), NULL))
				now[0] = '\0';
			return out_fail(EXIT_REFUSED, "%s did not show up in %s within %d s (driver: %s); %s",
					pd.name, SYS_SSDT_CLASS,
					BIND_TIMEOUT_MS / 1000,
					now[0] ? now : "none",
					give_back(&pd, override, res, sizeof(res)));
		}
		sys_sleep_ms(POLL_MS);
	}
	/* Namespaces appear once the controller is up: give them a moment. */
	deadline = sys_now_ms() + DISK_GRACE_MS;
	while (!has_ctrl_disks(pd.sysdir, ctrl) && sys_now_ms() < deadline)
		sys_sleep_ms(POLL_MS);
	report_disks(pd.sysdir, ctrl, disks, sizeof(disks));
	out_set_str("status", "attached");
	out_set_str("driver", SSDTUNE_DRV_NAME);
	out_set_str("controller", ctrl);
	if (!out_json())
		printf("attached %s as %s: %s\n", pd.name, ctrl, disks);
	return out_done();
}

static int cmd_detach(const struct command *cmd, struct cli *cli)
{
	char ctrl[NAME_MAX + 1] = "", now[64];
	struct blklist held;
	struct pcidev pd;
	int r;

	r = lookup(cmd, cli, &pd);
	if (r)
		return r;
	if (strcmp(pd.driver, SSDTUNE_DRV_NAME)) {
		if (pd.driver[0])
			return out_fail(EXIT_REFUSED, "%s is not attached to ssdtune (its driver is %s)",
					pd.name, pd.driver);
		return out_fail(EXIT_REFUSED, "%s is not attached to ssdtune (no driver is bound)",
				pd.name);
	}
	pcidev_ssdt_ctrl(pd.sysdir, ctrl, sizeof(ctrl));
	out_set_str("controller", ctrl[0] ? ctrl : NULL);
	r = refuse_if_busy("detach", &pd, ctrl[0] ? ctrl : NULL, &held);
	if (r)
		return r;

	if ((r = dev_write(&pd, "driver_override", "\n"))) {
		blk_free(&held);
		return out_fail(EXIT_REFUSED, "cannot clear %s/%s/driver_override: %s",
				SYS_PCI_DEVICES, pd.name, strerror(-r));
	}
	r = drv_write(SSDTUNE_DRV_NAME, "unbind", pd.name);
	blk_free(&held);
	if (r) {
		dev_write(&pd, "driver_override", SSDTUNE_DRV_NAME);
		return out_fail(EXIT_REFUSED, "cannot unbind %s from ssdtune: %s",
				pd.name, strerror(-r));
	}
	if ((r = sys_write(SYS_PCI_DRIVERS_PROBE, pd.name)))
		return out_fail(EXIT_REFUSED, "%s is off ssdtune but %s failed: %s; it has no driver now",
				pd.name, SYS_PCI_DRIVERS_PROBE, strerror(-r));
	if (sys_dry_run()) {
		out_set_str("status", "would_detach");
		out_set_str("driver", NULL);
		return out_done();
	}

	if (!wait_driver(&pd, NULL, sys_now_ms() + BIND_TIMEOUT_MS, now,
			 sizeof(now)) && !strcmp(now, SSDTUNE_DRV_NAME))
		return out_fail(EXIT_REFUSED, "%s is still bound to ssdtune after unbind",
				pd.name);
	out_set_str("status", "detached");
	out_set_str("driver", now[0] ? now : NULL);
	if (!out_json()) {
		if (now[0])
			printf("detached %s from %s: bound to %s\n", pd.name,
			       ctrl[0] ? ctrl : SSDTUNE_DRV_NAME, now);
		else
			printf("detached %s from %s: no driver bound it (is nvme loaded?)\n",
			       pd.name, ctrl[0] ? ctrl : SSDTUNE_DRV_NAME);
	}
	return out_done();
}

const struct command attach_command = {
	.name = "attach",
	.args = "BDF",
	.summary = "hand an NVMe controller from its driver to ssdtune",
	.help =
"Unbind the NVMe controller at PCI address BDF (e.g. 0000:41:00.0) from its\n"
"driver (normally nvme) and bind it to the ssdtune driver, which must be\n"
"loaded.  Refuses, changing nothing, if any namespace or partition of the\n"
"controller is mounted, used as swap, held by LVM, md or device-mapper, or\n"
"open by a process.  Prints: attached BDF as ssdtN: /dev/ssdtNn1 ...\n",
	.flags = CMD_DRY_RUN,
	.min_args = 1, .max_args = 1,
	.run = cmd_attach,
};

const struct command detach_command = {
	.name = "detach",
	.args = "BDF",
	.summary = "give a controller on ssdtune back to the nvme driver",
	.help =
"Unbind the controller at PCI address BDF from ssdtune and let the kernel\n"
"probe it again, so that nvme takes it back.  Refuses, changing nothing,\n"
"while any of its /dev/ssdtNnM disks is mounted, swap, held or open.\n"
"Prints: detached BDF from ssdtN: bound to nvme\n",
	.flags = CMD_DRY_RUN,
	.min_args = 1, .max_args = 1,
	.run = cmd_detach,
};
