/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt coalescing logic for ssdtune: NVMe feature encodings, the
 * profile table and the host-side moderation decision.  Pure functions:
 * no hardware access, so KUnit reaches them directly.
 */
#ifndef SSDT_COALESCE_H
#define SSDT_COALESCE_H

#include <linux/ssdtune.h>
#include <linux/time64.h>
#include <linux/types.h>

/* The modes and the profiles: include/uapi/linux/ssdtune_knobs.h */
enum ssdt_coalesce_mode {
#define SSDTUNE_COALESCE_MODE(id, word)	SSDT_COALESCE_##id,
#include <linux/ssdtune_knobs.h>
	SSDT_COALESCE_NR_MODES,
};

enum ssdt_coalesce_profile_id {
#define SSDTUNE_COALESCE_PROFILE(id, word)	SSDT_PROFILE_##id,
#include <linux/ssdtune_knobs.h>
	SSDT_NR_PROFILES,
};

struct ssdt_coalesce {
	enum ssdt_coalesce_mode mode;
	u32 threshold;		/* completions, 0..256, 0: no threshold */
	u32 time_us;		/* 0..25500 */
	bool adaptive;		/* host: threshold and time are ceilings */
};

extern const char *const ssdt_coalesce_mode_names[SSDT_COALESCE_NR_MODES];

struct ssdt_coalesce_profile {
	const char *name;
	struct ssdt_coalesce c;
};

extern const struct ssdt_coalesce_profile ssdt_coalesce_profiles[SSDT_NR_PROFILES];
extern const unsigned int ssdt_coalesce_nr_profiles;

/* The profile named @name, or NULL. */
const struct ssdt_coalesce_profile *ssdt_coalesce_profile_find(const char *name);

/* The name of the profile that @c matches exactly, or "custom". */
const char *ssdt_coalesce_profile_name(const struct ssdt_coalesce *c);

union ssdt_knob_val;

/*
 * Writes to coalesce_mode (a mode name), coalesce_threshold
 * (0..SSDTUNE_COALESCE_MAX_THRESHOLD), coalesce_time_us
 * (0..SSDTUNE_COALESCE_MAX_TIME_US) and coalesce_profile (a profile name)
 * onto @v->coalesce: 0, or -EINVAL with @v as it was.  A mode, threshold
 * or time written by hand makes the setting static (not adaptive); a
 * profile sets all four.
 */
int ssdt_coalesce_parse_mode(union ssdt_knob_val *v, const char *buf);
int ssdt_coalesce_parse_threshold(union ssdt_knob_val *v, const char *buf);
int ssdt_coalesce_parse_time(union ssdt_knob_val *v, const char *buf);
int ssdt_coalesce_parse_profile(union ssdt_knob_val *v, const char *buf);

/* Feature 0x08 dword 11: threshold 0-based in bits 7:0, time in 100 us units in 15:8. */
u32 ssdt_coalesce_encode(u32 threshold, u32 time_us);
void ssdt_coalesce_decode(u32 dw11, u32 *threshold, u32 *time_us);

/* Feature 0x09 dword 11 for vector @iv, coalescing disabled or not. */
u32 ssdt_irq_config_encode(u16 iv, bool disable);

/* Which mode is really in force for @mode on a device whose hw is @hw_ok. */
enum ssdt_coalesce_mode ssdt_coalesce_effective(enum ssdt_coalesce_mode mode,
						bool hw_ok);

/*
 * Host moderation (ssdt_coalesce_dev.c).  After an interrupt that reaped
 * completions while commands are still outstanding, the vector is masked
 * and a timer polls the CQ in windows.  A window starts at the last reap;
 * it ends (reap) when the completions waiting reach ssdt_mod_want(), or
 * when it reaches time_us.  The queue stays in polling mode while a reap
 * takes two or more (or one while the mean depth is 2 or more), or
 * nothing came but commands are outstanding; it goes back to interrupts
 * (unmask) after a reap of one at a mean depth below 2, after a whole
 * window with nothing outstanding, or when moderation is switched off.
 */
enum ssdt_mod_action {
	SSDT_MOD_WAIT,		/* keep the vector masked, tick again */
	SSDT_MOD_REAP,		/* reap if any, stay polling: a new window */
	SSDT_MOD_EXIT,		/* reap what is posted, unmask, stop polling */
};

struct ssdt_mod_view {
	u32 pending;		/* completions posted, not reaped */
	u32 outstanding;	/* commands submitted, not reaped */
	u32 threshold;		/* 0: no threshold */
	u32 time_us;		/* 0: moderation off */
	u32 depth;		/* mean depth at reaps (ssdt_mod_est) */
	u64 now_ns;
	u64 start_ns;		/* start of the window (the last reap) */
};

/* After an interrupt's reap: start holding?  @outstanding after the reap. */
bool ssdt_mod_should_hold(u32 time_us, u32 outstanding);

/* Completions a window waits for: min(@threshold, half of @outstanding). */
u32 ssdt_mod_want(u32 outstanding, u32 threshold);

/* At a timer tick while holding. */
enum ssdt_mod_action ssdt_mod_decide(const struct ssdt_mod_view *v);

/* Default timer step: a quarter of the hold time, 10 us at least. */
u64 ssdt_mod_tick_ns(u32 time_us);

/*
 * Absolute time of the next tick: @eta_ns on (10 us at least), or one
 * default step when there is no estimate (@eta_ns 0), but never past the
 * window's end, so no completion waits longer than time_us.
 */
u64 ssdt_mod_next_ns(u32 time_us, u64 now_ns, u64 start_ns, u64 eta_ns);

/*
 * Adaptive profile: per-queue estimate of the depth (commands in flight
 * at a reap) and of the time between completions, both EWMAs with weight
 * 1/8.  Documentation/driver.md gives the rule.  A sample with @now_ns 0
 * (a reap that left the queue idle: nothing to time, and the clock is
 * not read on that path) updates the depth only and drops the time
 * baseline, so an idle gap is never taken for a completion interval.
 */
struct ssdt_mod_est {
	u32 depth_x16;		/* mean depth, 1/16 units */
	u32 gap_ns;		/* mean time between completions */
	u64 last_ns;		/* time of the previous sample, 0: none */
	u32 busy_x256;		/* share of reaps that interrupted a task */
};

#define SSDT_MOD_EST_MAX_GAP_NS	(10 * NSEC_PER_MSEC)

void ssdt_mod_est_update(struct ssdt_mod_est *e, u32 inflight, u32 reaped,
			 u64 now_ns);

/*
 * A reap's interrupt or timer tick found its CPU running a task (@busy),
 * not idle: the share of such reaps (EWMA, weight 1/8, 1/256 units) says
 * whether interrupts wake a sleeping submitter or take CPU from work.
 */
void ssdt_mod_est_busy(struct ssdt_mod_est *e, bool busy);

/* When @want completions are expected, @pending being there (0: unknown). */
u64 ssdt_mod_eta_ns(const struct ssdt_mod_est *e, u32 want, u32 pending);

/*
 * At a mean depth of this or less, adaptive does not moderate, unless the
 * CPU is busy (busy_x256 at SSDT_MOD_ADAPT_BUSY or more): then a mean
 * depth over SSDT_MOD_ADAPT_BUSY_MIN_DEPTH gets the ceilings.
 */
#define SSDT_MOD_ADAPT_MIN_DEPTH	4
#define SSDT_MOD_ADAPT_BUSY		224	/* 7/8 of the reaps */
#define SSDT_MOD_ADAPT_BUSY_MIN_DEPTH	1

/* Threshold and time for the estimate @e, within @max_thr / @max_time_us. */
void ssdt_mod_adapt(const struct ssdt_mod_est *e, u32 max_thr, u32 max_time_us,
		    u32 *thr, u32 *time_us);

#endif
