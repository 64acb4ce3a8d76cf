// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ssdtune's power budget (kmod/ssdt_budget.c): the energy
 * model and its text form, the moving-average estimate and the token
 * bucket, all on a fake clock.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "../ssdt_budget.h"

static void energy_cost_by_kind(struct kunit *test)
{
	const struct ssdt_energy_model *m = &ssdt_energy_default;

	KUNIT_EXPECT_EQ(test, ssdt_energy_cost(m, SSDT_OPC_READ, 4096),
			(u64)m->read_nj + 4 * m->read_nj_per_kib);
	KUNIT_EXPECT_EQ(test, ssdt_energy_cost(m, SSDT_OPC_WRITE, 131072),
			(u64)m->write_nj + 128 * m->write_nj_per_kib);
	KUNIT_EXPECT_EQ(test, ssdt_energy_cost(m, SSDT_OPC_OTHER, 1 << 30),
			(u64)m->other_nj);
	/* a 4 KiB read costs less than a 4 KiB write, more than no data */
	KUNIT_EXPECT_LT(test, ssdt_energy_cost(m, SSDT_OPC_READ, 4096),
			ssdt_energy_cost(m, SSDT_OPC_WRITE, 4096));
}

static void energy_of_counts(struct kunit *test)
{
	const struct ssdt_energy_model *m = &ssdt_energy_default;
	u64 cmds[SSDT_OPC_NR] = { 10, 2, 3 };
	u64 bytes[SSDT_OPC_NR] = { 10 * 4096, 2 * 8192, 0 };

	KUNIT_EXPECT_EQ(test, ssdt_energy_of(m, cmds, bytes),
			10 * ssdt_energy_cost(m, SSDT_OPC_READ, 4096) +
			2 * ssdt_energy_cost(m, SSDT_OPC_WRITE, 8192) +
			3 * ssdt_energy_cost(m, SSDT_OPC_OTHER, 0));
}

static void energy_parse_format(struct kunit *test)
{
	struct ssdt_energy_model m = ssdt_energy_default, keep;
	char buf[256];

	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw=1000 read_nj=7\n"), 0);
	KUNIT_EXPECT_EQ(test, m.idle_mw, 1000U);
	KUNIT_EXPECT_EQ(test, m.read_nj, 7U);
	KUNIT_EXPECT_EQ(test, m.write_nj, ssdt_energy_default.write_nj);

	ssdt_energy_format(&m, buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, !strncmp(buf, "idle_mw=1000 read_nj=7 read_nj_per_kib=", 39));
	keep = ssdt_energy_default;
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&keep, buf), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&keep, &m, sizeof(m)), 0);

	/* all or nothing */
	keep = m;
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw=1 bogus=2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw=1 read_nj=2x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw=1000001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "idle_mw=-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ssdt_energy_parse(&m, "\t\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&keep, &m, sizeof(m)), 0);
}

static void estimate_tracks_power(struct kunit *test)
{
	struct ssdt_estimate e;
	u64 t = 0, avg = 0;
	int i;

	ssdt_est_init(&e, t);
	/* 2 W of dynamic power: 20 mJ per 10 ms, sampled every 10 ms */
	for (i = 0; i < 100; i++) {
		t += 10 * NSEC_PER_MSEC;
		avg = ssdt_est_update(&e, t, 20000000);
	}
	KUNIT_EXPECT_EQ(test, avg, 2000ULL);

	/* half-life: one of them with no energy halves the average */
	t += SSDT_EST_HALF_LIFE_NS;
	KUNIT_EXPECT_EQ(test, ssdt_est_update(&e, t, 0), 1000ULL);
	/* sampling period does not matter: one sample over 1 s at 500 mW */
	t += NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, ssdt_est_update(&e, t, 500ULL * NSEC_PER_MSEC), 500ULL);
	/* a zero interval changes nothing */
	KUNIT_EXPECT_EQ(test, ssdt_est_update(&e, t, 12345), 500ULL);
}

/* 10 W limit: the bucket holds 400 us at 10 W, 4 mJ */
#define T_RATE	10000u
#define T_BURST	(10000ULL * 400)

static void bucket_refill_and_burst(struct kunit *test)
{
	struct ssdt_bucket b;
	u64 go;

	ssdt_bucket_init(&b, T_RATE, T_BURST, 0);
	KUNIT_EXPECT_EQ(test, ssdt_bucket_refill(&b, 0), (s64)T_BURST * 1000);
	/* the burst goes at once, then the bucket is empty */
	KUNIT_EXPECT_TRUE(test, ssdt_bucket_take(&b, 0, T_BURST, &go));
	KUNIT_EXPECT_EQ(test, ssdt_bucket_refill(&b, 0), 0LL);
	/* 100 us at 10 W refill 1 mJ */
	KUNIT_EXPECT_EQ(test, ssdt_bucket_refill(&b, 100 * NSEC_PER_USEC),
			1000000LL * 1000);
	/* never more than the burst, however long it idles */
	KUNIT_EXPECT_EQ(test, ssdt_bucket_refill(&b, 3600ULL * NSEC_PER_SEC),
			(s64)T_BURST * 1000);
}

static void bucket_delay_is_exact(struct kunit *test)
{
	struct ssdt_bucket b;
	u64 go;

	ssdt_bucket_init(&b, T_RATE, T_BURST, 0);
	KUNIT_EXPECT_TRUE(test, ssdt_bucket_take(&b, 0, T_BURST + 500000, &go));
	/* 0.5 mJ of debt at 10 W: the next command goes 50 us later */
	KUNIT_EXPECT_FALSE(test, ssdt_bucket_take(&b, 0, 1000, &go));
	KUNIT_EXPECT_EQ(test, go, 50 * NSEC_PER_USEC);
}

/* A saturating submitter of @cost nJ commands for @secs: energy admitted. */
static u64 saturate(struct ssdt_bucket *b, u64 cost, u64 secs)
{
	u64 t = 0, go, used = 0;

	while (t < secs * NSEC_PER_SEC) {
		if (!ssdt_bucket_take(b, t, cost, &go))
			t = go;		/* paid: it goes at go */
		used += cost;
	}
	return used;
}

static void bucket_long_run_average(struct kunit *test)
{
	static const u64 costs[] = { 8300, 70000, 230000, 9000000 };
	struct ssdt_bucket b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(costs); i++) {
		u64 used;

		ssdt_bucket_init(&b, T_RATE, T_BURST, 0);
		used = saturate(&b, costs[i], 2);
		/* 10 W for 2 s is 20 J, give or take the burst and one command */
		KUNIT_EXPECT_LE(test, used, 20000000000ULL + T_BURST + 2 * costs[i]);
		KUNIT_EXPECT_GE(test, used, 20000000000ULL - costs[i]);
	}
}

static void bucket_fifo_no_starvation(struct kunit *test)
{
	struct ssdt_bucket b;
	u64 go_a, go_b, go_c, go;
	int i;

	ssdt_bucket_init(&b, T_RATE, T_BURST, 0);
	/* the burst and 1 mJ more go at once: 100 us of debt */
	KUNIT_EXPECT_TRUE(test, ssdt_bucket_take(&b, 0, T_BURST + 1000000, &go));
	/* A (a large command) is delayed */
	KUNIT_EXPECT_FALSE(test, ssdt_bucket_take(&b, 1000, 5000000, &go_a));
	KUNIT_EXPECT_GT(test, go_a, 1000ULL);
	/* small commands arriving later, even a flood, all go after A */
	KUNIT_EXPECT_FALSE(test, ssdt_bucket_take(&b, 2000, 100, &go_b));
	KUNIT_EXPECT_GT(test, go_b, go_a);
	for (i = 0; i < 1000; i++) {
		KUNIT_EXPECT_FALSE(test, ssdt_bucket_take(&b, 3000, 100, &go_c));
		KUNIT_EXPECT_GT(test, go_c, go_a);
	}
	/* A waits only for the debt before it, not for its own cost */
	KUNIT_EXPECT_EQ(test, go_a, 100 * NSEC_PER_USEC);
	/* a command larger than the whole burst is never starved either */
	ssdt_bucket_init(&b, T_RATE, T_BURST, 0);
	KUNIT_EXPECT_TRUE(test, ssdt_bucket_take(&b, 0, 100 * T_BURST, &go));
	KUNIT_EXPECT_FALSE(test, ssdt_bucket_take(&b, 0, 100 * T_BURST, &go));
	/* 396 mJ of debt at 10 W */
	KUNIT_EXPECT_EQ(test, go, 39600 * NSEC_PER_USEC);
}

static struct kunit_case ssdt_budget_cases[] = {
	KUNIT_CASE(energy_cost_by_kind),
	KUNIT_CASE(energy_of_counts),
	KUNIT_CASE(energy_parse_format),
	KUNIT_CASE(estimate_tracks_power),
	KUNIT_CASE(bucket_refill_and_burst),
	KUNIT_CASE(bucket_delay_is_exact),
	KUNIT_CASE(bucket_long_run_average),
	KUNIT_CASE(bucket_fifo_no_starvation),
	{}
};

static struct kunit_suite ssdt_budget_suite = {
	.name = "ssdtune_budget",
	.test_cases = ssdt_budget_cases,
};

kunit_test_suite(ssdt_budget_suite);
