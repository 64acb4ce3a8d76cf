// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt coalescing for ssdtune: encodings of NVMe features 0x08
 * (Interrupt Coalescing) and 0x09 (Interrupt Vector Configuration), the
 * profiles, and the host-side moderation rule.  Documentation/driver.md
 * explains the choice of values.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "ssdt_coalesce.h"

const char *const ssdt_coalesce_mode_names[SSDT_COALESCE_NR_MODES] = {
	[SSDT_COALESCE_OFF] = "off",
	[SSDT_COALESCE_HW] = "hw",
	[SSDT_COALESCE_HOST] = "host",
	[SSDT_COALESCE_AUTO] = "auto",
};

const struct ssdt_coalesce_profile ssdt_coalesce_profiles[] = {
	{ "off",      { SSDT_COALESCE_OFF,  0,  0 } },
	{ "latency",  { SSDT_COALESCE_AUTO, 4,  100 } },
	{ "balanced", { SSDT_COALESCE_AUTO, 16, 500 } },
	{ "iops",     { SSDT_COALESCE_AUTO, 64, 2000 } },
};

const unsigned int ssdt_coalesce_nr_profiles = ARRAY_SIZE(ssdt_coalesce_profiles);

const struct ssdt_coalesce_profile *ssdt_coalesce_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdt_coalesce_profiles); i++)
		if (sysfs_streq(name, ssdt_coalesce_profiles[i].name))
			return &ssdt_coalesce_profiles[i];
	return NULL;
}

const char *ssdt_coalesce_profile_name(const struct ssdt_coalesce *c)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdt_coalesce_profiles); i++) {
		const struct ssdt_coalesce *p = &ssdt_coalesce_profiles[i].c;

		if (p->mode == c->mode && p->threshold == c->threshold &&
		    p->time_us == c->time_us)
			return ssdt_coalesce_profiles[i].name;
	}
	return "custom";
}

u32 ssdt_coalesce_encode(u32 threshold, u32 time_us)
{
	u32 thr = threshold ? min_t(u32, threshold, 256) - 1 : 0;
	u32 time = DIV_ROUND_CLOSEST(min_t(u32, time_us, 25500), 100);

	return thr | (time << 8);
}

void ssdt_coalesce_decode(u32 dw11, u32 *threshold, u32 *time_us)
{
	*threshold = (dw11 & 0xff) + 1;
	*time_us = ((dw11 >> 8) & 0xff) * 100;
}

u32 ssdt_irq_config_encode(u16 iv, bool disable)
{
	return iv | (disable ? 1u << 16 : 0);
}

enum ssdt_coalesce_mode ssdt_coalesce_effective(enum ssdt_coalesce_mode mode,
						bool hw_ok)
{
	if (mode == SSDT_COALESCE_AUTO)
		return hw_ok ? SSDT_COALESCE_HW : SSDT_COALESCE_HOST;
	return mode;
}

bool ssdt_mod_should_release(u32 pending, u32 threshold, u32 time_us,
			     u64 now_ns, u64 end_ns)
{
	if (!time_us)
		return true;
	if (threshold && pending >= threshold)
		return true;
	return now_ns >= end_ns;
}

u64 ssdt_mod_tick_ns(u32 time_us)
{
	return max_t(u64, (u64)time_us * 1000 / 4, 10 * 1000);
}
