// SPDX-License-Identifier: GPL-2.0
/* Unit tests of PCIe link arithmetic (pcie.c): bandwidth, ceiling, degraded. */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/pcie.h"

void test_pcie(void)
{
	struct pcie_link g3x4 = { 3, 4 }, g3x2 = { 3, 2 }, g4x4 = { 4, 4 };
	struct pcie_link g2x8 = { 2, 8 }, bad = { 9, 4 }, c;

	CHECK(pcie_link_mbps(&g3x4) == 3940 && pcie_link_mbps(&g4x4) == 7876,
	      "pcie_link_mbps: Gen3 x4 is 3940 MB/s, Gen4 x4 7876 MB/s (128b/130b)");
	CHECK(pcie_link_mbps(&g2x8) == 4000,
	      "pcie_link_mbps: Gen2 x8 is 4 GB/s whatever the slot (8b/10b)");
	CHECK(pcie_link_mbps(&bad) == 0 && !strcmp(pcie_speed_str(9), "unknown") &&
	      !strcmp(pcie_speed_str(1), "2.5GT/s"),
	      "pcie speeds: unknown codes give 0 MB/s and 'unknown'");
	c = pcie_link_ceiling(&g4x4, &g3x4);
	CHECK(c.speed == 3 && c.width == 4 && pcie_link_degraded(&c, &g4x4),
	      "pcie_link_ceiling: a Gen3 port caps a Gen4 device");
	c = pcie_link_ceiling(&g3x4, NULL);
	CHECK(pcie_link_degraded(&g3x2, &c) && !pcie_link_degraded(&g3x4, &c),
	      "pcie_link_degraded: x2 of an x4 link is degraded, x4 is not");
}
