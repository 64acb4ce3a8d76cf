// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune controller core, below everything that runs a command: enable,
 * disable and shutdown by CC/CSTS, the fence, reset requests and the
 * controller's reference count.  It calls nothing of the driver's but the
 * quirk table, so the admin engine, the I/O path and the features that
 * need a reset or a reference take them from here (ssdt_ctrl.c, above
 * them all, runs the bring-up and the reset themselves).  Also the range
 * check of the driver's uint parameters.
 */
#include <linux/delay.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include "ssdt.h"

u32 ssdt_csts(struct ssdt_ctrl *ctrl)
{
	return readl(ctrl->bar + NVME_REG_CSTS);
}

/* All-ones from a register read means the device left the bus. */
bool ssdt_ctrl_gone(struct ssdt_ctrl *ctrl)
{
	return ssdt_csts(ctrl) == ~0u || !pci_device_is_present(ctrl->pdev);
}

static int ssdt_wait_csts(struct ssdt_ctrl *ctrl, u32 mask, u32 val,
			  unsigned long timeout, const char *what)
{
	unsigned long deadline = jiffies + timeout;
	u32 csts;

	for (;;) {
		csts = ssdt_csts(ctrl);
		if (csts == ~0u)
			return -ENODEV;
		if ((csts & mask) == val)
			return 0;
		if (time_after(jiffies, deadline)) {
			dev_err(ssdt_dev(ctrl), "timed out waiting for %s (CSTS %#x)\n",
				what, csts);
			return -ETIMEDOUT;
		}
		usleep_range(1000, 2000);
	}
}

/* Some controllers read CSTS.RDY wrong right after CC.EN changes. */
static void ssdt_quirk_rdy_delay(struct ssdt_ctrl *ctrl)
{
	if (ctrl->quirks & SSDT_QUIRK_DELAY_RDY)
		msleep(SSDT_QUIRK_DELAY_RDY_MS);
}

int ssdt_ctrl_disable(struct ssdt_ctrl *ctrl)
{
	u32 cc = readl(ctrl->bar + NVME_REG_CC);

	if (cc & NVME_CC_ENABLE) {
		writel(cc & ~NVME_CC_ENABLE, ctrl->bar + NVME_REG_CC);
		ssdt_quirk_rdy_delay(ctrl);
	}
	return ssdt_wait_csts(ctrl, NVME_CSTS_RDY, 0, ctrl->ready_timeout,
			      "controller disable");
}

/*
 * CAP, and the time CSTS.RDY may take from it (with CRTO where CAP.CRMS
 * says the controller reports one: the register is reserved before).
 */
void ssdt_ctrl_read_cap(struct ssdt_ctrl *ctrl)
{
	u32 crto;

	ctrl->cap = lo_hi_readq(ctrl->bar + NVME_REG_CAP);
	crto = ctrl->cap & NVME_CAP_CRMS_CRWMS ?
		readl(ctrl->bar + NVME_REG_CRTO) : 0;
	ctrl->ready_timeout = msecs_to_jiffies(ssdt_ready_timeout_ms(ctrl->cap,
								     crto));
}

int ssdt_ctrl_enable(struct ssdt_ctrl *ctrl)
{
	struct ssdt_queue *aq = ctrl->admin;
	u32 aqa = (aq->depth - 1) | ((aq->depth - 1) << 16);
	/*
	 * Every I/O command set the controller has, as stock nvme asks: then
	 * a namespace of another set (zoned, key value) shows as such and
	 * the scan can refuse it, instead of serving it as a plain disk.
	 */
	u32 css = NVME_CAP_CSS(ctrl->cap) & NVME_CAP_CSS_CSI ?
		  NVME_CC_CSS_CSI : NVME_CC_CSS_NVM;
	int ret;

	/* a controller still ready from before must not see CC.EN set */
	ret = ssdt_wait_csts(ctrl, NVME_CSTS_RDY, 0, ctrl->ready_timeout,
			     "controller disabled before enable");
	if (ret)
		return ret;
	writel(aqa, ctrl->bar + NVME_REG_AQA);
	lo_hi_writeq(aq->sq_dma, ctrl->bar + NVME_REG_ASQ);
	lo_hi_writeq(aq->cq_dma, ctrl->bar + NVME_REG_ACQ);
	/*
	 * As stock: the configuration first, CC.EN in a second write.  CAP
	 * may change once a command set is chosen (CC.CSS), and with it the
	 * ready time: read it again, with CRTO (ssdt_ready_timeout_ms()).
	 */
	ctrl->ctrl_config = css | NVME_CC_AMS_RR |
		((ilog2(SSDT_PAGE_SIZE) - 12) << NVME_CC_MPS_SHIFT) |
		NVME_CC_IOSQES | NVME_CC_IOCQES;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	ctrl->ctrl_config = readl(ctrl->bar + NVME_REG_CC);	/* posted */
	ssdt_ctrl_read_cap(ctrl);
	ctrl->ctrl_config |= NVME_CC_ENABLE;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	ssdt_quirk_rdy_delay(ctrl);
	return ssdt_wait_csts(ctrl, NVME_CSTS_RDY, NVME_CSTS_RDY,
			      ctrl->ready_timeout, "controller ready");
}

/*
 * Normal shutdown: the controller commits its volatile write cache.  It
 * gets the time its RTD3 Entry Latency says, within shutdown_timeout and
 * 60 s (ssdt_shutdown_timeout_s()); CAP.TO is about CC.EN, not this.
 */
void ssdt_ctrl_shutdown(struct ssdt_ctrl *ctrl)
{
	u32 cc = readl(ctrl->bar + NVME_REG_CC);
	unsigned int secs = ctrl->shutdown_s ?:
		ssdt_shutdown_timeout_s(0, READ_ONCE(ssdt_shutdown_timeout));

	cc = (cc & ~NVME_CC_SHN_MASK) | NVME_CC_SHN_NORMAL;
	writel(cc, ctrl->bar + NVME_REG_CC);
	if (!ssdt_wait_csts(ctrl, NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_CMPLT,
			    secs * HZ, "shutdown"))
		dev_info(ssdt_dev(ctrl), "shutdown complete\n");
}

/*
 * CC.EN=0, the spec's controller reset; a controller that does not come
 * to CSTS.RDY=0 loses bus mastering.  Either way it no longer touches
 * host memory, and what it was given may be freed.
 */
void ssdt_ctrl_stop_dma(struct ssdt_ctrl *ctrl)
{
	if (ssdt_ctrl_disable(ctrl)) {
		dev_err(ssdt_dev(ctrl), "controller does not stop: bus mastering off\n");
		pci_clear_master(ctrl->pdev);
	}
}

/*
 * Make the controller stop touching host memory now, from any sleeping
 * context: CC.EN=0 aborts every command it holds (the spec's controller
 * reset); a controller that does not come to CSTS.RDY=0 loses bus
 * mastering.  Whatever it was given may then be freed.  The reset that
 * follows sets it up again, or, during removal, fails what it held
 * (ssdt_reset_work()); until then admin commands fail and I/O waits.
 */
void ssdt_ctrl_fence(struct ssdt_ctrl *ctrl)
{
	unsigned int i;

	WRITE_ONCE(ctrl->fenced, true);
	WRITE_ONCE(ctrl->admin->live, false);
	for (i = 0; i < ctrl->nr_io; i++)
		WRITE_ONCE(ctrl->ioq[i]->live, false);
	ssdt_ctrl_stop_dma(ctrl);
}

/*
 * Ask for a reset.  During removal none comes, but a controller that an
 * admin timeout stopped still gets the work: it fails the I/O held for a
 * reset, which would otherwise wait for ever (ssdt_reset_work()).
 */
void ssdt_schedule_reset(struct ssdt_ctrl *ctrl)
{
	unsigned long flags;

	spin_lock_irqsave(&ctrl->state_lock, flags);
	if (ctrl->state == SSDT_LIVE &&
	    (!ctrl->removing || READ_ONCE(ctrl->fenced)))
		queue_work(ssdt_wq, &ctrl->reset_work);
	spin_unlock_irqrestore(&ctrl->state_lock, flags);
}

static void ssdt_ctrl_free(struct kref *ref)
{
	kfree(container_of(ref, struct ssdt_ctrl, ref));
}

/*
 * The controller's memory stays while a disk of it or an open /dev/ssdtN
 * may still look at it, after remove() has taken everything else down.
 */
void ssdt_ctrl_get(struct ssdt_ctrl *ctrl)
{
	kref_get(&ctrl->ref);
}

void ssdt_ctrl_put(struct ssdt_ctrl *ctrl)
{
	kref_put(&ctrl->ref, ssdt_ctrl_free);
}

/*
 * A uint parameter within @min..@max, else -EINVAL and the value stays:
 * kstrtouint()'s -ERANGE past 32 bits is out of range all the same.
 */
int ssdt_param_set_uint_range(const char *val, const struct kernel_param *kp,
			      unsigned int min, unsigned int max)
{
	return param_set_uint_minmax(val, kp, min, max) ? -EINVAL : 0;
}
