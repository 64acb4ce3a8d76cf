// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: the NVMe rules of ssdt_rules.h.  Pure logic.
 */
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
