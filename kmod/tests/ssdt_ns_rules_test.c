// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the namespace rules of kmod/ssdt_ns_rules.c: what a
 * rescan does when another host, controller or a BMC changed a namespace
 * (a Format to another block size, an ID reused for a new namespace), and
 * values from the device that cannot be served.  Expected values follow
 * the NVMe base specification 2.0 and the stock nvme driver of Linux 6.1.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../ssdt_ns_rules.h"

static const struct ssdt_ns_id base = {
	.eui64 = { 0x52, 0x54, 0x00, 0, 0, 0, 0, 1 },
	.shift = 9,
	.nsze = 524288,
};

static void ns_change_kinds(struct kunit *test)
{
	struct ssdt_ns_id cur = base;

	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_SAME);
	cur.nsze = 1048576;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_RESIZED);
	/* Format to 4 KiB: an eighth of the blocks, every LBA different */
	cur.shift = 12;
	cur.nsze = base.nsze / 8;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REFORMATTED);
	/* the same bytes in other blocks is still another format */
	cur.nsze = base.nsze;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REFORMATTED);
	/* a format ssdtune cannot serve (metadata): also not the disk's */
	cur.shift = 0;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REFORMATTED);
}

static void ns_change_identifiers(struct kunit *test)
{
	struct ssdt_ns_id cur = base;

	/* the ID now names another namespace: whatever else matches */
	cur.eui64[7] = 2;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REPLACED);
	cur = base;
	cur.nguid[15] = 1;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REPLACED);
	/* an identifier that went away counts as changed (stock: memcmp) */
	cur = base;
	memset(cur.eui64, 0, sizeof(cur.eui64));
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REPLACED);
	/* replaced wins over a format change */
	cur.shift = 12;
	KUNIT_EXPECT_EQ(test, ssdt_ns_change(&base, &cur), SSDT_NS_REPLACED);
}

static void ns_sectors_no_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(524288, 9), 524288ULL);
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(65536, 12), 524288ULL);
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(U64_MAX, 9), U64_MAX);
	/* 4 KiB blocks: the largest count that fits, and one more */
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(U64_MAX >> 3, 12), (U64_MAX >> 3) << 3);
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors((U64_MAX >> 3) + 1, 12), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(U64_MAX, 12), 0ULL);
	/* no block size: nothing */
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(8, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdt_ns_sectors(8, 8), 0ULL);
}

static void nsid_and_attributes(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, ssdt_nsid_ok(0));
	KUNIT_EXPECT_FALSE(test, ssdt_nsid_ok(0xffffffff));
	KUNIT_EXPECT_TRUE(test, ssdt_nsid_ok(1));
	KUNIT_EXPECT_TRUE(test, ssdt_nsid_ok(0xfffffffe));
	/* NSATTR: bit 0 write protected; the reserved bits say nothing */
	KUNIT_EXPECT_TRUE(test, ssdt_ns_write_protected(0x01));
	KUNIT_EXPECT_TRUE(test, ssdt_ns_write_protected(0xff));
	KUNIT_EXPECT_FALSE(test, ssdt_ns_write_protected(0x00));
	KUNIT_EXPECT_FALSE(test, ssdt_ns_write_protected(0xfe));
}

static struct kunit_case ssdt_ns_rules_cases[] = {
	KUNIT_CASE(ns_change_kinds),
	KUNIT_CASE(ns_change_identifiers),
	KUNIT_CASE(ns_sectors_no_wrap),
	KUNIT_CASE(nsid_and_attributes),
	{}
};

static struct kunit_suite ssdt_ns_rules_suite = {
	.name = "ssdtune_ns_rules",
	.test_cases = ssdt_ns_rules_cases,
};

kunit_test_suite(ssdt_ns_rules_suite);
