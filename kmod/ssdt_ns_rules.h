/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a namespace scan decides from Identify Namespace, as pure
 * functions: whether a namespace ID may name a namespace, the capacity of
 * a namespace in sectors, whether it is write protected, and what a rescan
 * must do with a namespace that already has a disk.  No hardware, so
 * KUnit reaches them (kmod/tests/ssdt_ns_rules_test.c).  The rules follow
 * the stock nvme driver of Linux 6.1 (nvme_update_ns_info,
 * nvme_ns_ids_equal).
 */
#ifndef SSDT_NS_RULES_H
#define SSDT_NS_RULES_H

#include <linux/types.h>

/*
 * A namespace as its disk serves it: identifiers, block size (log2 of
 * the bytes; 0 when ssdtune cannot serve the format) and size in blocks.
 */
struct ssdt_ns_id {
	u8 eui64[8];
	u8 nguid[16];
	u8 shift;
	u64 nsze;
};

enum ssdt_ns_change {
	SSDT_NS_SAME,		/* nothing the disk shows changed */
	SSDT_NS_RESIZED,	/* same blocks, another count: resize */
	SSDT_NS_REFORMATTED,	/* another block size: a new disk */
	SSDT_NS_REPLACED,	/* other identifiers: another namespace */
};

/*
 * What changed between the namespace a disk was made for (@old) and the
 * one Identify Namespace reports now under the same ID (@cur).  Other
 * identifiers mean another namespace (a reused ID: stock drops the disk);
 * another block size means every LBA the disk computes is wrong.
 */
enum ssdt_ns_change ssdt_ns_change(const struct ssdt_ns_id *old,
				   const struct ssdt_ns_id *cur);

/*
 * 512-byte sectors of @nsze blocks of 2^@shift bytes (@shift 9 or more),
 * or 0 when the count does not fit in 64 bits: a device's NSZE the block
 * layer cannot hold.
 */
u64 ssdt_ns_sectors(u64 nsze, u8 shift);

/*
 * Whether @nsid from the active namespace list may name a namespace: 0
 * and FFFFFFFFh (every namespace, in a command) never do.
 */
static inline bool ssdt_nsid_ok(u32 nsid)
{
	return nsid && nsid != 0xffffffff;
}

/* NSATTR bit 0: the namespace is write protected, its disk read-only. */
static inline bool ssdt_ns_write_protected(u8 nsattr)
{
	return nsattr & 1;
}

#endif
