// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware activation without a reset.  A controller that activates new
 * firmware by itself (a commit with action 3, or one another host asked
 * for) sends the "firmware activation starting" notice and sets CSTS.PP
 * (Processing Paused) while it switches: it takes no command meanwhile.
 * As stock nvme's nvme_fw_act_work does, the driver then holds the I/O
 * (the controller counts as resetting: a request that times out meanwhile
 * has its timer re-armed instead of an Abort), polls CSTS.PP every 100 ms
 * for at most MTFA (or admin_timeout when the controller reports none),
 * and lets the I/O go on when PP clears; past that it resets the
 * controller.  Then it reads the Firmware Slot log, which clears the event
 * and names the revision now running, and posts again the Asynchronous
 * Event Request the notice used (stock re-queues its event work there).
 *
 * An admin command that times out meanwhile stops the controller
 * (ssdt_ctrl_fence()), but its reset cannot be queued while the state is
 * RESETTING: the hold ends at once then and asks for the reset itself,
 * or the I/O would wait on a stopped controller for good.
 *
 * Runs on ssdt_wq under dev_mutex, from the hold to the log read and the
 * new event request, so a reset, a PCI reset or a removal (which frees
 * the admin queue under it) waits for it; a removal ends the wait early
 * (ctrl->removing).
 */
#include <linux/delay.h>
#include "ssdt.h"

static bool ssdt_fw_act_paused(struct ssdt_ctrl *ctrl)
{
	u32 csts = readl(ctrl->bar + NVME_REG_CSTS);

	if (ssdt_debug_pp(ctrl))
		return true;
	return csts != ~0u && (csts & NVME_CSTS_PP);
}

/* Read the Firmware Slot log (it clears the event); log the active slot. */
static void ssdt_fw_act_log(struct ssdt_ctrl *ctrl)
{
	struct nvme_fw_slot_info_log *log;
	char fr[9] = "";
	u8 slot;

	log = kzalloc(sizeof(*log), GFP_KERNEL);
	if (!log)
		return;
	if (ssdt_get_log_page(ctrl, NVME_LOG_FW_SLOT, log, sizeof(*log))) {
		dev_warn(ssdt_dev(ctrl), "firmware activation done; the firmware slot log could not be read\n");
		goto out;
	}
	slot = log->afi & 0x7;
	if (slot >= 1 && slot <= ARRAY_SIZE(log->frs)) {
		memcpy(fr, &log->frs[slot - 1], 8);
		strim(fr);
	}
	dev_info(ssdt_dev(ctrl), "firmware activation done: slot %u, revision %s (the firmware file changes at the next reset)\n",
		 slot, fr[0] ? fr : "unknown");
out:
	kfree(log);
}

static void ssdt_fw_act_work(struct work_struct *work)
{
	struct ssdt_ctrl *ctrl = container_of(work, struct ssdt_ctrl, fw_act_work);
	unsigned int ms = ssdt_fw_act_timeout_ms(ctrl->mtfa, READ_ONCE(ssdt_admin_timeout));
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	bool done, fenced;

	mutex_lock(&ctrl->dev_mutex);
	spin_lock_irq(&ctrl->state_lock);
	if (ctrl->state != SSDT_LIVE || ctrl->removing || !ctrl->admin) {
		spin_unlock_irq(&ctrl->state_lock);
		mutex_unlock(&ctrl->dev_mutex);
		return;
	}
	ctrl->state = SSDT_RESETTING;	/* timeouts wait, no reset starts */
	spin_unlock_irq(&ctrl->state_lock);
	dev_info(ssdt_dev(ctrl), "firmware activation: I/O held while the controller is paused (at most %u ms)\n",
		 ms);
	ssdt_io_quiesce(ctrl);
	while (!(done = !ssdt_fw_act_paused(ctrl)) && time_before(jiffies, end) &&
	       !READ_ONCE(ctrl->removing) && !READ_ONCE(ctrl->fenced))
		msleep(100);
	fenced = READ_ONCE(ctrl->fenced);
	spin_lock_irq(&ctrl->state_lock);
	ctrl->state = SSDT_LIVE;
	spin_unlock_irq(&ctrl->state_lock);
	ssdt_io_unquiesce(ctrl);
	if (fenced) {
		dev_warn(ssdt_dev(ctrl), "an admin command timed out during the firmware activation: resetting controller\n");
		ssdt_schedule_reset(ctrl);
	} else if (done) {
		ssdt_fw_act_log(ctrl);
		ssdt_aer_repost(ctrl);
	} else if (!READ_ONCE(ctrl->removing)) {
		dev_warn(ssdt_dev(ctrl), "firmware activation did not end within %u ms: resetting controller\n",
			 ms);
		ssdt_schedule_reset(ctrl);
	}
	mutex_unlock(&ctrl->dev_mutex);
}

/* The "firmware activation starting" notice came (any process context). */
void ssdt_fw_act_start(struct ssdt_ctrl *ctrl)
{
	queue_work(ssdt_wq, &ctrl->fw_act_work);
}

void ssdt_fw_act_init(struct ssdt_ctrl *ctrl)
{
	INIT_WORK(&ctrl->fw_act_work, ssdt_fw_act_work);
}

/* For good: no activation wait runs or will run.  Not under dev_mutex. */
void ssdt_fw_act_stop(struct ssdt_ctrl *ctrl)
{
	cancel_work_sync(&ctrl->fw_act_work);
}
