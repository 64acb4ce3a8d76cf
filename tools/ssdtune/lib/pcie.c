// SPDX-License-Identifier: GPL-2.0
/* PCIe link arithmetic; see pcie.h. */
#include "lib/pcie.h"

static const struct {
	const char *str;
	unsigned int lane_mbps;
} gens[] = {
	[1] = { "2.5GT/s", 250 },	/* 2.5 GT/s * 8/10 / 8 bits */
	[2] = { "5GT/s", 500 },
	[3] = { "8GT/s", 985 },		/* 8 GT/s * 128/130 / 8 */
	[4] = { "16GT/s", 1969 },
	[5] = { "32GT/s", 3938 },
	[6] = { "64GT/s", 7563 },	/* 64 GT/s * 242/256 / 8 (FLIT) */
};

#define NGENS ((int)(sizeof(gens) / sizeof(gens[0])))

const char *pcie_speed_str(int speed)
{
	return speed >= 1 && speed < NGENS ? gens[speed].str : "unknown";
}

unsigned int pcie_lane_mbps(int speed)
{
	return speed >= 1 && speed < NGENS ? gens[speed].lane_mbps : 0;
}

unsigned int pcie_link_mbps(const struct pcie_link *l)
{
	if (l->width <= 0)
		return 0;
	return pcie_lane_mbps(l->speed) * (unsigned int)l->width;
}

struct pcie_link pcie_link_ceiling(const struct pcie_link *dev_cap,
				   const struct pcie_link *port_cap)
{
	struct pcie_link c = *dev_cap;

	if (port_cap && port_cap->speed > 0 && port_cap->speed < c.speed)
		c.speed = port_cap->speed;
	if (port_cap && port_cap->width > 0 && port_cap->width < c.width)
		c.width = port_cap->width;
	return c;
}

int pcie_link_degraded(const struct pcie_link *cur,
		       const struct pcie_link *ceiling)
{
	return cur->speed < ceiling->speed || cur->width < ceiling->width;
}
