/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the NVMe specification and real controllers ask of a host driver,
 * as pure functions: command retries, command identifiers, the LBA format
 * index, doorbell offsets, queue depth and shutdown time.  No hardware, no
 * allocation, so KUnit reaches them directly (kmod/tests/ssdt_rules_test.c).
 * The rules follow the stock nvme driver of Linux 6.1 where it has one.
 */
#ifndef SSDT_RULES_H
#define SSDT_RULES_H

#include <linux/blk_types.h>
#include <linux/types.h>

/*
 * The status field of a completion, the phase bit dropped (what
 * linux/nvme.h's NVME_SC_* describe): bits 10:0 status code type and code,
 * 12:11 the Command Retry Delay index, 14 Do Not Retry.
 */
#define SSDT_STATUS_CRD_SHIFT	11
#define SSDT_STATUS_CRD_MASK	0x1800
#define SSDT_STATUS_DNR		0x4000

/* Retries of a failed I/O command, default of the max_retries parameter. */
#define SSDT_DEFAULT_RETRIES	5

/*
 * Whether a command that completed with @status (phase dropped) goes to the
 * controller again: not on success, not when the controller set Do Not
 * Retry, not for a request that may not be retried (@noretry: failfast,
 * passthrough), and at most @max_retries times (@retries so far).
 */
bool ssdt_should_retry(u16 status, unsigned int retries,
		       unsigned int max_retries, bool noretry);

/*
 * Milliseconds to wait before that retry: the Command Retry Delay the
 * status selects (CRD 1 to 3: CRDT1 to CRDT3 of Identify Controller, in
 * units of 100 ms), 0 when it selects none, and at most
 * SSDT_RETRY_DELAY_MAX_MS: a CRDT of FFFFh would hold the request for
 * 6553.5 s a retry, beyond any timeout an application waits for.
 */
#define SSDT_RETRY_DELAY_MAX_MS	60000u
unsigned int ssdt_retry_delay_ms(u16 status, const u16 crdt[3]);

/*
 * Command identifier of an I/O command: the request's tag in the low 12
 * bits (queues are at most 4096 deep), a 4-bit generation above it that
 * changes every time the tag is used, so a late or repeated completion of
 * an earlier use of the tag does not complete the request now holding it.
 */
#define SSDT_CID_TAG_BITS	12
#define SSDT_CID_TAG_MASK	((1u << SSDT_CID_TAG_BITS) - 1)
#define SSDT_CID_GEN_MASK	0xf

static inline u16 ssdt_cid(u16 tag, u8 gen)
{
	return (u16)((gen & SSDT_CID_GEN_MASK) << SSDT_CID_TAG_BITS) |
	       (tag & SSDT_CID_TAG_MASK);
}

static inline u16 ssdt_cid_tag(u16 cid)
{
	return cid & SSDT_CID_TAG_MASK;
}

static inline u8 ssdt_cid_gen(u16 cid)
{
	return cid >> SSDT_CID_TAG_BITS;
}

/*
 * The LBA format in force from Identify Namespace: FLBAS bits 3:0, and
 * bits 6:5 as bits 5:4 of the index when the namespace has more than 16
 * formats (NLBAF, 0-based, above 15).  -1 when the index is past NLBAF.
 */
int ssdt_lbaf_index(u8 flbas, u8 nlbaf);

/*
 * Offset in BAR0 of the doorbell of queue @qid, its submission tail or
 * (@cq) completion head, with CAP.DSTRD @dstrd: 1000h + (2 qid + cq) x
 * (4 << DSTRD).
 */
static inline u32 ssdt_db_offset(u16 qid, bool cq, u8 dstrd)
{
	return 0x1000 + (2u * qid + cq) * (4u << dstrd);
}

/*
 * Whether the controller of version register @vs may answer Identify with
 * CNS 00h and 01h only: NVMe 1.0 had no other (no active namespace list,
 * no I/O command set structures), and some controllers that report 1.1
 * misread the newer ones (@quirk, SSDT_QUIRK_IDENTIFY_CNS: then below 1.2).
 */
bool ssdt_cns_limited(u32 vs, bool quirk);

/*
 * The command set of a namespace from its Namespace Identification
 * Descriptor list (Identify CNS 03h, @len bytes at @buf), as stock's
 * nvme_identify_ns_descs() reads it: the value of its CSI descriptor
 * (NIDT 04h; the last, should there be more), a type not known skipped by
 * its own length, the list ending at a length of 0.  A descriptor whose
 * length its type forbids, or that runs past the list, ends the walk:
 * @bad is then its offset (else -1), for the caller to warn, and what
 * came before it stands.  Without a CSI descriptor the set is NVM, unless
 * the controller runs with CC.CSS = CSI (@multi_css): there it must say,
 * and -EINVAL.
 */
int ssdt_nid_csi(const u8 *buf, size_t len, bool multi_css, int *bad);

/*
 * Whether the namespace list may be asked for descriptors: from NVMe 1.3,
 * or before it with CC.CSS = CSI (@multi_css), as stock; never when the
 * controller reads only CNS 00h and 01h (@limited_cns) or has its quirk.
 */
bool ssdt_nid_list_ok(u32 vs, bool multi_css, bool limited_cns,
		      bool quirk_no_list);

/*
 * Entries of each I/O queue: @want (the io_queue_depth parameter) within
 * CAP.MQES + 1; 2 with @qdepth_one (the controller takes one command at a
 * time); 64 for a CAP.MQES of 0 with @mqes0_64 (Samsung PM1725, as stock
 * nvme); else 0 for CAP.MQES 0, a queue of one entry that cannot work.
 */
u32 ssdt_io_queue_entries(u16 mqes, u32 want, bool qdepth_one, bool mqes0_64);

/*
 * Seconds to wait for a normal shutdown to complete: the controller's
 * RTD3 Entry Latency (@rtd3e_us, 0: not reported) in whole seconds, at
 * least @floor_s, at most 60 (stock nvme's shutdown_timeout rule).
 */
unsigned int ssdt_shutdown_timeout_s(u32 rtd3e_us, unsigned int floor_s);

/*
 * Milliseconds a firmware activation may hold the I/O (CSTS.PP set): the
 * controller's Maximum Time for Firmware Activation (@mtfa, in units of
 * 100 ms), or, when it reports none, the admin timeout (@admin_s), as
 * stock nvme's nvme_fw_act_work waits.
 */
unsigned int ssdt_fw_act_timeout_ms(u16 mtfa, unsigned int admin_s);

/*
 * A passthrough command's timeout_ms in whole seconds, rounded up, without
 * wrapping for any u32; 0 means @dflt_s (the stock driver's rule).
 */
unsigned int ssdt_pt_timeout_s(u32 timeout_ms, unsigned int dflt_s);

/*
 * Whether @poll of a controller's @nr_io I/O queues may be poll queues
 * (the poll_queues knob): at least one queue keeps its interrupt, and the
 * others take no more than the @irq_max that have a vector of their own
 * (1 with a single vector).  0 or -EINVAL.
 */
int ssdt_poll_split_check(unsigned int nr_io, unsigned int irq_max,
			  unsigned int poll);

/*
 * Stock 6.1's NVME_SC_ONCS_NOT_SUPPORTED, a status of its own (SCT 1, SC
 * 83h) that later linux/nvme.h headers no longer name.
 */
#define SSDT_SC_ONCS_NOT_SUPPORTED	0x183

/*
 * The block layer status of a command that completed with @status (phase
 * dropped): the table of stock nvme's nvme_error_status(), row for row,
 * so that a failed request reaches the file system and the log as under
 * stock (a full device ENOSPC, a media error ENODATA, a protection
 * error EILSEQ, a reservation conflict EBADE); a status it does not name
 * is BLK_STS_IOERR.  Only the status code type and code count: More, CRD
 * and DNR do not change it.
 */
blk_status_t ssdt_blk_status(u16 status);

/*
 * Milliseconds to wait for CSTS.RDY after CC.EN changes: CAP.TO, or the
 * Controller Ready With Media Timeout of CRTO (@crto) when CAP.CRMS says
 * the controller has one and it is the longer (NVMe 2.0; stock takes
 * the larger, as some drives report a CRTO below CAP.TO), both in units
 * of 500 ms, plus one unit.  @cap is CAP as read after the first write
 * of CC: it may change then.
 */
unsigned int ssdt_ready_timeout_ms(u64 cap, u32 crto);

#endif
