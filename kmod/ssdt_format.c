// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: Format NVM of one namespace, for `ssdtune bench --purge`
 * (SNIA PTS purge), asked through the netlink command SSDTUNE_CMD_FORMAT,
 * and for a Format NVM passed through the NVMe ioctls (`nvme format`).
 *
 * The namespace keeps its LBA format (another one is refused), so its size and block size stay and
 * the disk needs no revalidation.  Its queue is frozen for the command
 * (the device fails I/O to a namespace being formatted) and the page cache
 * of the whole disk is dropped afterwards: what it held is gone.  Where
 * the controller's FNA says a format (or a secure erase) applies to every
 * namespace, every disk of the controller is held and dropped so.
 */
#include <linux/blk-mq.h>
#include <linux/bits.h>
#include <linux/blkdev.h>
#include <linux/moduleparam.h>
#include <linux/nvme.h>
#include "ssdt.h"

/* A secure erase of a large drive may take hours: up to a day, never 0. */
#define SSDT_FORMAT_TIMEOUT_MAX_S	86400

static unsigned int ssdt_format_timeout = 600;

static int ssdt_format_timeout_set(const char *val, const struct kernel_param *kp)
{
	return ssdt_param_set_uint_range(val, kp, 1, SSDT_FORMAT_TIMEOUT_MAX_S);
}

static const struct kernel_param_ops ssdt_format_timeout_ops = {
	.set = ssdt_format_timeout_set,
	.get = param_get_uint,
};

module_param_cb(format_timeout, &ssdt_format_timeout_ops, &ssdt_format_timeout, 0644);
MODULE_PARM_DESC(format_timeout,
		 "seconds a Format NVM may take before the controller is reset, 1..86400 (default 600)");

#define SSDT_OACS_FORMAT	BIT(1)		/* Format NVM supported */
#define SSDT_FNA_ALL		BIT(0)		/* a format formats every namespace */
#define SSDT_FNA_SES_ALL	BIT(1)		/* a secure erase erases every one */
#define SSDT_FNA_CRYPTO		BIT(2)		/* cryptographic erase */

/* Freeze (@freeze) or thaw the disks the format touches. */
static void ssdt_format_hold(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns,
			     bool all, bool freeze)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++) {
		struct ssdt_ns *n = &ctrl->ns[i];

		if (!n->disk || (!all && n != ns))
			continue;
		if (freeze) {
			blk_mq_freeze_queue(n->disk->queue);
		} else {
			blk_mq_unfreeze_queue(n->disk->queue);
			/* what the page cache held is gone */
			invalidate_bdev(n->disk->part0);
		}
	}
}

/*
 * Format NVM of namespace @nsid (NVME_NSID_ALL: every one) with LBA format
 * @lbaf (-1: the one in force) and secure erase setting @ses, the disks it
 * touches frozen meanwhile.  Returns 0, a negative errno, or the NVMe
 * status (> 0).  Under scan_mutex: no rescan adds or removes a disk while
 * the format holds them.
 */
static int ssdt_format_exec(struct ssdt_ctrl *ctrl, u32 nsid, int lbaf,
			    u32 ses, unsigned int timeout_s)
{
	struct nvme_command cmd = { };
	struct ssdt_ns *ns = NULL;
	bool all = nsid == NVME_NSID_ALL;
	unsigned int i;
	int ret;

	mutex_lock(&ctrl->scan_mutex);
	for (i = 0; i < ctrl->nr_ns; i++) {
		struct ssdt_ns *n = &ctrl->ns[i];

		if (!n->disk || (!all && n->nsid != nsid))
			continue;
		ret = -EPERM;
		/* The disks' block size would change under them. */
		if (lbaf >= 0 && lbaf != n->lbaf)
			goto out;
		ns = n;
	}
	ret = -ENOENT;
	if (!ns)
		goto out;
	ret = -EBUSY;
	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		goto out;
	/* FNA: the controller may format or erase every namespace at once. */
	all |= (ctrl->fna & SSDT_FNA_ALL) ||
	       (ses != SSDTUNE_SES_NONE && (ctrl->fna & SSDT_FNA_SES_ALL));

	cmd.format.opcode = nvme_admin_format_nvm;
	cmd.format.nsid = cpu_to_le32(nsid);
	cmd.format.cdw10 = cpu_to_le32((ns->lbaf & 0xf) | ses << 9 |
				       (ns->lbaf >> 4) << 12);
	dev_info(ssdt_dev(ctrl), "formatting namespace %u%s (secure erase setting %u)\n",
		 nsid, all ? " and, as FNA or the namespace id says, every other" : "",
		 ses);
	ssdt_format_hold(ctrl, ns, all, true);
	ret = ssdt_admin_exec_timeout(ctrl, &cmd, NULL, timeout_s);
	ssdt_format_hold(ctrl, ns, all, false);
	if (ret > 0)
		dev_warn(ssdt_dev(ctrl), "Format NVM of namespace %u failed: status %#x\n",
			 nsid, ret);
out:
	mutex_unlock(&ctrl->scan_mutex);
	return ret;
}

/* The netlink FORMAT command: -EIO when the controller refused. */
int ssdt_ns_format(struct ssdt_ctrl *ctrl, u32 nsid, u32 ses)
{
	int ret;

	if (ses > SSDTUNE_SES_CRYPTO)
		return -EINVAL;
	if (!(ctrl->oacs & SSDT_OACS_FORMAT))
		return -EOPNOTSUPP;
	if (ses == SSDTUNE_SES_CRYPTO && !(ctrl->fna & SSDT_FNA_CRYPTO))
		return -EOPNOTSUPP;
	if (nsid == NVME_NSID_ALL)
		return -ENOENT;
	ret = ssdt_format_exec(ctrl, nsid, -1, ses, ssdt_format_timeout);
	return ret > 0 ? -EIO : ret;
}

/*
 * A Format NVM passed through (NVME_IOCTL_ADMIN_CMD, dword 10 @cdw10):
 * the same path, so the disks are held as for the netlink command.  No
 * metadata or protection information (ssdtune serves no such format) and
 * no other LBA format than the one in force: -EPERM.  @timeout_s 0:
 * format_timeout.  Returns what ssdt_format_exec() returns.
 */
int ssdt_ns_format_pt(struct ssdt_ctrl *ctrl, u32 nsid, u32 cdw10,
		      unsigned int timeout_s)
{
	int lbaf = (cdw10 & 0xf) | ((cdw10 >> 12) & 0x3) << 4;

	if (cdw10 & 0x1f0)		/* MSET, PI, PIL */
		return -EPERM;
	return ssdt_format_exec(ctrl, nsid, lbaf, (cdw10 >> 9) & 0x7,
				timeout_s ?: ssdt_format_timeout);
}
