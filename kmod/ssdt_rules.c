// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the NVMe rules of ssdt_rules.h.  Pure logic.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/nvme.h>
#include "ssdt_compat.h"
#include "ssdt_rules.h"

bool ssdt_should_retry(u16 status, unsigned int retries,
		       unsigned int max_retries, bool noretry)
{
	if (!status || noretry || (status & SSDT_STATUS_DNR))
		return false;
	return retries < max_retries;
}

unsigned int ssdt_retry_delay_ms(u16 status, const u16 crdt[3])
{
	unsigned int crd = (status & SSDT_STATUS_CRD_MASK) >>
			   SSDT_STATUS_CRD_SHIFT;

	return crd ? min(crdt[crd - 1] * 100u, SSDT_RETRY_DELAY_MAX_MS) : 0;
}

int ssdt_lbaf_index(u8 flbas, u8 nlbaf)
{
	int i = flbas & 0xf;

	if (nlbaf > 15)
		i |= (flbas & 0x60) >> 1;
	return i <= nlbaf ? i : -1;
}

/* The length a descriptor of type @nidt must have; -1: a type not known. */
static int ssdt_nidt_len(u8 nidt)
{
	switch (nidt) {
	case NVME_NIDT_EUI64:
		return NVME_NIDT_EUI64_LEN;
	case NVME_NIDT_NGUID:
		return NVME_NIDT_NGUID_LEN;
	case NVME_NIDT_UUID:
		return NVME_NIDT_UUID_LEN;
	case NVME_NIDT_CSI:
		return NVME_NIDT_CSI_LEN;
	default:
		return -1;
	}
}

int ssdt_nid_csi(const u8 *buf, size_t len, bool multi_css, int *bad)
{
	int csi = -1;
	size_t off;

	*bad = -1;
	/* each descriptor: type, length, two reserved bytes, then the id */
	for (off = 0; off + 4 <= len; off += 4 + buf[off + 1]) {
		int n = buf[off + 1], want = ssdt_nidt_len(buf[off]);

		if (!n)
			break;
		if ((want >= 0 && n != want) || off + 4 + n > len) {
			*bad = off;
			break;
		}
		if (buf[off] == NVME_NIDT_CSI)
			csi = buf[off + 4];
	}
	if (csi >= 0)
		return csi;
	return multi_css ? -EINVAL : NVME_CSI_NVM;
}

bool ssdt_nid_list_ok(u32 vs, bool multi_css, bool limited_cns,
		      bool quirk_no_list)
{
	return (vs >= NVME_VS(1, 3, 0) || multi_css) && !limited_cns &&
	       !quirk_no_list;
}

bool ssdt_cns_limited(u32 vs, bool quirk)
{
	return vs < (quirk ? NVME_VS(1, 2, 0) : NVME_VS(1, 1, 0));
}

u32 ssdt_io_queue_entries(u16 mqes, u32 want, bool qdepth_one, bool mqes0_64)
{
	if (qdepth_one)
		return 2;
	if (!mqes)
		return mqes0_64 ? 64 : 0;
	return min_t(u32, (u32)mqes + 1, want);
}

unsigned int ssdt_shutdown_timeout_s(u32 rtd3e_us, unsigned int floor_s)
{
	return clamp_t(unsigned int, rtd3e_us / 1000000, floor_s, 60);
}

unsigned int ssdt_fw_act_timeout_ms(u16 mtfa, unsigned int admin_s)
{
	return mtfa ? mtfa * 100u : min_t(unsigned int, admin_s, 3600) * 1000u;
}

unsigned int ssdt_pt_timeout_s(u32 timeout_ms, unsigned int dflt_s)
{
	if (!timeout_ms)
		return dflt_s;
	/* DIV_ROUND_UP() would wrap from 0xfffffc19 on */
	return timeout_ms / 1000 + !!(timeout_ms % 1000);
}

int ssdt_poll_split_check(unsigned int nr_io, unsigned int irq_max,
			  unsigned int poll)
{
	if (poll >= nr_io || nr_io - poll > irq_max)
		return -EINVAL;
	return 0;
}

blk_status_t ssdt_blk_status(u16 status)
{
	switch (status & 0x7ff) {
	case NVME_SC_SUCCESS:
		return BLK_STS_OK;
	case NVME_SC_CAP_EXCEEDED:
		return BLK_STS_NOSPC;
	case NVME_SC_LBA_RANGE:
	case NVME_SC_CMD_INTERRUPTED:
	case NVME_SC_NS_NOT_READY:
		return BLK_STS_TARGET;
	case NVME_SC_BAD_ATTRIBUTES:
	case SSDT_SC_ONCS_NOT_SUPPORTED:
	case NVME_SC_INVALID_OPCODE:
	case NVME_SC_INVALID_FIELD:
	case NVME_SC_INVALID_NS:
		return BLK_STS_NOTSUPP;
	case NVME_SC_WRITE_FAULT:
	case NVME_SC_READ_ERROR:
	case NVME_SC_UNWRITTEN_BLOCK:
	case NVME_SC_ACCESS_DENIED:
	case NVME_SC_READ_ONLY:
	case NVME_SC_COMPARE_FAILED:
		return BLK_STS_MEDIUM;
	case NVME_SC_GUARD_CHECK:
	case NVME_SC_APPTAG_CHECK:
	case NVME_SC_REFTAG_CHECK:
	case NVME_SC_INVALID_PI:
		return BLK_STS_PROTECTION;
	case NVME_SC_RESERVATION_CONFLICT:
		return SSDT_STS_RESV_CONFLICT;
	case NVME_SC_HOST_PATH_ERROR:
		return BLK_STS_TRANSPORT;
	case NVME_SC_ZONE_TOO_MANY_ACTIVE:
		return BLK_STS_ZONE_ACTIVE_RESOURCE;
	case NVME_SC_ZONE_TOO_MANY_OPEN:
		return BLK_STS_ZONE_OPEN_RESOURCE;
	default:
		return BLK_STS_IOERR;
	}
}

unsigned int ssdt_ready_timeout_ms(u64 cap, u32 crto)
{
	unsigned int units = NVME_CAP_TIMEOUT(cap);

	if (cap & NVME_CAP_CRMS_CRWMS)
		units = max_t(unsigned int, units, NVME_CRTO_CRWMT(crto));
	return (units + 1) * 500;
}
