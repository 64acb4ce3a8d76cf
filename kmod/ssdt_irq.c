// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune interrupts: the I/O queues' handler, the handler of a single
 * vector, the vectors' requests, and host moderation, the policy the I/O
 * handler applies.  The admin queue's handler is ssdt_admin.c's; what a
 * completion means is the owner's (ssdt_io_reap() in ssdt_blk.c).
 *
 * Host moderation works on any device and is NAPI-like.  An interrupt
 * reaps what is posted; if commands are still outstanding on the queue,
 * the vector is masked at the device (IRQ_DISABLE_UNLAZY) and an hrtimer
 * polls the CQ in windows, deciding with ssdt_mod_decide() (pure, in
 * ssdt_coalesce.c): reap when the completions waiting reach
 * min(threshold, half the outstanding) or the window reaches
 * coalesce_time_us; stay polling while commands are outstanding and
 * reaps take two or more (or the mean depth is 2 or more); unmask after a
 * reap of one at a low mean depth (light load), after a window with the
 * queue idle, or when moderation is off.  An idle queue (QD1) never
 * holds, so it behaves as without moderation.
 *
 * Races.  cq_lock serialises the handler, the timer and ssdt_io_poll();
 * mod_masked (under cq_lock) is true exactly while the vector is disabled
 * once by us and the timer is armed or running, so every posted completion
 * has a reaper: a CQE posted while masked is polled by the timer, one
 * posted between the timer's last reap and enable_irq() leaves the MSI-X
 * pending bit set and interrupts at the unmask, and one posted between the
 * handler's reap and disable_irq_nosync() is polled by the timer armed
 * right after.  Every reap runs under cq_lock, so none is duplicated.
 */
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include "ssdt.h"
#include "ssdt_coalesce.h"

/* Of @submitted commands on @q, those not reaped yet (a hint). */
static u32 ssdt_mod_out_of(struct ssdt_queue *q, u64 submitted)
{
	u64 n = submitted - q->completed - q->mod_lost;

	/* a count read before a reap that others overtook: none out */
	if ((s64)n < 0)
		return 0;
	return min_t(u64, n, q->depth);
}

/* Commands submitted on @q and not reaped yet (a hint: read racily). */
static u32 ssdt_mod_outstanding(struct ssdt_queue *q)
{
	return ssdt_mod_out_of(q, READ_ONCE(q->submitted));
}

/*
 * One estimator sample at a reap in host mode: depth, completion gap, and
 * whether this interrupt or tick found its CPU at work.  Only adaptive
 * reads the estimate; static settings keep it warm for a switch to it.
 */
static void ssdt_mod_sample(struct ssdt_queue *q, u32 inflight, u32 reaped,
			    u64 now_ns)
{
	ssdt_mod_est_update(&q->mod_est, inflight, reaped, now_ns);
	ssdt_mod_est_busy(&q->mod_est, !is_idle_task(current));
}

/* The knobs in force on @q now.  cq_lock held. */
static void ssdt_mod_knobs(struct ssdt_queue *q, u32 *thr, u32 *time_us)
{
	*thr = READ_ONCE(q->mod_threshold);
	*time_us = READ_ONCE(q->mod_time_us);
	if (*time_us && READ_ONCE(q->mod_adaptive))
		ssdt_mod_adapt(&q->mod_est, *thr, *time_us, thr, time_us);
}

/*
 * Called by the IRQ handler, cq_lock held, after it reaped @found, with
 * @submitted the queue's submission count read before the reap.  What was
 * submitted after it does not count: a reap can wake its submitter on
 * another CPU (rq_affinity, a vector off the submitting CPU), which sends
 * its next command before this runs; counted, a QD1 queue would look busy
 * and be held for the window.
 */
static void ssdt_mod_after_irq(struct ssdt_queue *q, u32 found, u64 submitted)
{
	u32 thr, time_us, out;
	u64 now, eta;

	if (!READ_ONCE(q->mod_time_us) || q->mod_masked)
		return;
	out = ssdt_mod_out_of(q, submitted);
	if (!out) {
		/* Idle queue (QD1): never held, and no clock read per I/O. */
		ssdt_mod_sample(q, found, found, 0);
		return;
	}
	now = ktime_get_ns();
	ssdt_mod_sample(q, out + found, found, now);
	ssdt_mod_knobs(q, &thr, &time_us);
	if (!ssdt_mod_should_hold(time_us, out))
		return;
	q->mod_masked = true;
	q->mod_start_ns = now;
	disable_irq_nosync(q->irq);
	eta = ssdt_mod_eta_ns(&q->mod_est, ssdt_mod_want(out, thr), 0);
	hrtimer_start(&q->mod_timer,
		      ns_to_ktime(ssdt_mod_next_ns(time_us, now, now, eta)),
		      HRTIMER_MODE_ABS);
}

static enum hrtimer_restart ssdt_mod_timer_fn(struct hrtimer *t)
{
	struct ssdt_queue *q = container_of(t, struct ssdt_queue, mod_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	DEFINE_IO_COMP_BATCH(iob);
	struct ssdt_mod_view v;
	enum ssdt_mod_action act;
	unsigned long flags;
	u32 found;
	u64 eta;

	spin_lock_irqsave(&q->cq_lock, flags);
	if (!q->mod_masked)
		goto out;
	ssdt_mod_knobs(q, &v.threshold, &v.time_us);
	v.now_ns = ktime_get_ns();
	v.start_ns = q->mod_start_ns;
	v.depth = q->mod_est.depth_x16 / 16;
	v.outstanding = ssdt_mod_outstanding(q);
	v.pending = ssdt_cq_pending(q, q->depth);
	act = ssdt_mod_decide(&v);
	if (act != SSDT_MOD_WAIT && v.pending) {
		found = ssdt_io_reap(q, &iob);
		q->polled += found;
		ssdt_mod_sample(q, v.outstanding, found, v.now_ns);
		v.outstanding -= min(v.outstanding, found);
		v.pending = 0;
	}
	if (act == SSDT_MOD_REAP)
		q->mod_start_ns = v.now_ns;
	if (act == SSDT_MOD_EXIT) {
		q->mod_masked = false;
		enable_irq(q->irq);
	} else {
		/* Wake when the count should be there, not every tick. */
		eta = ssdt_mod_eta_ns(&q->mod_est,
				      ssdt_mod_want(v.outstanding, v.threshold),
				      v.pending);
		hrtimer_set_expires(t, ns_to_ktime(ssdt_mod_next_ns(v.time_us, v.now_ns,
								    q->mod_start_ns, eta)));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock_irqrestore(&q->cq_lock, flags);
	if (iob.complete)
		iob.complete(&iob);
	return ret;
}

void ssdt_mod_init(struct ssdt_queue *q)
{
	hrtimer_init(&q->mod_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	q->mod_timer.function = ssdt_mod_timer_fn;
}

/*
 * Stop moderating @q and leave its vector unmasked (reset, teardown; the
 * caller cleared q->live first).  Moderation is switched off under
 * cq_lock, so no handler starts a hold and no knob write turns it back on
 * after it; then the timer is cancelled and the mask undone.
 */
void ssdt_mod_stop(struct ssdt_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->cq_lock, flags);
	WRITE_ONCE(q->mod_time_us, 0);
	spin_unlock_irqrestore(&q->cq_lock, flags);
	hrtimer_cancel(&q->mod_timer);
	spin_lock_irqsave(&q->cq_lock, flags);
	if (q->mod_masked) {
		q->mod_masked = false;
		enable_irq(q->irq);
	}
	spin_unlock_irqrestore(&q->cq_lock, flags);
}

/* An I/O queue's vector. */
static irqreturn_t ssdt_irq_io(int irq, void *data)
{
	struct ssdt_queue *q = data;
	DEFINE_IO_COMP_BATCH(iob);
	u64 submitted;
	int found;

	spin_lock(&q->cq_lock);
	q->interrupts++;
	/* before the reap: see ssdt_mod_after_irq() */
	submitted = READ_ONCE(q->submitted);
	found = ssdt_io_reap(q, &iob);
	if (found)
		ssdt_mod_after_irq(q, found, submitted);
	spin_unlock(&q->cq_lock);
	if (iob.complete)
		iob.complete(&iob);
	return found ? IRQ_HANDLED : IRQ_NONE;
}

/* MSI or INTx with a single vector: it serves the admin and I/O queues. */
static irqreturn_t ssdt_irq_single(int irq, void *data)
{
	struct ssdt_ctrl *ctrl = data;
	irqreturn_t ret = ssdt_irq_admin(irq, ctrl->admin);
	unsigned int i;

	for (i = 0; i < ctrl->nr_irq_io; i++)
		if (ssdt_irq_io(irq, ctrl->ioq[i]) == IRQ_HANDLED)
			ret = IRQ_HANDLED;
	return ret;
}

/*
 * The handler of I/O queue @q on its own vector (not with a single
 * vector), first on a CPU of the device's node picked by the queue's
 * index; ssdt_irqs_spread() or userspace may move it later.
 */
int ssdt_queue_irq_request(struct ssdt_ctrl *ctrl, struct ssdt_queue *q)
{
	struct pci_dev *pdev = ctrl->pdev;
	unsigned int cpu = ssdt_spread_cpu(ssdt_local_cpus(ctrl), q->qid - 1);
	int ret;

	ret = pci_request_irq(pdev, q->vector, ssdt_irq_io, NULL, q,
			      "ssdt%dq%u", ctrl->instance, q->qid);
	if (ret)
		return ret;
	q->irq = pci_irq_vector(pdev, q->vector);
	irq_set_affinity_and_hint(q->irq, cpumask_of(cpu));
	/* Moderation masks the vector at the device, not lazily. */
	irq_set_status_flags(q->irq, IRQ_DISABLE_UNLAZY);
	return 0;
}

void ssdt_queue_irq_free(struct ssdt_ctrl *ctrl, struct ssdt_queue *q)
{
	if (q->irq < 0)
		return;
	irq_clear_status_flags(q->irq, IRQ_DISABLE_UNLAZY);
	irq_update_affinity_hint(q->irq, NULL);
	pci_free_irq(ctrl->pdev, q->vector, q);
	q->irq = -1;
}

/* Request the handlers for the admin queue and every I/O queue. */
int ssdt_irqs_request(struct ssdt_ctrl *ctrl)
{
	struct pci_dev *pdev = ctrl->pdev;
	const struct cpumask *local = ssdt_local_cpus(ctrl);
	unsigned int i;
	int ret;

	if (ctrl->single_vector) {
		ret = pci_request_irq(pdev, 0, ssdt_irq_single, NULL, ctrl,
				      "ssdt%d", ctrl->instance);
		if (ret)
			return ret;
		ctrl->admin->irq = pci_irq_vector(pdev, 0);
		for (i = 0; i < ctrl->nr_irq_io; i++)
			ctrl->ioq[i]->irq = ctrl->admin->irq;
		return 0;
	}

	ret = pci_request_irq(pdev, 0, ssdt_irq_admin, NULL, ctrl->admin,
			      "ssdt%dq0", ctrl->instance);
	if (ret)
		return ret;
	ctrl->admin->irq = pci_irq_vector(pdev, 0);
	/* Intel VMD's MSI remapping refuses every affinity (EINVAL). */
	ret = irq_set_affinity_and_hint(ctrl->admin->irq, local);
	if (ret)
		dev_info(ssdt_dev(ctrl), "vector affinity cannot be set (%d): the vectors stay where the platform puts them (behind Intel VMD?)\n",
			 ret);

	for (i = 0; i < ctrl->nr_irq_io; i++) {
		ret = ssdt_queue_irq_request(ctrl, ctrl->ioq[i]);
		if (ret)
			goto unwind;
	}
	return 0;

unwind:
	while (i--)
		ssdt_queue_irq_free(ctrl, ctrl->ioq[i]);
	irq_update_affinity_hint(ctrl->admin->irq, NULL);
	pci_free_irq(pdev, 0, ctrl->admin);
	ctrl->admin->irq = -1;
	return ret;
}

void ssdt_irqs_free(struct ssdt_ctrl *ctrl)
{
	struct pci_dev *pdev = ctrl->pdev;
	unsigned int i;

	if (!ctrl->admin || ctrl->admin->irq < 0)
		return;
	if (ctrl->single_vector) {
		pci_free_irq(pdev, 0, ctrl);
	} else {
		for (i = 0; i < ctrl->nr_io; i++)
			ssdt_queue_irq_free(ctrl, ctrl->ioq[i]);
		irq_update_affinity_hint(ctrl->admin->irq, NULL);
		pci_free_irq(pdev, 0, ctrl->admin);
	}
	for (i = 0; i < ctrl->nr_io; i++)
		ctrl->ioq[i]->irq = -1;
	ctrl->admin->irq = -1;
}

/* Wait until no handler of this controller runs on any CPU. */
void ssdt_irqs_sync(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	if (ctrl->admin && ctrl->admin->irq >= 0)
		synchronize_irq(ctrl->admin->irq);
	for (i = 0; i < ctrl->nr_io; i++)
		if (ctrl->ioq[i]->irq >= 0)
			synchronize_irq(ctrl->ioq[i]->irq);
}
