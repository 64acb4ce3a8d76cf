// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the Host Memory Buffer's sizing and allocation
 * (kmod/ssdt_hmb.c), with a fake allocator that can run out of memory or
 * refuse chunks above a size, as a fragmented host does.  The rules are
 * the stock nvme driver's of Linux 6.1.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "../ssdt_hmb.h"

#define MIB	((u64)SZ_1M)

/* The fake host: counts what is held, fails as told. */
struct fake {
	u32 biggest;		/* a chunk above this fails (0: none) */
	int chunks_left;	/* chunks it still gives (-1: any) */
	bool no_descs;		/* the descriptor list fails */
	u64 held;		/* bytes of chunks held */
	int lists;		/* descriptor lists held */
	u64 next;		/* the next chunk's "DMA address" */
};

static void *fake_chunk(void *ctx, u32 len, dma_addr_t *dma)
{
	struct fake *f = ctx;

	if ((f->biggest && len > f->biggest) || !f->chunks_left)
		return NULL;
	if (f->chunks_left > 0)
		f->chunks_left--;
	f->held += len;
	*dma = f->next;
	f->next += len;
	/* any non-NULL handle: the memory is never touched */
	return (void *)(uintptr_t)(*dma + 1);
}

static void fake_chunk_free(void *ctx, u32 len, void *buf, dma_addr_t dma)
{
	struct fake *f = ctx;

	f->held -= len;
}

static struct nvme_host_mem_buf_desc *
fake_descs(void *ctx, u32 n, dma_addr_t *dma)
{
	struct fake *f = ctx;

	if (f->no_descs)
		return NULL;
	f->lists++;
	*dma = 0xd000;
	return kcalloc(n, sizeof(struct nvme_host_mem_buf_desc), GFP_KERNEL);
}

static void fake_descs_free(void *ctx, u32 n,
			    struct nvme_host_mem_buf_desc *descs, dma_addr_t dma)
{
	struct fake *f = ctx;

	f->lists--;
	kfree(descs);
}

static const struct ssdt_hmb_ops fake_ops = {
	.alloc_chunk = fake_chunk,
	.free_chunk = fake_chunk_free,
	.alloc_descs = fake_descs,
	.free_descs = fake_descs_free,
};

static void target_as_stock(struct kunit *test)
{
	u64 min;

	/* HMPRE 0: the controller wants none */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(0, 0, 128, &min), 0ull);
	/* 32 MiB preferred, 8 MiB minimum */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(8192, 2048, 128, &min), 32 * MIB);
	KUNIT_EXPECT_EQ(test, min, 8 * MIB);
	/* preferred above the limit: the limit */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(65536, 0, 128, &min), 128 * MIB);
	/* the minimum above the limit: none, and *min says what it wanted */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(65536, 65536, 128, &min), 0ull);
	KUNIT_EXPECT_EQ(test, min, 256 * MIB);
	/* limit 0: never */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(256, 0, 0, &min), 0ull);
	/* a preferred size below the minimum gets the minimum */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(256, 512, 128, &min), 2 * MIB);
	/* no overflow at the top of HMPRE */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_target(U32_MAX, 0, U32_MAX, &min),
			(u64)U32_MAX * 4096);
}

/* Each descriptor: its chunk's address, the size in 4 KiB pages. */
static void check_descs(struct kunit *test, struct ssdt_hmb *h)
{
	u64 sum = 0, addr;
	u32 i;

	KUNIT_ASSERT_GT(test, h->nr_descs, 0u);
	/* the fake hands out consecutive addresses */
	addr = le64_to_cpu(h->descs[0].addr);
	for (i = 0; i < h->nr_descs; i++) {
		KUNIT_EXPECT_EQ(test, le64_to_cpu(h->descs[i].addr), addr);
		addr += (u64)le32_to_cpu(h->descs[i].size) * 4096;
		sum += (u64)le32_to_cpu(h->descs[i].size) * 4096;
	}
	KUNIT_EXPECT_EQ(test, sum, h->size);
	KUNIT_EXPECT_LE(test, h->nr_descs, h->max_descs);
}

static void alloc_in_big_chunks(struct kunit *test)
{
	struct fake f = { .chunks_left = -1 };
	struct ssdt_hmb h;

	/* 10 MiB in chunks of at most 4 MiB: 4 + 4 + 2 */
	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 10 * MIB,
					     0, 0, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.size, 10 * MIB);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 3u);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h.descs[0].size), 1024u);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h.descs[2].size), 512u);
	KUNIT_EXPECT_EQ(test, h.descs_dma, (dma_addr_t)0xd000);
	check_descs(test, &h);
	KUNIT_EXPECT_EQ(test, f.held, 10 * MIB);
	ssdt_hmb_free(&h, &fake_ops, &f);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
	KUNIT_EXPECT_EQ(test, h.size, 0ull);
	KUNIT_EXPECT_PTR_EQ(test, h.descs, NULL);
}

static void chunks_shrink_when_fragmented(struct kunit *test)
{
	/* nothing above 1 MiB to be had: 4 MiB, 2 MiB fail, then 1 MiB each */
	struct fake f = { .biggest = SZ_1M, .chunks_left = -1 };
	struct ssdt_hmb h;

	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 8 * MIB, 8 * MIB,
					     0, 0, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.size, 8 * MIB);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 8u);
	check_descs(test, &h);
	/* the failed tries left nothing behind */
	KUNIT_EXPECT_EQ(test, f.held, 8 * MIB);
	KUNIT_EXPECT_EQ(test, f.lists, 1);
	ssdt_hmb_free(&h, &fake_ops, &f);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
}

static void short_memory_is_enough_above_min(struct kunit *test)
{
	/* three chunks only: 3 MiB of 8, and the minimum is 2 */
	struct fake f = { .biggest = SZ_1M, .chunks_left = 3 };
	struct ssdt_hmb h;

	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 2 * MIB, 8 * MIB,
					     0, 0, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.size, 3 * MIB);
	ssdt_hmb_free(&h, &fake_ops, &f);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
}

static void below_min_gives_nothing(struct kunit *test)
{
	/* 3 MiB to be had, 4 wanted at least: nothing held afterwards */
	struct fake f = { .biggest = SZ_1M, .chunks_left = 3 };
	struct ssdt_hmb h;

	KUNIT_EXPECT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 4 * MIB, 8 * MIB,
					     0, 0, 4 * MIB, 8192), -ENOMEM);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
	KUNIT_EXPECT_EQ(test, h.size, 0ull);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 0u);
}

static void hmminds_is_the_smallest_chunk(struct kunit *test)
{
	/* chunks of at least 2 MiB (HMMINDS 512 pages), none above 1 MiB */
	struct fake f = { .biggest = SZ_1M, .chunks_left = -1 };
	struct ssdt_hmb h;

	KUNIT_EXPECT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 8 * MIB,
					     512, 0, 4 * MIB, 8192), -ENOMEM);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
	/* 2 MiB chunks can be had: 4 of them */
	f.biggest = 2 * SZ_1M;
	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 8 * MIB,
					     512, 0, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 4u);
	ssdt_hmb_free(&h, &fake_ops, &f);
}

static void hmmaxd_caps_the_descriptors(struct kunit *test)
{
	/* at most 4 descriptors of 1 MiB: 4 MiB of the 8 preferred */
	struct fake f = { .biggest = SZ_1M, .chunks_left = -1 };
	struct ssdt_hmb h;

	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 8 * MIB,
					     0, 4, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.max_descs, 4u);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 4u);
	KUNIT_EXPECT_EQ(test, h.size, 4 * MIB);
	ssdt_hmb_free(&h, &fake_ops, &f);
	/* and a minimum those 4 cannot reach: nothing */
	KUNIT_EXPECT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 6 * MIB, 8 * MIB,
					     0, 4, 4 * MIB, 8192), -ENOMEM);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
}

static void chunks_are_whole_pages(struct kunit *test)
{
	/* 12 KiB: one chunk of 3 pages */
	struct fake f = { .chunks_left = -1 };
	struct ssdt_hmb h;
	u32 i;

	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 12288,
					     0, 0, 4 * MIB, 8192), 0);
	KUNIT_EXPECT_EQ(test, h.nr_descs, 1u);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h.descs[0].size), 3u);
	ssdt_hmb_free(&h, &fake_ops, &f);
	/* not in one piece: the next size, 6 KiB, is no whole page count */
	f.biggest = 8192;
	KUNIT_ASSERT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 12288,
					     0, 0, 4 * MIB, 4096), 0);
	for (i = 0; i < h.nr_descs; i++)
		KUNIT_EXPECT_EQ(test, le32_to_cpu(h.descs[i].size), 1u);
	KUNIT_EXPECT_EQ(test, h.size, 12288ull);
	check_descs(test, &h);
	ssdt_hmb_free(&h, &fake_ops, &f);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
}

static void no_descriptor_list_no_buffer(struct kunit *test)
{
	struct fake f = { .chunks_left = -1, .no_descs = true };
	struct ssdt_hmb h;

	KUNIT_EXPECT_EQ(test, ssdt_hmb_alloc(&h, &fake_ops, &f, 0, 8 * MIB,
					     0, 0, 4 * MIB, 8192), -ENOMEM);
	KUNIT_EXPECT_EQ(test, f.held, 0ull);
	/* freeing an empty buffer is harmless */
	ssdt_hmb_free(&h, &fake_ops, &f);
	KUNIT_EXPECT_EQ(test, f.lists, 0);
}

static struct kunit_case ssdt_hmb_cases[] = {
	KUNIT_CASE(target_as_stock),
	KUNIT_CASE(alloc_in_big_chunks),
	KUNIT_CASE(chunks_shrink_when_fragmented),
	KUNIT_CASE(short_memory_is_enough_above_min),
	KUNIT_CASE(below_min_gives_nothing),
	KUNIT_CASE(hmminds_is_the_smallest_chunk),
	KUNIT_CASE(hmmaxd_caps_the_descriptors),
	KUNIT_CASE(chunks_are_whole_pages),
	KUNIT_CASE(no_descriptor_list_no_buffer),
	{}
};

static struct kunit_suite ssdt_hmb_suite = {
	.name = "ssdtune_hmb",
	.test_cases = ssdt_hmb_cases,
};

kunit_test_suite(ssdt_hmb_suite);
