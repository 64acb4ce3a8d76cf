// SPDX-License-Identifier: GPL-2.0
/*
 * PRP list construction for ssdtune (NVMe base spec, "Physical Region Page
 * Entry and List").  PRP1 holds the first page with its offset; if the
 * transfer touches exactly two pages PRP2 is the second page, otherwise
 * PRP2 points at a list of page addresses.  A list page whose entries run
 * out before the transfer does uses its last slot to chain to the next.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include "ssdt_prp.h"

u32 ssdt_prp_entries(const struct ssdt_seg *segs, int nsegs, u32 page_size)
{
	u64 mask = page_size - 1;
	unsigned int shift = ilog2(page_size);	/* a power of two: no division */
	u32 n = 0;
	int i;

	for (i = 0; i < nsegs; i++) {
		u64 start = segs[i].addr & ~mask;
		u64 end = segs[i].addr + segs[i].len;

		if (!segs[i].len)
			continue;
		n += (u32)((end - start + mask) >> shift);
	}
	return n;
}

u32 ssdt_prp_list_pages(u32 nentries, u32 page_size)
{
	u32 per_page = page_size / sizeof(__le64);
	u32 in_lists;

	if (nentries <= 2)
		return 0;
	/* Entries after PRP1 go into the lists; each full page but the last
	 * gives one slot to the chain pointer.
	 */
	in_lists = nentries - 1;
	if (in_lists <= per_page)
		return 1;
	return 1 + DIV_ROUND_UP(in_lists - per_page, per_page - 1);
}

static bool ssdt_prp_segs_valid(const struct ssdt_seg *segs, int nsegs,
				u32 page_size)
{
	u64 mask = page_size - 1;
	int i;

	for (i = 0; i < nsegs; i++) {
		if (!segs[i].len)
			return false;
		if (i > 0 && (segs[i].addr & mask))
			return false;
		if (i < nsegs - 1 && ((segs[i].addr + segs[i].len) & mask))
			return false;
	}
	return nsegs > 0;
}

int ssdt_prp_fill(const struct ssdt_seg *segs, int nsegs, u32 page_size,
		  __le64 *prp1, __le64 *prp2, __le64 *const *lists,
		  const u64 *list_dma, u32 nlists)
{
	u32 per_page = page_size / sizeof(__le64);
	u64 mask = page_size - 1;
	u32 total, idx = 0, page = 0, slot = 0;
	int i;

	if (!is_power_of_2(page_size) || page_size < 4096 ||
	    !ssdt_prp_segs_valid(segs, nsegs, page_size))
		return -EINVAL;
	total = ssdt_prp_entries(segs, nsegs, page_size);
	if (nlists < ssdt_prp_list_pages(total, page_size))
		return -EINVAL;

	*prp2 = 0;
	for (i = 0; i < nsegs; i++) {
		u64 addr = segs[i].addr;
		u64 end = addr + segs[i].len;

		while (addr < end) {
			__le64 e = cpu_to_le64(addr);

			if (idx == 0) {
				*prp1 = e;
			} else if (total == 2) {
				*prp2 = e;
			} else {
				if (idx == 1)
					*prp2 = cpu_to_le64(list_dma[0]);
				/* Chain when this page is full and more follow. */
				if (slot == per_page - 1 && idx < total - 1) {
					lists[page][slot] =
						cpu_to_le64(list_dma[page + 1]);
					page++;
					slot = 0;
				}
				lists[page][slot++] = e;
			}
			idx++;
			addr = (addr & ~mask) + page_size;
		}
	}
	return 0;
}
