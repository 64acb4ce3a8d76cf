// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune interrupt coalescing: the live knobs (coalesce_mode,
 * coalesce_threshold, coalesce_time_us, coalesce_profile, coalesce_active)
 * and host-side moderation.
 *
 * Host moderation works on any device.  After an interrupt that reaped
 * completions, the queue's vector is masked at the device (IRQ_DISABLE_UNLAZY,
 * so the MSI-X mask bit is set at once) and an hrtimer ticks every quarter
 * of coalesce_time_us.  Each tick counts the completions waiting in the CQ;
 * when they reach coalesce_threshold, or coalesce_time_us has passed since
 * the interrupt, the tick reaps them all (counted as "polled") and unmasks
 * the vector.  No completion waits longer than coalesce_time_us plus one
 * tick of timer slack; a queue that sees one completion at a time takes an
 * interrupt for each, as without moderation.
 */
#include <linux/capability.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/ktime.h>
#include "ssdt.h"
#include "ssdt_coalesce.h"

/* Called by the IRQ handler, cq_lock held, after it reaped completions. */
void ssdt_mod_hold(struct ssdt_queue *q, u32 time_us)
{
	q->mod_masked = true;
	disable_irq_nosync(q->irq);
	q->mod_end_ns = ktime_get_ns() + (u64)time_us * NSEC_PER_USEC;
	hrtimer_start(&q->mod_timer, ns_to_ktime(ssdt_mod_tick_ns(time_us)),
		      HRTIMER_MODE_REL);
}

static enum hrtimer_restart ssdt_mod_timer_fn(struct hrtimer *t)
{
	struct ssdt_queue *q = container_of(t, struct ssdt_queue, mod_timer);
	u32 time_us = READ_ONCE(q->mod_time_us);
	u32 thr = READ_ONCE(q->mod_threshold);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;

	spin_lock_irqsave(&q->cq_lock, flags);
	if (!q->mod_masked)
		goto out;
	if (ssdt_mod_should_release(ssdt_cq_pending(q, thr), thr, time_us,
				    ktime_get_ns(), q->mod_end_ns)) {
		q->polled += ssdt_cq_reap(q);
		q->mod_masked = false;
		enable_irq(q->irq);
	} else {
		hrtimer_forward_now(t, ns_to_ktime(ssdt_mod_tick_ns(time_us)));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock_irqrestore(&q->cq_lock, flags);
	return ret;
}

void ssdt_mod_init(struct ssdt_queue *q)
{
	hrtimer_init(&q->mod_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	q->mod_timer.function = ssdt_mod_timer_fn;
}

/* Stop moderating @q and leave its vector unmasked. */
void ssdt_mod_stop(struct ssdt_queue *q)
{
	unsigned long flags;

	WRITE_ONCE(q->mod_time_us, 0);
	hrtimer_cancel(&q->mod_timer);
	spin_lock_irqsave(&q->cq_lock, flags);
	if (q->mod_masked) {
		q->mod_masked = false;
		enable_irq(q->irq);
	}
	spin_unlock_irqrestore(&q->cq_lock, flags);
}

/* Host moderation needs a vector of the queue's own. */
static void ssdt_mod_set_all(struct ssdt_ctrl *ctrl, u32 thr, u32 time_us)
{
	unsigned int i;

	if (ctrl->single_vector)
		return;
	for (i = 0; i < ctrl->nr_io; i++) {
		WRITE_ONCE(ctrl->ioq[i]->mod_threshold, thr);
		WRITE_ONCE(ctrl->ioq[i]->mod_time_us, time_us);
	}
}

static int ssdt_set_feature(struct ssdt_ctrl *ctrl, u8 fid, u32 dw11)
{
	struct nvme_command cmd = { };
	int ret;

	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(fid);
	cmd.features.dword11 = cpu_to_le32(dw11);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret > 0) {
		dev_warn(ssdt_dev(ctrl), "Set Features %#x = %#x failed: status %#x\n",
			 fid, dw11, ret);
		ret = -EIO;
	}
	return ret;
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
	for (i = 0; i < ctrl->nr_io && !ctrl->single_vector; i++) {
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

/* Apply @want; on failure every knob stays as it was.  knob_mutex held. */
static int ssdt_coalesce_set(struct ssdt_ctrl *ctrl,
			     const struct ssdt_coalesce *want)
{
	bool hw_ok = ctrl->coalesce_cap == SSDT_CAP_CHANGEABLE;
	enum ssdt_coalesce_mode eff = ssdt_coalesce_effective(want->mode, hw_ok);
	struct ssdt_coalesce next = *want;
	int ret = 0;

	if (want->threshold > SSDT_COALESCE_MAX_THRESHOLD ||
	    want->time_us > SSDT_COALESCE_MAX_TIME_US)
		return -EINVAL;
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
	if (eff == SSDT_COALESCE_HOST)
		ssdt_mod_set_all(ctrl, next.threshold, next.time_us);
	else
		ssdt_mod_set_all(ctrl, 0, 0);
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
		ssdt_mod_set_all(ctrl, c.threshold, c.time_us);
	}
	mutex_unlock(&ctrl->knob_mutex);
}

/* ---- sysfs ------------------------------------------------------------- */

static ssize_t ssdt_coalesce_store(struct device *dev, const char *buf,
				   size_t count, int field)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	const struct ssdt_coalesce_profile *p;
	struct ssdt_coalesce c;
	unsigned int v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&ctrl->knob_mutex);
	c = ctrl->coalesce;
	ret = -EINVAL;
	switch (field) {
	case 0:
		ret = sysfs_match_string(ssdt_coalesce_mode_names, buf);
		if (ret < 0)
			goto out;
		c.mode = ret;
		break;
	case 1:
	case 2:
		if (kstrtouint(buf, 10, &v))
			goto out;
		if (field == 1)
			c.threshold = v;
		else
			c.time_us = v;
		break;
	default:
		p = ssdt_coalesce_profile_find(buf);
		if (!p)
			goto out;
		c = p->c;
		break;
	}
	ret = ssdt_coalesce_set(ctrl, &c);
out:
	mutex_unlock(&ctrl->knob_mutex);
	return ret < 0 ? ret : count;
}

static ssize_t coalesce_mode_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n",
			  ssdt_coalesce_mode_names[READ_ONCE(ctrl->coalesce.mode)]);
}

static ssize_t coalesce_mode_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	return ssdt_coalesce_store(dev, buf, count, 0);
}
static DEVICE_ATTR_RW(coalesce_mode);

static ssize_t coalesce_threshold_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(ctrl->coalesce.threshold));
}

static ssize_t coalesce_threshold_store(struct device *dev,
					struct device_attribute *attr,
					const char *buf, size_t count)
{
	return ssdt_coalesce_store(dev, buf, count, 1);
}
static DEVICE_ATTR_RW(coalesce_threshold);

static ssize_t coalesce_time_us_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(ctrl->coalesce.time_us));
}

static ssize_t coalesce_time_us_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	return ssdt_coalesce_store(dev, buf, count, 2);
}
static DEVICE_ATTR_RW(coalesce_time_us);

static ssize_t coalesce_profile_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	struct ssdt_coalesce c;

	mutex_lock(&ctrl->knob_mutex);
	c = ctrl->coalesce;
	mutex_unlock(&ctrl->knob_mutex);
	return sysfs_emit(buf, "%s\n", ssdt_coalesce_profile_name(&c));
}

static ssize_t coalesce_profile_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count)
{
	return ssdt_coalesce_store(dev, buf, count, 3);
}
static DEVICE_ATTR_RW(coalesce_profile);

static ssize_t coalesce_active_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n",
			  ssdt_coalesce_mode_names[READ_ONCE(ctrl->coalesce_active)]);
}
static DEVICE_ATTR_RO(coalesce_active);

static struct attribute *ssdt_coalesce_attrs[] = {
	&dev_attr_coalesce_mode.attr,
	&dev_attr_coalesce_threshold.attr,
	&dev_attr_coalesce_time_us.attr,
	&dev_attr_coalesce_profile.attr,
	&dev_attr_coalesce_active.attr,
	NULL,
};

const struct attribute_group ssdt_coalesce_group = {
	.attrs = ssdt_coalesce_attrs,
};
