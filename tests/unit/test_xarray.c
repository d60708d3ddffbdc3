// SPDX-License-Identifier: MIT
/*
 * XArray shape and cursor scans.  The expected values come from the kernel
 * (spec Appendix A, verified on 6.18.44 with an interleaved-stream trace),
 * not from this code.
 */
#include <stdlib.h>

#include "cache/pagecache.h"
#include "harness.h"

static struct page_cache pc;

static int add(uint64_t index, unsigned order)
{
	struct folio *f;

	return pc_add_folio(&pc, index, order, PG_uptodate, &f);
}

/*
 * Cache: 0-3 order 0, 4 order 2, 8 order 2, 10000-10004 order 0: a
 * three-level tree.  The kernel's next_miss(5, 32) returned 13 although
 * the first gap is 12, and prev_miss(11, 32) returned 2 although
 * everything down to 0 is cached.
 */
static int test_interleaved_stream_lag(void)
{
	uint64_t i;

	pc_init(&pc);
	for (i = 0; i < 4; i++)
		ASSERT_EQ_U64(add(i, 0), 0);
	ASSERT_EQ_U64(add(4, 2), 0);
	ASSERT_EQ_U64(add(8, 2), 0);
	for (i = 10000; i <= 10004; i++)
		ASSERT_EQ_U64(add(i, 0), 0);
	ASSERT_EQ_U64(xa_next_miss(&pc.i_pages, 5, 32), 13);
	ASSERT_EQ_U64(xa_prev_miss(&pc.i_pages, 11, 32), 2);
	/* From a head page there is no lag. */
	ASSERT_EQ_U64(xa_next_miss(&pc.i_pages, 8, 32), 12);
	pc_destroy(&pc);
	return 0;
}

/* 6.17+: no hole within max_scan gives index + max_scan. */
static int test_next_miss_no_hole(void)
{
	uint64_t i;

	pc_init(&pc);
	for (i = 0; i < 64; i++)
		ASSERT_EQ_U64(add(i, 0), 0);
	ASSERT_EQ_U64(xa_next_miss(&pc.i_pages, 10, 16), 26);
	ASSERT_EQ_U64(xa_next_miss(&pc.i_pages, 60, 16), 64);
	/* Cached back to page 0: the scan wraps to ULONG_MAX. */
	ASSERT_EQ_U64(xa_prev_miss(&pc.i_pages, 20, 32), UINT64_MAX);
	/* No gap within the scan: the last index examined. */
	ASSERT_EQ_U64(xa_prev_miss(&pc.i_pages, 40, 8), 33);
	pc_destroy(&pc);
	return 0;
}

/* Inserting over anything present fails; large folios block their range. */
static int test_conflicts(void)
{
	pc_init(&pc);
	ASSERT_EQ_U64(add(512, 9), 0);
	ASSERT_EQ_U64(add(700, 0), (uint64_t)-17); /* -EEXIST */
	ASSERT_EQ_U64(add(0, 10), (uint64_t)-17);
	ASSERT_EQ_U64(add(1024, 9), 0);
	ASSERT_TRUE(pc_lookup(&pc, 1535) != NULL);
	ASSERT_TRUE(pc_lookup(&pc, 1536) == NULL);
	ASSERT_EQ_U64(add(0, 0), 0);
	ASSERT_EQ_U64(add(1, 0), 0);
	ASSERT_EQ_U64(add(2, 1), 0);
	ASSERT_EQ_U64(add(3, 0), (uint64_t)-17);
	pc_destroy(&pc);
	return 0;
}

/* Removing folios frees nodes and shrinks the tree to nothing. */
static int test_erase_shrinks(void)
{
	struct folio *f[4];
	unsigned i;

	pc_init(&pc);
	ASSERT_EQ_U64(pc_add_folio(&pc, 0, 0, 0, &f[0]), 0);
	ASSERT_EQ_U64(pc_add_folio(&pc, 64, 6, 0, &f[1]), 0);
	ASSERT_EQ_U64(pc_add_folio(&pc, 100000, 3, 0, &f[2]), 0);
	ASSERT_EQ_U64(pc_add_folio(&pc, 5, 0, 0, &f[3]), 0);
	for (i = 0; i < 4; i++)
		pc_remove_folio(&pc, f[i]);
	ASSERT_EQ_U64(pc.i_pages.nr_nodes, 0);
	ASSERT_EQ_U64(pc.i_pages.head, 0);
	ASSERT_EQ_U64(pc.nrpages, 0);
	/* Freed folios are reused. */
	ASSERT_EQ_U64(add(7, 0), 0);
	ASSERT_EQ_U64(pc.nr_used, 4);
	pc_destroy(&pc);
	return 0;
}

int main(void)
{
	TEST(test_interleaved_stream_lag);
	TEST(test_next_miss_no_hole);
	TEST(test_conflicts);
	TEST(test_erase_shrinks);
	return TEST_SUMMARY("test_xarray");
}
