/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVMe power state descriptor helpers for ssdtune.  Pure functions: no
 * hardware access, so KUnit reaches them directly.
 */
#ifndef SSDT_POWER_H
#define SSDT_POWER_H

#include <linux/nvme.h>
#include <linux/types.h>

/* Max power of a state in milliwatts, whichever scale MXPS selects. */
u32 ssdt_ps_max_mw(const struct nvme_id_power_state *ps);

/* Idle or active power (with its 2-bit scale field) in milliwatts; -1: not reported. */
s64 ssdt_ps_scaled_mw(u16 value, u8 scale);

/* One readable line describing power state @idx; returns its length. */
int ssdt_ps_format(const struct nvme_id_power_state *ps, unsigned int idx,
		   char *buf, size_t len);

/*
 * The fastest operational state among @psd[0..npss] whose max power is at
 * most @limit_mw; -ERANGE when none fits.
 */
int ssdt_ps_select(const struct nvme_id_power_state *psd, unsigned int npss,
		   u32 limit_mw);

#endif
