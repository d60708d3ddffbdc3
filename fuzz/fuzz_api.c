// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the public readahead API (ralab_ra_*): the input is
 * a file size, queue limits, a policy (with patches) and a program of
 * reads, evictions, fadvise calls, size changes and inserts of one's own,
 * run over a toy cache that checks the API's promises: @add_folio gets
 * aligned, free ranges inside the file; @clear_readahead names a folio
 * there.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ralab.h"

#define MAX_PAGES 4096 /* 16 MiB files at most: short runs */

struct toy {
	uint64_t i_size;
	/* Per page: 0 absent; else 1 + order at a folio's head, 0xff in
	 * its tail pages.  mark: PG_readahead, at heads. */
	uint8_t page[MAX_PAGES];
	bool mark[MAX_PAGES];
	unsigned min_order; /* ralab_ra_params.min_order */
};

static uint64_t pages(const struct toy *t)
{
	return (t->i_size + 4095) / 4096;
}

static bool range_free(const struct toy *t, uint64_t index, unsigned order)
{
	uint64_t i;

	if (index + (1ull << order) > MAX_PAGES)
		return false;
	for (i = 0; i < (1ull << order); i++)
		if (t->page[index + i])
			return false;
	return true;
}

static void insert(struct toy *t, uint64_t index, unsigned order, bool mark)
{
	uint64_t i;

	t->page[index] = (uint8_t)(1 + order);
	for (i = 1; i < (1ull << order); i++)
		t->page[index + i] = 0xff;
	t->mark[index] = mark;
}

static int add_folio(void *ctx, uint64_t index, unsigned order, bool mark)
{
	struct toy *t = ctx;

	/*
	 * ralab promises an aligned, free range that starts inside the file,
	 * no smaller than a block.
	 */
	if (order > RALAB_MAX_ORDER || order < t->min_order ||
	    index & ((1ull << order) - 1) ||
	    index >= pages(t) || !range_free(t, index, order))
		__builtin_trap();
	insert(t, index, order, mark);
	return 0;
}

static void read_pages(void *ctx)
{
	(void)ctx;
}

static void clear_readahead(void *ctx, uint64_t index)
{
	struct toy *t = ctx;

	if (index >= MAX_PAGES || !t->page[index] || t->page[index] == 0xff)
		__builtin_trap();
	t->mark[index] = false;
}

/* The head of the folio holding page @p, or MAX_PAGES. */
static uint64_t head_of(const struct toy *t, uint64_t p)
{
	while (p < MAX_PAGES && t->page[p] == 0xff && p > 0)
		p--;
	return p < MAX_PAGES && t->page[p] && t->page[p] != 0xff ? p : MAX_PAGES;
}

static void drop(struct toy *t, struct ralab_ra *ra, uint64_t h)
{
	unsigned order = t->page[h] - 1u;

	if (ralab_ra_folio_removed(ra, h, order))
		__builtin_trap();
	memset(&t->page[h], 0, (size_t)1 << order);
	t->mark[h] = false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Policies and patches by the seventh byte: each has code of its own. */
static const char *const kim[] = { "kim-2025" };
static const char *const li[] = { "li-2025" };
static const char *const since[] = { "kara-2024", "shao-2024", "chi-2025",
				     "roberts-2025" };
static const struct fuzz_policy {
	const char *policy;
	const char *const *patches;
	unsigned nr;
} pols[] = {
	{ "linux-6.18", NULL, 0 }, { "linux-6.18", kim, 1 },
	{ "linux-6.18", li, 1 },   { "linux-6.9", since, 4 },
	{ "linux-6.9", NULL, 0 },  { "linux-6.12", NULL, 0 },
	{ "park-2026", NULL, 0 },  { "kara-2026", NULL, 0 },
	{ "linux-6.1", NULL, 0 },  { "ctx-2013-old", NULL, 0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ralab_cache_ops ops = {
		add_folio, read_pages, clear_readahead, NULL,
	};
	struct ralab_ra_params p = { 0 };
	const struct fuzz_policy *pol;
	struct ralab_ra *ra;
	struct toy *t;
	size_t at = 7;
	uint64_t pos = 0;

	if (size < 7)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return 0;
	t->i_size = ((uint64_t)data[0] << 8 | data[1]) * 4096 % (MAX_PAGES * 4096ull) +
		    data[2];
	p.i_size = t->i_size;
	p.read_ahead_kb = (uint32_t)data[3] * 4;
	p.max_sectors_kb = 4 + (uint32_t)data[4] * 8;
	p.max_order = data[5] % (RALAB_MAX_ORDER + 1);
	/* Large blocks (min_order) from the byte's high bits, when it fits. */
	p.min_order = (unsigned)(data[5] >> 5) % 5;
	if (p.min_order > p.max_order)
		p.min_order = 0;
	t->min_order = p.min_order;
	pol = &pols[data[6] % (sizeof(pols) / sizeof(pols[0]))];
	p.policy = pol->policy;
	p.patches = pol->patches;
	p.nr_patches = pol->nr;
	if (ralab_ra_create(&p, &ops, t, &ra)) {
		free(t);
		return 0;
	}
	while (at + 3 <= size) {
		uint8_t kind = data[at] % 6;
		uint64_t a = ((uint64_t)data[at + 1] << 8 | data[at + 2]) % MAX_PAGES;
		uint64_t n = 1 + data[at] / 6 % 64, h;

		at += 3;
		switch (kind) {
		case 0: /* a read of n pages at page a */
			if (a >= pages(t))
				break;
			if (!t->page[a]) {
				/* The aligned block, if readahead left it free. */
				uint64_t b = a & ~((1ull << p.min_order) - 1);

				ralab_ra_sync(ra, a, n);
				if (!t->page[a] && range_free(t, b, p.min_order)) {
					insert(t, b, p.min_order, false);
					if (ralab_ra_folio_added(ra, b, p.min_order))
						__builtin_trap();
				}
			}
			h = head_of(t, a);
			if (h < MAX_PAGES && t->mark[h])
				ralab_ra_async(ra, h, t->page[h] - 1u, n);
			pos = (a + n) * 4096;
			ralab_ra_read_done(ra, pos);
			break;
		case 1: /* eviction */
			h = head_of(t, a);
			if (h < MAX_PAGES)
				drop(t, ra, h);
			break;
		case 2: /* fadvise */
			ralab_ra_fadvise(ra, (int64_t)(a * 4096),
					 (int64_t)(n * 4096), (int)(n % 6));
			break;
		case 3: { /* the file changes size */
			uint64_t p2, e;

			t->i_size = a * 4096 + n;
			e = pages(t);
			for (p2 = 0; p2 < MAX_PAGES; p2++)
				if (t->page[p2] && t->page[p2] != 0xff &&
				    p2 + (1ull << (t->page[p2] - 1)) > e)
					drop(t, ra, p2);
			ralab_ra_set_size(ra, t->i_size);
			break;
		}
		case 4: { /* an insert of one's own */
			unsigned order = p.min_order + (unsigned)(n %
				(p.max_order - p.min_order + 1));

			a &= ~((1ull << order) - 1);
			if (a < pages(t) && range_free(t, a, order)) {
				insert(t, a, order, false);
				if (ralab_ra_folio_added(ra, a, order))
					__builtin_trap();
			}
			break;
		}
		default: /* ralab's view of the cache is the toy's */
			if (a < MAX_PAGES && ralab_ra_cached(ra, a) != (t->page[a] != 0))
				__builtin_trap();
			break;
		}
	}
	ralab_ra_destroy(ra);
	free(t);
	return 0;
}
