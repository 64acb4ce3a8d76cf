// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune sysfs: /sys/class/ssdtune/ssdtN with the controller's identity,
 * the one store and show of the writable knobs (their tables are in
 * ssdt_coalesce_dev.c and ssdt_power_dev.c), and queues/qK with each queue's
 * vector, CPUs and counters.  Documented in
 * Documentation/ABI/testing/sysfs-class-ssdtune.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include "ssdt.h"

/* ---- knobs (ssdt.h says how they work) ----------------------------------- */

static const struct ssdt_knob *ssdt_knob_of(struct device_attribute *attr)
{
	return container_of(attr, struct ssdt_knob, attr);
}

ssize_t ssdt_knob_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	const struct ssdt_knob *k = ssdt_knob_of(attr);
	const struct ssdt_knob_group *g = k->group;
	union ssdt_knob_val v;

	if (k->show_locked) {
		mutex_lock(g->lock(ctrl));
		g->get(ctrl, &v);
		mutex_unlock(g->lock(ctrl));
	} else {
		g->peek(ctrl, &v);
	}
	return k->show(&v, buf);
}

ssize_t ssdt_knob_store(struct device *dev, struct device_attribute *attr,
			const char *buf, size_t count)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	const struct ssdt_knob *k = ssdt_knob_of(attr);
	struct mutex *lock = k->group->lock(ctrl);
	union ssdt_knob_val v;
	char val[128];
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(lock);
	k->group->get(ctrl, &v);
	ret = k->parse(&v, buf);
	if (!ret)
		ret = k->apply(ctrl, &v);
	mutex_unlock(lock);
	if (ret < 0)
		return ret;
	/* The value as written, trimmed. */
	strscpy(val, buf, sizeof(val));
	ssdt_nl_notify_knob(ctrl, attr->attr.name, strim(val));
	return count;
}

/* ---- controller attributes ---------------------------------------------- */

SSDT_CTRL_ATTR_RO(model, "%s", ctrl->model);
SSDT_CTRL_ATTR_RO(serial, "%s", ctrl->serial);
SSDT_CTRL_ATTR_RO(firmware, "%s", ctrl->firmware);
SSDT_CTRL_ATTR_RO(numa_node, "%d", ctrl->node);
SSDT_CTRL_ATTR_RO(pci_address, "%s", pci_name(ctrl->pdev));
SSDT_CTRL_ATTR_RO(state, "%s", ssdt_state_name(READ_ONCE(ctrl->state)));
SSDT_CTRL_ATTR_RO(io_queues, "%u", ctrl->nr_io);
SSDT_CTRL_ATTR_RO(queue_depth, "%u", ctrl->io_depth);
SSDT_CTRL_ATTR_RO(shadow_doorbells, "%s", ssdt_dbbuf_name(READ_ONCE(ctrl->dbbuf)));
/* the Host Memory Buffer the controller holds now (ssdt_hmb_dev.c) */
SSDT_CTRL_ATTR_RO(hmb_bytes, "%llu",
		  READ_ONCE(ctrl->hmb_on) ? READ_ONCE(ctrl->hmb.size) : 0);

/* The quirks in force, by name (ssdt_quirks.c): the table's and quirks='s. */
static ssize_t quirks_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	int n = ssdt_quirks_names(ctrl->quirks, buf, PAGE_SIZE - 1);

	return n + sysfs_emit_at(buf, n, "\n");
}
SSDT_ATTR_RO(quirks);

static struct attribute *ssdt_ctrl_attrs[] = {
	&dev_attr_model.attr,
	&dev_attr_serial.attr,
	&dev_attr_firmware.attr,
	&dev_attr_numa_node.attr,
	&dev_attr_pci_address.attr,
	&dev_attr_state.attr,
	&dev_attr_io_queues.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_shadow_doorbells.attr,
	&dev_attr_quirks.attr,
	&dev_attr_hmb_bytes.attr,
	NULL,
};

static const struct attribute_group ssdt_ctrl_group = {
	.attrs = ssdt_ctrl_attrs,
};

static const struct attribute_group *ssdt_ctrl_groups[] = {
	&ssdt_ctrl_group,
	&ssdt_feature_group,
	&ssdt_coalesce_group,
	&ssdt_power_group,
	&ssdt_apst_group,
	&ssdt_queues_group,
	NULL,
};

static struct class ssdt_class = {
	.name = SSDTUNE_CLASS_NAME,
	.dev_groups = ssdt_ctrl_groups,
};

/* ---- queues/qK ----------------------------------------------------------- */

struct ssdt_queue_attr {
	struct attribute attr;
	ssize_t (*show)(struct ssdt_queue *q, const struct ssdt_queue_attr *qa,
			char *buf);
	size_t offset;			/* of a u64 counter in ssdt_queue */
};

/*
 * A file of queues/qK, shown by @_name##_show(): a SSDTUNE_QUEUE_ATTR()
 * line of ssdtune_knobs.h, or it does not build.
 */
#define SSDT_QUEUE_ATTR(_name)						\
	static_assert(SSDT_QATTR_ID_##_name < SSDT_NR_QUEUE_ATTRS);	\
	static struct ssdt_queue_attr ssdt_qattr_##_name = {		\
		.attr = { .name = __stringify(_name), .mode = 0444 },	\
		.show = _name##_show,					\
	}

static ssize_t irq_show(struct ssdt_queue *q, const struct ssdt_queue_attr *qa,
			char *buf)
{
	return sysfs_emit(buf, "%d\n", q->irq);
}
SSDT_QUEUE_ATTR(irq);

/* The submitting CPUs blk-mq maps to this queue (none for the admin queue). */
static ssize_t cpus_show(struct ssdt_queue *q, const struct ssdt_queue_attr *qa,
			 char *buf)
{
	struct ssdt_ctrl *ctrl = q->ctrl;
	cpumask_var_t mask;
	unsigned int cpu;
	ssize_t ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	if (q->qid && ctrl->tagset_ready) {
		const struct blk_mq_queue_map *map =
			&ctrl->tagset.map[q->poll ? HCTX_TYPE_POLL : HCTX_TYPE_DEFAULT];

		for_each_possible_cpu(cpu)
			if (map->mq_map[cpu] == q->qid - 1)
				cpumask_set_cpu(cpu, mask);
	}
	ret = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(mask));
	free_cpumask_var(mask);
	return ret;
}
SSDT_QUEUE_ATTR(cpus);

static ssize_t ssdt_counter_show(struct ssdt_queue *q,
				 const struct ssdt_queue_attr *qa, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  READ_ONCE(*(u64 *)((char *)q + qa->offset)));
}

/* The same for a u64 counter of struct ssdt_queue. */
#define SSDT_QUEUE_COUNTER(_name)					\
	static_assert(SSDT_QATTR_ID_##_name < SSDT_NR_QUEUE_ATTRS);	\
	static struct ssdt_queue_attr ssdt_qattr_##_name = {		\
		.attr = { .name = #_name, .mode = 0444 },		\
		.show = ssdt_counter_show,				\
		.offset = offsetof(struct ssdt_queue, _name),		\
	}

SSDT_QUEUE_COUNTER(submitted);
SSDT_QUEUE_COUNTER(completed);
SSDT_QUEUE_COUNTER(interrupts);
SSDT_QUEUE_COUNTER(polled);
SSDT_QUEUE_COUNTER(stale_completions);

/* Completed with an error and sent again (ssdt_blk.c, ssdt_retry_rq()). */
static ssize_t retries_show(struct ssdt_queue *q,
			    const struct ssdt_queue_attr *qa, char *buf)
{
	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(&q->retried));
}
SSDT_QUEUE_ATTR(retries);

/* One per SSDTUNE_QUEUE_ATTR() line: a line without its file does not build. */
static struct attribute *ssdt_queue_attrs[] = {
#define SSDTUNE_QUEUE_ATTR(file)	(&ssdt_qattr_##file.attr),
#include <linux/ssdtune_knobs.h>
	NULL,
};
ATTRIBUTE_GROUPS(ssdt_queue);

static ssize_t ssdt_queue_attr_show(struct kobject *kobj,
				    struct attribute *attr, char *buf)
{
	struct ssdt_queue_attr *qa = container_of(attr, struct ssdt_queue_attr,
						  attr);

	return qa->show(container_of(kobj, struct ssdt_queue, kobj), qa, buf);
}

static const struct sysfs_ops ssdt_queue_sysfs_ops = {
	.show = ssdt_queue_attr_show,
};

/* The queue's memory lives as long as its sysfs directory may be read. */
static void ssdt_queue_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct ssdt_queue, kobj));
}

static const struct kobj_type ssdt_queue_ktype = {
	.release = ssdt_queue_release,
	.sysfs_ops = &ssdt_queue_sysfs_ops,
	.default_groups = ssdt_queue_groups,
};

static int ssdt_queue_sysfs_add(struct ssdt_ctrl *ctrl, struct ssdt_queue *q)
{
	/* From here on the kobject owns @q: ssdt_queue_free() puts it. */
	q->kobj_init = true;
	return kobject_init_and_add(&q->kobj, &ssdt_queue_ktype,
				    ctrl->queues_kobj, SSDTUNE_QUEUE_PREFIX "%u",
				    q->qid);
}

int ssdt_sysfs_add(struct ssdt_ctrl *ctrl)
{
	unsigned int i;
	int ret;

	ret = ssdt_chr_add(ctrl);
	if (ret)
		return ret;
	ctrl->cdev = device_create(&ssdt_class, ssdt_dev(ctrl), ssdt_chr_devt(ctrl),
				   ctrl, SSDTUNE_CTRL_PREFIX "%d", ctrl->instance);
	if (IS_ERR(ctrl->cdev)) {
		ret = PTR_ERR(ctrl->cdev);
		ctrl->cdev = NULL;
		return ret;
	}
	ctrl->queues_kobj = kobject_create_and_add(SSDTUNE_QUEUES_DIR,
						   &ctrl->cdev->kobj);
	if (!ctrl->queues_kobj)
		return -ENOMEM;
	ret = ssdt_queue_sysfs_add(ctrl, ctrl->admin);
	for (i = 0; !ret && i < ctrl->nr_io; i++)
		ret = ssdt_queue_sysfs_add(ctrl, ctrl->ioq[i]);
	return ret;
}

/* Remove the directories; the queues' memory goes with ssdt_queue_free(). */
void ssdt_sysfs_remove(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	ssdt_chr_del(ctrl);		/* waits for a passthrough command */

	for (i = 0; i < ctrl->nr_io; i++)
		if (ctrl->ioq[i]->kobj.state_in_sysfs)
			kobject_del(&ctrl->ioq[i]->kobj);
	if (ctrl->admin && ctrl->admin->kobj.state_in_sysfs)
		kobject_del(&ctrl->admin->kobj);
	kobject_put(ctrl->queues_kobj);
	ctrl->queues_kobj = NULL;
	if (ctrl->cdev)
		device_unregister(ctrl->cdev);
	ctrl->cdev = NULL;
}

int ssdt_class_register(void)
{
	return class_register(&ssdt_class);
}

void ssdt_class_unregister(void)
{
	class_unregister(&ssdt_class);
}
