/* SPDX-License-Identifier: GPL-2.0 */
/* PCI device lookup through libpci (which reads /sys/bus/pci). */
#ifndef SSDTUNE_PCIDEV_H
#define SSDTUNE_PCIDEV_H

#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/bdf.h"
#include "lib/error.h"

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
 * Look @b up.  Returns 0; -ENOENT if /sys/bus/pci/devices has no such
 * device (@err untouched); another -errno with @err filled when libpci
 * or sysfs fails.
 */
int pcidev_lookup(const struct bdf *b, struct pcidev *out,
		  struct lib_err *err);

/* Only the bound driver's name ("" if none), fresh from libpci.  Returns
 * as pcidev_lookup() does. */
int pcidev_driver(const struct bdf *b, char *buf, size_t len,
		  struct lib_err *err);

struct pci_access;

/*
 * A libpci handle on /sys/bus/pci whose warnings are quiet.  Free with
 * pci_cleanup().  Its fatal errors jump back: every caller does
 *	if (setjmp(jb))
 *		return pcidev_caught(err);	(the libpci message in @err)
 *	pcidev_catch(&jb);
 *	a = pcidev_open(); ... pci_cleanup(a);
 *	pcidev_catch(NULL);
 */
struct pci_access *pcidev_open(void);
void pcidev_catch(jmp_buf *jb);
int pcidev_caught(struct lib_err *err);

#endif
