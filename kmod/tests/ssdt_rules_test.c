// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the NVMe rules of kmod/ssdt_rules.c: what a real
 * controller can show and QEMU's cannot (a Command Retry Delay, more than
 * 16 LBA formats, a doorbell stride, CAP.MQES 0, RTD3E).  The expected
 * values are worked out from the NVMe base specification 2.0 and the
 * stock nvme driver of Linux 6.1, not from the code under test.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "../ssdt_rules.h"

/* Status fields, phase dropped: SCT in 10:8, SC in 7:0. */
#define SC_INTERNAL	0x006	/* Internal Error, generic */
#define SC_NS_NOT_READY	0x082	/* Namespace Not Ready */
#define SC_WRITE_FAULT	0x280	/* Write Fault, media error type */
#define SC_LBA_RANGE	0x080	/* LBA Out of Range */

static void retry_transient_until_limit(struct kunit *test)
{
	/* a transient error goes again, up to max_retries times */
	KUNIT_EXPECT_TRUE(test, ssdt_should_retry(SC_WRITE_FAULT, 0, 5, false));
	KUNIT_EXPECT_TRUE(test, ssdt_should_retry(SC_NS_NOT_READY, 4, 5, false));
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(SC_WRITE_FAULT, 5, 5, false));
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(SC_WRITE_FAULT, 6, 5, false));
	/* max_retries=0: never */
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(SC_INTERNAL, 0, 0, false));
}

static void retry_never_dnr_success_noretry(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(0, 0, 5, false));
	/* Do Not Retry: bit 14 of the status, phase dropped */
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(0x4000 | SC_LBA_RANGE, 0, 5, false));
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(0x4000 | SC_WRITE_FAULT, 0, 5, false));
	/* failfast and passthrough requests are never retried */
	KUNIT_EXPECT_FALSE(test, ssdt_should_retry(SC_WRITE_FAULT, 0, 5, true));
	/* More (bit 13) and CRD (12:11) do not stop a retry */
	KUNIT_EXPECT_TRUE(test, ssdt_should_retry(0x2000 | SC_INTERNAL, 0, 5, false));
	KUNIT_EXPECT_TRUE(test, ssdt_should_retry(0x1800 | SC_INTERNAL, 0, 5, false));
}

static void retry_delay_from_crd(struct kunit *test)
{
	const u16 crdt[3] = { 1, 20, 655 };
	const u16 none[3] = { 0, 0, 0 };

	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(SC_NS_NOT_READY, crdt), 0u);
	/* CRD 1, 2, 3 pick CRDT1-3, in 100 ms units */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x0800 | SC_NS_NOT_READY, crdt), 100u);
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1000 | SC_NS_NOT_READY, crdt), 2000u);
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1800 | SC_NS_NOT_READY, crdt), 65500u);
	/* DNR and More beside CRD change nothing */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x6800 | SC_NS_NOT_READY, crdt), 100u);
	/* a CRD the controller has no time for: no wait */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1800, none), 0u);
}

static void cid_round_trip(struct kunit *test)
{
	u16 tag, cid;
	u8 gen;

	for (tag = 0; tag < 4096; tag += 7) {
		for (gen = 0; gen < 16; gen++) {
			cid = ssdt_cid(tag, gen);
			KUNIT_EXPECT_EQ(test, ssdt_cid_tag(cid), tag);
			KUNIT_EXPECT_EQ(test, ssdt_cid_gen(cid), gen);
		}
	}
	/* the generation wraps in 4 bits; the tag keeps its 12 */
	KUNIT_EXPECT_EQ(test, ssdt_cid(4095, 15), 0xffff);
	KUNIT_EXPECT_EQ(test, ssdt_cid(1, 16), 0x0001);
	KUNIT_EXPECT_EQ(test, ssdt_cid(0x123, 0xa), 0xa123);
	/* a stale completion: same tag, earlier generation, another CID */
	KUNIT_EXPECT_NE(test, ssdt_cid(5, 3), ssdt_cid(5, 4));
}

static void lbaf_index_low_and_high_bits(struct kunit *test)
{
	/* 16 formats or fewer: bits 3:0 only, bit 4 (metadata) ignored */
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x00, 0), 0);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x14, 7), 4);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x0f, 15), 15);
	/* bits 6:5 set where they must be clear: still the low index */
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x62, 15), 2);
	/* 17 formats and more: bits 6:5 are bits 5:4 of the index */
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x20, 16), 16);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x31, 63), 17);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x6f, 63), 63);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x45, 63), 37);
	/* an index past NLBAF is refused */
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x08, 7), -1);
	KUNIT_EXPECT_EQ(test, ssdt_lbaf_index(0x21, 16), -1);
}

static void doorbell_offsets_with_stride(struct kunit *test)
{
	/* DSTRD 0: 4-byte doorbells back to back */
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(0, false, 0), 0x1000u);
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(0, true, 0), 0x1004u);
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(1, false, 0), 0x1008u);
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(1, true, 0), 0x100cu);
	/* DSTRD 1: 8 bytes apart */
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(1, false, 1), 0x1010u);
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(1, true, 1), 0x1018u);
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(3, true, 1), 0x1038u);
	/* DSTRD 4 (64 bytes, a cache line each): queue 64's CQ head */
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(64, true, 4), 0x1000u + 129 * 64);
	/* DSTRD 15, the largest: 128 KiB apart */
	KUNIT_EXPECT_EQ(test, ssdt_db_offset(2, false, 15), 0x1000u + 4 * 0x20000);
}

static void cns_limited_by_version(struct kunit *test)
{
	/* VS: major 31:16, minor 15:8, tertiary 7:0 */
	KUNIT_EXPECT_TRUE(test, ssdt_cns_limited(0x00010000, false));	/* 1.0 */
	KUNIT_EXPECT_TRUE(test, ssdt_cns_limited(0x00010000, true));
	/* a VS of 0 reads as older than any version */
	KUNIT_EXPECT_TRUE(test, ssdt_cns_limited(0, false));
	KUNIT_EXPECT_FALSE(test, ssdt_cns_limited(0x00010100, false));	/* 1.1 */
	KUNIT_EXPECT_TRUE(test, ssdt_cns_limited(0x00010100, true));
	KUNIT_EXPECT_FALSE(test, ssdt_cns_limited(0x00010200, true));	/* 1.2 */
	KUNIT_EXPECT_FALSE(test, ssdt_cns_limited(0x00010400, true));	/* QEMU 7.2 */
	KUNIT_EXPECT_FALSE(test, ssdt_cns_limited(0x00020000, false));	/* 2.0 */
}

static void nid_list_csi(struct kunit *test)
{
	/* a zoned namespace: EUI64, UUID, CSI 2, then the end */
	static const u8 zoned[] = {
		0x01, 8, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
		0x03, 16, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0x04, 1, 0, 0, 2,
		0, 0, 0, 0,
	};
	static const u8 nvm_no_csi[] = {
		0x02, 16, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0, 0, 0, 0,
	};
	static const u8 kv[] = { 0x04, 1, 0, 0, 1, 0, 0, 0, 0 };
	static const u8 bad_len[] = { 0x01, 16, 0, 0 };	/* EUI64 is 8 */
	static const u8 overrun[] = { 0x03, 16, 0, 0, 1, 2, 3 };
	static const u8 vendor[] = { 0x0e, 2, 0, 0, 9, 9, 0x04, 1, 0, 0, 2 };

	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(zoned, sizeof(zoned)), 2);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(nvm_no_csi, sizeof(nvm_no_csi)), 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(kv, sizeof(kv)), 1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(bad_len, sizeof(bad_len)), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(overrun, sizeof(overrun)), -EINVAL);
	/* an unknown type is skipped by its own length */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(vendor, sizeof(vendor)), 2);
	/* an empty list: NVM */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(kv + 5, 4), 0);
	/* the list from NVMe 1.3, not on limited controllers or with the quirk */
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010200, false, false));
	KUNIT_EXPECT_TRUE(test, ssdt_nid_list_ok(0x00010300, false, false));
	KUNIT_EXPECT_TRUE(test, ssdt_nid_list_ok(0x00010400, false, false));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010400, true, false));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00020000, false, true));
}

static void io_queue_entries_mqes(struct kunit *test)
{
	/* MQES is 0-based */
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(2047, 1024, false, false), 1024u);
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(255, 1024, false, false), 256u);
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(1, 1024, false, false), 2u);
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(65535, 4096, false, false), 4096u);
	/* MQES 0: the PM1725 quirk's 64, else no queue at all */
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(0, 1024, false, true), 64u);
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(0, 1024, false, false), 0u);
	/* one command at a time: two entries, whatever MQES says */
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(1023, 1024, true, false), 2u);
	KUNIT_EXPECT_EQ(test, ssdt_io_queue_entries(0, 1024, true, false), 2u);
}

static void shutdown_timeout_rtd3e(struct kunit *test)
{
	/* not reported: the floor */
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(0, 5), 5u);
	/* 8 s entry latency */
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(8000000, 5), 8u);
	/* whole seconds, rounded down, never below the floor */
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(5999999, 5), 5u);
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(1000000, 5), 5u);
	/* at most 60 s, however long the controller claims */
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(90000000, 5), 60u);
	KUNIT_EXPECT_EQ(test, ssdt_shutdown_timeout_s(0xffffffff, 5), 60u);
}

static void fw_act_timeout_mtfa(struct kunit *test)
{
	/* MTFA in 100 ms units */
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(1, 60), 100u);
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(50, 60), 5000u);
	/* the largest MTFA: 6553.5 s, no overflow */
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(0xffff, 60), 6553500u);
	/* none reported: the admin timeout */
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(0, 60), 60000u);
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(0, 1), 1000u);
	/* an absurd admin_timeout does not overflow */
	KUNIT_EXPECT_EQ(test, ssdt_fw_act_timeout_ms(0, 0xffffffff), 3600000u);
}

static void pt_timeout_no_wrap(struct kunit *test)
{
	/* 0: the default */
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0, 60), 60u);
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0, 0), 0u);
	/* whole seconds, rounded up */
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(1, 60), 1u);
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(1000, 60), 1u);
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(1001, 60), 2u);
	/* DIV_ROUND_UP() in 32 bits gave 0 from 0xfffffc19 on */
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0xfffffc18, 60), 4294967u);
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0xfffffc19, 60), 4294968u);
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0xffffffff, 60), 4294968u);
}

static void poll_split_range(struct kunit *test)
{
	/* 4 queues, a vector each: 0 to 3 of them polled */
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(4, 4, 0), 0);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(4, 4, 3), 0);
	/* one queue keeps its interrupt */
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(4, 4, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(4, 4, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(1, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(1, 1, 1), -EINVAL);
	/* attached with 2 of 6 polled and 4 vectors: no fewer than 2 */
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(6, 4, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(6, 4, 2), 0);
	/* a single vector: one interrupt queue, the rest polled */
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(3, 1, 2), 0);
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(3, 1, 1), -EINVAL);
	/* no wrap-around on huge values */
	KUNIT_EXPECT_EQ(test, ssdt_poll_split_check(4, 4, 0xffffffff), -EINVAL);
}

static struct kunit_case ssdt_rules_cases[] = {
	KUNIT_CASE(retry_transient_until_limit),
	KUNIT_CASE(retry_never_dnr_success_noretry),
	KUNIT_CASE(retry_delay_from_crd),
	KUNIT_CASE(cid_round_trip),
	KUNIT_CASE(lbaf_index_low_and_high_bits),
	KUNIT_CASE(doorbell_offsets_with_stride),
	KUNIT_CASE(cns_limited_by_version),
	KUNIT_CASE(nid_list_csi),
	KUNIT_CASE(io_queue_entries_mqes),
	KUNIT_CASE(shutdown_timeout_rtd3e),
	KUNIT_CASE(fw_act_timeout_mtfa),
	KUNIT_CASE(pt_timeout_no_wrap),
	KUNIT_CASE(poll_split_range),
	{}
};

static struct kunit_suite ssdt_rules_suite = {
	.name = "ssdtune_rules",
	.test_cases = ssdt_rules_cases,
};

kunit_test_suite(ssdt_rules_suite);
