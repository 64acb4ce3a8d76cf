// SPDX-License-Identifier: GPL-2.0
/*
 * The stock driver's NVMe ioctl ABI (include/uapi/linux/nvme_ioctl.h), so
 * that nvme-cli and smartctl work on a controller ssdtune drives:
 *
 *   /dev/ssdtN     NVME_IOCTL_ADMIN_CMD, NVME_IOCTL_ADMIN64_CMD,
 *                  NVME_IOCTL_IO_CMD, NVME_IOCTL_IO64_CMD (with one
 *                  namespace, as the stock driver), NVME_IOCTL_RESET,
 *                  NVME_IOCTL_RESCAN
 *   /dev/ssdtNnM   NVME_IOCTL_ID, NVME_IOCTL_ADMIN_CMD,
 *                  NVME_IOCTL_ADMIN64_CMD, NVME_IOCTL_IO_CMD,
 *                  NVME_IOCTL_IO64_CMD, NVME_IOCTL_SUBMIT_IO
 *
 * As in the stock driver NVME_IOCTL_ID is a namespace's ioctl; the
 * controller device answers it with ENOTTY.  Admin data goes through a
 * bounce buffer of at most the controller's transfer size; I/O commands
 * are requests on the namespace's queue with the user's pages mapped
 * (blk_rq_map_user), under the queue's limits.  Commands
 * that would take over what the driver owns (its queues, its events, the
 * coalescing, interrupt and power features behind the knobs, a format
 * to another LBA format, sanitize) are refused with EPERM and a log line saying what to use
 * instead.  A Namespace Attachment or Management command that succeeded
 * is followed by a rescan, as in the stock driver.  See
 * Documentation/driver.md, "Passthrough".
 *
 * Lifetime: every passthrough holds ctrl->pt_rwsem for reading and
 * checks ctrl->pt_gone; ssdt_chr_del() sets it under the write lock, so
 * once it returns none runs and none starts.  An open /dev/ssdtN or
 * /dev/ssdtNnM holds a reference on the controller's memory (ctrl->ref).
 */
#include <linux/cdev.h>
#include <linux/compat.h>
#include <linux/nvme_ioctl.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include "ssdt.h"

static dev_t ssdt_chr_base;
static DEFINE_XARRAY(ssdt_chr_ctrls);	/* minor -> attached controller */

dev_t ssdt_chr_devt(struct ssdt_ctrl *ctrl)
{
	return MKDEV(MAJOR(ssdt_chr_base), ctrl->instance);
}

/* Why an admin opcode is not passed through, or NULL. */
static const char *ssdt_pt_refused(const struct nvme_command *c)
{
	switch (c->common.opcode) {
	case nvme_admin_delete_sq:
	case nvme_admin_create_sq:
	case nvme_admin_delete_cq:
	case nvme_admin_create_cq:
	case nvme_admin_dbbuf:
		return "the driver owns the queues";
	case nvme_admin_async_event:
		return "the driver owns asynchronous events";
	case nvme_admin_sanitize_nvm:
		return "the driver does not hold the namespaces' I/O during a sanitize";
	case nvme_admin_set_features:
		switch (le32_to_cpu(c->common.cdw10) & 0xff) {
		case NVME_FEAT_POWER_MGMT:
			return "the power state is a knob: power_state and power_limit_* in sysfs";
		case NVME_FEAT_NUM_QUEUES:
			return "the driver owns the queues";
		case NVME_FEAT_IRQ_COALESCE:
		case NVME_FEAT_IRQ_CONFIG:
			return "coalescing is a knob: coalesce_* in sysfs";
		case NVME_FEAT_ASYNC_EVENT:
			return "the driver owns asynchronous events";
		case NVME_FEAT_AUTO_PST:
			return "APST is a knob: apst_max_latency_us in sysfs";
		case NVME_FEAT_HOST_MEM_BUF:
			/* it would point the controller's DMA anywhere */
			return "the Host Memory Buffer is the driver's: max_host_mem_size_mb";
		}
	}
	return NULL;
}

static int ssdt_pt_begin(struct ssdt_ctrl *ctrl)
{
	down_read(&ctrl->pt_rwsem);
	if (!ctrl->pt_gone)
		return 0;
	up_read(&ctrl->pt_rwsem);
	return -ENODEV;
}

static void ssdt_pt_end(struct ssdt_ctrl *ctrl)
{
	up_read(&ctrl->pt_rwsem);
}

/*
 * A contiguous DMA buffer of @len bytes (at most max_xfer) as PRP1 and
 * PRP2, with chained list pages when it spans more than two pages.
 */
struct ssdt_bounce {
	void *buf;
	dma_addr_t dma;
	size_t size;
	u32 nlists;
	__le64 *lists[SSDT_MAX_PRP_LISTS];
	dma_addr_t list_dma[SSDT_MAX_PRP_LISTS];
};

static int ssdt_bounce_alloc(struct ssdt_ctrl *ctrl, struct ssdt_bounce *b,
			     u32 len, struct nvme_command *c)
{
	u64 list_dma[SSDT_MAX_PRP_LISTS];
	struct ssdt_seg seg;
	u32 want;

	b->size = round_up(len, SSDT_PAGE_SIZE);
	b->buf = dma_alloc_coherent(ssdt_dev(ctrl), b->size, &b->dma, GFP_KERNEL);
	if (!b->buf)
		return -ENOMEM;
	seg.addr = b->dma;
	seg.len = b->size;
	want = ssdt_prp_list_pages(ssdt_prp_entries(&seg, 1, SSDT_PAGE_SIZE),
				   SSDT_PAGE_SIZE);
	if (want > SSDT_MAX_PRP_LISTS)
		return -EINVAL;
	for (; b->nlists < want; b->nlists++) {
		b->lists[b->nlists] = dma_alloc_coherent(ssdt_dev(ctrl), SSDT_PAGE_SIZE,
							 &b->list_dma[b->nlists],
							 GFP_KERNEL);
		if (!b->lists[b->nlists])
			return -ENOMEM;
		list_dma[b->nlists] = b->list_dma[b->nlists];
	}
	return ssdt_prp_fill(&seg, 1, SSDT_PAGE_SIZE, &c->common.dptr.prp1,
			     &c->common.dptr.prp2, b->lists, list_dma, b->nlists);
}

static void ssdt_bounce_free(struct ssdt_ctrl *ctrl, struct ssdt_bounce *b)
{
	u32 i;

	for (i = 0; i < b->nlists; i++)
		dma_free_coherent(ssdt_dev(ctrl), SSDT_PAGE_SIZE, b->lists[i],
				  b->list_dma[i]);
	if (b->buf)
		dma_free_coherent(ssdt_dev(ctrl), b->size, b->buf, b->dma);
}

/* The command dwords userspace gave (no data pointers: the driver's). */
static void ssdt_pt_cmd(const struct nvme_passthru_cmd64 *u,
			struct nvme_command *c)
{
	c->common.opcode = u->opcode;
	c->common.nsid = cpu_to_le32(u->nsid);
	c->common.cdw2[0] = cpu_to_le32(u->cdw2);
	c->common.cdw2[1] = cpu_to_le32(u->cdw3);
	c->common.cdw10 = cpu_to_le32(u->cdw10);
	c->common.cdw11 = cpu_to_le32(u->cdw11);
	c->common.cdw12 = cpu_to_le32(u->cdw12);
	c->common.cdw13 = cpu_to_le32(u->cdw13);
	c->common.cdw14 = cpu_to_le32(u->cdw14);
	c->common.cdw15 = cpu_to_le32(u->cdw15);
}

/*
 * Format NVM: through the driver's format path, which holds the I/O of
 * the disks it touches and keeps a rescan from removing them meanwhile.
 */
static int ssdt_pt_format(struct ssdt_ctrl *ctrl, struct nvme_passthru_cmd64 *u)
{
	int ret;

	if (u->data_len)
		return -EINVAL;
	ret = ssdt_pt_begin(ctrl);
	if (ret)
		return ret;
	ret = ssdt_ns_format_pt(ctrl, u->nsid, u->cdw10,
				ssdt_pt_timeout_s(u->timeout_ms, 0));
	ssdt_pt_end(ctrl);
	if (ret == -EPERM)
		dev_notice_ratelimited(ssdt_dev(ctrl), "passthrough Format NVM refused: only the LBA format in force, without metadata or protection information\n");
	u->result = 0;
	return ret;
}

/*
 * One admin command from userspace, as struct nvme_passthru_cmd64 (the
 * 32-bit result ABI copies back the low half).  Returns what the ioctl
 * returns: a negative errno, or the NVMe status of the answer (0: done),
 * with the result dword(s) in @u->result.
 */
static int ssdt_pt_admin(struct ssdt_ctrl *ctrl, struct nvme_passthru_cmd64 *u)
{
	struct nvme_command c = { };
	struct ssdt_bounce b = { };
	struct nvme_completion cqe;
	void __user *ubuf = u64_to_user_ptr(u->addr);
	bool to_dev = u->opcode & 1, from_dev = u->opcode & 2;
	unsigned int timeout_s;
	const char *why;
	int ret;

	if (u->flags || u->metadata || u->metadata_len)
		return -EINVAL;		/* no SGLs, no metadata for admin */
	if (u->data_len && (to_dev == from_dev || !u->addr))
		return -EINVAL;		/* bidirectional, or no direction */
	if (u->data_len > ctrl->max_xfer)
		return -EINVAL;
	ssdt_pt_cmd(u, &c);
	why = ssdt_pt_refused(&c);
	if (why) {
		dev_notice_ratelimited(ssdt_dev(ctrl), "passthrough admin command %#x refused: %s\n",
				       u->opcode, why);
		return -EPERM;
	}
	if (c.common.opcode == nvme_admin_format_nvm)
		return ssdt_pt_format(ctrl, u);
	timeout_s = ssdt_pt_timeout_s(u->timeout_ms, READ_ONCE(ssdt_admin_timeout));
	/* From here to the end the PCI device and the admin queue stay. */
	ret = ssdt_pt_begin(ctrl);
	if (ret)
		return ret;
	if (u->data_len) {
		ret = ssdt_bounce_alloc(ctrl, &b, u->data_len, &c);
		if (ret)
			goto out;
		if (to_dev && copy_from_user(b.buf, ubuf, u->data_len)) {
			ret = -EFAULT;
			goto out;
		}
	}
	/* On a timeout the controller is stopped: the buffer is ours again. */
	ret = ssdt_admin_exec_cqe(ctrl, &c, &cqe, timeout_s);
	if (ret)
		goto out;
	u->result = le64_to_cpu(cqe.result.u64);
	ret = (le16_to_cpu(cqe.status) >> 1) & 0x7fff;
	if (from_dev && u->data_len && copy_to_user(ubuf, b.buf, u->data_len))
		ret = -EFAULT;
out:
	ssdt_bounce_free(ctrl, &b);
	ssdt_pt_end(ctrl);
	/* The namespaces may have changed: follow them before returning. */
	if (!ret && (c.common.opcode == nvme_admin_ns_attach ||
		     c.common.opcode == nvme_admin_ns_mgmt))
		ssdt_ns_rescan(ctrl);
	return ret;
}

/*
 * An I/O command on the queue of @disk, a namespace of @ctrl: the data at
 * user address @addr, @len bytes, mapped by the block layer under the
 * queue's limits.  Returns what the ioctl returns (as ssdt_pt_admin()),
 * the CQE's result into @result.
 */
static int ssdt_pt_io(struct ssdt_ctrl *ctrl, struct gendisk *disk,
		      struct nvme_command *c, u64 addr, u32 len,
		      u32 timeout_ms, u64 *result)
{
	struct ssdt_iod *iod;
	struct request *rq;
	struct bio *bio;
	blk_status_t sts;
	int ret;

	ret = ssdt_pt_begin(ctrl);
	if (ret)
		return ret;
	rq = blk_mq_alloc_request(disk->queue, nvme_is_write(c) ?
				  REQ_OP_DRV_OUT : REQ_OP_DRV_IN, 0);
	if (IS_ERR(rq)) {
		ret = PTR_ERR(rq);
		goto out;
	}
	/* rq->timeout is 32 bits: from INT_MAX ms on, msecs_to_jiffies() saturates */
	if (timeout_ms)
		rq->timeout = min_t(unsigned long, msecs_to_jiffies(timeout_ms), UINT_MAX);
	iod = blk_mq_rq_to_pdu(rq);
	iod->cmd = *c;
	iod->nvme_status = 0;
	iod->result = 0;
	if (len) {
		ret = blk_rq_map_user(disk->queue, rq, NULL, u64_to_user_ptr(addr),
				      len, GFP_KERNEL);
		if (ret)
			goto free;
	}
	bio = rq->bio;
	sts = blk_execute_rq(rq, false);
	if (iod->nvme_status == NVME_SC_HOST_ABORTED_CMD)
		ret = -EINTR;		/* cancelled by resets, retries used up */
	else if (iod->nvme_status)
		ret = iod->nvme_status & 0x7fff;
	else
		ret = blk_status_to_errno(sts);
	/* A bounced read is copied out here: a bad buffer fails now. */
	if (bio && blk_rq_unmap_user(bio) && ret >= 0)
		ret = -EFAULT;
	*result = iod->result;
free:
	blk_mq_free_request(rq);
out:
	ssdt_pt_end(ctrl);
	return ret;
}

/* The controller's only namespace's disk, with a reference, or NULL. */
static struct gendisk *ssdt_only_disk(struct ssdt_ctrl *ctrl)
{
	struct gendisk *disk = NULL;
	unsigned int i, n = 0;

	mutex_lock(&ctrl->dev_mutex);
	for (i = 0; i < ctrl->nr_ns; i++) {
		if (ctrl->ns[i].disk) {
			disk = ctrl->ns[i].disk;
			n++;
		}
	}
	if (n == 1)
		get_device(disk_to_dev(disk));
	else
		disk = NULL;
	mutex_unlock(&ctrl->dev_mutex);
	return disk;
}

/*
 * One passthrough command, struct nvme_passthru_cmd or _cmd64 (@wide) at
 * @arg: admin (@admin), or I/O on the namespace of @disk (NULL: the only
 * namespace of @ctrl, as the stock driver's controller device does).
 */
static int ssdt_ioctl_pt(struct ssdt_ctrl *ctrl, struct gendisk *disk,
			 bool admin, bool wide, void __user *arg)
{
	struct nvme_passthru_cmd64 c = { };
	struct nvme_command io = { };
	bool own_disk = false;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;
	/* The two layouts agree up to result: 32 bits there, 64 in _cmd64. */
	if (copy_from_user(&c, arg, offsetof(struct nvme_passthru_cmd, result)))
		return -EFAULT;
	if (admin) {
		ret = ssdt_pt_admin(ctrl, &c);
		goto result;
	}
	if (c.flags || c.metadata_len)
		return -EINVAL;		/* no SGLs; no metadata formats */
	if (!disk) {
		disk = ssdt_only_disk(ctrl);
		if (!disk)
			return -EINVAL;	/* none, or which one? */
		own_disk = true;
	}
	/*
	 * The command goes on this namespace's queue: it must name this
	 * namespace, not another or all of them (stock:
	 * nvme_validate_passthru_nsid()).
	 */
	if (c.nsid != ((struct ssdt_ns *)disk->private_data)->nsid) {
		dev_warn_ratelimited(ssdt_dev(ctrl), "%s: I/O passthrough for namespace %u on %s: refused\n",
				     current->comm, c.nsid, disk->disk_name);
		ret = -EINVAL;
	} else {
		ssdt_pt_cmd(&c, &io);
		ret = ssdt_pt_io(ctrl, disk, &io, c.addr, c.data_len,
				 c.timeout_ms, &c.result);
	}
	if (own_disk)
		put_device(disk_to_dev(disk));
result:
	if (ret < 0)
		return ret;
	if (wide ? put_user(c.result, (u64 __user *)(arg +
			    offsetof(struct nvme_passthru_cmd64, result))) :
		   put_user((u32)c.result, (u32 __user *)(arg +
			    offsetof(struct nvme_passthru_cmd, result))))
		return -EFAULT;
	return ret;
}

/* NVME_IOCTL_SUBMIT_IO: Read, Write or Compare of namespace @ns. */
static int ssdt_ioctl_submit_io(struct ssdt_ns *ns, struct gendisk *disk,
				void __user *arg)
{
	struct nvme_command c = { };
	struct nvme_user_io io;
	u64 result;

	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;
	if (copy_from_user(&io, arg, sizeof(io)))
		return -EFAULT;
	if (io.flags)
		return -EINVAL;
	switch (io.opcode) {
	case nvme_cmd_read:
	case nvme_cmd_write:
	case nvme_cmd_compare:
		break;
	default:
		return -EINVAL;
	}
	/* No metadata formats: a metadata pointer is ignored, as by stock. */
	c.rw.opcode = io.opcode;
	c.rw.nsid = cpu_to_le32(ns->nsid);
	c.rw.slba = cpu_to_le64(io.slba);
	c.rw.length = cpu_to_le16(io.nblocks);
	c.rw.control = cpu_to_le16(io.control);
	c.rw.dsmgmt = cpu_to_le32(io.dsmgmt);
	c.rw.reftag = cpu_to_le32(io.reftag);
	/* Dword 15: application tag and mask (named apart since 6.x). */
	c.common.cdw15 = cpu_to_le32(io.apptag | (u32)io.appmask << 16);
	return ssdt_pt_io(ns->ctrl, disk, &c, io.addr,
			  ((u32)io.nblocks + 1) << ns->lba_shift, 0, &result);
}

/* NVME_IOCTL_RESET: a controller reset, waited for. */
static int ssdt_ioctl_reset(struct ssdt_ctrl *ctrl)
{
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;
	ret = ssdt_pt_begin(ctrl);
	if (ret)
		return ret;
	dev_info(ssdt_dev(ctrl), "reset asked for through NVME_IOCTL_RESET\n");
	ssdt_schedule_reset(ctrl);
	ssdt_pt_end(ctrl);
	/*
	 * Not under pt_rwsem: the reset takes dev_mutex, which a failing
	 * probe holds while it waits for pt_rwsem.
	 */
	flush_work(&ctrl->reset_work);
	return READ_ONCE(ctrl->state) == SSDT_LIVE ? 0 : -ENODEV;
}

/* NVME_IOCTL_RESCAN: the namespaces read again, disks added and removed. */
static int ssdt_ioctl_rescan(struct ssdt_ctrl *ctrl)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;
	return ssdt_ns_rescan(ctrl);
}

/*
 * The passthrough ioctls: on the controller (@disk NULL) or on the
 * namespace of @disk.
 */
static long ssdt_ioctl_common(struct ssdt_ctrl *ctrl, struct gendisk *disk,
			      unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case NVME_IOCTL_ADMIN_CMD:
		return ssdt_ioctl_pt(ctrl, disk, true, false, arg);
	case NVME_IOCTL_ADMIN64_CMD:
		return ssdt_ioctl_pt(ctrl, disk, true, true, arg);
	case NVME_IOCTL_IO_CMD:
		return ssdt_ioctl_pt(ctrl, disk, false, false, arg);
	case NVME_IOCTL_IO64_CMD:
		return ssdt_ioctl_pt(ctrl, disk, false, true, arg);
	default:
		return -ENOTTY;
	}
}

static long ssdt_chr_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct ssdt_ctrl *ctrl = file->private_data;

	if (cmd == NVME_IOCTL_RESET)
		return ssdt_ioctl_reset(ctrl);
	if (cmd == NVME_IOCTL_RESCAN)
		return ssdt_ioctl_rescan(ctrl);
	return ssdt_ioctl_common(ctrl, NULL, cmd, (void __user *)arg);
}

int ssdt_blk_ioctl(struct block_device *bdev, ssdt_blk_mode_t mode,
		   unsigned int cmd, unsigned long arg)
{
	struct gendisk *disk = bdev->bd_disk;
	struct ssdt_ns *ns = disk->private_data;

	if (cmd == NVME_IOCTL_ID)
		return ns->nsid;
	if (cmd == NVME_IOCTL_SUBMIT_IO)
		return ssdt_ioctl_submit_io(ns, disk, (void __user *)arg);
	return ssdt_ioctl_common(ns->ctrl, disk, cmd, (void __user *)arg);
}

static int ssdt_chr_open(struct inode *inode, struct file *file)
{
	struct ssdt_ctrl *ctrl;

	xa_lock(&ssdt_chr_ctrls);
	ctrl = xa_load(&ssdt_chr_ctrls, iminor(inode));
	if (ctrl)
		ssdt_ctrl_get(ctrl);
	xa_unlock(&ssdt_chr_ctrls);
	if (!ctrl)
		return -ENXIO;
	file->private_data = ctrl;
	return 0;
}

static int ssdt_chr_release(struct inode *inode, struct file *file)
{
	ssdt_ctrl_put(file->private_data);
	return 0;
}

static const struct file_operations ssdt_chr_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdt_chr_open,
	.release	= ssdt_chr_release,
	.unlocked_ioctl	= ssdt_chr_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* The character device of @ctrl, before its class device names it. */
int ssdt_chr_add(struct ssdt_ctrl *ctrl)
{
	struct cdev *cdev;
	int ret;

	cdev = cdev_alloc();
	if (!cdev)
		return -ENOMEM;
	cdev->owner = THIS_MODULE;
	cdev->ops = &ssdt_chr_fops;
	ret = xa_insert(&ssdt_chr_ctrls, ctrl->instance, ctrl, GFP_KERNEL);
	if (ret)
		goto put;
	ret = cdev_add(cdev, ssdt_chr_devt(ctrl), 1);
	if (ret)
		goto erase;
	ctrl->chr = cdev;
	return 0;
erase:
	xa_erase(&ssdt_chr_ctrls, ctrl->instance);
put:
	kobject_put(&cdev->kobj);
	return ret;
}

/*
 * No new open of /dev/ssdtN, no passthrough running or to come (on either
 * device): waits for one that runs.  Open files keep the controller's
 * memory; their ioctls fail with ENODEV.
 */
void ssdt_chr_del(struct ssdt_ctrl *ctrl)
{
	xa_erase(&ssdt_chr_ctrls, ctrl->instance);
	down_write(&ctrl->pt_rwsem);
	ctrl->pt_gone = true;
	up_write(&ctrl->pt_rwsem);
	if (ctrl->chr)
		cdev_del(ctrl->chr);
	ctrl->chr = NULL;
}

int ssdt_chr_init(void)
{
	return alloc_chrdev_region(&ssdt_chr_base, 0, SSDT_MAX_CTRLS, SSDT_NAME);
}

void ssdt_chr_exit(void)
{
	unregister_chrdev_region(ssdt_chr_base, SSDT_MAX_CTRLS);
}
