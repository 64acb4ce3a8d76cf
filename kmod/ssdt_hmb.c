// SPDX-License-Identifier: GPL-2.0
/*
 * Host Memory Buffer sizing and allocation, without a device (ssdt_hmb.h).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include "ssdt_hmb.h"

u64 ssdt_hmb_target(u32 hmpre, u32 hmmin, u32 limit_mb, u64 *min)
{
	u64 limit = (u64)limit_mb << 20;
	u64 preferred = (u64)hmpre * SSDT_HMB_UNIT;

	*min = (u64)hmmin * SSDT_HMB_UNIT;
	if (!preferred || *min > limit)
		return 0;
	/* a controller that asks for less than its minimum gets the minimum */
	return min(max(preferred, *min), limit);
}

void ssdt_hmb_free(struct ssdt_hmb *hmb, const struct ssdt_hmb_ops *ops,
		   void *ctx)
{
	u32 i;

	for (i = 0; i < hmb->nr_descs; i++)
		ops->free_chunk(ctx, le32_to_cpu(hmb->descs[i].size) * SSDT_HMB_UNIT,
				hmb->bufs[i], le64_to_cpu(hmb->descs[i].addr));
	kfree(hmb->bufs);
	if (hmb->descs)
		ops->free_descs(ctx, hmb->max_descs, hmb->descs, hmb->descs_dma);
	memset(hmb, 0, sizeof(*hmb));
}

/* One try with chunks of @chunk bytes; 0 if it got any memory at all. */
static int ssdt_hmb_try(struct ssdt_hmb *hmb, const struct ssdt_hmb_ops *ops,
			void *ctx, u64 preferred, u64 chunk, u16 hmmaxd)
{
	u64 entries = div64_u64(preferred + chunk - 1, chunk);
	u32 len;

	memset(hmb, 0, sizeof(*hmb));
	if (hmmaxd && hmmaxd < entries)
		entries = hmmaxd;
	hmb->max_descs = entries;
	hmb->descs = ops->alloc_descs(ctx, hmb->max_descs, &hmb->descs_dma);
	if (!hmb->descs)
		goto none;
	hmb->bufs = kcalloc(hmb->max_descs, sizeof(*hmb->bufs), GFP_KERNEL);
	if (!hmb->bufs)
		goto none;
	while (hmb->size < preferred && hmb->nr_descs < hmb->max_descs) {
		struct nvme_host_mem_buf_desc *d = &hmb->descs[hmb->nr_descs];
		dma_addr_t dma;

		len = min_t(u64, chunk, preferred - hmb->size);
		hmb->bufs[hmb->nr_descs] = ops->alloc_chunk(ctx, len, &dma);
		if (!hmb->bufs[hmb->nr_descs])
			break;
		d->addr = cpu_to_le64(dma);
		d->size = cpu_to_le32(len / SSDT_HMB_UNIT);
		d->rsvd = 0;
		hmb->nr_descs++;
		hmb->size += len;
	}
	if (hmb->size)
		return 0;
none:
	ssdt_hmb_free(hmb, ops, ctx);
	return -ENOMEM;
}

int ssdt_hmb_alloc(struct ssdt_hmb *hmb, const struct ssdt_hmb_ops *ops,
		   void *ctx, u64 min, u64 preferred, u32 hmminds, u16 hmmaxd,
		   u64 max_chunk, u32 floor)
{
	u64 lowest = max_t(u64, (u64)hmminds * SSDT_HMB_UNIT, floor);
	u64 chunk;

	lowest = max_t(u64, lowest, SSDT_HMB_UNIT);
	/* start big, halve while memory is too fragmented for that size */
	for (chunk = min(preferred, max_chunk); chunk >= lowest; chunk /= 2) {
		/* descriptors count whole 4 KiB pages */
		chunk = round_down(chunk, SSDT_HMB_UNIT);
		if (chunk < lowest)
			break;
		if (ssdt_hmb_try(hmb, ops, ctx, preferred, chunk, hmmaxd))
			continue;
		if (hmb->size >= min)
			return 0;
		ssdt_hmb_free(hmb, ops, ctx);
	}
	memset(hmb, 0, sizeof(*hmb));
	return -ENOMEM;
}
