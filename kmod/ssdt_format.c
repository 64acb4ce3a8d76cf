// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune: Format NVM of one namespace, for `ssdtune bench --purge`
 * (SNIA PTS purge).  Asked through the netlink command SSDTUNE_CMD_FORMAT.
 *
 * The namespace keeps its LBA format, so its size and block size stay and
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

static unsigned int ssdt_format_timeout = 600;
module_param_named(format_timeout, ssdt_format_timeout, uint, 0644);
MODULE_PARM_DESC(format_timeout,
		 "seconds a Format NVM may take before the controller is reset (default 600)");

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

int ssdt_ns_format(struct ssdt_ctrl *ctrl, u32 nsid, u32 ses)
{
	struct nvme_command cmd = { };
	struct ssdt_ns *ns = NULL;
	unsigned int i;
	bool all;
	int ret;

	if (ses > SSDTUNE_SES_CRYPTO)
		return -EINVAL;
	if (!(ctrl->oacs & SSDT_OACS_FORMAT))
		return -EOPNOTSUPP;
	if (ses == SSDTUNE_SES_CRYPTO && !(ctrl->fna & SSDT_FNA_CRYPTO))
		return -EOPNOTSUPP;
	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].nsid == nsid && ctrl->ns[i].disk)
			ns = &ctrl->ns[i];
	if (!ns)
		return -ENOENT;
	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		return -EBUSY;
	/* FNA: the controller may format or erase every namespace at once. */
	all = (ctrl->fna & SSDT_FNA_ALL) ||
	      (ses != SSDTUNE_SES_NONE && (ctrl->fna & SSDT_FNA_SES_ALL));

	cmd.format.opcode = nvme_admin_format_nvm;
	cmd.format.nsid = cpu_to_le32(nsid);
	cmd.format.cdw10 = cpu_to_le32(ns->lbaf | ses << 9);
	dev_info(ssdt_dev(ctrl), "formatting namespace %u%s (secure erase setting %u)\n",
		 nsid, all ? " and, as FNA says, every other" : "", ses);
	ssdt_format_hold(ctrl, ns, all, true);
	ret = ssdt_admin_exec_timeout(ctrl, &cmd, NULL, ssdt_format_timeout);
	ssdt_format_hold(ctrl, ns, all, false);
	if (ret > 0) {
		dev_warn(ssdt_dev(ctrl), "Format NVM of namespace %u failed: status %#x\n",
			 nsid, ret);
		return -EIO;
	}
	return ret;
}
