// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune interrupt coalescing: the live knobs (coalesce_mode,
 * coalesce_threshold, coalesce_time_us, coalesce_profile), the read-only
 * coalesce_active, and the moderation settings they give each queue.
 *
 * Host moderation itself (the hold, the timer) is ssdt_irq.c's, beside
 * the I/O interrupt handler that applies it.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include "ssdt.h"
#include "ssdt_coalesce.h"

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
