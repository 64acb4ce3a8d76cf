/* SPDX-License-Identifier: GPL-2.0 */
/* PCI device lookup through libpci (which reads /sys/bus/pci). */
#ifndef SSDTUNE_PCIDEV_H
#define SSDTUNE_PCIDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/bdf.h"

struct pcidev {
	struct bdf bdf;
	char name[BDF_BUFSZ];		/* "0000:41:00.0" */
	char sysdir[PATH_MAX];		/* realpath of /sys/bus/pci/devices/X */
	unsigned int vendor, device;
	unsigned int class24;		/* class << 16 | subclass << 8 | prog_if */
	int numa_node;			/* -1 if unknown */
	char driver[64];		/* "" if no driver is bound */
};

/*
 * Look @b up.  Returns 0, or -ENOENT if /sys/bus/pci/devices has no such
 * device.  libpci errors are fatal (one line, exit 1).
 */
int pcidev_lookup(const struct bdf *b, struct pcidev *out);

/* Only the bound driver's name ("" if none), fresh from libpci. */
int pcidev_driver(const struct bdf *b, char *buf, size_t len);

struct pci_access;

/* A libpci handle on /sys/bus/pci whose errors are one line and exit 1
 * and whose warnings are quiet.  Free with pci_cleanup(). */
struct pci_access *pcidev_open(void);

/* The /sys/class/ssdtune/ssdtN whose device is @pci_sysdir, into @ctrl.
 * Returns whether there is one. */
bool pcidev_ssdt_ctrl(const char *pci_sysdir, char *ctrl, size_t len);

#endif
