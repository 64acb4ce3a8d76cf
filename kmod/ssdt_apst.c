// SPDX-License-Identifier: GPL-2.0
/*
 * The APST table, without a device (ssdt_apst.h).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ssdtune.h>
#include "ssdt_apst.h"
#include "ssdt_knob.h"

/* Idle ms before entering a state of total latency @lat_us, 0: none. */
static u32 ssdt_apst_idle_ms(u64 lat_us, unsigned int *step)
{
	if (lat_us <= SSDT_APST_PRIMARY_TOL_US) {
		if (*step == 1)
			return 0;	/* a shallower state has this step */
		*step = 1;
		return SSDT_APST_PRIMARY_MS;
	}
	if (lat_us <= SSDT_APST_SECONDARY_TOL_US) {
		if (*step <= 2)
			return 0;
		*step = 2;
		return SSDT_APST_SECONDARY_MS;
	}
	return 0;
}

int ssdt_apst_build(const struct nvme_id_power_state *psd, unsigned int npss,
		    u32 max_lat_us, bool no_deepest,
		    __le64 table[SSDT_APST_ENTRIES])
{
	unsigned int step = UINT_MAX;
	__le64 target = 0;
	int state, deepest = -1;

	memset(table, 0, SSDT_APST_ENTRIES * sizeof(*table));
	if (!max_lat_us)
		return -1;
	npss = min_t(unsigned int, npss, SSDT_APST_ENTRIES - 1);
	/* from the deepest state up: each gets the deeper target found */
	for (state = npss; state >= 0; state--) {
		const struct nvme_id_power_state *ps = &psd[state];
		u64 exit_us, total_us;
		u32 ms;

		table[state] = target;
		if (state == npss && no_deepest)
			continue;
		if (!(ps->flags & NVME_PS_FLAGS_NON_OP_STATE))
			continue;
		exit_us = le32_to_cpu(ps->exit_lat);
		if (exit_us > max_lat_us)
			continue;
		total_us = exit_us + le32_to_cpu(ps->entry_lat);
		ms = ssdt_apst_idle_ms(total_us, &step);
		if (!ms)
			continue;
		target = cpu_to_le64(((u64)state << 3) | ((u64)ms << 8));
		if (deepest < 0)
			deepest = state;
	}
	return deepest;
}

int ssdt_apst_parse(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_knob_parse_u32(buf, SSDTUNE_APST_MAX_LATENCY_US,
				   &v->apst.max_latency_us);
}
