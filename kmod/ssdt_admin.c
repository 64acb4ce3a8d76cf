// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune admin commands: the admin queue's slots, posting a command and
 * waiting for it within a timeout (a timeout stops the controller, which
 * a reset then brings back), the admin queue's interrupt handler and
 * completions, and cancelling what is outstanding when the queue is
 * reset.
 *
 * A command's identifier is its slot and the slot's generation
 * (ssdt_cid(), as on the I/O queues): a completion counts only for the
 * use of the slot in flight, and only once.  A late or repeated one is
 * dropped: it would otherwise wake a waiter that then frees a buffer the
 * controller may still write, or free the slot twice.
 */
#include <linux/jiffies.h>
#include "ssdt.h"

/* A free slot, the semaphore already taken for it. */
static int ssdt_slot_take(struct ssdt_ctrl *ctrl, struct completion *waiter,
			  bool aer, bool abort)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&ctrl->slot_lock, flags);
	for (i = 0; i < ARRAY_SIZE(ctrl->slots); i++) {
		if (!ctrl->slots[i].busy) {
			ctrl->slots[i].busy = true;
			ctrl->slots[i].inflight = true;
			ctrl->slots[i].gen++;
			ctrl->slots[i].waiter = waiter;
			ctrl->slots[i].aer = aer;
			ctrl->slots[i].abort = abort;
			break;
		}
	}
	spin_unlock_irqrestore(&ctrl->slot_lock, flags);
	/* The semaphore counts free slots, so one was free. */
	return i;
}

static int ssdt_slot_get(struct ssdt_ctrl *ctrl, struct completion *waiter,
			 bool aer)
{
	if (down_timeout(&ctrl->slot_sem, ssdt_admin_timeout * HZ))
		return -EBUSY;
	return ssdt_slot_take(ctrl, waiter, aer, false);
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

/*
 * An Asynchronous Event Request completed (any context): its result goes
 * to the event work of ssdt_aer.c.  One a reset or removal cancelled, or
 * that failed, is not posted again here: the next ssdt_aer_start() posts
 * a full set.
 */
static void ssdt_aer_done(struct ssdt_ctrl *ctrl, u16 status, u32 result)
{
	unsigned long flags;

	if (status & 0x7ff)
		return;
	spin_lock_irqsave(&ctrl->aer_lock, flags);
	if (!ctrl->aer_stopped) {
		if (ctrl->aer_n < ARRAY_SIZE(ctrl->aer_results))
			ctrl->aer_results[ctrl->aer_n++] = result;
		queue_work(system_wq, &ctrl->aer_work);
	}
	spin_unlock_irqrestore(&ctrl->aer_lock, flags);
}

/* The command identifier of the use of slot @i in flight. */
static u16 ssdt_slot_cid(struct ssdt_ctrl *ctrl, int i)
{
	return ssdt_cid(i, READ_ONCE(ctrl->slots[i].gen));
}

static void ssdt_admin_complete_one(struct ssdt_ctrl *ctrl,
				    struct nvme_completion *cqe)
{
	u16 cid = cqe->command_id, i = ssdt_cid_tag(cid);
	struct ssdt_admin_slot *slot;
	unsigned long flags;
	bool release = false, aer, abort;

	if (i >= ARRAY_SIZE(ctrl->slots)) {
		dev_warn_ratelimited(ssdt_dev(ctrl), "admin completion with bad id %#x\n",
				     cid);
		return;
	}
	slot = &ctrl->slots[i];
	spin_lock_irqsave(&ctrl->slot_lock, flags);
	if (!slot->inflight ||
	    ssdt_cid_gen(cid) != (slot->gen & SSDT_CID_GEN_MASK)) {
		spin_unlock_irqrestore(&ctrl->slot_lock, flags);
		dev_warn_ratelimited(ssdt_dev(ctrl), "admin completion %#x of no command in flight: dropped\n",
				     cid);
		return;
	}
	/* The debug hook loses a command's completion, never an AER's. */
	if (!slot->aer && ssdt_debug_drop(&ctrl->drop_admin_completions)) {
		spin_unlock_irqrestore(&ctrl->slot_lock, flags);
		dev_warn(ssdt_dev(ctrl), "debug: dropping admin completion %#x\n", cid);
		return;
	}
	slot->inflight = false;
	slot->cqe = *cqe;
	aer = slot->aer;
	slot->aer = false;
	abort = slot->abort;
	slot->abort = false;
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
	if (abort)
		atomic_inc(&ctrl->aborts_left);
	if (aer)
		ssdt_aer_done(ctrl, le16_to_cpu(cqe->status) >> 1,
			      le32_to_cpu(cqe->result.u32));
}

/* A completion reaped from the admin queue (any context). */
static void ssdt_admin_complete(struct ssdt_ctrl *ctrl, struct nvme_completion *cqe)
{
	ssdt_debug_admin_seen(ctrl, cqe);	/* debug hook */
	ssdt_admin_complete_one(ctrl, cqe);
}

/* Reap the admin queue.  Caller holds its cq_lock. */
static int ssdt_admin_reap(struct ssdt_ctrl *ctrl)
{
	struct ssdt_queue *q = ctrl->admin;
	struct nvme_completion *cqe;
	u16 old = q->cq_head;
	int found = 0;

	while ((cqe = ssdt_cq_take(q, &found)))
		ssdt_admin_complete(ctrl, cqe);
	ssdt_cq_done(q, old, found);
	return found;
}

/* Reap the admin queue outside its handler (a timeout, a reset): polled. */
int ssdt_admin_poll(struct ssdt_ctrl *ctrl)
{
	struct ssdt_queue *q = ctrl->admin;
	unsigned long flags;
	int found;

	spin_lock_irqsave(&q->cq_lock, flags);
	found = ssdt_admin_reap(ctrl);
	q->polled += found;
	spin_unlock_irqrestore(&q->cq_lock, flags);
	return found;
}

/* The admin queue's vector (@data the queue). */
irqreturn_t ssdt_irq_admin(int irq, void *data)
{
	struct ssdt_queue *q = data;
	int found;

	/* debug hook: an admin interrupt that never reaches us */
	if (ssdt_debug_drop(&q->ctrl->skip_admin_irqs))
		return IRQ_HANDLED;
	spin_lock(&q->cq_lock);
	q->interrupts++;
	found = ssdt_admin_reap(q->ctrl);
	spin_unlock(&q->cq_lock);
	return found ? IRQ_HANDLED : IRQ_NONE;
}

/* Fail every outstanding admin command: the admin queue is being reset. */
void ssdt_admin_cancel_all(struct ssdt_ctrl *ctrl)
{
	struct nvme_completion cqe = {
		.status = cpu_to_le16(NVME_SC_HOST_ABORTED_CMD << 1),
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(ctrl->slots); i++) {
		if (!READ_ONCE(ctrl->slots[i].inflight))
			continue;
		cqe.command_id = ssdt_slot_cid(ctrl, i);
		ssdt_admin_complete_one(ctrl, &cqe);
	}
}

/*
 * Post @cmd in a free slot: @waiter (if any) is completed when it ends;
 * an Asynchronous Event Request (@aer) goes to ssdt_aer_done() then.
 */
static int ssdt_admin_post(struct ssdt_ctrl *ctrl, struct nvme_command *cmd,
			   struct completion *waiter, bool aer)
{
	struct nvme_completion old;
	int slot;

	if (!READ_ONCE(ctrl->admin->live))
		return -ENODEV;
	slot = ssdt_slot_get(ctrl, waiter, aer);
	if (slot < 0)
		return slot;
	cmd->common.command_id = ssdt_slot_cid(ctrl, slot);
	ssdt_sq_write(ctrl->admin, cmd, true);
	/*
	 * Debug hook (debugfs stale_admin_completions): the completion
	 * reaped last comes again now, while this command holds the slot:
	 * it must be dropped.
	 */
	if (unlikely(ssdt_debug_admin_stale(ctrl, &old)))
		ssdt_admin_complete(ctrl, &old);
	return slot;
}

/*
 * Run an admin command and wait for it, at most @timeout_s seconds; its
 * completion entry into @cqe.  At the timeout the admin queue is reaped
 * once by hand (a lost interrupt only costs the wait).  On a timeout the
 * controller is stopped
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
	unsigned long flags, left, jif;
	int slot;

	slot = ssdt_admin_post(ctrl, cmd, &done, false);
	if (slot < 0)
		return slot;
	s = &ctrl->slots[slot];
	/* up to ~50 days from a passthrough timeout_ms: no wrapping product */
	jif = min_t(unsigned long, timeout_s, MAX_SCHEDULE_TIMEOUT / HZ) * HZ;
	left = wait_for_completion_timeout(&done, jif);
	/* Did we miss an interrupt?  (Stock polls in its timeout, too.) */
	if (!left && ssdt_admin_poll(ctrl) && try_wait_for_completion(&done)) {
		dev_warn(ssdt_dev(ctrl), "admin command %#x completed without an interrupt\n",
			 cmd->common.opcode);
		left = 1;
	}
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

/*
 * Post an Abort nobody waits for, from the I/O timeout handler: never
 * sleeps.  At most ACL + 1 are outstanding (the controller's Abort
 * Command Limit; stock keeps it too), and only with a free slot: -EBUSY
 * otherwise, and the caller waits for the next expiry.
 */
int ssdt_admin_abort(struct ssdt_ctrl *ctrl, struct nvme_command *cmd)
{
	int slot;

	if (!READ_ONCE(ctrl->admin->live))
		return -ENODEV;
	if (atomic_dec_if_positive(&ctrl->aborts_left) < 0)
		return -EBUSY;
	if (down_trylock(&ctrl->slot_sem)) {
		atomic_inc(&ctrl->aborts_left);
		return -EBUSY;
	}
	slot = ssdt_slot_take(ctrl, NULL, false, true);
	cmd->common.command_id = ssdt_slot_cid(ctrl, slot);
	ssdt_sq_write(ctrl->admin, cmd, true);
	return 0;
}
