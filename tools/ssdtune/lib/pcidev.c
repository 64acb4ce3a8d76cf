// SPDX-License-Identifier: GPL-2.0
/* PCI device lookup: libpci fills identity, class, NUMA node and driver. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

#include "lib/pcidev.h"
#include "lib/sysfs.h"

/*
 * libpci's error hook must not return.  The library must not exit either,
 * so the hook jumps back to the pcidev_try() of the call in progress,
 * which turns the message into an error value.  What libpci had allocated
 * by then is leaked: it only happens when /sys/bus/pci cannot be read.
 */
static jmp_buf *pci_jump;
static char pci_msg[512];

static void __attribute__((noreturn)) pci_fatal(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	longjmp(*pci_jump, 1);
}

void pcidev_catch(jmp_buf *jb)
{
	pci_jump = jb;
}

int pcidev_caught(struct lib_err *err)
{
	pci_jump = NULL;
	return lib_errf(err, EIO, "libpci: %s", pci_msg);
}

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

struct pci_access *pcidev_open(void)
{
	struct pci_access *a = pci_alloc();

	a->error = pci_fatal;
	a->warning = pci_quiet;
	a->debug = pci_quiet;
	a->method = PCI_ACCESS_SYS_BUS_PCI;
	pci_init(a);
	return a;
}

static int dev_path(const struct bdf *b, char *path, size_t len)
{
	char name[BDF_BUFSZ];

	snprintf(path, len, "%s/%s", SYS_PCI_DEVICES,
		 bdf_format(b, name, sizeof(name)));
	return sys_exists(path) ? 0 : -ENOENT;
}

static void fill_driver(struct pci_dev *d, char *buf, size_t len)
{
	const char *drv = pci_get_string_property(d, PCI_FILL_DRIVER);

	snprintf(buf, len, "%s", drv ? drv : "");
}

int pcidev_lookup(const struct bdf *b, struct pcidev *out,
		  struct lib_err *err)
{
	char path[PATH_MAX];
	struct pci_access *a;
	struct pci_dev *d;
	jmp_buf jb;
	int r;

	memset(out, 0, sizeof(*out));
	out->bdf = *b;
	bdf_format(b, out->name, sizeof(out->name));
	if (dev_path(b, path, sizeof(path)))
		return -ENOENT;
	r = sys_realpath(path, out->sysdir);
	if (r)
		return lib_errf(err, -r, "%s: %s", path, strerror(-r));

	if (setjmp(jb))
		return pcidev_caught(err);
	pcidev_catch(&jb);
	a = pcidev_open();
	d = pci_get_dev(a, (int)b->domain, (int)b->bus, (int)b->dev, (int)b->fn);
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT |
		      PCI_FILL_NUMA_NODE | PCI_FILL_DRIVER);
	out->vendor = d->vendor_id;
	out->device = d->device_id;
	out->class24 = (unsigned int)d->device_class << 8 | d->prog_if;
	out->numa_node = d->numa_node;
	fill_driver(d, out->driver, sizeof(out->driver));
	pci_free_dev(d);
	pci_cleanup(a);
	pcidev_catch(NULL);
	return 0;
}

int pcidev_driver(const struct bdf *b, char *buf, size_t len,
		  struct lib_err *err)
{
	char path[PATH_MAX];
	struct pci_access *a;
	struct pci_dev *d;
	jmp_buf jb;

	if (dev_path(b, path, sizeof(path)))
		return -ENOENT;
	if (setjmp(jb))
		return pcidev_caught(err);
	pcidev_catch(&jb);
	a = pcidev_open();
	d = pci_get_dev(a, (int)b->domain, (int)b->bus, (int)b->dev, (int)b->fn);
	pci_fill_info(d, PCI_FILL_DRIVER);
	fill_driver(d, buf, len);
	pci_free_dev(d);
	pci_cleanup(a);
	pcidev_catch(NULL);
	return 0;
}

