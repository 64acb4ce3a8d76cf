/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Handing a PCI function from one driver to another through sysfs
 * (driver_override, unbind, bind, drivers_probe), never while one of its
 * block devices is in use; used by attach (nvme -> ssdtune) and detach
 * (ssdtune -> whatever probes it).  Every write goes through sys_write(),
 * so --dry-run shows the same sequence.  Besides the writes, the report
 * gets "dry_run", "pci_address", "previous_driver" (bind_*_begin()) and
 * "block_devices" (the busy check) at the point they become known.
 */
#ifndef SSDTUNE_BIND_H
#define SSDTUNE_BIND_H

#include <limits.h>
#include <stddef.h>

#include "lib/blkdev.h"
#include "lib/error.h"
#include "lib/pcidev.h"

#define BIND_TIMEOUT_MS	10000	/* for the new driver to take the device */
#define BIND_MAX_ARGS	64	/* controllers one attach or detach takes */

/* A PCI function on its way from one driver to another. */
struct bind_dev {
	struct pcidev pd;
	char ctrl[NAME_MAX + 1];	/* its ssdtN ("" while it has none) */
	char override[256];		/* driver_override before attach */
	struct blklist held;		/* its block devices, held meanwhile */
};

/*
 * attach: look up the PCI function @arg names and see whether it can go
 * to ssdtune.  0: it can; 1: it is there already, as @d->ctrl; -EINVAL:
 * @arg is no PCI address (@err holds the usage message); else -errno
 * with @err filled (no such device, not NVMe, no ssdtune driver, ...).
 */
int bind_attach_begin(const char *arg, struct bind_dev *d,
		      struct lib_err *err);

/*
 * detach: the same for taking it off ssdtune.  0: ssdtune drives it, as
 * @d->ctrl ("" if it has no controller); else as bind_attach_begin().
 */
int bind_detach_begin(const char *arg, struct bind_dev *d,
		      struct lib_err *err);

/*
 * attach or detach (@verb) of the @n controllers @args names: each looked
 * up and checked as bind_attach_begin() or bind_detach_begin() and
 * bind_check_idle() would, and none named twice, so that a command given
 * several changes nothing unless all can go.  Their PCI addresses into
 * @bdfs.  0; -EINVAL if one is no name of a controller (@err holds the
 * usage message); else -errno with @err filled ("CTRL: why").
 */
int bind_check_all(const char *verb, char *const *args, int n,
		   char (*bdfs)[BDF_BUFSZ], struct lib_err *err);

/*
 * Refuse as bind_to_ssdtune() would ("refusing to @verb BDF: why") if a
 * block device of @d is in use now, holding nothing: for a command that
 * waits or reads before it binds (qualify), so the refusal comes first.
 */
int bind_check_idle(const char *verb, struct bind_dev *d,
		    struct lib_err *err);

/*
 * Move @d from its driver to ssdtune, unless one of its block devices is
 * in use ("refusing to attach BDF: why"): with them held open exclusively
 * (not in a dry run), so that nothing mounts or claims one meanwhile,
 * save driver_override, point it at ssdtune, unbind, let them go, bind.
 * -errno with @err filled if a step fails, after undoing what was done.
 */
int bind_to_ssdtune(struct bind_dev *d, struct lib_err *err);

/*
 * After bind_to_ssdtune(): wait for @d's controller (into @d->ctrl), then
 * briefly for its namespaces.  On timeout, give it back to its driver
 * and return -ETIMEDOUT with @err saying so.
 */
int bind_wait_ctrl(struct bind_dev *d, struct lib_err *err);

/* The namespace disks "<ctrl>n<M>" of @ctrl under @pci_sysdir, sorted by
 * name.  0 or -errno. */
int bind_ctrl_disks(const char *pci_sysdir, const char *ctrl,
		    struct blklist *l);

/*
 * Take @d off ssdtune, unless one of its disks is in use ("refusing to
 * detach BDF: why"): holding them as bind_to_ssdtune() does, clear
 * driver_override, unbind, let them go, and ask the kernel to probe it
 * again.  -errno with @err filled if a step fails.
 */
int bind_release(struct bind_dev *d, struct lib_err *err);

/*
 * After bind_release(): wait for another driver to take @d; its name
 * into @now ("" if none did).  -EBUSY with @err filled if @d is still
 * on ssdtune.
 */
int bind_wait_other(const struct bind_dev *d, char *now, size_t len,
		    struct lib_err *err);

#endif
