// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune queue pairs: ring memory, doorbells, the completion ring's
 * primitives (ssdt_cq_take() in ssdt.h; the owners of the commands reap:
 * ssdt_admin.c the admin queue, ssdt_blk.c the I/O queues) and the
 * vectors' initial affinity.  The handlers and the vector requests are
 * ssdt_irq.c's.
 *
 * Vectors are allocated without PCI_IRQ_AFFINITY, so they are not
 * kernel-managed: userspace may move them through /proc/irq/N/smp_affinity.
 * Initial affinity (module parameter irq_spread): "queue" puts each I/O
 * vector on a CPU its queue serves, preferring the device's NUMA node, so
 * a completion lands where it was submitted; "node" spreads the vectors
 * round-robin over the device's node.  Documentation/driver.md says why
 * "queue" is the default.
 */
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include "ssdt.h"
#include "ssdt_dbbuf.h"

enum { SSDT_SPREAD_QUEUE, SSDT_SPREAD_NODE };
static const char * const ssdt_spread_names[] = { "queue", "node" };
static int ssdt_irq_spread = SSDT_SPREAD_QUEUE;

static int ssdt_spread_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(ssdt_spread_names, val);

	if (i < 0)
		return -EINVAL;
	*(int *)kp->arg = i;
	return 0;
}

static int ssdt_spread_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 ssdt_spread_names[*(int *)kp->arg]);
}

static const struct kernel_param_ops ssdt_spread_ops = {
	.set = ssdt_spread_set,
	.get = ssdt_spread_get,
};
module_param_cb(irq_spread, &ssdt_spread_ops, &ssdt_irq_spread, 0444);
MODULE_PARM_DESC(irq_spread, "initial I/O vector affinity: queue (a CPU each queue serves, default) or node (round-robin over the device's NUMA node)");

struct ssdt_queue *ssdt_queue_alloc(struct ssdt_ctrl *ctrl, u16 qid,
				    u16 depth, u16 vector)
{
	struct device *dev = ssdt_dev(ctrl);
	struct ssdt_queue *q;

	q = kzalloc_node(sizeof(*q), GFP_KERNEL, ctrl->node);
	if (!q)
		return NULL;
	q->ctrl = ctrl;
	q->qid = qid;
	q->depth = depth;
	q->vector = vector;
	q->irq = -1;
	spin_lock_init(&q->sq_lock);
	spin_lock_init(&q->cq_lock);
	q->cqes = dma_alloc_coherent(dev, depth * sizeof(struct nvme_completion),
				     &q->cq_dma, GFP_KERNEL);
	if (!q->cqes)
		goto free_q;
	q->sqes = dma_alloc_coherent(dev, depth * sizeof(struct nvme_command),
				     &q->sq_dma, GFP_KERNEL);
	if (!q->sqes)
		goto free_cq;
	q->sq_db = ctrl->bar + ssdt_db_offset(qid, false, NVME_CAP_STRIDE(ctrl->cap));
	q->cq_db = ctrl->bar + ssdt_db_offset(qid, true, NVME_CAP_STRIDE(ctrl->cap));
	ssdt_queue_reset(q);
	return q;

free_cq:
	dma_free_coherent(dev, depth * sizeof(struct nvme_completion),
			  q->cqes, q->cq_dma);
free_q:
	kfree(q);
	return NULL;
}

void ssdt_queue_free(struct ssdt_queue *q)
{
	struct device *dev;

	if (!q)
		return;
	dev = ssdt_dev(q->ctrl);
	if (q->mod_timer.function)	/* ssdt_mod_stop() ran; be sure */
		hrtimer_cancel(&q->mod_timer);
	dma_free_coherent(dev, q->depth * sizeof(struct nvme_command),
			  q->sqes, q->sq_dma);
	dma_free_coherent(dev, q->depth * sizeof(struct nvme_completion),
			  q->cqes, q->cq_dma);
	if (q->kobj_init)
		kobject_put(&q->kobj);
	else
		kfree(q);
}

/* Back to the state the controller expects of a freshly created queue. */
void ssdt_queue_reset(struct ssdt_queue *q)
{
	q->sq_tail = 0;
	q->last_sq_tail = 0;
	q->cq_head = 0;
	q->cq_phase = 1;
	/* What was in flight is requeued and counted again when resubmitted. */
	q->mod_lost = q->submitted - q->completed;
	memset(&q->mod_est, 0, sizeof(q->mod_est));
	memset(q->cqes, 0, q->depth * sizeof(struct nvme_completion));
}

/*
 * Publish @new in the shadow slot @db (it was @old); true when the MMIO
 * doorbell must ring too.  Inline: it runs on every doorbell.
 */
static inline bool ssdt_dbbuf_update(__le32 *db, __le32 *ei, u16 new,
				     u16 old)
{
	/*
	 * SQ: the new entries are written before the tail that hands them
	 * over; CQ: the reaped entries are read before the head frees them.
	 */
	mb();
	WRITE_ONCE(*db, cpu_to_le32(new));
	/* The shadow write must be visible before the event index is read. */
	mb();
	return ssdt_dbbuf_need_event(le32_to_cpu(READ_ONCE(*ei)), new, old);
}

void ssdt_sq_ring(struct ssdt_queue *q)
{
	if (q->sq_tail == q->last_sq_tail)
		return;
	if (q->dbbuf_sq_db) {
		if (ssdt_dbbuf_update(q->dbbuf_sq_db, q->dbbuf_sq_ei,
				      q->sq_tail, q->last_sq_tail))
			writel(q->sq_tail, q->sq_db);
	} else {
		writel(q->sq_tail, q->sq_db);
	}
	q->last_sq_tail = q->sq_tail;
}

/* Copy @cmd into the next submission slot, unrung.  Caller holds sq_lock. */
void ssdt_sq_copy(struct ssdt_queue *q, const struct nvme_command *cmd)
{
	lockdep_assert_held(&q->sq_lock);
	memcpy(&q->sqes[q->sq_tail], cmd, sizeof(*cmd));
	if (++q->sq_tail == q->depth)
		q->sq_tail = 0;
	q->submitted++;
}

/* Copy @cmd into the next submission slot; ring now or leave it batched. */
void ssdt_sq_write(struct ssdt_queue *q, const struct nvme_command *cmd,
		   bool ring)
{
	spin_lock(&q->sq_lock);
	ssdt_sq_copy(q, cmd);
	if (ring)
		ssdt_sq_ring(q);
	spin_unlock(&q->sq_lock);
}

/* Completions posted and not yet reaped, counted up to @max. */
u32 ssdt_cq_pending(struct ssdt_queue *q, u32 max)
{
	u16 head = q->cq_head;
	u8 phase = q->cq_phase;
	u32 n = 0;

	while (n < max &&
	       (le16_to_cpu(READ_ONCE(q->cqes[head].status)) & 1) == phase) {
		n++;
		if (++head == q->depth) {
			head = 0;
			phase ^= 1;
		}
	}
	return n;
}

/*
 * After a reap of @q that started at head @old_head and took @found: the
 * head doorbell (or its shadow), and the count.  Caller holds cq_lock.
 */
void ssdt_cq_done(struct ssdt_queue *q, u16 old_head, int found)
{
	if (!found)
		return;
	if (!q->dbbuf_cq_db ||
	    ssdt_dbbuf_update(q->dbbuf_cq_db, q->dbbuf_cq_ei, q->cq_head, old_head))
		writel(q->cq_head, q->cq_db);
	q->completed += found;
}

/* CPU for the initial affinity of I/O vector @i: round-robin over @mask. */
unsigned int ssdt_spread_cpu(const struct cpumask *mask, unsigned int i)
{
	unsigned int n = cpumask_weight(mask), cpu;

	i %= n;
	for_each_cpu(cpu, mask)
		if (i-- == 0)
			return cpu;
	return cpumask_first(mask);
}

/* The CPUs of the device's node that are online, else every online CPU. */
const struct cpumask *ssdt_local_cpus(struct ssdt_ctrl *ctrl)
{
	const struct cpumask *mask;

	if (ctrl->node == NUMA_NO_NODE)
		return cpu_online_mask;
	mask = cpumask_of_node(ctrl->node);
	if (!cpumask_intersects(mask, cpu_online_mask))
		return cpu_online_mask;
	return mask;
}

/*
 * irq_spread=queue, once the tag set's CPU-to-queue map exists: the
 * vector of each interrupt queue @from to @to - 1 (ioq[] indices) moves
 * to the first CPU its queue serves on the device's node, or to the first
 * it serves at all.  Userspace may move it afterwards.
 */
void ssdt_irqs_spread(struct ssdt_ctrl *ctrl, unsigned int from,
		      unsigned int to)
{
	const struct blk_mq_queue_map *map = &ctrl->tagset.map[HCTX_TYPE_DEFAULT];
	const struct cpumask *local = ssdt_local_cpus(ctrl);
	unsigned int i, cpu;

	if (ssdt_irq_spread != SSDT_SPREAD_QUEUE || ctrl->single_vector)
		return;
	for (i = from; i < min(to, ctrl->nr_irq_io); i++) {
		unsigned int pick = nr_cpu_ids;

		for_each_online_cpu(cpu) {
			if (map->mq_map[cpu] != map->queue_offset + i)
				continue;
			if (pick == nr_cpu_ids)
				pick = cpu;
			if (cpumask_test_cpu(cpu, local)) {
				pick = cpu;
				break;
			}
		}
		if (pick < nr_cpu_ids)
			irq_set_affinity_and_hint(ctrl->ioq[i]->irq,
						  cpumask_of(pick));
	}
}
