// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the NVMe rules of ssdt_rules.h.  Pure logic.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/nvme.h>
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

	return crd ? crdt[crd - 1] * 100u : 0;
}

int ssdt_lbaf_index(u8 flbas, u8 nlbaf)
{
	int i = flbas & 0xf;

	if (nlbaf > 15)
		i |= (flbas & 0x60) >> 1;
	return i <= nlbaf ? i : -1;
}

int ssdt_nid_csi(const u8 *buf, size_t len)
{
	size_t off = 0;

	/* each descriptor: type, length, two reserved bytes, then the id */
	while (off + 4 <= len && buf[off]) {
		u8 type = buf[off], n = buf[off + 1];
		u8 want = type == NVME_NIDT_EUI64 ? NVME_NIDT_EUI64_LEN :
			  type == NVME_NIDT_NGUID ? NVME_NIDT_NGUID_LEN :
			  type == NVME_NIDT_UUID ? NVME_NIDT_UUID_LEN :
			  type == NVME_NIDT_CSI ? NVME_NIDT_CSI_LEN : n;

		if (n != want || off + 4 + n > len)
			return -EINVAL;
		if (type == NVME_NIDT_CSI)
			return buf[off + 4];
		off += 4 + n;
	}
	return NVME_CSI_NVM;
}

bool ssdt_nid_list_ok(u32 vs, bool limited_cns, bool quirk_no_list)
{
	return vs >= NVME_VS(1, 3, 0) && !limited_cns && !quirk_no_list;
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
