// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow doorbells: set-up of the Doorbell Buffer Config command and the
 * per-queue pointers into its two pages.  The hot path is ssdt_queue.c's
 * ssdt_dbbuf_update() (for ssdt_sq_ring() and ssdt_cq_done()); the rule
 * is ssdt_dbbuf.h's.
 *
 * The shadow page holds, at the offsets the doorbell registers have past
 * 0x1000, each I/O queue's SQ tail and CQ head; the event-index page holds
 * where the controller wants to be told.  The admin queue keeps its MMIO
 * doorbells (as Linux's nvme-pci does).  A controller reset forgets the
 * configuration, so ssdt_dbbuf_setup() runs again after every reset.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include "ssdt.h"
#include "ssdt_dbbuf.h"

static bool ssdt_shadow_doorbells = true;
module_param_named(shadow_doorbells, ssdt_shadow_doorbells, bool, 0444);
MODULE_PARM_DESC(shadow_doorbells, "use the controller's shadow doorbell buffers where it has them (default Y)");

static const char * const ssdt_dbbuf_names[] = {
	[SSDT_DBBUF_UNSUPPORTED]	= "unsupported",
	[SSDT_DBBUF_OFF]		= "off",
	[SSDT_DBBUF_REFUSED]		= "refused",
	[SSDT_DBBUF_ON]			= "on",
};

const char *ssdt_dbbuf_name(enum ssdt_dbbuf_state state)
{
	return ssdt_dbbuf_names[state];
}

/* Bytes of each page the queues use: (admin + I/O queues) doorbell pairs. */
static size_t ssdt_dbbuf_span(struct ssdt_ctrl *ctrl)
{
	return (size_t)(ctrl->nr_io + 1) * 2 * ctrl->db_stride;
}

static int ssdt_dbbuf_alloc(struct ssdt_ctrl *ctrl)
{
	struct device *dev = ssdt_dev(ctrl);

	if (ctrl->dbbuf_dbs)
		return 0;
	ctrl->dbbuf_dbs = dma_alloc_coherent(dev, SSDT_PAGE_SIZE,
					     &ctrl->dbbuf_dbs_dma, GFP_KERNEL);
	if (!ctrl->dbbuf_dbs)
		return -ENOMEM;
	ctrl->dbbuf_eis = dma_alloc_coherent(dev, SSDT_PAGE_SIZE,
					     &ctrl->dbbuf_eis_dma, GFP_KERNEL);
	if (!ctrl->dbbuf_eis) {
		dma_free_coherent(dev, SSDT_PAGE_SIZE, ctrl->dbbuf_dbs,
				  ctrl->dbbuf_dbs_dma);
		ctrl->dbbuf_dbs = NULL;
		return -ENOMEM;
	}
	return 0;
}

void ssdt_dbbuf_free(struct ssdt_ctrl *ctrl)
{
	struct device *dev = ssdt_dev(ctrl);

	if (ctrl->dbbuf_dbs)
		dma_free_coherent(dev, SSDT_PAGE_SIZE, ctrl->dbbuf_dbs,
				  ctrl->dbbuf_dbs_dma);
	if (ctrl->dbbuf_eis)
		dma_free_coherent(dev, SSDT_PAGE_SIZE, ctrl->dbbuf_eis,
				  ctrl->dbbuf_eis_dma);
	ctrl->dbbuf_dbs = NULL;
	ctrl->dbbuf_eis = NULL;
}

/*
 * Hand the controller zeroed shadow and event-index pages (the queues'
 * tails and heads start at 0).  Runs with every I/O queue stopped: before
 * they are created at probe and after a reset.  Failure is not fatal: the
 * queues keep their MMIO doorbells and the sysfs file says why.
 */
void ssdt_dbbuf_setup(struct ssdt_ctrl *ctrl)
{
	struct nvme_command cmd = { };
	int ret;

	if (!(ctrl->oacs & NVME_CTRL_OACS_DBBUF_SUPP) || ctrl->single_vector ||
	    ssdt_dbbuf_span(ctrl) > SSDT_PAGE_SIZE) {
		ctrl->dbbuf = SSDT_DBBUF_UNSUPPORTED;
		return;
	}
	if (!ssdt_shadow_doorbells) {
		ctrl->dbbuf = SSDT_DBBUF_OFF;
		return;
	}
	if (ctrl->dbbuf == SSDT_DBBUF_REFUSED)
		return;		/* refused once: do not ask after every reset */
	if (ssdt_dbbuf_alloc(ctrl)) {
		ctrl->dbbuf = SSDT_DBBUF_REFUSED;
		return;
	}
	memset(ctrl->dbbuf_dbs, 0, SSDT_PAGE_SIZE);
	memset(ctrl->dbbuf_eis, 0, SSDT_PAGE_SIZE);
	cmd.dbbuf.opcode = nvme_admin_dbbuf;
	cmd.dbbuf.prp1 = cpu_to_le64(ctrl->dbbuf_dbs_dma);
	cmd.dbbuf.prp2 = cpu_to_le64(ctrl->dbbuf_eis_dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret) {
		dev_info(ssdt_dev(ctrl), "Doorbell Buffer Config failed (%d): MMIO doorbells only\n",
			 ret);
		ssdt_dbbuf_free(ctrl);
		ctrl->dbbuf = SSDT_DBBUF_REFUSED;
		return;
	}
	ctrl->dbbuf = SSDT_DBBUF_ON;
}

/* Point I/O queue @q at its shadow slots, or at none.  @q is not live. */
void ssdt_dbbuf_queue_init(struct ssdt_queue *q)
{
	struct ssdt_ctrl *ctrl = q->ctrl;
	u32 sq = 2 * q->qid * ctrl->db_stride / sizeof(__le32);
	u32 cq = (2 * q->qid + 1) * ctrl->db_stride / sizeof(__le32);

	if (ctrl->dbbuf != SSDT_DBBUF_ON || !q->qid) {
		q->dbbuf_sq_db = NULL;
		q->dbbuf_sq_ei = NULL;
		q->dbbuf_cq_db = NULL;
		q->dbbuf_cq_ei = NULL;
		return;
	}
	q->dbbuf_sq_db = &ctrl->dbbuf_dbs[sq];
	q->dbbuf_sq_ei = &ctrl->dbbuf_eis[sq];
	q->dbbuf_cq_db = &ctrl->dbbuf_dbs[cq];
	q->dbbuf_cq_ei = &ctrl->dbbuf_eis[cq];
}
