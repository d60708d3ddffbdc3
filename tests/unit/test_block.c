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
	blk_submit_read(&q, NULL, v, fill(v, 128, 0), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 1);
	ASSERT_EQ_U64(st.data_sectors, 1024);
	/* 512 pages of order >= 2: one bio split into 4 requests. */
	setup(&q, 2048, 512);
	blk_submit_read(&q, NULL, v, fill(v, 512, 2), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 4);
	/* 512 order-0 pages: two bios of 256 vectors, 128 segments each. */
	setup(&q, 2048, 1280);
	blk_submit_read(&q, NULL, v, fill(v, 512, 0), true, 0, NULL);
	blk_queue_release(&q);
	ASSERT_EQ_U64(st.data_reads, 4);
	ASSERT_EQ_U64(st.data_sectors, 4096);
	return 0;
}

static struct ralab_event evs[16];
static unsigned nevs;

static void record(void *arg, const struct ralab_event *ev)
{
	(void)arg;
	if (nevs < 16)
		evs[nevs++] = *ev;
}

/*
 * A queue reporting to record(), on XFS or @ext4, with max_sectors_kb
 * @msk_kb (0: the default) and, with @lat_ns, the device time model (one
 * request at a time, each done @lat_ns after it starts).
 */
static int queue_for(struct blk_queue *q, bool ext4, uint32_t msk_kb,
		     uint64_t lat_ns)
{
	struct ralab_config cfg;

	ralab_config_default(&cfg);
	cfg.fs = ext4 ? RALAB_FS_EXT4 : RALAB_FS_XFS;
	if (msk_kb)
		cfg.max_sectors_kb = msk_kb;
	cfg.dev_latency_ns = lat_ns;
	cfg.dev_queue_depth = 1;
	memset(&st, 0, sizeof(st));
	nevs = 0;
	if (blk_queue_setup(q, &cfg) || (lat_ns && blk_queue_timing(q, &cfg)))
		return -1;
	q->st = &st;
	q->emit = record;
	return 0;
}

/*
 * Extents of 100 KiB: four order-2 folios over file bytes [64K, 128K); the
 * one at 96K runs across the extent end at 100K (file sector 200).  What
 * 6.18.44 did with the same folios (tests/cases/frag-40-*): XFS cuts the
 * folio into two bios; ext4 reads it block by block as plain reads,
 * which merge with the readahead bios around them (mixed merges).
 */
static int test_extents(void)
{
	static struct blk_vec v[4];
	static const uint64_t brk[] = { 200 };
	const struct blk_layout lay = { .brk = brk, .n = 1 };
	const struct blk_layout every = { .n = 1, .every = 200 };
	uint64_t done[4];
	struct blk_queue q;
	unsigned i, fs, t;

	/* Both ways to say it: a list, and every 200 sectors. */
	for (t = 0; t < 4; t++) {
		const struct blk_layout *l = t & 2 ? &every : &lay;

		fs = t & 1;
		ASSERT_EQ_U64(queue_for(&q, fs, 0, 1000), 0);
		for (i = 0; i < 4; i++)
			v[i] = (struct blk_vec){ 128 + 32 * i, 16384, false };
		ASSERT_EQ_U64(blk_submit_read(&q, l, v, 4, true, 0, done), 0);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 2);
		/* Reported in file sectors, cut at the extent's end. */
		ASSERT_EQ_U64(evs[0].sector, 128);
		ASSERT_EQ_U64(evs[0].nr_sectors, 72);
		ASSERT_EQ_U64(evs[1].sector, 200);
		ASSERT_EQ_U64(evs[1].nr_sectors, 56);
		ASSERT_TRUE(evs[0].readahead);
		/* ext4's second request starts with a plain block read. */
		ASSERT_EQ_U64(evs[1].readahead, !fs);
		/* The folio across the end waits for both requests. */
		ASSERT_EQ_U64(done[0], 1000);
		ASSERT_EQ_U64(done[2], 2000);
		ASSERT_EQ_U64(done[3], 2000);
	}
	return 0;
}

/*
 * Holes, from the read paths (blk.c): four order-2 folios over file
 * sectors [0, 128) with a hole at [40, 56).  Without a break after it,
 * the data on both sides is disk-contiguous: one request of 112 sectors,
 * reported at file sector 0, the hole not read.  With a break at 56, on
 * XFS the folio at [32, 64) is two pieces in two requests; on ext4 that
 * folio has a hole before data, so it is read block by block (plain
 * reads: [32, 40) then [56, 64), merged into the requests around them).
 * A folio wholly in a hole (sectors [64, 96) here) is read without I/O
 * and does not wait.
 */
static int test_holes(void)
{
	static const uint64_t hole1[] = { 40, 56, 0, 16 }; /* + hcum */
	static const uint64_t hole2[] = { 40, 56, 64, 96, 0, 16, 48 };
	static const uint64_t brk[] = { 56 };
	struct blk_vec v[4];
	uint64_t done[4];
	struct blk_queue q;
	unsigned i, t;

	for (t = 0; t < 4; t++) {
		struct blk_layout l = { .hole = hole1, .hcum = hole1 + 2, .nh = 1 };
		bool ext4 = t & 1;

		if (t & 2)
			l = (struct blk_layout){ .brk = brk, .n = 1, .hole = hole1,
						 .hcum = hole1 + 2, .nh = 1 };
		ASSERT_EQ_U64(queue_for(&q, ext4, 0, 0), 0);
		for (i = 0; i < 4; i++)
			v[i] = (struct blk_vec){ 32 * i, 16384, false };
		ASSERT_EQ_U64(blk_submit_read(&q, &l, v, 4, true, 0, done), 0);
		blk_queue_release(&q);
		if (!(t & 2)) {
			ASSERT_EQ_U64(nevs, 1);
			ASSERT_EQ_U64(evs[0].sector, 0);
			ASSERT_EQ_U64(evs[0].nr_sectors, 112);
			continue;
		}
		ASSERT_EQ_U64(nevs, 2);
		ASSERT_EQ_U64(evs[0].sector, 0);
		ASSERT_EQ_U64(evs[0].nr_sectors, 40);
		ASSERT_EQ_U64(evs[1].sector, 56);
		ASSERT_EQ_U64(evs[1].nr_sectors, 72);
		ASSERT_TRUE(evs[0].readahead);
		/* ext4's second request starts with the plain block read. */
		ASSERT_EQ_U64(evs[1].readahead, !ext4);
	}
	/*
	 * A hole between disk-contiguous data, order-0 folios, requests of
	 * at most 64 sectors: the bio goes on past the hole, on XFS and on
	 * ext4 (0+64, then 72+56: disk sector 64 is file sector 72), as
	 * 6.18.44 did in 6 of 10 runs on ext4 (docs/design.md) and always on
	 * XFS; a bio ended at the hole would give 0+40, 48+64, 112+16.
	 */
	for (t = 0; t < 2; t++) {
		static const uint64_t hole3[] = { 40, 48, 0, 8 };
		const struct blk_layout l = { .hole = hole3, .hcum = hole3 + 2,
					      .nh = 1 };
		struct blk_vec w[16];

		ASSERT_EQ_U64(queue_for(&q, t, 32, 0), 0);
		for (i = 0; i < 16; i++)
			w[i] = (struct blk_vec){ 8 * i, 4096, false };
		ASSERT_EQ_U64(blk_submit_read(&q, &l, w, 16, true, 0, NULL), 0);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 2);
		ASSERT_EQ_U64(evs[0].sector, 0);
		ASSERT_EQ_U64(evs[0].nr_sectors, 64);
		ASSERT_EQ_U64(evs[1].sector, 72);
		ASSERT_EQ_U64(evs[1].nr_sectors, 56);
	}
	/*
	 * The same hole keeping its disk space (a punched one: hcum does not
	 * grow over it), alone and after a space-less hole it touches (the
	 * file's own, pages 5 and 6): the data after it is not
	 * disk-contiguous with the data before, so the bio ends at the hole.
	 */
	for (t = 0; t < 4; t++) {
		static const uint64_t hole5[] = { 40, 48, 0, 0 };
		static const uint64_t hole6[] = { 40, 48, 48, 56, 0, 8, 8 };
		const struct blk_layout l5 = { .hole = hole5, .hcum = hole5 + 2,
					       .nh = 1 };
		const struct blk_layout l6 = { .hole = hole6, .hcum = hole6 + 4,
					       .nh = 2 };
		const uint64_t after = t < 2 ? 48 : 56;
		struct blk_vec w[16];
		unsigned k = 0;

		ASSERT_EQ_U64(queue_for(&q, t & 1, 32, 0), 0);
		for (i = 0; i < 16; i++)
			if (8 * i < 40 || 8 * i >= after)
				w[k++] = (struct blk_vec){ 8 * i, 4096, false };
		ASSERT_EQ_U64(blk_submit_read(&q, t < 2 ? &l5 : &l6, w, k, true,
					      0, NULL), 0);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 3);
		ASSERT_EQ_U64(evs[0].sector, 0);
		ASSERT_EQ_U64(evs[0].nr_sectors, 40);
		ASSERT_EQ_U64(evs[1].sector, after);
		ASSERT_EQ_U64(evs[1].nr_sectors, 64);
		ASSERT_EQ_U64(evs[2].sector, after + 64);
		ASSERT_EQ_U64(evs[2].nr_sectors, 128 - after - 64);
	}
	/*
	 * The bio iomap_readpage_iter() allocates holds a vector per page
	 * left in the mapping where it starts (bio_alloc(): 4 inline, then
	 * 16, 64, 128 or 256): order-0 folios at pages 3..18, a hole at page
	 * 5 between disk-contiguous data, requests of at most 8 pages.  The
	 * first bio starts 2 pages before the hole: 4 vectors, pages 3, 4, 6
	 * and 7 (32 sectors at file sector 24); the next, at page 8 (11 pages
	 * left: 16 vectors), is split after 8 pages and does not merge into
	 * the 4-page request (12 > 8): 64+64, then 128+24.  One bio of 15
	 * vectors would give 24+64, 96+56.  (6.18.44: tests/cases cannot
	 * hold it, since pages the allocator put next to each other merge
	 * into one vector, and the kernel's first request then holds more
	 * pages in some runs: docs/design.md.)
	 */
	{
		static const uint64_t hole4[] = { 40, 48, 0, 8 };
		const struct blk_layout l = { .hole = hole4, .hcum = hole4 + 2,
					      .nh = 1 };
		struct blk_vec w[15];
		unsigned k = 0;

		ASSERT_EQ_U64(queue_for(&q, false, 32, 0), 0);
		for (i = 3; i < 19; i++)
			if (i != 5)
				w[k++] = (struct blk_vec){ 8 * i, 4096, false };
		ASSERT_EQ_U64(blk_submit_read(&q, &l, w, k, true, 0, NULL), 0);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 3);
		ASSERT_EQ_U64(evs[0].sector, 24);
		ASSERT_EQ_U64(evs[0].nr_sectors, 32);
		ASSERT_EQ_U64(evs[1].sector, 64);
		ASSERT_EQ_U64(evs[1].nr_sectors, 64);
		ASSERT_EQ_U64(evs[2].sector, 128);
		ASSERT_EQ_U64(evs[2].nr_sectors, 24);
	}
	/* A folio in a hole: no I/O, in memory at once. */
	{
		const struct blk_layout l = { .hole = hole2, .hcum = hole2 + 4,
					      .nh = 2 };

		ASSERT_EQ_U64(queue_for(&q, false, 0, 1000), 0);
		for (i = 0; i < 4; i++)
			v[i] = (struct blk_vec){ 32 * i, 16384, false };
		ASSERT_EQ_U64(blk_submit_read(&q, &l, v, 4, true, 0, done), 0);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 1);
		ASSERT_EQ_U64(evs[0].nr_sectors, 80);
		ASSERT_EQ_U64(done[2], 0);
		ASSERT_EQ_U64(done[3], 1000);
	}
	return 0;
}

/*
 * dev_iops: four direct reads of 4 KiB submitted together on a device of
 * queue depth 4 and 1 us latency start at most every 0.5 us (2 million a
 * second): done at 1, 1.5, 2 and 2.5 us, where without the limit all four
 * are done at 1 us.  dev_contention_ns 250: each finds 0, 1, 2 and 3
 * requests in service, so done at 1, 1.25, 1.5 and 1.75 us; with both, the
 * second starts at 0.5 us beside the first (1.75), the third at 1 us, when
 * the first is done, beside the second (2.25), the fourth at 1.5 us beside
 * the second and third (3 us).  A lone read later waits for nothing.
 */
static int test_iops(void)
{
	static const struct blk_layout flat;
	static const uint64_t want[4][4] = { { 1000, 1000, 1000, 1000 },
					     { 1000, 1500, 2000, 2500 },
					     { 1000, 1250, 1500, 1750 },
					     { 1000, 1750, 2250, 3000 } };
	struct ralab_config cfg;
	struct blk_queue q;
	uint64_t done;
	unsigned i, lim;

	for (lim = 0; lim < 4; lim++) {
		ralab_config_default(&cfg);
		cfg.dev_latency_ns = 1000;
		cfg.dev_queue_depth = 4;
		cfg.dev_iops = lim & 1 ? 2000000 : 0;
		cfg.dev_contention_ns = lim & 2 ? 250 : 0;
		memset(&st, 0, sizeof(st));
		nevs = 0;
		ASSERT_EQ_U64(blk_queue_setup(&q, &cfg), 0);
		ASSERT_EQ_U64(blk_queue_timing(&q, &cfg), 0);
		q.st = &st;
		q.emit = record;
		for (i = 0; i < 4; i++) {
			ASSERT_EQ_U64(blk_submit_direct(&q, &flat, 64 * i, 8, 0,
							&done), 0);
			ASSERT_EQ_U64(done, want[lim][i]);
		}
		ASSERT_EQ_U64(blk_submit_direct(&q, &flat, 1024, 8, 10000, &done),
			      0);
		ASSERT_EQ_U64(done, 11000);
		blk_queue_release(&q);
		ASSERT_EQ_U64(nevs, 5);
	}
	return 0;
}

/*
 * A held plug (madvise()'s, around MADV_POPULATE_READ): two windows of
 * 32 order-0 pages, submitted one after the other, leave as one 256 KiB
 * request, as 6.18.44 issued them (tests/cases/populate-read-xfs); their
 * vectors are done at BLK_DONE_HELD until the plug is flushed.  A
 * window of max_sectors_kb is issued when the next one joins the plug
 * (blk_add_rq_to_plug(): a request of 128 KiB or more before it).
 */
static int test_held_plug(void)
{
	static struct blk_vec v[64];
	uint64_t done[64];
	struct blk_queue q;
	unsigned i;

	if (queue_for(&q, false, 512, 0))
		return 1;
	fill(v, 64, 0);
	q.held = true;
	blk_submit_read(&q, NULL, v, 32, true, 0, done);
	ASSERT_EQ_U64(nevs, 0);
	ASSERT_TRUE(done[31] == BLK_DONE_HELD);
	blk_submit_read(&q, NULL, v + 32, 32, true, 0, done + 32);
	ASSERT_EQ_U64(nevs, 0);
	ASSERT_EQ_U64(q.plug_count, 1);
	blk_plug_flush(&q, NULL, 0);
	ASSERT_EQ_U64(nevs, 1);
	ASSERT_EQ_U64(evs[0].sector, 0);
	ASSERT_EQ_U64(evs[0].nr_sectors, 512);
	ASSERT_EQ_U64(q.nr_log, 1);
	/* 128-page windows at max_sectors_kb 512: the first one leaves. */
	nevs = 0;
	for (i = 0; i < 2; i++) {
		struct blk_vec w[128];
		unsigned k;

		for (k = 0; k < 128; k++)
			w[k] = (struct blk_vec){ 8192 + (i * 128 + k) * 8, 4096, false };
		blk_submit_read(&q, NULL, w, 128, true, 0, NULL);
	}
	ASSERT_EQ_U64(nevs, 1);
	ASSERT_EQ_U64(evs[0].sector, 8192);
	ASSERT_EQ_U64(q.plug_count, 1);
	/* The plug is the task's: taken aside and put back whole. */
	{
		struct blk_rq aside[BLK_PLUG_MAX_RQ];
		unsigned n = blk_plug_take(&q, aside);

		ASSERT_EQ_U64(n, 1);
		ASSERT_EQ_U64(q.plug_count, 0);
		blk_plug_put(&q, aside, n);
	}
	q.held = false;
	blk_plug_flush(&q, NULL, 0);
	ASSERT_EQ_U64(nevs, 2);
	ASSERT_EQ_U64(evs[1].sector, 8192 + 1024);
	blk_queue_release(&q);
	return 0;
}

int main(void)
{
	TEST(test_sysfs_order);
	TEST(test_window_requests);
	TEST(test_extents);
	TEST(test_holes);
	TEST(test_iops);
	TEST(test_held_plug);
	return TEST_SUMMARY("test_block");
}
