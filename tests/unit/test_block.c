// SPDX-License-Identifier: MIT
/*
 * Queue parameters and request shaping.  Expected values are what the
 * 6.18.44 kernel did on a loop device (spec sections 1.2 and 6.6).
 */
#include <string.h>

#include "block/blk.h"
#include "harness.h"

static struct ralab_stats st;

static void setup(struct blk_queue *q, uint32_t ra_kb, uint32_t msk)
{
	struct ralab_config cfg;

	ralab_config_default(&cfg);
	cfg.read_ahead_kb = ra_kb;
	cfg.max_sectors_kb = msk;
	memset(&st, 0, sizeof(st));
	blk_queue_setup(q, &cfg);
	q->st = &st;
}

/* Writing max_sectors_kb re-derives read_ahead_kb, never lowering it. */
static int test_sysfs_order(void)
{
	struct blk_queue q;
	struct ralab_config cfg;

	ralab_config_default(&cfg);
	blk_queue_setup(&q, &cfg);
	/* A fresh loop device: 1280 and 2 x 1280. */
	ASSERT_EQ_U64(blk_set_max_sectors_kb(&q, 0), 0);
	ASSERT_EQ_U64(q.max_sectors, 2560);
	blk_set_read_ahead_kb(&q, 128);
	ASSERT_EQ_U64(blk_set_max_sectors_kb(&q, 512), 0);
	ASSERT_EQ_U64(q.ra_pages * 4, 1024);
	ASSERT_EQ_U64(q.io_pages, 128);
	blk_set_read_ahead_kb(&q, 4000);
	ASSERT_EQ_U64(blk_set_max_sectors_kb(&q, 512), 0);
	ASSERT_EQ_U64(q.ra_pages * 4, 4000);
	blk_set_read_ahead_kb(&q, 128);
	ASSERT_EQ_U64(blk_set_max_sectors_kb(&q, 64), 0);
	ASSERT_EQ_U64(q.ra_pages * 4, 128);
	/* Out of range values are refused, as sysfs refuses them. */
	ASSERT_TRUE(blk_set_max_sectors_kb(&q, 1284) < 0);
	ASSERT_TRUE(blk_set_max_sectors_kb(&q, 2) < 0);
	return 0;
}

static unsigned fill(struct blk_vec *v, unsigned pages, unsigned order)
{
	unsigned i, n = pages >> order;

	for (i = 0; i < n; i++) {
		v[i].sector = (uint64_t)i * (8u << order);
		v[i].bytes = 4096u << order;
	}
	return n;
}

static int test_window_requests(void)
{
	static struct blk_vec v[512];
	struct blk_queue q;

	/* 128 order-0 pages, msk 512: one request of 1024 sectors. */
	setup(&q, 128, 512);
	blk_submit_read(&q, v, fill(v, 128, 0), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 1);
	ASSERT_EQ_U64(st.data_sectors, 1024);
	/* 512 pages of order >= 2: one bio split into 4 requests. */
	setup(&q, 2048, 512);
	blk_submit_read(&q, v, fill(v, 512, 2), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 4);
	/* 512 order-0 pages: two bios of 256 vectors, 128 segments each. */
	setup(&q, 2048, 1280);
	blk_submit_read(&q, v, fill(v, 512, 0), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 4);
	ASSERT_EQ_U64(st.data_sectors, 4096);
	return 0;
}

int main(void)
{
	TEST(test_sysfs_order);
	TEST(test_window_requests);
	return TEST_SUMMARY("test_block");
}
