// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune APST on the device: the apst_max_latency_us knob, Set Features
 * 0Ch with the table ssdt_apst.c builds, at every bring-up (probe: the
 * default_ps_max_latency_us parameter, as stock; reset: the value in
 * force, since a controller reset forgets the feature).
 */
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include "ssdt.h"

static unsigned int ssdt_apst_default_us = SSDT_APST_DEFAULT_LAT_US;
module_param_named(default_ps_max_latency_us, ssdt_apst_default_us, uint, 0644);
MODULE_PARM_DESC(default_ps_max_latency_us,
		 "APST at attach: the deepest idle state whose exit latency is within this many us, 0 = off (default 100000)");

/* The controller has APST and no quirk forbids it (or the debug hook). */
static bool ssdt_apst_capable(struct ssdt_ctrl *ctrl)
{
	return (ctrl->apsta || ssdt_debug_apsta()) &&
	       !(ctrl->quirks & SSDT_QUIRK_NO_APST);
}

/*
 * Set Features 0Ch: the table for @lat_us (0: APST off).  Returns 0, the
 * NVMe status (positive), or a negative errno.
 */
static int ssdt_apst_send(struct ssdt_ctrl *ctrl, u32 lat_us, int *deepest)
{
	struct nvme_command cmd = { };
	__le64 *table;
	dma_addr_t dma;
	int ret;

	table = dma_alloc_coherent(ssdt_dev(ctrl), SSDT_APST_ENTRIES * sizeof(*table),
				   &dma, GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	*deepest = ssdt_apst_build(ctrl->psd, ctrl->npss, lat_us,
				   ctrl->quirks & SSDT_QUIRK_NO_DEEPEST_PS, table);
	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(NVME_FEAT_AUTO_PST);
	cmd.features.dword11 = cpu_to_le32(lat_us ? 1 : 0);	/* APSTE */
	cmd.features.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	dma_free_coherent(ssdt_dev(ctrl), SSDT_APST_ENTRIES * sizeof(*table),
			  table, dma);
	return ret;
}

/*
 * Bring-up, probe and reset alike (ssdt_ctrl_start()).  A refusal at
 * probe turns the knob to "unsupported" with a line; only a negative
 * errno (the controller stopped answering) fails the bring-up.
 */
int ssdt_apst_start(struct ssdt_ctrl *ctrl, bool reset)
{
	int ret = 0, deepest;

	mutex_lock(&ctrl->apst_mutex);
	if (!reset) {
		ctrl->apst_on = ssdt_apst_capable(ctrl);
		ctrl->apst_lat_us = READ_ONCE(ssdt_apst_default_us);
	}
	if (!ctrl->apst_on)
		goto out;
	ret = ssdt_apst_send(ctrl, ctrl->apst_lat_us, &deepest);
	if (ret > 0) {
		dev_warn(ssdt_dev(ctrl), "APST: the controller refused Set Features 0Ch (status %#x): left as the drive has it, apst_max_latency_us unsupported\n",
			 ret);
		ctrl->apst_on = false;
		ret = 0;
	} else if (!ret && !reset) {
		if (!ctrl->apst_lat_us)
			dev_info(ssdt_dev(ctrl), "APST off (default_ps_max_latency_us=0)\n");
		else if (deepest < 0)
			dev_info(ssdt_dev(ctrl), "APST on, but no idle state within %u us\n",
				 ctrl->apst_lat_us);
		else
			dev_info(ssdt_dev(ctrl), "APST on: idle down to PS%d, exit latency within %u us\n",
				 deepest, ctrl->apst_lat_us);
	}
out:
	mutex_unlock(&ctrl->apst_mutex);
	return ret < 0 ? ret : 0;
}

static struct mutex *ssdt_apst_lock(struct ssdt_ctrl *ctrl)
{
	return &ctrl->apst_mutex;
}

static void ssdt_apst_get(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->apst.max_latency_us = ctrl->apst_lat_us;
	v->apst.supported = ctrl->apst_on;
}

static void ssdt_apst_peek(struct ssdt_ctrl *ctrl, union ssdt_knob_val *v)
{
	v->apst.max_latency_us = READ_ONCE(ctrl->apst_lat_us);
	v->apst.supported = READ_ONCE(ctrl->apst_on);
}

static const struct ssdt_knob_group ssdt_apst_knobs = {
	.lock = ssdt_apst_lock,
	.get = ssdt_apst_get,
	.peek = ssdt_apst_peek,
};

/* A write: the new table now; on any error the one in force stays. */
static int ssdt_apst_apply(struct ssdt_ctrl *ctrl, const union ssdt_knob_val *v)
{
	int ret, deepest;

	if (!ctrl->apst_on)
		return -EOPNOTSUPP;
	if (READ_ONCE(ctrl->state) != SSDT_LIVE)
		return -EBUSY;
	ret = ssdt_apst_send(ctrl, v->apst.max_latency_us, &deepest);
	if (ret > 0) {
		dev_warn(ssdt_dev(ctrl), "APST: Set Features 0Ch refused (status %#x): %u us stays\n",
			 ret, ctrl->apst_lat_us);
		return -EIO;
	}
	if (ret)
		return ret;
	WRITE_ONCE(ctrl->apst_lat_us, v->apst.max_latency_us);
	return 0;
}

static ssize_t apst_max_latency_us_show(const union ssdt_knob_val *v, char *buf)
{
	if (!v->apst.supported)
		return sysfs_emit(buf, "%s\n", SSDTUNE_APST_UNSUPPORTED);
	return sysfs_emit(buf, "%u\n", v->apst.max_latency_us);
}

SSDT_KNOB(apst_max_latency_us, ssdt_apst_knobs, ssdt_apst_parse,
	  ssdt_apst_apply, false);

static struct attribute *ssdt_apst_attrs[] = {
	&ssdt_knob_apst_max_latency_us.attr.attr,
	NULL,
};

const struct attribute_group ssdt_apst_group = {
	.attrs = ssdt_apst_attrs,
};
