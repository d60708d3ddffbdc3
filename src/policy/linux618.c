// SPDX-License-Identifier: MIT
/*
 * linux618.c - page_cache_sync_ra() and page_cache_async_ra() as in
 * Linux 6.18 (mm/readahead.c), the baseline every variant is a named
 * difference from.  Verified against traces of 6.18.44 (tests/cases).
 */
#include "policy.h"

/*
 * A read missed the page cache at ractl->_index.  Decide a window:
 *
 * - start of file, an oversized read or a read that continues the
 *   previous one (prev_pos in the same or the previous page): an initial
 *   window, get_init_ra_size(req_count);
 * - otherwise, if the pages before index are cached (another stream left
 *   them: "context readahead"), a window as long as that history;
 * - otherwise a standalone random read of exactly req_count pages, and the
 *   state is left alone.
 */
void page_cache_sync_ra_618(struct readahead_control *ractl,
			    unsigned long req_count)
{
	struct ra_mapping *m = ractl->mapping;
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = ractl->_index;
	unsigned long max_pages, contig_count;
	pgoff_t prev_index, miss;

	if (ra_sync_forced(ractl, req_count))
		return;

	max_pages = ractl_max_pages(ractl, req_count);
	prev_index = (uint64_t)ra->prev_pos / RALAB_PAGE_SIZE;
	/*
	 * kim-2025/03: a mapping with large folios always takes the initial
	 * window (no context readahead, no standalone random read).
	 */
	if (!index || req_count > max_pages || index - prev_index <= 1 ||
	    ((ractl->patches & KIM_2025(3)) && m->large_folios)) {
		ra->start = index;
		ra->size = (unsigned)get_init_ra_size(req_count, max_pages);
		ra->async_size = ra->size > req_count ?
					 (unsigned)(ra->size - req_count) :
					 ra->size >> 1;
		goto readit;
	}

	/* Look for the cached history a sequential stream leaves behind. */
	miss = m->ops->prev_miss(m->priv, index - 1, max_pages);
	contig_count = index - miss - 1;
	if (contig_count <= req_count) {
		/* Standalone small random read: do not touch the state. */
		do_page_cache_ra(ractl, req_count, 0);
		return;
	}
	/* Cached from the start of the file: a long-running stream. */
	if (miss == RA_ULONG_MAX)
		contig_count *= 2;
	ra->start = index;
	ra->size = (unsigned)(contig_count + req_count < max_pages ?
				      contig_count + req_count :
				      max_pages);
	ra->async_size = 1;
readit:
	/* kim-2025/03 (v2): raise the order by two, as async calls do. */
	if (ractl->patches & KIM_2025(3))
		ra->order += 2;
	else
		ra->order = 0;
	ractl->_index = ra->start;
	page_cache_ra_order(ractl, ra);
}

/*
 * A read reached a folio with PG_readahead.  If it is the mark of the
 * current window, push the window forward and ramp it up; if not (the
 * state belongs to another stream), size a window from the cached run
 * that follows.  Then raise the folio order by two and trim the window's
 * end to a natural boundary (18ebe55a9236, 6.17):
 *
 *   start          aligned_end   end
 *     |================|.........|      trimmed: [start, aligned_end)
 *                  align = 2^min(order, ffs(max_pages) - 1)
 */
enum async_trim {
	TRIM_618,   /* 18ebe55a9236: round the end down to 2^min(order, ...) */
	TRIM_PARK,  /* park-2026: halve align until half the window stays */
	TRIM_SHRINK /* kara-2026: no trim here; ra_order may shrink */
};

static void async_ra_common(struct readahead_control *ractl,
			    const struct ra_folio *folio,
			    unsigned long req_count, enum async_trim trim)
{
	struct ra_mapping *m = ractl->mapping;
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = ractl->_index;
	unsigned long max_pages;
	pgoff_t expected, start, end, aligned_end, align;

	if (!ra->ra_pages)
		return;
	/* PG_readahead shares its bit with PG_reclaim. */
	if (folio->writeback)
		return;
	ra_trace_state(ractl, RALAB_EV_ASYNC_RA, index, req_count);
	m->ops->clear_readahead(m->priv, folio->index);

	max_pages = ractl_max_pages(ractl, req_count);
	expected = (ra->start + ra->size - ra->async_size) &
		   ~(((pgoff_t)1 << folio->order) - 1);
	if (index == expected) {
		unsigned long next;

		ra->start += ra->size;
		/* Keep a window larger than max_pages (MADV_HUGEPAGE). */
		next = get_next_ra_size(ra, max_pages);
		if (next > ra->size)
			ra->size = (unsigned)next;
		goto readit;
	}

	/* A marked folio without matching state: e.g. interleaved reads. */
	start = m->ops->next_miss(m->priv, index + 1, max_pages);
	if (!start || start - index > max_pages)
		return;
	ra->start = start;
	ra->size = (unsigned)(start - index); /* old async_size */
	ra->size += (unsigned)req_count;
	ra->size = (unsigned)get_next_ra_size(ra, max_pages);
readit:
	ra->order += 2;
	if (trim == TRIM_SHRINK) {
		/*
		 * kara-2026: leave the end alone and let page_cache_ra_order()
		 * shrink the window to the order it really allocates.
		 */
		ra->async_size = ra->size;
		ractl->may_shrink = true;
		ractl->_index = ra->start;
		page_cache_ra_order(ractl, ra);
		return;
	}
	align = (pgoff_t)1 << (ra->order < ra_ffs0(max_pages) ?
				       ra->order :
				       ra_ffs0(max_pages));
	end = ra->start + ra->size;
	aligned_end = end & ~(align - 1);
	/*
	 * park-2026: a window starting just below a large boundary would
	 * keep only a few pages; use a smaller alignment until at least
	 * half of the window stays.
	 */
	if (trim == TRIM_PARK)
		while (aligned_end > ra->start &&
		       2 * (aligned_end - ra->start) < ra->size) {
			align >>= 1;
			aligned_end = end & ~(align - 1);
		}
	if (aligned_end > ra->start)
		ra->size -= (unsigned)(end - aligned_end);
	ra->async_size = ra->size;
	ractl->_index = ra->start;
	page_cache_ra_order(ractl, ra);
}

static void async_ra_618(struct readahead_control *ractl,
			 const struct ra_folio *folio, unsigned long req_count)
{
	async_ra_common(ractl, folio, req_count, TRIM_618);
}

static void async_ra_park(struct readahead_control *ractl,
			  const struct ra_folio *folio, unsigned long req_count)
{
	async_ra_common(ractl, folio, req_count, TRIM_PARK);
}

static void async_ra_kara(struct readahead_control *ractl,
			  const struct ra_folio *folio, unsigned long req_count)
{
	async_ra_common(ractl, folio, req_count, TRIM_SHRINK);
}

const struct ralab_policy_ops ralab_policy_linux_6_18 = {
	.name = "linux-6.18",
	.source = "Linux 6.18 mm/readahead.c (verified on 6.18.44)",
	.sync_ra = page_cache_sync_ra_618,
	.async_ra = async_ra_618,
};

/*
 * Daejun Park, "mm/readahead: keep at least half of the async window when
 * aligning it" (Oct 2026, on mm-new 9c449f885765; Fixes: 18ebe55a9236).
 */
const struct ralab_policy_ops ralab_policy_park_2026 = {
	.name = "park-2026",
	.source = "linux-6.18 + D. Park, \"keep at least half of the async window when aligning it\" (2026 patch)",
	.sync_ra = page_cache_sync_ra_618,
	.async_ra = async_ra_park,
};

/*
 * Jan Kara's reply to Park's patch proposes, without a patch, to drop the
 * trim in page_cache_async_ra() and let page_cache_ra_order() shrink the
 * window instead of allocating small folios.  This is ralab's reading of
 * that proposal (docs/variants.md).
 */
const struct ralab_policy_ops ralab_policy_kara_2026 = {
	.name = "kara-2026",
	.source = "linux-6.18 + J. Kara's proposal in reply to Park (2026): ra_order shrinks the window; no patch exists, ralab's reading",
	.sync_ra = page_cache_sync_ra_618,
	.async_ra = async_ra_kara,
};
