/* SPDX-License-Identifier: GPL-2.0 */
/* PCI addresses (domain:bus:device.function): parse and format. Pure. */
#ifndef SSDTUNE_BDF_H
#define SSDTUNE_BDF_H

#include <stddef.h>

struct bdf {
	unsigned int domain;	/* up to 32 bits (VMD domains have 5 digits) */
	unsigned int bus;	/* 0..0xff */
	unsigned int dev;	/* 0..0x1f */
	unsigned int fn;	/* 0..7 */
};

/* "ffffffff:ff:1f.7" plus NUL, rounded up */
#define BDF_BUFSZ 20

/*
 * Parse "DDDD:BB:DD.F" (domain of 1 to 8 hex digits) or "BB:DD.F"
 * (domain 0). Hex digits in either case; nothing may follow.
 * Returns 0, or -1 if @s is not a PCI address.
 */
int bdf_parse(const char *s, struct bdf *out);

/* The kernel's spelling: "%04x:%02x:%02x.%x". Returns @buf. */
char *bdf_format(const struct bdf *b, char *buf, size_t len);

#endif
