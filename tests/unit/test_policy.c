// SPDX-License-Identifier: MIT
/*
 * The readahead policy drives a cache that is not ralab's.
 *
 * The policies reach the page cache and the device only through a narrow
 * interface, public as struct ralab_cache_ops (ralab_ra_*() in ralab.h),
 * so that a real userspace cache can take its readahead decisions from
 * them.  This test holds that to account with nothing but the public
 * API: a toy cache of its own (flat arrays, no XArray, no simulator, no
 * device) and a toy read loop (filemap_get_pages() reduced to a page at a
 * time) run the linux-6.18 policy over 4 KiB sequential reads.  The
 * expected windows are the kernel's, measured on 6.18.44 (spec section
 * 8.1), not this code's.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "ralab.h"

#define NPAGES 512 /* a 2 MiB file */

/* The toy cache: for each page, the head of its folio (or -1) and flags. */
struct toy {
	int64_t head[NPAGES];
	unsigned order[NPAGES];
	bool mark[NPAGES];
	unsigned batch;       /* folios added since the last read_pages */
	unsigned submits;     /* read_pages calls with a non-empty batch */
	/* Windows in order: page_cache_ra_order(index, size, async_size). */
	uint64_t win[64][3];
	unsigned nwin, nsync, nasync;
};

static int toy_add_folio(void *m, uint64_t index, unsigned order, bool mark)
{
	struct toy *t = m;
	uint64_t i, n = (uint64_t)1 << order;

	if (index + n > NPAGES)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (t->head[index + i] >= 0)
			return -EEXIST;
	for (i = 0; i < n; i++) {
		t->head[index + i] = (int64_t)index;
		t->order[index + i] = order;
	}
	t->mark[index] = mark;
	t->batch++;
	return 0;
}

static void toy_read_pages(void *m)
{
	struct toy *t = m;

	t->submits += t->batch > 0;
	t->batch = 0;
}

static void toy_clear_readahead(void *m, uint64_t index)
{
	struct toy *t = m;

	t->mark[index] = false;
}

static void toy_event(void *m, const struct ralab_event *ev)
{
	struct toy *t = m;

	if (ev->type == RALAB_EV_SYNC_RA)
		t->nsync++;
	else if (ev->type == RALAB_EV_ASYNC_RA)
		t->nasync++;
	else if (ev->type == RALAB_EV_RA_ORDER && t->nwin < 64) {
		t->win[t->nwin][0] = ev->index;
		t->win[t->nwin][1] = ev->size;
		t->win[t->nwin][2] = ev->async_size;
		t->nwin++;
	}
}

static const struct ralab_cache_ops toy_ops = {
	.add_folio = toy_add_folio,
	.read_pages = toy_read_pages,
	.clear_readahead = toy_clear_readahead,
	.event = toy_event,
};

static struct toy toy;

/*
 * read(2) of one page at @index, as filemap_get_pages() sees it: an
 * absent page calls page_cache_sync_ra(); a folio with PG_readahead calls
 * page_cache_async_ra() (which clears the mark).
 */
static void toy_read(struct ralab_ra *ra, uint64_t index)
{
	if (toy.head[index] < 0)
		ralab_ra_sync(ra, index, 1);
	if (toy.head[index] >= 0 && toy.mark[toy.head[index]])
		ralab_ra_async(ra, (uint64_t)toy.head[index], toy.order[index], 1);
	ralab_ra_read_done(ra, (index + 1) * RALAB_PAGE_SIZE);
}

/* Spec 8.1: [start, size, async_size] of each window, in order. */
static const uint64_t spec81[][3] = {
	{ 0, 4, 3 },    { 4, 8, 8 },    { 12, 4, 4 },   { 16, 8, 8 },
	{ 24, 8, 8 },   { 32, 16, 16 }, { 48, 16, 16 }, { 64, 32, 32 },
	{ 96, 32, 32 }, { 128, 32, 32 },
};

/*
 * 160 pages read one by one through the toy cache under @p: one sync
 * call, spec 8.1's windows, one submission each, order 5 at the end.
 */
static int read_spec81(const struct ralab_ra_params *p)
{
	struct ralab_ra *ra;
	uint64_t i;
	unsigned k;

	memset(&toy, 0, sizeof(toy));
	for (i = 0; i < NPAGES; i++)
		toy.head[i] = -1;
	ASSERT_EQ_U64(ralab_ra_create(p, &toy_ops, &toy, &ra), 0);
	for (i = 0; i < 160; i++)
		toy_read(ra, i);
	ralab_ra_destroy(ra);
	ASSERT_EQ_U64(toy.nsync, 1);
	ASSERT_TRUE(toy.nwin >= sizeof(spec81) / sizeof(spec81[0]));
	for (k = 0; k < sizeof(spec81) / sizeof(spec81[0]); k++) {
		ASSERT_EQ_U64(toy.win[k][0], spec81[k][0]);
		ASSERT_EQ_U64(toy.win[k][1], spec81[k][1]);
		ASSERT_EQ_U64(toy.win[k][2], spec81[k][2]);
	}
	/* One submission per window, as the kernel's one request each. */
	ASSERT_EQ_U64(toy.submits, toy.nwin);
	/* The steady state is order-5 folios (spec 8.1, windows 8-10). */
	ASSERT_EQ_U64(toy.order[100], 5);
	ASSERT_EQ_U64(toy.order[140], 5);
	return 0;
}

static int test_linux618_drives_a_toy_cache(void)
{
	const struct ralab_ra_params p = {
		.i_size = NPAGES * RALAB_PAGE_SIZE,
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};

	return read_spec81(&p);
}

/*
 * The same reader under linux-6.9's code with every patch since, named by
 * series: 6.18's windows, through the public API.
 */
static int test_linux69_with_the_patches_since(void)
{
	static const char *const since[] = { "kara-2024", "shao-2024",
					     "chi-2025", "roberts-2025" };
	struct ralab_ra_params p = {
		.policy = "linux-6.9",
		.patches = since,
		.nr_patches = 4,
		.i_size = NPAGES * RALAB_PAGE_SIZE,
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};
	struct ralab_ra *ra;

	if (read_spec81(&p))
		return 1;
	/* A series of another policy, or of none. */
	p.policy = "linux-6.18";
	p.nr_patches = 1;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-EINVAL);
	p.patches = (const char *const[]){ "kara" };
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-ENOENT);
	return 0;
}

/* Readahead stops at EOF, and follows it when the file grows. */
static int test_set_size(void)
{
	const struct ralab_ra_params p = {
		.i_size = 4 * RALAB_PAGE_SIZE,
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};
	struct ralab_ra *ra;
	uint64_t i;

	memset(&toy, 0, sizeof(toy));
	for (i = 0; i < NPAGES; i++)
		toy.head[i] = -1;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), 0);
	ralab_ra_sync(ra, 0, 1);
	ASSERT_TRUE(ralab_ra_cached(ra, 3) && toy.head[3] >= 0);
	ralab_ra_read_done(ra, RALAB_PAGE_SIZE);
	ralab_ra_sync(ra, 4, 1); /* past EOF: nothing */
	ASSERT_TRUE(!ralab_ra_cached(ra, 4) && toy.head[4] < 0);
	ralab_ra_set_size(ra, 64 * RALAB_PAGE_SIZE);
	ralab_ra_sync(ra, 4, 1);
	ASSERT_TRUE(ralab_ra_cached(ra, 4) && toy.head[4] >= 0);
	/* The caller's own folios: aligned, and removed with their order. */
	ASSERT_EQ_U64(ralab_ra_folio_added(ra, 40, 1), 0);
	ASSERT_EQ_U64(ralab_ra_folio_added(ra, 41, 0), (uint64_t)-EEXIST);
	ASSERT_EQ_U64(ralab_ra_folio_added(ra, 43, 1), (uint64_t)-EINVAL);
	ASSERT_EQ_U64(ralab_ra_folio_removed(ra, 40, 0), (uint64_t)-ENOENT);
	ASSERT_EQ_U64(ralab_ra_folio_removed(ra, 40, 1), 0);
	ASSERT_TRUE(!ralab_ra_cached(ra, 41));
	ralab_ra_destroy(ra);
	return 0;
}

/* Bad parameters are refused, not half-applied. */
static int test_create_refuses(void)
{
	struct ralab_ra_params p = { .read_ahead_kb = 128, .max_order = 9 };
	struct ralab_cache_ops none = { 0 };
	const char *other[] = { "kara-2024/01" };
	struct ralab_ra *ra = (struct ralab_ra *)&p;

	ASSERT_EQ_U64(ralab_ra_create(&p, &none, NULL, &ra), (uint64_t)-EINVAL);
	ASSERT_TRUE(ra == NULL);
	p.policy = "linux-0.01";
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-ENOENT);
	p.policy = "linux-6.18";
	p.patches = other;
	p.nr_patches = 1;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-EINVAL);
	p.nr_patches = 0;
	p.max_order = 40;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-EINVAL);
	/* A block larger than the largest folio, or than 64 KiB. */
	p.max_order = 1;
	p.min_order = 2;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-EINVAL);
	p.max_order = 9;
	p.min_order = 5;
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra), (uint64_t)-EINVAL);
	/* Large blocks need 6.18's code. */
	p.min_order = 2;
	p.policy = "linux-6.12";
	ASSERT_EQ_U64(ralab_ra_create(&p, &toy_ops, &toy, &ra),
		      (uint64_t)-EOPNOTSUPP);
	ASSERT_TRUE(ra == NULL);
	return 0;
}

int main(void)
{
	TEST(test_linux618_drives_a_toy_cache);
	TEST(test_linux69_with_the_patches_since);
	TEST(test_set_size);
	TEST(test_create_refuses);
	return TEST_SUMMARY("test_policy");
}
