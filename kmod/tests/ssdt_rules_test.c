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

#include "../ssdt_compat.h"
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
	const u16 most[3] = { 0xffff, 599, 0 };

	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(SC_NS_NOT_READY, crdt), 0u);
	/* CRD 1, 2, 3 pick CRDT1-3, in 100 ms units */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x0800 | SC_NS_NOT_READY, crdt), 100u);
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1000 | SC_NS_NOT_READY, crdt), 2000u);
	/* 65.5 s asked: held to a minute */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1800 | SC_NS_NOT_READY, crdt), 60000u);
	/* DNR and More beside CRD change nothing */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x6800 | SC_NS_NOT_READY, crdt), 100u);
	/* a CRD the controller has no time for: no wait */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1800, none), 0u);
	/* the largest CRDT, 6553.5 s: a minute */
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x0800, most), 60000u);
	KUNIT_EXPECT_EQ(test, ssdt_retry_delay_ms(0x1000, most), 59900u);
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

	int bad;

	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(zoned, sizeof(zoned), false, &bad), 2);
	KUNIT_EXPECT_EQ(test, bad, -1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(nvm_no_csi, sizeof(nvm_no_csi), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(kv, sizeof(kv), false, &bad), 1);
	/* a bogus length ends the walk, as stock's: no CSI seen, NVM */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(bad_len, sizeof(bad_len), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(overrun, sizeof(overrun), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	/* an unknown type is skipped by its own length */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(vendor, sizeof(vendor), false, &bad), 2);
	KUNIT_EXPECT_EQ(test, bad, -1);
	/* an empty list: NVM */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(kv + 5, 4, false, &bad), 0);
	/* the list from NVMe 1.3, not on limited controllers or with the quirk */
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010200, false, false, false));
	KUNIT_EXPECT_TRUE(test, ssdt_nid_list_ok(0x00010300, false, false, false));
	KUNIT_EXPECT_TRUE(test, ssdt_nid_list_ok(0x00010400, false, false, false));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010400, false, true, false));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00020000, false, false, true));
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
	KUNIT_EXPECT_EQ(test, ssdt_pt_timeout_s(0xfffffc19, 60), 4294967u);
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

/*
 * Stock 6.1's nvme_error_status(), one row per status it names, written
 * out as numbers from the NVMe base specification (SCT in 10:8, SC in
 * 7:0), not from linux/nvme.h.
 */
static const struct {
	u16 status;
	blk_status_t sts;
} blk_status_rows[] = {
	{ 0x000, BLK_STS_OK },			/* Successful Completion */
	{ 0x081, BLK_STS_NOSPC },		/* Capacity Exceeded */
	{ 0x080, BLK_STS_TARGET },		/* LBA Out of Range */
	{ 0x021, BLK_STS_TARGET },		/* Command Interrupted */
	{ 0x082, BLK_STS_TARGET },		/* Namespace Not Ready */
	{ 0x180, BLK_STS_NOTSUPP },		/* Conflicting Attributes */
	{ 0x183, BLK_STS_NOTSUPP },		/* 6.1's ONCS Not Supported */
	{ 0x001, BLK_STS_NOTSUPP },		/* Invalid Command Opcode */
	{ 0x002, BLK_STS_NOTSUPP },		/* Invalid Field in Command */
	{ 0x00b, BLK_STS_NOTSUPP },		/* Invalid Namespace or Format */
	{ 0x280, BLK_STS_MEDIUM },		/* Write Fault */
	{ 0x281, BLK_STS_MEDIUM },		/* Unrecovered Read Error */
	{ 0x287, BLK_STS_MEDIUM },		/* Deallocated or Unwritten Block */
	{ 0x286, BLK_STS_MEDIUM },		/* Access Denied */
	{ 0x182, BLK_STS_MEDIUM },		/* Attempted Write to Read Only Range */
	{ 0x285, BLK_STS_MEDIUM },		/* Compare Failure */
	{ 0x282, BLK_STS_PROTECTION },		/* End-to-end Guard Check Error */
	{ 0x283, BLK_STS_PROTECTION },		/* End-to-end Application Tag */
	{ 0x284, BLK_STS_PROTECTION },		/* End-to-end Reference Tag */
	{ 0x181, BLK_STS_PROTECTION },		/* Invalid Protection Information */
	{ 0x083, SSDT_STS_RESV_CONFLICT },	/* Reservation Conflict */
	{ 0x370, BLK_STS_TRANSPORT },		/* Host Pathing Error */
	{ 0x1bd, BLK_STS_ZONE_ACTIVE_RESOURCE },	/* Too Many Active Zones */
	{ 0x1be, BLK_STS_ZONE_OPEN_RESOURCE },	/* Too Many Open Zones */
	/* not in the table: the default */
	{ 0x004, BLK_STS_IOERR },		/* Data Transfer Error */
	{ 0x006, BLK_STS_IOERR },		/* Internal Error */
	{ 0x007, BLK_STS_IOERR },		/* Command Abort Requested */
	{ 0x184, BLK_STS_IOERR },		/* command specific, not in it */
	{ 0x288, BLK_STS_IOERR },		/* media type, not in it */
	{ 0x300, BLK_STS_IOERR },		/* Internal Path Error */
	{ 0x302, BLK_STS_IOERR },		/* Asymmetric Access Inaccessible */
	{ 0x371, BLK_STS_IOERR },		/* Command Aborted By Host */
	{ 0x700, BLK_STS_IOERR },		/* vendor specific type */
	{ 0x7ff, BLK_STS_IOERR },
};

static void blk_status_stock_table(struct kunit *test)
{
	/* More (13), CRD (12:11) and DNR (14) beside the code */
	static const u16 bits[] = { 0, 0x2000, 0x0800, 0x1000, 0x1800, 0x4000,
				    0x7800 };
	size_t i, b;

	for (i = 0; i < ARRAY_SIZE(blk_status_rows); i++) {
		for (b = 0; b < ARRAY_SIZE(bits); b++) {
			u16 status = blk_status_rows[i].status | bits[b];

			KUNIT_EXPECT_EQ_MSG(test, ssdt_blk_status(status),
					    blk_status_rows[i].sts,
					    "status %#x", status);
		}
	}
}

/*
 * Stock's nvme_identify_ns_descs() and nvme_process_ns_desc() (6.1): a
 * bogus length stops the walk and keeps what came before; a type it does
 * not know, even the reserved 0, is skipped; a length of 0 ends the
 * list; with CC.CSS = CSI a list that names no command set refuses the
 * namespace, and the list is asked for before NVMe 1.3 too.
 */
static void nid_list_stock_walk(struct kunit *test)
{
	/* CSI 2, then an NGUID of 8 bytes (16 it must be): the CSI stands */
	static const u8 csi_then_bad[] = {
		0x04, 1, 0, 0, 2,
		0x02, 8, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
		0x04, 1, 0, 0, 1,
		0, 0, 0, 0,
	};
	/* a CSI of length 2: bogus, the walk stops at it */
	static const u8 csi_len2[] = { 0x04, 2, 0, 0, 2, 0, 0, 0, 0, 0 };
	/* an EUI64 of 16 bytes before the CSI: the CSI is never reached */
	static const u8 bad_first[] = {
		0x01, 16, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0x04, 1, 0, 0, 2,
	};
	/* the reserved type 0 with a length: skipped, not the end */
	static const u8 type0[] = { 0x00, 4, 0, 0, 9, 9, 9, 9, 0x04, 1, 0, 0, 1 };
	/* a length of 0 ends the list, whatever the type */
	static const u8 len0[] = { 0x04, 0, 0, 0, 0x04, 1, 0, 0, 2 };
	/* two CSI descriptors: the last one read wins, as in stock */
	static const u8 two_csi[] = { 0x04, 1, 0, 0, 2, 0x04, 1, 0, 0, 0 };
	/* an NVM namespace that names its set, and one that does not */
	static const u8 nvm_csi[] = {
		0x03, 16, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		0x04, 1, 0, 0, 0,
	};
	static const u8 no_csi[] = { 0x01, 8, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0 };
	int bad;

	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(csi_then_bad, sizeof(csi_then_bad), false, &bad), 2);
	KUNIT_EXPECT_EQ(test, bad, 5);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(csi_then_bad, sizeof(csi_then_bad), true, &bad), 2);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(csi_len2, sizeof(csi_len2), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(csi_len2, sizeof(csi_len2), true, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(bad_first, sizeof(bad_first), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(bad_first, sizeof(bad_first), true, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(type0, sizeof(type0), false, &bad), 1);
	KUNIT_EXPECT_EQ(test, bad, -1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(len0, sizeof(len0), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, -1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(len0, sizeof(len0), true, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(two_csi, sizeof(two_csi), false, &bad), 0);
	/* CC.CSS = CSI: the set must be named */
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(nvm_csi, sizeof(nvm_csi), true, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, -1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(no_csi, sizeof(no_csi), false, &bad), 0);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(no_csi, sizeof(no_csi), true, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, -1);
	KUNIT_EXPECT_EQ(test, ssdt_nid_csi(no_csi + 12, 0, true, &bad), -EINVAL);
	/* CC.CSS = CSI asks for the list before 1.3; the quirk still stops it */
	KUNIT_EXPECT_TRUE(test, ssdt_nid_list_ok(0x00010200, true, false, false));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010200, true, false, true));
	KUNIT_EXPECT_FALSE(test, ssdt_nid_list_ok(0x00010000, true, true, false));
}

static void ready_timeout_cap_crto(struct kunit *test)
{
	const u64 to = 20ULL << 24;		/* CAP.TO: 20 x 500 ms */
	const u64 crwms = 1ULL << 59;		/* CAP.CRMS.CRWMS */

	/* CAP.TO alone, plus one unit */
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to, 0), 10500u);
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(0, 0), 500u);
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(0xffULL << 24, 0), 128000u);
	/* a CRTO without CAP.CRMS: not looked at */
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to, 0xffff), 10500u);
	/* CRWMT (bits 15:0) longer than CAP.TO: a drive whose media wait grows */
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to | crwms, 240), 120500u);
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to | crwms, 0xffff),
			65536u * 500);
	/* CRIMT (bits 31:16) is for CC.CRIME, which ssdtune does not set */
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to | crwms, 240u << 16), 10500u);
	/* a CRTO below CAP.TO (known drives): the larger */
	KUNIT_EXPECT_EQ(test, ssdt_ready_timeout_ms(to | crwms, 4), 10500u);
}

static struct kunit_case ssdt_rules_cases[] = {
	KUNIT_CASE(ready_timeout_cap_crto),
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
	KUNIT_CASE(blk_status_stock_table),
	KUNIT_CASE(nid_list_stock_walk),
	{}
};

static struct kunit_suite ssdt_rules_suite = {
	.name = "ssdtune_rules",
	.test_cases = ssdt_rules_cases,
};

kunit_test_suite(ssdt_rules_suite);
