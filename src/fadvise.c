// SPDX-License-Identifier: MIT
/*
 * fadvise.c - posix_fadvise(2) and readahead(2) as generic_fadvise() does
 * them on 6.18: NORMAL/SEQUENTIAL re-snapshot ra_pages (x1, x2), RANDOM
 * sets FMODE_RANDOM, WILLNEED (and readahead(2)) force readahead over the
 * range, DONTNEED drops the clean, unmapped folios wholly inside it.
 * fadvise never touches ra->start/size/async_size/prev_pos.
 */
#include "sim.h"
#include "workload/workload.h"

static void willneed(struct sim *s, struct sim_file *f, pgoff_t start,
		     unsigned long nr)
{
	struct readahead_control ractl = sim_ractl(s, f, start);

	force_page_cache_ra(&ractl, nr);
}

/* mapping_try_invalidate(): folios wholly inside [start, end]. */
static void invalidate(struct sim_inode *in, pgoff_t start, pgoff_t end)
{
	pgoff_t index = start;

	while (index <= end) {
		struct folio *f = pc_lookup(&in->pc, index);
		pgoff_t next;

		if (!f) {
			/* Jump to the next cached folio. */
			f = xa_find_after(&in->pc.i_pages, index);
			if (!f || f->index > end)
				break;
		}
		next = f->index + folio_nr_pages(f);
		if (f->index >= start && next - 1 <= end &&
		    !(f->flags & PG_locked) && folio_ready(in->sim, f))
			sim_remove_folio(in, f);
		if (next <= index)
			break;
		index = next;
	}
}

int sim_fadvise(struct sim *s, struct sim_file *f, int64_t offset,
		int64_t len, int advice)
{
	struct sim_inode *in = f->inode;
	uint64_t endbyte;
	pgoff_t start_index, end_index;
	unsigned long nrpages;

	if (len < 0)
		return -22;
	/* Careful about overflows; len == 0 means "as much as possible". */
	endbyte = (uint64_t)offset + (uint64_t)len;
	if (!len || endbyte < (uint64_t)len || endbyte > (uint64_t)INT64_MAX)
		endbyte = (uint64_t)INT64_MAX;
	else
		endbyte--; /* inclusive */

	switch (advice) {
	case FADV_NORMAL:
		f->ra.ra_pages = (unsigned)s->q.ra_pages;
		f->f_mode &= ~(FMODE_RANDOM | FMODE_NOREUSE);
		break;
	case FADV_RANDOM:
		f->f_mode |= FMODE_RANDOM;
		break;
	case FADV_SEQUENTIAL:
		f->ra.ra_pages = (unsigned)(s->q.ra_pages * 2);
		f->f_mode &= ~FMODE_RANDOM;
		break;
	case FADV_WILLNEED:
		/* First and last partial page. */
		start_index = (uint64_t)offset / RALAB_PAGE_SIZE;
		end_index = endbyte / RALAB_PAGE_SIZE;
		nrpages = end_index - start_index + 1;
		if (!nrpages)
			nrpages = ~0ul;
		willneed(s, f, start_index, nrpages);
		break;
	case FADV_NOREUSE:
		f->f_mode |= FMODE_NOREUSE;
		break;
	case FADV_DONTNEED:
		/* First and last full page. */
		start_index = ((uint64_t)offset + RALAB_PAGE_SIZE - 1) /
			      RALAB_PAGE_SIZE;
		end_index = endbyte / RALAB_PAGE_SIZE;
		/*
		 * A last page only partly covered is kept, unless the range
		 * ends at a page end or at EOF.
		 */
		if ((endbyte & (RALAB_PAGE_SIZE - 1)) != RALAB_PAGE_SIZE - 1 &&
		    endbyte != in->mapping.i_size - 1) {
			if (end_index == 0)
				break;
			end_index--;
		}
		if (end_index >= start_index)
			invalidate(in, start_index, end_index);
		break;
	default:
		return -22;
	}
	return 0;
}
