/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One rule for the names of a controller, for every command that takes
 * one: a PCI address (DDDD:BB:DD.F or BB:DD.F); an ssdtune controller
 * (ssdtN, /dev/ssdtN) or one of its disks (/dev/ssdtNnM); a stock nvme
 * controller (nvmeN, /dev/nvmeN) or one of its namespaces (/dev/nvmeNnM,
 * a multipath head included, when it has one path).  Sysfs says which PCI
 * function each is.
 */
#ifndef SSDTUNE_LIB_DEVNAME_H
#define SSDTUNE_LIB_DEVNAME_H

#include <stddef.h>

#include "lib/error.h"

/* The forms devname_bdf() takes, for an error or a help text. */
#define DEVNAME_FORMS "a PCI address (0000:41:00.0), ssdtN, nvmeN, /dev/ssdtN, /dev/nvmeN or a namespace (/dev/nvme0n1, /dev/ssdt0n1)"

/*
 * The PCI address of the controller @name names, in the kernel's
 * spelling, into @bdf (BDF_BUFSZ bytes).  A PCI address is taken as it
 * is (the caller checks that it exists).  0; -EINVAL when @name has none
 * of the forms; -ENODEV when it has one but names nothing on this host;
 * -ENOTUNIQ for a multipath namespace with several paths; @err filled.
 */
int devname_bdf(const char *name, char *bdf, size_t len, struct lib_err *err);

#endif
