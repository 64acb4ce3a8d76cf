// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure part of ssdtune controllers (ssdtdev.c): their
 * names and paths.  Finding a controller in /sys/class/ssdtune
 * (ssdtdev_dir(), ssdtdev_find()) is left to the bats tests.
 */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/ssdtdev.h"

void test_ssdtdev(void)
{
	char p[64], small[24];

	CHECK(ssdtdev_index("ssdt0") == 0 && ssdtdev_index("ssdt17") == 17,
	      "ssdtdev_index reads ssdtN");
	CHECK(ssdtdev_index("ssdt") < 0 && ssdtdev_index("ssdt0n1") < 0 &&
	      ssdtdev_index("ssdt01") < 0 && ssdtdev_index("nvme0") < 0 &&
	      ssdtdev_index(NULL) < 0,
	      "ssdtdev_index refuses disks, leading zeros and other names");
	CHECK(ssdtdev_is_disk("ssdt0n1", "ssdt0") && ssdtdev_is_disk("ssdt10n12", "ssdt10"),
	      "ssdtdev_is_disk matches the controller's namespaces");
	CHECK(!ssdtdev_is_disk("ssdt10n1", "ssdt1") && !ssdtdev_is_disk("ssdt0n1p1", "ssdt0") &&
	      !ssdtdev_is_disk("ssdt0n", "ssdt0") && !ssdtdev_is_disk("ssdt0", "ssdt0"),
	      "ssdtdev_is_disk refuses other controllers, partitions and stubs");
	CHECK(!strcmp(ssdtdev_path(p, sizeof(p), "ssdt3", NULL), "/sys/class/ssdtune/ssdt3") &&
	      !strcmp(ssdtdev_path(p, sizeof(p), "ssdt3", "queues/q1/irq"),
		      "/sys/class/ssdtune/ssdt3/queues/q1/irq"),
	      "ssdtdev_path builds a controller's directory and its files");
	CHECK(!strcmp(ssdtdev_path(small, sizeof(small), "ssdt3", "power_limit_mw"), ""),
	      "ssdtdev_path leaves a path that does not fit empty");
	CHECK(!strcmp(ssdtdev_queue_path(p, sizeof(p), "ssdt3", -1, NULL),
		      "/sys/class/ssdtune/ssdt3/queues") &&
	      !strcmp(ssdtdev_queue_path(p, sizeof(p), "ssdt3", 0, NULL),
		      "/sys/class/ssdtune/ssdt3/queues/q0") &&
	      !strcmp(ssdtdev_queue_path(p, sizeof(p), "ssdt3", 12, QUEUE_FILE(cpus)),
		      "/sys/class/ssdtune/ssdt3/queues/q12/cpus") &&
	      !strcmp(ssdtdev_queue_path(small, sizeof(small), "ssdt3", 1, NULL), ""),
	      "ssdtdev_queue_path builds queues/, a queue's directory and its files");
	CHECK(!strcmp(ATTR_FILE(pci_address), "pci_address") &&
	      !strcmp(ATTR_FILE(energy_uj), "energy_uj") &&
	      !strcmp(QUEUE_FILE(stale_completions), "stale_completions") &&
	      ATTR_NR >= 23 && QUEUE_NR >= 8,
	      "the driver's read-only files come from its table (ssdtune_knobs.h)");
}
