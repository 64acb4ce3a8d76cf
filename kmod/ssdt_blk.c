// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune block layer glue: the tag set, command setup (read, write,
 * flush, discard, write zeroes), PRP mapping, completion and the
 * timeout ladder (missed interrupt -> Abort -> reset).  Namespaces and
 * their disks are in ssdt_ns.c.
 */
#include <linux/blkdev.h>
#include <linux/crash_dump.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include "ssdt.h"
#include "ssdt_compat.h"
#include "ssdt_prp.h"

static void ssdt_unmap_data(struct ssdt_ctrl *ctrl, struct request *rq)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);
	u32 i;

	for (i = 0; i < iod->nlists; i++)
		dma_pool_free(ctrl->prp_pool, iod->lists[i], iod->list_dma[i]);
	iod->nlists = 0;
	if (iod->bvec_len) {
		dma_unmap_page(ssdt_dev(ctrl), iod->bvec_dma, iod->bvec_len,
			       rq_dma_dir(rq));
		iod->bvec_len = 0;
	}
	if (iod->sgl) {
		if (iod->nents)
			dma_unmap_sg(ssdt_dev(ctrl), iod->sgl->sg, iod->nents,
				     rq_dma_dir(rq));
		iod->nents = 0;
		mempool_free(iod->sgl, ctrl->sgl_pool);
		iod->sgl = NULL;
	}
}

/*
 * Fast path for the common small request: one physical segment within two
 * controller pages needs no scatterlist and no PRP list, only PRP1/PRP2.
 * Returns false when @rq does not qualify.
 */
static bool ssdt_map_bvec(struct ssdt_ctrl *ctrl, struct request *rq,
			  struct ssdt_iod *iod, blk_status_t *sts)
{
	struct nvme_rw_command *rw = &iod->cmd.rw;
	struct ssdt_seg seg;
	struct bio_vec bv;
	dma_addr_t dma;

	if (blk_rq_nr_phys_segments(rq) != 1)
		return false;
	bv = req_bvec(rq);
	if (bv.bv_offset + bv.bv_len > 2 * SSDT_PAGE_SIZE)
		return false;
	dma = dma_map_bvec(ssdt_dev(ctrl), &bv, rq_dma_dir(rq), 0);
	if (dma_mapping_error(ssdt_dev(ctrl), dma)) {
		*sts = BLK_STS_RESOURCE;
		return true;
	}
	iod->bvec_dma = dma;
	iod->bvec_len = bv.bv_len;
	seg.addr = dma;
	seg.len = bv.bv_len;
	/* At most two entries: PRP1 and PRP2, no list (ssdt_prp.c's rule). */
	*sts = ssdt_prp_fill(&seg, 1, SSDT_PAGE_SIZE, &rw->dptr.prp1,
			     &rw->dptr.prp2, NULL, NULL, 0) ?
		BLK_STS_IOERR : BLK_STS_OK;
	if (*sts)
		ssdt_unmap_data(ctrl, rq);
	return true;
}

/* The largest transfer (its first page partial) fits the list pages. */
static_assert(1 + DIV_ROUND_UP(SSDT_MAX_XFER / SSDT_PAGE_SIZE - SSDT_PAGE_SIZE / 8,
			       SSDT_PAGE_SIZE / 8 - 1) <= SSDT_MAX_PRP_LISTS);

static blk_status_t ssdt_map_data(struct ssdt_ctrl *ctrl, struct request *rq,
				  struct ssdt_iod *iod)
{
	struct nvme_rw_command *rw = &iod->cmd.rw;
	struct scatterlist *sg;
	struct ssdt_seg *segs;
	int nsg, mapped, i;
	blk_status_t sts;
	u32 entries;

	if (ssdt_map_bvec(ctrl, rq, iod, &sts))
		return sts;

	iod->sgl = mempool_alloc(ctrl->sgl_pool, GFP_ATOMIC);
	if (!iod->sgl)
		return BLK_STS_RESOURCE;
	segs = iod->sgl->segs;
	sg_init_table(iod->sgl->sg, blk_rq_nr_phys_segments(rq));
	nsg = blk_rq_map_sg(rq->q, rq, iod->sgl->sg);
	if (!nsg)
		goto ioerr;
	mapped = dma_map_sg_attrs(ssdt_dev(ctrl), iod->sgl->sg, nsg,
				  rq_dma_dir(rq), DMA_ATTR_NO_WARN);
	if (!mapped)
		goto resource;
	iod->nents = nsg;

	for_each_sg(iod->sgl->sg, sg, mapped, i) {
		segs[i].addr = sg_dma_address(sg);
		segs[i].len = sg_dma_len(sg);
	}
	entries = ssdt_prp_entries(segs, mapped, SSDT_PAGE_SIZE);
	iod->nlists = 0;
	if (entries > 2) {
		u32 want = ssdt_prp_list_pages(entries, SSDT_PAGE_SIZE);

		if (want > SSDT_MAX_PRP_LISTS)
			goto ioerr;
		for (; iod->nlists < want; iod->nlists++) {
			dma_addr_t dma;

			iod->lists[iod->nlists] =
				dma_pool_alloc(ctrl->prp_pool, GFP_ATOMIC, &dma);
			if (!iod->lists[iod->nlists])
				goto resource;
			iod->list_dma[iod->nlists] = dma;
		}
	}
	{
		u64 list_dma[SSDT_MAX_PRP_LISTS];

		for (i = 0; i < iod->nlists; i++)
			list_dma[i] = iod->list_dma[i];
		if (ssdt_prp_fill(segs, mapped, SSDT_PAGE_SIZE, &rw->dptr.prp1,
				  &rw->dptr.prp2, iod->lists, list_dma,
				  iod->nlists)) {
			dev_err_ratelimited(ssdt_dev(ctrl),
					    "request breaks PRP rules\n");
			goto ioerr;
		}
	}
	return BLK_STS_OK;
resource:
	ssdt_unmap_data(ctrl, rq);
	return BLK_STS_RESOURCE;
ioerr:
	ssdt_unmap_data(ctrl, rq);
	return BLK_STS_IOERR;
}

/*
 * Deallocate: one range per bio the block layer merged into the request
 * (at most max_discard_segments), in a zeroed page of the PRP pool that
 * ssdt_unmap_data() gives back: some controllers read the whole 4 KiB
 * whatever the range count says (stock allocates it whole, too).
 */
static blk_status_t ssdt_setup_discard(struct ssdt_ctrl *ctrl,
				       struct ssdt_ns *ns, struct request *rq,
				       struct ssdt_iod *iod)
{
	unsigned short segs = blk_rq_nr_discard_segments(rq), n = 0;
	struct nvme_dsm_cmd *dsm = &iod->cmd.dsm;
	struct nvme_dsm_range *range;
	struct bio *bio;
	dma_addr_t dma;

	BUILD_BUG_ON(NVME_DSM_MAX_RANGES * sizeof(*range) > SSDT_PAGE_SIZE);
	range = dma_pool_zalloc(ctrl->prp_pool, GFP_ATOMIC, &dma);
	if (!range)
		return BLK_STS_RESOURCE;
	iod->lists[0] = (__le64 *)range;
	iod->list_dma[0] = dma;
	iod->nlists = 1;
	__rq_for_each_bio(bio, rq) {
		if (n < segs) {
			range[n].nlb = cpu_to_le32(bio->bi_iter.bi_size >> ns->lba_shift);
			range[n].slba = cpu_to_le64(bio->bi_iter.bi_sector >>
						    (ns->lba_shift - SECTOR_SHIFT));
		}
		n++;
	}
	if (WARN_ON_ONCE(!n || n != segs || n > NVME_DSM_MAX_RANGES)) {
		ssdt_unmap_data(ctrl, rq);
		return BLK_STS_IOERR;
	}
	dsm->opcode = nvme_cmd_dsm;
	dsm->nr = cpu_to_le32(n - 1);	/* 0-based */
	dsm->attributes = cpu_to_le32(NVME_DSMGMT_AD);
	dsm->dptr.prp1 = cpu_to_le64(dma);
	return BLK_STS_OK;
}

/*
 * A command of the NVMe ioctls (ssdt_ioctl.c): the ioctl put it in
 * iod->cmd, the data (if any) is the request's, mapped from user memory.
 */
static blk_status_t ssdt_setup_passthru(struct ssdt_ctrl *ctrl,
					struct request *rq,
					struct ssdt_iod *iod)
{
	iod->cmd.common.command_id = ssdt_cid(rq->tag, ++iod->gen);
	iod->cmd.common.dptr.prp1 = 0;
	iod->cmd.common.dptr.prp2 = 0;
	if (!blk_rq_nr_phys_segments(rq))
		return BLK_STS_OK;
	return ssdt_map_data(ctrl, rq, iod);
}

static blk_status_t ssdt_setup_cmd(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns,
				   struct request *rq, struct ssdt_iod *iod)
{
	struct nvme_command *c = &iod->cmd;
	u64 slba = blk_rq_pos(rq) >> (ns->lba_shift - 9);
	u32 nlb = blk_rq_bytes(rq) >> ns->lba_shift;

	if (unlikely(blk_rq_is_passthrough(rq)))
		return ssdt_setup_passthru(ctrl, rq, iod);
	memset(c, 0, sizeof(*c));
	c->common.command_id = ssdt_cid(rq->tag, ++iod->gen);
	c->common.nsid = cpu_to_le32(ns->nsid);

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		c->common.opcode = nvme_cmd_flush;
		return BLK_STS_OK;
	case REQ_OP_DISCARD:
		return ssdt_setup_discard(ctrl, ns, rq, iod);
	case REQ_OP_WRITE_ZEROES:
		c->write_zeroes.opcode = nvme_cmd_write_zeroes;
		c->write_zeroes.slba = cpu_to_le64(slba);
		c->write_zeroes.length = cpu_to_le16(nlb - 1);
		return BLK_STS_OK;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		c->rw.opcode = req_op(rq) == REQ_OP_READ ? nvme_cmd_read :
							   nvme_cmd_write;
		c->rw.slba = cpu_to_le64(slba);
		c->rw.length = cpu_to_le16(nlb - 1);
		if (rq->cmd_flags & REQ_FUA)
			c->rw.control = cpu_to_le16(NVME_RW_FUA);
		return ssdt_map_data(ctrl, rq, iod);
	default:
		return BLK_STS_NOTSUPP;
	}
}

static void ssdt_iod_init(struct ssdt_iod *iod)
{
	iod->nvme_status = 0;
	iod->aborted = false;
	iod->requeue = false;
	iod->reaped = false;
	iod->nents = 0;
	iod->nlists = 0;
	iod->bvec_len = 0;
	iod->sgl = NULL;
}

/* Build @rq's command and hand @rq to the timeout clock; not yet in the SQ. */
static blk_status_t ssdt_prep_rq(struct ssdt_queue *q, struct request *rq,
				 struct ssdt_iod *iod)
{
	blk_status_t ret;

	ret = ssdt_setup_cmd(q->ctrl, rq->q->queuedata, rq, iod);
	if (ret)
		return ret;
	ssdt_power_account(&q->ctrl->power, rq);
	blk_mq_start_request(rq);
	return BLK_STS_OK;
}

static blk_status_t ssdt_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct ssdt_queue *q = hctx->driver_data;
	struct request *rq = bd->rq;
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);
	blk_status_t ret;

	if (unlikely(!READ_ONCE(q->live)))
		return READ_ONCE(q->ctrl->state) == SSDT_DEAD ?
			BLK_STS_IOERR : BLK_STS_RESOURCE;

	ssdt_iod_init(iod);
	/* host power limit: one predictable branch while there is none */
	if (unlikely(READ_ONCE(q->ctrl->power.host_on))) {
		ret = ssdt_power_gate(q->ctrl, rq, &iod->pw);
		if (ret)
			return ret;
	}
	ret = ssdt_prep_rq(q, rq, iod);
	if (ret)
		return ret;
	ssdt_sq_write(q, &iod->cmd, bd->last);
	return BLK_STS_OK;
}

/* A list of requests linked through rq_next, in order. */
static void ssdt_rqs_add(struct ssdt_rqs *l, struct request *rq)
{
	rq->rq_next = NULL;
	if (l->tail)
		l->tail->rq_next = rq;
	else
		l->head = rq;
	l->tail = rq;
}

static struct request *ssdt_rqs_pop(struct ssdt_rqs *l)
{
	struct request *rq = l->head;

	if (rq) {
		l->head = rq->rq_next;
		if (!l->head)
			l->tail = NULL;
		rq->rq_next = NULL;
	}
	return rq;
}

/*
 * The common request of a plug: a queue that is live, no host power limit
 * to wait on, read, write and the like.  Prepared as ->queue_rq would;
 * false leaves nothing to undo.
 */
static bool ssdt_prep_rq_batched(struct ssdt_queue *q, struct request *rq)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);

	if (unlikely(!READ_ONCE(q->live) ||
		     READ_ONCE(q->ctrl->power.host_on) ||
		     blk_rq_is_passthrough(rq)))
		return false;
	/*
	 * blk-mq enters a request in its tag map when it issues one through
	 * ->queue_rq; a plug's requests come here without that step, and
	 * completion finds a request by its tag.
	 */
	rq->mq_hctx->tags->rqs[rq->tag] = rq;
	ssdt_iod_init(iod);
	return ssdt_prep_rq(q, rq, iod) == BLK_STS_OK;
}

/* Copy a run of prepared commands for @q under one sq_lock, ring once. */
static void ssdt_sq_write_rqs(struct ssdt_queue *q, struct ssdt_rqs *l)
{
	struct request *rq;

	if (!l->head)
		return;
	spin_lock(&q->sq_lock);
	while ((rq = ssdt_rqs_pop(l))) {
		struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);

		ssdt_sq_copy(q, &iod->cmd);
	}
	ssdt_sq_ring(q);
	spin_unlock(&q->sq_lock);
}

/*
 * ->queue_rqs: a plug's requests in one call (io_uring and aio submit a
 * batch this way).  Each run of requests for one hardware queue is
 * copied under one sq_lock and rung with one doorbell write.  A request
 * the common path does not take is handed back in the list: blk-mq then
 * issues it through ->queue_rq, which decides it as any other.
 */
static void ssdt_queue_rqs(SSDT_PLUG_LIST *plug)
{
	struct ssdt_rqs run = { }, back = { };
	struct ssdt_queue *q = NULL;
	struct request *rq;

	while ((rq = rq_list_pop(plug))) {
		struct ssdt_queue *rq_q = rq->mq_hctx->driver_data;

		if (rq_q != q) {
			if (q)
				ssdt_sq_write_rqs(q, &run);
			q = rq_q;
		}
		if (ssdt_prep_rq_batched(q, rq))
			ssdt_rqs_add(&run, rq);
		else
			ssdt_rqs_add(&back, rq);
	}
	if (q)
		ssdt_sq_write_rqs(q, &run);
	ssdt_plug_give(plug, &back);
}

static void ssdt_commit_rqs(struct blk_mq_hw_ctx *hctx)
{
	struct ssdt_queue *q = hctx->driver_data;

	spin_lock(&q->sq_lock);
	ssdt_sq_ring(q);
	spin_unlock(&q->sq_lock);
}

/*
 * Whether @rq may go to the controller again after a failure or a reset:
 * never one of the ioctls (passthrough: a Reservation Acquire or a vendor
 * command must not run twice) or one that asked to fail fast.
 */
static bool ssdt_rq_noretry(struct request *rq)
{
	return blk_noretry_request(rq) || blk_rq_is_passthrough(rq);
}

/*
 * A command that failed with a status the controller allows to retry
 * (no Do Not Retry) goes again, as stock nvme does: at most max_retries
 * times, after the Command Retry Delay the status selects; never one
 * ssdt_rq_noretry() names.
 */
static bool ssdt_retry_rq(struct ssdt_ctrl *ctrl, struct request *rq,
			  struct ssdt_iod *iod)
{
	unsigned int delay;

	if (!ssdt_should_retry(iod->nvme_status, iod->retries,
			       READ_ONCE(ssdt_max_retries),
			       ssdt_rq_noretry(rq)) ||
	    blk_queue_dying(rq->q))
		return false;
	delay = ssdt_retry_delay_ms(iod->nvme_status, ctrl->crdt);
	iod->retries++;
	atomic64_inc(&iod->q->retried);
	dev_dbg_ratelimited(ssdt_dev(ctrl), "tag %u: status %#x, retry %u in %u ms\n",
			    rq->tag, iod->nvme_status, iod->retries, delay);
	blk_mq_requeue_request(rq, false);
	blk_mq_delay_kick_requeue_list(rq->q, delay);
	return true;
}

static void ssdt_complete_rq(struct request *rq)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);
	struct ssdt_ctrl *ctrl = iod->q->ctrl;
	blk_status_t sts;

	ssdt_unmap_data(ctrl, rq);
	if (iod->requeue) {
		/*
		 * Cancelled by a reset (Command Aborted By Host, which allows
		 * a retry): sent again within max_retries, as stock nvme
		 * does, unless it may not be; a passthrough command then
		 * fails with EINTR (ssdt_pt_io()).
		 */
		if (ssdt_should_retry(iod->nvme_status, iod->retries,
				      READ_ONCE(ssdt_max_retries),
				      ssdt_rq_noretry(rq))) {
			iod->retries++;
			blk_mq_requeue_request(rq, true);
			return;
		}
		sts = BLK_STS_IOERR;
	} else {
		if (unlikely(iod->nvme_status) && ssdt_retry_rq(ctrl, rq, iod))
			return;
		sts = ssdt_blk_status(iod->nvme_status);
	}
	iod->retries = 0;
	blk_mq_end_request(rq, sts);
}

/* End a batch of successful requests gathered by one reaping pass. */
static void ssdt_complete_batch(struct io_comp_batch *iob)
{
	struct request *rq;

	rq_list_for_each(&iob->req_list, rq) {
		struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);

		ssdt_unmap_data(iod->q->ctrl, rq);
		iod->retries = 0;
	}
	blk_mq_end_request_batch(iob);
}

/*
 * Completion reaping found @cqe on I/O queue @q.  A request whose submitter
 * runs elsewhere is sent there (blk-mq's rq_affinity); one that may end
 * here joins @iob when given, so the caller ends them together after
 * dropping its lock; any other ends now.
 */
static void ssdt_io_complete_one(struct ssdt_queue *q,
				 struct nvme_completion *cqe,
				 struct io_comp_batch *iob)
{
	u16 cid = cqe->command_id;
	struct blk_mq_tags *tags = READ_ONCE(q->tags);
	struct request *rq = tags ? blk_mq_tag_to_rq(tags, ssdt_cid_tag(cid)) : NULL;
	struct ssdt_iod *iod;

	if (unlikely(!rq)) {
		dev_warn_ratelimited(ssdt_dev(q->ctrl),
				     "completion with bad id %#x on queue %u\n",
				     cid, q->qid);
		return;
	}
	iod = blk_mq_rq_to_pdu(rq);
	/* an earlier use of the tag: late, or sent twice (ssdt_rules.h) */
	if (unlikely(ssdt_cid_gen(cid) != (iod->gen & SSDT_CID_GEN_MASK))) {
		q->stale_completions++;
		dev_warn_ratelimited(ssdt_dev(q->ctrl),
				     "stale completion %#x on queue %u (the tag is at generation %u): dropped\n",
				     cid, q->qid, iod->gen & SSDT_CID_GEN_MASK);
		return;
	}
	/* Debug hook (debugfs drop_completions): lose this completion. */
	if (unlikely(ssdt_debug_drop(&q->ctrl->drop_completions))) {
		dev_warn(ssdt_dev(q->ctrl), "debug: dropping completion of tag %u on queue %u\n",
			 cqe->command_id, q->qid);
		return;
	}
	/* the same use of the tag completed twice: only the first counts */
	if (unlikely(iod->reaped)) {
		q->stale_completions++;
		dev_warn_ratelimited(ssdt_dev(q->ctrl),
				     "second completion %#x on queue %u: dropped\n",
				     cid, q->qid);
		return;
	}
	iod->reaped = true;
	iod->nvme_status = le16_to_cpu(cqe->status) >> 1;
	/* Debug hook (debugfs fail_completions): an error status instead. */
	if (unlikely(ssdt_debug_drop(&q->ctrl->fail_completions)))
		iod->nvme_status = ssdt_debug_fail_status(q->ctrl);
	if (unlikely(blk_rq_is_passthrough(rq)))
		iod->result = le64_to_cpu(cqe->result.u64);
	if (blk_mq_complete_request_remote(rq))
		return;
	if (!blk_mq_add_to_batch(rq, iob, iod->nvme_status || iod->requeue,
				 ssdt_complete_batch))
		ssdt_complete_rq(rq);
}

/* A completion reaped from I/O queue @q. */
static void ssdt_io_complete_cqe(struct ssdt_queue *q, struct nvme_completion *cqe,
				 struct io_comp_batch *iob)
{
	/*
	 * Debug hook (debugfs stale_completions): first this completion as a
	 * late one of the tag's previous use (its generation less one),
	 * which must be dropped.
	 */
	if (unlikely(ssdt_debug_drop(&q->ctrl->stale_completions))) {
		struct nvme_completion old = *cqe;
		u16 cid = cqe->command_id;

		old.command_id = ssdt_cid(ssdt_cid_tag(cid), ssdt_cid_gen(cid) - 1);
		ssdt_io_complete_one(q, &old, iob);
	}
	ssdt_io_complete_one(q, cqe, iob);
	/*
	 * Debug hook (debugfs dup_completions): then this completion again,
	 * as a controller that posts one entry twice: it must be dropped.
	 */
	if (unlikely(ssdt_debug_drop(&q->ctrl->dup_completions)))
		ssdt_io_complete_one(q, cqe, iob);
}

/*
 * Reap I/O queue @q (its interrupt handler, moderation's timer, blk-mq's
 * poll, a timeout).  Caller holds cq_lock.  With @iob, requests that may
 * end in this context are gathered there, and the caller ends them
 * (iob->complete) after dropping cq_lock.
 */
int ssdt_io_reap(struct ssdt_queue *q, struct io_comp_batch *iob)
{
	struct nvme_completion *cqe;
	u16 old = q->cq_head;
	int found = 0;

	while ((cqe = ssdt_cq_take(q, &found)))
		ssdt_io_complete_cqe(q, cqe, iob);
	ssdt_cq_done(q, old, found);
	return found;
}

/* Reap @q outside its handler (a timeout, a reset): counts as polled. */
int ssdt_io_poll(struct ssdt_queue *q)
{
	unsigned long flags;
	int found;

	spin_lock_irqsave(&q->cq_lock, flags);
	found = ssdt_io_reap(q, NULL);
	q->polled += found;
	spin_unlock_irqrestore(&q->cq_lock, flags);
	return found;
}

static enum blk_eh_timer_return ssdt_timeout(struct request *rq)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);
	struct ssdt_queue *q = iod->q;
	struct ssdt_ctrl *ctrl = q->ctrl;
	struct nvme_command abort = { };
	u32 csts;

	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		return BLK_EH_RESET_TIMER;	/* the reset deals with it */
	/*
	 * PCI error recovery is under way: its handlers stop and reset the
	 * controller.  A reset from here would race them, and read all ones
	 * from a link that is down, and give the controller up (stock).
	 */
	if (pci_channel_offline(ctrl->pdev))
		return BLK_EH_RESET_TIMER;

	csts = readl(ctrl->bar + NVME_REG_CSTS);
	if (csts == ~0u || (csts & NVME_CSTS_CFS)) {
		dev_warn(ssdt_dev(ctrl), "controller %s, resetting\n",
			 csts == ~0u ? "gone" : "fatal");
		ssdt_schedule_reset(ctrl);
		return BLK_EH_RESET_TIMER;
	}

	/* Did we miss an interrupt? */
	ssdt_io_poll(q);
	if (blk_mq_request_completed(rq)) {
		dev_warn(ssdt_dev(ctrl), "tag %u on queue %u completed without an interrupt\n",
			 rq->tag, q->qid);
		return BLK_EH_DONE;
	}

	if (!iod->aborted) {
		int ret;

		abort.abort.opcode = nvme_admin_abort_cmd;
		abort.abort.sqid = cpu_to_le16(q->qid);
		/* the command id the command carries, generation and all */
		abort.abort.cid = iod->cmd.common.command_id;
		ret = ssdt_admin_abort(ctrl, &abort);
		if (ret == -EBUSY) {
			/* ACL + 1 Aborts out, or no admin slot: next expiry */
			dev_warn_ratelimited(ssdt_dev(ctrl), "tag %u on queue %u timed out; the Abort limit is reached, waiting\n",
					     rq->tag, q->qid);
			return BLK_EH_RESET_TIMER;
		}
		iod->aborted = true;
		dev_warn(ssdt_dev(ctrl), "tag %u on queue %u timed out, aborting\n",
			 rq->tag, q->qid);
		ssdt_nl_notify_timeout(ctrl, q->qid, rq->tag);
		if (!ret)
			return BLK_EH_RESET_TIMER;
	}
	if (READ_ONCE(ctrl->removing)) {
		/*
		 * No reset will come.  The device still owns the request:
		 * stop the controller first, then fail everything it held.
		 * A reset or shutdown that holds dev_mutex waits for this
		 * handler (ssdt_io_sync), so only try it.
		 */
		if (!mutex_trylock(&ctrl->dev_mutex))
			return BLK_EH_RESET_TIMER;
		dev_warn(ssdt_dev(ctrl), "tag %u on queue %u timed out during removal: stopping the controller\n",
			 rq->tag, q->qid);
		if (ctrl->state != SSDT_DEAD)
			ssdt_mark_dead(ctrl, false);
		mutex_unlock(&ctrl->dev_mutex);
		return BLK_EH_DONE;
	}
	dev_warn(ssdt_dev(ctrl), "tag %u on queue %u still outstanding, resetting controller\n",
		 rq->tag, q->qid);
	ssdt_schedule_reset(ctrl);
	return BLK_EH_RESET_TIMER;
}

static int ssdt_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			  unsigned int idx)
{
	struct ssdt_ctrl *ctrl = data;
	struct ssdt_queue *q = ctrl->ioq[idx];

	q->tags = hctx->tags;
	hctx->driver_data = q;
	return 0;
}

static int ssdt_init_request(struct blk_mq_tag_set *set, struct request *rq,
			     unsigned int hctx_idx, unsigned int numa_node)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);

	iod->retries = 0;
	iod->sgl = NULL;
	iod->pw.go_ns = 0;
	iod->q = ((struct ssdt_ctrl *)set->driver_data)->ioq[hctx_idx];
	return 0;
}

/*
 * The interrupt-driven queues first, then the poll queues (ctrl.h).  A
 * map spreads no more queues than there are CPUs (6.12's spreading warns
 * otherwise): after poll_queues moved queues to interrupts there may be
 * one more interrupt queue than CPUs, which then serves none.
 */
static void ssdt_map_queues(struct blk_mq_tag_set *set)
{
	struct ssdt_ctrl *ctrl = set->driver_data;
	struct blk_mq_queue_map *map = &set->map[HCTX_TYPE_DEFAULT];
	unsigned int cpus = num_possible_cpus();

	map->nr_queues = min(ctrl->nr_irq_io, cpus);
	map->queue_offset = 0;
	blk_mq_map_queues(map);
	if (set->nr_maps <= HCTX_TYPE_POLL)
		return;
	set->map[HCTX_TYPE_READ].nr_queues = 0;
	map = &set->map[HCTX_TYPE_POLL];
	map->nr_queues = min(ctrl->nr_poll, cpus);
	map->queue_offset = ctrl->nr_irq_io;
	/* none: blk-mq sends polled I/O to the default map's queues */
	if (map->nr_queues)
		blk_mq_map_queues(map);
}

/*
 * The split of interrupt and poll queues changed (ssdt_ctrl_set_poll()):
 * blk-mq maps the CPUs again, and turns polling on or off for the
 * disks.  The number of queues stays.  The vectors stay where they are
 * (an admin's or ssdtune apply's affinities survive the change); the
 * caller places those that queues just gained.
 */
void ssdt_blk_remap(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	blk_mq_update_nr_hw_queues(&ctrl->tagset, ctrl->nr_io);
	/*
	 * blk-mq frees the tags of a hardware context no CPU maps to and
	 * allocates them again once one does: each queue takes its tags
	 * anew (none while unmapped; a completion there is refused).
	 */
	for (i = 0; i < ctrl->nr_io; i++)
		WRITE_ONCE(ctrl->ioq[i]->tags, ctrl->tagset.tags[i]);
}

/*
 * blk-mq's polling of a poll queue (io_uring with IOPOLL): reap
 * what is posted, in the caller's batch.  The interrupt handlers take
 * cq_lock too (another queue's, the same lock class): irqsave.
 */
static int ssdt_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	struct ssdt_queue *q = hctx->driver_data;
	unsigned long flags;
	int found;

	if (!ssdt_cq_pending(q, 1))
		return 0;
	spin_lock_irqsave(&q->cq_lock, flags);
	found = ssdt_io_reap(q, iob);
	q->polled += found;
	spin_unlock_irqrestore(&q->cq_lock, flags);
	return found;
}

static const struct blk_mq_ops ssdt_mq_ops = {
	.queue_rq	= ssdt_queue_rq,
	.queue_rqs	= ssdt_queue_rqs,
	.commit_rqs	= ssdt_commit_rqs,
	.complete	= ssdt_complete_rq,
	.timeout	= ssdt_timeout,
	.init_hctx	= ssdt_init_hctx,
	.init_request	= ssdt_init_request,
	.map_queues	= ssdt_map_queues,
	.poll		= ssdt_poll,
};

int ssdt_blk_init(struct ssdt_ctrl *ctrl)
{
	struct blk_mq_tag_set *set = &ctrl->tagset;
	int ret;

	ctrl->prp_pool = dma_pool_create("ssdt_prp", ssdt_dev(ctrl),
					 SSDT_PAGE_SIZE, SSDT_PAGE_SIZE, 0);
	if (!ctrl->prp_pool)
		return -ENOMEM;
	/* One in reserve: a request off the fast path always makes progress. */
	ctrl->sgl_pool = mempool_create_node(1, mempool_kmalloc, mempool_kfree,
					     (void *)sizeof(struct ssdt_sgl),
					     GFP_KERNEL, ctrl->node);
	if (!ctrl->sgl_pool) {
		ret = -ENOMEM;
		goto out_prp;
	}
	set->ops = &ssdt_mq_ops;
	set->nr_hw_queues = ctrl->nr_io;
	/*
	 * HCTX_TYPE_POLL is map 2; a poll queue in it makes the disks
	 * pollable.  Always there, so that poll_queues can change live
	 * (blk-mq allows one map only in a kdump kernel).
	 */
	set->nr_maps = is_kdump_kernel() ? 1 : HCTX_TYPE_POLL + 1;
	set->queue_depth = ctrl->io_depth - 1;	/* one slot stays empty */
	set->numa_node = ctrl->node;
	set->cmd_size = sizeof(struct ssdt_iod);
	set->flags = BLK_MQ_F_SHOULD_MERGE;
	set->timeout = ssdt_io_timeout * HZ;
	set->driver_data = ctrl;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		goto out_sgl;
	ctrl->tagset_ready = true;
	ssdt_irqs_spread(ctrl, 0, ctrl->nr_irq_io);
	return 0;
out_sgl:
	mempool_destroy(ctrl->sgl_pool);
	ctrl->sgl_pool = NULL;
out_prp:
	dma_pool_destroy(ctrl->prp_pool);
	ctrl->prp_pool = NULL;
	return ret;
}

void ssdt_blk_exit(struct ssdt_ctrl *ctrl)
{
	if (ctrl->tagset_ready)
		blk_mq_free_tag_set(&ctrl->tagset);
	ctrl->tagset_ready = false;
	mempool_destroy(ctrl->sgl_pool);
	ctrl->sgl_pool = NULL;
	dma_pool_destroy(ctrl->prp_pool);
	ctrl->prp_pool = NULL;
}

void ssdt_io_quiesce(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_mq_quiesce_queue(ctrl->ns[i].disk->queue);
}

/* Wait for running timeout handlers; none starts while quiesced. */
void ssdt_io_sync(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_sync_queue(ctrl->ns[i].disk->queue);
}

void ssdt_io_unquiesce(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++) {
		if (!ctrl->ns[i].disk)
			continue;
		blk_mq_unquiesce_queue(ctrl->ns[i].disk->queue);
		blk_mq_kick_requeue_list(ctrl->ns[i].disk->queue);
	}
}

static bool ssdt_count_rq(struct request *rq, void *data)
{
	(*(unsigned int *)data)++;
	return true;
}

/*
 * Before a shutdown, let what is in flight finish (stock: nvme_start_freeze
 * and nvme_wait_freeze_timeout): no new request enters the disks, those in
 * flight get up to @timeout jiffies.  Returns how many were in flight, and
 * in @drained whether all finished; the disks stay frozen until
 * ssdt_io_thaw(), after the controller is stopped.
 */
unsigned int ssdt_io_drain(struct ssdt_ctrl *ctrl, unsigned long timeout,
			   bool *drained)
{
	long left = timeout;
	unsigned int i, n = 0;

	if (ctrl->tagset_ready)
		blk_mq_tagset_busy_iter(&ctrl->tagset, ssdt_count_rq, &n);
	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_freeze_queue_start(ctrl->ns[i].disk->queue);
	for (i = 0; i < ctrl->nr_ns && left > 0; i++)
		if (ctrl->ns[i].disk)
			left = blk_mq_freeze_queue_wait_timeout(ctrl->ns[i].disk->queue,
								left);
	*drained = left > 0;
	return n;
}

void ssdt_io_thaw(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			blk_mq_unfreeze_queue(ctrl->ns[i].disk->queue);
}

static bool ssdt_cancel_rq(struct request *rq, void *data)
{
	struct ssdt_iod *iod = blk_mq_rq_to_pdu(rq);

	if (blk_mq_request_completed(rq))
		return true;
	iod->nvme_status = NVME_SC_HOST_ABORTED_CMD;
	iod->requeue = *(bool *)data;
	blk_mq_complete_request(rq);
	return true;
}

/* End every request still in flight: requeued for a reset, else failed. */
void ssdt_io_cancel_all(struct ssdt_ctrl *ctrl, bool requeue)
{
	if (!ctrl->tagset_ready)
		return;
	blk_mq_tagset_busy_iter(&ctrl->tagset, ssdt_cancel_rq, &requeue);
	blk_mq_tagset_wait_completed_request(&ctrl->tagset);
}
