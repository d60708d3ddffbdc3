// SPDX-License-Identifier: MIT
/*
 * readahead.c - the parts of mm/readahead.c that every policy shares:
 * window sizing helpers, the order-0 paths (do_page_cache_ra,
 * page_cache_ra_unbounded, force_page_cache_ra) and the large-folio
 * allocator page_cache_ra_order(), as in Linux 6.18.
 *
 * A window is [start, start + size); its last async_size pages are the
 * async tail, and the folio holding the first of them gets PG_readahead:
 *
 *     |<------------------- size ------------------->|
 *     |                 |<-------- async_size ------->|
 *     +-----------------+-----------------------------+
 *   start             mark = start + size - async_size
 *
 * When a read reaches the marked folio, page_cache_async_ra() starts the
 * next window, so I/O runs async_size pages ahead of the reader.
 */
#include "policy.h"

#include <errno.h>

/*
 * Initial window for a read of @size pages: four times a small request,
 * twice a medium one, the maximum for a large one.
 */
unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = ra_roundup_pow2(size);

	if (newsize <= max / 32)
		newsize = newsize * 4;
	else if (newsize <= max / 4)
		newsize = newsize * 2;
	else
		newsize = max;
	return newsize;
}

/*
 * Ramp-up: quadruple small windows, double medium ones.  May return less
 * than the current size when that exceeds @max.
 */
unsigned long get_next_ra_size(const struct file_ra_state *ra,
			       unsigned long max)
{
	unsigned long cur = ra->size;

	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/*
 * A request larger than the per-file maximum may read up to the device's
 * optimal I/O size (bdi->io_pages), read live on every call.
 */
unsigned long ractl_max_pages(const struct readahead_control *ractl,
			      unsigned long req_size)
{
	unsigned long max_pages = ractl->ra->ra_pages;
	unsigned long io_pages = ractl->mapping->io_pages;

	if (req_size > max_pages && io_pages > max_pages)
		max_pages = req_size < io_pages ? req_size : io_pages;
	return max_pages;
}

void ra_read_pages(struct readahead_control *ractl)
{
	struct ra_mapping *m = ractl->mapping;

	m->ops->read_pages(m->priv);
	ractl->_index += ractl->_nr_pages;
	ractl->_nr_pages = 0;
}

void ra_trace_state(struct readahead_control *ractl,
		    enum ralab_event_type type, pgoff_t index,
		    unsigned long req_count)
{
	const struct file_ra_state *ra = ractl->ra;
	struct ra_mapping *m = ractl->mapping;
	struct ralab_event ev = {
		.type = type,
		.index = index,
		.req_count = req_count,
		.order = ra->order,
		.size = ra->size,
		.async_size = ra->async_size,
		.ra_pages = ra->ra_pages,
		.mmap_miss = ra->mmap_miss,
		.prev_pos = ra->prev_pos,
	};

	m->ops->trace(m->priv, &ev);
}

/*
 * Read @nr_to_read order-0 pages from ractl->_index, skipping pages that
 * are present; every run of present pages ends a batch.  The page at
 * nr_to_read - lookahead_size (relative) gets PG_readahead.
 */
void page_cache_ra_unbounded(struct readahead_control *ractl,
			     unsigned long nr_to_read,
			     unsigned long lookahead_size)
{
	struct ra_mapping *m = ractl->mapping;
	pgoff_t index = ractl->_index;
	unsigned long min_nrpages = 1ul << m->min_order;
	unsigned long mark = RA_ULONG_MAX, i = 0;
	struct ralab_event ev = {
		.type = RALAB_EV_RA_UNBOUNDED,
		.index = index,
		.nr_to_read = nr_to_read,
		.lookahead_size = lookahead_size,
	};

	m->ops->trace(m->priv, &ev);
	index &= ~(pgoff_t)(min_nrpages - 1);
	if (lookahead_size <= nr_to_read) {
		pgoff_t ra_folio_index = ractl->_index + nr_to_read -
					 lookahead_size;

		ra_folio_index = (ra_folio_index + min_nrpages - 1) &
				 ~(pgoff_t)(min_nrpages - 1);
		mark = ra_folio_index - index;
	}
	nr_to_read += ractl->_index - index;
	ractl->_index = index;

	while (i < nr_to_read) {
		int ret;

		if (m->ops->present(m->priv, index + i)) {
			ra_read_pages(ractl);
			ractl->_index += min_nrpages;
			i = ractl->_index + ractl->_nr_pages - index;
			continue;
		}
		ret = m->ops->add_folio(m->priv, index + i, m->min_order,
					i == mark);
		if (ret == -ENOMEM)
			break;
		if (ret < 0) {
			ra_read_pages(ractl);
			ractl->_index += min_nrpages;
			i = ractl->_index + ractl->_nr_pages - index;
			continue;
		}
		ractl->_nr_pages += min_nrpages;
		i += min_nrpages;
	}
	ra_read_pages(ractl);
}

/*
 * Cut *@nr_to_read at EOF, counted from ractl->_index: -EINVAL when that
 * is at or past EOF (or the file is empty).
 */
static int ra_clip_eof(const struct readahead_control *ractl,
		       unsigned long *nr_to_read)
{
	uint64_t isize = ractl->mapping->i_size;
	pgoff_t index = ractl->_index;
	pgoff_t end_index;

	if (!isize)
		return -EINVAL;
	end_index = (isize - 1) / RALAB_PAGE_SIZE;
	if (index > end_index)
		return -EINVAL;
	if (*nr_to_read > end_index - index)
		*nr_to_read = end_index - index + 1;
	return 0;
}

/*
 * Clip to EOF, then read order-0 pages.  Return -EINVAL, reading nothing,
 * when ractl->_index is at or past EOF (kim-2025/01 stops there).
 */
int do_page_cache_ra(struct readahead_control *ractl,
		     unsigned long nr_to_read, unsigned long lookahead_size)
{
	if (ra_clip_eof(ractl, &nr_to_read))
		return -EINVAL;
	page_cache_ra_unbounded(ractl, nr_to_read, lookahead_size);
	return 0;
}

/*
 * kim-2025/01: read all of @nr_to_read, in chunks of max(io_pages,
 * ra_pages), stopping at EOF; /02: each chunk through
 * page_cache_sync_ra(), so that it may use large folios (and changes the
 * readahead state).  A proposal (J. Kim, Dec 2025, v2), not merged.
 */
static void force_page_cache_ra_kim(struct readahead_control *ractl,
				    unsigned long nr_to_read,
				    unsigned long this_chunk)
{
	while (nr_to_read) {
		if (!(ractl->patches & KIM_2025(2))) {
			if (this_chunk > nr_to_read)
				this_chunk = nr_to_read;
			if (do_page_cache_ra(ractl, this_chunk, 0))
				break;
			nr_to_read -= this_chunk;
			continue;
		}
		/*
		 * (On an empty file the patch's end_index wraps and its
		 * window would lie past EOF; ralab reads nothing there.)
		 */
		if (ra_clip_eof(ractl, &nr_to_read))
			break;
		if (this_chunk > nr_to_read)
			this_chunk = nr_to_read;
		page_cache_sync_ra_618(ractl, this_chunk);
		nr_to_read -= this_chunk;
	}
}

/*
 * "Be dumb": read what was asked, capped at max(io_pages, ra_pages), in
 * chunks of 2 MiB, without touching the readahead state.
 */
void force_page_cache_ra(struct readahead_control *ractl,
			 unsigned long nr_to_read)
{
	unsigned long max_pages = ractl->mapping->io_pages;

	if (ractl->ra->ra_pages > max_pages)
		max_pages = ractl->ra->ra_pages;
	if (ractl->patches & (KIM_2025(1) | KIM_2025(2))) {
		force_page_cache_ra_kim(ractl, nr_to_read, max_pages);
		return;
	}
	if (nr_to_read > max_pages)
		nr_to_read = max_pages;
	/*
	 * li-2025 (a proposal): skip a range inside [ra->start, ra->start +
	 * ra->size), meant as "another thread's forced readahead is on it",
	 * but that is the current window too; and use ra->start/size to say
	 * so, resetting them to 0 afterwards, which is what J. Kara objected
	 * to: the stream's window is lost.
	 */
	if (ractl->patches & LI_2025) {
		struct file_ra_state *ra = ractl->ra;
		pgoff_t index = ractl->_index;

		if (index >= ra->start &&
		    index + nr_to_read <= ra->start + ra->size)
			return;
		ra->start = index;
		ra->size = (unsigned)nr_to_read;
	}
	while (nr_to_read) {
		unsigned long this_chunk = (2u << 20) / RALAB_PAGE_SIZE;

		if (this_chunk > nr_to_read)
			this_chunk = nr_to_read;
		do_page_cache_ra(ractl, this_chunk, 0);
		nr_to_read -= this_chunk;
	}
	if (ractl->patches & LI_2025) {
		ractl->ra->start = 0;
		ractl->ra->size = 0;
	}
}

bool ra_sync_forced(struct readahead_control *ractl, unsigned long req_count)
{
	bool do_forced_ra = ractl->has_file && (ractl->f_mode & FMODE_RANDOM);

	ra_trace_state(ractl, RALAB_EV_SYNC_RA, ractl->_index, req_count);
	/* Readahead disabled: still read the one page needed, as readahead. */
	if (!ractl->ra->ra_pages) {
		if (!ractl->has_file)
			return true;
		req_count = 1;
		do_forced_ra = true;
	}
	/* kim-2025/02: not force_page_cache_ra(), which now comes here. */
	if (do_forced_ra && (ractl->patches & KIM_2025(2)))
		do_page_cache_ra(ractl, req_count, 0);
	else if (do_forced_ra)
		force_page_cache_ra(ractl, req_count);
	return do_forced_ra;
}

/*
 * Allocate the window [ra->start, ra->start + ra->size) in folios of
 * ra->order (capped by the mapping and by the window size), smaller where
 * the index is not aligned or the window/EOF ends, and submit them as one
 * batch.  If something is already cached, stop there and let the order-0
 * path fill the gaps.
 */
void page_cache_ra_order(struct readahead_control *ractl,
			 struct file_ra_state *ra)
{
	struct ra_mapping *m = ractl->mapping;
	pgoff_t start = ractl->_index;
	pgoff_t index = start;
	unsigned min_order = m->min_order;
	pgoff_t limit = m->i_size ? (m->i_size - 1) / RALAB_PAGE_SIZE
				  : RA_ULONG_MAX;
	pgoff_t mark = index + ra->size - ra->async_size;
	unsigned new_order = ra->order;
	struct ralab_event ev = {
		.type = RALAB_EV_RA_ORDER,
		.index = start,
		.order = ra->order,
		.size = ra->size,
		.async_size = ra->async_size,
		.ra_pages = ra->ra_pages,
	};
	int err = 0;

	m->ops->trace(m->priv, &ev);
	if (!m->large_folios) {
		ra->order = 0;
		goto fallback;
	}
	if (index + ra->size - 1 < limit)
		limit = index + ra->size - 1;
	if (new_order > m->max_order)
		new_order = m->max_order;
	if (ra->size && new_order > ra_ilog2(ra->size))
		new_order = ra_ilog2(ra->size);
	if (new_order < min_order)
		new_order = min_order;
	ra->order = (unsigned short)new_order;

	/*
	 * kara-2026 only: the caller allows shrinking the window so that it
	 * ends on a boundary of the order actually allocated, instead of
	 * ramping down through small folios.  2^new_order <= size, so the
	 * window keeps at least one such block.  (After the tracepoint.)
	 */
	if (ractl->may_shrink) {
		pgoff_t end = start + ra->size;
		pgoff_t aligned_end = end & ~(((pgoff_t)1 << new_order) - 1);

		if (aligned_end > start) {
			ra->size = (unsigned)(aligned_end - start);
			if (ra->async_size > ra->size)
				ra->async_size = ra->size;
			mark = start + ra->size - ra->async_size;
			limit = m->i_size ? (m->i_size - 1) / RALAB_PAGE_SIZE
					  : RA_ULONG_MAX;
			if (start + ra->size - 1 < limit)
				limit = start + ra->size - 1;
		}
	}

	index &= ~(((pgoff_t)1 << min_order) - 1);
	ractl->_index = index;
	err = ra_add_folios(ractl, &index, limit, mark, new_order, min_order);
	ra_read_pages(ractl);
	if (!err)
		return;
fallback:
	/* Readahead may have shrunk the window: read what is left. */
	if (ra->size > index - start)
		do_page_cache_ra(ractl, ra->size - (index - start),
				 ra->async_size);
}

int ra_fadvise(struct readahead_control *ractl, unsigned *f_mode,
	       unsigned long bdi_ra_pages, int64_t offset, int64_t len,
	       int advice)
{
	uint64_t endbyte;
	pgoff_t start_index, end_index;
	unsigned long nrpages;

	if (len < 0)
		return -EINVAL;
	switch (advice) {
	case 0: /* POSIX_FADV_NORMAL */
		ractl->ra->ra_pages = (unsigned)bdi_ra_pages;
		*f_mode &= ~(FMODE_RANDOM | FMODE_NOREUSE);
		break;
	case 1: /* POSIX_FADV_RANDOM */
		*f_mode |= FMODE_RANDOM;
		break;
	case 2: /* POSIX_FADV_SEQUENTIAL */
		ractl->ra->ra_pages = (unsigned)(bdi_ra_pages * 2);
		*f_mode &= ~FMODE_RANDOM;
		break;
	case 3: /* POSIX_FADV_WILLNEED */
		endbyte = ra_fadvise_endbyte(offset, len);
		/* First and last partial page. */
		start_index = (uint64_t)offset / RALAB_PAGE_SIZE;
		end_index = endbyte / RALAB_PAGE_SIZE;
		nrpages = end_index - start_index + 1;
		if (!nrpages)
			nrpages = ~0ul;
		ractl->_index = start_index;
		force_page_cache_ra(ractl, nrpages);
		break;
	case 4: /* POSIX_FADV_DONTNEED: the cache evicts, readahead is untouched */
		break;
	case 5: /* POSIX_FADV_NOREUSE */
		*f_mode |= FMODE_NOREUSE;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
