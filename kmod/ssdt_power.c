// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe power state descriptors (Identify Controller bytes 3071:2048) as
 * ssdtune shows them.  Max power is in 0.01 W units, or 0.0001 W when the
 * MXPS flag is set; idle and active power carry a 2-bit scale (1: 0.0001 W,
 * 2: 0.01 W, 0: not reported).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "ssdt_knob.h"
#include "ssdt_power.h"

const char *const ssdt_power_mode_names[SSDT_POWER_NR_MODES] = {
	[SSDT_POWER_OFF] = SSDTUNE_POWER_MODE_OFF,
/* in the order of the enum, built from the same lines */
#define SSDTUNE_POWER_MODE(id, word)	word,
#include <linux/ssdtune_knobs.h>
};

int ssdt_power_parse_limit(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_knob_parse_u32(buf, SSDTUNE_POWER_MAX_MW, &v->power.limit_mw);
}

int ssdt_power_parse_mode(union ssdt_knob_val *v, const char *buf)
{
	int mode = sysfs_match_string(ssdt_power_mode_names, buf);

	if (mode <= SSDT_POWER_OFF)	/* no match, or "off" */
		return -EINVAL;
	v->power.mode = mode;
	return 0;
}

int ssdt_power_parse_model(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_energy_parse(&v->power.model, buf);
}

u32 ssdt_ps_max_mw(const struct nvme_id_power_state *ps)
{
	u32 v = le16_to_cpu(ps->max_power);

	if (ps->flags & NVME_PS_FLAGS_MAX_POWER_SCALE)
		return v / 10;
	return v * 10;
}

s64 ssdt_ps_scaled_mw(u16 value, u8 scale)
{
	switch (scale & 3) {
	case 1:
		return value / 10;
	case 2:
		return (s64)value * 10;
	default:
		return -1;
	}
}

static int ssdt_fmt_mw(char *buf, size_t len, s64 mw)
{
	if (mw < 0)
		return scnprintf(buf, len, "-");
	return scnprintf(buf, len, "%lld.%03lld", mw / 1000, mw % 1000);
}

int ssdt_ps_format(const struct nvme_id_power_state *ps, unsigned int idx,
		   char *buf, size_t len)
{
	char idle[24], active[24];
	u32 mw = ssdt_ps_max_mw(ps);

	ssdt_fmt_mw(idle, sizeof(idle),
		    ssdt_ps_scaled_mw(le16_to_cpu(ps->idle_power),
				      ps->idle_scale >> 6));
	ssdt_fmt_mw(active, sizeof(active),
		    ssdt_ps_scaled_mw(le16_to_cpu(ps->active_power),
				      ps->active_work_scale >> 6));
	return scnprintf(buf, len,
			 "ps%u %s max_w=%u.%03u entry_us=%u exit_us=%u rrt=%u rrl=%u rwt=%u rwl=%u idle_w=%s active_w=%s\n",
			 idx,
			 ps->flags & NVME_PS_FLAGS_NON_OP_STATE ?
				"non-operational" : "operational",
			 mw / 1000, mw % 1000,
			 le32_to_cpu(ps->entry_lat), le32_to_cpu(ps->exit_lat),
			 ps->read_tput & 0x1f, ps->read_lat & 0x1f,
			 ps->write_tput & 0x1f, ps->write_lat & 0x1f,
			 idle, active);
}

/* Relative read plus write throughput: lower is faster (0 is fastest). */
static unsigned int ssdt_ps_tput_rank(const struct nvme_id_power_state *ps)
{
	return (ps->read_tput & 0x1f) + (ps->write_tput & 0x1f);
}

/*
 * The specification numbers states so that max power does not increase with
 * the index, but a table need not be sorted by speed: pick the fitting
 * operational state with the best relative throughput, then the one allowed
 * the most power, then the lowest index.
 */
int ssdt_ps_select(const struct nvme_id_power_state *psd, unsigned int npss,
		   u32 limit_mw)
{
	int best = -ERANGE;
	unsigned int i;

	for (i = 0; i <= npss; i++) {
		const struct nvme_id_power_state *ps = &psd[i], *b;

		if (ps->flags & NVME_PS_FLAGS_NON_OP_STATE)
			continue;
		if (ssdt_ps_max_mw(ps) > limit_mw)
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		b = &psd[best];
		if (ssdt_ps_tput_rank(ps) < ssdt_ps_tput_rank(b) ||
		    (ssdt_ps_tput_rank(ps) == ssdt_ps_tput_rank(b) &&
		     ssdt_ps_max_mw(ps) > ssdt_ps_max_mw(b)))
			best = i;
	}
	return best;
}
