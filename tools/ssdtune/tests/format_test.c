// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of Format NVM (format.c), the refusals only: a driver that
 * is neither, an ssdtune namespace name without a controller index or a
 * namespace id, a /dev path that cannot be opened or is not the block
 * device sysfs names.  Each is refused before any netlink message or
 * ioctl, so nothing here can format anything.  A format that is sent
 * (the ssdtune netlink command, the nvme admin passthrough), and what the
 * controller answers, are left to the bats tests on a VM's disposable
 * disks (tests/host): that is the only place they may erase data.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/format.h"

/* format_namespace() is @want and says @what. */
static bool answers(const char *driver, const char *ctrl, const char *disk,
		    const char *path, int want, const char *what)
{
	char why[PATH_MAX + 128] = "stale";
	int r = format_namespace(driver, ctrl, disk, path, why, sizeof(why));

	if (r == want && !strcmp(why, what))
		return true;
	printf("# %s %s %s: %d, %s\n", driver, ctrl, disk, r, why);
	return false;
}

void test_format(void)
{
	char dir[SCRATCH_LEN], file[PATH_MAX], what[2 * PATH_MAX], why[16];

	CHECK(answers("vfio-pci", "nvme0", "nvme0n1", "/dev/nvme0n1", FORMAT_UNSUPPORTED,
		      "driver 'vfio-pci' is not nvme or ssdtune") &&
	      answers("", "nvme0", "nvme0n1", "/dev/nvme0n1", FORMAT_UNSUPPORTED,
		      "driver '' is not nvme or ssdtune"),
	      "format_namespace: another driver, or none, is unsupported, named");

	CHECK(answers("ssdtune", "nvme0", "ssdt0n1", "/dev/ssdt0n1", FORMAT_UNSUPPORTED,
		      "ssdt0n1 is not an ssdtune namespace name") &&
	      answers("ssdtune", "ssdt01", "ssdt01n1", "/dev/ssdt01n1", FORMAT_UNSUPPORTED,
		      "ssdt01n1 is not an ssdtune namespace name"),
	      "format_namespace: ssdtune, a controller that is no ssdtN: unsupported");
	CHECK(answers("ssdtune", "ssdt0", "ssdt0", "/dev/ssdt0", FORMAT_UNSUPPORTED,
		      "ssdt0 is not an ssdtune namespace name") &&
	      answers("ssdtune", "ssdt0", "ssdt0n0", "/dev/ssdt0n0", FORMAT_UNSUPPORTED,
		      "ssdt0n0 is not an ssdtune namespace name") &&
	      answers("ssdtune", "ssdt0", "ssdt0n4294967296", "/dev/ssdt0n4294967296",
		      FORMAT_UNSUPPORTED, "ssdt0n4294967296 is not an ssdtune namespace name") &&
	      answers("ssdtune", "ssdt0", "ssdt0n1x", "/dev/ssdt0n1x", FORMAT_UNSUPPORTED,
		      "ssdt0n1x is not an ssdtune namespace name"),
	      "format_namespace: ssdtune, no namespace id, id 0, past 32 bits, junk after: unsupported");

	scratch_dir("format", dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/none", dir);
	snprintf(what, sizeof(what), "cannot open %s: No such file or directory", file);
	CHECK(answers("nvme", "nvme0", "nvme0n1", file, FORMAT_FAILED, what),
	      "format_namespace: nvme, a /dev path that is not there: failed, named with the reason");
	scratch_put(dir, "nvme0n1", "");
	snprintf(file, sizeof(file), "%s/nvme0n1", dir);
	snprintf(what, sizeof(what), "%s is not the block device /sys/block/nvme0n1 names", file);
	CHECK(answers("nvme", "nvme0", "nvme0n1", file, FORMAT_FAILED, what) &&
	      answers("nvme", "nvme0", "nvme0n1", "/dev/null", FORMAT_FAILED,
		      "/dev/null is not the block device /sys/block/nvme0n1 names"),
	      "format_namespace: nvme, a plain file or a character device: failed, no ioctl sent");

	CHECK(format_namespace("sata", "", "", "", why, sizeof(why)) == FORMAT_UNSUPPORTED &&
	      !strcmp(why, "driver 'sata' i"),
	      "format_namespace: the reason cut to its buffer");
}
