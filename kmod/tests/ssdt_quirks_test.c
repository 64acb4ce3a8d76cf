// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the quirk table and the quirks= parameter
 * (kmod/ssdt_quirks.c).  The devices and their quirks are those of the
 * stock nvme driver's table in Linux 6.1 (drivers/nvme/host/pci.c).
 */
#include <kunit/test.h>
#include <linux/kernel.h>

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
			   "identify_cns delay_before_chk_rdy no_apst no_deepest_ps qdepth_one disable_write_zeroes no_ns_desc_list dma_address_bits_48 mqes0_depth64");
}

static struct kunit_case ssdt_quirks_cases[] = {
	KUNIT_CASE(table_devices_as_stock),
	KUNIT_CASE(param_parses_and_adds),
	KUNIT_CASE(param_refuses_bad_input),
	KUNIT_CASE(names_as_sysfs_shows),
	{}
};

static struct kunit_suite ssdt_quirks_suite = {
	.name = "ssdtune_quirks",
	.test_cases = ssdt_quirks_cases,
};

kunit_test_suite(ssdt_quirks_suite);
