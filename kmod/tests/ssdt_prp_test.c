// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ssdtune's PRP list math (kmod/ssdt_prp.c).
 *
 * Every filled command is read back the way a controller reads it (NVMe
 * base spec, "Physical Region Page Entry and List"): PRP1 is the first
 * page with its offset; with exactly two pages PRP2 is the second page,
 * with more it points at a list page, and the last slot of a list page
 * points at the next list page whenever more entries follow.  The entries
 * read back are compared one by one with the pages the segments touch.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../ssdt_prp.h"

#define SZ4K		4096U
#define SZ8K		8192U
#define MAX_LISTS	8
/* Bus addresses of the list pages: far away from every data address used. */
#define LIST_DMA_BASE	0x7f0000000000ULL
/* List slots the fill must not touch hold this. */
#define POISON_BYTE	0xa5
#define POISON		0xa5a5a5a5a5a5a5a5ULL

struct prp_cmd {
	u32 page_size;
	u32 nlists;
	__le64 prp1;
	__le64 prp2;
	__le64 *lists[MAX_LISTS];
	u64 list_dma[MAX_LISTS];
};

static struct prp_cmd *prp_cmd_new(struct kunit *test, u32 page_size,
				   u32 nlists)
{
	struct prp_cmd *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_LE(test, nlists, (u32)MAX_LISTS);
	c->page_size = page_size;
	c->nlists = nlists;
	c->prp1 = cpu_to_le64(POISON);
	c->prp2 = cpu_to_le64(POISON);
	/* Pages past @nlists are guards: a fill must never reach them. */
	for (i = 0; i < MAX_LISTS; i++) {
		c->lists[i] = kunit_kmalloc(test, page_size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->lists[i]);
		memset(c->lists[i], POISON_BYTE, page_size);
		c->list_dma[i] = LIST_DMA_BASE + (u64)i * 0x100000;
	}
	return c;
}

static int prp_cmd_fill(struct prp_cmd *c, const struct ssdt_seg *segs,
			int nsegs)
{
	return ssdt_prp_fill(segs, nsegs, c->page_size, &c->prp1, &c->prp2,
			     c->lists, c->list_dma, c->nlists);
}

static u64 list_slot(const struct prp_cmd *c, u32 list, u32 slot)
{
	return le64_to_cpu(c->lists[list][slot]);
}

/* The pages @segs touch, as PRP entries: the first keeps its offset. */
static u32 expected_entries(const struct ssdt_seg *segs, int nsegs,
			    u32 page_size, u64 *out, u32 max)
{
	u32 n = 0;
	int i;

	for (i = 0; i < nsegs; i++) {
		u64 end = segs[i].addr + segs[i].len;
		u64 page;

		if (n < max)
			out[n] = segs[i].addr;
		n++;
		for (page = round_down(segs[i].addr, page_size) + page_size;
		     page < end; page += page_size) {
			if (n < max)
				out[n] = page;
			n++;
		}
	}
	return n;
}

static int list_index(const struct prp_cmd *c, u64 dma)
{
	u32 i;

	for (i = 0; i < c->nlists; i++)
		if (c->list_dma[i] == dma)
			return i;
	return -1;
}

/*
 * Read @n entries back as a controller would.  Returns how many list
 * pages it walked; fails the test on a pointer to no list page, a list
 * visited twice, or an entry that differs from @want.
 */
static u32 controller_walk(struct kunit *test, const struct prp_cmd *c,
			   const u64 *want, u32 n)
{
	u32 per_page = c->page_size / sizeof(__le64);
	bool seen[MAX_LISTS] = {};
	u32 got = 1, slot = 0, used = 0;
	int list;

	KUNIT_ASSERT_GE(test, n, 1U);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp1), want[0]);
	if (n == 1) {
		KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp2), 0ULL);
		return 0;
	}
	if (n == 2) {
		KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp2), want[1]);
		return 0;
	}

	list = list_index(c, le64_to_cpu(c->prp2));
	KUNIT_ASSERT_GE_MSG(test, list, 0, "PRP2 %llx is no list page",
			    le64_to_cpu(c->prp2));
	seen[list] = true;
	used = 1;
	while (got < n) {
		u64 e = list_slot(c, list, slot);

		if (slot == per_page - 1 && n - got > 1) {
			list = list_index(c, e);
			KUNIT_ASSERT_GE_MSG(test, list, 0,
					    "entry %u: chain %llx is no list page",
					    got, e);
			KUNIT_ASSERT_FALSE_MSG(test, seen[list],
					       "list page %d chained twice", list);
			seen[list] = true;
			used++;
			slot = 0;
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, e, want[got], "entry %u of %u", got, n);
		got++;
		slot++;
	}
	/* Nothing written past the last entry of the last list page. */
	for (; slot < per_page; slot++)
		KUNIT_EXPECT_EQ_MSG(test, list_slot(c, list, slot), POISON,
				    "list %d slot %u written past the end",
				    list, slot);
	return used;
}

/*
 * Fill @segs with exactly the list pages ssdt_prp_list_pages() asks for
 * (plus @spare more) and check every entry and every untouched list page.
 */
static void check_fill(struct kunit *test, const struct ssdt_seg *segs,
		       int nsegs, u32 page_size, u32 spare)
{
	u32 n, nlists, used, i, j;
	struct prp_cmd *c;
	u64 *want;

	n = expected_entries(segs, nsegs, page_size, NULL, 0);
	want = kunit_kmalloc_array(test, n, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	expected_entries(segs, nsegs, page_size, want, n);

	KUNIT_ASSERT_EQ(test, ssdt_prp_entries(segs, nsegs, page_size), n);
	nlists = ssdt_prp_list_pages(n, page_size);
	c = prp_cmd_new(test, page_size, nlists + spare);
	KUNIT_ASSERT_EQ(test, prp_cmd_fill(c, segs, nsegs), 0);

	used = controller_walk(test, c, want, n);
	KUNIT_EXPECT_EQ(test, used, nlists);
	for (i = used; i < MAX_LISTS; i++)
		for (j = 0; j < page_size / sizeof(__le64); j++)
			KUNIT_EXPECT_EQ_MSG(test, list_slot(c, i, j), POISON,
					    "unused list %u slot %u written",
					    i, j);
}

/*
 * Fill @c from @segs and read it back: @n entries @want in all, the first
 * in PRP1, the rest in PRP2 (two entries in all) or in list page 0, whose
 * slot after the last entry stays untouched.
 */
static void expect_fill(struct kunit *test, struct prp_cmd *c,
			const struct ssdt_seg *segs, int nsegs,
			const u64 *want, u32 n)
{
	u32 i;

	KUNIT_EXPECT_EQ_MSG(test, ssdt_prp_entries(segs, nsegs, c->page_size), n,
			    "from %#llx", segs[0].addr);
	KUNIT_ASSERT_EQ(test, prp_cmd_fill(c, segs, nsegs), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp1), want[0]);
	if (n <= 2) {
		KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp2), n == 2 ? want[1] : 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp2), c->list_dma[0]);
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, list_slot(c, 0, i - 1), want[i],
				    "from %#llx, entry %u", segs[0].addr, i);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, n - 1), POISON);
}

static void prp_single_page(struct kunit *test)
{
	const struct ssdt_seg segs[] = { { 0x10000, SZ4K } };
	const u64 want[] = { 0x10000 };

	expect_fill(test, prp_cmd_new(test, SZ4K, 0), segs, 1, want, 1);
}

static void prp_offset_within_page(struct kunit *test)
{
	const struct ssdt_seg small[] = { { 0x10200, 512 } };
	const struct ssdt_seg to_end[] = { { 0x10200, SZ4K - 0x200 } };
	const u64 want[] = { 0x10200 };
	struct prp_cmd *c = prp_cmd_new(test, SZ4K, 0);

	expect_fill(test, c, small, 1, want, 1);
	/* Up to the last byte of the page: still one entry. */
	expect_fill(test, c, to_end, 1, want, 1);
}

static void prp_two_pages(struct kunit *test)
{
	const struct ssdt_seg aligned[] = { { 0x20000, 2 * SZ4K } };
	const struct ssdt_seg offset[] = { { 0x20800, SZ4K } };
	const struct ssdt_seg two_segs[] = { { 0x30800, 0x800 },
					     { 0x50000, SZ4K } };
	const u64 want_aligned[] = { 0x20000, 0x21000 };
	const u64 want_offset[] = { 0x20800, 0x21000 };
	const u64 want_two_segs[] = { 0x30800, 0x50000 };
	struct prp_cmd *c = prp_cmd_new(test, SZ4K, 0);

	/* No list page is needed, so none is given (nlists 0). */
	expect_fill(test, c, aligned, 1, want_aligned, 2);
	expect_fill(test, c, offset, 1, want_offset, 2);
	expect_fill(test, c, two_segs, 2, want_two_segs, 2);
}

static void prp_three_pages_list(struct kunit *test)
{
	const struct ssdt_seg segs[] = { { 0x40000, 3 * SZ4K } };
	const u64 want[] = { 0x40000, 0x41000, 0x42000 };

	expect_fill(test, prp_cmd_new(test, SZ4K, 1), segs, 1, want, 3);
}

static void prp_multi_segment_list(struct kunit *test)
{
	const struct ssdt_seg segs[] = {
		{ 0x10000c00, 0x400 },		/* tail of one page */
		{ 0x20000000, 3 * SZ4K },	/* three whole pages */
		{ 0x30000000, 0x10 },		/* head of one page */
	};
	const u64 want[] = {
		0x10000c00, 0x20000000, 0x20001000, 0x20002000, 0x30000000
	};

	expect_fill(test, prp_cmd_new(test, SZ4K, 1), segs, 3, want, 5);
	check_fill(test, segs, ARRAY_SIZE(segs), SZ4K, 1);
}

static void prp_segment_crosses_page(struct kunit *test)
{
	/* 512 bytes straddling a page boundary: two pages. */
	const struct ssdt_seg straddle[] = { { 0x50000f00, 0x200 } };
	/* First segment crosses two boundaries, the last one crosses one. */
	const struct ssdt_seg segs[] = {
		{ 0x60000e00, 0x2200 },
		{ 0x70000000, SZ4K + 0x80 },
	};
	const u64 want_straddle[] = { 0x50000f00, 0x50001000 };
	const u64 want[] = {
		0x60000e00, 0x60001000, 0x60002000, 0x70000000, 0x70001000
	};
	struct prp_cmd *c = prp_cmd_new(test, SZ4K, 1);

	expect_fill(test, c, straddle, 1, want_straddle, 2);
	expect_fill(test, c, segs, 2, want, 5);
}

/* Where the chain pointer lands, slot by slot, with 4 KiB pages. */
static void prp_chain_boundary(struct kunit *test)
{
	/* 513 entries: PRP1 + 512 in exactly one full list page, no chain. */
	const struct ssdt_seg full[] = { { 0x100000000ULL, 513 * SZ4K } };
	/* 514 entries: slot 511 chains, the second page holds the last 2. */
	const struct ssdt_seg chain[] = { { 0x100000000ULL, 514 * SZ4K } };
	struct prp_cmd *c = prp_cmd_new(test, SZ4K, 2);

	KUNIT_ASSERT_EQ(test, prp_cmd_fill(c, full, 1), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp2), c->list_dma[0]);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 510), 0x100000000ULL + 511 * SZ4K);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 511), 0x100000000ULL + 512 * SZ4K);
	KUNIT_EXPECT_EQ(test, list_slot(c, 1, 0), POISON);

	c = prp_cmd_new(test, SZ4K, 2);
	KUNIT_ASSERT_EQ(test, prp_cmd_fill(c, chain, 1), 0);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 510), 0x100000000ULL + 511 * SZ4K);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 511), c->list_dma[1]);
	KUNIT_EXPECT_EQ(test, list_slot(c, 1, 0), 0x100000000ULL + 512 * SZ4K);
	KUNIT_EXPECT_EQ(test, list_slot(c, 1, 1), 0x100000000ULL + 513 * SZ4K);
	KUNIT_EXPECT_EQ(test, list_slot(c, 1, 2), POISON);
}

struct chain_case {
	u32 page_size;
	u32 entries;	/* pages the transfer touches */
	u32 offset;	/* of the first byte in the first page */
	int nsegs;	/* the transfer split into this many segments */
};

static const struct chain_case chain_cases[] = {
	{ SZ4K, 3, 0, 1 },
	{ SZ4K, 512, 0x200, 1 },
	{ SZ4K, 513, 0, 1 },
	{ SZ4K, 514, 0x10, 1 },
	{ SZ4K, 1023, 0, 3 },
	{ SZ4K, 1024, 0xffc, 1 },
	{ SZ4K, 1025, 0, 7 },
	{ SZ4K, 1534, 0, 1 },
	{ SZ4K, 1535, 0x800, 2 },
	{ SZ4K, 1536, 0, 1 },
	{ SZ4K, 2000, 0x600, 5 },
	{ SZ8K, 3, 0x100, 1 },
	{ SZ8K, 1025, 0, 1 },
	{ SZ8K, 1026, 0x1000, 2 },
	{ SZ8K, 2047, 0, 1 },
	{ SZ8K, 2048, 0x20, 3 },
	{ SZ8K, 4000, 0, 4 },
};

static void chain_case_desc(const struct chain_case *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "page %u, %u entries, %d segs",
		 p->page_size, p->entries, p->nsegs);
}

KUNIT_ARRAY_PARAM(chain, chain_cases, chain_case_desc);

/*
 * A transfer of p->entries pages, split into p->nsegs segments that lie
 * far apart in bus space (so an entry from the wrong segment shows), the
 * last one ending mid-page.
 */
static void prp_chain(struct kunit *test)
{
	const struct chain_case *p = test->param_value;
	u32 ps = p->page_size, per_seg = p->entries / p->nsegs;
	struct ssdt_seg *segs;
	int i;

	segs = kunit_kcalloc(test, p->nsegs, sizeof(*segs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	for (i = 0; i < p->nsegs; i++) {
		u32 pages = i == p->nsegs - 1 ?
			    p->entries - per_seg * (p->nsegs - 1) : per_seg;

		segs[i].addr = 0x1000000000ULL * (i + 1);
		segs[i].len = pages * ps;
		if (i == 0) {
			segs[i].addr += p->offset;
			segs[i].len -= p->offset;
		}
		if (i == p->nsegs - 1)
			segs[i].len -= ps / 2;
	}
	KUNIT_ASSERT_EQ(test, ssdt_prp_entries(segs, p->nsegs, ps), p->entries);
	check_fill(test, segs, p->nsegs, ps, 0);
	/* Spare list pages must stay untouched too. */
	check_fill(test, segs, p->nsegs, ps, 2);
}

static void prp_page_size_8k(struct kunit *test)
{
	const struct ssdt_seg segs[] = { { 0x100100, 3 * SZ8K } };
	const struct ssdt_seg two[] = { { 0x200000, SZ8K + 1 } };
	const u64 want[] = { 0x100100, 0x102000, 0x104000, 0x106000 };
	const u64 want_two[] = { 0x200000, 0x202000 };
	struct prp_cmd *c = prp_cmd_new(test, SZ8K, 1);

	/* 24 KiB from offset 0x100 of an 8 KiB page touch 4 pages. */
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs, 1, SZ4K), 7U);
	expect_fill(test, c, segs, 1, want, 4);
	expect_fill(test, c, two, 1, want_two, 2);

	/* A 4 KiB-aligned middle segment is not 8 KiB aligned. */
	{
		const struct ssdt_seg bad[] = { { 0x300000, SZ8K },
						{ 0x401000, SZ8K } };

		KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, bad, 2), -EINVAL);
	}
}

static void prp_invalid_segments(struct kunit *test)
{
	/* Middle segment does not start on a page boundary. */
	const struct ssdt_seg mid_start[] = {
		{ 0x10000, SZ4K }, { 0x20200, 0xe00 }, { 0x30000, SZ4K } };
	/* Middle segment does not end on a page boundary. */
	const struct ssdt_seg mid_end[] = {
		{ 0x10000, SZ4K }, { 0x20000, 0x800 }, { 0x30000, SZ4K } };
	/* First segment ends mid-page but another follows. */
	const struct ssdt_seg first_end[] = {
		{ 0x10000, 0x800 }, { 0x20000, SZ4K } };
	/* Last segment starts mid-page. */
	const struct ssdt_seg last_start[] = {
		{ 0x10000, SZ4K }, { 0x20010, 0x100 } };
	const struct ssdt_seg zero_first[] = {
		{ 0x10000, 0 }, { 0x20000, SZ4K } };
	const struct ssdt_seg zero_mid[] = {
		{ 0x10000, SZ4K }, { 0x20000, 0 }, { 0x30000, SZ4K } };
	const struct ssdt_seg zero_only[] = { { 0x10000, 0 } };
	const struct ssdt_seg ok[] = { { 0x10000, SZ4K } };
	struct prp_cmd *c = prp_cmd_new(test, SZ4K, 1);

	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, mid_start, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, mid_end, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, first_end, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, last_start, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, zero_first, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, zero_mid, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, zero_only, 1), -EINVAL);
	/* No segments at all. */
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, ok, 0), -EINVAL);
	/* Page sizes the NVMe MPS field cannot express. */
	c->page_size = 2048;
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, ok, 1), -EINVAL);
	c->page_size = 6144;
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, ok, 1), -EINVAL);
	/* None of the rejected calls wrote a list entry. */
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 0), POISON);
	/* The same command is fine once valid. */
	c->page_size = SZ4K;
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, ok, 1), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(c->prp1), 0x10000ULL);
}

static void prp_nlists_too_small(struct kunit *test)
{
	const struct ssdt_seg three[] = { { 0x10000, 3 * SZ4K } };
	const struct ssdt_seg chained[] = { { 0x10000, 514 * SZ4K } };
	const struct ssdt_seg big[] = { { 0x10000, 2000 * SZ4K } };
	struct prp_cmd *c;

	c = prp_cmd_new(test, SZ4K, 0);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, three, 1), -EINVAL);
	c = prp_cmd_new(test, SZ4K, 1);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, chained, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 0), POISON);
	KUNIT_EXPECT_EQ(test, list_slot(c, 0, 511), POISON);
	c = prp_cmd_new(test, SZ4K, 3);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, big, 1), -EINVAL);
	c = prp_cmd_new(test, SZ4K, 4);
	KUNIT_EXPECT_EQ(test, prp_cmd_fill(c, big, 1), 0);
}

static void prp_list_pages(struct kunit *test)
{
	static const struct { u32 n, ps, pages; } cases[] = {
		{ 0, SZ4K, 0 }, { 1, SZ4K, 0 }, { 2, SZ4K, 0 },
		{ 3, SZ4K, 1 }, { 4, SZ4K, 1 }, { 512, SZ4K, 1 },
		{ 513, SZ4K, 1 }, { 514, SZ4K, 2 }, { 1023, SZ4K, 2 },
		{ 1024, SZ4K, 2 }, { 1025, SZ4K, 3 }, { 1535, SZ4K, 3 },
		{ 1536, SZ4K, 4 }, { 2000, SZ4K, 4 },
		{ 2, SZ8K, 0 }, { 3, SZ8K, 1 }, { 1025, SZ8K, 1 },
		{ 1026, SZ8K, 2 }, { 2048, SZ8K, 2 }, { 2049, SZ8K, 3 },
		{ 3, 65536, 1 }, { 8193, 65536, 1 }, { 8194, 65536, 2 },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ssdt_prp_list_pages(cases[i].n, cases[i].ps),
				    cases[i].pages, "%u entries, page %u",
				    cases[i].n, cases[i].ps);
}

/*
 * p list pages hold p * (per_page - 1) + 1 entries after PRP1; the answer
 * must be the smallest p that holds them all.
 */
static void prp_list_pages_minimal(struct kunit *test)
{
	static const u32 sizes[] = { SZ4K, SZ8K, 16384 };
	u32 i, n;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 per = sizes[i] / 8;

		for (n = 3; n < 5 * per; n++) {
			u32 p = ssdt_prp_list_pages(n, sizes[i]);

			if (p * (per - 1) + 1 < n - 1 ||
			    (p > 1 && (p - 1) * (per - 1) + 1 >= n - 1)) {
				KUNIT_FAIL(test, "%u entries, page %u: %u list pages",
					   n, sizes[i], p);
				return;
			}
		}
	}
}

static void prp_entries_count(struct kunit *test)
{
	const struct ssdt_seg segs[] = {
		{ 0x10fff, 1 },			/* last byte: 1 */
		{ 0x20000, 0 },			/* empty: 0 */
		{ 0x30000, SZ4K + 1 },		/* 2 */
		{ 0x40000, 16 * SZ4K },		/* 16 */
	};

	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs, 0, SZ4K), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs, 1, SZ4K), 1U);
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs + 1, 1, SZ4K), 0U);
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs + 2, 1, SZ4K), 2U);
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs, 4, SZ4K), 19U);
	KUNIT_EXPECT_EQ(test, ssdt_prp_entries(segs, 4, SZ8K), 1U + 1 + 8);
	/* A 2 byte segment across the boundary touches two pages. */
	{
		const struct ssdt_seg s[] = { { 0x10fff, 2 } };

		KUNIT_EXPECT_EQ(test, ssdt_prp_entries(s, 1, SZ4K), 2U);
	}
}

static struct kunit_case ssdt_prp_cases[] = {
	KUNIT_CASE(prp_single_page),
	KUNIT_CASE(prp_offset_within_page),
	KUNIT_CASE(prp_two_pages),
	KUNIT_CASE(prp_three_pages_list),
	KUNIT_CASE(prp_multi_segment_list),
	KUNIT_CASE(prp_segment_crosses_page),
	KUNIT_CASE(prp_chain_boundary),
	KUNIT_CASE_PARAM(prp_chain, chain_gen_params),
	KUNIT_CASE(prp_page_size_8k),
	KUNIT_CASE(prp_invalid_segments),
	KUNIT_CASE(prp_nlists_too_small),
	KUNIT_CASE(prp_list_pages),
	KUNIT_CASE(prp_list_pages_minimal),
	KUNIT_CASE(prp_entries_count),
	{}
};

static struct kunit_suite ssdt_prp_suite = {
	.name = "ssdtune_prp",
	.test_cases = ssdt_prp_cases,
};

kunit_test_suite(ssdt_prp_suite);
