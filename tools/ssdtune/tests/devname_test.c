// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of controller names (devname.c): a PCI address taken as it
 * is, in the kernel's spelling; the names that have none of the forms
 * refused with -EINVAL; names of the right form that name nothing on this
 * host (index 4000, which no host has) refused with -ENODEV.  devname.c
 * reads the host's fixed /sys/class/nvme, /sys/class/ssdtune and
 * /sys/block and takes no root, so a name that does resolve to a PCI
 * function, and a multipath head with one path or several (-ENOTUNIQ),
 * are left to the bats tests (tests/host).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/bdf.h"
#include "lib/devname.h"

/* devname_bdf(@name) is 0 and gives @want, with no error filled. */
static bool gives(const char *name, const char *want)
{
	struct lib_err err = { 0 };
	char bdf[BDF_BUFSZ] = "";

	return !devname_bdf(name, bdf, sizeof(bdf), &err) && !strcmp(bdf, want) &&
	       !err.errnum;
}

/* devname_bdf(@name) is -@errnum, and so is the error, which says @what. */
static bool refused(const char *name, int errnum, const char *what)
{
	struct lib_err err = { 0 };
	char bdf[BDF_BUFSZ] = "";

	if (devname_bdf(name, bdf, sizeof(bdf), &err) == -errnum &&
	    err.errnum == errnum && strstr(err.msg, what))
		return true;
	printf("# %s: %s\n", name, err.msg);
	return false;
}

void test_devname(void)
{
	CHECK(gives("0000:41:00.0", "0000:41:00.0") && gives("41:00.0", "0000:41:00.0"),
	      "devname_bdf: a PCI address as it is; no domain is domain 0");
	CHECK(gives("0000:4A:1f.7", "0000:4a:1f.7") && gives("10000:01:00.0", "10000:01:00.0"),
	      "devname_bdf: the kernel's spelling (lower case); a VMD domain of 5 digits");

	CHECK(refused("sda", EINVAL, "'sda' names no controller: give " DEVNAME_FORMS) &&
	      refused("", EINVAL, "names no controller") &&
	      refused("/dev/nvme", EINVAL, "names no controller") &&
	      refused("ssdt", EINVAL, "names no controller"),
	      "devname_bdf: another device, nothing, a prefix without a number: -EINVAL, the forms");
	CHECK(refused("nvme0x", EINVAL, "'nvme0x'") && refused("/dev/nvme0n", EINVAL, "'/dev/nvme0n'") &&
	      refused("nvme0n1p1", EINVAL, "'nvme0n1p1'") && refused("nvme-1", EINVAL, "'nvme-1'"),
	      "devname_bdf: junk after the number, a namespace without its number, a partition: -EINVAL");
	CHECK(refused("nvme0c1", EINVAL, "'nvme0c1'") && refused("ssdt0c1n1", EINVAL, "'ssdt0c1n1'") &&
	      refused("41:00.8", EINVAL, "'41:00.8'") &&
	      refused("nvme99999999999", EINVAL, "names no controller"),
	      "devname_bdf: a path without a namespace, an ssdtune path (none exist), function 8, past 32 bits: -EINVAL");

	CHECK(refused("nvme4000", ENODEV,
		      "no controller nvme4000 on this host (/sys/class/nvme/nvme4000: none; ") &&
	      refused("/dev/nvme4000", ENODEV, "no controller /dev/nvme4000 on this host"),
	      "devname_bdf: an nvme controller that is not there: -ENODEV, where it looked");
	CHECK(refused("ssdt4000", ENODEV, "(/sys/class/ssdtune/ssdt4000: none; ") &&
	      refused("/dev/ssdt4000", ENODEV, "no controller /dev/ssdt4000 on this host"),
	      "devname_bdf: an ssdtune controller that is not there: -ENODEV, in its class directory");
	CHECK(refused("/dev/nvme4000n1", ENODEV, "no namespace /dev/nvme4000n1 on this host") &&
	      refused("nvme4000c2n1", ENODEV, "no namespace nvme4000c2n1") &&
	      refused("/dev/ssdt4000n3", ENODEV, "no namespace /dev/ssdt4000n3"),
	      "devname_bdf: a namespace or a path that is not there: -ENODEV, a namespace's message");
}
