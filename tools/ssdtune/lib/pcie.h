/* SPDX-License-Identifier: GPL-2.0 */
/* PCIe link arithmetic: speeds, usable bandwidth.  Pure. */
#ifndef SSDTUNE_PCIE_H
#define SSDTUNE_PCIE_H

#include <stddef.h>

/* A link as the Link Capabilities / Link Status registers encode it:
 * speed code 1 = 2.5 GT/s (Gen1) ... 6 = 64 GT/s (Gen6), width in lanes. */
struct pcie_link {
	int speed;
	int width;
};

/* "2.5GT/s", "8GT/s", ...; "unknown" for a code this does not know. */
const char *pcie_speed_str(int speed);

/* Usable MB/s per lane and direction, after line encoding (8b/10b for
 * Gen1-2, 128b/130b for Gen3-5, FLIT 242/256 for Gen6); 0 if unknown. */
unsigned int pcie_lane_mbps(int speed);

/* pcie_lane_mbps() times the width; 0 if either is unknown. */
unsigned int pcie_link_mbps(const struct pcie_link *l);

/* The link's ceiling: the lower speed and width of two ends' capabilities
 * (@port may be NULL or zero: no upstream port known). */
struct pcie_link pcie_link_ceiling(const struct pcie_link *dev_cap,
				   const struct pcie_link *port_cap);

/* Is @cur slower or narrower than @ceiling? */
int pcie_link_degraded(const struct pcie_link *cur,
		       const struct pcie_link *ceiling);

#endif
