// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the quirk table and the quirks= parameter
 * (kmod/ssdt_quirks.c).  The devices and their quirks are those of the
 * stock nvme driver's table in Linux 6.1 (drivers/nvme/host/pci.c).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../ssdt_quirks.h"

static void table_devices_as_stock(struct kunit *test)
{
	/* QEMU's controller with use-intel-id=on: no Write Zeroes */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x8086, 0x5845),
			(u32)(SSDT_QUIRK_IDENTIFY_CNS | SSDT_QUIRK_NO_WRITE_ZEROES));
	/* QEMU's own ID (1b36:0010): none of ours */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x1b36, 0x0010), 0u);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x8086, 0xf1a5),
			(u32)(SSDT_QUIRK_NO_DEEPEST_PS | SSDT_QUIRK_NO_WRITE_ZEROES));
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x144d, 0xa821),
			(u32)(SSDT_QUIRK_DELAY_RDY | SSDT_QUIRK_MQES0_DEPTH64));
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x1217, 0x8760),
			(u32)SSDT_QUIRK_QDEPTH_ONE);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x1d0f, 0xcd01),
			(u32)SSDT_QUIRK_DMA48);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x2646, 0x2263),
			(u32)SSDT_QUIRK_NO_DEEPEST_PS);
	/* the vendor alone does not match */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x8086, 0x0001), 0u);
	/* stock's bit values, so nvme.quirks= masks carry over */
	KUNIT_EXPECT_EQ(test, SSDT_QUIRK_NO_DEEPEST_PS, 0x20ul);
	KUNIT_EXPECT_EQ(test, SSDT_QUIRK_NO_WRITE_ZEROES, 0x200ul);
	KUNIT_EXPECT_EQ(test, SSDT_QUIRK_DMA48, 0x10000ul);
}

static void param_parses_and_adds(struct kunit *test)
{
	struct ssdt_quirk_id ids[4];

	KUNIT_EXPECT_EQ(test, ssdt_quirks_parse("", ids, 4), 0);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_parse(NULL, ids, 4), 0);
	KUNIT_ASSERT_EQ(test, ssdt_quirks_parse("1b36:0010:0x200", ids, 4), 1);
	KUNIT_EXPECT_EQ(test, ids[0].vendor, 0x1b36);
	KUNIT_EXPECT_EQ(test, ids[0].device, 0x0010);
	KUNIT_EXPECT_EQ(test, ids[0].quirks, 0x200u);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_for(0x1b36, 0x0010, ids, 1), 0x200u);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_for(0x1b36, 0x0011, ids, 1), 0u);
	/* two entries; decimal masks too; added to the table's */
	KUNIT_ASSERT_EQ(test, ssdt_quirks_parse("8086:5845:32,144D:A802:0x10", ids, 4), 2);
	KUNIT_EXPECT_EQ(test, ids[1].vendor, 0x144d);
	KUNIT_EXPECT_EQ(test, ids[1].device, 0xa802);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_for(0x8086, 0x5845, ids, 2),
			(u32)(SSDT_QUIRK_IDENTIFY_CNS | SSDT_QUIRK_NO_WRITE_ZEROES |
			      SSDT_QUIRK_NO_DEEPEST_PS));
	KUNIT_EXPECT_EQ(test, ssdt_quirks_for(0x144d, 0xa802, ids, 2),
			(u32)SSDT_QUIRK_NO_APST);
}

static void param_refuses_bad_input(struct kunit *test)
{
	static const char *const bad[] = {
		"1b36", "1b36:0010", "1b36:0010:", ":0010:0x200",
		"1b36:0010:0x200:1", "1b36:0010:0x200,", ",1b36:0010:0x200",
		"10000:0010:0x200", "1b36:10000:0x200", "xyz:0010:0x200",
		"1b36:0010:0x4",	/* stock's DEALLOCATE_ZEROES: not ours */
		"1b36:0010:0x1",	/* stock's STRIPE_SIZE: not ours */
		"1b36:0010:-1", "1b36:0010:0x200 ",
		"1b36:0010:0x200;8086:5845:0x20",
		"0123456789abcdef0123456789abcdef:0:0",
	};
	struct ssdt_quirk_id ids[2];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ssdt_quirks_parse(bad[i], ids, 2),
				    -EINVAL, "'%s'", bad[i]);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_parse("1:1:0,2:2:0,3:3:0", ids, 2), -E2BIG);
}

static void names_as_sysfs_shows(struct kunit *test)
{
	char buf[256];

	KUNIT_EXPECT_EQ(test, ssdt_quirks_names(0, buf, sizeof(buf)), 4);
	KUNIT_EXPECT_STREQ(test, buf, "none");
	ssdt_quirks_names(SSDT_QUIRK_IDENTIFY_CNS | SSDT_QUIRK_NO_WRITE_ZEROES,
			  buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "identify_cns disable_write_zeroes");
	/* cut short: the length it needed, the buffer terminated */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_names(SSDT_QUIRK_DMA48, buf, 4),
			(int)strlen("dma_address_bits_48"));
	KUNIT_EXPECT_STREQ(test, buf, "dma");
	ssdt_quirks_names(SSDT_QUIRKS_KNOWN, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "identify_cns delay_before_chk_rdy no_apst no_deepest_ps qdepth_one disable_write_zeroes single_vector no_ns_desc_list dma_address_bits_48 mqes0_depth64");
}

/*
 * Every row of stock 6.1's nvme_id_table (pci.c) by PCI ID, its quirks
 * as stock's numbers (NVME_QUIRK_*: STRIPE_SIZE 0x1, DEALLOCATE_ZEROES
 * 0x4, MEDIUM_PRIO_SQ 0x80, IGNORE_DEV_SUBNQN 0x100, 128_BYTES_SQES
 * 0x1000, SHARED_TAGS 0x2000, NO_TEMP_THRESH_CHANGE 0x4000, SKIP_CID_GEN
 * 0x20000, BOGUS_NID 0x40000, NO_SECONDARY_TEMP_THRESH 0x80000 are not
 * ssdtune's).  Where stock lists an ID twice the first row is the one
 * that matches.  The table must give each the bits ssdtune knows.
 */
static const struct {
	u16 vendor, device;
	u32 stock;
} stock_pci_rows[] = {
	{ 0x8086, 0x0953, 0x1 | 0x4 }, { 0x8086, 0x0a53, 0x1 | 0x4 },
	{ 0x8086, 0x0a54, 0x1 | 0x4 | 0x100 | 0x40000 },
	{ 0x8086, 0x0a55, 0x1 | 0x4 },
	{ 0x8086, 0xf1a5, 0x20 | 0x80 | 0x4000 | 0x200 },
	{ 0x8086, 0xf1a6, 0x100 }, { 0x8086, 0x5845, 0x2 | 0x200 | 0x40000 },
	{ 0x1b36, 0x0010, 0x40000 }, { 0x1217, 0x8760, 0x40 },
	{ 0x126f, 0x2262, 0x20 | 0x40000 }, { 0x126f, 0x2263, 0x8000 | 0x40000 },
	{ 0x1bb1, 0x0100, 0x8 | 0x8000 }, { 0x1c58, 0x0003, 0x8 },
	{ 0x1c58, 0x0023, 0x8 }, { 0x1c5f, 0x0540, 0x8 }, { 0x144d, 0xa821, 0x8 },
	{ 0x144d, 0xa822, 0x8 | 0x200 | 0x100 }, { 0x1987, 0x5012, 0x40000 },
	{ 0x1987, 0x5016, 0x100 | 0x40000 }, { 0x1987, 0x5019, 0x200 },
	{ 0x1987, 0x5021, 0x200 }, { 0x1b4b, 0x1092, 0x8000 | 0x100 },
	{ 0x1cc1, 0x33f8, 0x40000 }, { 0x10ec, 0x5762, 0x100 | 0x40000 },
	{ 0x1cc1, 0x8201, 0x20 | 0x100 }, { 0x1344, 0x5407, 0x100 },
	{ 0x1344, 0x6001, 0x40000 }, { 0x1c5c, 0x1504, 0x200 },
	{ 0x1c5c, 0x174a, 0x40000 }, { 0x15b7, 0x2001, 0x200 },
	{ 0x1d97, 0x2263, 0x200 }, { 0x144d, 0xa80b, 0x200 | 0x40000 },
	{ 0x144d, 0xa809, 0x200 }, { 0x1cc4, 0x6303, 0x200 },
	{ 0x1cc4, 0x6302, 0x200 }, { 0x2646, 0x2262, 0x20 },
	{ 0x2646, 0x2263, 0x20 }, { 0x2646, 0x5013, 0x80000 },
	{ 0x2646, 0x5018, 0x200 }, { 0x2646, 0x5016, 0x200 },
	{ 0x2646, 0x501a, 0x200 }, { 0x2646, 0x501b, 0x200 },
	{ 0x2646, 0x501e, 0x200 }, { 0x2646, 0x502f, 0x200 },
	{ 0x1f40, 0x1202, 0x40000 }, { 0x1f40, 0x5236, 0x40000 },
	{ 0x1e4b, 0x1001, 0x40000 }, { 0x1e4b, 0x1002, 0x40000 },
	{ 0x1e4b, 0x1202, 0x40000 }, { 0x1e4b, 0x1602, 0x40000 },
	{ 0x1cc1, 0x5350, 0x40000 }, { 0x1dbe, 0x5216, 0x40000 },
	{ 0x1dbe, 0x5236, 0x40000 }, { 0x1e49, 0x0021, 0x20 },
	{ 0x1e49, 0x0041, 0x20 }, { 0x1fa0, 0x2283, 0x80000 },
	{ 0x025e, 0xf1ac, 0x20 }, { 0xc0a9, 0x540a, 0x40000 },
	{ 0x1d97, 0x1d97, 0x40000 }, { 0x1d97, 0x2269, 0x40000 | 0x100 },
	{ 0x10ec, 0x5763, 0x40000 }, { 0x10ec, 0x5765, 0x40000 },
	{ 0x1d0f, 0x0061, 0x10000 }, { 0x1d0f, 0x0065, 0x10000 },
	{ 0x1d0f, 0x8061, 0x10000 }, { 0x1d0f, 0xcd00, 0x10000 },
	{ 0x1d0f, 0xcd01, 0x10000 }, { 0x1d0f, 0xcd02, 0x10000 },
	{ 0x106b, 0x2001, 0x800 | 0x40 }, { 0x106b, 0x2003, 0 },
	{ 0x106b, 0x2005, 0x800 | 0x1000 | 0x2000 | 0x20000 },
};

static void table_every_stock_row(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stock_pci_rows); i++) {
		u32 got = ssdt_quirks_lookup(stock_pci_rows[i].vendor,
					     stock_pci_rows[i].device);
		u32 want = stock_pci_rows[i].stock & SSDT_QUIRKS_KNOWN;

		/*
		 * 128-byte SQEs (Apple 106b:2005, not of the NVMe class
		 * either): a controller ssdtune cannot drive, no entry
		 */
		if (stock_pci_rows[i].stock & 0x1000)
			want = 0;
		/* ssdtune's own PM1725 bit aside, stock's known bits exactly */
		KUNIT_EXPECT_EQ_MSG(test, got & ~SSDT_QUIRK_MQES0_DEPTH64, want,
				    "%04x:%04x", stock_pci_rows[i].vendor,
				    stock_pci_rows[i].device);
	}
}

static void apple_single_vector(struct kunit *test)
{
	struct ssdt_quirk_id ids[1];
	char buf[64];

	/* stock's bit, so nvme.quirks=...:0x800 carries over */
	KUNIT_EXPECT_EQ(test, SSDT_QUIRK_SINGLE_VECTOR, 0x800ul);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_lookup(0x106b, 0x2001),
			(u32)(SSDT_QUIRK_SINGLE_VECTOR | SSDT_QUIRK_QDEPTH_ONE));
	KUNIT_ASSERT_EQ(test, ssdt_quirks_parse("1b36:0010:0x800", ids, 1), 1);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_for(0x1b36, 0x0010, ids, 1), 0x800u);
	ssdt_quirks_names(0x800, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "single_vector");
}

/* Stock 6.1's core_quirks[] (core.c): by Identify's VID and model. */
static void model_quirks_as_stock(struct kunit *test)
{
	char mn[40];

	memset(mn, ' ', sizeof(mn));
	memcpy(mn, "THNSF5256GPUK TOSHIBA", 21);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1179, mn, sizeof(mn)),
			(u32)SSDT_QUIRK_NO_APST);
	/* another vendor ID, or a longer model: no match */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1e0f, mn, sizeof(mn)), 0u);
	mn[21] = 'X';
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1179, mn, sizeof(mn)), 0u);
	/* padded with NULs, not spaces: stock's string_matches() says no */
	memset(mn + 21, 0, sizeof(mn) - 21);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1179, mn, sizeof(mn)), 0u);

	memset(mn, ' ', sizeof(mn));
	memcpy(mn, "KCD6XVUL6T40", 12);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1e0f, mn, sizeof(mn)),
			(u32)SSDT_QUIRK_NO_APST);
	/* a prefix of the model is not the model */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1e0f, mn, 8), 0u);

	memset(mn, ' ', sizeof(mn));
	memcpy(mn, "Samsung Portable SSD X5", 23);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x144d, mn, sizeof(mn)),
			(u32)(SSDT_QUIRK_DELAY_RDY | SSDT_QUIRK_NO_DEEPEST_PS));
	/* the 970 Evo Plus with the same PCI ID: nothing */
	memset(mn, ' ', sizeof(mn));
	memcpy(mn, "Samsung SSD 970 EVO Plus 1TB", 28);
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x144d, mn, sizeof(mn)), 0u);
	/* the model fills the field: no padding needed */
	KUNIT_EXPECT_EQ(test, ssdt_quirks_model(0x1e0f, "KCD6XVUL6T40", 12),
			(u32)SSDT_QUIRK_NO_APST);
}

static struct kunit_case ssdt_quirks_cases[] = {
	KUNIT_CASE(table_devices_as_stock),
	KUNIT_CASE(param_parses_and_adds),
	KUNIT_CASE(param_refuses_bad_input),
	KUNIT_CASE(names_as_sysfs_shows),
	KUNIT_CASE(table_every_stock_row),
	KUNIT_CASE(apple_single_vector),
	KUNIT_CASE(model_quirks_as_stock),
	{}
};

static struct kunit_suite ssdt_quirks_suite = {
	.name = "ssdtune_quirks",
	.test_cases = ssdt_quirks_cases,
};

kunit_test_suite(ssdt_quirks_suite);
