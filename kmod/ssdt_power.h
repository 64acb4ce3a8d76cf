/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NVMe power state descriptor helpers for ssdtune.  Pure functions: no
 * hardware access, so KUnit reaches them directly.
 */
#ifndef SSDT_POWER_H
#define SSDT_POWER_H

#include <linux/nvme.h>
#include <linux/ssdtune.h>
#include <linux/types.h>
#include "ssdt_budget.h"

/* The modes power_limit_mode takes: include/uapi/linux/ssdtune_knobs.h */
enum ssdt_power_mode {
	SSDT_POWER_OFF,		/* read only: no limit active */
#define SSDTUNE_POWER_MODE(id, word)	SSDT_POWER_##id,
#include <linux/ssdtune_knobs.h>
	SSDT_POWER_NR_MODES,
};

extern const char *const ssdt_power_mode_names[SSDT_POWER_NR_MODES];

/* What power_limit_mw, power_limit_mode and energy_model set together. */
struct ssdt_power_setting {
	u32 limit_mw;			/* 0: unlimited */
	enum ssdt_power_mode mode;	/* hw, host or auto */
	struct ssdt_energy_model model;
};

union ssdt_knob_val;

/*
 * Writes to power_limit_mw (0..SSDTUNE_POWER_MAX_MW), power_limit_mode (hw,
 * host or auto: "off" is not a mode) and energy_model (ssdt_energy_parse())
 * onto @v->power: 0, or -EINVAL with @v as it was.
 */
int ssdt_power_parse_limit(union ssdt_knob_val *v, const char *buf);
int ssdt_power_parse_mode(union ssdt_knob_val *v, const char *buf);
int ssdt_power_parse_model(union ssdt_knob_val *v, const char *buf);

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
