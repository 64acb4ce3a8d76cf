/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings behind ssdtune's writable sysfs knobs, one member for each
 * group of knobs set together under one lock.  A write is parsed onto a
 * copy of its group's settings by a parser in ssdt_coalesce.c,
 * ssdt_power.c or ssdt_apst.c (pure: KUnit reaches them; poll_queues's is
 * ssdt_knob_parse_u32()), and the driver
 * applies the copy as a whole.  The knob tables, their one store and their one show
 * are described in ssdt.h.
 */
#ifndef SSDT_KNOB_H
#define SSDT_KNOB_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include "ssdt_apst.h"
#include "ssdt_coalesce.h"
#include "ssdt_power.h"

union ssdt_knob_val {
	struct ssdt_coalesce coalesce;	/* coalesce_* */
	struct ssdt_power_setting power;	/* power_limit_mw, power_limit_mode, energy_model */
	struct ssdt_apst_setting apst;	/* apst_max_latency_us */
	u32 poll_queues;		/* poll_queues */
};

/*
 * A decimal number up to @max onto *@val.  Anything else (a lone newline,
 * a sign, junk, an overflow) is -EINVAL and leaves *@val as it was.
 */
static inline int ssdt_knob_parse_u32(const char *buf, u32 max, u32 *val)
{
	u32 n;

	if (kstrtou32(buf, 10, &n) || n > max)
		return -EINVAL;
	*val = n;
	return 0;
}

#endif
