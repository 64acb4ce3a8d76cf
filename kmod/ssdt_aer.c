// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous events.  The controller reports SMART/health warnings
 * (temperature beyond a threshold, spare below its threshold, reliability,
 * read-only media, volatile memory backup), errors, firmware activation
 * and namespace changes by completing one of the Asynchronous Event
 * Requests the driver keeps posted.  Each event becomes a log line and a
 * netlink event (SSDTUNE_EVENT_ASYNC); then the driver reads the log page
 * the event names, which clears it and lets the controller report it
 * again, and posts the request anew.
 *
 * Requests are posted once the controller is live (probe, every reset);
 * a reset or removal cancels them with the other admin commands.
 */
#include "ssdt.h"

#define SSDT_AER_MAX	4	/* requests kept posted (or AERL + 1) */

static const char *ssdt_aer_name(u8 type, u8 info)
{
	switch (type) {
	case NVME_AER_ERROR:
		return "error";
	case NVME_AER_SMART:
		switch (info) {
		case 0x00: return "SMART: reliability degraded";
		case 0x01: return "SMART: temperature beyond a threshold";
		case 0x02: return "SMART: spare below its threshold";
		default: return "SMART/health";
		}
	case NVME_AER_NOTICE:
		switch (info) {
		case NVME_AER_NOTICE_NS_CHANGED: return "notice: namespace attributes changed";
		case NVME_AER_NOTICE_FW_ACT_STARTING: return "notice: firmware activation starting";
		default: return "notice";
		}
	default:
		return "other";
	}
}

/* Post one Asynchronous Event Request; its completion comes to ssdt_aer_done(). */
static int ssdt_aer_post(struct ssdt_ctrl *ctrl)
{
	struct nvme_command cmd = { };

	cmd.common.opcode = nvme_admin_async_event;
	return ssdt_admin_submit_aer(ctrl, &cmd);
}

/*
 * Handle the event of @result.  False when the request it used is posted
 * again elsewhere: a firmware activation's, once the activation ended
 * (ssdt_fwact.c), since the controller takes no command while paused.
 */
static bool ssdt_aer_handle(struct ssdt_ctrl *ctrl, u32 result)
{
	struct ssdt_nl_async ev = {
		.type = result & 0x7,
		.info = (result >> 8) & 0xff,
		.lid = (result >> 16) & 0xff,
	};
	struct nvme_smart_log *smart;
	bool repost = true;
	int ret = 0;

	smart = kzalloc(sizeof(*smart), GFP_KERNEL);
	if (!smart)
		return true;
	switch (ev.type) {
	case NVME_AER_SMART:
		ret = ssdt_get_log_page(ctrl, ev.lid, smart, sizeof(*smart));
		if (!ret) {
			ev.crit_warning = smart->critical_warning;
			ev.temp_k = smart->temperature[0] | smart->temperature[1] << 8;
			ev.have_smart = true;
		}
		break;
	case NVME_AER_NOTICE:
		/* the Firmware Slot log is read once the activation ends */
		if (ev.info == NVME_AER_NOTICE_FW_ACT_STARTING) {
			ssdt_fw_act_start(ctrl);
			repost = false;
			break;
		}
		fallthrough;
	case NVME_AER_ERROR:
		/* The first 512 bytes: enough to clear the event. */
		ret = ssdt_get_log_page(ctrl, ev.lid, smart, sizeof(*smart));
		break;
	}
	if (ev.have_smart)
		dev_warn(ssdt_dev(ctrl), "asynchronous event: %s (critical warning %#x, temperature %u K)\n",
			 ssdt_aer_name(ev.type, ev.info), ev.crit_warning, ev.temp_k);
	else
		dev_warn(ssdt_dev(ctrl), "asynchronous event: %s (type %u, information %#x, log page %#x)%s\n",
			 ssdt_aer_name(ev.type, ev.info), ev.type, ev.info, ev.lid,
			 ret ? ": could not read the log page" : "");
	kfree(smart);
	ssdt_nl_notify_async(ctrl, &ev);
	if (ev.type == NVME_AER_NOTICE && ev.info == NVME_AER_NOTICE_NS_CHANGED)
		ssdt_ns_rescan_async(ctrl);
	return repost;
}

/*
 * Post again the request a firmware activation's notice used, once the
 * activation ended (under dev_mutex, the controller live).
 */
void ssdt_aer_repost(struct ssdt_ctrl *ctrl)
{
	int ret = ssdt_aer_post(ctrl);

	if (ret)
		dev_warn(ssdt_dev(ctrl), "asynchronous event request not posted again after the firmware activation (%d)\n",
			 ret);
}

static void ssdt_aer_work(struct work_struct *work)
{
	struct ssdt_ctrl *ctrl = container_of(work, struct ssdt_ctrl, aer_work);
	u32 result;

	for (;;) {
		spin_lock_irq(&ctrl->aer_lock);
		if (!ctrl->aer_n) {
			spin_unlock_irq(&ctrl->aer_lock);
			return;
		}
		result = ctrl->aer_results[0];
		ctrl->aer_n--;
		memmove(ctrl->aer_results, ctrl->aer_results + 1,
			ctrl->aer_n * sizeof(ctrl->aer_results[0]));
		spin_unlock_irq(&ctrl->aer_lock);
		/* the one this event used; an activation's, once it ends */
		if (ssdt_aer_handle(ctrl, result) &&
		    READ_ONCE(ctrl->state) == SSDT_LIVE)
			ssdt_aer_post(ctrl);
	}
}

/*
 * The controller is live (probe, or a reset done): ask for the events the
 * driver handles and post the requests.  Failing here costs the events,
 * not the controller.
 */
void ssdt_aer_start(struct ssdt_ctrl *ctrl)
{
	u32 aec = NVME_SMART_CRIT_SPARE | NVME_SMART_CRIT_TEMPERATURE |
		  NVME_SMART_CRIT_RELIABILITY | NVME_SMART_CRIT_MEDIA |
		  NVME_SMART_CRIT_VOLATILE_MEMORY;
	unsigned int i, n = min_t(unsigned int, ctrl->aerl + 1, SSDT_AER_MAX);
	int ret;

	aec |= ctrl->oaes & (NVME_AEN_CFG_NS_ATTR | NVME_AEN_CFG_FW_ACT);
	ret = ssdt_set_feature(ctrl, NVME_FEAT_ASYNC_EVENT, aec);
	if (ret)
		dev_info(ssdt_dev(ctrl), "asynchronous event configuration refused (%d): reporting what the controller sends\n",
			 ret);
	for (i = 0; i < n; i++) {
		ret = ssdt_aer_post(ctrl);
		if (ret) {
			dev_warn(ssdt_dev(ctrl), "could not post asynchronous event requests (%d)\n",
				 ret);
			break;
		}
	}
}

void ssdt_aer_init(struct ssdt_ctrl *ctrl)
{
	spin_lock_init(&ctrl->aer_lock);
	INIT_WORK(&ctrl->aer_work, ssdt_aer_work);
}

/*
 * For good (the controller is taken down): no event work runs or will
 * run, whatever completes from now on.
 */
void ssdt_aer_stop(struct ssdt_ctrl *ctrl)
{
	spin_lock_irq(&ctrl->aer_lock);
	ctrl->aer_stopped = true;
	ctrl->aer_n = 0;
	spin_unlock_irq(&ctrl->aer_lock);
	cancel_work_sync(&ctrl->aer_work);
}
