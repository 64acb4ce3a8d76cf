// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune Host Memory Buffer on the device: DMA memory for the chunks,
 * Set Features 0Dh, and when the controller may hold it.
 *
 * The rule: memory the controller was given is freed only once it cannot
 * touch it any more: after a Set Features that disabled the buffer, or
 * after CC.EN=0 (a controller reset releases it) or bus mastering off.
 * So a reset keeps the buffer and gives the same memory back afterwards
 * (Memory Return); only removal and a failed or refused setup free it.
 */
#include <linux/dma-mapping.h>
#include <linux/mmzone.h>
#include "ssdt.h"

/* Seconds the disable before a stop may take: CC.EN=0 follows anyway. */
#define SSDT_HMB_STOP_TIMEOUT_S	5

static void *ssdt_hmb_dma_chunk(void *ctx, u32 len, dma_addr_t *dma)
{
	struct ssdt_ctrl *ctrl = ctx;
	void *buf;

	buf = dma_alloc_attrs(ssdt_dev(ctrl), len, dma, GFP_KERNEL,
			      DMA_ATTR_NO_KERNEL_MAPPING | DMA_ATTR_NO_WARN);
	if (buf)
		ssdt_debug_hmb_held(len);
	return buf;
}

static void ssdt_hmb_dma_chunk_free(void *ctx, u32 len, void *buf,
				    dma_addr_t dma)
{
	struct ssdt_ctrl *ctrl = ctx;

	dma_free_attrs(ssdt_dev(ctrl), len, buf, dma,
		       DMA_ATTR_NO_KERNEL_MAPPING | DMA_ATTR_NO_WARN);
	ssdt_debug_hmb_held(-(s64)len);
}

static struct nvme_host_mem_buf_desc *
ssdt_hmb_dma_descs(void *ctx, u32 n, dma_addr_t *dma)
{
	struct ssdt_ctrl *ctrl = ctx;

	return dma_alloc_coherent(ssdt_dev(ctrl), n * sizeof(struct nvme_host_mem_buf_desc),
				  dma, GFP_KERNEL);
}

static void ssdt_hmb_dma_descs_free(void *ctx, u32 n,
				    struct nvme_host_mem_buf_desc *descs,
				    dma_addr_t dma)
{
	struct ssdt_ctrl *ctrl = ctx;

	dma_free_coherent(ssdt_dev(ctrl), n * sizeof(*descs), descs, dma);
}

static const struct ssdt_hmb_ops ssdt_hmb_dma_ops = {
	.alloc_chunk = ssdt_hmb_dma_chunk,
	.free_chunk = ssdt_hmb_dma_chunk_free,
	.alloc_descs = ssdt_hmb_dma_descs,
	.free_descs = ssdt_hmb_dma_descs_free,
};

/* Free the buffer: the controller must not hold it (see the top). */
static void ssdt_hmb_release(struct ssdt_ctrl *ctrl)
{
	ssdt_hmb_free(&ctrl->hmb, &ssdt_hmb_dma_ops, ctrl);
}

/* Set Features Host Memory Buffer with @bits (EHM, MR; 0 disables). */
static int ssdt_hmb_set(struct ssdt_ctrl *ctrl, u32 bits,
			unsigned int timeout_s)
{
	struct nvme_command cmd = { };

	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(NVME_FEAT_HOST_MEM_BUF);
	cmd.features.dword11 = cpu_to_le32(bits);
	/* size in memory pages (CC.MPS: SSDT_PAGE_SIZE), the list, entries */
	cmd.features.dword12 = cpu_to_le32(div_u64(ctrl->hmb.size, SSDT_PAGE_SIZE));
	cmd.features.dword13 = cpu_to_le32(lower_32_bits(ctrl->hmb.descs_dma));
	cmd.features.dword14 = cpu_to_le32(upper_32_bits(ctrl->hmb.descs_dma));
	cmd.features.dword15 = cpu_to_le32(ctrl->hmb.nr_descs);
	return ssdt_admin_exec_timeout(ctrl, &cmd, NULL, timeout_s);
}

/*
 * Bring-up (probe and reset, ssdt_ctrl_start()): give the controller the
 * buffer it asks for (HMPRE), within max_host_mem_size_mb; after a reset
 * the same memory again if it is still big enough.  A controller works
 * without one: only a negative errno (the controller stopped answering)
 * fails the bring-up; a refusal or a lack of memory is logged.
 */
int ssdt_hmb_start(struct ssdt_ctrl *ctrl, bool reset)
{
	u32 hmpre = ssdt_debug_hmpre() ?: ctrl->hmpre;
	u32 hmmin = ssdt_debug_hmmin() ?: ctrl->hmmin;
	u32 limit_mb = READ_ONCE(ssdt_max_host_mem_mb);
	u32 bits = NVME_HOST_MEM_ENABLE;
	u64 min, want;
	int ret;

	WRITE_ONCE(ctrl->hmb_on, false);
	want = ssdt_hmb_target(hmpre, hmmin, limit_mb, &min);
	if (!want) {
		ssdt_hmb_release(ctrl);
		if (hmpre && !reset)
			dev_warn(ssdt_dev(ctrl), "host memory buffer: none, the controller's minimum %llu KiB is above max_host_mem_size_mb=%u\n",
				 min >> 10, limit_mb);
		return 0;
	}
	if (ctrl->hmb.size && ctrl->hmb.size >= min && ctrl->hmb.size <= want) {
		bits |= NVME_HOST_MEM_RETURN;
	} else {
		ssdt_hmb_release(ctrl);
		if (ssdt_hmb_alloc(&ctrl->hmb, &ssdt_hmb_dma_ops, ctrl, min, want,
				   ctrl->hmminds, ctrl->hmmaxd,
				   (u64)PAGE_SIZE * MAX_ORDER_NR_PAGES,
				   2 * PAGE_SIZE)) {
			dev_warn(ssdt_dev(ctrl), "host memory buffer: none, could not allocate %llu KiB (at least %llu KiB)\n",
				 want >> 10, min >> 10);
			return 0;
		}
	}
	ret = ssdt_hmb_set(ctrl, bits, READ_ONCE(ssdt_admin_timeout));
	if (ret) {
		/* refused, or timed out: then the controller is stopped */
		dev_warn(ssdt_dev(ctrl), "host memory buffer: the controller refused %llu KiB (%s %#x): freed, going on without\n",
			 ctrl->hmb.size >> 10, ret < 0 ? "error" : "status",
			 ret < 0 ? -ret : ret);
		ssdt_hmb_release(ctrl);
		return ret < 0 ? ret : 0;
	}
	WRITE_ONCE(ctrl->hmb_on, true);
	if (!reset)
		dev_info(ssdt_dev(ctrl), "host memory buffer: %llu KiB in %u chunks (preferred %llu KiB, minimum %llu KiB)\n",
			 ctrl->hmb.size >> 10, ctrl->hmb.nr_descs,
			 (u64)hmpre * SSDT_HMB_UNIT >> 10, min >> 10);
	return 0;
}

/*
 * Before the controller is stopped (reset, sleep, shutdown, removal): ask
 * it to let go of the buffer while it still answers.  Whatever the answer,
 * the CC.EN=0 that follows takes the buffer back; ssdt_hmb_stopped() then
 * records that.  The memory stays for the restart.
 */
void ssdt_hmb_stop(struct ssdt_ctrl *ctrl)
{
	if (!ctrl->hmb_on || !READ_ONCE(ctrl->admin->live) ||
	    ssdt_ctrl_gone(ctrl))
		return;
	if (!ssdt_hmb_set(ctrl, 0, min_t(unsigned int, SSDT_HMB_STOP_TIMEOUT_S,
					 READ_ONCE(ssdt_admin_timeout))))
		WRITE_ONCE(ctrl->hmb_on, false);
}

/* The controller is disabled, gone, or off the bus: it holds nothing. */
void ssdt_hmb_stopped(struct ssdt_ctrl *ctrl)
{
	WRITE_ONCE(ctrl->hmb_on, false);
}

/* Removal or a failed probe, after ssdt_hmb_stopped(): free it. */
void ssdt_hmb_free_all(struct ssdt_ctrl *ctrl)
{
	WARN_ON_ONCE(ctrl->hmb_on);
	ssdt_hmb_release(ctrl);
}
