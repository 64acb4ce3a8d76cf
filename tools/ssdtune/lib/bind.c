// SPDX-License-Identifier: GPL-2.0
/*
 * A PCI function from one driver to another (bind.h): the sysfs writes in
 * the order the PCI core needs them, the busy check before them, the
 * bounded waits after them, and the way back when a step fails.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/bind.h"
#include "lib/devname.h"
#include "lib/parse.h"
#include "lib/report.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

#define DISK_GRACE_MS	2000	/* for its disks to show up after the bind */
#define POLL_MS		50

/* The PCI function @arg names, into @d (the report gets "dry_run",
 * "pci_address" and "previous_driver" on the way). */
static int lookup(const char *arg, struct bind_dev *d, struct lib_err *err)
{
	struct pcidev *pd = &d->pd;
	char name[BDF_BUFSZ];
	struct bdf b;
	int r;

	memset(d, 0, sizeof(*d));
	report_set_bool("dry_run", sys_dry_run());
	/* any name of the controller (devname.h): -EINVAL is a usage error */
	r = devname_bdf(arg, name, sizeof(name), err);
	if (r)
		return r;
	bdf_parse(name, &b);
	bdf_format(&b, pd->name, sizeof(pd->name));
	report_set_str("pci_address", pd->name);
	r = pcidev_lookup(&b, pd, err);
	if (r == -ENOENT)
		return lib_errf(err, ENOENT, "no PCI device %s (%s/%s does not exist)",
				pd->name, SYS_PCI_DEVICES, pd->name);
	if (r)
		return r;
	report_set_str("previous_driver", pd->driver[0] ? pd->driver : NULL);
	return 0;
}

/* Can @d go to ssdtune?  As bind_attach_begin(). */
static int can_attach(struct bind_dev *d, struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;

	if (!pci_class_is_nvme(pd->class24))
		return lib_errf(err, ENODEV, "%s is not an NVMe controller (class 0x%06x, NVMe is 0x%06x)",
				pd->name, pd->class24, PCI_CLASS_NVME);
	if (!sys_is_dir(SYS_SSDT_DRIVER))
		return lib_errf(err, ENOENT, "the ssdtune driver is not loaded (no %s): run 'modprobe ssdtune' first",
				SYS_SSDT_DRIVER);
	if (strcmp(pd->driver, SSDTUNE_DRV_NAME))
		return 0;
	if (!ssdtdev_of_pci(pd->sysdir, d->ctrl, sizeof(d->ctrl)))
		return lib_errf(err, ENOENT, "%s is bound to ssdtune but has no controller in %s",
				pd->name, SSDTDEV_CLASS_DIR);
	return 1;
}

/* Is @d on ssdtune?  As bind_detach_begin(). */
static int can_detach(struct bind_dev *d, struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;

	if (strcmp(pd->driver, SSDTUNE_DRV_NAME)) {
		if (pd->driver[0])
			return lib_errf(err, ENODEV, "%s is not attached to ssdtune (its driver is %s)",
					pd->name, pd->driver);
		return lib_errf(err, ENODEV, "%s is not attached to ssdtune (no driver is bound)",
				pd->name);
	}
	ssdtdev_of_pci(pd->sysdir, d->ctrl, sizeof(d->ctrl));
	return 0;
}

int bind_attach_begin(const char *arg, struct bind_dev *d,
		      struct lib_err *err)
{
	int r = lookup(arg, d, err);

	return r ? r : can_attach(d, err);
}

int bind_detach_begin(const char *arg, struct bind_dev *d,
		      struct lib_err *err)
{
	int r = lookup(arg, d, err);

	return r ? r : can_detach(d, err);
}

/*
 * Refuse (-errno, @err "refusing to @verb BDF: why" or why the check
 * failed) if any block device of @d (or of its controller) is in use.
 * On 0, @d->held holds exclusive opens of them (not in a dry run) until
 * it is freed, so nothing mounts or claims one while the driver changes.
 */
static int hold_idle(const char *verb, struct bind_dev *d,
		     struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;
	struct blklist *l = &d->held;
	char why[PATH_MAX + 256];
	size_t i;
	int r;

	r = blk_collect(pd->sysdir, d->ctrl[0] ? d->ctrl : NULL, l);
	if (r)
		return lib_errf(err, -r, "cannot list the block devices of %s: %s",
				pd->name, strerror(-r));
	report_set_array("block_devices");
	for (i = 0; i < l->n; i++)
		report_append_str("block_devices", l->v[i].name);
	r = blk_busy(l, why, sizeof(why), !sys_dry_run());
	if (r)
		blk_free(l);
	if (r < 0)
		return lib_errf(err, -r, "cannot check whether %s is in use: %s",
				pd->name, strerror(-r));
	if (r > 0)
		return lib_errf(err, EBUSY, "refusing to %s %s: %s", verb,
				pd->name, why);
	return 0;
}

int bind_check_idle(const char *verb, struct bind_dev *d,
		    struct lib_err *err)
{
	int r = hold_idle(verb, d, err);

	if (!r)
		blk_free(&d->held);
	return r;
}

int bind_check_all(const char *verb, char *const *args, int n,
		   char (*bdfs)[BDF_BUFSZ], struct lib_err *err)
{
	bool attach = !strcmp(verb, "attach");
	struct bind_dev d;
	int i, k, r;

	for (i = 0; i < n; i++) {
		r = attach ? bind_attach_begin(args[i], &d, err)
			   : bind_detach_begin(args[i], &d, err);
		if (r < 0)
			return r;
		/* one already on ssdtune is left alone: nothing to check */
		if (!r && (r = bind_check_idle(verb, &d, err)))
			return r;
		snprintf(bdfs[i], BDF_BUFSZ, "%s", d.pd.name);
		for (k = 0; k < i; k++)
			if (!strcmp(bdfs[k], bdfs[i]))
				return lib_errf(err, EINVAL, "%s and %s are both %s: name each controller once",
						args[k], args[i], bdfs[i]);
	}
	return 0;
}

/* Poll until @drv (NULL: any driver but ssdtune) drives @pd, or timeout;
 * the driver seen last into @now. */
static bool wait_driver(const struct pcidev *pd, const char *drv,
			char *now, size_t len)
{
	long long deadline = sys_now_ms() + BIND_TIMEOUT_MS;

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

/* DIR/NAME/FILE <- @value, DIR a sysfs directory of devices or drivers. */
static int write_file(const char *dir, const char *name, const char *file,
		      const char *value)
{
	char p[PATH_MAX * 2];

	snprintf(p, sizeof(p), "%s/%s/%s", dir, name, file);
	return sys_write(p, value);
}

static int set_override(const struct pcidev *pd, const char *value)
{
	return write_file(SYS_PCI_DEVICES, pd->name, "driver_override", value);
}

static int unbind(const struct pcidev *pd, const char *drv)
{
	return write_file(SYS_PCI_DRIVERS, drv, "unbind", pd->name);
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

	set_override(pd, override);
	if (!pcidev_driver(&pd->bdf, now, sizeof(now), NULL) &&
	    !strcmp(now, SSDTUNE_DRV_NAME))
		unbind(pd, SSDTUNE_DRV_NAME);
	if (!pd->driver[0]) {
		snprintf(res, len, "left it unbound, as it was");
		return res;
	}
	sys_write(SYS_PCI_DRIVERS_PROBE, pd->name);
	if (wait_driver(pd, pd->driver, now, sizeof(now)))
		snprintf(res, len, "gave it back to %s", pd->driver);
	else
		snprintf(res, len, "could not give it back to %s (now: %s)",
			 pd->driver, now[0] ? now : "no driver");
	return res;
}

int bind_to_ssdtune(struct bind_dev *d, struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;
	struct blklist *held = &d->held;
	const char *override = d->override;
	char res[256];
	int r;

	r = hold_idle("attach", d, err);
	if (r)
		return r;
	save_override(pd, d->override, sizeof(d->override));
	if ((r = set_override(pd, SSDTUNE_DRV_NAME))) {
		blk_free(held);
		return lib_errf(err, -r, "cannot set %s/%s/driver_override: %s",
				SYS_PCI_DEVICES, pd->name, strerror(-r));
	}
	if (pd->driver[0] && (r = unbind(pd, pd->driver))) {
		blk_free(held);
		set_override(pd, override);
		return lib_errf(err, -r, "cannot unbind %s from %s: %s",
				pd->name, pd->driver, strerror(-r));
	}
	/* The old disks are gone now: let go of them. */
	blk_free(held);
	if ((r = write_file(SYS_PCI_DRIVERS, SSDTUNE_DRV_NAME, "bind", pd->name)))
		return lib_errf(err, -r, "binding %s to ssdtune failed: %s; %s",
				pd->name, strerror(-r),
				give_back(pd, override, res, sizeof(res)));
	return 0;
}

int bind_ctrl_disks(const char *pci_sysdir, const char *ctrl,
		    struct blklist *l)
{
	size_t i, n = 0;
	int r;

	r = blk_collect_disks(pci_sysdir, ctrl, l);
	if (r)
		return r;
	for (i = 0; i < l->n; i++)
		if (ssdtdev_is_disk(l->v[i].name, ctrl))
			l->v[n++] = l->v[i];
	l->n = n;
	return 0;
}

static bool has_ctrl_disks(const char *pci_sysdir, const char *ctrl)
{
	struct blklist l;
	bool any;

	if (bind_ctrl_disks(pci_sysdir, ctrl, &l))
		return false;
	any = l.n > 0;
	blk_free(&l);
	return any;
}

int bind_wait_ctrl(struct bind_dev *d, struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;
	char now[64], res[256];
	long long deadline;

	deadline = sys_now_ms() + BIND_TIMEOUT_MS;
	while (!ssdtdev_of_pci(pd->sysdir, d->ctrl, sizeof(d->ctrl))) {
		if (sys_now_ms() >= deadline) {
			if (pcidev_driver(&pd->bdf, now, sizeof(now), NULL))
				now[0] = '\0';
			return lib_errf(err, ETIMEDOUT, "%s did not show up in %s within %d s (driver: %s); %s",
					pd->name, SSDTDEV_CLASS_DIR,
					BIND_TIMEOUT_MS / 1000,
					now[0] ? now : "none",
					give_back(pd, d->override, res, sizeof(res)));
		}
		sys_sleep_ms(POLL_MS);
	}
	/* Namespaces appear once the controller is up: give them a moment. */
	deadline = sys_now_ms() + DISK_GRACE_MS;
	while (!has_ctrl_disks(pd->sysdir, d->ctrl) && sys_now_ms() < deadline)
		sys_sleep_ms(POLL_MS);
	return 0;
}

int bind_release(struct bind_dev *d, struct lib_err *err)
{
	const struct pcidev *pd = &d->pd;
	struct blklist *held = &d->held;
	int r;

	r = hold_idle("detach", d, err);
	if (r)
		return r;
	if ((r = set_override(pd, "\n"))) {
		blk_free(held);
		return lib_errf(err, -r, "cannot clear %s/%s/driver_override: %s",
				SYS_PCI_DEVICES, pd->name, strerror(-r));
	}
	r = unbind(pd, SSDTUNE_DRV_NAME);
	blk_free(held);
	if (r) {
		set_override(pd, SSDTUNE_DRV_NAME);
		return lib_errf(err, -r, "cannot unbind %s from ssdtune: %s",
				pd->name, strerror(-r));
	}
	if ((r = sys_write(SYS_PCI_DRIVERS_PROBE, pd->name)))
		return lib_errf(err, -r, "%s is off ssdtune but %s failed: %s; it has no driver now",
				pd->name, SYS_PCI_DRIVERS_PROBE, strerror(-r));
	return 0;
}

int bind_wait_other(const struct bind_dev *d, char *now, size_t len,
		    struct lib_err *err)
{
	if (!wait_driver(&d->pd, NULL, now, len) &&
	    !strcmp(now, SSDTUNE_DRV_NAME))
		return lib_errf(err, EBUSY, "%s is still bound to ssdtune after unbind",
				d->pd.name);
	return 0;
}
