// SPDX-License-Identifier: MIT
/*
 * linux311.c - readahead as in Linux 3.11 (mm/readahead.c, 2013), all
 * order-0 pages, with context readahead in three forms:
 *
 *   ctx-2013-old  3.11 as released: any cached history (h > 0) starts a
 *                 context window get_init_ra_size(h + req), all async,
 *                 doubled at once by the "hit its own marker" rule;
 *   ctx-2013-new  Fengguang Wu, "readahead: make context readahead more
 *                 conservative" (Aug 2013, merged for 3.12): only when
 *                 h > req, window min(h + req, max), async_size 1;
 *   ctx-2013-rampup  half of the patch, the third row of its Taobao
 *                 figures ("slower size rampup"): the new window size, but
 *                 still on any history (h > 0);
 *   ctx-2013-off  context readahead disabled ("disable context readahead
 *                 totally" in the patch's Taobao figures).
 *
 * The read path is do_generic_file_read(): page by page
 * (RA_POLICY_READ_PAGEWISE, src/filemap.c).  There is no io_pages bump and
 * no folio order; max_sane_readahead() is taken as ra_pages.  The kernel
 * had no readahead tracepoints: the events are ralab's, fired at the
 * entry points (sync/async) and in __do_page_cache_readahead()
 * (page_cache_ra_unbounded).  The block layer is the 6.18 model.
 */
#include "policy.h"

enum ctx_mode { CTX_OLD, CTX_NEW, CTX_RAMPUP, CTX_OFF };

static unsigned long max_sane(const struct readahead_control *ractl)
{
	return ractl->ra->ra_pages;
}

/*
 * __do_page_cache_readahead(): allocate the absent pages of
 * [index, index + nr), stopping at EOF, all in one ->readpages call; the
 * page at nr - lookahead (relative to the unclipped nr) gets PG_readahead
 * if it is new.
 */
static void do_ra_311(struct readahead_control *ractl, pgoff_t offset,
		      unsigned long nr, unsigned long lookahead)
{
	struct ra_mapping *m = ractl->mapping;
	uint64_t isize = m->i_size;
	struct ralab_event ev = {
		.type = RALAB_EV_RA_UNBOUNDED,
		.index = offset,
		.nr_to_read = nr,
		.lookahead_size = lookahead,
	};
	pgoff_t end_index;
	unsigned long i;

	m->ops->trace(m->priv, &ev);
	if (!isize)
		return;
	end_index = (isize - 1) / RALAB_PAGE_SIZE;
	for (i = 0; i < nr; i++) {
		pgoff_t idx = offset + i;

		if (idx > end_index)
			break;
		if (m->ops->present(m->priv, idx))
			continue;
		if (m->ops->add_folio(m->priv, idx, 0, i == nr - lookahead))
			break;
	}
	m->ops->read_pages(m->priv);
}

/* radix_tree_next_hole() / radix_tree_prev_hole() of 3.11: exact scans. */
static pgoff_t next_hole(struct readahead_control *ractl, pgoff_t index,
			 unsigned long max_scan)
{
	struct ra_mapping *m = ractl->mapping;
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!m->ops->present(m->priv, index))
			break;
		index++;
		if (index == 0)
			break;
	}
	return index;
}

static pgoff_t prev_hole(struct readahead_control *ractl, pgoff_t index,
			 unsigned long max_scan)
{
	struct ra_mapping *m = ractl->mapping;
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!m->ops->present(m->priv, index))
			break;
		index--;
		if (index == RA_ULONG_MAX)
			break;
	}
	return index;
}

static int try_context_readahead(struct readahead_control *ractl,
				 pgoff_t offset, unsigned long req_size,
				 unsigned long max, enum ctx_mode mode)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t size;

	if (mode == CTX_OFF)
		return 0;
	/* count_history_pages() */
	size = offset - 1 - prev_hole(ractl, offset - 1, max);
	if (mode == CTX_NEW ? size <= req_size : !size)
		return 0;
	/* Cached from the start of the file: a long-run stream. */
	if (size >= offset)
		size *= 2;
	ra->start = offset;
	if (mode == CTX_OLD) {
		ra->size = (unsigned)get_init_ra_size(size + req_size, max);
		ra->async_size = ra->size;
	} else {
		ra->size = (unsigned)(size + req_size < max ? size + req_size
							    : max);
		ra->async_size = 1;
	}
	return 1;
}

static void ondemand_311(struct readahead_control *ractl, bool hit_readahead_marker,
			 unsigned long req_size, enum ctx_mode mode)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned long max = max_sane(ractl);
	pgoff_t offset = ractl->_index, prev_offset;

	if (!offset)
		goto initial_readahead;
	if (offset == ra->start + ra->size - ra->async_size ||
	    offset == ra->start + ra->size) {
		ra->start += ra->size;
		ra->size = (unsigned)get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (hit_readahead_marker) {
		pgoff_t start = next_hole(ractl, offset + 1, max);

		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = (unsigned)(start - offset);
		ra->size += (unsigned)req_size;
		ra->size = (unsigned)get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (req_size > max)
		goto initial_readahead;
	prev_offset = (uint64_t)ra->prev_pos / RALAB_PAGE_SIZE;
	if (offset - prev_offset <= 1)
		goto initial_readahead;
	if (try_context_readahead(ractl, offset, req_size, max, mode))
		goto readit;
	/* Standalone, small random read: do not pollute the state. */
	do_ra_311(ractl, offset, req_size, 0);
	return;

initial_readahead:
	ra->start = offset;
	ra->size = (unsigned)get_init_ra_size(req_size, max);
	ra->async_size = ra->size > req_size ? ra->size - (unsigned)req_size
					     : ra->size;
readit:
	/* Will this read hit the marker made by itself?  Merge the next. */
	if (offset == ra->start && ra->size == ra->async_size) {
		ra->async_size = (unsigned)get_next_ra_size(ra, max);
		ra->size += ra->async_size;
	}
	do_ra_311(ractl, ra->start, ra->size, ra->async_size);
}

/* force_page_cache_readahead(): 2 MiB chunks, no cap but max_sane. */
static void force_311(struct readahead_control *ractl, unsigned long nr)
{
	pgoff_t offset = ractl->_index;

	while (nr) {
		unsigned long chunk = (2u << 20) / RALAB_PAGE_SIZE;

		if (chunk > nr)
			chunk = nr;
		do_ra_311(ractl, offset, chunk, 0);
		offset += chunk;
		nr -= chunk;
	}
}

static void sync_311(struct readahead_control *ractl, unsigned long req,
		     enum ctx_mode mode)
{
	ra_trace_state(ractl, RALAB_EV_SYNC_RA, ractl->_index, req);
	/* No readahead: the read path reads the page itself. */
	if (!ractl->ra->ra_pages)
		return;
	if (ractl->has_file && (ractl->f_mode & FMODE_RANDOM)) {
		force_311(ractl, req);
		return;
	}
	ondemand_311(ractl, false, req, mode);
}

static void async_311(struct readahead_control *ractl,
		      const struct ra_folio *folio, unsigned long req,
		      enum ctx_mode mode)
{
	struct ra_mapping *m = ractl->mapping;

	if (!ractl->ra->ra_pages)
		return;
	if (folio->writeback)
		return;
	ra_trace_state(ractl, RALAB_EV_ASYNC_RA, ractl->_index, req);
	m->ops->clear_readahead(m->priv, folio->index);
	ondemand_311(ractl, true, req, mode);
}

#define CTX_POLICY(sym, mode, nm, src)                                         \
	static void sync_##sym(struct readahead_control *r, unsigned long q) \
	{                                                                    \
		sync_311(r, q, mode);                                        \
	}                                                                    \
	static void async_##sym(struct readahead_control *r,                 \
				const struct ra_folio *f, unsigned long q)   \
	{                                                                    \
		async_311(r, f, q, mode);                                    \
	}                                                                    \
	const struct ralab_policy_ops ralab_policy_##sym = {                 \
		.name = nm,                                                  \
		.source = src,                                               \
		.flags = RA_POLICY_READ_PAGEWISE | RA_POLICY_MMAP_MISS_ANY |  \
			 RA_POLICY_FAULT_MMAP_LOCK |                         \
			 RA_POLICY_FAULT_MAP_PAGES | RA_POLICY_NO_MIN_ORDER | \
			 RA_POLICY_NO_EXEC_RA | RA_POLICY_NO_SPLICE_READ,    \
		.sync_ra = sync_##sym,                                       \
		.async_ra = async_##sym,                                     \
	}

CTX_POLICY(ctx_old, CTX_OLD, "ctx-2013-old",
	   "Linux 3.11 mm/readahead.c: context readahead on any cached history");
CTX_POLICY(ctx_new, CTX_NEW, "ctx-2013-new",
	   "linux-3.11 + F. Wu, \"readahead: make context readahead more conservative\" (Aug 2013, 3.12)");
CTX_POLICY(ctx_rampup, CTX_RAMPUP, "ctx-2013-rampup",
	   "linux-3.11 + only the window-size half of F. Wu's 2013 patch (its \"slower size rampup\" row)");
CTX_POLICY(ctx_off, CTX_OFF, "ctx-2013-off",
	   "linux-3.11 with context readahead disabled (the patch's \"disable context readahead totally\")");
