// SPDX-License-Identifier: MIT
/*
 * fadvise.c - posix_fadvise(2) and readahead(2) as generic_fadvise() does
 * them on 6.18.  What changes readahead state is the policy layer's
 * ra_fadvise() (NORMAL/SEQUENTIAL re-snapshot ra_pages, RANDOM sets
 * FMODE_RANDOM, WILLNEED and readahead(2) force readahead over the
 * range); here DONTNEED drops the clean, unmapped folios wholly inside
 * the range, and starts writeback of the dirty ones (which stay).
 */
#include "sim.h"
#include "workload/workload.h"

/* mapping_try_invalidate(): folios wholly inside [start, end]. */
static void invalidate(struct sim *s, struct sim_inode *in, pgoff_t start,
		       pgoff_t end)
{
	struct wb_run wb = { 0 };
	pgoff_t index = start;
	struct sim_vma *vmas[MAX_JOBS * MAX_MAPS];
	unsigned nv = sim_vmas_of(s, in, vmas, MAX_JOBS * MAX_MAPS);

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
		/*
		 * A written folio: DONTNEED starts its writeback first
		 * (WB_SYNC_NONE) and cannot drop it under writeback, nor
		 * can the next DONTNEED until the writeback is done (at
		 * once on a device whose I/O takes no time).  Its requests
		 * keep the device busy; nobody waits for them.  One written
		 * again under writeback stays dirty: WB_SYNC_NONE skips it.
		 */
		if (f->flags & PG_dirty) {
			if (!folio_test_writeback(s, f))
				wb_folio(s, in, &wb, f);
		} else if (f->index >= start && next - 1 <= end &&
			   !folio_locked(in->sim, f) &&
			   !folio_test_writeback(s, f) &&
			   !(nv && sim_folio_mapped(vmas, nv, f)))
			sim_remove_folio(in, f);
		if (next <= index)
			break;
		index = next;
	}
	wb_flush(s, &wb);
}

int sim_fadvise(struct sim *s, struct sim_file *f, int64_t offset,
		int64_t len, int advice)
{
	struct sim_inode *in = f->inode;
	struct readahead_control ractl = sim_ractl(s, f, 0);
	uint64_t endbyte;
	pgoff_t start_index, end_index;

	if (len < 0)
		return -22;
	if (advice != FADV_DONTNEED)
		return ra_fadvise(&ractl, &f->f_mode, s->q.ra_pages, offset,
				  len, advice);
	endbyte = ra_fadvise_endbyte(offset, len);
	/* First and last full page. */
	start_index = ((uint64_t)offset + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	end_index = endbyte / RALAB_PAGE_SIZE;
	/*
	 * A last page only partly covered is kept, unless the range ends at
	 * a page end or at EOF.
	 */
	if ((endbyte & (RALAB_PAGE_SIZE - 1)) != RALAB_PAGE_SIZE - 1 &&
	    endbyte != in->mapping.i_size - 1) {
		if (end_index == 0)
			return 0;
		end_index--;
	}
	if (end_index >= start_index)
		invalidate(s, in, start_index, end_index);
	return 0;
}
