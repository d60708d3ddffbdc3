// SPDX-License-Identifier: MIT
/*
 * The readahead policy drives a cache that is not ralab's.
 *
 * policy.h promises that the policy reaches the page cache and the device
 * only through struct ra_mapping_ops, so that the same code can drive a
 * real userspace cache later.  This test holds it to that: a toy cache of
 * its own (flat arrays, no XArray, no simulator, no device) and a toy
 * read loop (filemap_get_pages() reduced to a page at a time) run the
 * linux-6.18 policy over 4 KiB sequential reads.  The expected windows are
 * the kernel's, measured on 6.18.44 (spec section 8.1), not this code's.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "policy/policy.h"

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

static pgoff_t toy_next_miss(void *m, pgoff_t index, unsigned long max)
{
	struct toy *t = m;
	unsigned long i;

	for (i = 0; i < max; i++, index++)
		if (index >= NPAGES || t->head[index] < 0)
			return index;
	return index;
}

static pgoff_t toy_prev_miss(void *m, pgoff_t index, unsigned long max)
{
	struct toy *t = m;
	unsigned long i;

	for (i = 0; i < max; i++, index--) {
		if (index >= NPAGES || t->head[index] < 0)
			return index;
		if (!index)
			return RA_ULONG_MAX;
	}
	return index + 1;
}

static bool toy_present(void *m, pgoff_t index)
{
	struct toy *t = m;

	return index < NPAGES && t->head[index] >= 0;
}

static int toy_add_folio(void *m, pgoff_t index, unsigned order, bool mark)
{
	struct toy *t = m;
	pgoff_t i, n = (pgoff_t)1 << order;

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

static void toy_clear_readahead(void *m, pgoff_t index)
{
	struct toy *t = m;

	t->mark[index] = false;
}

static void toy_trace(void *m, const struct ralab_event *ev)
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

static const struct ra_mapping_ops toy_ops = {
	.next_miss = toy_next_miss,
	.prev_miss = toy_prev_miss,
	.present = toy_present,
	.add_folio = toy_add_folio,
	.read_pages = toy_read_pages,
	.clear_readahead = toy_clear_readahead,
	.trace = toy_trace,
};

static struct toy toy;

/*
 * read(2) of one page at @index, as filemap_get_pages() sees it: an
 * absent page calls page_cache_sync_ra(); a folio with PG_readahead calls
 * page_cache_async_ra() (which clears the mark).
 */
static void toy_read(const struct ralab_policy_ops *pol,
		     struct readahead_control *ractl, pgoff_t index)
{
	ractl->_index = index;
	ractl->_nr_pages = 0;
	if (toy.head[index] < 0)
		pol->sync_ra(ractl, 1);
	if (toy.head[index] >= 0 && toy.mark[toy.head[index]]) {
		struct ra_folio f = {
			.index = (pgoff_t)toy.head[index],
			.order = toy.order[index],
		};

		ractl->_index = f.index;
		ractl->_nr_pages = 0;
		pol->async_ra(ractl, &f, 1);
	}
	ractl->ra->prev_pos = (int64_t)(index + 1) * RALAB_PAGE_SIZE;
}

static int test_linux618_drives_a_toy_cache(void)
{
	/* Spec 8.1: [start, size, async_size] of each window, in order. */
	static const uint64_t want[][3] = {
		{ 0, 4, 3 },    { 4, 8, 8 },    { 12, 4, 4 },   { 16, 8, 8 },
		{ 24, 8, 8 },   { 32, 16, 16 }, { 48, 16, 16 }, { 64, 32, 32 },
		{ 96, 32, 32 }, { 128, 32, 32 },
	};
	const struct ralab_policy_ops *pol = ralab__policy_find("linux-6.18");
	struct ra_mapping m = {
		.ops = &toy_ops,
		.priv = &toy,
		.i_size = NPAGES * RALAB_PAGE_SIZE,
		.max_order = 9,
		.large_folios = true,
		.io_pages = 128, /* max_sectors_kb 512 */
	};
	struct file_ra_state ra = { .ra_pages = 32, .prev_pos = -1 };
	struct readahead_control ractl = {
		.mapping = &m,
		.ra = &ra,
		.has_file = true,
	};
	pgoff_t i;
	unsigned k;

	memset(&toy, 0, sizeof(toy));
	for (i = 0; i < NPAGES; i++)
		toy.head[i] = -1;
	ASSERT_TRUE(pol != NULL);
	for (i = 0; i < 160; i++)
		toy_read(pol, &ractl, i);
	ASSERT_EQ_U64(toy.nsync, 1);
	ASSERT_TRUE(toy.nwin >= sizeof(want) / sizeof(want[0]));
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		ASSERT_EQ_U64(toy.win[k][0], want[k][0]);
		ASSERT_EQ_U64(toy.win[k][1], want[k][1]);
		ASSERT_EQ_U64(toy.win[k][2], want[k][2]);
	}
	/* One submission per window, as the kernel's one request each. */
	ASSERT_EQ_U64(toy.submits, toy.nwin);
	/* The steady state is order-5 folios (spec 8.1, windows 8-10). */
	ASSERT_EQ_U64(toy.order[100], 5);
	ASSERT_EQ_U64(toy.order[140], 5);
	return 0;
}

int main(void)
{
	TEST(test_linux618_drives_a_toy_cache);
	return TEST_SUMMARY("test_policy");
}
