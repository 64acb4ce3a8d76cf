// SPDX-License-Identifier: GPL-2.0
/*
 * ssdtune device features: Get and Set Features, which of interrupt
 * coalescing (0x08/0x09) and power management (0x02) the controller lets
 * the host change (Get Features, SEL=3 "supported capabilities"), the
 * power state table, the current power state and the composite
 * temperature.
 */
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include "ssdt.h"
#include "ssdt_power.h"

#define SSDT_FEAT_SEL_CURRENT	0
#define SSDT_FEAT_SEL_CAPS	3
#define SSDT_FEAT_CAP_CHANGEABLE	BIT(2)

int ssdt_get_feature(struct ssdt_ctrl *ctrl, u8 fid, u8 sel, u32 dw11,
		     u32 *result)
{
	struct nvme_command cmd = { };
	int ret;

	cmd.features.opcode = nvme_admin_get_features;
	cmd.features.fid = cpu_to_le32(fid | (sel << 8));
	cmd.features.dword11 = cpu_to_le32(dw11);
	ret = ssdt_admin_exec(ctrl, &cmd, result);
	return ret > 0 ? -EIO : ret;
}

int ssdt_set_feature(struct ssdt_ctrl *ctrl, u8 fid, u32 dw11)
{
	struct nvme_command cmd = { };
	int ret;

	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(fid);
	cmd.features.dword11 = cpu_to_le32(dw11);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret > 0) {
		dev_warn(ssdt_dev(ctrl), "Set Features %#x = %#x failed: status %#x\n",
			 fid, dw11, ret);
		ret = -EIO;
	}
	return ret;
}

/*
 * The Command Retry Delay: a controller that reports delays (CRDT1-3)
 * uses them only once the host says it honours them (Host Behavior
 * Support, ACRE), as stock nvme does at every start.  Without that, or
 * when the controller refuses, the delays stay unused (crdt cleared).
 */
void ssdt_acre_enable(struct ssdt_ctrl *ctrl)
{
	struct nvme_command cmd = { };
	struct nvme_feat_host_behavior *host;
	dma_addr_t dma;
	int ret;

	if (!ctrl->crdt[0])
		return;
	host = dma_alloc_coherent(ssdt_dev(ctrl), sizeof(*host), &dma,
				  GFP_KERNEL);
	if (!host) {
		memset(ctrl->crdt, 0, sizeof(ctrl->crdt));
		return;
	}
	host->acre = NVME_ENABLE_ACRE;
	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(NVME_FEAT_HOST_BEHAVIOR);
	cmd.features.dptr.prp1 = cpu_to_le64(dma);
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (ret) {
		dev_warn(ssdt_dev(ctrl), "Set Features Host Behavior (retry delays) failed: %d; retrying without delays\n",
			 ret);
		memset(ctrl->crdt, 0, sizeof(ctrl->crdt));
	}
	dma_free_coherent(ssdt_dev(ctrl), sizeof(*host), host, dma);
}

static enum ssdt_feat_cap ssdt_feature_cap(struct ssdt_ctrl *ctrl, u8 fid,
					   u32 dw11)
{
	u32 caps;

	if (ssdt_get_feature(ctrl, fid, SSDT_FEAT_SEL_CAPS, dw11, &caps))
		return SSDT_CAP_UNKNOWN;
	return caps & SSDT_FEAT_CAP_CHANGEABLE ? SSDT_CAP_CHANGEABLE :
						 SSDT_CAP_FIXED;
}

/* Probe once at bind: the answers do not change while bound. */
void ssdt_features_probe(struct ssdt_ctrl *ctrl)
{
	enum ssdt_feat_cap agg, vec;

	agg = ssdt_feature_cap(ctrl, NVME_FEAT_IRQ_COALESCE, 0);
	vec = ssdt_feature_cap(ctrl, NVME_FEAT_IRQ_CONFIG, 1);
	ctrl->coalesce_cap = min(agg, vec);	/* both must change */
	ctrl->power_cap = ssdt_feature_cap(ctrl, NVME_FEAT_POWER_MGMT, 0);
}

static const char *ssdt_cap_name(enum ssdt_feat_cap cap)
{
	switch (cap) {
	case SSDT_CAP_CHANGEABLE:
		return "changeable";
	case SSDT_CAP_FIXED:
		return "not-changeable";
	default:
		return "unknown";
	}
}

SSDT_CTRL_ATTR_RO(coalesce_caps, "%s", ssdt_cap_name(ctrl->coalesce_cap));
SSDT_CTRL_ATTR_RO(power_caps, "%s %u", ssdt_cap_name(ctrl->power_cap),
		  ctrl->npss + 1);

static ssize_t power_states_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	int len = 0;
	unsigned int i;

	for (i = 0; i <= ctrl->npss; i++)
		len += ssdt_ps_format(&ctrl->psd[i], i, buf + len,
				      PAGE_SIZE - len);
	return len;
}
SSDT_ATTR_RO(power_states);

/*
 * Power state in force (Get Features 0x02), asked at most once a second
 * however often it is read: unprivileged readers cannot flood the admin
 * queue.  A Set Features through the power knobs forgets the cached one.
 */
static ssize_t power_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	int ret = 0;
	u32 ps;

	mutex_lock(&ctrl->health_mutex);
	if (!ctrl->ps_stamp || time_after(jiffies, ctrl->ps_stamp + HZ)) {
		ret = ssdt_get_feature(ctrl, NVME_FEAT_POWER_MGMT,
				       SSDT_FEAT_SEL_CURRENT, 0, &ps);
		if (!ret) {
			ctrl->ps = ps & 0x1f;
			ctrl->ps_stamp = jiffies;
		}
	}
	ps = ctrl->ps;
	mutex_unlock(&ctrl->health_mutex);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%u\n", ps);
}
SSDT_ATTR_RO(power_state);

/*
 * Get Log Page @lid (all namespaces), @len bytes (a multiple of 4, one
 * page at most) into @buf; reading it clears an asynchronous event that
 * named it.  0, a negative errno, or -EIO for an NVMe error status.
 */
int ssdt_get_log_page(struct ssdt_ctrl *ctrl, u8 lid, void *buf, size_t len)
{
	struct nvme_command cmd = { };
	u32 numd = len / 4 - 1;
	dma_addr_t dma;
	void *log;
	int ret;

	log = dma_alloc_coherent(ssdt_dev(ctrl), len, &dma, GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	cmd.get_log_page.opcode = nvme_admin_get_log_page;
	cmd.get_log_page.nsid = cpu_to_le32(NVME_NSID_ALL);
	cmd.get_log_page.lid = lid;
	cmd.get_log_page.numdl = cpu_to_le16(numd & 0xffff);
	cmd.get_log_page.numdu = cpu_to_le16(numd >> 16);
	cmd.get_log_page.dptr.prp1 = cpu_to_le64(dma);
	/* A timeout stops the controller before this returns: then free. */
	ret = ssdt_admin_exec(ctrl, &cmd, NULL);
	if (!ret)
		memcpy(buf, log, len);
	dma_free_coherent(ssdt_dev(ctrl), len, log, dma);
	return ret > 0 ? -EIO : ret;
}

/* Composite temperature from the SMART / health log, at most once a second. */
static int ssdt_read_temperature(struct ssdt_ctrl *ctrl, int *mc)
{
	struct nvme_smart_log *log;
	int ret = 0;

	mutex_lock(&ctrl->health_mutex);
	if (ctrl->temp_stamp && time_before(jiffies, ctrl->temp_stamp + HZ))
		goto out;
	log = kmalloc(sizeof(*log), GFP_KERNEL);
	if (!log) {
		ret = -ENOMEM;
		goto out;
	}
	ret = ssdt_get_log_page(ctrl, NVME_LOG_SMART, log, sizeof(*log));
	if (!ret) {
		/* Kelvin, little-endian 16 bits */
		u32 kelvin = log->temperature[0] | (log->temperature[1] << 8);

		ctrl->temp_mc = (int)kelvin * 1000 - 273150;
		ctrl->temp_stamp = jiffies;
	}
	kfree(log);
out:
	*mc = ctrl->temp_mc;
	mutex_unlock(&ctrl->health_mutex);
	return ret;
}

static ssize_t temperature_mc_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);
	int mc, ret;

	ret = ssdt_read_temperature(ctrl, &mc);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%d\n", mc);
}
SSDT_ATTR_RO(temperature_mc);

/* Identify Controller WCTEMP (kelvin) in millidegrees Celsius. */
static ssize_t temperature_warn_mc_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct ssdt_ctrl *ctrl = dev_get_drvdata(dev);

	if (!ctrl->wctemp)
		return -ENODATA;
	return sysfs_emit(buf, "%d\n", (int)ctrl->wctemp * 1000 - 273150);
}
SSDT_ATTR_RO(temperature_warn_mc);

static struct attribute *ssdt_feature_attrs[] = {
	&dev_attr_coalesce_caps.attr,
	&dev_attr_power_caps.attr,
	&dev_attr_power_states.attr,
	&dev_attr_power_state.attr,
	&dev_attr_temperature_mc.attr,
	&dev_attr_temperature_warn_mc.attr,
	NULL,
};

const struct attribute_group ssdt_feature_group = {
	.attrs = ssdt_feature_attrs,
};
