// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt coalescing for ssdtune: encodings of NVMe features 0x08
 * (Interrupt Coalescing) and 0x09 (Interrupt Vector Configuration), the
 * profiles, and the host-side moderation rule.  Documentation/driver.md
 * explains the choice of values.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include "ssdt_coalesce.h"
#include "ssdt_knob.h"

const char *const ssdt_coalesce_mode_names[SSDT_COALESCE_NR_MODES] = {
/* in the order of the enum, built from the same lines */
#define SSDTUNE_COALESCE_MODE(id, word)	word,
#include <linux/ssdtune_knobs.h>
};

/*
 * What each profile of the uapi table sets: a profile added there without
 * a line here does not build.
 */
#define SSDT_PROFILE_SET_OFF		{ SSDT_COALESCE_OFF, 0, 0, false }
#define SSDT_PROFILE_SET_LATENCY	{ SSDT_COALESCE_AUTO, 4, 100, false }
#define SSDT_PROFILE_SET_BALANCED	{ SSDT_COALESCE_AUTO, 16, 500, false }
#define SSDT_PROFILE_SET_IOPS		{ SSDT_COALESCE_AUTO, 64, 2000, false }
#define SSDT_PROFILE_SET_ADAPTIVE	{ SSDT_COALESCE_HOST, 64, 2000, true }

const struct ssdt_coalesce_profile ssdt_coalesce_profiles[SSDT_NR_PROFILES] = {
#define SSDTUNE_COALESCE_PROFILE(id, word)	\
	[SSDT_PROFILE_##id] = { word, SSDT_PROFILE_SET_##id },
#include <linux/ssdtune_knobs.h>
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
		    p->time_us == c->time_us && p->adaptive == c->adaptive)
			return ssdt_coalesce_profiles[i].name;
	}
	return "custom";
}

int ssdt_coalesce_parse_mode(union ssdt_knob_val *v, const char *buf)
{
	int mode = sysfs_match_string(ssdt_coalesce_mode_names, buf);

	if (mode < 0)
		return -EINVAL;
	v->coalesce.mode = mode;
	v->coalesce.adaptive = false;
	return 0;
}

/* A threshold or a time, @field of @v, up to @max. */
static int ssdt_coalesce_parse_u32(union ssdt_knob_val *v, u32 *field,
				   u32 max, const char *buf)
{
	if (ssdt_knob_parse_u32(buf, max, field))
		return -EINVAL;
	v->coalesce.adaptive = false;
	return 0;
}

int ssdt_coalesce_parse_threshold(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_coalesce_parse_u32(v, &v->coalesce.threshold,
				       SSDTUNE_COALESCE_MAX_THRESHOLD, buf);
}

int ssdt_coalesce_parse_time(union ssdt_knob_val *v, const char *buf)
{
	return ssdt_coalesce_parse_u32(v, &v->coalesce.time_us,
				       SSDTUNE_COALESCE_MAX_TIME_US, buf);
}

int ssdt_coalesce_parse_profile(union ssdt_knob_val *v, const char *buf)
{
	const struct ssdt_coalesce_profile *p = ssdt_coalesce_profile_find(buf);

	if (!p)
		return -EINVAL;
	v->coalesce = p->c;
	return 0;
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

bool ssdt_mod_should_hold(u32 time_us, u32 outstanding)
{
	/* An idle queue (QD1 between commands) never waits. */
	return time_us && outstanding;
}

u32 ssdt_mod_want(u32 outstanding, u32 threshold)
{
	/* Never wait for the last half: the device would run dry. */
	u32 want = outstanding / 2 + (outstanding & 1);

	return threshold ? min(want, threshold) : want;
}

enum ssdt_mod_action ssdt_mod_decide(const struct ssdt_mod_view *v)
{
	u32 out = max(v->outstanding, v->pending);
	bool window_over = v->now_ns >= v->start_ns + (u64)v->time_us * NSEC_PER_USEC;

	if (!v->time_us)
		return SSDT_MOD_EXIT;
	/*
	 * Nothing posted: wait out the window (a busy queue that drained is
	 * usually refilled at once); then unmask if it is still idle, or
	 * open a new window if commands are out.
	 */
	if (!v->pending)
		return !window_over ? SSDT_MOD_WAIT :
		       out ? SSDT_MOD_REAP : SSDT_MOD_EXIT;
	if (v->pending < ssdt_mod_want(out, v->threshold) && !window_over)
		return SSDT_MOD_WAIT;
	/*
	 * Two or more per wake-up beat interrupts: go on polling.  So does
	 * a single one on a queue that is busy on average: a submitter
	 * that just took a large batch has not refilled the queue yet.
	 */
	return v->pending >= 2 || v->depth >= 2 ? SSDT_MOD_REAP : SSDT_MOD_EXIT;
}

u64 ssdt_mod_tick_ns(u32 time_us)
{
	return max_t(u64, (u64)time_us * 1000 / 4, 10 * 1000);
}

u64 ssdt_mod_next_ns(u32 time_us, u64 now_ns, u64 start_ns, u64 eta_ns)
{
	u64 end = start_ns + (u64)time_us * NSEC_PER_USEC;
	u64 step = eta_ns ? max_t(u64, eta_ns, 10 * 1000) : ssdt_mod_tick_ns(time_us);

	return min(now_ns + step, max(end, now_ns));
}

u64 ssdt_mod_eta_ns(const struct ssdt_mod_est *e, u32 want, u32 pending)
{
	return want > pending ? (u64)e->gap_ns * (want - pending) : 0;
}

void ssdt_mod_est_update(struct ssdt_mod_est *e, u32 inflight, u32 reaped,
			 u64 now_ns)
{
	u64 gap;

	e->depth_x16 = e->depth_x16 - e->depth_x16 / 8 + min(inflight, 65536U) * 2;
	if (!now_ns) {
		e->last_ns = 0;
		return;
	}
	if (e->last_ns && reaped && now_ns > e->last_ns) {
		gap = div_u64(now_ns - e->last_ns, reaped);
		gap = min_t(u64, gap, SSDT_MOD_EST_MAX_GAP_NS);
		e->gap_ns = e->gap_ns - e->gap_ns / 8 + (u32)gap / 8;
	}
	e->last_ns = now_ns;
}

void ssdt_mod_est_busy(struct ssdt_mod_est *e, bool busy)
{
	e->busy_x256 = e->busy_x256 - e->busy_x256 / 8 + (busy ? 32 : 0);
}

void ssdt_mod_adapt(const struct ssdt_mod_est *e, u32 max_thr, u32 max_time_us,
		    u32 *thr, u32 *time_us)
{
	/*
	 * A quarter of the mean depth per window (4 wake-ups per round trip),
	 * 2 at least: a queue the device drains as fast as it is filled
	 * shows a low depth however deep the submitter's queue is, and there
	 * every completion per interrupt counts.
	 */
	u32 t = max(e->depth_x16 / 64, 2U);
	u64 us;

	if (max_thr)
		t = min(t, max_thr);
	/*
	 * Interrupts that nearly always find the CPU at work (not idle) take
	 * CPU from the submitter: there a queue of two or more is held up to
	 * the ceilings, and ssdt_mod_want()'s half-the-outstanding rule
	 * keeps the device fed; the CPU saved goes into submitting more, so
	 * the depth grows.  Interrupts that wake an idle CPU only wake a
	 * waiting submitter: there a shallow queue is not held.
	 */
	if (e->busy_x256 >= SSDT_MOD_ADAPT_BUSY &&
	    e->depth_x16 > SSDT_MOD_ADAPT_BUSY_MIN_DEPTH * 16 &&
	    (!max_thr || max_thr >= 2)) {
		*thr = max_thr;
		*time_us = max_time_us;
		return;
	}
	if (e->depth_x16 <= SSDT_MOD_ADAPT_MIN_DEPTH * 16 || t < 2) {
		/*
		 * Shallow queues run as with moderation off: there a held
		 * completion costs the submitter more than the interrupt.
		 */
		*thr = 0;
		*time_us = 0;
		return;
	}
	/*
	 * Twice the time the threshold takes to gather at the current rate
	 * (the ceiling while there is no rate yet), 10 us at least: the
	 * shortest timer tick.
	 */
	us = e->gap_ns ? div_u64((u64)e->gap_ns * t * 2, NSEC_PER_USEC) :
			 max_time_us;
	*thr = t;
	*time_us = clamp_t(u64, us, min(max_time_us, 10U), max_time_us);
}
