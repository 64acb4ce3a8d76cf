// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ssdtune's power state descriptor helpers
 * (kmod/ssdt_power.c): both max power scales, idle/active scales, the
 * sysfs line format and the parsers of the power_limit_* and energy_model
 * knobs.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../ssdt_knob.h"
#include "../ssdt_power.h"

static void ps_max_centiwatts(struct kunit *test)
{
	struct nvme_id_power_state ps = { .max_power = cpu_to_le16(2500) };

	KUNIT_EXPECT_EQ(test, ssdt_ps_max_mw(&ps), 25000U);
}

static void ps_max_tenth_milliwatts(struct kunit *test)
{
	struct nvme_id_power_state ps = {
		.max_power = cpu_to_le16(35000),
		.flags = NVME_PS_FLAGS_MAX_POWER_SCALE,
	};

	KUNIT_EXPECT_EQ(test, ssdt_ps_max_mw(&ps), 3500U);
}

static void ps_scaled_power(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ssdt_ps_scaled_mw(500, 0), -1LL);
	KUNIT_EXPECT_EQ(test, ssdt_ps_scaled_mw(500, 1), 50LL);
	KUNIT_EXPECT_EQ(test, ssdt_ps_scaled_mw(500, 2), 5000LL);
	KUNIT_EXPECT_EQ(test, ssdt_ps_scaled_mw(500, 3), -1LL);
}

static void ps_format_line(struct kunit *test)
{
	struct nvme_id_power_state ps = {
		.max_power = cpu_to_le16(2500),
		.entry_lat = cpu_to_le32(16),
		.exit_lat = cpu_to_le32(4),
		.read_tput = 1,
		.idle_power = cpu_to_le16(350),
		.idle_scale = 2 << 6,
	};
	char buf[256];
	int n;

	n = ssdt_ps_format(&ps, 0, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "ps0 operational max_w=25.000 entry_us=16 exit_us=4 rrt=1 rrl=0 rwt=0 rwl=0 idle_w=3.500 active_w=-\n");

	ps.flags = NVME_PS_FLAGS_NON_OP_STATE | NVME_PS_FLAGS_MAX_POWER_SCALE;
	ps.max_power = cpu_to_le16(25);
	ssdt_ps_format(&ps, 4, buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, !strncmp(buf, "ps4 non-operational max_w=0.002 ", 32));
}

/* A synthetic table of @n states: max power field, flags, throughput rank. */
static void ps_table(struct nvme_id_power_state *psd, const u16 *max,
		     const u8 *flags, const u8 *rrt, unsigned int n)
{
	unsigned int i;

	memset(psd, 0, n * sizeof(*psd));
	for (i = 0; i < n; i++) {
		psd[i].max_power = cpu_to_le16(max[i]);
		psd[i].flags = flags[i];
		psd[i].read_tput = rrt[i];
		psd[i].write_tput = rrt[i];
	}
}

static void ps_select_centiwatts(struct kunit *test)
{
	/* 25 W, 18 W, 12 W operational; 5 W and 0.5 W non-operational */
	static const u16 max[] = { 2500, 1800, 1200, 500, 50 };
	static const u8 flags[] = { 0, 0, 0, NVME_PS_FLAGS_NON_OP_STATE,
				    NVME_PS_FLAGS_NON_OP_STATE };
	static const u8 rrt[] = { 0, 1, 2, 3, 4 };
	struct nvme_id_power_state psd[5];

	ps_table(psd, max, flags, rrt, 5);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 0xffffffff), 0);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 25000), 0);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 24999), 1);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 18000), 1);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 12000), 2);
	/* only non-operational states fit: never chosen for I/O */
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 11999), -ERANGE);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 500), -ERANGE);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 4, 0), -ERANGE);
}

static void ps_select_tenth_milliwatts(struct kunit *test)
{
	/* 8.25 W (0.01 W units); MXPS set: 3.5 W, 0.0025 W non-operational */
	static const u16 max[] = { 825, 35000, 25 };
	static const u8 flags[] = {
		0, NVME_PS_FLAGS_MAX_POWER_SCALE,
		NVME_PS_FLAGS_MAX_POWER_SCALE | NVME_PS_FLAGS_NON_OP_STATE,
	};
	static const u8 rrt[] = { 0, 1, 2 };
	struct nvme_id_power_state psd[3];

	ps_table(psd, max, flags, rrt, 3);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 8250), 0);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 8249), 1);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 3500), 1);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 3499), -ERANGE);
	/* one state only (QEMU: PS0 25.00 W) */
	psd[0].max_power = cpu_to_le16(2500);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 0, 30000), 0);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 0, 20000), -ERANGE);
}

static void ps_select_fastest_not_first(struct kunit *test)
{
	/* unsorted by speed: ps1 is faster than ps0 at the same power */
	static const u16 max[] = { 1000, 1000, 900 };
	static const u8 flags[] = { 0, 0, 0 };
	static const u8 rrt[] = { 2, 0, 0 };
	struct nvme_id_power_state psd[3];

	ps_table(psd, max, flags, rrt, 3);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 10000), 1);
	/* same speed: the one allowed more power */
	psd[1].read_tput = 0;
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 10000), 1);
	KUNIT_EXPECT_EQ(test, ssdt_ps_select(psd, 2, 9999), 2);
}

/* Writes to power_limit_mw, power_limit_mode and energy_model. */
static const struct power_write {
	int (*parse)(union ssdt_knob_val *v, const char *buf);
	const char *buf;
	int ret;
	u32 limit_mw;			/* when ret is 0 */
	enum ssdt_power_mode mode;
	u32 idle_mw;
} power_writes[] = {
	{ ssdt_power_parse_limit, "0", 0, 0, SSDT_POWER_AUTO, 5000 },
	{ ssdt_power_parse_limit, "1000000\n", 0, 1000000, SSDT_POWER_AUTO, 5000 },
	{ ssdt_power_parse_limit, "1000001", -EINVAL },
	{ ssdt_power_parse_limit, "-5", -EINVAL },
	{ ssdt_power_parse_limit, "5 W", -EINVAL },
	{ ssdt_power_parse_limit, "\n", -EINVAL },
	{ ssdt_power_parse_mode, "hw", 0, 8000, SSDT_POWER_HW, 5000 },
	{ ssdt_power_parse_mode, "host\n", 0, 8000, SSDT_POWER_HOST, 5000 },
	{ ssdt_power_parse_mode, "auto", 0, 8000, SSDT_POWER_AUTO, 5000 },
	{ ssdt_power_parse_mode, "off", -EINVAL },	/* active only */
	{ ssdt_power_parse_mode, "\n", -EINVAL },
	{ ssdt_power_parse_mode, "HW", -EINVAL },
	{ ssdt_power_parse_model, "idle_mw=100\n", 0, 8000, SSDT_POWER_AUTO, 100 },
	{ ssdt_power_parse_model, "idle_mw=1000001", -EINVAL },
	{ ssdt_power_parse_model, "\n", -EINVAL },
};

static void power_knob_writes(struct kunit *test)
{
	const struct ssdt_power_setting from = {
		8000, SSDT_POWER_AUTO, ssdt_energy_default
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(power_writes); i++) {
		const struct power_write *w = &power_writes[i];
		union ssdt_knob_val v = { .power = from };

		KUNIT_EXPECT_EQ_MSG(test, w->parse(&v, w->buf), w->ret, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.power.limit_mw,
				    w->ret ? from.limit_mw : w->limit_mw, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.power.mode,
				    w->ret ? from.mode : w->mode, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.power.model.idle_mw,
				    w->ret ? from.model.idle_mw : w->idle_mw, "%d", i);
		KUNIT_EXPECT_EQ_MSG(test, v.power.model.write_nj,
				    ssdt_energy_default.write_nj, "%d", i);
	}
}

static struct kunit_case ssdt_power_cases[] = {
	KUNIT_CASE(ps_select_centiwatts),
	KUNIT_CASE(ps_select_tenth_milliwatts),
	KUNIT_CASE(ps_select_fastest_not_first),
	KUNIT_CASE(ps_max_centiwatts),
	KUNIT_CASE(ps_max_tenth_milliwatts),
	KUNIT_CASE(ps_scaled_power),
	KUNIT_CASE(ps_format_line),
	KUNIT_CASE(power_knob_writes),
	{}
};

static struct kunit_suite ssdt_power_suite = {
	.name = "ssdtune_power",
	.test_cases = ssdt_power_cases,
};

kunit_test_suite(ssdt_power_suite);
