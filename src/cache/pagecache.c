// SPDX-License-Identifier: MIT
/*
 * pagecache.c - folio allocation and the page-cache index of one file.
 */
#include "pagecache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void pc_init(struct page_cache *pc)
{
	memset(pc, 0, sizeof(*pc));
}

void pc_destroy(struct page_cache *pc)
{
	uint32_t i;

	xa_destroy(&pc->i_pages);
	for (i = 0; i < pc->nr_chunks; i++)
		free(pc->chunks[i]);
	free(pc->chunks);
	memset(pc, 0, sizeof(*pc));
}

static struct folio *folio_slot(struct page_cache *pc, uint32_t n)
{
	return &pc->chunks[n / FOLIO_CHUNK][n % FOLIO_CHUNK];
}

static struct folio *folio_alloc(struct page_cache *pc)
{
	struct folio *f;

	if (pc->free_head) {
		f = folio_slot(pc, pc->free_head - 1);
		pc->free_head = f->next_free;
		return f;
	}
	if (pc->nr_used == pc->nr_chunks * FOLIO_CHUNK) {
		if (pc->nr_chunks == pc->cap_chunks) {
			uint32_t cap = pc->cap_chunks ? pc->cap_chunks * 2 : 16;
			struct folio **c = realloc(pc->chunks,
						   cap * sizeof(*c));

			if (!c)
				return NULL;
			pc->chunks = c;
			pc->cap_chunks = cap;
		}
		pc->chunks[pc->nr_chunks] =
			malloc(FOLIO_CHUNK * sizeof(struct folio));
		if (!pc->chunks[pc->nr_chunks])
			return NULL;
		pc->nr_chunks++;
	}
	f = folio_slot(pc, pc->nr_used);
	f->id = ++pc->nr_used;
	return f;
}

int pc_add_folio(struct page_cache *pc, uint64_t index, unsigned order,
		 unsigned flags, struct folio **out)
{
	struct folio *f;

	if (!xa_range_empty(&pc->i_pages, index, order))
		return -EEXIST;
	f = folio_alloc(pc);
	if (!f)
		return -ENOMEM;
	f->index = index;
	f->done_ns = 0;
	f->wb_done_ns = 0;
	f->order = (uint8_t)order;
	f->flags = (uint16_t)flags;
	f->pad = 0;
	f->next_free = 0;
	if (xa_store_order(&pc->i_pages, index, order, f)) {
		f->next_free = pc->free_head;
		pc->free_head = f->id;
		return -ENOMEM;
	}
	pc->nrpages += 1ull << order;
	*out = f;
	return 0;
}

void pc_remove_folio(struct page_cache *pc, struct folio *f)
{
	xa_erase_order(&pc->i_pages, f->index, f->order);
	pc->nrpages -= folio_nr_pages(f);
	pc->removed++;
	/* Freed folios keep nothing but the free-list link. */
	f->index = 0;
	f->flags = 0;
	f->next_free = pc->free_head;
	pc->free_head = f->id;
}
