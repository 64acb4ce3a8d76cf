/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host Memory Buffer: the host memory a DRAM-less controller keeps its
 * mapping tables in.  The sizing and the allocation in shrinking chunks are
 * pure (ssdt_hmb.c; KUnit: kmod/tests/ssdt_hmb_test.c): the memory comes
 * through the ops the caller passes, DMA for the device (ssdt_hmb_dev.c),
 * a fake allocator in the tests.  The rules follow the stock nvme driver
 * of Linux 6.1 (max_host_mem_size_mb, chunks halving down to HMMINDS).
 */
#ifndef SSDT_HMB_H
#define SSDT_HMB_H

#include <linux/nvme.h>
#include <linux/types.h>

/* Units of HMPRE, HMMIN and HMMINDS in Identify Controller. */
#define SSDT_HMB_UNIT		4096u
/* Default of the max_host_mem_size_mb parameter (stock's). */
#define SSDT_HMB_DEFAULT_MB	128u

struct ssdt_hmb_ops {
	/* @len bytes for the controller; NULL when memory is short */
	void *(*alloc_chunk)(void *ctx, u32 len, dma_addr_t *dma);
	void (*free_chunk)(void *ctx, u32 len, void *buf, dma_addr_t dma);
	/* the descriptor list, @n entries */
	struct nvme_host_mem_buf_desc *(*alloc_descs)(void *ctx, u32 n,
						      dma_addr_t *dma);
	void (*free_descs)(void *ctx, u32 n,
			   struct nvme_host_mem_buf_desc *descs, dma_addr_t dma);
};

/* A buffer as given to the controller (Set Features 0Dh). */
struct ssdt_hmb {
	u64 size;			/* bytes in the chunks, 0: none */
	u32 nr_descs;			/* chunks, the descriptors in use */
	u32 max_descs;			/* entries allocated in descs */
	struct nvme_host_mem_buf_desc *descs;
	dma_addr_t descs_dma;
	void **bufs;			/* each chunk's handle for free_chunk */
};

/*
 * What to ask for: the controller's preferred size (HMPRE) and minimum
 * (HMMIN), both in 4 KiB units, within @limit_mb MiB.  Returns the bytes
 * to allocate at most, with *@min the least worth giving; 0 when the
 * controller wants none or its minimum is above the limit (*@min then
 * says how much it wanted).
 */
u64 ssdt_hmb_target(u32 hmpre, u32 hmmin, u32 limit_mb, u64 *min);

/*
 * Allocate up to @preferred bytes (at least @min, if not 0) in chunks:
 * first of min(@preferred, @max_chunk), halving while memory is too
 * fragmented for that size, never below HMMINDS (@hmminds 4 KiB units) or
 * @floor bytes; at most HMMAXD (@hmmaxd, 0: no limit) chunks.  Each
 * descriptor holds a chunk's address and its size in 4 KiB pages.
 * Returns 0 with @hmb filled, or -ENOMEM with nothing held.
 */
int ssdt_hmb_alloc(struct ssdt_hmb *hmb, const struct ssdt_hmb_ops *ops,
		   void *ctx, u64 min, u64 preferred, u32 hmminds, u16 hmmaxd,
		   u64 max_chunk, u32 floor);

/* Give back everything ssdt_hmb_alloc() got; @hmb is empty afterwards. */
void ssdt_hmb_free(struct ssdt_hmb *hmb, const struct ssdt_hmb_ops *ops,
		   void *ctx);

#endif
