/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PRP (Physical Region Page) list math for ssdtune.  Pure functions: no
 * hardware, no allocation, so KUnit reaches them directly.
 */
#ifndef SSDT_PRP_H
#define SSDT_PRP_H

#include <linux/types.h>

/* One DMA-mapped segment of a request, as the scatterlist gives it. */
struct ssdt_seg {
	u64 addr;
	u32 len;
};

/* PRP entries needed to describe @segs (the pages they touch). */
u32 ssdt_prp_entries(const struct ssdt_seg *segs, int nsegs, u32 page_size);

/*
 * PRP list pages needed for @nentries entries: none when PRP1 and PRP2
 * describe everything; otherwise the last slot of every full list page
 * chains to the next page.
 */
u32 ssdt_prp_list_pages(u32 nentries, u32 page_size);

/*
 * Fill @prp1/@prp2 and the list pages for @segs.  @lists[i] is the CPU
 * address and @list_dma[i] the bus address of list page i; @nlists must be
 * at least ssdt_prp_list_pages() of the entry count.  Returns 0, or -EINVAL
 * when the segments break the PRP rules (at least one, none empty, every
 * one but the first starts on a page boundary, every one but the last ends
 * on one), @page_size is not a power of two of at least 4096, or @nlists is
 * too small.
 */
int ssdt_prp_fill(const struct ssdt_seg *segs, int nsegs, u32 page_size,
		  __le64 *prp1, __le64 *prp2, __le64 *const *lists,
		  const u64 *list_dma, u32 nlists);

#endif
