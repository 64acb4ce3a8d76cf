// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ssdtune's interrupt coalescing logic
 * (kmod/ssdt_coalesce.c): the dword 11 encodings of NVMe features 0x08
 * (Interrupt Coalescing: 0's based aggregation threshold in bits 7:0,
 * aggregation time in 100 us units in bits 15:8) and 0x09 (Interrupt
 * Vector Configuration: vector in bits 15:0, Coalescing Disable in bit 16),
 * the mode really in force, the profile table, the parsers of the
 * coalesce_* knobs and host-side moderation.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "../ssdt_coalesce.h"
#include "../ssdt_knob.h"

#define THR(dw)		((dw) & 0xff)
#define TIME(dw)	(((dw) >> 8) & 0xff)

static void coalesce_encode_threshold(struct kunit *test)
{
	/* 0's based; 0 ("no threshold") and 1 both come out as 0. */
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 0), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(1, 0), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(2, 0), 1U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(4, 0), 3U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(255, 0), 254U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(256, 0), 255U);
	/* Above the maximum: clamped, never spilling into the time field. */
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(257, 0), 255U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(1000, 0), 255U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(U32_MAX, 0), 255U);
}

static void coalesce_encode_time(struct kunit *test)
{
	/* Rounded to the nearest 100 us, placed in bits 15:8. */
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 0), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 49), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 50), 1U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 100), 1U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 149), 1U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 150), 2U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 500), 5U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25449), 254U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25450), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25500), 255U << 8);
	/* Above the maximum: clamped to 255, nothing above bit 15. */
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25549), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25550), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 25600), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, 1000000), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, U32_MAX - 50), 255U << 8);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(0, U32_MAX), 255U << 8);
}

static void coalesce_encode_fields(struct kunit *test)
{
	u32 dw;

	/* Both fields at once, each in its own byte. */
	dw = ssdt_coalesce_encode(16, 500);
	KUNIT_EXPECT_EQ(test, dw, 0x050fU);
	KUNIT_EXPECT_EQ(test, THR(dw), 15U);
	KUNIT_EXPECT_EQ(test, TIME(dw), 5U);

	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(4, 100), 0x0103U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(64, 2000), 0x143fU);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(256, 25500), 0xffffU);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(U32_MAX - 50, U32_MAX - 50),
			0xffffU);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(1, 25500), 0xff00U);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_encode(256, 0), 0x00ffU);
}

static void coalesce_decode_fields(struct kunit *test)
{
	u32 thr = 0xdead, time = 0xbeef;

	ssdt_coalesce_decode(0, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 1U);
	KUNIT_EXPECT_EQ(test, time, 0U);

	ssdt_coalesce_decode(0x050f, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 16U);
	KUNIT_EXPECT_EQ(test, time, 500U);

	ssdt_coalesce_decode(0xffff, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 256U);
	KUNIT_EXPECT_EQ(test, time, 25500U);

	/* Bits 31:16 are reserved: ignored. */
	ssdt_coalesce_decode(0xabcd0103, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 4U);
	KUNIT_EXPECT_EQ(test, time, 100U);
}

static void coalesce_round_trip(struct kunit *test)
{
	u32 dw, thr, time;

	/* Every dword 11 value decodes to a pair that encodes back to it. */
	for (dw = 0; dw <= 0xffff; dw++) {
		ssdt_coalesce_decode(dw, &thr, &time);
		if (thr < 1 || thr > SSDTUNE_COALESCE_MAX_THRESHOLD ||
		    time > SSDTUNE_COALESCE_MAX_TIME_US || time % 100 ||
		    ssdt_coalesce_encode(thr, time) != dw) {
			KUNIT_FAIL(test, "dw11 %#x -> threshold %u time %u us -> %#x",
				   dw, thr, time, ssdt_coalesce_encode(thr, time));
			return;
		}
	}

	/* Every encodable pair comes back unchanged. */
	for (thr = 1; thr <= SSDTUNE_COALESCE_MAX_THRESHOLD; thr++) {
		for (time = 0; time <= SSDTUNE_COALESCE_MAX_TIME_US; time += 100) {
			u32 t2, us2;

			ssdt_coalesce_decode(ssdt_coalesce_encode(thr, time),
					     &t2, &us2);
			if (t2 != thr || us2 != time) {
				KUNIT_FAIL(test, "threshold %u time %u us -> %u %u us",
					   thr, time, t2, us2);
				return;
			}
		}
	}
}

static void irq_config_encode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(0, false), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(0, true), 0x10000U);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(5, false), 5U);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(5, true), 0x10005U);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(0x8001, false), 0x8001U);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(0xffff, false), 0xffffU);
	KUNIT_EXPECT_EQ(test, ssdt_irq_config_encode(0xffff, true), 0x1ffffU);
}

static void coalesce_effective_mode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_OFF, true),
			SSDT_COALESCE_OFF);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_OFF, false),
			SSDT_COALESCE_OFF);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_HW, true),
			SSDT_COALESCE_HW);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_HW, false),
			SSDT_COALESCE_HW);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_HOST, true),
			SSDT_COALESCE_HOST);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_HOST, false),
			SSDT_COALESCE_HOST);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_AUTO, true),
			SSDT_COALESCE_HW);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(SSDT_COALESCE_AUTO, false),
			SSDT_COALESCE_HOST);
}

static void coalesce_mode_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, ssdt_coalesce_mode_names[SSDT_COALESCE_OFF], "off");
	KUNIT_EXPECT_STREQ(test, ssdt_coalesce_mode_names[SSDT_COALESCE_HW], "hw");
	KUNIT_EXPECT_STREQ(test, ssdt_coalesce_mode_names[SSDT_COALESCE_HOST], "host");
	KUNIT_EXPECT_STREQ(test, ssdt_coalesce_mode_names[SSDT_COALESCE_AUTO], "auto");
}

static void profile_find_each(struct kunit *test)
{
	/* in the order of include/uapi/linux/ssdtune_knobs.h */
	static const char *const names[] = {
		"balanced", "iops", "latency", "adaptive", "off"
	};
	char buf[32];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ssdt_coalesce_nr_profiles, (unsigned int)ARRAY_SIZE(names));
	for (i = 0; i < ssdt_coalesce_nr_profiles; i++) {
		const struct ssdt_coalesce_profile *p = &ssdt_coalesce_profiles[i];

		KUNIT_EXPECT_STREQ(test, p->name, names[i]);
		KUNIT_EXPECT_PTR_EQ(test, ssdt_coalesce_profile_find(p->name), p);
		/* As a sysfs write gives it. */
		snprintf(buf, sizeof(buf), "%s\n", p->name);
		KUNIT_EXPECT_PTR_EQ(test, ssdt_coalesce_profile_find(buf), p);
	}
}

static void profile_find_unknown(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find(""));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("\n"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("custom"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("fast"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("Latency"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("latenc"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("latencyy"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find(" iops"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("iops "));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("iops\n\n"));
	/* Mode names are not profile names (but for "off"). */
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("auto"));
	KUNIT_EXPECT_NULL(test, ssdt_coalesce_profile_find("hw"));
}

static void profile_name_round_trip(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ssdt_coalesce_nr_profiles; i++) {
		const struct ssdt_coalesce_profile *p = &ssdt_coalesce_profiles[i];
		struct ssdt_coalesce c = p->c;

		KUNIT_EXPECT_STREQ(test, ssdt_coalesce_profile_name(&c), p->name);

		/* One field off: no longer that profile, nor any other. */
		c = p->c;
		c.threshold++;
		KUNIT_EXPECT_STREQ_MSG(test, ssdt_coalesce_profile_name(&c), "custom",
				       "%s threshold + 1", p->name);
		c = p->c;
		c.time_us++;
		KUNIT_EXPECT_STREQ_MSG(test, ssdt_coalesce_profile_name(&c), "custom",
				       "%s time + 1", p->name);
		if (p->c.threshold) {
			c = p->c;
			c.threshold--;
			KUNIT_EXPECT_STREQ_MSG(test, ssdt_coalesce_profile_name(&c),
					       "custom", "%s threshold - 1", p->name);
		}
		if (p->c.time_us) {
			c = p->c;
			c.time_us--;
			KUNIT_EXPECT_STREQ_MSG(test, ssdt_coalesce_profile_name(&c),
					       "custom", "%s time - 1", p->name);
		}
		c = p->c;
		c.mode = p->c.mode == SSDT_COALESCE_HOST ? SSDT_COALESCE_HW :
							   SSDT_COALESCE_HOST;
		KUNIT_EXPECT_STREQ_MSG(test, ssdt_coalesce_profile_name(&c), "custom",
				       "%s other mode", p->name);
	}
}

static void profile_values_in_range(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ssdt_coalesce_nr_profiles; i++) {
		const struct ssdt_coalesce_profile *p = &ssdt_coalesce_profiles[i];

		KUNIT_EXPECT_LE_MSG(test, p->c.threshold,
				    (u32)SSDTUNE_COALESCE_MAX_THRESHOLD, "%s", p->name);
		KUNIT_EXPECT_LE_MSG(test, p->c.time_us,
				    (u32)SSDTUNE_COALESCE_MAX_TIME_US, "%s", p->name);
		KUNIT_EXPECT_LT_MSG(test, (int)p->c.mode, (int)SSDT_COALESCE_NR_MODES,
				    "%s", p->name);
		/* Names are unique and none is the "custom" fallback. */
		KUNIT_EXPECT_STRNEQ(test, p->name, "custom");
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, p->name, ssdt_coalesce_profiles[j].name);
	}
}

static void profile_survives_hw_readback(struct kunit *test)
{
	unsigned int i;

	/*
	 * In hw mode the driver keeps what the device reports back (feature
	 * 0x08 decoded), so every profile that coalesces must be exactly
	 * encodable, or it would read back as "custom".
	 */
	for (i = 0; i < ssdt_coalesce_nr_profiles; i++) {
		const struct ssdt_coalesce_profile *p = &ssdt_coalesce_profiles[i];
		struct ssdt_coalesce c = p->c;

		if (p->c.mode == SSDT_COALESCE_OFF)
			continue;
		ssdt_coalesce_decode(ssdt_coalesce_encode(p->c.threshold, p->c.time_us),
				     &c.threshold, &c.time_us);
		KUNIT_EXPECT_EQ_MSG(test, c.threshold, p->c.threshold, "%s", p->name);
		KUNIT_EXPECT_EQ_MSG(test, c.time_us, p->c.time_us, "%s", p->name);
		KUNIT_EXPECT_STREQ(test, ssdt_coalesce_profile_name(&c), p->name);
	}
}

static void profile_adaptive_flag(struct kunit *test)
{
	const struct ssdt_coalesce_profile *p = ssdt_coalesce_profile_find("adaptive");
	struct ssdt_coalesce c;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, p->c.adaptive);
	KUNIT_EXPECT_EQ(test, p->c.mode, SSDT_COALESCE_HOST);
	/* The same numbers without the estimator are not "adaptive". */
	c = p->c;
	c.adaptive = false;
	KUNIT_EXPECT_STREQ(test, ssdt_coalesce_profile_name(&c), "custom");
}

static void profile_off_is_off(struct kunit *test)
{
	const struct ssdt_coalesce_profile *p = ssdt_coalesce_profile_find("off");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->c.mode, SSDT_COALESCE_OFF);
	KUNIT_EXPECT_EQ(test, ssdt_coalesce_effective(p->c.mode, true),
			SSDT_COALESCE_OFF);
}

#define US	1000ULL

/* A view of a queue at a tick: window started at 1 ms, 500 us long. */
static struct ssdt_mod_view view(u32 pending, u32 outstanding, u32 thr,
				 u64 now_ns)
{
	struct ssdt_mod_view v = {
		.pending = pending, .outstanding = outstanding,
		.threshold = thr, .time_us = 500,
		.now_ns = now_ns, .start_ns = 1000 * US,
	};

	return v;
}

static enum ssdt_mod_action decide(u32 pending, u32 outstanding, u32 thr,
				   u64 now_ns)
{
	struct ssdt_mod_view v = view(pending, outstanding, thr, now_ns);

	return ssdt_mod_decide(&v);
}

/* Writes to the coalesce_* knobs, from the adaptive profile's setting. */
static const struct coalesce_write {
	int (*parse)(union ssdt_knob_val *v, const char *buf);
	const char *buf;
	int ret;
	struct ssdt_coalesce want;	/* when ret is 0 */
} coalesce_writes[] = {
	/* A mode, threshold or time written by hand is static. */
	{ ssdt_coalesce_parse_mode, "host", 0, { SSDT_COALESCE_HOST, 64, 2000 } },
	{ ssdt_coalesce_parse_mode, "off\n", 0, { SSDT_COALESCE_OFF, 64, 2000 } },
	{ ssdt_coalesce_parse_mode, "hw", 0, { SSDT_COALESCE_HW, 64, 2000 } },
	{ ssdt_coalesce_parse_mode, "auto\n", 0, { SSDT_COALESCE_AUTO, 64, 2000 } },
	{ ssdt_coalesce_parse_mode, "\n", -EINVAL },
	{ ssdt_coalesce_parse_mode, "", -EINVAL },
	{ ssdt_coalesce_parse_mode, "Host", -EINVAL },
	{ ssdt_coalesce_parse_mode, "host ", -EINVAL },
	{ ssdt_coalesce_parse_mode, "adaptive", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "0", 0, { SSDT_COALESCE_HOST, 0, 2000 } },
	{ ssdt_coalesce_parse_threshold, "256\n", 0, { SSDT_COALESCE_HOST, 256, 2000 } },
	{ ssdt_coalesce_parse_threshold, "+7", 0, { SSDT_COALESCE_HOST, 7, 2000 } },
	{ ssdt_coalesce_parse_threshold, "257", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "-1", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "\n", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "8x", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "0x10", -EINVAL },
	{ ssdt_coalesce_parse_threshold, "4294967296", -EINVAL },
	{ ssdt_coalesce_parse_time, "0\n", 0, { SSDT_COALESCE_HOST, 64, 0 } },
	{ ssdt_coalesce_parse_time, "25500", 0, { SSDT_COALESCE_HOST, 64, 25500 } },
	{ ssdt_coalesce_parse_time, "25501", -EINVAL },
	{ ssdt_coalesce_parse_time, "1 2", -EINVAL },
	{ ssdt_coalesce_parse_time, "\n", -EINVAL },
	/* A profile sets all four. */
	{ ssdt_coalesce_parse_profile, "latency\n", 0, { SSDT_COALESCE_AUTO, 4, 100 } },
	{ ssdt_coalesce_parse_profile, "adaptive", 0,
	  { SSDT_COALESCE_HOST, 64, 2000, true } },
	{ ssdt_coalesce_parse_profile, "custom", -EINVAL },
	{ ssdt_coalesce_parse_profile, "\n", -EINVAL },
};

static void coalesce_knob_writes(struct kunit *test)
{
	const struct ssdt_coalesce from = { SSDT_COALESCE_HOST, 64, 2000, true };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(coalesce_writes); i++) {
		const struct coalesce_write *w = &coalesce_writes[i];
		const struct ssdt_coalesce *want = w->ret ? &from : &w->want;
		union ssdt_knob_val v = { .coalesce = from };

		KUNIT_EXPECT_EQ_MSG(test, w->parse(&v, w->buf), w->ret, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.coalesce.mode, want->mode, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.coalesce.threshold, want->threshold, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.coalesce.time_us, want->time_us, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.coalesce.adaptive, want->adaptive, "%d", i);
	}
}

static void mod_hold_only_when_busy(struct kunit *test)
{
	/* Idle queue after the interrupt's reap (QD1): never hold. */
	KUNIT_EXPECT_FALSE(test, ssdt_mod_should_hold(500, 0));
	KUNIT_EXPECT_TRUE(test, ssdt_mod_should_hold(500, 1));
	KUNIT_EXPECT_TRUE(test, ssdt_mod_should_hold(1, 1023));
	/* Moderation off. */
	KUNIT_EXPECT_FALSE(test, ssdt_mod_should_hold(0, 0));
	KUNIT_EXPECT_FALSE(test, ssdt_mod_should_hold(0, 32));
}

static void mod_want(struct kunit *test)
{
	/* Half of what is outstanding (rounded up), at most the threshold. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(32, 64), 16U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(128, 64), 64U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(1024, 256), 256U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(3, 64), 2U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(1, 64), 1U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(0, 64), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(32, 4), 4U);
	/* No threshold: half alone. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(8, 0), 4U);
	KUNIT_EXPECT_EQ(test, ssdt_mod_want(U32_MAX, 0), U32_MAX / 2 + 1);
}

static void mod_threshold_reached(struct kunit *test)
{
	u64 mid = 1200 * US;

	/* Before the window ends only the count decides. */
	KUNIT_EXPECT_EQ(test, decide(15, 64, 16, mid), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(16, 64, 16, mid), SSDT_MOD_REAP);
	KUNIT_EXPECT_EQ(test, decide(17, 64, 16, mid), SSDT_MOD_REAP);
	KUNIT_EXPECT_EQ(test, decide(2, 64, 2, mid), SSDT_MOD_REAP);
	KUNIT_EXPECT_EQ(test, decide(255, 1024, 256, mid), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(256, 1024, 256, mid), SSDT_MOD_REAP);
	/* One completion per wake-up is no better than interrupts... */
	KUNIT_EXPECT_EQ(test, decide(1, 64, 1, mid), SSDT_MOD_EXIT);
}

static void mod_single_on_busy_queue(struct kunit *test)
{
	struct ssdt_mod_view v = view(1, 1, 64, 1200 * US);

	/* ...unless the queue is busy on average (not refilled yet). */
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_EXIT);
	v.depth = 1;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_EXIT);
	v.depth = 2;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_REAP);
	v.depth = 30;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_REAP);
	/* Idle for a whole window: unmask whatever the history. */
	v.pending = 0;
	v.outstanding = 0;
	v.now_ns = 1500 * US;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_EXIT);
}

static void mod_outstanding_below_threshold(struct kunit *test)
{
	u64 mid = 1200 * US;

	/* 32 in flight, threshold 64: half of them, the device keeps busy. */
	KUNIT_EXPECT_EQ(test, decide(15, 32, 64, mid), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(16, 32, 64, mid), SSDT_MOD_REAP);
	/* 3 in flight: 2 of them (rounded up). */
	KUNIT_EXPECT_EQ(test, decide(1, 3, 64, mid), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(2, 3, 64, mid), SSDT_MOD_REAP);
	KUNIT_EXPECT_EQ(test, decide(3, 3, 64, mid), SSDT_MOD_REAP);
	/* Racy counters may show fewer outstanding than posted. */
	KUNIT_EXPECT_EQ(test, decide(4, 3, 64, mid), SSDT_MOD_REAP);
	/* Down to QD1-2: one per wake-up, back to interrupts. */
	KUNIT_EXPECT_EQ(test, decide(1, 2, 64, mid), SSDT_MOD_EXIT);
	KUNIT_EXPECT_EQ(test, decide(1, 1, 64, mid), SSDT_MOD_EXIT);
	KUNIT_EXPECT_EQ(test, decide(1, 0, 64, mid), SSDT_MOD_EXIT);
	/* No threshold: half of what is outstanding. */
	KUNIT_EXPECT_EQ(test, decide(3, 8, 0, mid), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(4, 8, 0, mid), SSDT_MOD_REAP);
}

static void mod_timer_expiry(struct kunit *test)
{
	u64 end = 1500 * US;

	KUNIT_EXPECT_EQ(test, decide(3, 64, 16, end - 1), SSDT_MOD_WAIT);
	/* At the window's end whatever is posted goes... */
	KUNIT_EXPECT_EQ(test, decide(3, 64, 16, end), SSDT_MOD_REAP);
	KUNIT_EXPECT_EQ(test, decide(3, 3, 16, U64_MAX), SSDT_MOD_REAP);
	/* ...a single one is a light load: back to interrupts... */
	KUNIT_EXPECT_EQ(test, decide(1, 64, 0, end + 1), SSDT_MOD_EXIT);
	/* A whole window without a completion, commands out: a new one. */
	KUNIT_EXPECT_EQ(test, decide(0, 64, 16, end - 1), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(0, 64, 16, end), SSDT_MOD_REAP);
}

static void mod_idle_queue(struct kunit *test)
{
	/*
	 * Nothing outstanding, nothing posted: the window is waited out (a
	 * busy queue that drained is usually refilled at once), then the
	 * vector is unmasked.
	 */
	KUNIT_EXPECT_EQ(test, decide(0, 0, 16, 1000 * US), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(0, 0, 0, 1499 * US), SSDT_MOD_WAIT);
	KUNIT_EXPECT_EQ(test, decide(0, 0, 16, 1500 * US), SSDT_MOD_EXIT);
	KUNIT_EXPECT_EQ(test, decide(0, 0, 0, U64_MAX), SSDT_MOD_EXIT);
	/* Refilled meanwhile: polling goes on. */
	KUNIT_EXPECT_EQ(test, decide(2, 4, 16, 1200 * US), SSDT_MOD_REAP);
}

static void mod_knob_change_mid_window(struct kunit *test)
{
	struct ssdt_mod_view v = view(3, 64, 16, 1200 * US);

	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_WAIT);
	/* Threshold lowered below what is waiting: release now. */
	v.threshold = 2;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_REAP);
	/* Time shortened: the window is measured with the new bound. */
	v.threshold = 16;
	v.time_us = 200;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_REAP);
	v.time_us = 201;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_WAIT);
	/* Moderation switched off: release and unmask, whatever waits. */
	v.time_us = 0;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_EXIT);
	v.pending = 0;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_EXIT);
	/* Raised: the open window simply lasts longer. */
	v.pending = 3;
	v.time_us = 25500;
	v.now_ns = 20000 * US;
	KUNIT_EXPECT_EQ(test, ssdt_mod_decide(&v), SSDT_MOD_WAIT);
}

static void mod_next_tick(struct kunit *test)
{
	/* No estimate: one default step on while the window lasts... */
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 0, 0, 0), 500 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 1000 * US, 0, 0), 1500 * US);
	/* ...never past its end, so no completion waits beyond time_us... */
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 1600 * US, 0, 0), 2000 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(20, 0, 0, 0), 10 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(5, 0, 0, 0), 5 * US);
	/* ...and never in the past. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(100, 500 * US, 0, 0), 500 * US);
	/* With an estimate: when the count should be there. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 0, 0, 1300 * US), 1300 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 0, 0, 3000 * US), 2000 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_next_ns(2000, 0, 0, 1), 10 * US);
}

static void mod_eta(struct kunit *test)
{
	struct ssdt_mod_est e = { .gap_ns = 100 * US };

	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, 16, 0), 1600 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, 16, 10), 600 * US);
	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, 16, 16), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, 16, 20), 0ULL);
	e.gap_ns = 0;
	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, 16, 0), 0ULL);
	/* No overflow: u32 gap times a u32 count. */
	e.gap_ns = U32_MAX;
	KUNIT_EXPECT_EQ(test, ssdt_mod_eta_ns(&e, U32_MAX, 0), (u64)U32_MAX * U32_MAX);
}

static void mod_est_converges(struct kunit *test)
{
	struct ssdt_mod_est e = { };
	unsigned int i;

	/* 32 in flight, one completion every 100 us, 8 per sample. */
	for (i = 1; i <= 200; i++)
		ssdt_mod_est_update(&e, 32, 8, i * 800 * US);
	KUNIT_EXPECT_GE(test, e.depth_x16, 31U * 16);
	KUNIT_EXPECT_LE(test, e.depth_x16, 32U * 16);
	KUNIT_EXPECT_GE(test, e.gap_ns, (u32)(99 * US));
	KUNIT_EXPECT_LE(test, e.gap_ns, (u32)(100 * US));
	/* The first sample has no gap; idle gaps are capped. */
	e = (struct ssdt_mod_est){ };
	ssdt_mod_est_update(&e, 1, 1, 5 * US);
	KUNIT_EXPECT_EQ(test, e.gap_ns, 0U);
	ssdt_mod_est_update(&e, 1, 1, 100000 * US);
	KUNIT_EXPECT_EQ(test, e.gap_ns, (u32)(SSDT_MOD_EST_MAX_GAP_NS / 8));
	/* No completion, no gap sample (and no division by zero). */
	ssdt_mod_est_update(&e, 1, 0, 200000 * US);
	KUNIT_EXPECT_EQ(test, e.gap_ns, (u32)(SSDT_MOD_EST_MAX_GAP_NS / 8));
	/*
	 * An idle reap (time 0) moves the depth, keeps the gap and drops the
	 * baseline: the next timed reap is a first sample again.
	 */
	e = (struct ssdt_mod_est){ .depth_x16 = 32 * 16, .gap_ns = 50 * US };
	ssdt_mod_est_update(&e, 8, 8, 10 * US);
	ssdt_mod_est_update(&e, 1, 1, 0);
	KUNIT_EXPECT_EQ(test, e.last_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, e.gap_ns, (u32)(50 * US));
	KUNIT_EXPECT_LT(test, e.depth_x16, 32U * 16);
	ssdt_mod_est_update(&e, 8, 8, 9000 * US);
	KUNIT_EXPECT_EQ(test, e.gap_ns, (u32)(50 * US));
	KUNIT_EXPECT_EQ(test, e.last_ns, 9000ULL * US);
}

static void mod_adapt_rule(struct kunit *test)
{
	struct ssdt_mod_est e = { .gap_ns = 100 * US };
	u32 thr = 99, time = 99;

	/* QD1 .. QD4 (a mean depth of 4 or less): as with mode off. */
	e.depth_x16 = 1 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	e.depth_x16 = SSDT_MOD_ADAPT_MIN_DEPTH * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	/* Deeper, to QD11: two per window, twice the time two take. */
	e.depth_x16 = SSDT_MOD_ADAPT_MIN_DEPTH * 16 + 1;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 2U);
	KUNIT_EXPECT_EQ(test, time, 400U);
	e.depth_x16 = 11 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 2U);
	/* A threshold ceiling under 2 means no moderation. */
	ssdt_mod_adapt(&e, 1, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	/* QD32: a quarter of the depth, twice the time it takes to gather. */
	e.depth_x16 = 32 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 8U);
	KUNIT_EXPECT_EQ(test, time, 1600U);
	/* QD128: 32 per window and the time ceiling; deeper, both ceilings. */
	e.depth_x16 = 128 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 32U);
	KUNIT_EXPECT_EQ(test, time, 2000U);
	e.depth_x16 = 1024 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 64U);
	/* Fast device: short windows, 10 us at least. */
	e.gap_ns = 100;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 12U);
	e.depth_x16 = 8 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 2U);
	KUNIT_EXPECT_EQ(test, time, 10U);
	/* No rate yet: the ceiling; ceilings below the floor win. */
	e.gap_ns = 0;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 2000U);
	ssdt_mod_adapt(&e, 64, 5, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 5U);
	ssdt_mod_adapt(&e, 64, 0, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
}

static void mod_est_busy_share(struct kunit *test)
{
	struct ssdt_mod_est e = { };
	int i;

	/* Every reap at work: the share converges to all of them. */
	for (i = 0; i < 64; i++)
		ssdt_mod_est_busy(&e, true);
	KUNIT_EXPECT_GE(test, e.busy_x256, 250U);
	KUNIT_EXPECT_LE(test, e.busy_x256, 256U);
	KUNIT_EXPECT_GE(test, e.busy_x256, (u32)SSDT_MOD_ADAPT_BUSY);
	/* Three of four at work: about 3/4, under the threshold. */
	for (i = 0; i < 256; i++)
		ssdt_mod_est_busy(&e, i % 4 != 0);
	KUNIT_EXPECT_GE(test, e.busy_x256, 176U);
	KUNIT_EXPECT_LE(test, e.busy_x256, 208U);
	KUNIT_EXPECT_LT(test, e.busy_x256, (u32)SSDT_MOD_ADAPT_BUSY);
	/* Idle from then on: it decays to (almost) nothing. */
	for (i = 0; i < 72; i++)
		ssdt_mod_est_busy(&e, false);
	KUNIT_EXPECT_LT(test, e.busy_x256, 8U);
	/* Back at work: over the threshold again within 16 reaps. */
	for (i = 0; i < 16; i++)
		ssdt_mod_est_busy(&e, true);
	KUNIT_EXPECT_GE(test, e.busy_x256, (u32)SSDT_MOD_ADAPT_BUSY);
}

static void mod_adapt_busy_cpu(struct kunit *test)
{
	struct ssdt_mod_est e = { .gap_ns = 100 * US };
	u32 thr = 99, time = 99;

	/* QD2-4 on a CPU that is often idle: as with mode off. */
	e.depth_x16 = 3 * 16;
	e.busy_x256 = SSDT_MOD_ADAPT_BUSY - 1;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	/* The same queue on a CPU nearly always at work: the ceilings. */
	e.busy_x256 = SSDT_MOD_ADAPT_BUSY;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 64U);
	KUNIT_EXPECT_EQ(test, time, 2000U);
	/* ... and so for a deep queue. */
	e.depth_x16 = 32 * 16;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 64U);
	KUNIT_EXPECT_EQ(test, time, 2000U);
	/* A mean depth of one or less is never held, busy or not. */
	e.depth_x16 = SSDT_MOD_ADAPT_BUSY_MIN_DEPTH * 16;
	e.busy_x256 = 256;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	/* A threshold ceiling under 2 means no moderation here either. */
	e.depth_x16 = 8 * 16;
	ssdt_mod_adapt(&e, 1, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, time, 0U);
	/* Not busy: a deep queue follows the depth, as before. */
	e.depth_x16 = 32 * 16;
	e.busy_x256 = 0;
	ssdt_mod_adapt(&e, 64, 2000, &thr, &time);
	KUNIT_EXPECT_EQ(test, thr, 8U);
	KUNIT_EXPECT_EQ(test, time, 1600U);
}

static void mod_tick(struct kunit *test)
{
	/* A quarter of the hold time, in ns. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(100), 25000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(500), 125000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(2000), 500000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(25500), 6375000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(41), 10250ULL);
	/* 10 us at least. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(40), 10000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(39), 10000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(1), 10000ULL);
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(0), 10000ULL);
	/* No overflow in the u64 arithmetic. */
	KUNIT_EXPECT_EQ(test, ssdt_mod_tick_ns(U32_MAX), (u64)U32_MAX * 250);
}

static struct kunit_case ssdt_coalesce_cases[] = {
	KUNIT_CASE(coalesce_encode_threshold),
	KUNIT_CASE(coalesce_encode_time),
	KUNIT_CASE(coalesce_encode_fields),
	KUNIT_CASE(coalesce_decode_fields),
	KUNIT_CASE(coalesce_round_trip),
	KUNIT_CASE(irq_config_encode),
	KUNIT_CASE(coalesce_effective_mode),
	KUNIT_CASE(coalesce_mode_names),
	KUNIT_CASE(profile_find_each),
	KUNIT_CASE(profile_find_unknown),
	KUNIT_CASE(profile_name_round_trip),
	KUNIT_CASE(profile_values_in_range),
	KUNIT_CASE(profile_survives_hw_readback),
	KUNIT_CASE(profile_adaptive_flag),
	KUNIT_CASE(profile_off_is_off),
	KUNIT_CASE(coalesce_knob_writes),
	KUNIT_CASE(mod_hold_only_when_busy),
	KUNIT_CASE(mod_want),
	KUNIT_CASE(mod_threshold_reached),
	KUNIT_CASE(mod_single_on_busy_queue),
	KUNIT_CASE(mod_outstanding_below_threshold),
	KUNIT_CASE(mod_timer_expiry),
	KUNIT_CASE(mod_idle_queue),
	KUNIT_CASE(mod_knob_change_mid_window),
	KUNIT_CASE(mod_tick),
	KUNIT_CASE(mod_next_tick),
	KUNIT_CASE(mod_eta),
	KUNIT_CASE(mod_est_converges),
	KUNIT_CASE(mod_adapt_rule),
	KUNIT_CASE(mod_est_busy_share),
	KUNIT_CASE(mod_adapt_busy_cpu),
	{}
};

static struct kunit_suite ssdt_coalesce_suite = {
	.name = "ssdtune_coalesce",
	.test_cases = ssdt_coalesce_cases,
};

kunit_test_suite(ssdt_coalesce_suite);
