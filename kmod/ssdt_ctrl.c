// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune controller: bring-up (probe and reset run one start), the I/O
 * queues' creation and split, reset, pause and teardown.  CC/CSTS, the
 * fence and reset requests are below it, in ssdt_core.c.
 */
#include <linux/crash_dump.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "ssdt.h"

/* ---- bring-up: probe and reset run the same start ----------------------- */

/* The admin queue, fresh, to the controller, and the controller on. */
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

/* Doorbell pairs BAR0 has room for after the registers. */
static u64 ssdt_doorbell_pairs(struct ssdt_ctrl *ctrl)
{
	resource_size_t len = pci_resource_len(ctrl->pdev, 0);

	return len <= 0x1000 ? 0 : (len - 0x1000) / (2 * ctrl->db_stride);
}

/* Probe: what CAP and BAR0 promise must be enough for this driver. */
static int ssdt_ctrl_check(struct ssdt_ctrl *ctrl)
{
	ssdt_ctrl_read_cap(ctrl);
	if (ssdt_csts(ctrl) == ~0u)
		return -ENODEV;
	ctrl->vs = readl(ctrl->bar + NVME_REG_VS);
	ctrl->io_depth = ssdt_io_queue_entries(NVME_CAP_MQES(ctrl->cap),
					       ssdt_io_queue_depth,
					       ctrl->quirks & SSDT_QUIRK_QDEPTH_ONE,
					       ctrl->quirks & SSDT_QUIRK_MQES0_DEPTH64);
	if (!ctrl->io_depth) {
		dev_err(ssdt_dev(ctrl), "CAP.MQES is 0 (queues of one entry): not a usable controller; a known model needs its quirk (Documentation/hardware.md)\n");
		return -ENODEV;
	}
	ctrl->db_stride = 4 << NVME_CAP_STRIDE(ctrl->cap);
	if (NVME_CAP_MPSMIN(ctrl->cap) > ilog2(SSDT_PAGE_SIZE) - 12) {
		dev_err(ssdt_dev(ctrl), "controller needs pages above %u bytes\n",
			SSDT_PAGE_SIZE);
		return -ENODEV;
	}
	/* Doorbells for the admin queue and at least one I/O queue pair. */
	if (ssdt_doorbell_pairs(ctrl) < 2) {
		dev_err(ssdt_dev(ctrl), "BAR0 too small for the doorbells\n");
		return -ENODEV;
	}
	return 0;
}

/*
 * Probe: the admin queue's memory and its interrupt, on a vector of its
 * own until the I/O queue count is known.  Undone on failure.
 */
static int ssdt_admin_alloc(struct ssdt_ctrl *ctrl)
{
	int ret;

	ret = pci_alloc_irq_vectors(ctrl->pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (ret < 0)
		return ret;
	ctrl->nr_io = 0;
	ctrl->nr_irq_io = 0;
	ctrl->nr_poll = 0;
	ctrl->admin = ssdt_queue_alloc(ctrl, 0, SSDT_ADMIN_DEPTH, 0);
	if (!ctrl->admin) {
		ret = -ENOMEM;
		goto free_vecs;
	}
	ret = ssdt_irqs_request(ctrl);
	if (!ret)
		return 0;
	ssdt_queue_free(ctrl->admin);
	ctrl->admin = NULL;
free_vecs:
	pci_free_irq_vectors(ctrl->pdev);
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

/*
 * Allocate the vectors for @want interrupt-driven I/O queues and the
 * @poll queues polled after them: a vector for every queue, so that the
 * poll_queues knob can later give a poll queue its interrupt.  Settles
 * nr_io and the layout.
 */
static int ssdt_setup_vectors(struct ssdt_ctrl *ctrl, unsigned int want,
			      unsigned int poll)
{
	struct pci_dev *pdev = ctrl->pdev;
	int got;

	/* the single_vector quirk: the admin queue's vector serves them all */
	got = pci_alloc_irq_vectors(pdev, 1,
				    ctrl->quirks & SSDT_QUIRK_SINGLE_VECTOR ?
				    1 : want + poll + 1, PCI_IRQ_ALL_TYPES);
	if (got < 0)
		return got;
	ctrl->nr_vecs = got;
	ctrl->single_vector = got == 1;
	ctrl->nr_irq_io = ctrl->single_vector ? 1 : min_t(unsigned int, want, got - 1);
	ctrl->nr_poll = poll;
	ctrl->nr_io = ctrl->nr_irq_io + poll;
	return 0;
}

/* The nr_io I/O queues' memory; on failure none, and nr_io is 0. */
static int ssdt_io_queues_alloc(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	ctrl->ioq = kcalloc_node(ctrl->nr_io, sizeof(*ctrl->ioq), GFP_KERNEL,
				 ctrl->node);
	if (!ctrl->ioq)
		goto none;
	for (i = 0; i < ctrl->nr_io; i++) {
		/* a poll queue keeps the vector it would take (none: 0) */
		u16 vec = ctrl->single_vector || i + 1 >= ctrl->nr_vecs ? 0 : i + 1;

		ctrl->ioq[i] = ssdt_queue_alloc(ctrl, i + 1, ctrl->io_depth, vec);
		if (!ctrl->ioq[i])
			goto free;
		ssdt_mod_init(ctrl->ioq[i]);
		ctrl->ioq[i]->poll = i >= ctrl->nr_irq_io;
	}
	return 0;

free:
	while (i--)
		ssdt_queue_free(ctrl->ioq[i]);
	kfree(ctrl->ioq);
	ctrl->ioq = NULL;
none:
	ctrl->nr_io = 0;
	ctrl->nr_irq_io = 0;
	ctrl->nr_poll = 0;
	return -ENOMEM;
}

/*
 * Probe: as many I/O queues as CPUs (within max_io_queues and BAR0's
 * doorbells) plus poll_queues, what the controller grants of them, and
 * their vectors (the admin queue keeps vector 0), memory and interrupts.
 * What is done stays consistent for ssdt_ctrl_teardown() on failure.
 */
static int ssdt_io_queues_setup(struct ssdt_ctrl *ctrl)
{
	u64 pairs = ssdt_doorbell_pairs(ctrl);
	unsigned int want, poll, count;
	int ret;

	want = num_online_cpus();
	if (ssdt_max_io_queues)
		want = min(want, ssdt_max_io_queues);
	/* poll queues on top, leaving doorbells for one interrupt queue */
	poll = is_kdump_kernel() ? 0 : min_t(u64, ssdt_poll_queues, pairs - 2);
	want = min_t(u64, want, min_t(u64, 64, pairs - 1 - poll));
	count = want + poll;
	ret = ssdt_set_queue_count(ctrl, &count);
	if (ret)
		return ret;
	/* fewer granted: the poll queues give way first */
	want = min(want, count);
	poll = count - want;

	ssdt_irqs_free(ctrl);
	pci_free_irq_vectors(ctrl->pdev);
	ret = ssdt_setup_vectors(ctrl, want, poll);
	if (ret)
		return ret;
	ret = ssdt_io_queues_alloc(ctrl);
	if (ret)
		return ret;
	return ssdt_irqs_request(ctrl);
}

/*
 * Reset: the controller must grant again the I/O queues the disks were
 * set up with; they start empty.
 */
static int ssdt_io_queues_reuse(struct ssdt_ctrl *ctrl)
{
	unsigned int i, count = ctrl->nr_io;
	int ret;

	ret = ssdt_set_queue_count(ctrl, &count);
	if (ret)
		return ret;
	if (count < ctrl->nr_io) {
		dev_err(ssdt_dev(ctrl), "the controller now grants %u I/O queues, not %u: detach and attach it again\n",
			count, ctrl->nr_io);
		return -ENODEV;
	}
	for (i = 0; i < ctrl->nr_io; i++)
		ssdt_queue_reset(ctrl->ioq[i]);
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

/*
 * The bring-up that probe and reset share (the stock driver's
 * nvme_reset_work): admin queue, Identify, I/O queues.  Probe (@reset
 * false) sizes and allocates the I/O queues; a reset must find the same
 * controller and takes the queues it had back.  Leaves the controller
 * live, or returns an error for the caller to undo (probe) or to declare
 * the controller dead (reset).
 */
static int ssdt_ctrl_start(struct ssdt_ctrl *ctrl, bool reset)
{
	int ret;

	ret = ssdt_admin_start(ctrl);
	if (ret)
		return ret;
	/* The controller may come back different (firmware activation). */
	ret = ssdt_identify_ctrl(ctrl, reset);
	if (ret)
		return ret;
	ssdt_acre_enable(ctrl);
	ret = ssdt_hmb_start(ctrl, reset) ?: ssdt_apst_start(ctrl, reset);
	if (ret)
		return ret;
	if (reset)
		ret = ssdt_io_queues_reuse(ctrl);
	else
		ret = ssdt_identify_nvm_limits(ctrl) ?: ssdt_io_queues_setup(ctrl);
	if (ret)
		return ret;
	ssdt_dbbuf_setup(ctrl);
	ret = ssdt_create_io_queues(ctrl);
	if (ret)
		return ret;
	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_LIVE;
	spin_unlock_irq(&ctrl->state_lock);
	return 0;
}

/*
 * Probe: check the controller, disable it, give the admin queue memory
 * and a vector, then start it as a reset does.  On an error everything
 * is undone (ssdt_ctrl_teardown()).
 */
int ssdt_ctrl_init(struct ssdt_ctrl *ctrl)
{
	struct pci_dev *pdev = ctrl->pdev;
	int ret;

	ret = ssdt_ctrl_check(ctrl) ?: ssdt_ctrl_disable(ctrl) ?:
	      ssdt_admin_alloc(ctrl);
	if (ret)
		return ret;
	ret = ssdt_ctrl_start(ctrl, false);
	if (ret) {
		ssdt_ctrl_teardown(ctrl, false);
		return ret;
	}
	dev_info(ssdt_dev(ctrl), "%u I/O queues (%u polled) of depth %u, %u %s vectors, shadow doorbells %s\n",
		 ctrl->nr_io, ctrl->nr_poll, ctrl->io_depth, ctrl->nr_vecs,
		 pdev->msix_enabled ? "MSI-X" :
		 pdev->msi_enabled ? "MSI" : "INTx",
		 ssdt_dbbuf_name(ctrl->dbbuf));
	ssdt_aer_start(ctrl);
	return 0;
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
	ssdt_hmb_free_all(ctrl);
	ssdt_queue_free(ctrl->admin);
	ctrl->admin = NULL;
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
	int ret = -ENODEV;

	if (!ssdt_ctrl_gone(ctrl))
		ret = ssdt_ctrl_start(ctrl, true);
	if (ret) {
		dev_err(ssdt_dev(ctrl), "reset failed (%d): failing all I/O\n", ret);
		ssdt_io_unquiesce(ctrl);
		ssdt_mark_dead(ctrl, false);
		return;
	}
	ssdt_coalesce_restore(ctrl);
	ssdt_power_restore(ctrl);
	ssdt_aer_start(ctrl);
	ssdt_io_unquiesce(ctrl);
	dev_info(ssdt_dev(ctrl), "reset done\n");
	ssdt_nl_notify(ctrl, SSDTUNE_EVENT_RESET_DONE);
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

/* ---- the poll_queues knob ------------------------------------------------ */

/* The most I/O queues that can take an interrupt (one with a single vector). */
unsigned int ssdt_irq_queues_max(struct ssdt_ctrl *ctrl)
{
	return ctrl->single_vector ? 1 : min(ctrl->nr_io, ctrl->nr_vecs - 1);
}

/*
 * The halted controller's queues: the first @nr_irq take interrupts, the
 * rest are polled.  A queue that gains an interrupt gets its handler
 * first; if one cannot, nothing changes.  knob_mutex keeps the coalescing
 * knobs, which walk the interrupt queues, out meanwhile.
 */
static int ssdt_io_queues_split(struct ssdt_ctrl *ctrl, unsigned int nr_irq)
{
	unsigned int i, old = ctrl->nr_irq_io;
	int ret = 0;

	for (i = old; i < nr_irq && !ctrl->single_vector; i++) {
		ret = ssdt_queue_irq_request(ctrl, ctrl->ioq[i]);
		if (ret) {
			dev_err(ssdt_dev(ctrl), "no interrupt for I/O queue %u (%d): the split stays\n",
				i + 1, ret);
			while (i-- > old)
				ssdt_queue_irq_free(ctrl, ctrl->ioq[i]);
			return ret;
		}
	}
	mutex_lock(&ctrl->knob_mutex);
	for (i = 0; i < ctrl->nr_io; i++) {
		struct ssdt_queue *q = ctrl->ioq[i];

		q->poll = i >= nr_irq;
		if (!q->poll)
			continue;
		if (!ctrl->single_vector)
			ssdt_queue_irq_free(ctrl, q);
		q->mod_threshold = 0;
		q->mod_adaptive = false;
	}
	WRITE_ONCE(ctrl->nr_irq_io, nr_irq);
	WRITE_ONCE(ctrl->nr_poll, ctrl->nr_io - nr_irq);
	mutex_unlock(&ctrl->knob_mutex);
	return 0;
}

/*
 * poll_queues written: the last @poll I/O queues become poll queues, the
 * others take interrupts, while the disks stay open.  A completion
 * queue's interrupt is set when it is created, so the queues are made
 * again, by the reset every other path takes (halt, restart); the disks
 * are drained first (within io_timeout, else -EBUSY and nothing changed)
 * and stay frozen until blk-mq's maps follow the new split.  Called with
 * dev_mutex held.  -EIO if the controller did not come back (it is dead
 * then, as after any failed reset).
 */
int ssdt_ctrl_set_poll(struct ssdt_ctrl *ctrl, unsigned int poll)
{
	unsigned int n, old_irq = ctrl->nr_irq_io;
	bool drained;
	int ret;

	ret = ssdt_poll_split_check(ctrl->nr_io, ssdt_irq_queues_max(ctrl), poll);
	if (ret || poll == ctrl->nr_poll)
		return ret;
	if (ctrl->tagset.nr_maps <= HCTX_TYPE_POLL)
		return -EOPNOTSUPP;		/* a kdump kernel */
	if (ctrl->removing || READ_ONCE(ctrl->state) != SSDT_LIVE ||
	    !ctrl->tagset_ready)
		return -EBUSY;
	n = ssdt_io_drain(ctrl, READ_ONCE(ssdt_io_timeout) * HZ, &drained);
	if (!drained || READ_ONCE(ctrl->state) != SSDT_LIVE) {
		ssdt_io_thaw(ctrl);
		dev_warn(ssdt_dev(ctrl), "poll_queues: %u requests in flight did not complete within io_timeout: %u poll queues stay\n",
			 n, ctrl->nr_poll);
		return -EBUSY;
	}
	ssdt_ctrl_halt(ctrl, false);
	ret = ssdt_io_queues_split(ctrl, ctrl->nr_io - poll);
	ssdt_ctrl_restart(ctrl);
	ssdt_blk_remap(ctrl);
	/* where attach would have put them; the others stay where they are */
	ssdt_irqs_spread(ctrl, old_irq, ctrl->nr_irq_io);
	ssdt_io_thaw(ctrl);
	if (ret)
		return ret;
	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		return -EIO;
	dev_info(ssdt_dev(ctrl), "%u I/O queues: %u with interrupts, %u polled\n",
		 ctrl->nr_io, ctrl->nr_irq_io, ctrl->nr_poll);
	return 0;
}
