/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt coalescing logic for ssdtune: NVMe feature encodings, the
 * profile table and the host-side moderation decision.  Pure functions:
 * no hardware access, so KUnit reaches them directly.
 */
#ifndef SSDT_COALESCE_H
#define SSDT_COALESCE_H

#include <linux/types.h>

#define SSDT_COALESCE_MAX_THRESHOLD	256
#define SSDT_COALESCE_MAX_TIME_US	25500

enum ssdt_coalesce_mode {
	SSDT_COALESCE_OFF,
	SSDT_COALESCE_HW,	/* NVMe features 0x08/0x09 on the device */
	SSDT_COALESCE_HOST,	/* moderation in the driver */
	SSDT_COALESCE_AUTO,	/* hw where the device lets it change, else host */
	SSDT_COALESCE_NR_MODES,
};

struct ssdt_coalesce {
	enum ssdt_coalesce_mode mode;
	u32 threshold;		/* completions, 0..256, 0: no threshold */
	u32 time_us;		/* 0..25500 */
};

extern const char *const ssdt_coalesce_mode_names[SSDT_COALESCE_NR_MODES];

struct ssdt_coalesce_profile {
	const char *name;
	struct ssdt_coalesce c;
};

extern const struct ssdt_coalesce_profile ssdt_coalesce_profiles[];
extern const unsigned int ssdt_coalesce_nr_profiles;

/* The profile named @name, or NULL. */
const struct ssdt_coalesce_profile *ssdt_coalesce_profile_find(const char *name);

/* The name of the profile that @c matches exactly, or "custom". */
const char *ssdt_coalesce_profile_name(const struct ssdt_coalesce *c);

/* Feature 0x08 dword 11: threshold 0-based in bits 7:0, time in 100 us units in 15:8. */
u32 ssdt_coalesce_encode(u32 threshold, u32 time_us);
void ssdt_coalesce_decode(u32 dw11, u32 *threshold, u32 *time_us);

/* Feature 0x09 dword 11 for vector @iv, coalescing disabled or not. */
u32 ssdt_irq_config_encode(u16 iv, bool disable);

/* Which mode is really in force for @mode on a device whose hw is @hw_ok. */
enum ssdt_coalesce_mode ssdt_coalesce_effective(enum ssdt_coalesce_mode mode,
						bool hw_ok);

/*
 * Host moderation, checked at each timer tick while a vector is held
 * masked: end the hold (reap, unmask) when @pending completions reach the
 * threshold, or when @now_ns reaches the hold's end, or when moderation was
 * switched off (@time_us == 0).
 */
bool ssdt_mod_should_release(u32 pending, u32 threshold, u32 time_us,
			     u64 now_ns, u64 end_ns);

/* Timer tick while holding: a quarter of the hold time, 10 us at least. */
u64 ssdt_mod_tick_ns(u32 time_us);

#endif
