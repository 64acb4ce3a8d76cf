// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the shadow doorbell event check (kmod/ssdt_dbbuf.h).
 *
 * The rule (NVMe base spec, Doorbell Buffer Config; virtio's vring_need_event
 * is the same test): after moving the shadow value from old to new the
 * host rings the MMIO doorbell exactly when the controller's event index
 * was passed, that is when old <= ei < new going forward modulo 2^16.
 */
#include <kunit/test.h>

#include "../ssdt_dbbuf.h"

/* The rule spelled out by walking the values the shadow moved across. */
static bool crossed(u16 ei, u16 new, u16 old)
{
	u16 v;

	for (v = old; v != new; v++)
		if (v == ei)
			return true;
	return false;
}

static const struct {
	u16 ei, new, old;
	bool ring;
	const char *why;
} dbbuf_cases[] = {
	{ 5, 6, 5, true, "the controller caught up at 5 and waits" },
	{ 3, 6, 5, false, "the controller is still behind (index 3 < old 5)" },
	{ 7, 9, 5, true, "a batch 5 -> 9 passes the index 7" },
	{ 9, 9, 5, false, "the index at the new value is not passed yet" },
	{ 5, 5, 5, false, "nothing moved" },
	{ 0xffff, 0x0002, 0xfffe, true, "across the wrap, index before it" },
	{ 0x0000, 0x0002, 0xfffe, true, "across the wrap, index 0" },
	{ 0x0001, 0x0002, 0xfffe, true, "across the wrap, index after it" },
	{ 0x0002, 0x0002, 0xfffe, false, "across the wrap, index at new" },
	{ 0xfffd, 0x0002, 0xfffe, false, "across the wrap, index before old" },
};

static void dbbuf_table(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dbbuf_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ssdt_dbbuf_need_event(dbbuf_cases[i].ei,
							  dbbuf_cases[i].new,
							  dbbuf_cases[i].old),
				    dbbuf_cases[i].ring, "%s", dbbuf_cases[i].why);
}

/* Every (ei, old) pair against the walked rule, for a few batch sizes. */
static void dbbuf_exhaustive(struct kunit *test)
{
	static const u16 steps[] = { 1, 2, 31, 1023 };
	unsigned int s, ei, old, bad = 0;

	for (s = 0; s < ARRAY_SIZE(steps); s++)
		for (old = 0; old < 0x10000; old += 0x1001)
			for (ei = 0; ei < 0x10000; ei += 0x3b) {
				u16 new = old + steps[s];

				if (ssdt_dbbuf_need_event(ei, new, old) !=
				    crossed(ei, new, old))
					bad++;
			}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static struct kunit_case ssdt_dbbuf_cases[] = {
	KUNIT_CASE(dbbuf_table),
	KUNIT_CASE(dbbuf_exhaustive),
	{}
};

static struct kunit_suite ssdt_dbbuf_suite = {
	.name = "ssdtune_dbbuf",
	.test_cases = ssdt_dbbuf_cases,
};

kunit_test_suite(ssdt_dbbuf_suite);
