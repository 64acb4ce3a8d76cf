// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the APST table (kmod/ssdt_apst.c): the stock nvme
 * driver's table of Linux 6.1 with its default parameters, on power
 * states shaped like a client drive's.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/ssdtune.h>

#include "../ssdt_apst.h"
#include "../ssdt_knob.h"

/* An entry's target state and idle time. */
static u64 entry(int ps, u32 ms)
{
	return ((u64)ps << 3) | ((u64)ms << 8);
}

/*
 * PS0-2 operational; PS3 non-operational, 2 + 2 ms; PS4 non-operational,
 * 10 + 40 ms: a typical client drive.
 */
static void client_drive(struct nvme_id_power_state *psd)
{
	memset(psd, 0, 32 * sizeof(*psd));
	psd[3].flags = NVME_PS_FLAGS_NON_OP_STATE;
	psd[3].entry_lat = cpu_to_le32(2000);
	psd[3].exit_lat = cpu_to_le32(2000);
	psd[4].flags = NVME_PS_FLAGS_NON_OP_STATE;
	psd[4].entry_lat = cpu_to_le32(10000);
	psd[4].exit_lat = cpu_to_le32(40000);
}

static void stock_default_two_steps(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];
	int i;

	client_drive(psd);
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, SSDT_APST_DEFAULT_LAT_US,
					      false, t), 4);
	/* the operational states go to PS3 after 100 ms idle */
	for (i = 0; i <= 2; i++)
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t[i]), entry(3, 100));
	/* PS3 goes on to PS4 after 2 s */
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[3]), entry(4, 2000));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[4]), 0ull);
	for (i = 5; i < SSDT_APST_ENTRIES; i++)
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t[i]), 0ull);
}

static void tolerance_drops_slow_states(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];

	client_drive(psd);
	/* PS4 exits in 40 ms: over a 10 ms tolerance */
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, 10000, false, t), 3);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[0]), entry(3, 100));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[3]), 0ull);
	/* under 2 ms: none at all */
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, 1999, false, t), -1);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[0]), 0ull);
}

static void zero_is_off(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];
	int i;

	client_drive(psd);
	memset(t, 0xff, sizeof(t));
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, 0, false, t), -1);
	for (i = 0; i < SSDT_APST_ENTRIES; i++)
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t[i]), 0ull);
}

static void no_deepest_quirk(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];

	client_drive(psd);
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, SSDT_APST_DEFAULT_LAT_US,
					      true, t), 3);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[0]), entry(3, 100));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[3]), 0ull);
}

static void one_state_per_step(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];

	/* two shallow non-operational states: only the deeper takes step 1 */
	client_drive(psd);
	psd[4].entry_lat = cpu_to_le32(3000);
	psd[4].exit_lat = cpu_to_le32(5000);
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, SSDT_APST_DEFAULT_LAT_US,
					      false, t), 4);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[0]), entry(4, 100));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[3]), entry(4, 100));
	/* a state beyond 100 ms total is never a target */
	client_drive(psd);
	psd[4].entry_lat = cpu_to_le32(60000);
	psd[4].exit_lat = cpu_to_le32(60000);
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 4, 200000, false, t), 3);
}

static void only_operational_states(struct kunit *test)
{
	struct nvme_id_power_state psd[32];
	__le64 t[SSDT_APST_ENTRIES];

	/* QEMU: one operational state */
	memset(psd, 0, sizeof(psd));
	KUNIT_EXPECT_EQ(test, ssdt_apst_build(psd, 0, SSDT_APST_DEFAULT_LAT_US,
					      false, t), -1);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t[0]), 0ull);
}

static void parse_range(struct kunit *test)
{
	union ssdt_knob_val v = { .apst = { .max_latency_us = 7 } };

	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "0\n"), 0);
	KUNIT_EXPECT_EQ(test, v.apst.max_latency_us, 0u);
	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "100000000"), 0);
	KUNIT_EXPECT_EQ(test, v.apst.max_latency_us, (u32)SSDTUNE_APST_MAX_LATENCY_US);
	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "100000001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_apst_parse(&v, "10ms"), -EINVAL);
	KUNIT_EXPECT_EQ(test, v.apst.max_latency_us, (u32)SSDTUNE_APST_MAX_LATENCY_US);
}

static struct kunit_case ssdt_apst_cases[] = {
	KUNIT_CASE(stock_default_two_steps),
	KUNIT_CASE(tolerance_drops_slow_states),
	KUNIT_CASE(zero_is_off),
	KUNIT_CASE(no_deepest_quirk),
	KUNIT_CASE(one_state_per_step),
	KUNIT_CASE(only_operational_states),
	KUNIT_CASE(parse_range),
	{}
};

static struct kunit_suite ssdt_apst_suite = {
	.name = "ssdtune_apst",
	.test_cases = ssdt_apst_cases,
};

kunit_test_suite(ssdt_apst_suite);
