// SPDX-License-Identifier: MIT
/*
 * filemap.c - the buffered read path (filemap_read() in mm/filemap.c,
 * Linux 6.18): batches of cached folios, the calls into synchronous and
 * asynchronous readahead, partial pages, EOF and ra->prev_pos.
 *
 * Readahead decisions depend only on which folios are present and which
 * carry PG_readahead, never on I/O timing, so the model completes I/O at
 * submission (every folio is uptodate when the read looks at it).
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * filemap_get_read_batch(): cached folios from @index on, stopping after a
 * folio that is not uptodate or has PG_readahead, at a gap, past @max or
 * when the batch is full.
 */
static unsigned get_read_batch(struct sim *s, struct sim_inode *in,
			       pgoff_t index, pgoff_t max, struct folio **batch)
{
	struct folio *f = pc_lookup(&in->pc, index);
	unsigned n = 0;

	while (f) {
		pgoff_t next;

		batch[n++] = f;
		if (n == s->batch_size)
			break;
		if (!(f->flags & PG_uptodate) || !folio_ready(s, f) ||
		    (f->flags & PG_readahead))
			break;
		next = f->index + folio_nr_pages(f);
		if (next > max)
			break;
		f = pc_lookup(&in->pc, next);
	}
	return n;
}

void filemap_prefill(struct sim *s, struct sim_inode *in, uint64_t off,
		     uint64_t len, unsigned order, bool mark)
{
	uint64_t isize = in->mapping.i_size, nr = 1ull << order;
	pgoff_t index = off / RALAB_PAGE_SIZE;
	pgoff_t end = (off + len) / RALAB_PAGE_SIZE;
	struct folio *f;

	/*
	 * Read (so XFS gave each an iomap_folio_state: no PG_nopriv),
	 * done long before: no I/O to wait for.
	 */
	for (; index < end && index * RALAB_PAGE_SIZE < isize; index += nr) {
		int err = pc_add_folio(&in->pc, index, order,
				       PG_uptodate | (mark ? PG_readahead : 0),
				       &f);

		if (err == -ENOMEM) {
			s->host_err = err;
			return;
		}
		if (!err) { /* not the run's: no call added it */
			f->added_ns = 0;
			f->added_call = 0;
		}
	}
}

/*
 * filemap_create_folio(): readahead made nothing at @index; read one
 * folio of the mapping's minimum order synchronously (->read_folio).
 * -EEXIST: a folio is there already, or the one made here was gone by
 * the end of its read (another job truncated it): the caller looks again.
 */
int sim_create_folio(struct sim *s, struct sim_inode *in, pgoff_t index,
		     struct folio **out)
{
	unsigned order = in->mapping.min_order;
	uint64_t isize = in->mapping.i_size, removed;
	struct folio *f;
	struct blk_vec v = { 0 };
	int err;

	index &= ~(((pgoff_t)1 << order) - 1);
	err = pc_add_folio(&in->pc, index, order,
			   PG_locked | ((s->cur->call_how & CALL_DONTCACHE) ?
						PG_dropbehind :
						0),
			   &f);
	if (err)
		return err;
	s->st->read_folio++;
	sim_folio_added(s, f);
	/* A page wholly past EOF is zeroed by ->read_folio without I/O. */
	if (index * RALAB_PAGE_SIZE < isize) {
		uint64_t done;

		v.sector = index * (RALAB_PAGE_SIZE / 512);
		v.bytes = RALAB_PAGE_SIZE << order;
		s->q.held = s->cur->plug_held;
		if (!inode_layout(in) ||
		    blk_submit_read(&s->q, &in->lay, &v, 1, false,
				    s->cur->now, &done)) {
			s->host_err = -ENOMEM;
			done = s->cur->now;
		}
		s->q.held = false;
		f->done_ns = done;
	} else {
		f->done_ns = s->cur->now;
	}
	f->flags = (uint16_t)((f->flags & ~PG_locked) | PG_uptodate);
	/*
	 * ->read_folio is synchronous: the reader waits for it, which
	 * flushes a plug it holds.
	 */
	if (s->cur->plug_held) {
		sim_plug_submitted(s, in);
		sim_plug_flush(s, true);
	}
	removed = in->pc.removed;
	sim_wait(s, f->done_ns, false);
	/* Truncated or evicted by another job meanwhile: look again. */
	if (!folio_still_cached(in, f, index, removed))
		return -EEXIST;
	*out = f;
	return 0;
}

/*
 * ->read_folio of a folio that is not uptodate but needs no I/O (see
 * PG_bh_uptodate): its buffer is uptodate already, or its block holds no
 * data and is zeroed.
 */
void sim_folio_read_noio(struct sim *s, struct folio *f)
{
	s->st->read_folio++;
	f->flags = (uint16_t)((f->flags | PG_uptodate) & ~PG_bh_uptodate);
}

/*
 * filemap_get_pages(): a batch for [pos, pos + count), starting readahead
 * where the cache misses and where the batch ends on a marked folio.
 */
static void ra_sync(struct sim *s, struct sim_file *file, pgoff_t index,
		    unsigned long req_count)
{
	struct readahead_control ractl = sim_ractl(s, file, index);

	s->policy->sync_ra(&ractl, req_count);
}

static void ra_async(struct sim *s, struct sim_file *file,
		     const struct folio *folio, unsigned long req_count)
{
	struct readahead_control ractl = sim_ractl(s, file, folio->index);
	struct ra_folio rf = {
		.index = folio->index,
		.order = folio->order,
		.writeback = folio_test_writeback(s, folio),
	};

	s->policy->async_ra(&ractl, &rf, req_count);
}

/*
 * filemap_get_pages(): the folios from @pos on, up to @count bytes, read
 * ahead as needed.  @need_uptodate (a splice: a pipe cannot take a folio
 * only partly uptodate) reads a folio not uptodate with ->read_folio even
 * where the buffers it covers are uptodate.
 */
static unsigned get_pages(struct sim *s, struct sim_file *file, int64_t pos,
			  uint64_t count, struct folio **batch,
			  bool need_uptodate)
{
	/*
	 * The end on a boundary of the mapping's smallest folio (large
	 * block sizes, 6.12), the start not: a 4 KiB read at page 5 of a
	 * 16 KiB-block file asks readahead for 3 pages from page 5
	 * (req_count; checked on 6.18.44, tests/cases/lbs-*).
	 */
	pgoff_t nr = (pgoff_t)1 << file->inode->mapping.min_order;
	pgoff_t index = (uint64_t)pos / RALAB_PAGE_SIZE;
	/* The page after the end of the read; not clipped to EOF. */
	pgoff_t last_index = ((uint64_t)pos + count + RALAB_PAGE_SIZE - 1) /
			     RALAB_PAGE_SIZE;
	struct folio *folio;
	unsigned n;

	last_index = (last_index + nr - 1) & ~(nr - 1);

retry:
	n = get_read_batch(s, file->inode, index, last_index - 1, batch);
	if (!n) {
		ra_sync(s, file, index, last_index - index);
		n = get_read_batch(s, file->inode, index, last_index - 1, batch);
	}
	if (!n) {
		if (sim_create_folio(s, file->inode, index, &batch[0]) == -EEXIST)
			goto retry;
		n = 1;
	}
	folio = batch[n - 1];
	if (folio->flags & PG_readahead) {
		uint64_t removed = file->inode->pc.removed;

		ra_async(s, file, folio, last_index - folio->index);
		/*
		 * Other jobs ran while it issued: if they removed folios, the
		 * batch may hold some no longer cached; look again.
		 */
		if (file->inode->pc.removed != removed)
			goto retry;
	}
	/*
	 * Under I/O, or added by another job's readahead and not submitted
	 * yet (filemap_update_page() sleeps on its lock): copy the folios
	 * before it, or wait for it.
	 */
	if ((folio->flags & PG_locked) || !folio_ready(s, folio)) {
		if (n > 1)
			return n - 1;
		if (sim_folio_lock_wait(s, folio, folio_late(s, folio)))
			goto retry;
	}
	/*
	 * filemap_update_page(): a folio not uptodate that is not under I/O
	 * (ext4's zeroed EOF block) is copied from where its buffer is
	 * uptodate, else read by ->read_folio (a hole: zeroes, no I/O).
	 */
	if (!(folio->flags &
	      (need_uptodate ? PG_uptodate : PG_uptodate | PG_bh_uptodate)))
		sim_folio_read_noio(s, folio);
	return n;
}

/*
 * folio_end_dropbehind(), after a read copied from @f or its writeback
 * ended: a PG_dropbehind folio leaves the cache unless dirty, under
 * writeback or locked (folio_trylock() fails while its read runs); a
 * mapped one is unmapped first (folio_unmap_invalidate()).
 */
static void folio_end_dropbehind(struct sim *s, struct sim_inode *in,
				 struct folio *f)
{
	if (!(f->flags & PG_dropbehind) || (f->flags & PG_dirty) ||
	    folio_test_writeback(s, f) || folio_locked(s, f))
		return;
	sim_unmap_range(s, in, f->index, f->index + folio_nr_pages(f));
	sim_remove_folio(in, f);
}

/*
 * filemap_end_dropbehind_read(), for each folio of the batch once copied,
 * whatever the call's flags.  So a plain read of a folio that an
 * RWF_DONTCACHE read's readahead added drops it too, and a DONTCACHE read
 * of part of a large folio drops all of it (tests/cases/dontcache-*).
 */
static void end_dropbehind_read(struct sim *s, struct sim_inode *in,
				struct folio **batch, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		folio_end_dropbehind(s, in, batch[i]);
}

static uint64_t __attribute__((noinline))
filemap_read_slow(struct sim *s, struct sim_file *f, int64_t pos,
		  uint64_t count)
{
	struct folio *batch[FOLIO_BATCH_SIZE];
	struct file_ra_state *ra = &f->ra;
	int64_t last_pos = ra->prev_pos;
	uint64_t already = 0;
	bool per_folio = s->policy->flags & RA_POLICY_PREV_POS_PER_FOLIO;

	if ((uint64_t)pos >= s->s_maxbytes || !count)
		return 0;
	if (count > s->s_maxbytes - (uint64_t)pos)
		count = s->s_maxbytes - (uint64_t)pos;

	do {
		uint64_t isize = f->inode->mapping.i_size, end_offset, pages;
		unsigned i, n;

		if ((uint64_t)pos >= isize)
			break;
		n = get_pages(s, f, pos, count, batch, false);
		end_offset = (uint64_t)pos + count < isize ?
				     (uint64_t)pos + count :
				     isize;
		pages = 0;
		for (i = 0; i < n; i++) {
			struct folio *folio = batch[i];
			uint64_t fsize = RALAB_PAGE_SIZE << folio->order;
			uint64_t offset = (uint64_t)pos & (fsize - 1);
			uint64_t bytes;

			if (end_offset < folio->index * RALAB_PAGE_SIZE)
				break;
			bytes = end_offset - (uint64_t)pos;
			if (bytes > fsize - offset)
				bytes = fsize - offset;
			if (bytes) {
				folio_use(s, folio);
				used_mark(&f->inode->used, (uint64_t)pos / RALAB_PAGE_SIZE,
					  ((uint64_t)pos + bytes - 1) /
						  RALAB_PAGE_SIZE);
				pages += ((uint64_t)pos % RALAB_PAGE_SIZE + bytes +
					  RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
			}
			pos += (int64_t)bytes;
			count -= bytes;
			already += bytes;
			last_pos = pos;
			if (per_folio)
				ra->prev_pos = pos;
		}
		end_dropbehind_read(s, f->inode, batch, n);
		sim_spend(s, pages * s->cfg.cpu_page_ns);
	} while (count && (uint64_t)pos < f->inode->mapping.i_size);
	ra->prev_pos = last_pos;
	return already;
}

/*
 * filemap_splice_read(): splice(2) from the page cache into a pipe with
 * @slots free buffers.  What differs from a read:
 *
 *   - it asks for min(@len, @slots pages) whatever @pos is, while each
 *     page it takes, whole or in part, fills a buffer: 64 KiB at byte
 *     1000 into a new pipe (16 buffers) asks readahead for 17 pages and
 *     returns 64536 bytes, the first and last pages' parts
 *
 *       pages   0    1        15   16
 *              |.xxx|xxxx|...|xxxx|x...|   req_count 17, 16 buffers
 *
 *   - ra->prev_pos follows each folio it takes (a read sets it once, at
 *     its end), so the next batch's readahead sees where the last ended;
 *   - a folio not uptodate is read by ->read_folio even where the blocks
 *     asked for are (need_uptodate: ext4's zeroed EOF block);
 *   - no drop-behind of RWF_DONTCACHE folios (filemap_read() only).
 *
 * Recorded on 6.18.44: tests/cases/splice-* and the splice and sendfile
 * logs of tests/traces/app.
 */
uint64_t filemap_splice_read(struct sim *s, struct sim_file *f, int64_t pos,
			     uint64_t len, unsigned slots)
{
	struct folio *batch[FOLIO_BATCH_SIZE];
	uint64_t total = 0, pages = 0;

	if ((uint64_t)pos >= s->s_maxbytes)
		return 0;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (len > (uint64_t)slots * RALAB_PAGE_SIZE)
		len = (uint64_t)slots * RALAB_PAGE_SIZE;
	while (len) {
		uint64_t isize = f->inode->mapping.i_size, end_offset;
		unsigned i, n;

		if ((uint64_t)pos >= isize)
			break;
		n = get_pages(s, f, pos, len, batch, true);
		isize = f->inode->mapping.i_size;
		if ((uint64_t)pos >= isize)
			break;
		end_offset = (uint64_t)pos + len < isize ? (uint64_t)pos + len :
							   isize;
		for (i = 0; i < n; i++) {
			struct folio *folio = batch[i];
			uint64_t fsize = RALAB_PAGE_SIZE << folio->order;
			uint64_t offset = (uint64_t)pos & (fsize - 1);
			uint64_t size = end_offset - (uint64_t)pos, done = 0;

			if (folio->index * RALAB_PAGE_SIZE >= end_offset)
				goto out;
			folio_use(s, folio);
			/* splice_folio_into_pipe(): a buffer per page part. */
			if (size > fsize - offset)
				size = fsize - offset;
			while (done < size && slots) {
				uint64_t part = RALAB_PAGE_SIZE -
						(offset + done) % RALAB_PAGE_SIZE;

				done += part < size - done ? part : size - done;
				slots--;
				pages++;
			}
			if (!done)
				goto out;
			used_mark(&f->inode->used, (uint64_t)pos / RALAB_PAGE_SIZE,
				  ((uint64_t)pos + done - 1) / RALAB_PAGE_SIZE);
			len -= done;
			total += done;
			pos += (int64_t)done;
			f->ra.prev_pos = pos;
			if (!slots)
				goto out;
		}
	}
out:
	sim_spend(s, pages * s->cfg.cpu_page_ns);
	return total;
}

/*
 * do_generic_file_read() of Linux 3.x, for the policies that come from
 * then: page by page, sync readahead for an absent page, async readahead
 * for a marked one, and prev_pos = last page read << PAGE_SHIFT | offset
 * reached in it (a read ending on a page boundary leaves the start of its
 * last page).
 */
static uint64_t __attribute__((noinline))
filemap_read_pagewise(struct sim *s, struct sim_file *f,
				      int64_t pos, uint64_t count)
{
	struct file_ra_state *ra = &f->ra;
	pgoff_t index = (uint64_t)pos / RALAB_PAGE_SIZE;
	pgoff_t last_index = ((uint64_t)pos + count + RALAB_PAGE_SIZE - 1) /
			     RALAB_PAGE_SIZE;
	/* loff_t >> PAGE_SHIFT: arithmetic, so -1 stays -1. */
	int64_t prev_index = ra->prev_pos >> 12;
	uint64_t prev_offset = (uint64_t)ra->prev_pos & (RALAB_PAGE_SIZE - 1);
	uint64_t offset = (uint64_t)pos & (RALAB_PAGE_SIZE - 1), done = 0;

	if (!count)
		return 0;
	for (;;) {
		struct sim_inode *in = f->inode;
		uint64_t isize, nr, ret;
		struct folio *page = pc_lookup(&in->pc, index);
		uint64_t removed;
		int err;

		if (!page) {
			ra_sync(s, f, index, last_index - index);
			page = pc_lookup(&in->pc, index);
			if (!page) {
				err = sim_create_folio(s, in, index, &page);
				if (err == -EEXIST)
					continue;
				if (err)
					break;
			}
		}
		removed = in->pc.removed;
		if (page->flags & PG_readahead)
			ra_async(s, f, page, last_index - index);
		/* Another job's readahead, not submitted yet: as under I/O. */
		if ((page->flags & PG_locked) &&
		    sim_folio_lock_wait(s, page, folio_late(s, page)))
			continue;
		if (!folio_ready(s, page))
			sim_wait(s, page->done_ns, folio_late(s, page));
		/* Truncated or evicted by another job meanwhile. */
		if (!folio_still_cached(in, page, index, removed))
			continue;
		isize = in->mapping.i_size;
		if (!isize || index > (isize - 1) / RALAB_PAGE_SIZE)
			break;
		nr = RALAB_PAGE_SIZE;
		if (index == (isize - 1) / RALAB_PAGE_SIZE) {
			nr = ((isize - 1) & (RALAB_PAGE_SIZE - 1)) + 1;
			if (nr <= offset)
				break;
		}
		nr -= offset;
		prev_index = (int64_t)index;
		ret = nr < count ? nr : count;
		used_mark(&in->used, index, index);
		folio_use(s, page);
		sim_spend(s, s->cfg.cpu_page_ns);
		count -= ret;
		done += ret;
		offset += ret;
		index += offset / RALAB_PAGE_SIZE;
		offset &= RALAB_PAGE_SIZE - 1;
		prev_offset = offset;
		if (ret == nr && count)
			continue;
		break;
	}
	ra->prev_pos = (int64_t)((uint64_t)prev_index << 12 | prev_offset);
	return done;
}

uint64_t filemap_read(struct sim *s, struct sim_file *f, int64_t pos,
		      uint64_t count)
{
	if (s->policy->flags & RA_POLICY_READ_PAGEWISE)
		return filemap_read_pagewise(s, f, pos, count);
	return filemap_read_slow(s, f, pos, count);
}

/*
 * XFS extent records of a file rewritten after a truncate.  Its blocks
 * come from delayed allocation: a write into a hole reserves its blocks
 * (and, past EOF, speculative preallocation) as one delalloc record,
 * merged with delalloc neighbours; writeback turns a delalloc record
 * into an unwritten extent, and what it wrote into a written one.  A
 * write's iomap ends where its record does, which cuts its folios
 * there (xfs_buffered_write_iomap_begin()).  The disk is taken to place
 * each allocation after the one before, so records of one state merge.
 *
 *   write 256K x 4 into an empty file (prealloc = 2 x the extent before,
 *   from the last 64K boundary below the write's end):
 *     [0,256K)            i_size 0: no preallocation
 *     [0,960K)            448K + 512K
 *     write at 768K: folios cut at 960K, then [960K,1984K) = 960K + 1M
 */
#define XFS_ALLOCSIZE (64ull << 10) /* m_allocsize_blocks, in bytes */

/*
 * The first of the recorded rebreaks (ralab_workload_set_rebreaks()) at
 * or after block @b: where the rewrite is apart on the disk.  Without a
 * recording the records take none (the allocator is not modelled).
 */
static unsigned xr_break_from(const struct sim_inode *in, uint64_t b)
{
	const struct sim_regen *r = inode_rebreaks(in);
	uint64_t sec = b * (RALAB_PAGE_SIZE / 512);
	unsigned lo = 0, hi = r->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (r->brk[mid] < sec)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool xr_break_at(const struct sim_inode *in, uint64_t b)
{
	const struct sim_regen *r = inode_rebreaks(in);
	unsigned k = xr_break_from(in, b);

	return k < r->n && r->brk[k] == b * (RALAB_PAGE_SIZE / 512);
}

/* The first of @in's records ending after block @b (nxr: none). */
static unsigned xr_index(const struct sim_inode *in, uint64_t b)
{
	unsigned lo = 0, hi = in->nxr;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (in->xr[mid].end <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for @n records in @in->xr (false: out of memory, host_err set). */
static bool xr_grow(struct sim_inode *in, size_t n)
{
	struct xfs_rec *r;
	size_t cap = in->cap_xr ? in->cap_xr : 8;

	if (n <= in->cap_xr)
		return true;
	while (cap < n)
		cap *= 2;
	r = realloc(in->xr, cap * sizeof(*r));
	if (!r) {
		in->sim->host_err = -ENOMEM;
		return false;
	}
	in->xr = r;
	in->cap_xr = (unsigned)cap;
	return true;
}

/*
 * Records [lo, hi) of @in that touch, of one state, merge, as extents
 * do, unless apart on the disk (allocated extents are split at the
 * rebreaks); the records after close up.
 */
static void xr_merge(struct sim_inode *in, unsigned lo, unsigned hi)
{
	struct xfs_rec *r = in->xr;
	unsigned i, k;

	if (hi > in->nxr)
		hi = in->nxr;
	if (lo >= hi)
		return;
	for (i = k = lo + 1; i < hi; i++) {
		if (r[k - 1].end == r[i].start && r[k - 1].state == r[i].state &&
		    (r[i].state == XR_DELALLOC || !xr_break_at(in, r[i].start)))
			r[k - 1].end = r[i].end;
		else
			r[k++] = r[i];
	}
	memmove(&r[k], &r[hi], (in->nxr - hi) * sizeof(*r));
	in->nxr -= hi - k;
}

/*
 * Blocks [a, b) of @in's records become @state: the records they cover
 * are replaced in place (cut at the rebreaks inside, for allocated
 * ones), and only where the new ones meet the old can records merge,
 * the others being merged already; after a truncate changed the
 * rebreaks, all are merged again once.  A search and one move, so
 * random writes into a fresh file stay near linear.
 *
 *   before   |..A..|..B..|....C....|..D..|
 *   [a, b)          ^a            ^b
 *   after    |..A..|B|---new------|C|..D..|   (then merged around new)
 */
static void xr_assign(struct sim_inode *in, uint64_t a, uint64_t b,
		      uint8_t state)
{
	const uint64_t spb = RALAB_PAGE_SIZE / 512;
	struct xfs_rec one[2], *m = one, *r;
	unsigned i, i0, i1, nm = 0, bk = 0, bn = 0;
	size_t n;

	if (a >= b)
		return;
	if (state != XR_DELALLOC) {
		/* Breaks strictly inside [a, b). */
		bk = xr_break_from(in, a + 1);
		bn = xr_break_from(in, b) - bk;
	}
	/* i0: the first record ending after a; i1: after b (kept). */
	i0 = xr_index(in, a);
	i1 = xr_index(in, b);
	n = (size_t)i0 + bn + 2 + (in->nxr - i1);
	if (n > UINT32_MAX / sizeof(*r) ||
	    (bn && !(m = malloc((bn + 2) * sizeof(*m))))) {
		in->sim->host_err = -ENOMEM;
		return;
	}
	if (!xr_grow(in, n)) {
		if (m != one)
			free(m);
		return;
	}
	r = in->xr;
	/* What the first covered record keeps before a. */
	if (i0 < in->nxr && r[i0].start < a)
		m[nm++] = (struct xfs_rec){ r[i0].start, a, r[i0].state };
	for (i = 0; i < bn; i++) {
		uint64_t at = inode_rebreaks(in)->brk[bk + i] / spb;

		if (at <= a)
			continue;
		m[nm++] = (struct xfs_rec){ a, at, state };
		a = at;
	}
	m[nm++] = (struct xfs_rec){ a, b, state };
	/* What the last keeps after b (it may be the first, copied above). */
	if (i1 < in->nxr && r[i1].start < b)
		r[i1].start = b;
	memmove(&r[i0 + nm], &r[i1], (in->nxr - i1) * sizeof(*r));
	memcpy(&r[i0], m, nm * sizeof(*r));
	in->nxr = i0 + nm + (in->nxr - i1);
	if (m != one)
		free(m);
	if (in->xr_remerge) {
		in->xr_remerge = false;
		xr_merge(in, 0, in->nxr);
	} else {
		xr_merge(in, i0 ? i0 - 1 : 0, i0 + nm + 1);
	}
}

/* The record holding block @b, or the first after it (NULL: none). */
static const struct xfs_rec *xr_find(const struct sim_inode *in, uint64_t b)
{
	unsigned i = xr_index(in, b);

	return i < in->nxr ? &in->xr[i] : NULL;
}

/*
 * Blocks [a, b) without a record, and with @over_delalloc those only
 * reserved, become @state; the others stay.
 */
static void xr_fill(struct sim_inode *in, uint64_t a, uint64_t b,
		    uint8_t state, bool over_delalloc)
{
	while (a < b) {
		const struct xfs_rec *r = xr_find(in, a);
		uint64_t start, end;
		bool take;

		if (!r || r->start >= b) {
			xr_assign(in, a, b, state);
			return;
		}
		/* (xr_assign() moves the records: r is stale after.) */
		start = r->start;
		end = r->end < b ? r->end : b;
		take = over_delalloc && r->state == XR_DELALLOC;
		if (start > a)
			xr_assign(in, a, start, state);
		if (take)
			xr_assign(in, start > a ? start : a, end, state);
		a = end;
	}
}

/* Blocks [a, b) of @in have no record any more: a hole (a punch). */
static void xr_remove(struct sim_inode *in, uint64_t a, uint64_t b)
{
	unsigned i = xr_index(in, a), k;
	struct xfs_rec *r;

	if (i < in->nxr && in->xr[i].start < a && in->xr[i].end > b) {
		/* Inside one record: it splits around the hole. */
		if (!xr_grow(in, (size_t)in->nxr + 1))
			return;
		r = in->xr;
		memmove(&r[i + 1], &r[i], (in->nxr - i) * sizeof(*r));
		in->nxr++;
		r[i].end = a;
		r[i + 1].start = b;
		return;
	}
	r = in->xr;
	if (i < in->nxr && r[i].start < a) {
		r[i].end = a;
		i++;
	}
	for (k = i; k < in->nxr && r[k].end <= b; k++)
		;
	if (k < in->nxr && r[k].start < b)
		r[k].start = b;
	memmove(&r[i], &r[k], (in->nxr - k) * sizeof(*r));
	in->nxr -= k - i;
}

/*
 * Blocks reserved but not allocated (XFS's i_delayed_blks, speculative
 * preallocation included; ext4's i_reserved_data_blocks).
 */
static bool xr_delalloc(const struct sim_inode *in)
{
	unsigned i;

	for (i = 0; i < in->nxr; i++)
		if (in->xr[i].state == XR_DELALLOC)
			return true;
	return false;
}

/*
 * Where the iomap of a write at byte @pos ends, the write going to
 * @wend; a hole is reserved first (xfs_bmapi_reserve_delalloc()), with
 * speculative preallocation when nothing is mapped after it and the
 * write passes EOF (xfs_iomap_prealloc_size(): none while i_size is
 * under 64K, 64K after a hole, else twice the extent before, rounded
 * down to a power of two; allocated extents before it count together,
 * as far as they are contiguous on the disk).
 */
static uint64_t xfs_map(struct sim_inode *in, uint64_t pos, uint64_t wend)
{
	const uint64_t bs = RALAB_PAGE_SIZE;
	uint64_t b = pos / bs, end = (wend + bs - 1) / bs;
	const struct xfs_rec *r = xr_find(in, b);

	if (r && r->start <= b)
		return r->end * bs;
	if (r) {
		if (end > r->start)
			end = r->start;
	} else if (wend > in->mapping.i_size &&
		   in->mapping.i_size >= XFS_ALLOCSIZE) {
		const struct xfs_rec *prev = in->nxr ? &in->xr[in->nxr - 1] :
						       NULL;
		uint64_t pre = XFS_ALLOCSIZE / bs, p_end;

		if (prev && prev->end == b) {
			uint64_t len = prev->end - prev->start;

			/*
			 * Allocated extents before it, disk-contiguous: not
			 * across a recorded break (a file truncated to a size
			 * other than 0 and grown lies apart there).
			 */
			while (prev->state != XR_DELALLOC && prev > in->xr &&
			       prev[-1].state != XR_DELALLOC &&
			       prev[-1].end == prev->start &&
			       !xr_break_at(in, prev->start)) {
				prev--;
				len += prev->end - prev->start;
			}
			while (pre * 2 <= 2 * len)
				pre *= 2;
		}
		p_end = ((wend - 1) & ~(XFS_ALLOCSIZE - 1)) / bs + pre;
		if (p_end > end)
			end = p_end;
	}
	xr_assign(in, b, end, XR_DELALLOC);
	r = xr_find(in, b);
	if (r && r->start <= b)
		return r->end * bs;
	return end * bs; /* out of memory: host_err is set */
}

/*
 * Writeback of pages [first, last): the delalloc records they are in
 * are allocated as unwritten extents, whole; what is written (up to
 * the end of the block holding EOF: iomap writes a folio straddling EOF
 * up to there) becomes written at I/O completion (xfs_end_ioend()).
 */
static void xfs_writeback(struct sim_inode *in, uint64_t first,
			  uint64_t last)
{
	uint64_t eof = block_end_page(in, in->mapping.i_size);
	const struct xfs_rec *r;

	while ((r = xr_find(in, first)) && r->start < last &&
	       r->state == XR_DELALLOC)
		xr_assign(in, r->start, r->end, XR_UNWRITTEN);
	if (last > eof)
		last = eof;
	xr_assign(in, first, last, XR_WRITTEN);
}

/*
 * The order of the folio a buffered write makes at @index for @len bytes
 * (fgf_set_order() and __filemap_get_folio(), 6.18): the largest power of
 * two pages not above @len, within the mapping's limits, and no larger
 * than the alignment of @index (rounded down to a block) allows.  Older
 * kernels: order 0 before 6.6 (RA_POLICY_WRITE_ORDER0), no order 1
 * before 6.9.
 */
static unsigned write_order(const struct sim *s, const struct ra_mapping *m,
			    pgoff_t index, uint64_t len)
{
	unsigned order = 0;

	while (order < 63 && (RALAB_PAGE_SIZE << (order + 1)) <= len)
		order++;
	if (!m->large_folios || (s->policy->flags & (RA_POLICY_WRITE_ORDER0 |
						     RA_POLICY_READ_PAGEWISE)))
		order = 0;
	if (order > m->max_order)
		order = m->max_order;
	/* mapping_align_index(): a large block's first page. */
	index &= ~(((pgoff_t)1 << m->min_order) - 1);
	if (index & (((pgoff_t)1 << order) - 1))
		order = (unsigned)__builtin_ctzll(index);
	if (order < m->min_order)
		order = m->min_order;
	return order;
}

/*
 * A synchronous read of file bytes [from, to) for a write into folio
 * @fo; waits.  XFS waits for it with submit_bio_wait(), which marks it
 * REQ_SYNC ("RS"); ext4 reads the buffer heads and waits on them ("R").
 * The folio stays locked until the read is done: another job finds it
 * under I/O meanwhile.
 */
static void write_read(struct sim *s, struct sim_inode *in,
		       struct folio *fo, uint64_t from, uint64_t to)
{
	struct blk_vec v = { .sector = from / 512, .bytes = to - from };
	uint64_t done;

	if (!inode_layout(in) ||
	    (s->cfg.fs == RALAB_FS_XFS ?
		     blk_submit_read_sync(&s->q, &in->lay, &v, s->cur->now,
					  &done) :
		     blk_submit_read(&s->q, &in->lay, &v, 1, false,
				     s->cur->now, &done))) {
		s->host_err = -ENOMEM;
		return;
	}
	s->st->write_reads++;
	fo->done_ns = done;
	sim_wait(s, done, false);
}

/*
 * A new folio takes the write's bytes [pos, end): what the write covers
 * only in part is read first (__iomap_write_begin() for XFS,
 * ext4_block_write_begin() for ext4), unless it lies in a hole or starts
 * at or past EOF (i_size before this write: blocks there were never
 * written, or were truncated away, and are zeroed).
 *
 *   iomap (XFS): one read of the range's blocks, whole, when either end
 *                of the range is not on a block boundary; the range
 *                stops at the block holding EOF (iomap_adjust_read_range)
 *   buffer heads (ext4): one read for each block covered in part
 *
 *          i_size
 *   |  blk  |  blk : blk  |  blk  |
 *       [pos ...........end)         XFS: read [blk0, blk2) whole
 *                                    ext4: read blk0; blk2 is past EOF
 */
static void write_begin_read(struct sim *s, struct sim_inode *in,
			     struct folio *fo, uint64_t pos, uint64_t end,
			     bool hole)
{
	const uint64_t bs = inode_block_size(in);
	uint64_t first = pos & ~(bs - 1), last = (end + bs - 1) & ~(bs - 1);
	uint64_t isize = in->mapping.i_size;
	uint64_t eof = (isize + bs - 1) & ~(bs - 1);
	bool head = pos & (bs - 1), tail = end & (bs - 1);

	if (hole || (!head && !tail) || first >= isize)
		return;
	if (s->cfg.fs == RALAB_FS_XFS) {
		/* Blocks past EOF's are zeroed: is what is left covered? */
		if (last > eof)
			last = eof;
		if ((pos > first && pos < last) || (end > first && end < last))
			write_read(s, in, fo, first, last);
		return;
	}
	if (head)
		write_read(s, in, fo, first, first + bs);
	if (tail && (!head || last - bs != first) && last - bs < isize)
		write_read(s, in, fo, last - bs, last);
}

/* A folio the write path made: counted and reported. */
static void write_folio_added(struct sim *s, struct folio *fo)
{
	fo->done_ns = s->cur->now;
	fo->added_ns = s->cur->now;
	fo->added_call = s->cur->call;
	sim_folio_added(s, fo);
}

/*
 * ext4's zeroing of a block without data (unwritten or a hole) makes its
 * folio, if none is cached, and neither reads nor dirties it, nor marks it
 * uptodate (recorded on 6.18: fault-around leaves it unmapped, so a
 * DONTNEED drops it; a read(2) reads it without I/O).
 */
static void zeroed_clean_folio(struct sim *s, struct sim_inode *in,
				pgoff_t index)
{
	struct folio *fo;
	int err;

	if (pc_lookup(&in->pc, index))
		return;
	err = pc_add_folio(&in->pc, index, 0, 0, &fo);
	if (err) {
		s->host_err = err;
		return;
	}
	write_folio_added(s, fo);
	fo->done_ns = s->cur->now;
}

/*
 * A write starting past EOF zeroes the rest of the block holding EOF
 * (stale bytes there would show once i_size moves past them): XFS before
 * the write (xfs_file_write_zero_eof()), ext4 when the write's first step
 * moves i_size (ext4_da_do_write_end()).  The block's folio is found, or
 * made (of order 0; of the block's order on large-block XFS: recorded, an
 * RS of 16 KiB into an order-2 folio) and the whole block read first if
 * it has data on the disk; either way it is dirty after.  On ext4 a block
 * without data (after a fallocate past EOF) is left clean: there is
 * nothing to zero.
 *
 *   | data  :.....|      hole       |[pos ... write
 *           ^ EOF: zeroed up to the block's end
 *
 * A punch or zero-range zeroes the blocks it covers in part the same way
 * (filemap_punch()): which part of the block is zeroed does not matter
 * here, only that the block is read if not cached and dirtied.
 */
static bool zero_block_part(struct sim *s, struct sim_inode *in,
			   uint64_t isize)
{
	const uint64_t bs = inode_block_size(in), blk = isize & ~(bs - 1);
	pgoff_t index = blk / RALAB_PAGE_SIZE;
	struct folio *fo;
	uint64_t removed;
	bool hole;

again:
	fo = pc_lookup(&in->pc, index);
	removed = in->pc.removed;
	if (!inode_layout(in))
		return false;
	blk_mapping_end(&in->lay, blk / 512, &hole);
	/*
	 * XFS: iomap_zero_range() skips a block without data (delalloc,
	 * unwritten) unless a dirty folio or one under writeback is
	 * cached over it (6.18's folio batch).
	 */
	if (hole && s->cfg.fs == RALAB_FS_XFS &&
	    (!fo || !((fo->flags & PG_dirty) || folio_test_writeback(s, fo))))
		return false;
	if (hole && s->cfg.fs != RALAB_FS_XFS) {
		if (fo && !folio_ready(s, fo))
			sim_wait(s, fo->done_ns, folio_late(s, fo));
		zeroed_clean_folio(s, in, index);
		return false;
	}
	if (fo) {
		/* Under I/O (or another job's readahead): wait, look again. */
		if (sim_folio_lock_wait(s, fo, folio_late(s, fo)))
			goto again;
	} else {
		/*
		 * iomap marks the folio uptodate once its blocks are; ext4
		 * reads only the block's buffer (PG_bh_uptodate).
		 */
		int err = pc_add_folio(&in->pc, index, in->mapping.min_order,
				       s->cfg.fs == RALAB_FS_XFS ?
					       PG_uptodate :
					       PG_bh_uptodate,
				       &fo);

		if (err) {
			s->host_err = err;
			return false;
		}
		write_folio_added(s, fo);
		write_read(s, in, fo, blk, blk + bs);
		fo->done_ns = s->cur->now;
	}
	/* Truncated by another job during its read: look again. */
	if (!folio_still_cached(in, fo, index, removed))
		goto again;
	fo->flags = (uint16_t)((fo->flags | PG_dirty) &
			       ~(PG_nopriv | PG_dropbehind));
	if (s->cfg.fs == RALAB_FS_XFS)
		fo->flags |= PG_uptodate;
	else if (!(fo->flags & PG_uptodate))
		fo->flags |= PG_bh_uptodate;
	inode_dirty(in, fo);
	return true;
}

static void dontcache_write_end(struct sim *s, struct sim_inode *in,
				uint64_t start, uint64_t end);

/*
 * write(2)/pwrite(2) of @count bytes at @pos (generic_perform_write() and
 * iomap_write_iter(), 6.18), over the file's own blocks.  A write past
 * EOF grows i_size, step by step (iomap_write_end()), up to the file's
 * declared size, where it is cut: ralab's files have blocks up to there
 * and no further.  Each step takes the folio at @pos, or makes one sized
 * to what is left of the write (of the extent, on XFS, whose block
 * mappings end there), copies into it and leaves it uptodate and dirty.
 * Writes change no readahead state; the folios they add are what later
 * readahead finds cached.  Returns the bytes written.
 */
uint64_t filemap_write(struct sim *s, struct sim_file *f, int64_t pos,
		       uint64_t count)
{
	struct sim_inode *in = f->inode;
	struct ra_mapping *m = &in->mapping;
	uint64_t done = 0, old_size = m->i_size, bs = inode_block_size(in);
	/* Past EOF, the block holding EOF another: its tail is zeroed. */
	bool zero_eof = (uint64_t)pos > old_size && (old_size & (bs - 1)) &&
			old_size / bs != (uint64_t)pos / bs;

	if (pos < 0 || (uint64_t)pos >= in->size)
		return 0;
	if (count > in->size - (uint64_t)pos)
		count = in->size - (uint64_t)pos;
	if (zero_eof && s->cfg.fs == RALAB_FS_XFS) {
		zero_block_part(s, in, old_size);
		zero_eof = false;
	}
	while (count) {
		pgoff_t index = (uint64_t)pos / RALAB_PAGE_SIZE;
		uint64_t len = count, fstart, n, mend, chunk;
		struct folio *fo;
		bool hole, oom, fresh = false;
		unsigned order;
		uint16_t keep;
		int err;

		/*
		 * A step writes at most up to the next boundary of the
		 * largest folio the mapping takes (its "chunk"), and on XFS
		 * not past the extent (the iomap) holding @pos.
		 */
		chunk = RALAB_PAGE_SIZE << (m->large_folios ? m->max_order : 0);
		if (len > chunk - ((uint64_t)pos & (chunk - 1)))
			len = chunk - ((uint64_t)pos & (chunk - 1));
		mend = inode_mapping_end(in, (uint64_t)pos / 512, &hole, &oom);
		if (oom)
			break; /* out of memory: host_err is set */
		if (in->fresh && s->cfg.fs == RALAB_FS_XFS) {
			uint64_t xm = xfs_map(in, (uint64_t)pos,
					      (uint64_t)pos + count) / 512;

			/*
			 * A punched file keeps the extents it had: the iomap
			 * of its data ends where its extent does too
			 * (recorded: a 64 KiB write across a break of 64 KiB
			 * extents made order-3 folios, not one of order 4).
			 */
			mend = in->punched && mend < xm ? mend : xm;
		}
		if (s->cfg.fs == RALAB_FS_XFS && mend != UINT64_MAX &&
		    mend * 512 - (uint64_t)pos < len)
			len = mend * 512 - (uint64_t)pos;
repeat:
		fresh = false;
		fo = pc_lookup(&in->pc, index);
		if (fo) {
			/*
			 * folio_lock(): a folio under read I/O, or one another
			 * job's readahead has not submitted yet, is waited for
			 * and looked up again (others ran meanwhile).
			 */
			if (sim_folio_lock_wait(s, fo, folio_late(s, fo)))
				goto repeat;
		} else {
			order = write_order(s, m, index, len);
			sim_spend(s, s->cfg.cpu_folio_ns);
			for (;;) {
				if (order == 1 &&
				    (s->policy->flags & RA_POLICY_NO_ORDER1))
					order = 0;
				err = pc_add_folio(&in->pc, index &
						   ~(((pgoff_t)1 << order) - 1),
						   order, PG_uptodate, &fo);
				if (err != -EEXIST || order <= m->min_order)
					break;
				order--;
			}
			if (err == -EEXIST)
				goto repeat;
			if (err) {
				s->host_err = err;
				break;
			}
			write_folio_added(s, fo);
			fresh = true;
		}
		fstart = fo->index * RALAB_PAGE_SIZE;
		n = fstart + (RALAB_PAGE_SIZE << fo->order) - (uint64_t)pos;
		if (n > len)
			n = len;
		if (fresh) {
			uint64_t removed = in->pc.removed;

			write_begin_read(s, in, fo, (uint64_t)pos,
					 (uint64_t)pos + n, hole);
			/* Truncated by another job during the read: again. */
			if (!folio_still_cached(in, fo, index, removed))
				goto repeat;
			/* Unlocked when its reads are done. */
			fo->done_ns = s->cur->now;
		}
		/* Written whole: no per-block state; in part: some. */
		if ((uint64_t)pos != fstart ||
		    n != RALAB_PAGE_SIZE << fo->order)
			fo->flags &= (uint16_t)~PG_nopriv;
		else if (fresh)
			fo->flags |= PG_nopriv;
		/*
		 * RWF_DONTCACHE (FGP_DONTCACHE): a folio the write makes is
		 * dropbehind, one it finds keeps its mark; any other write
		 * clears the mark.
		 */
		keep = !(s->cur->call_how & CALL_DONTCACHE) ? 0 :
		       fresh		  ? PG_dropbehind :
					    fo->flags & PG_dropbehind;
		fo->flags = (uint16_t)(((fo->flags | PG_uptodate | PG_dirty) &
					~PG_dropbehind) | keep);
		inode_dirty(in, fo);
		inode_written(in, (uint64_t)pos, (uint64_t)pos + n);
		/* ext4 reserves what is neither allocated nor reserved. */
		if (in->fresh && s->cfg.fs == RALAB_FS_EXT4)
			xr_fill(in, (uint64_t)pos / RALAB_PAGE_SIZE,
				((uint64_t)pos + n + RALAB_PAGE_SIZE - 1) /
					RALAB_PAGE_SIZE,
				XR_DELALLOC, false);
		if ((uint64_t)pos + n > m->i_size)
			m->i_size = (uint64_t)pos + n;
		if (zero_eof) {
			zero_block_part(s, in, old_size);
			zero_eof = false;
		}
		sim_spend(s, (((uint64_t)pos & (RALAB_PAGE_SIZE - 1)) + n +
			      RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE *
				     s->cfg.cpu_page_ns);
		pos += (int64_t)n;
		count -= n;
		done += n;
	}
	s->st->bytes_written += done;
	if (done && inode_meets_own_hole(in, (uint64_t)pos - done, (uint64_t)pos))
		s->st->hole_writes++;
	if ((s->cur->call_how & CALL_DONTCACHE) && done)
		dontcache_write_end(s, in, (uint64_t)pos - done, (uint64_t)pos);
	return done;
}

/*
 * Writeback of dirty folio @f: it is clean after, and the end of its
 * writeback clears PG_reclaim, which is PG_readahead
 * (folio_end_writeback()): a written folio loses its readahead mark.
 * Contiguous dirty folios go out as one run (@wb): its requests take
 * device time when the run ends (wb_flush).
 */
void wb_folio(struct sim *s, struct sim_inode *in, struct wb_run *wb,
	      struct folio *f)
{
	if (in->fresh && s->cfg.fs == RALAB_FS_XFS) {
		uint64_t end = (f->index + folio_nr_pages(f)) *
			       RALAB_PAGE_SIZE;

		xfs_writeback(in, f->index, f->index + folio_nr_pages(f));
		/* xfs_end_ioend() -> xfs_setfilesize() */
		if (end > in->mapping.i_size)
			end = in->mapping.i_size;
		if (end > in->disk_size)
			in->disk_size = end;
	} else if (in->fresh) {
		/* ext4: the blocks are allocated and written. */
		xr_assign(in, f->index, f->index + folio_nr_pages(f),
			  XR_WRITTEN);
	}
	/* xfs_vm_writepages() */
	if (s->cfg.fs == RALAB_FS_XFS)
		in->truncated = false;
	if (wb->bytes && (f->index != wb->next || in != wb->in))
		wb_flush(s, wb);
	/*
	 * PG_readahead is cleared as writeback starts, not as it ends: a
	 * read meeting the mark meanwhile starts no readahead either
	 * (page_cache_async_ra() returns for a folio under writeback).
	 */
	f->flags &= (uint16_t)~(PG_dirty | PG_readahead);
	if (!wb->bytes) {
		wb->in = in;
		wb->first = f->index;
	}
	wb->bytes += RALAB_PAGE_SIZE << f->order;
	wb->next = f->index + folio_nr_pages(f);
}

void wb_flush(struct sim *s, struct wb_run *wb)
{
	struct sim_inode *in = wb->in;
	struct folio *f;
	uint64_t t;

	if (!wb->bytes)
		return;
	t = blk_write_time(&s->q, wb->bytes, s->cur->now);
	if (t > wb->done)
		wb->done = t;
	wb->bytes = 0;
	if (t <= s->cur->now)
		return;
	if (t > in->wb_end)
		in->wb_end = t;
	/* A folio dropped meanwhile (dropbehind) is no longer there. */
	f = xa_find_after(&in->pc.i_pages, wb->first);
	while (f && f->index < wb->next) {
		f->wb_done_ns = t;
		f = xa_find_after(&in->pc.i_pages,
				  f->index + folio_nr_pages(f));
	}
}

/* Are pages [@a, @b) of @in on blocks that hold data (not to convert)? */
static bool xr_all_written(const struct sim_inode *in, uint64_t a, uint64_t b)
{
	while (a < b) {
		const struct xfs_rec *r = xr_find(in, a);

		if (!r || r->start > a || r->state != XR_WRITTEN)
			return false;
		a = r->end;
	}
	return true;
}

/*
 * ext4's zero-range makes the blocks unwritten in place; XFS's frees them
 * and allocates unwritten ones again (xfs_falloc_zero_range()), not where
 * they were (freed blocks are busy until the log commits): recorded, a
 * write there and fsync, then a read of it from outside the file's
 * extents.  So on XFS only data blocks count (a preallocated file's
 * unwritten extents are not told apart from those: a write into them in
 * a punched file is counted too).
 */
bool inode_blocks_held(const struct sim_inode *in, pgoff_t a, pgoff_t b)
{
	bool xfs = in->sim->cfg.fs == RALAB_FS_XFS;

	while (a < b) {
		const struct xfs_rec *r = xr_find(in, a);

		if (!r || r->start > a || r->state == XR_DELALLOC ||
		    (xfs && r->state == XR_UNWRITTEN))
			return false;
		a = r->end;
	}
	return true;
}

/* The caller sleeps until writeback is @done: not a read's wait. */
static void wb_wait(struct sim *s, uint64_t done)
{
	if (done > s->cur->now)
		sim_spend(s, done - s->cur->now);
}

/*
 * Writeback of the dirty folios of @in over pages [@lo, @hi): they are
 * clean after.  With @dropbehind (an RWF_DONTCACHE write's end,
 * dontcache_write_end()), each marked one then leaves the cache where
 * its writeback ends in task context.  Returns when the last request is
 * done.
 */
static uint64_t writeback_range(struct sim *s, struct sim_inode *in,
				pgoff_t lo, pgoff_t hi, bool dropbehind)
{
	struct folio *f;
	struct wb_run wb = { 0 };

	if (lo < in->dirty_lo)
		lo = in->dirty_lo;
	if (hi > in->dirty_hi)
		hi = in->dirty_hi;
	/* From the folio holding @lo, if one does. */
	f = lo < hi ? pc_lookup(&in->pc, lo) : NULL;
	if (f)
		lo = f->index;
	/* dirty_lo is a dirty folio's first page: none starts before. */
	f = lo < hi ? xa_find_after(&in->pc.i_pages, lo) : NULL;
	while (f && f->index < hi) {
		pgoff_t next = f->index + folio_nr_pages(f);

		if ((f->flags & PG_dirty) && folio_test_writeback(s, f)) {
			pgoff_t index = f->index;

			/*
			 * Written again under writeback: the kick
			 * (WB_SYNC_NONE) skips it, fsync's WB_SYNC_ALL
			 * waits for that writeback to end first.
			 */
			if (dropbehind) {
				f = xa_find_after(&in->pc.i_pages, next);
				continue;
			}
			wb_flush(s, &wb);
			wb_wait(s, f->wb_done_ns);
			/* Others may have run: look again. */
			f = xa_find_after(&in->pc.i_pages, index);
			continue;
		}
		if (f->flags & PG_dirty) {
			/* Asked before writeback makes the blocks written. */
			bool task = dropbehind &&
				    (s->cfg.fs == RALAB_FS_XFS ||
				     (in->fresh &&
				      !xr_all_written(in, f->index, next)));

			wb_folio(s, in, &wb, f);
			if (task)
				folio_end_dropbehind(s, in, f);
		}
		f = xa_find_after(&in->pc.i_pages, next);
	}
	wb_flush(s, &wb);
	return wb.done;
}

static uint64_t write_dirty_range(struct sim *s, struct sim_inode *in,
				  pgoff_t lo, pgoff_t hi)
{
	return writeback_range(s, in, lo, hi, false);
}

/*
 * The end of an RWF_DONTCACHE write of bytes [@start, @end)
 * (generic_write_sync(): filemap_fdatawrite_range_kick()): writeback of
 * the dirty folios over those bytes starts at once, no one waits for it.
 * When it ends, a dropbehind folio leaves the cache (folio_end_writeback()
 * -> folio_end_dropbehind(), unmapped first) but only from task context:
 * XFS punts the end of an ioend holding a marked folio to its workqueue
 * (IOMAP_IOEND_DONTCACHE); ext4 does so only for an io_end whose blocks
 * it converts when the I/O ends (unwritten extents, and new allocations,
 * which ext4 makes unwritten first), and ends the others in interrupt
 * context, skipping the drop: there the folio stays, clean and marked,
 * until a read or DONTNEED drops it (checked on 6.18.44:
 * tests/cases/dcwrite-*).  The model drops the folio as its writeback
 * starts, not as it ends (the same on the ideal device).
 */
static void dontcache_write_end(struct sim *s, struct sim_inode *in,
				uint64_t start, uint64_t end)
{
	writeback_range(s, in, start / RALAB_PAGE_SIZE,
			(end + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE, true);
}

/*
 * xfs_setattr_size() growing the logged size to @size writes back and
 * waits for bytes [i_disk_size, @size - 1] (filemap_write_and_wait_range()):
 * nothing when @size is not past the on-disk size, even if the zeroing
 * dirtied the EOF block (recorded: a truncate to the size the file has,
 * then DONTNEED, keeps that block cached and dirty).
 */
static void setattr_write_and_wait(struct sim *s, struct sim_inode *in,
				   uint64_t size)
{
	const uint64_t ps = RALAB_PAGE_SIZE;

	if (size > in->disk_size)
		wb_wait(s, write_dirty_range(s, in, in->disk_size / ps,
					     (size + ps - 1) / ps));
}

static uint64_t write_dirty(struct sim *s, struct sim_inode *in)
{
	uint64_t done = write_dirty_range(s, in, 0, (pgoff_t)-1);

	in->dirty_lo = in->dirty_hi = 0;
	return done;
}

/*
 * fsync(2): every dirty folio written back; the caller waits for the
 * last request.  The folios stay cached, clean.
 */
void filemap_writeback(struct sim *s, struct sim_inode *in)
{
	uint64_t done = write_dirty(s, in);

	/* And for writeback started before (file_write_and_wait_range()). */
	if (in->wb_end > done)
		done = in->wb_end;

	/* xfs_file_fsync(), whether anything was dirty or not. */
	if (s->cfg.fs == RALAB_FS_XFS)
		in->truncated = false;
	wb_wait(s, done);
}

/*
 * Every folio starting in pages [@start, @end) goes, dirty or not;
 * folio_lock() waits for reads in flight (truncate_inode_pages_range(),
 * invalidate_inode_pages2_range(), which also unmaps each folio then:
 * @unmap; a truncate has unmapped the range before).
 */
static void drop_folios(struct sim *s, struct sim_inode *in, pgoff_t start,
			pgoff_t end, bool unmap)
{
	struct folio *f = xa_find_after(&in->pc.i_pages, start);

	while (f && f->index < end) {
		pgoff_t index = f->index, next = index + folio_nr_pages(f);

		if (sim_folio_lock_wait(s, f, false)) {
			/* Others ran: what is cached there now? */
			f = xa_find_after(&in->pc.i_pages, index);
			continue;
		}
		if (folio_test_writeback(s, f)) {
			/* folio_wait_writeback(); others may run meanwhile. */
			wb_wait(s, f->wb_done_ns);
			f = xa_find_after(&in->pc.i_pages, index);
			continue;
		}
		if (unmap)
			sim_unmap_range(s, in, f->index, next);
		sim_remove_folio(in, f);
		f = xa_find_after(&in->pc.i_pages, next);
	}
}

static void drop_folios_from(struct sim *s, struct sim_inode *in,
			     pgoff_t start)
{
	drop_folios(s, in, start, (pgoff_t)-1, false);
}

/*
 * An O_DIRECT read (xfs_file_dio_read(), ext4_dio_read_iter() ->
 * __iomap_dio_rw()): nothing at or past EOF; the dirty folios of the range
 * written back and waited for (kiocb_write_and_wait()); then the range, up
 * to the end of the EOF block, read from the device into the caller's
 * buffer, not the page cache: no readahead, no folio, and file_ra_state
 * untouched.  The caller sleeps until the last request is done.  Returns
 * the bytes read, or -1 (EINVAL) when @pos or @count is not aligned to the
 * logical block size.
 */
int64_t filemap_read_direct(struct sim *s, struct sim_file *f, int64_t pos,
			    uint64_t count)
{
	struct sim_inode *in = f->inode;
	uint64_t isize = in->mapping.i_size, end, io_end, done;
	const uint64_t bs = inode_block_size(in);
	const struct blk_layout *lay;

	if (!count || (uint64_t)pos >= isize)
		return 0;
	if (((uint64_t)pos | count) & (s->q.logical_block_size - 1))
		return -1;
	end = (uint64_t)pos + count;
	if (in->dirty_lo < in->dirty_hi)
		wb_wait(s, write_dirty_range(s, in,
					     (uint64_t)pos / RALAB_PAGE_SIZE,
					     (end - 1) / RALAB_PAGE_SIZE + 1));
	/* The EOF block is read whole, as far as the call asked. */
	io_end = (isize + bs - 1) & ~(bs - 1);
	if (io_end > end)
		io_end = end;
	lay = inode_layout(in);
	if (!lay || blk_submit_direct(&s->q, lay, (uint64_t)pos / 512,
				      (io_end - (uint64_t)pos) / 512,
				      s->cur->now, &done)) {
		s->host_err = -ENOMEM;
		done = s->cur->now;
	}
	sim_spend(s, s->q.nr_log * s->cfg.cpu_request_ns);
	/*
	 * A wait for the device, not CPU: an io_uring or libaio task
	 * (iodepth N ring) submits its next reads meanwhile, so direct
	 * reads overlap up to the queue depth, as their bios do.
	 */
	sim_wait(s, done, false);
	return (int64_t)((end < isize ? end : isize) - (uint64_t)pos);
}

/*
 * An O_DIRECT write over the file's own blocks (__iomap_dio_rw() for a
 * write): kiocb_invalidate_pages() writes the range's dirty folios back
 * and waits, then invalidate_inode_pages2_range() drops every folio with
 * a page in the range, whole, unmapping it first (a folio under read I/O
 * is waited for); the data goes to the device (write requests: device
 * time, no event), and nothing of it is cached.  Readahead state is not
 * touched.  Into a preallocated file's unwritten extents, the blocks
 * written (whole: iomap zeroes the rest of a block written in part)
 * hold data from then on: the end of the write converts them
 * (xfs_dio_write_end_io(), ext4_dio_write_end_io()), and reads of
 * them go to the device.  The parser refuses direct writes where the
 * filesystem would allocate (holes, files truncated or fallocated);
 * like buffered ones they stop at the file's declared size.  Returns the
 * bytes written, or -1 (EINVAL) when @pos or @count is not aligned.
 *
 *   folios:  [  order 2  ][o0][  order 2  ]
 *   write:          [.......]                 both order-2 folios go
 */
int64_t filemap_write_direct(struct sim *s, struct sim_file *f, int64_t pos,
			     uint64_t count)
{
	struct sim_inode *in = f->inode;
	pgoff_t first, end;
	struct folio *fo;

	if (!count || (uint64_t)pos >= in->size)
		return 0;
	if (count > in->size - (uint64_t)pos)
		count = in->size - (uint64_t)pos;
	if (((uint64_t)pos | count) & (s->q.logical_block_size - 1))
		return -1;
	first = (uint64_t)pos / RALAB_PAGE_SIZE;
	end = ((uint64_t)pos + count - 1) / RALAB_PAGE_SIZE + 1;
	if (in->dirty_lo < in->dirty_hi)
		wb_wait(s, write_dirty_range(s, in, first, end));
	/* From the folio holding @first on. */
	if ((fo = pc_lookup(&in->pc, first)))
		first = fo->index;
	drop_folios(s, in, first, end, true);
	wb_wait(s, blk_write_time(&s->q, count, s->cur->now));
	if (in->fresh) {
		/* Whole blocks: iomap zeroes the rest of one written in part. */
		inode_written(in, (uint64_t)pos, (uint64_t)pos + count);
		xr_assign(in, block_start_page(in, (uint64_t)pos),
			  block_end_page(in, (uint64_t)pos + count), XR_WRITTEN);
	}
	s->st->bytes_written += count;
	return (int64_t)count;
}

/*
 * At a truncate: where the file's blocks from now on lie apart is the
 * filesystem's choice, its breaks of this generation when known
 * (ralab_workload_set_rebreaks(), _gen()); they hold for blocks a
 * truncate to a size other than 0 keeps too (they are in the file the
 * recording saw).  Unknown: the file keeps its breaks.
 */
static void layout_rebreaks(struct sim *s, struct sim_inode *in)
{
	const struct sim_regen *r = inode_rebreaks(in);
	uint64_t *b = NULL;

	if (!r->set)
		return;
	if (r->n && !(b = malloc(r->n * sizeof(*b)))) {
		s->host_err = -ENOMEM;
		return;
	}
	if (b)
		memcpy(b, r->brk, r->n * sizeof(*b));
	free((void *)in->lay.brk);
	in->lay.brk = b;
	in->lay.n = r->n;
	in->lay.every = 0;
}

static void truncate_to_zero(struct sim *s, struct sim_inode *in)
{
	sim_unmap_from(s, in, 0);
	drop_folios_from(s, in, 0);
	in->dirty_lo = in->dirty_hi = 0;
	/* A file already empty is left alone (xfs_setattr_size()). */
	if (in->mapping.i_size)
		in->truncated = true;
	in->mapping.i_size = 0;
	in->disk_size = 0;
	layout_rebreaks(s, in);
	/* Its blocks are freed: until written, the file is one hole. */
	in->fresh = true;
	in->nwr = 0;
	in->nxr = 0;
	in->nown = 0;
	in->lay_stale = true;
}

/*
 * A split must release the folio's block state first (iomap_release_folio(),
 * try_to_free_buffers()), which a dirty folio refuses: ext4's dirty folios
 * always have buffer heads, XFS's none when write(2) made them whole
 * (PG_nopriv).
 */
static bool split_refused(const struct sim *s, const struct folio *f)
{
	return (f->flags & PG_dirty) &&
	       (s->cfg.fs != RALAB_FS_XFS || !(f->flags & PG_nopriv));
}

/*
 * A piece of @old at @at, of @order, after @old left the cache: it keeps
 * the folio's flags and times, but only the head keeps PG_readahead
 * (__split_folio_to_order() copies the other flags to the new folios),
 * and the split released its block state (filemap_release_folio()).
 */
static int split_piece(struct sim *s, struct sim_inode *in,
		       const struct folio *old, pgoff_t at, unsigned order)
{
	struct folio *n;
	int err = pc_add_folio(&in->pc, at, order, old->flags, &n);

	if (err) {
		s->host_err = err;
		return err;
	}
	n->done_ns = old->done_ns;
	n->added_ns = old->added_ns;
	n->added_call = old->added_call;
	if (at != old->index)
		n->flags &= (uint16_t)~PG_readahead;
	n->flags |= PG_nopriv;
	return 0;
}

/* @f leaves the cache for its pieces; a copy of it is returned. */
static struct folio split_begin(struct sim_inode *in, struct folio *f)
{
	struct folio old = *f;

	if (in->last_hit == f)
		in->last_hit = NULL;
	pc_remove_folio(&in->pc, f);
	return old;
}

/*
 * Split large folio @f around page @p (try_folio_split(), non-uniform, as
 * 6.18 does for page-cache folios): each halving keeps the half without
 * @p as one folio and goes on into the other, down to @p alone, or to the
 * block holding it when blocks are larger than a page (the mapping's min
 * order: "mm: split a folio in minimum folio order chunks").
 *
 *   order 3 [8,16), p = 13:  [8,12) o2 | [12,13) o0 | [13] o0 | [14,16) o1
 */
static void split_folio_at(struct sim *s, struct sim_inode *in,
			   struct folio *f, pgoff_t p)
{
	const unsigned min = in->mapping.min_order;
	struct folio old = split_begin(in, f);
	pgoff_t base = old.index, at;
	unsigned j = old.order;

	while (j > min) {
		pgoff_t half = (pgoff_t)1 << --j;

		/* The half without @p, whole; then into the other. */
		at = p < base + half ? base + half : base;
		if (at == base)
			base += half;
		if (split_piece(s, in, &old, at, j))
			return;
	}
	/* Last, the piece holding @p: a page, or a block on large blocks. */
	split_piece(s, in, &old, base, min);
}

/*
 * split_folio(): large folio @f into order-0 folios (a uniform split),
 * its mappings unmapped first (unmap_folio(): a file PMD is cleared, not
 * split into PTEs), as madvise(MADV_COLD) does to a folio it covers in
 * part.  Refused as truncation's split is: a dirty folio that has block
 * state, or one under writeback (-EBUSY).  And on blocks larger than a
 * page, always (-EINVAL), the folio left whole and mapped: measured on
 * 6.18.44 (16 KiB XFS blocks, /proc/kpageflags after MADV_COLD of part of
 * a PMD-mapped order-9 folio and of a PTE-mapped order-7 one: neither
 * split nor unmapped, FilePmdMapped unchanged; on 4 KiB blocks both split
 * to order 0; tests/cases/lbs-16k-cold-split).
 */
int sim_split_folio(struct sim *s, struct sim_inode *in, struct folio *f)
{
	struct folio old;
	pgoff_t q;
	int err;

	if (!f->order)
		return 0;
	if (in->mapping.min_order)
		return -EINVAL;
	if (folio_test_writeback(s, f) || split_refused(s, f))
		return -EBUSY;
	sim_unmap_range(s, in, f->index, f->index + folio_nr_pages(f));
	old = split_begin(in, f);
	for (q = old.index; q < old.index + folio_nr_pages(&old); q++)
		if ((err = split_piece(s, in, &old, q, 0)))
			return err;
	return 0;
}

/*
 * truncate_pagecache(inode, @lstart), @lstart > 0 (6.18's
 * truncate_inode_pages_range()): folios wholly past @lstart go, reads in
 * flight waited for, mappings unmapped from there.  The folio across it
 * stays, zeroed past it; a large one is split around the page holding
 * @lstart and the pieces past it go too, and so does the piece holding
 * the first page past @lstart where it begins before it (large blocks:
 * the block holding @lstart).  Where the split fails (a folio of one
 * block, or split_refused(): dirty block state) the folio is unmapped
 * whole; dirty, it stays whole, past EOF; clean, it goes.
 *
 *   64 KiB blocks, cut at page 769 of the block folio [768,784):
 *     dirty (zeroed tail):  [768,784) kept, no page of it mapped
 *     clean (over a hole):  [768,784) gone
 *   ... of the clean order-6 folio [768,832):
 *     split to [768,784) [784,800) ...: all gone
 */
static void truncate_pagecache_from(struct sim *s, struct sim_inode *in,
				    uint64_t lstart)
{
	const uint64_t ps = RALAB_PAGE_SIZE;
	pgoff_t start = (lstart + ps - 1) / ps, p0 = lstart / ps;
	struct folio *f = pc_lookup(&in->pc, p0);

	sim_unmap_from(s, in, start);
	/* Waited for, it may be gone (another job): look again. */
	while (f && f->index * ps < lstart && sim_folio_lock_wait(s, f, false))
		f = pc_lookup(&in->pc, p0);
	if (f && f->index * ps < lstart) {
		if (f->order > in->mapping.min_order && !split_refused(s, f)) {
			struct folio *g;

			split_folio_at(s, in, f, p0);
			/*
			 * The second pass (find_get_entries()) also takes a
			 * folio that covers @start but begins before it,
			 * which the first (find_lock_entries()) leaves: on
			 * blocks larger than a page the split leaves the
			 * block holding @lstart whole, and it goes, unmapped.
			 */
			g = pc_lookup(&in->pc, start);
			if (g && g->index < start) {
				sim_unmap_range(s, in, g->index, start);
				start = g->index;
			}
		} else {
			pgoff_t next = f->index + folio_nr_pages(f);

			/*
			 * A page stays, zeroed past EOF.  A large folio whose
			 * split failed (one block, -EINVAL; dirty block
			 * state, -EBUSY) is unmapped whole, its pages below
			 * EOF too, so that a PMD over it refaults by PTEs (K.
			 * Shutsemau, "mm/truncate: unmap large folio on split
			 * failure", in 6.18.44); then it stays whole past EOF
			 * if dirty, and goes whole if clean.
			 */
			if (f->order)
				sim_unmap_range(s, in, f->index, next);
			start = f->order && !(f->flags & PG_dirty) ? f->index
								  : next;
		}
	}
	drop_folios_from(s, in, start);
}

/* Bytes [@a, @b) of a fresh inode hold data: its written ranges, XFS's. */
static void fresh_written(struct sim_inode *in, uint64_t a, uint64_t b)
{
	if (a >= b)
		return;
	inode_written(in, a, b);
	xr_assign(in, a / RALAB_PAGE_SIZE, b / RALAB_PAGE_SIZE, XR_WRITTEN);
}

/*
 * A file with blocks of its own from its layout (not fresh) becomes
 * written ranges over [0, @keep) less its own holes, tracked from here
 * on as a truncate or a punch changes them; a fresh one stays as it is.
 */
static void inode_make_fresh(struct sim_inode *in, uint64_t keep)
{
	const struct blk_layout *l = &in->lay;
	uint64_t at = 0;
	unsigned k;

	if (in->fresh)
		return;
	in->fresh = true;
	in->nwr = 0;
	in->nxr = 0;
	/*
	 * Its own holes below @keep stay (whole blocks, apart: ops.c's
	 * check_holes()), space-less as they were: the data around them
	 * does not move.
	 */
	free(in->own);
	in->own = NULL;
	in->nown = 0;
	if (l->nh && !(in->own = malloc((size_t)l->nh * 2 * sizeof(*in->own)))) {
		in->sim->host_err = -ENOMEM;
		return;
	}
	for (k = 0; k < l->nh && l->hole[2 * k] * 512 < keep; k++) {
		uint64_t a = l->hole[2 * k] * 512, b = l->hole[2 * k + 1] * 512;

		if (b > keep)
			b = keep;
		in->own[2 * in->nown] = a;
		in->own[2 * in->nown++ + 1] = b;
		fresh_written(in, at, a);
		at = b;
	}
	fresh_written(in, at, keep);
}

/*
 * The blocks from @size (rounded up to a block) on are freed
 * (xfs_itruncate_extents(), ext4_truncate()): a hole, as after a truncate
 * to 0, below which the file keeps what it had.  A file not truncated
 * before has its own blocks below: one written range from then on.
 */
static void blocks_truncate(struct sim *s, struct sim_inode *in,
			    uint64_t size)
{
	const uint64_t bs = inode_block_size(in), ps = RALAB_PAGE_SIZE;
	uint64_t keep = (size + bs - 1) & ~(bs - 1);
	unsigned i, k;

	inode_make_fresh(in, keep);
	for (i = k = 0; i < in->nwr && in->wr[2 * i] < keep; i++, k++)
		if (in->wr[2 * i + 1] > keep)
			in->wr[2 * i + 1] = keep;
	in->nwr = k;
	for (i = k = 0; i < in->nxr && in->xr[i].start < keep / ps; i++, k++)
		if (in->xr[i].end > keep / ps)
			in->xr[i].end = keep / ps;
	in->nxr = k;
	in->lay_stale = true;
}

/*
 * ftruncate(2) to @size > 0.
 *
 * XFS, xfs_setattr_size():            ext4, ext4_setattr():
 *   up: zero the old EOF block          up: zero the old EOF block
 *   down: zero the new EOF block        i_size; cut the page cache
 *   write back [i_disk_size, size)      down: zero the new EOF block,
 *     if it zeroed, or the size lags          free the blocks past it
 *   i_size; cut the page cache
 *   down (or same): free the blocks
 *     past it, flush at close
 *
 * Zeroing a block with data reads it when not cached, into a new folio of
 * the block, and dirties it (zero_block_part()).  On large blocks the EOF
 * block is the unit throughout: zeroed from SIZE to its end, kept whole in
 * the page cache (no split below it), freed past it.
 */
static void truncate_to(struct sim *s, struct sim_inode *in, uint64_t size)
{
	const uint64_t bs = inode_block_size(in);
	uint64_t old = in->mapping.i_size;
	bool xfs = s->cfg.fs == RALAB_FS_XFS, zeroed = false;

	if (size > old && (old & (bs - 1))) {
		zeroed = zero_block_part(s, in, old);
	} else if (xfs && size <= old && (size & (bs - 1))) {
		/*
		 * No writeback of the folio holding the new EOF first (6.18:
		 * iomap's zeroing finds a dirty folio over an unwritten block
		 * by itself; recorded: no write during such a truncate).
		 */
		zeroed = zero_block_part(s, in, size);
	}
	in->mapping.i_size = size;
	layout_rebreaks(s, in);
	truncate_pagecache_from(s, in, size);
	/*
	 * Once the page cache is cut (nothing stale past the new EOF goes
	 * out): what lies between the on-disk size and the new one.
	 */
	if (xfs && (zeroed || (size > in->disk_size && old != in->disk_size)))
		setattr_write_and_wait(s, in, size);
	if (size <= old) {
		if (!xfs && (size & (bs - 1)))
			zero_block_part(s, in, size);
		blocks_truncate(s, in, size);
		if (xfs)
			in->truncated = true;
	}
	if (xfs)
		in->disk_size = size;
}

void filemap_truncate(struct sim *s, struct sim_inode *in, uint64_t size)
{
	sim_next_generation(in);
	if (size)
		truncate_to(s, in, size);
	else
		truncate_to_zero(s, in);
}

/*
 * The folio holding page @p if it starts before @p (a folio across that
 * boundary), its read waited for first (it may be gone after); or NULL.
 */
static struct folio *folio_across(struct sim *s, struct sim_inode *in,
				  pgoff_t p)
{
	struct folio *f = pc_lookup(&in->pc, p);

	while (f && f->index < p && sim_folio_lock_wait(s, f, false))
		f = pc_lookup(&in->pc, p);
	return f && f->index < p ? f : NULL;
}

/*
 * A large folio that a punched hole [start, end) covers in part (6.18's
 * truncate_inode_partial_folio()).  ext4: split non-uniformly around the
 * page at the hole's side of it (its first page when it starts inside the
 * hole), then the piece holding @end split around @end where the folio
 * reaches past it, so that the pieces inside the hole can go.  XFS: the
 * folio goes whole, unmapped first, as a clean folio whose split failed
 * does.  Recorded on 6.18.44 (4 KiB blocks, folios of order 2 and 4 read
 * by readahead, holes starting or ending inside them): XFS drops the
 * folio across either end whole, ext4 keeps what lies outside the hole.
 * Why XFS's split fails here is not known (a truncate to a size inside
 * such a folio splits it on both).  On XFS the folio is clean (written
 * back first, filemap_punch()); on ext4 a dirty one with dirty block
 * state is not split (split_refused()): it stays whole, unmapped, as a
 * truncate leaves it.  @start: the first page the hole reaches, in part
 * or whole.  Returns whether @f stays.
 */
static bool punch_partial_folio(struct sim *s, struct sim_inode *in,
				struct folio *f, pgoff_t start, pgoff_t end)
{
	pgoff_t next = f->index + folio_nr_pages(f);
	struct folio *g;

	if (s->cfg.fs == RALAB_FS_XFS) {
		sim_unmap_range(s, in, f->index, next);
		sim_remove_folio(in, f);
		return false;
	}
	if (split_refused(s, f)) {
		sim_unmap_range(s, in, f->index, next);
		return true;
	}
	split_folio_at(s, in, f, f->index < start ? start : f->index);
	if (next <= end)
		return false;
	g = pc_lookup(&in->pc, end);
	if (g && g->index < end && g->order > in->mapping.min_order)
		split_folio_at(s, in, g, end);
	return false;
}

/* When the writeback of the folios over pages [@lo, @hi) ends (0: none). */
static uint64_t writeback_end(struct sim *s, struct sim_inode *in, pgoff_t lo,
			      pgoff_t hi)
{
	struct folio *f = pc_lookup(&in->pc, lo);
	uint64_t done = 0;

	if (!f)
		f = xa_find_after(&in->pc.i_pages, lo);
	while (f && f->index < hi) {
		if (folio_test_writeback(s, f) && f->wb_done_ns > done)
			done = f->wb_done_ns;
		f = xa_find_after(&in->pc.i_pages,
				  f->index + folio_nr_pages(f));
	}
	return done;
}

/*
 * A punch's or zero-range's end inside a block, zeroed there: past the
 * EOF block (an ext4 zero-range, which made it unwritten) the folio is
 * made and left clean, as over a hole.
 */
static void zero_punch_end(struct sim *s, struct sim_inode *in, uint64_t pos)
{
	const uint64_t bs = inode_block_size(in);

	if ((pos & ~(bs - 1)) >= ((in->mapping.i_size + bs - 1) & ~(bs - 1)))
		zeroed_clean_folio(s, in, pos / RALAB_PAGE_SIZE);
	else
		zero_block_part(s, in, pos);
}

/*
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) of bytes [off,
 * off + len), whole blocks: XFS writes back the dirty folios over the
 * range and waits (xfs_flush_unmap_range()); ext4 does not
 * (ext4_truncate_page_cache_block_range(), data=ordered: since Zhang
 * Yi's 2024-12 series, "ext4: don't write back data before punch hole");
 * then truncate_pagecache_range() (the range unmapped, reads in flight
 * and writeback waited for, large folios across its ends split, the
 * folios inside dropped, dirty or not), then the blocks freed: a hole,
 * which reads zero-fill without I/O; the data around it stays where it
 * is on the disk.  A write into the hole later would allocate blocks anywhere:
 * counted (inode_meets_own_hole()), refused by the recorder.
 *
 *   order-4 folio [16,32), punch pages [20,40):
 *     ext4: [16,20) o2 kept | [20,40) dropped | [40,..) kept
 *           (dirty: [16,32) kept whole, unmapped)
 *     XFS:  [16,32) dropped whole | [32,40) dropped | [40,..) kept
 */
void filemap_punch(struct sim *s, struct sim_inode *in, uint64_t off,
		   uint64_t len, bool zero)
{
	const uint64_t ps = RALAB_PAGE_SIZE, bs = inode_block_size(in);
	const bool xfs = s->cfg.fs == RALAB_FS_XFS;
	const uint64_t isize = in->mapping.i_size;
	uint64_t e = off + len, ab, eb, ze, fe, zb, done = 0, t;
	pgoff_t start, end, drop_end;
	struct folio *f;

	/*
	 * Past EOF (recorded on 6.18): ext4 does nothing from EOF on, and a
	 * range reaching past it ends after the page EOF lies in, that block
	 * freed whole (ext4_punch_hole()); one ending at EOF zeroes the EOF
	 * block's part as any other end.  XFS frees the blocks the whole
	 * range covers, but zeroes only up to EOF (xfs_free_file_space()):
	 *
	 *   punch [off, e), EOF inside block B:
	 *     ext4: [off, B+1) as a punch ending at a block
	 *     XFS:  e past B's end: blocks [off, e) freed, B with them;
	 *           e inside B: B zeroed up to EOF (read, dirtied);
	 *           nothing zeroed past EOF, and no block past it read
	 *
	 * An ext4 zero-range is not cut at EOF (ext4_zero_range()): a block
	 * past the EOF block that it covers in part is made unwritten, and
	 * zeroing it makes its folio, clean (recorded: no read).
	 */
	if (!xfs && !zero && off >= isize)
		return;
	if (!xfs && !zero && e > isize)
		e = (isize + ps - 1) & ~(ps - 1);
	/* Where the zeroing ends: XFS's at EOF. */
	ze = xfs && e > isize ? isize : e;
	ab = (off + bs - 1) & ~(bs - 1);
	eb = e & ~(bs - 1);
	/*
	 * The pages that go: XFS's over every block the range reaches
	 * (xfs_flush_unmap_range()), ext4's inside the range; a page the
	 * range covers in part stays there, zeroed in place
	 * (truncate_inode_partial_folio()).
	 */
	start = xfs ? (off & ~(bs - 1)) / ps : (off + ps - 1) / ps;
	end = xfs ? ((e + bs - 1) & ~(bs - 1)) / ps : e / ps;
	drop_end = end;
	if (xfs)
		done = write_dirty_range(s, in, start, end);
	/* And any writeback started before, the edge folios' too. */
	t = writeback_end(s, in, off / ps, (e + ps - 1) / ps);
	wb_wait(s, t > done ? t : done);
	in->punched = true;
	sim_unmap_range(s, in, start, end);
	if ((f = folio_across(s, in, start)))
		punch_partial_folio(s, in, f, xfs ? start : off / ps, end);
	/* A folio kept across the end stays out of the range dropped. */
	if ((f = folio_across(s, in, end)) && f->index >= start &&
	    punch_partial_folio(s, in, f, start, end))
		drop_end = f->index;
	/*
	 * ext4, an end inside a page: the large folio starting there is
	 * split around it too (the page stays, zeroed in part).
	 */
	if (!xfs && (e & (ps - 1)) && (f = pc_lookup(&in->pc, end)) &&
	    f->index == end && f->index >= start &&
	    f->order > in->mapping.min_order && !split_refused(s, f))
		split_folio_at(s, in, f, end);
	drop_folios(s, in, start, drop_end, false);
	/*
	 * The blocks: a file with its own blocks becomes written ranges up
	 * to its EOF block (as a truncate makes it), less its own holes and
	 * the whole blocks of this one.
	 */
	fe = (isize + bs - 1) & ~(bs - 1);
	inode_make_fresh(in, fe);
	/* (Those past the EOF block are never read: not kept.) */
	if (eb < fe)
		fe = eb;
	if (ab < fe) {
		inode_unwritten(in, ab, fe);
		if (zero)
			xr_assign(in, ab / ps, fe / ps, XR_UNWRITTEN);
		else
			xr_remove(in, ab / ps, fe / ps);
	}
	if (xfs && off >= isize)
		return;
	/*
	 * The blocks it covers in part are zeroed there, as a write of
	 * zeroes (xfs_zero_range(), ext4_zero_partial_blocks()): read
	 * first if not cached, then dirty; on XFS not over a hole.  XFS
	 * zeroes up to EOF, the EOF block's part unless it went with the
	 * range; an ext4 zero-range's end past EOF makes a clean folio.
	 */
	if (off & (bs - 1))
		zero_punch_end(s, in, off);
	zb = ze & ~(bs - 1);
	if ((ze & (bs - 1)) && (zb >= ab || !(off & (bs - 1))) &&
	    !(zb >= ab && zb + bs <= eb))
		zero_punch_end(s, in, ze);
	/*
	 * XFS, zeroed up to an EOF inside a page: that page is written
	 * back and waited for (xfs_free_file_space()), so that its tail
	 * past EOF is zeroed on the disk too.
	 */
	if (xfs && ze == isize && (ze & (ps - 1)))
		wb_wait(s, write_dirty_range(s, in, ze / ps, (pgoff_t)-1));
}

/*
 * A file preallocated and never written (fallocate(2) over a new file):
 * no data, every block one unwritten extent (reads zero-fill it without
 * I/O, a write reads nothing and its iomap runs to the extent's end);
 * what is written from then on is data, as after a truncate.
 */
void filemap_preallocated(struct sim_inode *in)
{
	in->fresh = true;
	in->lay_stale = true;
	in->nwr = 0;
	in->nxr = 0;
	xr_assign(in, 0, (in->size + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE,
		  XR_UNWRITTEN);
}

void filemap_fallocate(struct sim *s, struct sim_inode *in, uint64_t off,
		       uint64_t len, bool keep)
{
	/* Whole blocks, in pages (on ext4 a block is a page). */
	const uint64_t bs = inode_block_size(in), ps = RALAB_PAGE_SIZE;
	uint64_t b = block_start_page(in, off), e = block_end_page(in, off + len);

	/*
	 * xfs_alloc_file_space(), ext4_alloc_file_blocks(): unwritten
	 * extents over the holes, and what is reserved (delalloc) in the
	 * range is allocated, as unwritten, apart from the rest of its
	 * reservation (recorded: no writeback at the next close when
	 * nothing is left reserved; the range's ends are rebreaks).  What
	 * is allocated stays as it is.
	 */
	if (in->fresh)
		xr_fill(in, b, e, XR_UNWRITTEN, true);
	/* Mode 0 past EOF moves it, as a truncate up would. */
	if (!keep && off + len > in->mapping.i_size) {
		uint64_t isize = in->mapping.i_size, nsize = off + len;
		bool zeroed = (isize & (bs - 1)) && zero_block_part(s, in, isize);

		in->mapping.i_size = nsize;
		/*
		 * xfs_setattr_size(): what the zeroing dirtied, and any data
		 * past the on-disk size, is written back and waited for
		 * before the size is logged (the "NULL files" problem).
		 */
		if (s->cfg.fs == RALAB_FS_XFS &&
		    (zeroed ||
		     (nsize > in->disk_size && isize != in->disk_size)))
			setattr_write_and_wait(s, in, nsize);
		/*
		 * truncate_setsize() cuts the page cache at the new size even
		 * as it grows: a folio kept whole past the old EOF is split
		 * there, if clean now (XFS only: ext4 sets i_size itself).
		 */
		if (s->cfg.fs == RALAB_FS_XFS) {
			truncate_pagecache_from(s, in, nsize);
			/* The size it logs is the on-disk size from now on. */
			in->disk_size = nsize;
		}
		/*
		 * ext4_alloc_file_blocks() zeroes the partial blocks at both
		 * ends of what the new size adds: at the new end that block is
		 * unwritten, so its folio is made and nothing is read or
		 * dirtied (a DONTNEED drops it at once; recorded on 6.18).
		 */
		if (s->cfg.fs == RALAB_FS_EXT4 && (nsize & (ps - 1)) &&
		    !((isize & (ps - 1)) && isize / ps == nsize / ps))
			zeroed_clean_folio(s, in, nsize / ps);
	}
}

/*
 * xfs_release() and ext4_release_file(): the first release after a
 * truncate down starts writeback of the data written since (the "NULL
 * files" problem of replace-by-truncate), without waiting for it, if
 * any of it is delayed allocation (writes into fallocated blocks are
 * not).  On XFS an fsync or any writeback since clears the mark.
 */
void filemap_release(struct sim *s, struct sim_inode *in)
{
	if (!in->truncated)
		return;
	in->truncated = false;
	/* Only with blocks reserved (i_delayed_blks, reserved blocks). */
	if (xr_delalloc(in))
		write_dirty(s, in);
}
