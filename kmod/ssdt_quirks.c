// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the quirk table and the quirks= parameter (ssdt_quirks.h).
 * Pure logic.
 *
 * The devices are those of the stock nvme driver's table in Linux 6.1
 * (drivers/nvme/host/pci.c), with the quirks ssdtune acts on; stock's
 * other quirks (stripe size, namespace IDs, subsystem NQN, temperature
 * thresholds, 128-byte SQEs) concern code ssdtune does not have
 * (Documentation/hardware.md).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include "ssdt_quirks.h"

#define NO_WZ		SSDT_QUIRK_NO_WRITE_ZEROES
#define NO_DPS		SSDT_QUIRK_NO_DEEPEST_PS
#define RDY		SSDT_QUIRK_DELAY_RDY

static const struct ssdt_quirk_id ssdt_quirk_table[] = {
	{ 0x8086, 0xf1a5, NO_DPS | NO_WZ },		/* Intel 600P/P3100 */
	{ 0x8086, 0x5845, SSDT_QUIRK_IDENTIFY_CNS | NO_WZ }, /* QEMU, Intel ID */
	{ 0x1217, 0x8760, SSDT_QUIRK_QDEPTH_ONE },	/* O2 Micro, Steam Deck */
	{ 0x126f, 0x2262, NO_DPS },			/* Silicon Motion */
	{ 0x126f, 0x2263, SSDT_QUIRK_NO_NS_DESC_LIST },	/* Silicon Motion */
	{ 0x1bb1, 0x0100, RDY | SSDT_QUIRK_NO_NS_DESC_LIST }, /* Seagate Nytro */
	{ 0x1c58, 0x0003, RDY },			/* HGST adapter */
	{ 0x1c58, 0x0023, RDY },			/* WDC SN200 adapter */
	{ 0x1c5f, 0x0540, RDY },			/* Memblaze Pblaze4 */
	{ 0x144d, 0xa821, RDY | SSDT_QUIRK_MQES0_DEPTH64 }, /* Samsung PM1725 */
	{ 0x144d, 0xa822, RDY | NO_WZ | SSDT_QUIRK_MQES0_DEPTH64 }, /* PM1725a */
	{ 0x1987, 0x5019, NO_WZ },			/* Phison E19 */
	{ 0x1987, 0x5021, NO_WZ },			/* Phison E21 */
	{ 0x1b4b, 0x1092, SSDT_QUIRK_NO_NS_DESC_LIST },	/* Lexar 256 GB */
	{ 0x1cc1, 0x8201, NO_DPS },			/* ADATA SX8200PNP */
	{ 0x1c5c, 0x1504, NO_WZ },			/* SK Hynix PC400 */
	{ 0x15b7, 0x2001, NO_WZ },			/* Sandisk Skyhawk */
	{ 0x1d97, 0x2263, NO_WZ },			/* SPCC, Lexar NM610 */
	{ 0x144d, 0xa80b, NO_WZ },			/* Samsung PM9B1 */
	{ 0x144d, 0xa809, NO_WZ },			/* Samsung MZALQ256HBJD */
	{ 0x1cc4, 0x6303, NO_WZ },			/* UMIS 512G */
	{ 0x1cc4, 0x6302, NO_WZ },			/* UMIS 256G */
	{ 0x2646, 0x2262, NO_DPS },			/* Kingston SKC2000 */
	{ 0x2646, 0x2263, NO_DPS },			/* Kingston A2000 */
	{ 0x2646, 0x5018, NO_WZ },			/* Kingston OM8SFP4 */
	{ 0x2646, 0x5016, NO_WZ },			/* Kingston OM3PGP4 */
	{ 0x2646, 0x501a, NO_WZ },			/* Kingston OM8PGP4 */
	{ 0x2646, 0x501b, NO_WZ },			/* Kingston OM8PGP4 */
	{ 0x2646, 0x501e, NO_WZ },			/* Kingston OM3PGP4 */
	{ 0x2646, 0x502f, NO_WZ },			/* Kingston OM3SGP4 */
	{ 0x1e49, 0x0021, NO_DPS },			/* ZHITAI TiPro5000 */
	{ 0x1e49, 0x0041, NO_DPS },			/* ZHITAI TiPro7000 */
	{ 0x025e, 0xf1ac, NO_DPS },			/* Solidigm P44 Pro */
	{ 0x1d0f, 0x0061, SSDT_QUIRK_DMA48 },		/* Amazon */
	{ 0x1d0f, 0x0065, SSDT_QUIRK_DMA48 },
	{ 0x1d0f, 0x8061, SSDT_QUIRK_DMA48 },
	{ 0x1d0f, 0xcd00, SSDT_QUIRK_DMA48 },
	{ 0x1d0f, 0xcd01, SSDT_QUIRK_DMA48 },
	{ 0x1d0f, 0xcd02, SSDT_QUIRK_DMA48 },
	/* Apple MacBook8,1 and some 7,1: without both, resets and data loss */
	{ 0x106b, 0x2001, SSDT_QUIRK_SINGLE_VECTOR | SSDT_QUIRK_QDEPTH_ONE },
};

static const struct {
	u32 bit;
	const char *name;
} ssdt_quirk_names[] = {
	{ SSDT_QUIRK_IDENTIFY_CNS, "identify_cns" },
	{ SSDT_QUIRK_DELAY_RDY, "delay_before_chk_rdy" },
	{ SSDT_QUIRK_NO_APST, "no_apst" },
	{ SSDT_QUIRK_NO_DEEPEST_PS, "no_deepest_ps" },
	{ SSDT_QUIRK_QDEPTH_ONE, "qdepth_one" },
	{ SSDT_QUIRK_NO_WRITE_ZEROES, "disable_write_zeroes" },
	{ SSDT_QUIRK_SINGLE_VECTOR, "single_vector" },
	{ SSDT_QUIRK_NO_NS_DESC_LIST, "no_ns_desc_list" },
	{ SSDT_QUIRK_DMA48, "dma_address_bits_48" },
	{ SSDT_QUIRK_MQES0_DEPTH64, "mqes0_depth64" },
};

u32 ssdt_quirks_lookup(u16 vendor, u16 device)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ssdt_quirk_table); i++)
		if (ssdt_quirk_table[i].vendor == vendor &&
		    ssdt_quirk_table[i].device == device)
			return ssdt_quirk_table[i].quirks;
	return 0;
}

/* One "VID:DID:MASK" of @len bytes at @s. */
static int ssdt_quirk_parse_one(const char *s, size_t len,
				struct ssdt_quirk_id *id)
{
	char tok[32], *vid, *did, *mask, *p;
	unsigned long long v;
	u32 m;

	if (!len || len >= sizeof(tok))
		return -EINVAL;
	memcpy(tok, s, len);
	tok[len] = '\0';
	p = tok;
	vid = strsep(&p, ":");
	did = strsep(&p, ":");
	mask = strsep(&p, ":");
	if (!did || !mask || p)
		return -EINVAL;
	if (kstrtoull(vid, 16, &v) || v > 0xffff)
		return -EINVAL;
	id->vendor = v;
	if (kstrtoull(did, 16, &v) || v > 0xffff)
		return -EINVAL;
	id->device = v;
	if (kstrtou32(mask, 0, &m) || (m & ~SSDT_QUIRKS_KNOWN))
		return -EINVAL;
	id->quirks = m;
	return 0;
}

int ssdt_quirks_parse(const char *s, struct ssdt_quirk_id *ids, int max)
{
	int n = 0, ret;

	if (!s || !*s)
		return 0;
	for (;;) {
		size_t len = strcspn(s, ",");

		if (n == max)
			return -E2BIG;
		ret = ssdt_quirk_parse_one(s, len, &ids[n]);
		if (ret)
			return ret;
		n++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}

u32 ssdt_quirks_for(u16 vendor, u16 device, const struct ssdt_quirk_id *ids,
		    int n)
{
	u32 q = ssdt_quirks_lookup(vendor, device);
	int i;

	for (i = 0; i < n; i++)
		if (ids[i].vendor == vendor && ids[i].device == device)
			q |= ids[i].quirks;
	return q;
}

int ssdt_quirks_names(u32 quirks, char *buf, size_t len)
{
	int n = 0;
	size_t i;

	if (!quirks)
		return snprintf(buf, len, "none");
	if (len)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(ssdt_quirk_names); i++) {
		if (!(quirks & ssdt_quirk_names[i].bit))
			continue;
		n += snprintf(buf + min_t(size_t, n, len),
			      len - min_t(size_t, n, len), "%s%s",
			      n ? " " : "", ssdt_quirk_names[i].name);
	}
	return n;
}

/*
 * Stock 6.1's core_quirks[] that ssdtune can act on; its LiteON entry
 * (simple suspend, by firmware) is how ssdtune always suspends.
 */
static const struct {
	u16 vid;
	const char *mn;
	u32 quirks;
} ssdt_quirk_models[] = {
	/* dies with any APST state (Launchpad bug 1678184) */
	{ 0x1179, "THNSF5256GPUK TOSHIBA", SSDT_QUIRK_NO_APST },
	/* Kioxia CD6-V / HPE PE8030: I/O times out under load with APST */
	{ 0x1e0f, "KCD6XVUL6T40", SSDT_QUIRK_NO_APST },
	/* shares its PCI ID with the 970 Evo Plus, which needs none of it */
	{ 0x144d, "Samsung Portable SSD X5", RDY | NO_DPS },
};

u32 ssdt_quirks_model(u16 vid, const char *mn, size_t len)
{
	u32 q = 0;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(ssdt_quirk_models); i++) {
		n = strlen(ssdt_quirk_models[i].mn);
		if (ssdt_quirk_models[i].vid != vid || n > len ||
		    memcmp(mn, ssdt_quirk_models[i].mn, n))
			continue;
		/* the rest of the field is padding, as stock's string_matches() */
		while (n < len && mn[n] == ' ')
			n++;
		if (n == len)
			q |= ssdt_quirk_models[i].quirks;
	}
	return q;
}
