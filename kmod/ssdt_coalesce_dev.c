// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune interrupt coalescing: the live knobs (coalesce_mode,
 * coalesce_threshold, coalesce_time_us, coalesce_profile), the read-only
 * coalesce_active, and host-side moderation.
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
 * Races.  cq_lock serialises the handler, the timer and ssdt_cq_poll();
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
void ssdt_mod_after_irq(struct ssdt_queue *q, u32 found, u64 submitted)
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
		found = ssdt_cq_reap(q, &iob);
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

/* Host moderation needs a vector of the queue's own. */
static void ssdt_mod_set_all(struct ssdt_ctrl *ctrl, const struct ssdt_coalesce *c)
{
	unsigned long flags;
	unsigned int i;

	if (ctrl->single_vector)
		return;
	for (i = 0; i < ctrl->nr_irq_io; i++) {
		struct ssdt_queue *q = ctrl->ioq[i];

		/*
		 * Under cq_lock and only on a live queue: a reset clears
		 * live before ssdt_mod_stop(), so a write racing with it
		 * cannot restart moderation on a stopped queue (the reset
		 * restores the knobs when the queue is live again).
		 */
		spin_lock_irqsave(&q->cq_lock, flags);
		if (READ_ONCE(q->live)) {
			WRITE_ONCE(q->mod_threshold, c ? c->threshold : 0);
			WRITE_ONCE(q->mod_adaptive, c ? c->adaptive : false);
			WRITE_ONCE(q->mod_time_us, c ? c->time_us : 0);
		}
		spin_unlock_irqrestore(&q->cq_lock, flags);
	}
}

/* Program features 0x08/0x09; @c NULL turns device coalescing off. */
static int ssdt_hw_coalesce(struct ssdt_ctrl *ctrl, const struct ssdt_coalesce *c,
			    struct ssdt_coalesce *accepted)
{
	u32 dw11 = c ? ssdt_coalesce_encode(c->threshold, c->time_us) : 0;
	unsigned int i;
	u32 got;
	int ret;

	ret = ssdt_set_feature(ctrl, NVME_FEAT_IRQ_COALESCE, dw11);
	if (ret)
		return ret;
	for (i = 0; i < ctrl->nr_irq_io && !ctrl->single_vector; i++) {
		ret = ssdt_set_feature(ctrl, NVME_FEAT_IRQ_CONFIG,
				       ssdt_irq_config_encode(ctrl->ioq[i]->vector,
							      !c));
		if (ret)
			return ret;
	}
	if (!c || !accepted)
		return 0;
	/* Show what the device kept, which is rounded to its units. */
	ret = ssdt_get_feature(ctrl, NVME_FEAT_IRQ_COALESCE, 0, 0, &got);
	if (ret)
		return ret;
	ssdt_coalesce_decode(got, &accepted->threshold, &accepted->time_us);
	return 0;
}

/*
 * Apply @v->coalesce (the parsers checked its ranges); on failure every
 * knob stays as it was.  knob_mutex held.
 */
static int ssdt_coalesce_set(struct ssdt_ctrl *ctrl,
			     const union ssdt_knob_val *v)
{
	const struct ssdt_coalesce *want = &v->coalesce;
	bool hw_ok = ctrl->coalesce_cap == SSDT_CAP_CHANGEABLE;
	enum ssdt_coalesce_mode eff = ssdt_coalesce_effective(want->mode, hw_ok);
	struct ssdt_coalesce next = *want;
	int ret = 0;

	if (eff == SSDT_COALESCE_HW && !hw_ok)
		return -EOPNOTSUPP;	/* coalesce_caps says why */

	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		return -EBUSY;
	if (eff == SSDT_COALESCE_HW)
		ret = ssdt_hw_coalesce(ctrl, want, &next);
	else if (ctrl->coalesce_active == SSDT_COALESCE_HW)
		ret = ssdt_hw_coalesce(ctrl, NULL, NULL);
	if (ret)
		return ret;
	ssdt_mod_set_all(ctrl, eff == SSDT_COALESCE_HOST ? &next : NULL);
	ctrl->coalesce = next;
	ctrl->coalesce_active = eff;
	return 0;
}

/* After a reset: the device forgot its features, the queues their knobs. */
void ssdt_coalesce_restore(struct ssdt_ctrl *ctrl)
{
	struct ssdt_coalesce c;

	mutex_lock(&ctrl->knob_mutex);
	c = ctrl->coalesce;
	if (ctrl->coalesce_active == SSDT_COALESCE_HW) {
		if (ssdt_hw_coalesce(ctrl, &c, NULL))
			dev_warn(ssdt_dev(ctrl), "could not restore device coalescing\n");
	} else if (ctrl->coalesce_active == SSDT_COALESCE_HOST) {
		ssdt_mod_set_all(ctrl, &c);
	}
	mutex_unlock(&ctrl->knob_mutex);
}

/* ---- sysfs knobs -------------------------------------------------------- */

static struct mutex *ssdt_coalesce_lock(struct ssdt_ctrl *ctrl)
{
	return &ctrl->knob_mutex;
}

/* Field by field, so a knob of one field reads without knob_mutex. */
static void ssdt_coalesce_get(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->coalesce.mode = READ_ONCE(ctrl->coalesce.mode);
	v->coalesce.threshold = READ_ONCE(ctrl->coalesce.threshold);
	v->coalesce.time_us = READ_ONCE(ctrl->coalesce.time_us);
	v->coalesce.adaptive = READ_ONCE(ctrl->coalesce.adaptive);
}

static const struct ssdt_knob_group ssdt_coalesce_knobs = {
	.lock = ssdt_coalesce_lock,
	.get = ssdt_coalesce_get,
	.peek = ssdt_coalesce_get,
};

static ssize_t coalesce_mode_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%s\n", ssdt_coalesce_mode_names[v->coalesce.mode]);
}

static ssize_t coalesce_threshold_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%u\n", v->coalesce.threshold);
}

static ssize_t coalesce_time_us_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%u\n", v->coalesce.time_us);
}

/* The profile all four fields match, so read under knob_mutex. */
static ssize_t coalesce_profile_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%s\n", ssdt_coalesce_profile_name(&v->coalesce));
}

SSDT_KNOB(coalesce_mode, ssdt_coalesce_knobs,
	  ssdt_coalesce_parse_mode, ssdt_coalesce_set, false);
SSDT_KNOB(coalesce_threshold, ssdt_coalesce_knobs,
	  ssdt_coalesce_parse_threshold, ssdt_coalesce_set, false);
SSDT_KNOB(coalesce_time_us, ssdt_coalesce_knobs,
	  ssdt_coalesce_parse_time, ssdt_coalesce_set, false);
SSDT_KNOB(coalesce_profile, ssdt_coalesce_knobs,
	  ssdt_coalesce_parse_profile, ssdt_coalesce_set, true);

SSDT_CTRL_ATTR_RO(coalesce_active, "%s",
		  ssdt_coalesce_mode_names[READ_ONCE(ctrl->coalesce_active)]);

static struct attribute *ssdt_coalesce_attrs[] = {
	&ssdt_knob_coalesce_mode.attr.attr,
	&ssdt_knob_coalesce_threshold.attr.attr,
	&ssdt_knob_coalesce_time_us.attr.attr,
	&ssdt_knob_coalesce_profile.attr.attr,
	&dev_attr_coalesce_active.attr,
	NULL,
};

const struct attribute_group ssdt_coalesce_group = {
	.attrs = ssdt_coalesce_attrs,
};
