// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune controller: enable/disable per CAP/CC/CSTS, the admin queue and
 * its commands, I/O queue creation, reset and shutdown.
 */
#include <linux/delay.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "ssdt.h"

static u32 ssdt_csts(struct ssdt_ctrl *ctrl)
{
	return readl(ctrl->bar + NVME_REG_CSTS);
}

/* All-ones from a register read means the device left the bus. */
bool ssdt_ctrl_gone(struct ssdt_ctrl *ctrl)
{
	return ssdt_csts(ctrl) == ~0u || !pci_device_is_present(ctrl->pdev);
}

static int ssdt_wait_csts(struct ssdt_ctrl *ctrl, u32 mask, u32 val,
			  unsigned long timeout, const char *what)
{
	unsigned long deadline = jiffies + timeout;
	u32 csts;

	for (;;) {
		csts = ssdt_csts(ctrl);
		if (csts == ~0u)
			return -ENODEV;
		if ((csts & mask) == val)
			return 0;
		if (time_after(jiffies, deadline)) {
			dev_err(ssdt_dev(ctrl), "timed out waiting for %s (CSTS %#x)\n",
				what, csts);
			return -ETIMEDOUT;
		}
		usleep_range(1000, 2000);
	}
}

static int ssdt_ctrl_disable(struct ssdt_ctrl *ctrl)
{
	u32 cc = readl(ctrl->bar + NVME_REG_CC);

	if (cc & NVME_CC_ENABLE)
		writel(cc & ~NVME_CC_ENABLE, ctrl->bar + NVME_REG_CC);
	return ssdt_wait_csts(ctrl, NVME_CSTS_RDY, 0, ctrl->ready_timeout,
			      "controller disable");
}

static int ssdt_ctrl_enable(struct ssdt_ctrl *ctrl)
{
	struct ssdt_queue *aq = ctrl->admin;
	u32 aqa = (aq->depth - 1) | ((aq->depth - 1) << 16);

	writel(aqa, ctrl->bar + NVME_REG_AQA);
	lo_hi_writeq(aq->sq_dma, ctrl->bar + NVME_REG_ASQ);
	lo_hi_writeq(aq->cq_dma, ctrl->bar + NVME_REG_ACQ);
	ctrl->ctrl_config = NVME_CC_CSS_NVM | NVME_CC_AMS_RR |
		((ilog2(SSDT_PAGE_SIZE) - 12) << NVME_CC_MPS_SHIFT) |
		NVME_CC_IOSQES | NVME_CC_IOCQES | NVME_CC_ENABLE;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	return ssdt_wait_csts(ctrl, NVME_CSTS_RDY, NVME_CSTS_RDY,
			      ctrl->ready_timeout, "controller ready");
}

/* Normal shutdown: the controller commits its volatile write cache. */
static void ssdt_ctrl_shutdown(struct ssdt_ctrl *ctrl)
{
	u32 cc = readl(ctrl->bar + NVME_REG_CC);

	cc = (cc & ~NVME_CC_SHN_MASK) | NVME_CC_SHN_NORMAL;
	writel(cc, ctrl->bar + NVME_REG_CC);
	if (!ssdt_wait_csts(ctrl, NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_CMPLT,
			    max(ctrl->ready_timeout, 5UL * HZ), "shutdown"))
		dev_info(ssdt_dev(ctrl), "shutdown complete\n");
}

/*
 * Make the controller stop touching host memory now, from any sleeping
 * context: CC.EN=0 aborts every command it holds (the spec's controller
 * reset); a controller that does not come to CSTS.RDY=0 loses bus
 * mastering.  Whatever it was given may then be freed.  The reset that
 * follows sets it up again, or, during removal, fails what it held
 * (ssdt_reset_work()); until then admin commands fail and I/O waits.
 */
static void ssdt_ctrl_fence(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	WRITE_ONCE(ctrl->fenced, true);
	WRITE_ONCE(ctrl->admin->live, false);
	for (i = 0; i < ctrl->nr_io; i++)
		WRITE_ONCE(ctrl->ioq[i]->live, false);
	if (ssdt_ctrl_disable(ctrl)) {
		dev_err(ssdt_dev(ctrl), "controller does not stop: bus mastering off\n");
		pci_clear_master(ctrl->pdev);
	}
}

/* ---- admin commands ---------------------------------------------------- */

static int ssdt_slot_get(struct ssdt_ctrl *ctrl, struct completion *waiter,
			 bool aer)
{
	unsigned long flags;
	int i;

	if (down_timeout(&ctrl->slot_sem, ssdt_admin_timeout * HZ))
		return -EBUSY;
	spin_lock_irqsave(&ctrl->slot_lock, flags);
	for (i = 0; i < ARRAY_SIZE(ctrl->slots); i++) {
		if (!ctrl->slots[i].busy) {
			ctrl->slots[i].busy = true;
			ctrl->slots[i].waiter = waiter;
			ctrl->slots[i].aer = aer;
			break;
		}
	}
	spin_unlock_irqrestore(&ctrl->slot_lock, flags);
	/* The semaphore counts free slots, so one was free. */
	return i;
}

static void ssdt_slot_put(struct ssdt_ctrl *ctrl, int i)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->slot_lock, flags);
	ctrl->slots[i].busy = false;
	ctrl->slots[i].waiter = NULL;
	spin_unlock_irqrestore(&ctrl->slot_lock, flags);
	up(&ctrl->slot_sem);
}

/* Called from completion reaping of the admin queue (any context). */
void ssdt_admin_complete(struct ssdt_ctrl *ctrl, struct nvme_completion *cqe)
{
	u16 cid = cqe->command_id;
	struct ssdt_admin_slot *slot;
	unsigned long flags;
	bool release = false, aer;

	if (cid >= ARRAY_SIZE(ctrl->slots)) {
		dev_warn_ratelimited(ssdt_dev(ctrl), "admin completion with bad id %u\n",
				     cid);
		return;
	}
	slot = &ctrl->slots[cid];
	spin_lock_irqsave(&ctrl->slot_lock, flags);
	if (!slot->busy) {
		spin_unlock_irqrestore(&ctrl->slot_lock, flags);
		dev_warn_ratelimited(ssdt_dev(ctrl), "spurious admin completion %u\n",
				     cid);
		return;
	}
	/* The debug hook loses a command's completion, never an AER's. */
	if (!slot->aer && ssdt_debug_drop(&ctrl->drop_admin_completions)) {
		spin_unlock_irqrestore(&ctrl->slot_lock, flags);
		dev_warn(ssdt_dev(ctrl), "debug: dropping admin completion %u\n", cid);
		return;
	}
	slot->cqe = *cqe;
	aer = slot->aer;
	slot->aer = false;
	if (slot->waiter) {
		complete(slot->waiter);
		slot->waiter = NULL;	/* the waiter frees the slot */
	} else {
		slot->busy = false;
		release = true;
	}
	spin_unlock_irqrestore(&ctrl->slot_lock, flags);
	if (release)
		up(&ctrl->slot_sem);
	if (aer)
		ssdt_aer_done(ctrl, le16_to_cpu(cqe->status) >> 1,
			      le32_to_cpu(cqe->result.u32));
}

/* Fail every outstanding admin command: the admin queue is being reset. */
static void ssdt_admin_cancel_all(struct ssdt_ctrl *ctrl)
{
	struct nvme_completion cqe = {
		.status = cpu_to_le16(NVME_SC_HOST_ABORTED_CMD << 1),
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(ctrl->slots); i++) {
		if (!READ_ONCE(ctrl->slots[i].busy))
			continue;
		cqe.command_id = i;
		ssdt_admin_complete(ctrl, &cqe);
	}
}

/*
 * Post @cmd in a free slot: @waiter (if any) is completed when it ends;
 * an Asynchronous Event Request (@aer) goes to ssdt_aer_done() then.
 */
static int ssdt_admin_post(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			   struct completion *waiter, bool aer)
{
	int slot;

	if (!READ_ONCE(ctrl->admin->live))
		return -ENODEV;
	slot = ssdt_slot_get(ctrl, waiter, aer);
	if (slot < 0)
		return slot;
	cmd->common.command_id = slot;
	ssdt_sq_write(ctrl->admin, cmd, true);
	return slot;
}

/*
 * Run an admin command and wait for it, at most @timeout_s seconds; its
 * completion entry into @cqe.  On a timeout the controller is stopped
 * (ssdt_ctrl_fence) before this returns, so the caller may free the
 * command's buffers, and then reset.  Returns 0 when the controller
 * answered (whatever the status), or a negative errno: -ETIMEDOUT,
 * -EINTR (cancelled by a reset), or what posting it failed with.
 */
int ssdt_admin_exec_cqe(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			struct nvme_completion *cqe, unsigned int timeout_s)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct ssdt_admin_slot *s;
	unsigned long flags, left;
	int slot;

	slot = ssdt_admin_post(ctrl, cmd, &done, false);
	if (slot < 0)
		return slot;
	s = &ctrl->slots[slot];
	left = wait_for_completion_timeout(&done, timeout_s * HZ);
	spin_lock_irqsave(&ctrl->slot_lock, flags);
	if (!left && s->waiter) {
		/* Still outstanding: whoever completes it frees the slot. */
		s->waiter = NULL;
		spin_unlock_irqrestore(&ctrl->slot_lock, flags);
		dev_err(ssdt_dev(ctrl), "admin command %#x timed out: stopping the controller\n",
			cmd->common.opcode);
		ssdt_ctrl_fence(ctrl);
		ssdt_schedule_reset(ctrl);
		return -ETIMEDOUT;
	}
	*cqe = s->cqe;
	spin_unlock_irqrestore(&ctrl->slot_lock, flags);
	ssdt_slot_put(ctrl, slot);
	if ((le16_to_cpu(cqe->status) >> 1) == NVME_SC_HOST_ABORTED_CMD)
		return -EINTR;
	return 0;
}

/*
 * The same, returning 0, a negative errno, or the positive NVMe status
 * code (status code type and code) of the answer; its result dword into
 * @result.
 */
int ssdt_admin_exec_timeout(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			    u32 *result, unsigned int timeout_s)
{
	struct nvme_completion cqe;
	int ret;

	ret = ssdt_admin_exec_cqe(ctrl, cmd, &cqe, timeout_s);
	if (ret)
		return ret;
	if (result)
		*result = le32_to_cpu(cqe.result.u32);
	return (le16_to_cpu(cqe.status) >> 1) & 0x7ff;
}

/* An admin command within the admin_timeout module parameter. */
int ssdt_admin_exec(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
		    u32 *result)
{
	return ssdt_admin_exec_timeout(ctrl, cmd, result, ssdt_admin_timeout);
}

/*
 * Post an Asynchronous Event Request: nobody waits, its completion goes
 * to ssdt_aer_done() whenever the controller has something to say.
 */
int ssdt_admin_submit_aer(struct ssdt_ctrl *ctrl, struct nvme_command *cmd)
{
	int slot = ssdt_admin_post(ctrl, cmd, NULL, true);

	return slot < 0 ? slot : 0;
}

/* Post an admin command nobody waits for (Abort from the timeout path). */
int ssdt_admin_submit_nowait(struct ssdt_ctrl *ctrl, struct nvme_command *cmd)
{
	int slot = ssdt_admin_post(ctrl, cmd, NULL, false);

	return slot < 0 ? slot : 0;
}

/*
 * Identify Controller.  Again after a reset (@again) the controller must be
 * the one the disks were set up for: same model and serial, no smaller
 * transfer limit; else -ENODEV.
 */
static int ssdt_identify_ctrl(struct ssdt_ctrl *ctrl, bool again)
{
	struct nvme_command cmd = { };
	struct nvme_id_ctrl *id;
	char model[41], serial[21];
	u32 max_xfer;
	dma_addr_t dma;
	int ret;

	id = dma_alloc_coherent(ssdt_dev(ctrl), sizeof(*id), &dma, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	cmd.identify.opcode = nvme_admin_identify;
	cmd.identify.cns = NVME_ID_CNS_CTRL;
	cmd.identify.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret) {
		dev_err(ssdt_dev(ctrl), "Identify Controller failed: %d\n", ret);
		ret = ret < 0 ? ret : -EIO;
		goto out;
	}
	max_xfer = SSDT_MAX_XFER;
	/* MDTS is in units of the minimum page size, 0 = no limit. */
	if (id->mdts && id->mdts < 20)
		max_xfer = min_t(u32, max_xfer, (1u << id->mdts) *
				 (1u << (12 + NVME_CAP_MPSMIN(ctrl->cap))));
	memcpy(model, id->mn, sizeof(id->mn));
	memcpy(serial, id->sn, sizeof(id->sn));
	model[sizeof(id->mn)] = '\0';
	serial[sizeof(id->sn)] = '\0';
	strim(model);
	strim(serial);
	if (again && (strcmp(model, ctrl->model) || strcmp(serial, ctrl->serial) ||
		      max_xfer < ctrl->max_xfer)) {
		dev_err(ssdt_dev(ctrl), "after the reset the controller is %s serial %s, max transfer %u: not the %s serial %s, %u it was\n",
			model, serial, max_xfer, ctrl->model, ctrl->serial,
			ctrl->max_xfer);
		ret = -ENODEV;
		goto out;
	}
	strscpy(ctrl->model, model, sizeof(ctrl->model));
	strscpy(ctrl->serial, serial, sizeof(ctrl->serial));
	memcpy(ctrl->firmware, id->fr, sizeof(id->fr));
	strim(ctrl->firmware);
	ctrl->oncs = le16_to_cpu(id->oncs);
	ctrl->oacs = le16_to_cpu(id->oacs);
	ctrl->oaes = le32_to_cpu(id->oaes);
	ctrl->aerl = id->aerl;
	ctrl->fna = id->fna;
	ctrl->wctemp = le16_to_cpu(id->wctemp);
	ctrl->vwc = id->vwc;
	ctrl->npss = min_t(u8, id->npss, ARRAY_SIZE(ctrl->psd) - 1);
	memcpy(ctrl->psd, id->psd, sizeof(ctrl->psd));
	if (!again) {
		ctrl->max_xfer = max_xfer;
		dev_info(ssdt_dev(ctrl), "%s, serial %s, firmware %s\n",
			 ctrl->model, ctrl->serial, ctrl->firmware);
	}
out:
	dma_free_coherent(ssdt_dev(ctrl), sizeof(*id), id, dma);
	return ret;
}

/* 2^@shift 512-byte sectors, or UINT_MAX when that does not fit. */
static u32 ssdt_shift_sectors(u32 shift)
{
	return shift >= 32 ? UINT_MAX : 1u << shift;
}

/*
 * The limits Identify Controller does not carry: Identify I/O Command Set
 * specific Controller (CNS 06h) for the NVM set gives the Write Zeroes
 * size limit (WZSL, in minimum page sizes) and the Dataset Management
 * range size limit (DMRSL, in logical blocks).  A controller older than
 * NVMe 2.0 refuses the command: no such limits then.  Write Zeroes is
 * held to the transfer limit when WZSL is 0, as the stock driver does:
 * MDTS does not bind it by the letter, but devices have failed larger.
 */
static int ssdt_identify_nvm_limits(struct ssdt_ctrl *ctrl)
{
	u32 mps_shift = 12 + NVME_CAP_MPSMIN(ctrl->cap);
	struct nvme_command cmd = { };
	struct nvme_id_ctrl_nvm *id;
	dma_addr_t dma;
	int ret;

	ctrl->max_zeroes_sectors = ctrl->max_xfer >> SECTOR_SHIFT;
	ctrl->dmrsl = 0;
	id = dma_alloc_coherent(ssdt_dev(ctrl), sizeof(*id), &dma, GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	cmd.identify.opcode = nvme_admin_identify;
	cmd.identify.cns = NVME_ID_CNS_CS_CTRL;
	cmd.identify.csi = NVME_CSI_NVM;
	cmd.identify.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret > 0) {
		dev_dbg(ssdt_dev(ctrl), "no NVM command set limits (status %#x)\n",
			ret);
		ret = 0;
	} else if (!ret) {
		if (id->wzsl)
			ctrl->max_zeroes_sectors =
				ssdt_shift_sectors(id->wzsl + mps_shift -
						   SECTOR_SHIFT);
		ctrl->dmrsl = le32_to_cpu(id->dmrsl);
	}
	dma_free_coherent(ssdt_dev(ctrl), sizeof(*id), id, dma);
	return ret;
}

static int ssdt_set_queue_count(struct ssdt_ctrl *ctrl, unsigned int *count)
{
	struct nvme_command cmd = { };
	u32 q = *count - 1, result;
	int ret;

	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(NVME_FEAT_NUM_QUEUES);
	cmd.features.dword11 = cpu_to_le32(q | (q << 16));
	ret = ssdt_admin_exec(ctrl, &cmd, &result);
	if (ret) {
		dev_err(ssdt_dev(ctrl), "Set Number of Queues failed: %d\n", ret);
		return ret < 0 ? ret : -EIO;
	}
	*count = min3(*count, (result & 0xffff) + 1, (result >> 16) + 1);
	return 0;
}

static int ssdt_create_io_queue(struct ssdt_ctrl *ctrl, struct ssdt_queue *q)
{
	struct nvme_command cmd = { };
	int ret;

	ssdt_dbbuf_queue_init(q);
	cmd.create_cq.opcode = nvme_admin_create_cq;
	cmd.create_cq.prp1 = cpu_to_le64(q->cq_dma);
	cmd.create_cq.cqid = cpu_to_le16(q->qid);
	cmd.create_cq.qsize = cpu_to_le16(q->depth - 1);
	/* A poll queue's completions raise no interrupt (IEN 0). */
	cmd.create_cq.cq_flags = cpu_to_le16(NVME_QUEUE_PHYS_CONTIG |
					     (q->poll ? 0 : NVME_CQ_IRQ_ENABLED));
	cmd.create_cq.irq_vector = cpu_to_le16(q->poll ? 0 : q->vector);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret)
		goto fail;

	memset(&cmd, 0, sizeof(cmd));
	cmd.create_sq.opcode = nvme_admin_create_sq;
	cmd.create_sq.prp1 = cpu_to_le64(q->sq_dma);
	cmd.create_sq.sqid = cpu_to_le16(q->qid);
	cmd.create_sq.qsize = cpu_to_le16(q->depth - 1);
	cmd.create_sq.sq_flags = cpu_to_le16(NVME_QUEUE_PHYS_CONTIG |
					     NVME_SQ_PRIO_MEDIUM);
	cmd.create_sq.cqid = cpu_to_le16(q->qid);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret)
		goto fail;
	WRITE_ONCE(q->live, true);
	return 0;
fail:
	dev_err(ssdt_dev(ctrl), "creating I/O queue %u failed: %d\n", q->qid, ret);
	return ret < 0 ? ret : -EIO;
}

static int ssdt_create_io_queues(struct ssdt_ctrl *ctrl)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ctrl->nr_io; i++) {
		ret = ssdt_create_io_queue(ctrl, ctrl->ioq[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int ssdt_admin_start(struct ssdt_ctrl *ctrl)
{
	int ret;

	ssdt_queue_reset(ctrl->admin);
	pci_set_master(ctrl->pdev);
	/* what an AER recovery's slot_reset restores after the link reset */
	pci_save_state(ctrl->pdev);
	ret = ssdt_ctrl_enable(ctrl);
	if (!ret) {
		WRITE_ONCE(ctrl->fenced, false);
		WRITE_ONCE(ctrl->admin->live, true);
	}
	return ret;
}

/*
 * Allocate the vectors for @want interrupt-driven I/O queues; @poll
 * queues without a vector follow them.  Settles nr_io and the layout.
 */
static int ssdt_setup_vectors(struct ssdt_ctrl *ctrl, unsigned int want,
			      unsigned int poll)
{
	struct pci_dev *pdev = ctrl->pdev;
	int got;

	got = pci_alloc_irq_vectors(pdev, 1, want + 1, PCI_IRQ_ALL_TYPES);
	if (got < 0)
		return got;
	ctrl->nr_vecs = got;
	ctrl->single_vector = got == 1;
	ctrl->nr_irq_io = ctrl->single_vector ? 1 : min_t(unsigned int, want, got - 1);
	ctrl->nr_poll = poll;
	ctrl->nr_io = ctrl->nr_irq_io + poll;
	return 0;
}

int ssdt_ctrl_init(struct ssdt_ctrl *ctrl)
{
	struct pci_dev *pdev = ctrl->pdev;
	unsigned int want, poll, count, i;
	u64 bar_pairs;
	int ret;

	ctrl->cap = lo_hi_readq(ctrl->bar + NVME_REG_CAP);
	if (ssdt_csts(ctrl) == ~0u)
		return -ENODEV;
	ctrl->db_stride = 4 << NVME_CAP_STRIDE(ctrl->cap);
	ctrl->ready_timeout = (NVME_CAP_TIMEOUT(ctrl->cap) + 1) * HZ / 2;
	if (NVME_CAP_MPSMIN(ctrl->cap) > ilog2(SSDT_PAGE_SIZE) - 12) {
		dev_err(ssdt_dev(ctrl), "controller needs pages above %u bytes\n",
			SSDT_PAGE_SIZE);
		return -ENODEV;
	}
	/* Doorbells for the admin queue and at least one I/O queue pair. */
	bar_pairs = (pci_resource_len(pdev, 0) - 0x1000) / (2 * ctrl->db_stride);
	if (pci_resource_len(pdev, 0) <= 0x1000 || bar_pairs < 2) {
		dev_err(ssdt_dev(ctrl), "BAR0 too small for the doorbells\n");
		return -ENODEV;
	}

	ret = ssdt_ctrl_disable(ctrl);
	if (ret)
		return ret;

	/* One vector for the admin queue until we know the queue count. */
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (ret < 0)
		return ret;
	ctrl->admin = ssdt_queue_alloc(ctrl, 0, SSDT_ADMIN_DEPTH, 0);
	if (!ctrl->admin) {
		ret = -ENOMEM;
		goto free_vecs;
	}
	ctrl->nr_io = 0;
	ctrl->nr_irq_io = 0;
	ctrl->nr_poll = 0;
	ret = ssdt_irqs_request(ctrl);
	if (ret)
		goto free_admin;
	ret = ssdt_admin_start(ctrl);
	if (ret)
		goto free_irqs;
	ret = ssdt_identify_ctrl(ctrl, false);
	if (ret)
		goto disable;
	ret = ssdt_identify_nvm_limits(ctrl);
	if (ret)
		goto disable;

	want = num_online_cpus();
	if (ssdt_max_io_queues)
		want = min(want, ssdt_max_io_queues);
	/* poll queues on top, leaving doorbells for one interrupt queue */
	poll = min_t(u64, ssdt_poll_queues, bar_pairs - 2);
	want = min_t(u64, want, min_t(u64, 64, bar_pairs - 1 - poll));
	count = want + poll;
	ret = ssdt_set_queue_count(ctrl, &count);
	if (ret)
		goto disable;
	/* fewer granted: the poll queues give way first */
	want = min(want, count);
	poll = count - want;

	/* Now the real vector layout: admin on 0, one per I/O queue after. */
	ssdt_irqs_free(ctrl);
	pci_free_irq_vectors(pdev);
	ret = ssdt_setup_vectors(ctrl, want, poll);
	if (ret)
		goto disable_noirq;

	ctrl->io_depth = min_t(u32, NVME_CAP_MQES(ctrl->cap) + 1,
			       ssdt_io_queue_depth);
	ctrl->ioq = kcalloc_node(ctrl->nr_io, sizeof(*ctrl->ioq), GFP_KERNEL,
				 ctrl->node);
	if (!ctrl->ioq) {
		ret = -ENOMEM;
		goto disable_noirq;
	}
	for (i = 0; i < ctrl->nr_io; i++) {
		bool polled = i >= ctrl->nr_irq_io;
		u16 vec = ctrl->single_vector || polled ? 0 : i + 1;

		ctrl->ioq[i] = ssdt_queue_alloc(ctrl, i + 1, ctrl->io_depth, vec);
		if (!ctrl->ioq[i]) {
			ret = -ENOMEM;
			goto free_ioq;
		}
		ctrl->ioq[i]->poll = polled;
	}
	ret = ssdt_irqs_request(ctrl);
	if (ret)
		goto free_ioq;
	ssdt_dbbuf_setup(ctrl);
	ret = ssdt_create_io_queues(ctrl);
	if (ret)
		goto free_irqs_io;

	dev_info(ssdt_dev(ctrl), "%u I/O queues (%u polled) of depth %u, %u %s vectors, shadow doorbells %s\n",
		 ctrl->nr_io, ctrl->nr_poll, ctrl->io_depth, ctrl->nr_vecs,
		 pdev->msix_enabled ? "MSI-X" :
		 pdev->msi_enabled ? "MSI" : "INTx",
		 ssdt_dbbuf_name(ctrl->dbbuf));
	ctrl->state = SSDT_LIVE;
	ssdt_aer_start(ctrl);
	return 0;

free_irqs_io:
	ssdt_ctrl_disable(ctrl);
	ssdt_irqs_free(ctrl);
	ssdt_dbbuf_free(ctrl);
free_ioq:
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_queue_free(ctrl->ioq[i]);
	kfree(ctrl->ioq);
	ctrl->ioq = NULL;
	ctrl->nr_io = 0;
	ctrl->nr_irq_io = 0;
	ctrl->nr_poll = 0;
disable_noirq:
	ssdt_ctrl_disable(ctrl);
	goto free_admin;
disable:
	ssdt_ctrl_disable(ctrl);
free_irqs:
	ssdt_irqs_free(ctrl);
free_admin:
	ssdt_queue_free(ctrl->admin);
	ctrl->admin = NULL;
free_vecs:
	pci_free_irq_vectors(pdev);
	return ret;
}

/* Stop every queue and the controller; reap what already completed. */
static void ssdt_ctrl_stop(struct ssdt_ctrl *ctrl, bool shutdown)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_io; i++) {
		WRITE_ONCE(ctrl->ioq[i]->live, false);
		ssdt_mod_stop(ctrl->ioq[i]);
	}
	if (!ssdt_ctrl_gone(ctrl)) {
		if (shutdown)
			ssdt_ctrl_shutdown(ctrl);
		ssdt_ctrl_disable(ctrl);
	}
	WRITE_ONCE(ctrl->admin->live, false);
	ssdt_irqs_sync(ctrl);
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_cq_poll(ctrl->ioq[i]);
	ssdt_cq_poll(ctrl->admin);
	ssdt_admin_cancel_all(ctrl);
}

void ssdt_ctrl_teardown(struct ssdt_ctrl *ctrl, bool shutdown)
{
	unsigned int i;

	if (!ctrl->admin)
		return;
	ssdt_aer_stop(ctrl);		/* its work sends admin commands */
	ssdt_ctrl_stop(ctrl, shutdown);
	ssdt_irqs_free(ctrl);
	pci_free_irq_vectors(ctrl->pdev);
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_queue_free(ctrl->ioq[i]);
	kfree(ctrl->ioq);
	ctrl->ioq = NULL;
	ctrl->nr_io = 0;
	ctrl->nr_irq_io = 0;
	ctrl->nr_poll = 0;
	ssdt_dbbuf_free(ctrl);
	ssdt_queue_free(ctrl->admin);
	ctrl->admin = NULL;
}

/*
 * Fail everything from now on: the controller is gone or unrecoverable, or
 * (@shutdown) the system goes down and the controller commits its cache
 * first.  Frees nothing: the disks and queues stay until remove().
 * Called with dev_mutex held; from anywhere but a timeout handler, after
 * ssdt_io_sync(), so no handler works on a request this ends.
 */
void ssdt_mark_dead(struct ssdt_ctrl *ctrl, bool shutdown)
{
	/* halted (ssdt_ctrl_pause): the disks are quiesced already */
	bool halted = ctrl->paused;
	unsigned int i;

	ctrl->paused = false;
	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_DEAD;
	spin_unlock_irq(&ctrl->state_lock);
	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_mark_disk_dead(ctrl->ns[i].disk);
	if (!halted)
		ssdt_io_quiesce(ctrl);
	if (ctrl->admin)
		ssdt_ctrl_stop(ctrl, shutdown);
	ssdt_io_cancel_all(ctrl, false);
	ssdt_io_unquiesce(ctrl);
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_DEAD);
}

/*
 * Ask for a reset.  During removal none comes, but a controller that an
 * admin timeout stopped still gets the work: it fails the I/O held for a
 * reset, which would otherwise wait for ever (ssdt_reset_work()).
 */
void ssdt_schedule_reset(struct ssdt_ctrl *ctrl)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->state_lock, flags);
	if (ctrl->state == SSDT_LIVE &&
	    (!ctrl->removing || READ_ONCE(ctrl->fenced)))
		queue_work(ssdt_wq, &ctrl->reset_work);
	spin_unlock_irqrestore(&ctrl->state_lock, flags);
}

/*
 * First half of a reset: quiesce, stop the controller (with @shutdown it
 * commits its cache first, CC.SHN), requeue what was in flight.  Called
 * with dev_mutex held on a live controller; leaves it "resetting".
 */
static void ssdt_ctrl_halt(struct ssdt_ctrl *ctrl, bool shutdown)
{
	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_RESETTING;
	WRITE_ONCE(ctrl->resets, ctrl->resets + 1);
	spin_unlock_irq(&ctrl->state_lock);

	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_RESET);
	ssdt_io_quiesce(ctrl);
	ssdt_io_sync(ctrl);		/* no timeout handler runs after this */
	ssdt_ctrl_stop(ctrl, shutdown);
	ssdt_io_cancel_all(ctrl, true);
}

/*
 * Second half: bring the admin and I/O queues back, restore the knobs,
 * resume.  If that fails the controller is dead and every I/O fails.
 */
static void ssdt_ctrl_restart(struct ssdt_ctrl *ctrl)
{
	unsigned int i, count;
	int ret;

	ret = -ENODEV;
	if (ssdt_ctrl_gone(ctrl))
		goto dead;
	ret = ssdt_admin_start(ctrl);
	if (ret)
		goto dead;
	/* The controller may come back different (firmware activation). */
	ret = ssdt_identify_ctrl(ctrl, true);
	if (ret)
		goto dead;
	count = ctrl->nr_io;
	ret = ssdt_set_queue_count(ctrl, &count);
	if (!ret && count < ctrl->nr_io) {
		dev_err(ssdt_dev(ctrl), "the controller now grants %u I/O queues, not %u: detach and attach it again\n",
			count, ctrl->nr_io);
		ret = -ENODEV;
	}
	if (ret)
		goto dead;
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_queue_reset(ctrl->ioq[i]);
	ssdt_dbbuf_setup(ctrl);
	ret = ssdt_create_io_queues(ctrl);
	if (ret)
		goto dead;

	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_LIVE;
	spin_unlock_irq(&ctrl->state_lock);
	ssdt_coalesce_restore(ctrl);
	ssdt_power_restore(ctrl);
	ssdt_aer_start(ctrl);
	ssdt_io_unquiesce(ctrl);
	dev_info(ssdt_dev(ctrl), "reset done\n");
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_RESET_DONE);
	return;
dead:
	dev_err(ssdt_dev(ctrl), "reset failed (%d): failing all I/O\n", ret);
	ssdt_io_unquiesce(ctrl);
	ssdt_mark_dead(ctrl, false);
}

/*
 * Controller reset: halt, then restart.  Runs on ssdt_wq.  During removal
 * it only ends what a controller stopped by an admin timeout (a Format
 * that remove() waited for, say) still holds: its queues are not live, so
 * the I/O behind them would be requeued for ever and the removal of the
 * disks, which waits for it, would hang.
 */
void ssdt_reset_work(struct work_struct *work)
{
	struct ssdt_ctrl *ctrl = container_of(work, struct ssdt_ctrl, reset_work);

	mutex_lock(&ctrl->dev_mutex);
	if (READ_ONCE(ctrl->state) != SSDT_LIVE) {
		/* new, resetting, halted by a PCI reset, or dead */
	} else if (!ctrl->removing) {
		dev_warn(ssdt_dev(ctrl), "resetting controller\n");
		ssdt_ctrl_halt(ctrl, false);
		ssdt_ctrl_restart(ctrl);
	} else if (READ_ONCE(ctrl->fenced)) {
		dev_warn(ssdt_dev(ctrl), "stopped during removal: failing outstanding I/O\n");
		ssdt_io_sync(ctrl);
		ssdt_mark_dead(ctrl, false);
	}
	mutex_unlock(&ctrl->dev_mutex);
}

/*
 * The PCI core resets the function (FLR through sysfs "reset", a reset of
 * the slot, or the link reset of an AER recovery) or the system sleeps:
 * stop the controller before it loses its state, hold the I/O, and take
 * it up again afterwards (@why names the cause in the log).  A reset
 * queued meanwhile finds the controller not live and returns.
 */
void ssdt_ctrl_pause(struct ssdt_ctrl *ctrl, bool shutdown, const char *why)
{
	mutex_lock(&ctrl->dev_mutex);
	if (ctrl->state == SSDT_LIVE && !ctrl->removing) {
		dev_info(ssdt_dev(ctrl), "halted for %s\n", why);
		ssdt_ctrl_halt(ctrl, shutdown);
		ctrl->paused = true;
	}
	mutex_unlock(&ctrl->dev_mutex);
}

void ssdt_ctrl_unpause(struct ssdt_ctrl *ctrl)
{
	mutex_lock(&ctrl->dev_mutex);
	if (ctrl->paused) {
		ctrl->paused = false;
		ssdt_ctrl_restart(ctrl);
	}
	mutex_unlock(&ctrl->dev_mutex);
}

/*
 * The device will not come back (a PCI channel that failed for good):
 * every request fails now, held ones included, instead of waiting.
 */
void ssdt_ctrl_kill(struct ssdt_ctrl *ctrl)
{
	mutex_lock(&ctrl->dev_mutex);
	if (ctrl->state != SSDT_DEAD)
		ssdt_mark_dead(ctrl, false);
	mutex_unlock(&ctrl->dev_mutex);
}
