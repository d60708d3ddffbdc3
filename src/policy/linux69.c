// SPDX-License-Identifier: MIT
/*
 * linux69.c - readahead as in Linux 6.9, before Jan Kara's series
 * "mm: Fix various readahead quirks" (June 2024, merged for 6.10), with
 * each patch of the series switchable (ractl->patches bit n-1 = patch n)
 * so that the series can be bisected.
 *
 * 6.9 has one function, ondemand_readahead(), behind both entry points;
 * no ra->order (the order comes from the marked folio, plus 2), no async
 * trim, an order-0 fallback for windows under 4 pages.  The kernel had no
 * readahead tracepoints then: the events this policy fires are ralab's,
 * at the places where 6.18 fires them.
 *
 * Patches with a behavioural effect:
 *   01 sync readahead reads the needed page: the "sequential" test
 *      (index == expected || index == start + size) only for async hits.
 *   02 page_cache_next_miss() without a hole returns index + max_scan,
 *      which in C wrapped to index - 1 (fixed properly in 6.17).
 *   03 the order-0 fallback reads only what is left of the window.
 *   07 no "hit its own marker" merge; an initial window not larger than
 *      the request gets async_size = size / 2.
 *   08 async and sync paths separated: an async hit at index 0 is no
 *      longer an initial window; sync calls never take the sequential test.
 * And, not of the series (bit 11, "shao-2024"): Y. Shao's "mm/readahead: fix
 * large folio support in async readahead" (Dec 2024, 6.13, Cc: stable):
 * the sequential step keeps a window larger than get_next_ra_size() gives
 * (max(size, next)), in the one branch where 6.9 takes that step.  The
 * stable kernels have it: 6.1.192 and 6.12.117 behave so in the VM.
 * And bit 12, "chi-2025": C. Zhiling's "readahead: fix return value of
 * page_cache_next_miss() when no hole is found" (Jun 2025, 6.17, Cc:
 * stable): without a hole it returns index + max_scan, so an async hit on
 * a fully cached range reads nothing (with 02 alone the scan returned
 * index - 1 and a window over the cached pages was set up).  6.12.117
 * behaves so (kprobes in the VM, sweep-t46).
 * Patches 04, 05, 06, 09 and 10 change no behaviour (refactoring, dead
 * code); applying them gives identical results, which the tests check.
 *
 * And bits 13-17, "roberts-2025/01".."05": R. Roberts, "Readahead tweaks
 * for larger folios" (v5, June 2025, merged for 6.17), written against
 * 6.16, i.e. this code with the series and shao-2024:
 *   01 page_cache_ra_order() takes the order it is given: the +2 moves to
 *      the async caller, so sync windows and mmap read-around allocate
 *      order 0 (not 2), and the order-0 fallback of windows under four
 *      pages goes;
 *   02 an async window's end is rounded down to 2^min(order, ffs(max) - 1)
 *      when that leaves something (18ebe55a9236, spec section 3.3);
 *   04 the order is kept in ra->order, not taken from the marked folio,
 *      which alignment often made smaller than the window's order.
 *   05 a fault in an exec mapping reads from the fault on, in the arch's
 *      exec folio order (arm64's; 0 elsewhere), without a mark, even under
 *      MADV_RANDOM (src/mmap.c: RA_POLICY_NO_EXEC_RA until this patch).
 * 03 (space in file_ra_state) changes nothing.  With all of them, this code is
 * linux-6.18's readahead: tests/suites/variants.sh checks it, event for
 * event, on recorded XFS cases of buffered I/O (where the two policies'
 * flags outside readahead agree).
 */
#include "policy.h"

#define K24(n) (1ul << ((n) - 1))
#define K24_ALL (K24(11) - 1) /* the ten patches of the series */
#define SHAO_2024 K24(11)     /* registry.c: "shao-2024" */
#define CHI_2025 K24(12)      /* registry.c: "chi-2025" */

static bool has(const struct readahead_control *ractl, unsigned n)
{
	return ractl->patches & K24(n);
}

static bool has_r25(const struct readahead_control *ractl, unsigned n)
{
	return ractl->patches & ROBERTS_2025(n);
}

/* page_cache_next_miss() of 6.9, or of 6.10 with patch 02. */
static pgoff_t next_miss_69(struct readahead_control *ractl, pgoff_t index,
			    unsigned long max_scan)
{
	struct ra_mapping *m = ractl->mapping;
	pgoff_t miss = m->ops->next_miss(m->priv, index, max_scan);

	if (!max_scan || miss != index + max_scan)
		return miss;
	/*
	 * No hole: 6.9 returned the last index scanned; patch 02 index - 1;
	 * chi-2025 index + max_scan, outside the range as documented.
	 */
	if (has(ractl, 12))
		return miss;
	return has(ractl, 2) ? index - 1 : index + max_scan - 1;
}

static void ra_order_69(struct readahead_control *ractl,
			struct file_ra_state *ra, unsigned new_order)
{
	struct ra_mapping *m = ractl->mapping;
	pgoff_t start = ractl->_index, index = start;
	pgoff_t limit = m->i_size ? (m->i_size - 1) / RALAB_PAGE_SIZE
				  : RA_ULONG_MAX;
	pgoff_t mark = index + ra->size - ra->async_size;
	struct ralab_event ev = {
		.type = RALAB_EV_RA_ORDER,
		.index = start,
		.order = new_order,
		.size = ra->size,
		.async_size = ra->async_size,
		.ra_pages = ra->ra_pages,
	};
	int err = 0;

	m->ops->trace(m->priv, &ev);
	if (!m->large_folios) {
		if (has_r25(ractl, 4))
			ra->order = 0;
		goto fallback;
	}
	/* roberts-2025/01 dropped the order-0 path for small windows. */
	if (!has_r25(ractl, 1) && ra->size < 4)
		goto fallback;
	if (index + ra->size - 1 < limit)
		limit = index + ra->size - 1;
	if (has_r25(ractl, 1) || new_order < m->max_order) {
		/* Before roberts-2025/01 the order came in as the old one. */
		if (!has_r25(ractl, 1))
			new_order += 2;
		if (new_order > m->max_order)
			new_order = m->max_order;
		if (new_order > ra_ilog2(ra->size))
			new_order = ra_ilog2(ra->size);
	}
	if (has_r25(ractl, 4))
		ra->order = (unsigned short)new_order;
	err = ra_add_folios(ractl, &index, limit, mark, new_order, 0);
	/* (The "index > limit" adjustment here was dead code: patch 06.) */
	ra_read_pages(ractl);
	if (!err)
		return;
fallback:
	/* Without patch 03 the whole size is read again from where it failed. */
	do_page_cache_ra(ractl,
			 has(ractl, 3) ? ra->size - (index - start) : ra->size,
			 ra->async_size);
}

static void ondemand_readahead(struct readahead_control *ractl,
			       const struct ra_folio *folio,
			       unsigned long req_size)
{
	struct ra_mapping *m = ractl->mapping;
	struct file_ra_state *ra = ractl->ra;
	unsigned long max_pages = ractl_max_pages(ractl, req_size);
	pgoff_t index = ractl->_index;
	unsigned order = folio ? folio->order : 0;
	pgoff_t expected, prev_index;
	bool async_window = false;

	/* Start of file (for async hits too, until patch 08). */
	if (!index && (!folio || !has(ractl, 8)))
		goto initial_readahead;

	expected = (ra->start + ra->size - ra->async_size) &
		   ~(((pgoff_t)1 << order) - 1);
	if (folio ? index == expected ||
			    (!has(ractl, 1) && index == ra->start + ra->size)
		  : !has(ractl, 1) && !has(ractl, 8) &&
			    (index == expected ||
			     index == ra->start + ra->size)) {
		unsigned long next = get_next_ra_size(ra, max_pages);

		ra->start += ra->size;
		/* shao-2024: a window larger than the next size is kept. */
		if (!has(ractl, 11) || next > ra->size)
			ra->size = (unsigned)next;
		ra->async_size = ra->size;
		async_window = true;
		goto readit;
	}

	/* A marked folio without valid readahead state. */
	if (folio) {
		pgoff_t start = next_miss_69(ractl, index + 1, max_pages);

		if (!start || start - index > max_pages)
			return;
		ra->start = start;
		ra->size = (unsigned)(start - index);
		ra->size += (unsigned)req_size;
		ra->size = (unsigned)get_next_ra_size(ra, max_pages);
		ra->async_size = ra->size;
		async_window = true;
		goto readit;
	}

	if (req_size > max_pages)
		goto initial_readahead;
	prev_index = (uint64_t)ra->prev_pos / RALAB_PAGE_SIZE;
	if (index - prev_index <= 1)
		goto initial_readahead;

	/* try_context_readahead() */
	{
		pgoff_t head = m->ops->prev_miss(m->priv, index - 1, max_pages);
		pgoff_t size = index - 1 - head;

		if (size <= req_size) {
			do_page_cache_ra(ractl, req_size, 0);
			return;
		}
		if (size >= index)
			size *= 2;
		ra->start = index;
		ra->size = (unsigned)(size + req_size < max_pages ?
					      size + req_size :
					      max_pages);
		ra->async_size = 1;
		goto readit;
	}

initial_readahead:
	ra->start = index;
	ra->size = (unsigned)get_init_ra_size(req_size, max_pages);
	ra->async_size = ra->size > req_size ? ra->size - (unsigned)req_size :
			 has(ractl, 7)       ? ra->size >> 1 :
					       ra->size;
readit:
	/* Will this read hit the mark made by itself?  (Gone with 07.) */
	if (!has(ractl, 7) && index == ra->start &&
	    ra->size == ra->async_size) {
		unsigned long add_pages = get_next_ra_size(ra, max_pages);

		if (ra->size + add_pages <= max_pages) {
			ra->async_size = (unsigned)add_pages;
			ra->size += (unsigned)add_pages;
		} else {
			ra->size = (unsigned)max_pages;
			ra->async_size = (unsigned)(max_pages >> 1);
		}
	}
	/*
	 * roberts-2025/04: the order lives in ra->order (0 for a sync
	 * window); 01: an async caller passes the new order, old + 2.
	 */
	if (has_r25(ractl, 4)) {
		if (!folio)
			ra->order = 0;
		else if (has_r25(ractl, 1))
			ra->order += 2;
		order = ra->order;
	} else if (folio && has_r25(ractl, 1)) {
		order += 2;
	}
	/* roberts-2025/02: end an async window on a natural boundary. */
	if (async_window && has_r25(ractl, 2)) {
		unsigned o = has_r25(ractl, 1) ? order : order + 2;
		pgoff_t align = (pgoff_t)1 << (o < ra_ffs0(max_pages) ?
						       o :
						       ra_ffs0(max_pages));
		pgoff_t end = ra->start + ra->size;
		pgoff_t aligned_end = end & ~(align - 1);

		if (aligned_end > ra->start)
			ra->size -= (unsigned)(end - aligned_end);
		ra->async_size = ra->size;
	}
	ractl->_index = ra->start;
	ra_order_69(ractl, ra, order);
}

static void sync_ra_69(struct readahead_control *ractl,
		       unsigned long req_count)
{
	if (ra_sync_forced(ractl, req_count))
		return;
	ondemand_readahead(ractl, NULL, req_count);
}

static void async_ra_69(struct readahead_control *ractl,
			const struct ra_folio *folio, unsigned long req_count)
{
	struct ra_mapping *m = ractl->mapping;

	if (!ractl->ra->ra_pages)
		return;
	if (folio->writeback)
		return;
	ra_trace_state(ractl, RALAB_EV_ASYNC_RA, ractl->_index, req_count);
	m->ops->clear_readahead(m->priv, folio->index);
	ondemand_readahead(ractl, folio, req_count);
}

/*
 * Linux 6.8 (checked on Ubuntu 24.04's 6.8.0-31): 6.9's readahead, but
 * page_cache_ra_order() turned order 1 into order 0 ("mm/readahead: do not
 * allow order-1 folio", R. Roberts, 6.8) until "mm: support order-1 folios
 * in the page cache" (M. Wilcox, 6.9) let the page cache hold them: two
 * order-0 folios where 6.9 allocates one of order 1.  ext4 reads in order 0.
 */
const struct ralab_policy_ops ralab_policy_linux_6_8 = {
	.name = "linux-6.8",
	.source = "Linux 6.8 (Ubuntu 24.04's 6.8.0-31): linux-6.9 without order-1 folios (\"mm: support order-1 folios in the page cache\", M. Wilcox, 6.9)",
	.flags = RA_POLICY_NO_ORDER1 | RA_POLICY_EXT4_ORDER0 |
		 RA_POLICY_PLUG_LIFO | RA_POLICY_LOOP_NOMERGES |
		 RA_POLICY_NO_EXEC_RA |
		 RA_POLICY_MMAP_MISS_ANY | RA_POLICY_FAULT_MAP_PAGES |
		 RA_POLICY_NO_MIN_ORDER,
	.sync_ra = sync_ra_69,
	.async_ra = async_ra_69,
	.mmap_ra_order = ra_order_69,
};

/*
 * Linux 6.1 (LTS; checked on Debian 12's 6.1.192): 6.8's readahead (no
 * order-1 folios) with shao-2024 (a stable backport).  Outside readahead
 * (policy flags): ext4 reads in order 0, blk-mq issues a flushed plug's
 * requests last first (the loop device merges, unlike 6.8's), and
 * filemap_read() moves ra->prev_pos after each folio it copies, in
 * batches of 15 folios.
 */
const struct ralab_policy_ops ralab_policy_linux_6_1 = {
	.name = "linux-6.1",
	.source = "Linux 6.1 (Debian 12's 6.1.192): linux-6.8+shao-2024 with loop-device merges, ra->prev_pos moved per folio copied",
	.flags = RA_POLICY_NO_ORDER1 | RA_POLICY_EXT4_ORDER0 |
		 RA_POLICY_NO_EXEC_RA |
		 RA_POLICY_PLUG_LIFO | RA_POLICY_PREV_POS_PER_FOLIO |
		 RA_POLICY_PAGEVEC15 | RA_POLICY_WRITE_ORDER0 |
		 RA_POLICY_MMAP_MISS_ANY | RA_POLICY_FAULT_MMAP_LOCK |
		 RA_POLICY_FAULT_MAP_PAGES | RA_POLICY_NO_MIN_ORDER |
		 RA_POLICY_NO_SPLICE_READ,
	.patches = SHAO_2024,
	.sync_ra = sync_ra_69,
	.async_ra = async_ra_69,
	.mmap_ra_order = ra_order_69,
};

/*
 * Linux 6.12 (LTS; checked on Debian's 6.12.117): 6.9 with the series, as
 * merged for 6.10, shao-2024 (6.13) and chi-2025 (6.17; both backported
 * to the stable kernels); ext4 reads in order 0 (large folios came to
 * ext4 in 6.16).  But not patch 03's shortened fallback: when
 * page_cache_ra_order() stops at a folio already cached, 6.12.117 reads
 * ra->size pages from there.  Kprobes on page_cache_ra_unbounded() in the
 * VM showed it (sweep-t42: an order-2 run stopped 48 pages into a
 * 123-page window, then nr_to_read = 123);
 * 6.18 reads what is left, as the patch says.  Which later change made
 * the shortening take effect is not known here.
 */
const struct ralab_policy_ops ralab_policy_linux_6_12 = {
	.name = "linux-6.12",
	.source = "Linux 6.12 (Debian's 6.12.117): linux-6.9 + the kara-2024 series (6.10) but for 03's shortened fallback + shao-2024 + chi-2025",
	.flags = RA_POLICY_EXT4_ORDER0 | RA_POLICY_MMAP_MISS_ANY |
		 RA_POLICY_FAULT_MAP_PAGES | RA_POLICY_NO_MIN_ORDER |
		 RA_POLICY_NO_EXEC_RA,
	.patches = (K24_ALL & ~K24(3)) | SHAO_2024 | CHI_2025,
	.sync_ra = sync_ra_69,
	.async_ra = async_ra_69,
	.mmap_ra_order = ra_order_69,
};

const struct ralab_policy_ops ralab_policy_linux_6_9 = {
	.name = "linux-6.9",
	.source = "Linux 6.9 mm/readahead.c, before \"mm: Fix various readahead quirks\" (J. Kara, 2024); patches kara-2024/01..10",
	.flags = RA_POLICY_EXT4_ORDER0 | RA_POLICY_MMAP_MISS_ANY |
		 RA_POLICY_FAULT_MAP_PAGES | RA_POLICY_NO_MIN_ORDER |
		 RA_POLICY_NO_EXEC_RA,
	.sync_ra = sync_ra_69,
	.async_ra = async_ra_69,
	.mmap_ra_order = ra_order_69,
};
