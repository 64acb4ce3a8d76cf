// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ssdtune's power state descriptor helpers
 * (kmod/ssdt_power.c): both max power scales, idle/active scales and the
 * sysfs line format.
 */
#include <kunit/test.h>
#include <linux/string.h>

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

static struct kunit_case ssdt_power_cases[] = {
	KUNIT_CASE(ps_max_centiwatts),
	KUNIT_CASE(ps_max_tenth_milliwatts),
	KUNIT_CASE(ps_scaled_power),
	KUNIT_CASE(ps_format_line),
	{}
};

static struct kunit_suite ssdt_power_suite = {
	.name = "ssdtune_power",
	.test_cases = ssdt_power_cases,
};

kunit_test_suite(ssdt_power_suite);
