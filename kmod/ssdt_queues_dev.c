// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune's poll_queues knob: how many of the controller's I/O queues are
 * poll queues, changed live (ssdt_ctrl_set_poll()).  The module parameter
 * of the same name is the value at attach.  Documented in
 * Documentation/ABI/testing/sysfs-class-ssdtune.
 */
#include <linux/sysfs.h>
#include "ssdt.h"

/* The change is a reset of the controller: dev_mutex, as every reset. */
static struct mutex *ssdt_queues_lock(struct ssdt_ctrl *ctrl)
{
	return &ctrl->dev_mutex;
}

static void ssdt_queues_get(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->poll_queues = ctrl->nr_poll;
}

static void ssdt_queues_peek(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->poll_queues = READ_ONCE(ctrl->nr_poll);
}

static const struct ssdt_knob_group ssdt_queues_knobs = {
	.lock = ssdt_queues_lock,
	.get = ssdt_queues_get,
	.peek = ssdt_queues_peek,
};

static int ssdt_poll_queues_parse(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_knob_parse_u32(buf, SSDTUNE_POLL_QUEUES_MAX, &v->poll_queues);
}

/*
 * A number the queues cannot split into (all polled, or more interrupt
 * queues than vectors) is -EINVAL; a controller that is not live (or a
 * drain that did not end within io_timeout) -EBUSY.  Either changes
 * nothing.
 */
static int ssdt_poll_queues_apply(struct ssdt_ctrl *ctrl,
				  const union ssdt_knob_val *v)
{
	return ssdt_ctrl_set_poll(ctrl, v->poll_queues);
}

static ssize_t poll_queues_show(const union ssdt_knob_val *v, char *buf)
{
	return sysfs_emit(buf, "%u\n", v->poll_queues);
}

SSDT_KNOB(poll_queues, ssdt_queues_knobs, ssdt_poll_queues_parse,
	  ssdt_poll_queues_apply, false);

static struct attribute *ssdt_queues_attrs[] = {
	&ssdt_knob_poll_queues.attr.attr,
	NULL,
};

const struct attribute_group ssdt_queues_group = {
	.attrs = ssdt_queues_attrs,
};
