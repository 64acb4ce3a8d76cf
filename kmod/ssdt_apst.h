/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Autonomous Power State Transitions: the table that tells the controller
 * which non-operational state to enter after how long idle in each state.
 * Pure (KUnit: kmod/tests/ssdt_apst_test.c); the knob and the Set Features
 * are in ssdt_apst_dev.c.  The table is the stock nvme driver's of Linux
 * 6.1 with its default parameters, so that an A/B against stock compares
 * the same idle behaviour.
 */
#ifndef SSDT_APST_H
#define SSDT_APST_H

#include <linux/nvme.h>
#include <linux/types.h>

/* Stock's default_ps_max_latency_us: the knob's value at attach. */
#define SSDT_APST_DEFAULT_LAT_US	100000u
/*
 * Stock's two steps: a state whose entry and exit latencies add up to at
 * most 15 ms is entered after 100 ms idle; one within 100 ms after 2 s.
 */
#define SSDT_APST_PRIMARY_MS		100
#define SSDT_APST_PRIMARY_TOL_US	15000
#define SSDT_APST_SECONDARY_MS		2000
#define SSDT_APST_SECONDARY_TOL_US	100000

#define SSDT_APST_ENTRIES		32

/* What the apst_max_latency_us knob sets. */
struct ssdt_apst_setting {
	u32 max_latency_us;		/* 0: APST off */
	bool supported;			/* reads "unsupported" otherwise */
};

/*
 * Fill @table (all 32 entries; each: the target state in bits 7:3 and the
 * idle time in ms in bits 31:8) for the power states @psd[0..@npss]: every
 * state gets as target the next deeper non-operational state whose exit
 * latency is at most @max_lat_us and whose entry plus exit latency falls
 * in one of the two steps; never the deepest state with @no_deepest (the
 * no_deepest_ps quirk).  Operational states are never targets: APST only
 * moves an idle controller down, the power limit picks among operational
 * states (Documentation/driver.md).  Returns the deepest state used, -1
 * when none qualifies (or @max_lat_us is 0: the table is all zeros).
 */
int ssdt_apst_build(const struct nvme_id_power_state *psd, unsigned int npss,
		    u32 max_lat_us, bool no_deepest,
		    __le64 table[SSDT_APST_ENTRIES]);

union ssdt_knob_val;

/* A write to apst_max_latency_us: 0..SSDTUNE_APST_MAX_LATENCY_US. */
int ssdt_apst_parse(union ssdt_knob_val *v, const char *buf);

#endif
