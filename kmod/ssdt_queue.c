// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune queue pairs: ring memory, doorbells, interrupt vectors and
 * completion reaping.
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
	ssdt_mod_init(q);
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
	hrtimer_cancel(&q->mod_timer);	/* ssdt_mod_stop() ran; be sure */
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

static inline bool ssdt_cqe_pending(struct ssdt_queue *q)
{
	return (le16_to_cpu(READ_ONCE(q->cqes[q->cq_head].status)) & 1) ==
		q->cq_phase;
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
 * Reap every posted completion.  Caller holds cq_lock.  With @iob, I/O
 * requests that may end in this context are gathered there, and the
 * caller ends them (iob->complete) after dropping cq_lock.  At most a
 * queue's depth in one pass: the head doorbell is written at the end, so
 * a controller may not post more meanwhile, and one that does (a storm
 * of entries with a flipping phase) does not keep the CPU here.
 */
int ssdt_cq_reap(struct ssdt_queue *q, struct io_comp_batch *iob)
{
	u16 old_head = q->cq_head;
	int found = 0;

	while (found < q->depth && ssdt_cqe_pending(q)) {
		struct nvme_completion *cqe = &q->cqes[q->cq_head];

		/* The phase bit is written last: read the rest after it. */
		dma_rmb();
		if (++q->cq_head == q->depth) {
			q->cq_head = 0;
			q->cq_phase ^= 1;
		}
		found++;
		if (q->qid == 0)
			ssdt_admin_complete(q->ctrl, cqe);
		else
			ssdt_io_complete_cqe(q, cqe, iob);
	}
	if (found) {
		if (!q->dbbuf_cq_db ||
		    ssdt_dbbuf_update(q->dbbuf_cq_db, q->dbbuf_cq_ei,
				      q->cq_head, old_head))
			writel(q->cq_head, q->cq_db);
		q->completed += found;
	}
	return found;
}

/* Reap outside the interrupt handler (timeout, reset).  Counts as polled. */
int ssdt_cq_poll(struct ssdt_queue *q)
{
	unsigned long flags;
	int found;

	spin_lock_irqsave(&q->cq_lock, flags);
	found = ssdt_cq_reap(q, NULL);
	q->polled += found;
	spin_unlock_irqrestore(&q->cq_lock, flags);
	return found;
}

static irqreturn_t ssdt_irq(int irq, void *data)
{
	struct ssdt_queue *q = data;
	DEFINE_IO_COMP_BATCH(iob);
	u64 submitted;
	int found;

	spin_lock(&q->cq_lock);
	q->interrupts++;
	/* before the reap: see ssdt_mod_after_irq() */
	submitted = READ_ONCE(q->submitted);
	found = ssdt_cq_reap(q, &iob);
	if (found)
		ssdt_mod_after_irq(q, found, submitted);
	spin_unlock(&q->cq_lock);
	if (iob.complete)
		iob.complete(&iob);
	return found ? IRQ_HANDLED : IRQ_NONE;
}

/* The admin queue's vector; the I/O queues' do without the debug hook. */
static irqreturn_t ssdt_irq_admin(int irq, void *data)
{
	struct ssdt_queue *q = data;

	/* debug hook: an admin interrupt that never reaches us */
	if (ssdt_debug_drop(&q->ctrl->skip_admin_irqs))
		return IRQ_HANDLED;
	return ssdt_irq(irq, q);
}

/* MSI or INTx with a single vector: it serves the admin and I/O queues. */
static irqreturn_t ssdt_irq_single(int irq, void *data)
{
	struct ssdt_ctrl *ctrl = data;
	irqreturn_t ret = ssdt_irq_admin(irq, ctrl->admin);
	unsigned int i;

	for (i = 0; i < ctrl->nr_irq_io; i++)
		if (ssdt_irq(irq, ctrl->ioq[i]) == IRQ_HANDLED)
			ret = IRQ_HANDLED;
	return ret;
}

/* CPU for the initial affinity of I/O vector @i: round-robin over @mask. */
static unsigned int ssdt_spread_cpu(const struct cpumask *mask, unsigned int i)
{
	unsigned int n = cpumask_weight(mask), cpu;

	i %= n;
	for_each_cpu(cpu, mask)
		if (i-- == 0)
			return cpu;
	return cpumask_first(mask);
}

static const struct cpumask *ssdt_local_cpus(struct ssdt_ctrl *ctrl)
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
 * The handler of I/O queue @q on its own vector (not with a single
 * vector), first on a CPU of the device's node picked by the queue's
 * index; ssdt_irqs_spread() or userspace may move it later.
 */
int ssdt_queue_irq_request(struct ssdt_ctrl *ctrl, struct ssdt_queue *q)
{
	struct pci_dev *pdev = ctrl->pdev;
	unsigned int cpu = ssdt_spread_cpu(ssdt_local_cpus(ctrl), q->qid - 1);
	int ret;

	ret = pci_request_irq(pdev, q->vector, ssdt_irq, NULL, q,
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
