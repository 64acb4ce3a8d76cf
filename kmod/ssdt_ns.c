// SPDX-License-Identifier: GPL-2.0
/*
 * Namespaces: one gendisk per active namespace, found at probe and kept
 * in step with the controller afterwards.  A rescan reads the active
 * namespace list again: a namespace that left loses its disk, a new one
 * gets one, one whose size changed is resized.  One whose block size or
 * identifiers changed (a Format, or a new namespace under a reused ID,
 * from another controller, another host or a BMC) gets a new disk: every
 * LBA the old one computes is wrong, and its page cache holds data that
 * is gone (ssdt_ns_rules.h).  Rescans come from the controller's
 * "namespace attribute changed" event (ssdt_aer.c), from
 * NVME_IOCTL_RESCAN, and after a passthrough Namespace Attachment or
 * Management command (ssdt_ioctl.c), as in the stock driver.
 *
 * The rescan work runs on system_wq, not on ssdt_wq: it may wait for a
 * reset (ssdt_identify()), and block I/O does not wait for it.
 *
 * Slots: ctrl->ns[] has SSDT_MAX_NS of them.  A namespace takes a free
 * one and keeps it until its gendisk is freed (->free_disk): an open file
 * of a removed disk still points at it.  Below nr_ns a slot may be empty
 * (disk NULL).  ns[].disk and nr_ns change under dev_mutex, which resets
 * and timeouts hold while they walk them; scans are serialised by
 * scan_mutex, which also keeps a Format's namespace (ssdt_format.c) in
 * place and is held to change scan_state.  scan_state and scan_pending
 * are read and written under the scan_lock spinlock: the event work asks
 * for a rescan with it alone, so it never waits for a scan, and a scan
 * (which takes dev_mutex) never stands between remove(), which cancels
 * the event work under dev_mutex, and that work.
 */
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include "ssdt.h"
#include "ssdt_compat.h"
#include "ssdt_ns_rules.h"

/* The disk is gone for good: it no longer needs its slot or the controller. */
static void ssdt_free_disk(struct gendisk *disk)
{
	struct ssdt_ns *ns = disk->private_data;
	struct ssdt_ctrl *ctrl = ns->ctrl;

	/* Pairs with ssdt_ns_slot(): another namespace may take it now. */
	smp_store_release(&ns->used, false);
	ssdt_ctrl_put(ctrl);
}

static const struct block_device_operations ssdt_fops = {
	.owner = THIS_MODULE,
	.ioctl = ssdt_blk_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
	.free_disk = ssdt_free_disk,
};

/* Times an Identify cancelled by a reset is asked again. */
#define SSDT_NS_IDENTIFY_TRIES	5

/*
 * Identify into @buf, for the namespace scan (never from the reset work:
 * it waits for a reset that cancels the command, and asks again).
 */
static int ssdt_identify(struct ssdt_ctrl *ctrl, u8 cns, u32 nsid, void *buf)
{
	struct nvme_command cmd = { };
	unsigned int gen;
	bool resetting;
	dma_addr_t dma;
	int ret, tries;
	void *mem;

	mem = dma_alloc_coherent(ssdt_dev(ctrl), NVME_IDENTIFY_DATA_SIZE, &dma,
				 GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	cmd.identify.opcode = nvme_admin_identify;
	cmd.identify.nsid = cpu_to_le32(nsid);
	cmd.identify.cns = cns;
	cmd.identify.dptr.prp1 = cpu_to_le64(dma);
	for (tries = 0; ; tries++) {
		gen = READ_ONCE(ctrl->resets);
		ret = ssdt_admin_exec(ctrl, &cmd, NULL);
		resetting = READ_ONCE(ctrl->state) == SSDT_RESETTING;
		if (tries == SSDT_NS_IDENTIFY_TRIES ||
		    (ret != -EINTR && ret != -ENODEV && ret != -ETIMEDOUT))
			break;
		/*
		 * A reset cancelled it, or its timeout queued one: ask again
		 * once that is done and the controller is back.  (The state
		 * alone misses a reset that ended before it was read.)
		 */
		flush_work(&ctrl->reset_work);
		if ((READ_ONCE(ctrl->resets) == gen && !resetting) ||
		    READ_ONCE(ctrl->state) != SSDT_LIVE)
			break;
	}
	if (!ret)
		memcpy(buf, mem, NVME_IDENTIFY_DATA_SIZE);
	else if (ret > 0)
		ret = -EIO;
	dma_free_coherent(ssdt_dev(ctrl), NVME_IDENTIFY_DATA_SIZE, mem, dma);
	return ret;
}

/* The slot of active namespace @nsid, or NULL.  Under scan_mutex. */
static struct ssdt_ns *ssdt_ns_find(struct ssdt_ctrl *ctrl, u32 nsid)
{
	unsigned int i;

	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk && ctrl->ns[i].nsid == nsid)
			return &ctrl->ns[i];
	return NULL;
}

/* A slot no disk uses any more, marked used, or NULL.  Under scan_mutex. */
static struct ssdt_ns *ssdt_ns_slot(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	for (i = 0; i < SSDT_MAX_NS; i++) {
		struct ssdt_ns *ns = &ctrl->ns[i];

		/* Pairs with ->free_disk(): the old disk is done with it. */
		if (!smp_load_acquire(&ns->used)) {
			ns->used = true;
			return ns;
		}
	}
	return NULL;
}

/*
 * The block size of @id if ssdtune can serve it, else 0 (with a log
 * line): no metadata, 512 bytes to a page, a size the block layer can
 * hold.  The LBA format index in force goes to @fmt (bits 6:5 of FLBAS
 * too when there are more than 16).
 */
static u8 ssdt_ns_shift(struct ssdt_ctrl *ctrl, u32 nsid,
			const struct nvme_id_ns *id, u8 *fmt)
{
	int i = ssdt_lbaf_index(id->flbas, id->nlbaf);
	u8 shift;

	if (i < 0 || i >= ARRAY_SIZE(id->lbaf)) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: FLBAS %#x names an LBA format past the %u it lists, skipped\n",
			 nsid, id->flbas, id->nlbaf + 1);
		return 0;
	}
	*fmt = i;
	shift = id->lbaf[i].ds;
	if (id->lbaf[i].ms || shift < 9 || shift > PAGE_SHIFT) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: format (%u-byte blocks, %u metadata) not supported, skipped\n",
			 nsid, 1u << shift, le16_to_cpu(id->lbaf[i].ms));
		return 0;
	}
	if (!ssdt_ns_sectors(le64_to_cpu(id->nsze), shift)) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: %llu blocks of %u bytes do not fit in 64-bit sectors, skipped\n",
			 nsid, le64_to_cpu(id->nsze), 1u << shift);
		return 0;
	}
	return shift;
}

/*
 * Sectors one Dataset Management range may cover: what a request's byte
 * count can hold, in whole blocks of 2^@shift bytes, and no more than the
 * controller's range size limit (DMRSL) when it has one.
 */
static u32 ssdt_ns_discard_sectors(struct ssdt_ctrl *ctrl, u8 shift)
{
	u32 blocks = UINT_MAX >> shift;

	if (ctrl->dmrsl)
		blocks = min(blocks, ctrl->dmrsl);
	return blocks << (shift - SECTOR_SHIFT);
}

/*
 * Sectors a read or write may move: the controller's limit (MDTS), and no
 * more than one DMA mapping can hold (swiotlb: 256 KiB).
 */
static unsigned int ssdt_ns_max_hw_sectors(struct ssdt_ctrl *ctrl)
{
	return min_t(size_t, READ_ONCE(ctrl->max_xfer),
		     dma_max_mapping_size(ssdt_dev(ctrl))) >> SECTOR_SHIFT;
}

/* Whether the namespace of @id is write protected (or the debug hook says so). */
static bool ssdt_ns_ro(const struct nvme_id_ns *id)
{
	return ssdt_ns_write_protected(id->nsattr) || ssdt_debug_ns_wp();
}

static int ssdt_ns_add(struct ssdt_ctrl *ctrl, u32 nsid,
		       const struct nvme_id_ns *id)
{
	struct ssdt_limits lim = { };
	struct gendisk *disk;
	struct ssdt_ns *ns;
	u8 shift, fmt;
	int ret;

	shift = ssdt_ns_shift(ctrl, nsid, id, &fmt);
	if (!shift)
		return 0;
	ns = ssdt_ns_slot(ctrl);
	if (!ns) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: more than %d namespaces, ignored\n",
			 nsid, SSDT_MAX_NS);
		return 0;
	}
	ns->ctrl = ctrl;
	ns->nsid = nsid;
	ns->lba_shift = shift;
	ns->lbaf = fmt;
	ns->nsze = le64_to_cpu(id->nsze);
	memcpy(ns->eui64, id->eui64, sizeof(ns->eui64));
	memcpy(ns->nguid, id->nguid, sizeof(ns->nguid));

	lim.lba_size = 1u << shift;
	lim.max_hw_sectors = ssdt_ns_max_hw_sectors(ctrl);
	lim.max_segments = SSDT_MAX_SEGS;
	lim.virt_boundary = SSDT_PAGE_SIZE - 1;
	/* PRP entries are dword aligned: user buffers need no more. */
	lim.dma_alignment = 3;
	if (ctrl->oncs & NVME_CTRL_ONCS_DSM) {
		lim.max_discard_sectors = ssdt_ns_discard_sectors(ctrl, shift);
		/* discards the block layer merges go as ranges of one DSM */
		lim.max_discard_segments = ctrl->dmrl ?: NVME_DSM_MAX_RANGES;
	}
	/*
	 * NLB is 16 bits; the controller may allow less (WZSL), and without
	 * WZSL it is held to what a read or write may move, as stock holds
	 * it (the disk's max_hw_sectors, DMA limits included).  Some models
	 * corrupt data or hang on it (their quirk): not offered then.
	 */
	if ((ctrl->oncs & NVME_CTRL_ONCS_WRITE_ZEROES) &&
	    !(ctrl->quirks & SSDT_QUIRK_NO_WRITE_ZEROES))
		lim.max_write_zeroes_sectors =
			min(0x10000u << (shift - SECTOR_SHIFT),
			    ctrl->max_zeroes_sectors ?: lim.max_hw_sectors);
	lim.write_cache = ctrl->vwc & NVME_CTRL_VWC_PRESENT;
	lim.fua = lim.write_cache;

	disk = ssdt_alloc_disk(&ctrl->tagset, &lim, ns);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto free_slot;
	}
	disk->fops = &ssdt_fops;
	disk->private_data = ns;
	snprintf(disk->disk_name, DISK_NAME_LEN, "ssdt%dn%u", ctrl->instance,
		 nsid);
	set_capacity(disk, ssdt_ns_sectors(ns->nsze, shift));
	/* writes would fail one at a time with Namespace Is Write Protected */
	set_disk_ro(disk, ssdt_ns_ro(id));
	/*
	 * In ns[] before it is added: adding reads the partition table, and
	 * a reset, a poll_queues write, a firmware activation's hold or
	 * marking the controller dead meanwhile must reach its queue too.
	 */
	mutex_lock(&ctrl->dev_mutex);
	WRITE_ONCE(ns->disk, disk);
	ctrl->nr_ns = max_t(unsigned int, ctrl->nr_ns, ns - ctrl->ns + 1);
	mutex_unlock(&ctrl->dev_mutex);
	ret = device_add_disk(ctrl->cdev, disk, NULL);
	if (ret) {
		mutex_lock(&ctrl->dev_mutex);
		WRITE_ONCE(ns->disk, NULL);
		mutex_unlock(&ctrl->dev_mutex);
		synchronize_rcu();	/* the power limit's kick, as removal */
		put_disk(disk);
		goto free_slot;
	}
	/* Only a disk that was added gets ->free_disk(), which puts it. */
	ssdt_ctrl_get(ctrl);
	return 0;
free_slot:
	/* Pairs with ssdt_ns_slot()'s acquire. */
	smp_store_release(&ns->used, false);
	return ret;
}

/*
 * Take the disk of @ns away: del_gendisk() writes back what the page cache
 * holds and waits for the I/O in flight.  No flush follows: the queue is
 * dead by then and a flush would fail unseen.  The controller's volatile
 * cache is committed by the normal shutdown (CC.SHN) that removal sends
 * after the disks are gone, as the stock driver does; a namespace that
 * disappeared has nothing to commit.
 */
static void ssdt_ns_remove(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns)
{
	struct gendisk *disk = ns->disk;

	/* Not under dev_mutex: a timeout while it drains needs it. */
	del_gendisk(disk);
	mutex_lock(&ctrl->dev_mutex);
	WRITE_ONCE(ns->disk, NULL);
	mutex_unlock(&ctrl->dev_mutex);
	/* The power limit's kick reads ns[].disk under RCU alone. */
	synchronize_rcu();
	put_disk(disk);
}

/*
 * The I/O command set of namespace @nsid (ssdt_nid_csi()): NVM when the
 * controller has no descriptor list to ask (before NVMe 1.3 with CC.CSS
 * NVM, limited CNS, or its quirk), else what the list says; a negative
 * errno when it cannot be read, or says none with CC.CSS = CSI.
 */
static int ssdt_ns_csi(struct ssdt_ctrl *ctrl, u32 nsid)
{
	bool limited = ssdt_cns_limited(ctrl->vs,
					ctrl->quirks & SSDT_QUIRK_IDENTIFY_CNS);
	bool multi = (ctrl->ctrl_config & NVME_CC_CSS_MASK) == NVME_CC_CSS_CSI;
	u8 *buf;
	int ret, bad;

	if (!ssdt_nid_list_ok(ctrl->vs, multi, limited,
			      ctrl->quirks & SSDT_QUIRK_NO_NS_DESC_LIST))
		return NVME_CSI_NVM;
	buf = kmalloc(NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = ssdt_identify(ctrl, NVME_ID_CNS_NS_DESC_LIST, nsid, buf);
	if (!ret) {
		ret = ssdt_nid_csi(buf, NVME_IDENTIFY_DATA_SIZE, multi, &bad);
		if (bad >= 0)
			dev_warn(ssdt_dev(ctrl), "namespace %u: identification descriptor type %u has a bogus length %u: the rest of the list is ignored\n",
				 nsid, buf[bad], buf[bad + 1]);
	}
	kfree(buf);
	return ret;
}

/*
 * A namespace not seen before: a disk if it is of the NVM command set.
 * One of another set (zoned, key value), or whose set cannot be read, is
 * skipped with a line; the controller's other namespaces go on.
 */
static int ssdt_ns_new(struct ssdt_ctrl *ctrl, u32 nsid,
		       const struct nvme_id_ns *id)
{
	static const char *const sets[] = { "NVM", "key value", "zoned" };
	int csi = ssdt_ns_csi(ctrl, nsid);

	if (csi == -EIO || csi == -EINVAL) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: its identification descriptors cannot be read (%d), skipped; a controller without them needs quirks=VID:DID:0x8000\n",
			 nsid, csi);
		return 0;
	}
	if (csi < 0)
		return csi;
	if (csi != NVME_CSI_NVM) {
		dev_warn(ssdt_dev(ctrl), "namespace %u: the %s command set (CSI %d) is not supported by ssdtune, skipped\n",
			 nsid, (unsigned int)csi < ARRAY_SIZE(sets) ? sets[csi] : "unknown",
			 csi);
		return 0;
	}
	return ssdt_ns_add(ctrl, nsid, id);
}

/*
 * The disk of @ns no longer serves what the controller has under its ID
 * (@why): its I/O fails from here on, nothing it cached is written back,
 * and it goes.
 */
static void ssdt_ns_drop(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns,
			 const char *why)
{
	dev_info(ssdt_dev(ctrl), "namespace %u %s: removing %s\n",
		 ns->nsid, why, ns->disk->disk_name);
	blk_mark_disk_dead(ns->disk);
	ssdt_ns_remove(ctrl, ns);
}

/* The controller no longer has namespace @ns: its I/O fails, its disk goes. */
static void ssdt_ns_gone(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns)
{
	ssdt_ns_drop(ctrl, ns, "is gone");
}

/*
 * A namespace still listed: follow a change of its size or write
 * protection.  Returns false when it is no longer what its disk serves
 * (another block size, other identifiers): the disk is gone then, and
 * the caller makes a new one.
 */
static bool ssdt_ns_revalidate(struct ssdt_ctrl *ctrl, struct ssdt_ns *ns,
			       const struct nvme_id_ns *id)
{
	struct ssdt_ns_id old = { .shift = ns->lba_shift, .nsze = ns->nsze };
	struct ssdt_ns_id cur = { .nsze = le64_to_cpu(id->nsze) };
	bool ro = ssdt_ns_ro(id);
	u8 fmt = ns->lbaf;
	unsigned int max;

	memcpy(old.eui64, ns->eui64, sizeof(old.eui64));
	memcpy(old.nguid, ns->nguid, sizeof(old.nguid));
	memcpy(cur.eui64, id->eui64, sizeof(cur.eui64));
	memcpy(cur.nguid, id->nguid, sizeof(cur.nguid));
	cur.shift = ssdt_ns_shift(ctrl, ns->nsid, id, &fmt);
	switch (ssdt_ns_change(&old, &cur)) {
	case SSDT_NS_REPLACED:
		ssdt_ns_drop(ctrl, ns, "has other identifiers (another namespace under its ID)");
		return false;
	case SSDT_NS_REFORMATTED:
		dev_warn(ssdt_dev(ctrl), "namespace %u: %u-byte blocks now, was %u\n",
			 ns->nsid, cur.shift ? 1u << cur.shift : 0,
			 1u << old.shift);
		ssdt_ns_drop(ctrl, ns, "was formatted");
		return false;
	case SSDT_NS_RESIZED:
		dev_info(ssdt_dev(ctrl), "namespace %u: %llu blocks, was %llu\n",
			 ns->nsid, cur.nsze, ns->nsze);
		ns->nsze = cur.nsze;
		set_capacity_and_notify(ns->disk,
					ssdt_ns_sectors(cur.nsze, cur.shift));
		break;
	case SSDT_NS_SAME:
		break;
	}
	ns->lbaf = fmt;		/* another index of the same block size */
	max = ssdt_ns_max_hw_sectors(ctrl);
	if (max < queue_max_hw_sectors(ns->disk->queue)) {
		dev_info(ssdt_dev(ctrl), "namespace %u: at most %u KiB a command now\n",
			 ns->nsid, max >> 1);
		ssdt_set_max_hw_sectors(ns->disk, max);
	}
	if (ro != get_disk_ro(ns->disk)) {
		dev_info(ssdt_dev(ctrl), "namespace %u: write protection %s\n",
			 ns->nsid, ro ? "on" : "off");
		set_disk_ro(ns->disk, ro);
	}
	return true;
}

static bool ssdt_nsid_listed(const __le32 *list, u32 nsid)
{
	unsigned int i;

	for (i = 0; i < NVME_IDENTIFY_DATA_SIZE / 4 && list[i]; i++)
		if (le32_to_cpu(list[i]) == nsid)
			return true;
	return false;
}

/*
 * The namespace IDs to look at, into @list (NVME_IDENTIFY_DATA_SIZE bytes,
 * zero-terminated): the active namespace list (Identify CNS 02h), or, for
 * a controller that has none (NVMe 1.0, ssdt_cns_limited()), every ID
 * from 1 to NN, as many as the list holds.  Sets *@all in the second case:
 * the caller must then tell inactive IDs (no blocks) from active ones.
 */
static int ssdt_ns_list(struct ssdt_ctrl *ctrl, __le32 *list, bool *all)
{
	u32 i, n = NVME_IDENTIFY_DATA_SIZE / 4;
	int ret;

	*all = ssdt_cns_limited(ctrl->vs, ctrl->quirks & SSDT_QUIRK_IDENTIFY_CNS);
	if (!*all) {
		ret = ssdt_identify(ctrl, NVME_ID_CNS_NS_ACTIVE_LIST, 0, list);
		if (ret)
			dev_err(ssdt_dev(ctrl), "active namespace list failed: %d\n",
				ret);
		return ret;
	}
	if (ctrl->nn >= n)
		dev_warn_once(ssdt_dev(ctrl), "%u namespace IDs and no active list: looking at the first %u\n",
			      ctrl->nn, n - 1);
	memset(list, 0, NVME_IDENTIFY_DATA_SIZE);
	for (i = 0; i < min(ctrl->nn, n - 1); i++)
		list[i] = cpu_to_le32(i + 1);
	return 0;
}

/*
 * Bring the disks in line with the active namespaces (ssdt_ns_list()).
 * At probe (@probe) an error of the controller (a timeout, a reset that
 * failed) fails the scan; a namespace whose Identify the controller
 * refuses, and any error later, costs that namespace only.  Under
 * scan_mutex.
 */
static int ssdt_ns_update(struct ssdt_ctrl *ctrl, bool probe)
{
	struct nvme_id_ns *id;
	struct ssdt_ns *ns;
	__le32 *list;
	unsigned int i;
	bool all;
	int ret;

	if (!probe && ssdt_debug_scan_delay_ms())
		msleep(ssdt_debug_scan_delay_ms());	/* debug hook */
	list = kzalloc(NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	id = kmalloc(NVME_IDENTIFY_DATA_SIZE, GFP_KERNEL);
	ret = -ENOMEM;
	if (!list || !id)
		goto out;
	ret = ssdt_ns_list(ctrl, list, &all);
	if (ret)
		goto out;
	for (i = 0; i < ctrl->nr_ns; i++) {
		ns = &ctrl->ns[i];
		if (!ns->disk || ssdt_nsid_listed(list, ns->nsid))
			continue;
		ssdt_ns_gone(ctrl, ns);
	}
	for (i = 0; i < NVME_IDENTIFY_DATA_SIZE / 4 && list[i]; i++) {
		u32 nsid = le32_to_cpu(list[i]);

		if (!ssdt_nsid_ok(nsid)) {
			dev_warn_once(ssdt_dev(ctrl), "the active namespace list names namespace %#x: ignored\n",
				      nsid);
			continue;
		}
		ret = ssdt_identify(ctrl, NVME_ID_CNS_NS, nsid, id);
		ns = ret ? NULL : ssdt_ns_find(ctrl, nsid);
		/*
		 * Without blocks: allocated, not attached; in a scan of every
		 * ID, inactive (gone, if it had a disk).
		 */
		if (!ret && !id->nsze) {
			if (all && ns)
				ssdt_ns_gone(ctrl, ns);
			continue;
		}
		if (ns && !ssdt_ns_revalidate(ctrl, ns, id))
			ns = NULL;	/* its disk went: a new one */
		if (!ns && !ret)
			ret = ssdt_ns_new(ctrl, nsid, id);
		/* -EIO: the controller answered with an error status */
		if (ret && probe && ret != -EIO)
			break;
		if (ret)
			dev_warn(ssdt_dev(ctrl), "namespace %u: %s failed (%d), skipped\n",
				 nsid, probe ? "Identify" : "rescan", ret);
		ret = 0;
	}
out:
	kfree(id);
	kfree(list);
	return ret;
}

/*
 * The scan at probe: a disk for every active namespace.  Rescans are
 * allowed from here on; one asked for while this ran follows at once.
 */
int ssdt_ns_scan(struct ssdt_ctrl *ctrl)
{
	int ret;

	mutex_lock(&ctrl->scan_mutex);
	ret = ssdt_ns_update(ctrl, true);
	spin_lock(&ctrl->scan_lock);
	if (!ret && ctrl->scan_state == SSDT_SCAN_OFF) {
		ctrl->scan_state = SSDT_SCAN_ON;
		if (ctrl->scan_pending)
			queue_work(system_wq, &ctrl->scan_work);
	}
	spin_unlock(&ctrl->scan_lock);
	mutex_unlock(&ctrl->scan_mutex);
	return ret;
}

/*
 * Rescan now (NVME_IOCTL_RESCAN, after a namespace passthrough command).
 * -ENODEV before probe's scan ended or once removal began.
 */
int ssdt_ns_rescan(struct ssdt_ctrl *ctrl)
{
	int ret = -ENODEV;
	bool on;

	mutex_lock(&ctrl->scan_mutex);
	spin_lock(&ctrl->scan_lock);
	ctrl->scan_pending = false;
	on = ctrl->scan_state == SSDT_SCAN_ON;	/* stays so: scan_mutex held */
	spin_unlock(&ctrl->scan_lock);
	if (on)
		ret = ssdt_ns_update(ctrl, false);
	mutex_unlock(&ctrl->scan_mutex);
	return ret;
}

static void ssdt_scan_work(struct work_struct *work)
{
	ssdt_ns_rescan(container_of(work, struct ssdt_ctrl, scan_work));
}

/*
 * Rescan soon (the controller's namespace event, process context).  Takes
 * no mutex: see the top of this file.
 */
void ssdt_ns_rescan_async(struct ssdt_ctrl *ctrl)
{
	spin_lock(&ctrl->scan_lock);
	ctrl->scan_pending = true;
	if (ctrl->scan_state == SSDT_SCAN_ON)
		queue_work(system_wq, &ctrl->scan_work);
	spin_unlock(&ctrl->scan_lock);
}

void ssdt_ns_init(struct ssdt_ctrl *ctrl)
{
	mutex_init(&ctrl->scan_mutex);
	spin_lock_init(&ctrl->scan_lock);
	INIT_WORK(&ctrl->scan_work, ssdt_scan_work);
}

/*
 * Remove every disk (remove(), a probe that failed late): no rescan runs
 * or starts from here on.  With @flush the drive commits what the page
 * cache wrote back.
 */
void ssdt_ns_remove_all(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	mutex_lock(&ctrl->scan_mutex);
	spin_lock(&ctrl->scan_lock);
	ctrl->scan_state = SSDT_SCAN_STOPPED;
	spin_unlock(&ctrl->scan_lock);
	mutex_unlock(&ctrl->scan_mutex);
	/* Nothing queues it now: after this it never runs again. */
	cancel_work_sync(&ctrl->scan_work);

	ssdt_power_stop(ctrl);		/* nothing may wait on the budget now */
	for (i = 0; i < ctrl->nr_ns; i++)
		if (ctrl->ns[i].disk)
			ssdt_ns_remove(ctrl, &ctrl->ns[i]);
	mutex_lock(&ctrl->dev_mutex);
	ctrl->nr_ns = 0;
	mutex_unlock(&ctrl->dev_mutex);
}
