/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for differences between the kernels ssdtune supports
 * (Debian 6.1 and 6.12).  Keyed on features found in the headers at build
 * time (ssdt_config.h from gen-compat.sh), never on LINUX_VERSION_CODE,
 * which Debian backports make unreliable.
 */
#ifndef SSDT_COMPAT_H
#define SSDT_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <net/genetlink.h>
#include "ssdt_config.h"

/* The open mode a block device's ioctl gets (6.5+: blk_mode_t). */
#ifdef SSDT_HAVE_BLK_MODE
#define ssdt_blk_mode_t blk_mode_t
#else
#define ssdt_blk_mode_t fmode_t
#endif

/* What a namespace's queue limits are, independent of how they are set. */
struct ssdt_limits {
	unsigned int lba_size;
	unsigned int max_hw_sectors;
	unsigned short max_segments;
	unsigned long virt_boundary;
	unsigned int dma_alignment;		/* mask: address & it == 0 */
	unsigned int max_discard_sectors;	/* 0: no discard */
	unsigned short max_discard_segments;	/* ranges of one DSM */
	unsigned int max_write_zeroes_sectors;	/* 0: no write zeroes */
	bool write_cache;
	bool fua;
};

/*
 * The two header features change together between the kernels supported:
 * a kernel with one and not the other (6.9, 6.10) is not.
 */
#if defined(SSDT_HAVE_DISK_LIMITS) != defined(SSDT_HAVE_BLK_FEAT)
#error "ssdtune: blk_mq_alloc_disk takes queue_limits but BLK_FEAT_* is missing, or the reverse"
#endif

#ifdef SSDT_HAVE_BLK_FEAT
/*
 * 6.11+: limits, with write cache and FUA as BLK_FEAT_* flags, are handed
 * to blk_mq_alloc_disk in struct queue_limits; non-rotational and no
 * entropy contribution are the defaults.
 */
static inline struct gendisk *
ssdt_alloc_disk(struct blk_mq_tag_set *set, const struct ssdt_limits *l,
		void *queuedata)
{
	struct queue_limits lim = {
		.logical_block_size = l->lba_size,
		.physical_block_size = l->lba_size,
		.io_min = l->lba_size,
		.max_hw_sectors = l->max_hw_sectors,
		.max_segments = l->max_segments,
		.virt_boundary_mask = l->virt_boundary,
		.dma_alignment = l->dma_alignment,
		.max_hw_discard_sectors = l->max_discard_sectors,
		.max_discard_segments = l->max_discard_segments ?: 1,
		.discard_granularity = l->max_discard_sectors ? l->lba_size : 0,
		.max_write_zeroes_sectors = l->max_write_zeroes_sectors,
	};

	if (l->write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE;
	if (l->fua)
		lim.features |= BLK_FEAT_FUA;
	return blk_mq_alloc_disk(set, &lim, queuedata);
}
#else
/* 6.1: allocate, then call the per-limit setters and set the queue flags. */
static inline struct gendisk *
ssdt_alloc_disk(struct blk_mq_tag_set *set, const struct ssdt_limits *l,
		void *queuedata)
{
	struct gendisk *disk = blk_mq_alloc_disk(set, queuedata);
	struct request_queue *q;

	if (IS_ERR(disk))
		return disk;
	q = disk->queue;
	blk_queue_logical_block_size(q, l->lba_size);
	blk_queue_physical_block_size(q, l->lba_size);
	blk_queue_io_min(q, l->lba_size);
	blk_queue_max_hw_sectors(q, l->max_hw_sectors);
	blk_queue_max_segments(q, l->max_segments);
	blk_queue_virt_boundary(q, l->virt_boundary);
	blk_queue_dma_alignment(q, l->dma_alignment);
	if (l->max_discard_sectors) {
		blk_queue_max_discard_sectors(q, l->max_discard_sectors);
		blk_queue_max_discard_segments(q, l->max_discard_segments ?: 1);
		q->limits.discard_granularity = l->lba_size;
	}
	blk_queue_max_write_zeroes_sectors(q, l->max_write_zeroes_sectors);
	blk_queue_write_cache(q, l->write_cache, l->fua);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	return disk;
}
#endif

/*
 * A smaller transfer limit for a live disk (the controller's MDTS shrank
 * at a reset), the queue frozen: no request built for the old limit is in
 * flight while it changes.
 */
static inline void ssdt_set_max_hw_sectors(struct gendisk *disk,
					   unsigned int sectors)
{
	struct request_queue *q = disk->queue;
#ifdef SSDT_HAVE_DISK_LIMITS
	struct queue_limits lim;
#endif

	blk_mq_freeze_queue(q);
#ifdef SSDT_HAVE_DISK_LIMITS
	lim = queue_limits_start_update(q);
	lim.max_hw_sectors = sectors;
	if (queue_limits_commit_update(q, &lim))
		pr_warn("ssdtune: %s: the new transfer limit was refused\n",
			disk->disk_name);
#else
	blk_queue_max_hw_sectors(q, sectors);
#endif
	blk_mq_unfreeze_queue(q);
}

/*
 * A list of requests linked through rq_next, head and tail (ssdt_blk.c).
 * ->queue_rqs gets the plug's list as a struct rq_list where the kernel
 * has one, else as the head of a bare list: SSDT_PLUG_LIST is its type.
 * rq_list_pop() takes from either; ssdt_plug_give() puts back the
 * requests the driver did not take.
 */
struct ssdt_rqs {
	struct request *head;
	struct request *tail;
};

#ifdef SSDT_HAVE_RQ_LIST
#define SSDT_PLUG_LIST struct rq_list

static inline void ssdt_plug_give(struct rq_list *plug,
				  const struct ssdt_rqs *l)
{
	plug->head = l->head;
	plug->tail = l->tail;
}
#else
#define SSDT_PLUG_LIST struct request *

static inline void ssdt_plug_give(struct request **plug,
				  const struct ssdt_rqs *l)
{
	*plug = l->head;
}
#endif

/*
 * A generic netlink multicast group only CAP_NET_ADMIN may join, where the
 * kernel can say so: GENL_MCAST_CAP_NET_ADMIN (6.7, and Debian's 6.1 from
 * the stable series) comes with the flags field it sets.  Elsewhere the
 * group stays open to every user, as it was.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define SSDT_MCGRP_ADMIN(n) { .name = (n), .flags = GENL_MCAST_CAP_NET_ADMIN }
#else
#define SSDT_MCGRP_ADMIN(n) { .name = (n) }
#endif

/*
 * The block layer status of a reservation conflict: BLK_STS_RESV_CONFLICT
 * (6.5+), BLK_STS_NEXUS before it, the same value under another name.
 */
#ifdef SSDT_HAVE_BLK_STS_RESV_CONFLICT
#define SSDT_STS_RESV_CONFLICT BLK_STS_RESV_CONFLICT
#else
#define SSDT_STS_RESV_CONFLICT BLK_STS_NEXUS
#endif

#endif
