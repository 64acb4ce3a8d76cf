/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Controllers that need the driver to behave differently, by PCI ID: the
 * devices and quirks of the stock nvme driver (Linux 6.1, drivers/nvme/
 * host/pci.c) that matter to ssdtune.  The bits are stock's NVME_QUIRK_*
 * values, so the quirks= module parameter takes the masks an admin gives
 * nvme.quirks= (Documentation/hardware.md).  Pure logic: KUnit tests it
 * in kmod/tests/ssdt_quirks_test.c.
 */
#ifndef SSDT_QUIRKS_H
#define SSDT_QUIRKS_H

#include <linux/bits.h>
#include <linux/types.h>

/* Identify with CNS other than 0 and 1 is unreliable before NVMe 1.2. */
#define SSDT_QUIRK_IDENTIFY_CNS		BIT(1)
/* Wait 2.3 s after CC.EN changes before reading CSTS.RDY. */
#define SSDT_QUIRK_DELAY_RDY		BIT(3)
/* Autonomous power state transitions break the controller. */
#define SSDT_QUIRK_NO_APST		BIT(4)
/* The deepest power state must not be used. */
#define SSDT_QUIRK_NO_DEEPEST_PS	BIT(5)
/* One command at a time: I/O queues of two entries. */
#define SSDT_QUIRK_QDEPTH_ONE		BIT(6)
/* Write Zeroes corrupts or hangs: not offered to the block layer. */
#define SSDT_QUIRK_NO_WRITE_ZEROES	BIT(9)
/* One interrupt vector serves the admin and every I/O queue. */
#define SSDT_QUIRK_SINGLE_VECTOR	BIT(11)
/* No Namespace Identification Descriptor list (Identify CNS 03h). */
#define SSDT_QUIRK_NO_NS_DESC_LIST	BIT(15)
/* The controller addresses only 48 bits of host memory. */
#define SSDT_QUIRK_DMA48		BIT(16)
/*
 * ssdtune's own, no stock bit: CAP.MQES reads 0, the queues take 64
 * entries (Samsung PM1725; stock nvme tests its IDs in code).
 */
#define SSDT_QUIRK_MQES0_DEPTH64	BIT(31)

#define SSDT_QUIRKS_KNOWN	(SSDT_QUIRK_IDENTIFY_CNS | SSDT_QUIRK_DELAY_RDY | \
				 SSDT_QUIRK_NO_APST | SSDT_QUIRK_NO_DEEPEST_PS | \
				 SSDT_QUIRK_QDEPTH_ONE | SSDT_QUIRK_NO_WRITE_ZEROES | \
				 SSDT_QUIRK_SINGLE_VECTOR | SSDT_QUIRK_NO_NS_DESC_LIST | \
				 SSDT_QUIRK_DMA48 | SSDT_QUIRK_MQES0_DEPTH64)

/* Milliseconds SSDT_QUIRK_DELAY_RDY waits (stock's NVME_QUIRK_DELAY_AMOUNT). */
#define SSDT_QUIRK_DELAY_RDY_MS	2300

struct ssdt_quirk_id {
	u16 vendor;
	u16 device;
	u32 quirks;
};

/* Quirks the built-in table gives @vendor:@device (0: none). */
u32 ssdt_quirks_lookup(u16 vendor, u16 device);

/*
 * Parse the quirks= module parameter, "VID:DID:MASK[,VID:DID:MASK...]"
 * (hex IDs, a MASK in C notation) into @ids, at most @max entries.  The
 * number of entries, or -EINVAL for anything malformed, an ID above ffff
 * or a bit of MASK ssdtune does not know; -E2BIG past @max.  An empty
 * string is 0 entries.
 */
int ssdt_quirks_parse(const char *s, struct ssdt_quirk_id *ids, int max);

/*
 * Quirks for @vendor:@device: the table's, and those of each of @ids that
 * names the device added to them.
 */
u32 ssdt_quirks_for(u16 vendor, u16 device, const struct ssdt_quirk_id *ids,
		    int n);

/*
 * The names of @quirks, space-separated, into @buf of @len bytes, as the
 * sysfs file quirks shows them ("none" when there are none).  Returns
 * what snprintf would.
 */
int ssdt_quirks_names(u32 quirks, char *buf, size_t len);

/*
 * Quirks stock matches by Identify Controller, not by PCI ID (core.c's
 * core_quirks[]): for the controller's PCI Vendor ID field @vid and its
 * Model Number @mn, @len bytes padded with spaces, those of the entries
 * whose model is @mn exactly (0: none).  Looked up once, at attach.
 */
u32 ssdt_quirks_model(u16 vid, const char *mn, size_t len);

#endif
