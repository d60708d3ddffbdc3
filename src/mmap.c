// SPDX-License-Identifier: MIT
/*
 * mmap.c - read faults on a shared file mapping, as Linux 6.18 handles
 * them (mm/memory.c do_read_fault(), mm/filemap.c filemap_map_pages() and
 * filemap_fault()), with the mmap readahead of do_sync_mmap_readahead()
 * and do_async_mmap_readahead().
 *
 * A touch of an unmapped page:
 *
 *   attempt 1: (per-VMA lock) fault-around maps the cached, uptodate,
 *              unmarked folios of the 16-page window (6.18: a large one
 *              whole, map_whole()); if that maps the
 *              page, done.  Else filemap_fault(): absent page -> sync
 *              mmap readahead; present page -> mmap_miss-- (6.18: unless
 *              locked for its read), async readahead if marked.
 *              Readahead, or a wait for a locked folio, drops the lock,
 *              so the fault is retried.
 *   attempt 2: (mmap_lock; FAULT_FLAG_TRIED after a major fault) the same
 *              again; TRIED: no async readahead, no mmap_miss hit, the
 *              folio waited for without dropping the lock.
 *   attempt 3: (FAULT_FLAG_TRIED) after a minor attempt 2 dropped it.
 *
 * Fault-around never maps a marked folio, so the first touch of one always
 * reaches filemap_fault() and its async readahead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "workload/workload.h"

#define FAULT_AROUND_PAGES 16
#define PTRS_PER_PTE 512
#define HPAGE_PMD_ORDER 9
#define HPAGE_PMD_NR (1u << HPAGE_PMD_ORDER)
#define MMAP_LOTSAMISS 100

enum { PMD_NONE, PMD_TABLE, PMD_HUGE };

int sim_mmap(struct sim_vma *v, struct sim_file *f, uint64_t off,
	     uint64_t len)
{
	uint64_t last;

	sim_munmap(v); /* the parser never reuses a live slot; be safe */
	memset(v, 0, sizeof(*v));
	v->file = f;
	v->pgoff = off / RALAB_PAGE_SIZE;
	v->npages = (len + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	v->first_region = v->pgoff / HPAGE_PMD_NR;
	last = (v->pgoff + v->npages - 1) / HPAGE_PMD_NR;
	v->pte = calloc(v->npages, 1);
	v->pmd = calloc(last - v->first_region + 1, 1);
	v->seg = malloc(sizeof(*v->seg));
	if (!v->pte || !v->pmd || !v->seg) {
		free(v->pte);
		free(v->pmd);
		free(v->seg);
		memset(v, 0, sizeof(*v));
		return -12;
	}
	v->seg[0] = (struct vma_seg){ v->pgoff, v->pgoff + v->npages, 0 };
	v->nseg = 1;
	v->active = true;
	return 0;
}

void sim_munmap(struct sim_vma *v)
{
	free(v->pte);
	free(v->pmd);
	free(v->seg);
	memset(v, 0, sizeof(*v));
}

/*
 * unmap_mapping_range(mapping, @from pages on): a truncate zaps every
 * mapping's PTEs past the new end, so the next touch there faults.  A
 * PMD over any of those pages goes whole: a file PMD is not split into
 * PTEs (__split_huge_pmd_locked() only clears it), so its pages below
 * the new end fault again too.
 */
void sim_unmap_range(struct sim *s, const struct sim_inode *in, pgoff_t from,
		     pgoff_t to)
{
	struct sim_vma *vmas[MAX_JOBS * MAX_MAPS];
	unsigned i, n = sim_vmas_of(s, in, vmas, MAX_JOBS * MAX_MAPS);

	for (i = 0; i < n; i++) {
		struct sim_vma *v = vmas[i];
		pgoff_t end = v->pgoff + v->npages, p0, r;

		if (to < end)
			end = to;
		p0 = from > v->pgoff ? from : v->pgoff;
		if (p0 >= end)
			continue;
		memset(v->pte + (p0 - v->pgoff), 0, end - p0);
		for (r = p0 / HPAGE_PMD_NR; r <= (end - 1) / HPAGE_PMD_NR; r++)
			if (v->pmd[r - v->first_region] == PMD_HUGE)
				v->pmd[r - v->first_region] = PMD_NONE;
	}
}

void sim_unmap_from(struct sim *s, const struct sim_inode *in, pgoff_t from)
{
	sim_unmap_range(s, in, from, (pgoff_t)-1);
}

/*
 * The mappings of @in (every job's), into @out (at most @max); their
 * number.  For folio_mapped() over many folios: found once.
 */
unsigned sim_vmas_of(struct sim *s, const struct sim_inode *in,
		     struct sim_vma **out, unsigned max)
{
	unsigned j, k, n = 0;

	for (j = 0; j < s->nr_jobs; j++)
		for (k = 0; k < MAX_MAPS && n < max; k++)
			if (s->jobs[j].vma[k].active &&
			    s->jobs[j].vma[k].file->inode == in)
				out[n++] = &s->jobs[j].vma[k];
	return n;
}

/* folio_mapped(): a page of @f is mapped by one of @v[0..n). */
bool sim_folio_mapped(struct sim_vma *const *v, unsigned n,
		      const struct folio *f)
{
	pgoff_t end = f->index + folio_nr_pages(f), p;
	unsigned i;

	for (i = 0; i < n; i++) {
		pgoff_t a = f->index > v[i]->pgoff ? f->index : v[i]->pgoff;
		pgoff_t b = end < v[i]->pgoff + v[i]->npages ?
				    end :
				    v[i]->pgoff + v[i]->npages;

		for (p = a; p < b; p++)
			if (v[i]->pte[p - v[i]->pgoff] ||
			    v[i]->pmd[p / HPAGE_PMD_NR - v[i]->first_region] ==
				    PMD_HUGE)
				return true;
	}
	return false;
}

static uint8_t *pmd_of(struct sim_vma *v, pgoff_t p);

/* find_vma(): the VMA holding page @p of the mapping. */
static const struct vma_seg *seg_of(const struct sim_vma *v, pgoff_t p)
{
	unsigned lo = 0, hi = v->nseg - 1;

	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;

		if (v->seg[mid].start <= p)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &v->seg[lo];
}

/*
 * split_vma(): make @p the start of a VMA (p inside the mapping).  A PMD
 * mapping the 2 MiB around a split that is not on a PMD boundary goes
 * (vma_adjust_trans_huge(): split_huge_pmd_address() clears a file PMD,
 * it does not split it into PTEs), so its pages fault again, by PTEs,
 * and are no longer mapped meanwhile.
 */
static int seg_split(struct sim_vma *v, pgoff_t p)
{
	unsigned i = (unsigned)(seg_of(v, p) - v->seg);
	struct vma_seg *n;

	if (v->seg[i].start == p || p >= v->pgoff + v->npages)
		return 0;
	n = realloc(v->seg, (v->nseg + 1) * sizeof(*n));
	if (!n)
		return -12;
	v->seg = n;
	memmove(&n[i + 2], &n[i + 1], (v->nseg - i - 1) * sizeof(*n));
	n[i + 1] = (struct vma_seg){ p, n[i].end, n[i].vm_flags };
	n[i].end = p;
	v->nseg++;
	if (p % HPAGE_PMD_NR && *pmd_of(v, p) == PMD_HUGE)
		*pmd_of(v, p) = PMD_NONE;
	return 0;
}

/* vma_merge(): neighbours with the same flags become one VMA again. */
static void seg_merge(struct sim_vma *v)
{
	unsigned i, k = 0;

	for (i = 1; i < v->nseg; i++) {
		if (v->seg[i].vm_flags == v->seg[k].vm_flags)
			v->seg[k].end = v->seg[i].end;
		else
			v->seg[++k] = v->seg[i];
	}
	v->nseg = k + 1;
}

/*
 * madvise_update_vma(), mlock_fixup(): the flags of pages [@a, @b) become
 * (flags & ~@clear) | @set.  A VMA whose flags that leaves as they were
 * is not touched (not split: its PMDs stay); one that changes is split
 * at the range's ends, and equal neighbours merge again.  -ENOMEM if a
 * split cannot allocate.
 */
static int seg_set_flags(struct sim_vma *v, pgoff_t a, pgoff_t b,
			 unsigned clear, unsigned set)
{
	const struct vma_seg *g;
	unsigned i;

#define SEG_CHANGES(g) ((((g)->vm_flags & ~clear) | set) != (g)->vm_flags)
	g = seg_of(v, a);
	if (SEG_CHANGES(g) && seg_split(v, a))
		return -12;
	g = seg_of(v, b - 1);
	if (SEG_CHANGES(g) && seg_split(v, b))
		return -12;
	for (i = 0; i < v->nseg; i++)
		if (v->seg[i].start >= a && v->seg[i].end <= b)
			v->seg[i].vm_flags =
				(v->seg[i].vm_flags & ~clear) | set;
#undef SEG_CHANGES
	seg_merge(v);
	return 0;
}

static uint8_t *pmd_of(struct sim_vma *v, pgoff_t p)
{
	return &v->pmd[p / HPAGE_PMD_NR - v->first_region];
}

static bool mapped(struct sim_vma *v, pgoff_t p)
{
	return v->pte[p - v->pgoff] || *pmd_of(v, p) == PMD_HUGE;
}

/* thp_vma_suitable_order(): the VMA covers the whole aligned PMD. */
static bool pmd_suitable(const struct vma_seg *g, pgoff_t p)
{
	pgoff_t start = p & ~(pgoff_t)(HPAGE_PMD_NR - 1);

	return start >= g->start && start + HPAGE_PMD_NR <= g->end;
}

/* do_set_pmd(): map a PMD-sized folio with one PMD entry. */
static bool set_pmd(struct sim_vma *v, const struct folio *f, pgoff_t p)
{
	const struct vma_seg *g;

	if (f->order != HPAGE_PMD_ORDER)
		return false;
	g = seg_of(v, p);
	/* vma_thp_disabled(): MADV_NOHUGEPAGE refuses PMD mappings. */
	if (!pmd_suitable(g, p) || (g->vm_flags & VM_NOHUGEPAGE))
		return false;
	*pmd_of(v, p) = PMD_HUGE;
	return true;
}

/* next_uptodate_folio(): a folio fault-around may map. */
static bool mappable(const struct sim *s, const struct folio *f,
		     pgoff_t index, uint64_t isize)
{
	uint64_t max_idx = (isize + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;

	if ((f->flags & PG_readahead) || folio_locked(s, f))
		return false;
	if (!(f->flags & PG_uptodate))
		return false;
	return index < max_idx;
}

/*
 * 6.18 maps a large folio whole where it can (filemap_map_folio_range(),
 * finish_fault()): when it lies inside the VMA and its page table
 * (always, here: mappings are congruent modulo 2 MiB) and its next index
 * is at most @limit (74207de2ba10: no PTEs past i_size).  Fault-around's
 * limit is the index of the file's last page, finish_fault()'s the page
 * count: so fault-around maps the folio that holds the last page only in
 * part, finish_fault() whole.
 */
static bool map_whole(const struct sim *s, const struct vma_seg *g,
		      const struct folio *f, pgoff_t limit)
{
	pgoff_t next = f->index + folio_nr_pages(f);

	return !(s->policy->flags & RA_POLICY_FAULT_MAP_PAGES) && f->order &&
	       next <= limit && f->index >= g->start && next <= g->end;
}

/*
 * do_fault_around() + filemap_map_pages().  Returns true when the page at
 * @p got mapped (VM_FAULT_NOPAGE).  Under 6.18 each large folio met is
 * mapped whole where map_whole() allows; every page mapped or looked at
 * counts as an mmap_miss hit.
 *
 *   window (16 pages):  |<----------------------------->|
 *   folios:             | o1|    order 3    |    order 3    |
 *   mapped before 6.18: |<----------------------------->|
 *   mapped by 6.18:     |<--------------------------------->|
 */
static bool fault_around(struct sim *s, struct sim_vma *v, pgoff_t p)
{
	struct sim_inode *in = v->file->inode;
	struct file_ra_state *ra = &v->file->ra;
	uint64_t isize = in->mapping.i_size;
	const struct vma_seg *g = seg_of(v, p);
	pgoff_t vma_pages = g->end - g->start;
	pgoff_t pte_off = p % PTRS_PER_PTE, vma_off = p - g->start;
	pgoff_t from_pte, to_pte, start, end, index, file_end;
	unsigned mmap_miss = 0;
	struct folio *f;
	bool hit = false, first = true;

	from_pte = pte_off & ~(pgoff_t)(FAULT_AROUND_PAGES - 1);
	if (pte_off - (pte_off < vma_off ? pte_off : vma_off) > from_pte)
		from_pte = pte_off - (pte_off < vma_off ? pte_off : vma_off);
	to_pte = from_pte + FAULT_AROUND_PAGES;
	if (to_pte > PTRS_PER_PTE)
		to_pte = PTRS_PER_PTE;
	if (to_pte > pte_off + vma_pages - vma_off)
		to_pte = pte_off + vma_pages - vma_off;
	to_pte--;
	start = p + from_pte - pte_off;
	end = p + to_pte - pte_off;
	/* No PTEs beyond i_size. */
	file_end = (isize + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	if (!file_end)
		goto out;
	if (end > file_end - 1)
		end = file_end - 1;

	for (index = start; index <= end;) {
		pgoff_t fend, last, q;

		f = pc_lookup(&in->pc, index);
		if (!f) {
			f = xa_find_after(&in->pc.i_pages, index);
			if (!f || f->index > end)
				break;
			index = f->index;
		}
		fend = f->index + folio_nr_pages(f) - 1;
		if (!mappable(s, f, index, isize)) {
			index = fend + 1;
			continue;
		}
		if (first) {
			first = false;
			/*
			 * 74207de2ba10 (6.18): filemap_map_pmd() only for a
			 * first folio that ends before the last page; without
			 * it a fault with no page table yet maps nothing
			 * here (pte_offset_map_lock() finds no table).
			 */
			if (!(s->policy->flags & RA_POLICY_FAULT_MAP_PAGES) &&
			    fend + 1 > file_end - 1) {
				if (*pmd_of(v, p) == PMD_NONE)
					goto out;
			} else {
				/* filemap_map_pmd() */
				if (*pmd_of(v, p) == PMD_NONE &&
				    set_pmd(v, f, p)) {
					hit = true;
					goto out;
				}
				*pmd_of(v, p) = PMD_TABLE;
			}
		}
		last = fend < end ? fend : end;
		if (map_whole(s, g, f, file_end - 1)) {
			index = f->index;
			last = fend;
		}
		for (q = index; q <= last; q++) {
			/* Not workingset: every page counts as a hit. */
			mmap_miss++;
			if (!v->pte[q - v->pgoff]) {
				v->pte[q - v->pgoff] = 1;
				if (q == p)
					hit = true;
			}
		}
		index = fend + 1;
	}
out:
	mmap_miss &= 0xffff;
	ra->mmap_miss = mmap_miss >= ra->mmap_miss ?
				0 :
				(unsigned short)(ra->mmap_miss - mmap_miss);
	return hit;
}

/* page_cache_ra_order() of the policy, on the window set in @ra. */
static void mmap_ra_order(struct sim *s, struct readahead_control *ractl,
			  struct file_ra_state *ra, unsigned order)
{
	if (s->policy->mmap_ra_order) {
		s->policy->mmap_ra_order(ractl, ra, order);
		return;
	}
	ra->order = (unsigned short)order;
	page_cache_ra_order(ractl, ra);
}

/* do_sync_mmap_readahead(); true if it dropped the mmap lock (retry). */
static bool sync_mmap_ra(struct sim *s, struct sim_vma *v, pgoff_t p,
			 bool tried)
{
	struct sim_file *f = v->file;
	struct file_ra_state *ra = &f->ra;
	struct readahead_control ractl = sim_ractl(s, f, p);
	unsigned vm_flags = seg_of(v, p)->vm_flags;
	unsigned short mmap_miss;

	if ((vm_flags & VM_HUGEPAGE) &&
	    HPAGE_PMD_ORDER <= f->inode->mapping.max_order) {
		/* Even with readahead off; ra->start is left as it was. */
		ractl._index &= ~(pgoff_t)(HPAGE_PMD_NR - 1);
		ra->size = HPAGE_PMD_NR;
		if (!(vm_flags & VM_RAND_READ))
			ra->size *= 2;
		ra->async_size = HPAGE_PMD_NR;
		mmap_ra_order(s, &ractl, ra, HPAGE_PMD_ORDER);
		return !tried;
	}
	if ((s->policy->flags & RA_POLICY_NO_EXEC_RA) &&
	    !(ractl.patches & ROBERTS_2025(5)))
		vm_flags &= ~(unsigned)VM_EXEC;
	if ((vm_flags & (VM_RAND_READ | VM_EXEC)) == VM_RAND_READ)
		return false;
	if (!ra->ra_pages)
		return false;
	if (vm_flags & VM_SEQ_READ) {
		s->policy->sync_ra(&ractl, ra->ra_pages);
		return !tried;
	}
	mmap_miss = ra->mmap_miss;
	if (mmap_miss < MMAP_LOTSAMISS * 10)
		ra->mmap_miss = ++mmap_miss;
	if (mmap_miss > MMAP_LOTSAMISS)
		return false;
	if (vm_flags & VM_EXEC) {
		/*
		 * An executable mapping (6.17): ra_pages from the fault on,
		 * within the VMA, in the arch's exec folio order (0 on
		 * x86-64), with no mark (async_size 0): text is read at
		 * random, and the pad between sections is not worth reading.
		 *
		 *   VMA   |<-------------------------------->|
		 *   fault          ^p
		 *   window         [p, min(p + ra_pages, end))
		 */
		const struct vma_seg *g = seg_of(v, p);
		pgoff_t end = p + ra->ra_pages < g->end ? p + ra->ra_pages
							 : g->end;

		ra->start = p;
		ra->size = (unsigned)(end - p);
		ra->async_size = 0;
		ractl._index = ra->start;
		mmap_ra_order(s, &ractl, ra, 0);
		return !tried;
	}
	/* Read-around: a window centred on the fault. */
	ra->start = p > ra->ra_pages / 2 ? p - ra->ra_pages / 2 : 0;
	ra->size = ra->ra_pages;
	ra->async_size = ra->ra_pages / 4;
	ractl._index = ra->start;
	mmap_ra_order(s, &ractl, ra, 0);
	return !tried;
}

/* do_async_mmap_readahead(); true if it dropped the mmap lock. */
static bool async_mmap_ra(struct sim *s, struct sim_vma *v, pgoff_t p,
			  const struct folio *folio)
{
	struct sim_file *f = v->file;
	struct file_ra_state *ra = &f->ra;
	struct readahead_control ractl = sim_ractl(s, f, p);

	if ((seg_of(v, p)->vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return false;
	/*
	 * A folio still locked for its read is likely another fault's miss
	 * (or readahead's, still in flight): 6.18 does not count it as a hit,
	 * so that one miss is not paid back several times.
	 */
	if (ra->mmap_miss && ((s->policy->flags & RA_POLICY_MMAP_MISS_ANY) ||
			      !folio_locked(s, folio)))
		ra->mmap_miss--;
	if (folio->flags & PG_readahead) {
		struct ra_folio rf = {
			.index = folio->index,
			.order = folio->order,
			.writeback = folio_test_writeback(s, folio),
		};

		/* The index is the faulting page, not the folio's head. */
		s->policy->async_ra(&ractl, &rf, ra->ra_pages);
		return true;
	}
	return false;
}

/*
 * finish_fault(): a PMD for a PMD-sized folio, else PTEs.  6.18 maps a
 * large folio whole when map_whole() allows and none of its pages is
 * mapped yet, else the one page; and no PMD for a folio that crosses
 * i_size (74207de2ba10).
 */
static void finish_fault(struct sim *s, struct sim_vma *v,
			 const struct folio *f, pgoff_t p)
{
	pgoff_t npages = (v->file->inode->mapping.i_size + RALAB_PAGE_SIZE -
			  1) / RALAB_PAGE_SIZE;
	pgoff_t q, next = f->index + folio_nr_pages(f);

	if (*pmd_of(v, p) == PMD_NONE &&
	    ((s->policy->flags & RA_POLICY_FAULT_MAP_PAGES) || next <= npages) &&
	    set_pmd(v, f, p))
		return;
	*pmd_of(v, p) = PMD_TABLE;
	if (map_whole(s, seg_of(v, p), f, npages)) {
		for (q = f->index; q < next && !v->pte[q - v->pgoff]; q++)
			;
		if (q == next) {
			memset(v->pte + (f->index - v->pgoff), 1,
			       folio_nr_pages(f));
			return;
		}
	}
	v->pte[p - v->pgoff] = 1;
}

/* What filemap_fault() returns to the fault handler. */
enum fault_ret {
	FAULT_DONE,		/* mapped (or SIGBUS) */
	FAULT_RETRY,		/* VM_FAULT_RETRY: the lock was dropped */
	FAULT_RETRY_MAJOR,	/* the same, for a page that was absent */
};

/* filemap_fault() + finish_fault(). */
static enum fault_ret filemap_fault(struct sim *s, struct sim_vma *v,
				    pgoff_t p, bool tried)
{
	struct sim_inode *in = v->file->inode;
	struct folio *folio = pc_lookup(&in->pc, p);
	bool fpin = false, major = !folio;
	uint64_t removed;

	if (p * RALAB_PAGE_SIZE >= in->mapping.i_size)
		return FAULT_DONE; /* SIGBUS; the parser refuses such touches */
	if (folio) {
		if (!tried)
			fpin = async_mmap_ra(s, v, p, folio);
	} else {
		fpin = sync_mmap_ra(s, v, p, tried);
		folio = pc_lookup(&in->pc, p);
		if (!folio) {
			/* Created and read by ->read_folio; drops the lock. */
			int err = sim_create_folio(s, in, p, &folio);

			/* Gone by the end of its read (another job): again. */
			if (err == -EEXIST)
				return FAULT_RETRY_MAJOR;
			if (err)
				return FAULT_DONE;
			fpin |= !tried;
		}
	}
	/*
	 * lock_folio_maybe_drop_mmap(): a folio still locked for its read
	 * is waited for with the lock dropped, unless the fault was retried
	 * already; the fault is then retried.
	 */
	if (!tried && folio_locked(s, folio))
		fpin = true;
	/*
	 * A fault of MADV_POPULATE_* runs in madvise()'s plug: one that
	 * sleeps on a locked folio (its read in flight: still in the plug,
	 * or issued by it in this very fault) flushes the plug as it goes
	 * to sleep.
	 */
	if (s->cur->plug_held && (folio->done_ns > s->cur->now ||
				  sim_plug_fresh(s, folio)))
		sim_plug_flush(s, true);
	/* filemap_get_folio() without FGP_DONTCACHE: it stays cached. */
	folio->flags &= (uint16_t)~PG_dropbehind;
	removed = in->pc.removed;
	sim_wait(s, folio->done_ns, folio_late(s, folio));
	/* Truncated or evicted by another job meanwhile: fault again. */
	if (!folio_still_cached(in, folio, p, removed))
		return major ? FAULT_RETRY_MAJOR : FAULT_RETRY;
	/*
	 * page_not_uptodate: a folio not uptodate and not under I/O (ext4's
	 * zeroed EOF block, PG_bh_uptodate) is read by ->read_folio, without
	 * I/O, the lock dropped for it on a first attempt: then retried.
	 */
	if (!(folio->flags & PG_uptodate)) {
		sim_folio_read_noio(s, folio);
		fpin |= !tried;
	}
	if (fpin)
		return major ? FAULT_RETRY_MAJOR : FAULT_RETRY;
	finish_fault(s, v, folio, p);
	return FAULT_DONE;
}

/*
 * A fault on unmapped page @p.  A read fault (do_read_fault) tries
 * fault-around first; a write fault (do_shared_fault, do_cow_fault) goes
 * to filemap_fault() directly.  Retried after filemap_fault() dropped the
 * lock (readahead, or a wait for a locked folio):
 *
 *   under mmap_lock (RA_POLICY_FAULT_MMAP_LOCK): the retry is
 *     FAULT_FLAG_TRIED, which neither drops the lock nor calls
 *     do_async_mmap_readahead() again: two attempts at most;
 *   under the per-VMA lock (file faults since 6.7): the first attempt's
 *     retry takes mmap_lock and is FAULT_FLAG_TRIED only after a major
 *     fault (commit 46e714c729c8, "arch/mm/fault: fix major fault
 *     accounting when retrying under per-VMA lock", S. Baghdasaryan,
 *     posted 2023-12-26, merged for 6.8); after a minor one
 *     it runs do_async_mmap_readahead() again (another mmap_miss hit)
 *     and may drop the lock once more: three attempts at most.
 *
 * Checked on 6.18.44: write faults on marked pages lower mmap_miss by two
 * (tests/cases/mmapretry-*).
 */
static void fault(struct sim *s, struct sim_vma *v, pgoff_t p, int wfault)
{
	bool vma_lock = !(s->policy->flags & RA_POLICY_FAULT_MMAP_LOCK);
	bool tried = false;
	int attempt;

	for (attempt = 0;; attempt++) {
		enum fault_ret r;

		if ((wfault == TOUCH_READ || wfault == TOUCH_GUP) &&
		    fault_around(s, v, p))
			return;
		r = filemap_fault(s, v, p, tried);
		if (r == FAULT_DONE || tried)
			return;
		/*
		 * mmap(MAP_POPULATE): __mm_populate() takes mmap_lock again
		 * after a VM_FAULT_RETRY and calls get_user_pages() anew from
		 * the same page, without FOLL_TRIED: each attempt is a first
		 * one (a folio found runs do_async_mmap_readahead() again).
		 * One that retried waited for its folio, so the next finds it
		 * read; a bound all the same.
		 */
		if (wfault == TOUCH_GUP) {
			if (attempt == 7)
				return;
			continue;
		}
		tried = !(vma_lock && attempt == 0 && r == FAULT_RETRY);
	}
}

/*
 * A write through the shared mapping dirties the folio (->page_mkwrite,
 * on the write fault or on the write-protect fault of a page mapped by a
 * read); a private mapping's write copies the page, leaving the folio.
 * Both file systems' page_mkwrite dirty it with folio_mark_dirty(), which
 * clears PG_reclaim, the bit PG_readahead shares: a mark the fault's own
 * readahead put on the folio (a read-around that ends in it) is gone
 * before the next page's fault can act on it.  write(2) dirties folios
 * another way (filemap_dirty_folio(), mark_buffer_dirty()) and keeps it.
 */
static void touch_dirty(struct sim_vma *v, pgoff_t p)
{
	struct sim_inode *in = v->file->inode;
	struct folio *f = pc_lookup(&in->pc, p);

	if (f) {
		uint64_t a = f->index * RALAB_PAGE_SIZE,
			 b = a + folio_nr_pages(f) * RALAB_PAGE_SIZE;

		/*
		 * ->page_mkwrite() allocates the clean folio's blocks; of a
		 * dirty one, which a punch left whole (ext4), the page's.
		 */
		if (f->flags & PG_dirty) {
			a = p * RALAB_PAGE_SIZE;
			b = a + RALAB_PAGE_SIZE;
		}
		if ((!(f->flags & PG_dirty) || in->punched) &&
		    inode_meets_own_hole(in, a, b))
			in->sim->st->hole_writes++;
		/* iomap_page_mkwrite(): per-block dirty state. */
		f->flags = (uint16_t)((f->flags | PG_dirty) &
				    ~(PG_nopriv | PG_dropbehind |
				      PG_readahead));
		inode_dirty(in, f);
		/* Its blocks hold data from now on (a preallocated file). */
		inode_written(in, f->index * RALAB_PAGE_SIZE,
			      (f->index + folio_nr_pages(f)) * RALAB_PAGE_SIZE);
	}
}

void sim_touch(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
	       uint64_t step, int wfault)
{
	uint64_t a;

	if (!v->active)
		return;
	for (a = off; a < off + len && s->cur->now < s->cur->job->deadline;
	     a += step) {
		pgoff_t p = a / RALAB_PAGE_SIZE;

		if (p >= v->pgoff && p < v->pgoff + v->npages && !mapped(v, p)) {
			s->cur->call++;
			sim_spend(s, s->cfg.cpu_syscall_ns); /* the fault */
			fault(s, v, p, wfault);
		}
		if (wfault == TOUCH_WRITE && p >= v->pgoff &&
		    p < v->pgoff + v->npages)
			touch_dirty(v, p);
		if (v->file->inode->mapping.i_size > a) {
			struct folio *f = pc_lookup(&v->file->inode->pc, p);

			if (f)
				folio_use(s, f);
			used_mark(&v->file->inode->used, p, p);
		}
		/*
		 * Once the page is mapped, further touches of it enter no
		 * kernel code and mark nothing new: go to its last one.
		 */
		if (step < RALAB_PAGE_SIZE &&
		    (p < v->pgoff || p >= v->pgoff + v->npages || mapped(v, p)))
			a += (RALAB_PAGE_SIZE - 1 - a % RALAB_PAGE_SIZE) / step *
			     step;
		if (a + step < a)
			break;
	}
}

/*
 * mmap(MAP_POPULATE) of a shared mapping: after mmap() itself,
 * __mm_populate() faults every page of the mapping in, in order, as
 * get_user_pages() does (populate_vma_page_range(): a page not present is
 * a read fault, with fault-around; a present one is stepped over), up to
 * the file's end (a fault past it fails, and the populate stops there);
 * under mmap_lock and in no plug of its own (vm_mmap_pgoff()).  No page
 * is read by the program: none is marked used.
 */
static void populate_range(struct sim *s, struct sim_vma *v, pgoff_t a,
			   pgoff_t end)
{
	struct sim_inode *in = v->file->inode;
	pgoff_t p, eof = (in->mapping.i_size + RALAB_PAGE_SIZE - 1) /
			 RALAB_PAGE_SIZE;

	if (end > eof)
		end = eof;
	for (p = a; p < end && s->cur->now < s->cur->job->deadline; p++)
		if (!mapped(v, p)) {
			s->cur->call++;
			fault(s, v, p, TOUCH_GUP);
		}
}

void sim_populate(struct sim *s, struct sim_vma *v)
{
	if (v->active)
		populate_range(s, v, v->pgoff, v->pgoff + v->npages);
}

/*
 * mlock(2) of file pages [@off, @off + @len) of mapping @v, rounded out to
 * pages as do_mlock() rounds: mlock_fixup() sets VM_LOCKED on the VMAs of
 * the range (split at its ends, merged again with equal neighbours), and
 * __mm_populate() then faults its pages in as MAP_POPULATE does
 * (populate_vma_page_range(): read faults of a shared mapping, up to the
 * file's end, where the fault fails and mlock() returns ENOMEM), under
 * mmap_lock and in no plug.  mlock2(MLOCK_ONFAULT) sets VM_LOCKONFAULT
 * too and faults nothing in; munlock(2) clears both.  A locked VMA
 * changes no readahead decision of a fault; it changes what madvise()
 * does there (DONTNEED, COLD, PAGEOUT and REMOVE fail with EINVAL:
 * sim_unlocked_end()) and which folios MADV_PAGEOUT may reclaim
 * (pageout_folio()).
 */
void sim_mlock(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
	       int how)
{
	pgoff_t a = off / RALAB_PAGE_SIZE, b, end;
	unsigned set = how == MLOCK_ON_	    ? VM_LOCKED :
		       how == MLOCK_ONFAULT_ ? VM_LOCKED | VM_LOCKONFAULT :
					      0;

	if (!v->active || !len)
		return;
	end = v->pgoff + v->npages;
	b = (off + len + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	if (a < v->pgoff || b > end || a >= b)
		return;
	if (seg_set_flags(v, a, b, VM_LOCKED | VM_LOCKONFAULT, set)) {
		s->host_err = -12;
		return;
	}
	if (how == MLOCK_ON_)
		populate_range(s, v, a, b);
}

/*
 * madvise_walk_vmas() stops at the first VMA whose advice fails: DONTNEED,
 * COLD, PAGEOUT and REMOVE fail with EINVAL on a VM_LOCKED one
 * (madvise_dontneed_free_valid_vma(), can_madv_lru_vma(),
 * madvise_remove()), after doing the VMAs before it.
 */
pgoff_t sim_unlocked_end(const struct sim_vma *v, pgoff_t a, pgoff_t b)
{
	unsigned i;

	for (i = 0; i < v->nseg; i++)
		if ((v->seg[i].vm_flags & VM_LOCKED) && v->seg[i].end > a &&
		    v->seg[i].start < b)
			return v->seg[i].start > a ? v->seg[i].start : a;
	return b;
}

/*
 * @count copies of @len bytes from @off on, out of the mapping into a
 * buffer @bufoff bytes into a page (TOUCH_WRITE: from it into the
 * mapping), as the C library's memcpy faults the mapping's pages in.
 * glibc's memmove-vec-unaligned-erms copies a block below
 * memcpy_back_min with rep movsb, front to back; one in the vector range
 * (memcpy_back_min..max) with loops of four vectors, after loading its
 * first four vectors (128 bytes) and its last ones, and backward where
 * destination less source is below 256 modulo 4 KiB (4 KiB aliasing).
 * So a read's pages fault as:
 *
 *   rep movsb:           0, 1, 2, ..., n-1
 *   vectors, forward:    0, n-1, 1, 2, ..., n-2
 *   vectors, backward:   0, n-1, n-2, ..., 1
 *
 * and a write's (the stores; the loads are of the buffer) front to back,
 * or from its end down when backward.  Checked against this machine's
 * glibc 2.36 on 6.18.44 (docs/design.md, "The C library's memcpy").
 */
static void copy_touch(struct sim *s, struct sim_vma *v, uint64_t at,
		       uint64_t a, uint64_t end, int wfault)
{
	if (at >= a && at < end)
		sim_touch(s, v, at, 1, RALAB_PAGE_SIZE, wfault);
}

void sim_memcpy(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
		uint64_t count, uint64_t bufoff, int wfault)
{
	const struct ralab_config *c = &s->cfg;
	bool write = wfault == TOUCH_WRITE;
	uint64_t i;

	for (i = 0; i < count && s->cur->now < s->cur->job->deadline; i++) {
		uint64_t a = off + i * len, end = a + len;
		pgoff_t first = a / RALAB_PAGE_SIZE;
		pgoff_t last = (end - 1) / RALAB_PAGE_SIZE, p;
		/* destination less source, within a page */
		uint64_t d = (write ? a - bufoff : bufoff - a) % RALAB_PAGE_SIZE;
		bool vec = c->memcpy_back_min && len >= c->memcpy_back_min &&
			   (!c->memcpy_back_max || len <= c->memcpy_back_max);
		bool back = vec && d < 256;

		if (vec && !write) {
			/* the first four vectors, the last ones */
			copy_touch(s, v, a, a, end, wfault);
			copy_touch(s, v, a + 127, a, end, wfault);
			copy_touch(s, v, end - 1, a, end, wfault);
			if (!back)
				copy_touch(s, v, end - 128, a, end, wfault);
		}
		if (back) {
			for (p = last + 1; p-- > first;)
				copy_touch(s, v, p == last ? end - 1 :
						 p * RALAB_PAGE_SIZE, a, end, wfault);
			/* (a write's first vectors, stored last) */
			copy_touch(s, v, a, a, end, wfault);
		} else {
			for (p = first; p <= last; p++)
				copy_touch(s, v, p == first ? a :
						 p * RALAB_PAGE_SIZE, a, end,
					   wfault);
		}
		/*
		 * The copy's time: a page's, as read(2)'s copy out of the
		 * page cache takes (cpu_page_ns).  Without it, copies out of
		 * mapped pages took none, and a time_based fio job on the
		 * mmap engine made hundreds of millions of them.
		 */
		sim_spend(s, (last - first + 1) * c->cpu_page_ns);
	}
}

/*
 * madvise(): page-aligned @off (the parser checks), @len rounded up to
 * pages, applied VMA by VMA as madvise_walk_vmas() does.  The flag advices
 * split the VMAs at the range's ends, change their flags and merge equal
 * neighbours; WILLNEED issues one fadvise per VMA in the range.
 */
/*
 * MADV_DONTNEED of a file mapping (zap_page_range_single()): pages
 * [@a, @b) are unmapped, the page cache keeps them.  A PMD the range
 * covers in part goes whole (a file PMD is cleared, not split into
 * PTEs), and a page table whose 2 MiB the range covers whole is freed
 * (CONFIG_PT_RECLAIM, 6.14: madvise's zap reclaims the empty PTE
 * page), so that an order-9 folio there can be mapped by a PMD again.
 */
static void zap_range(struct sim_vma *v, pgoff_t a, pgoff_t b)
{
	pgoff_t r;

	memset(v->pte + (a - v->pgoff), 0, b - a);
	for (r = a / HPAGE_PMD_NR; r <= (b - 1) / HPAGE_PMD_NR; r++) {
		uint8_t *pmd = &v->pmd[r - v->first_region];
		pgoff_t lo = r * HPAGE_PMD_NR;

		if (*pmd == PMD_HUGE ||
		    (*pmd == PMD_TABLE && a <= lo && b >= lo + HPAGE_PMD_NR))
			*pmd = PMD_NONE;
	}
}

/*
 * munmap() of [@off, @off + @len) of a mapping (or a MAP_FIXED mapping
 * made over it): __split_vma() at both ends, the part's page tables
 * zapped as MADV_DONTNEED zaps them (a PMD it covers in part is
 * cleared, a page table it covers whole freed), and the part becomes a
 * hole the VMAs either side end at: fault-around, a PMD mapping and the
 * exec window stop there.  -ENOMEM if a split cannot allocate.
 */
int sim_munmap_part(struct sim_vma *v, uint64_t off, uint64_t len)
{
	pgoff_t a = off / RALAB_PAGE_SIZE, b = (off + len) / RALAB_PAGE_SIZE;
	int err;

	if (a < v->pgoff)
		a = v->pgoff;
	if (b > v->pgoff + v->npages)
		b = v->pgoff + v->npages;
	if (a >= b)
		return 0;
	/* Every flag goes: VM_HOLE only (a hole already there stays). */
	if ((err = seg_set_flags(v, a, b, ~0u, VM_HOLE)))
		return err;
	zap_range(v, a, b);
	return 0;
}

/*
 * The mappings of @v's file other than @v, every job's, into @out (for
 * pageout_folio(): found once per walk, and again after a wait); their
 * number.
 */
static unsigned other_vmas(struct sim *s, const struct sim_vma *v,
			   struct sim_vma **out)
{
	unsigned i, n = sim_vmas_of(s, v->file->inode, out,
				    MAX_JOBS * MAX_MAPS), k = 0;

	for (i = 0; i < n; i++)
		if (out[i] != v)
			out[k++] = out[i];
	return k;
}

/*
 * PG_mlocked: another mapping maps @f in a VM_LOCKED VMA (mlock_folio()
 * when it was mapped there, or mlock_fixup()'s walk).  shrink_folio_list()
 * puts such a folio back without unmapping it (!folio_evictable()).
 */
static bool folio_mlocked(struct sim_vma *const *v, unsigned n,
			  const struct folio *f)
{
	pgoff_t end = f->index + folio_nr_pages(f), p;
	unsigned i;

	for (i = 0; i < n; i++)
		for (p = f->index > v[i]->pgoff ? f->index : v[i]->pgoff;
		     p < end && p < v[i]->pgoff + v[i]->npages; p++)
			if (mapped(v[i], p) &&
			    (seg_of(v[i], p)->vm_flags & VM_LOCKED))
				return true;
	return false;
}

/*
 * MADV_PAGEOUT's reclaim of folio @f, which @v maps whole in the range
 * (by a PMD if @pmd; @others: the file's other mappings).  The PTE walk takes it only if no other mapping
 * maps a page of it (folio_mapcount() == folio_nr_pages()); the PMD path
 * asks folio_maybe_mapped_shared(), which another mapping in the same
 * process does not make true, and ralab's jobs are threads of one
 * process (checked on 6.18.44: tests/cases/pageout-twomaps-thp-xfs, an
 * order-9 folio two descriptors' mappings map by PMDs goes).  Then
 * reclaim_pages() runs shrink_folio_list() ignoring references: a folio
 * it cannot lock stays; the others are unmapped everywhere (a PMD too);
 * a dirty one stays, with PG_reclaim set (to be reclaimed once written
 * back), which is the bit PG_readahead uses, so the next read or fault
 * that meets it starts an asynchronous readahead (checked on 6.18.44:
 * tests/cases/pageout-dirty-*); a clean one leaves the page cache (a
 * shadow entry, which readahead takes as a hole).
 *
 * Every folio the walk meets was added by the calling task, whose
 * per-CPU LRU batch madvise_pageout() drains first (lru_add_drain()),
 * so each is on the LRU; a task that moved to another CPU after reading
 * would leave up to a batch of order-0 folios off it, which ralab does
 * not model.
 */
static void pageout_folio(struct sim *s, struct sim_vma *v, struct folio *f,
			  bool pmd, struct sim_vma *const *others,
			  unsigned nothers)
{
	struct sim_inode *in = v->file->inode;

	if ((!pmd && nothers && sim_folio_mapped(others, nothers, f)) ||
	    (pmd && folio_mlocked(others, nothers, f)) ||
	    (f->flags & PG_locked) || folio_locked(s, f) ||
	    folio_test_writeback(s, f))
		return;
	sim_unmap_range(s, in, f->index, f->index + folio_nr_pages(f));
	if (f->flags & PG_dirty) {
		f->flags |= PG_readahead;
		return;
	}
	sim_remove_folio(in, f);
}

/*
 * madvise_cold_or_pageout_pte_range() for MADV_COLD and MADV_PAGEOUT, PMD
 * by PMD over file pages [@a, @b).  MADV_COLD only deactivates folios,
 * which ralab does not model; MADV_PAGEOUT reclaims each folio the range
 * maps whole (pageout_folio()).  Both first split each large folio the
 * range covers in part (a PMD-mapped one the range does not cover whole;
 * a PTE-mapped one whose run of present PTEs in the range is shorter than
 * the folio: the range starts or ends inside it, or only part of it is
 * mapped).  A split unmaps the folio everywhere, so a pageout leaves the
 * pieces in the cache.  The PMD path sleeps on a locked folio; the PTE
 * path gives up the rest of that PMD (folio_trylock()).  A refused split
 * leaves the folio (split_folio() fails on dirty block state).
 */
static void madvise_cold(struct sim *s, struct sim_vma *v, pgoff_t a,
			 pgoff_t b, bool pageout)
{
	struct sim_inode *in = v->file->inode;
	struct sim_vma *others[MAX_JOBS * MAX_MAPS];
	unsigned nothers = pageout ? other_vmas(s, v, others) : 0;
	pgoff_t lo, hi, p;

	for (lo = a; lo < b; lo = hi) {
		uint8_t *pmd = pmd_of(v, lo);

		hi = (lo / HPAGE_PMD_NR + 1) * HPAGE_PMD_NR;
		if (hi > b)
			hi = b;
		if (*pmd == PMD_HUGE) {
			struct folio *f = pc_lookup(&in->pc, lo);

			if (!f)
				continue;
			if (hi - lo == HPAGE_PMD_NR) {
				if (pageout)
					pageout_folio(s, v, f, true, others,
						      nothers);
				continue;
			}
			if (!folio_ready(s, f)) {
				uint64_t removed = in->pc.removed;

				sim_wait(s, f->done_ns, false);
				/* Other jobs ran: their mappings may have changed. */
				if (pageout)
					nothers = other_vmas(s, v, others);
				/* Gone meanwhile (another job): nothing to split. */
				if (!folio_still_cached(in, f, lo, removed))
					continue;
			}
			sim_split_folio(s, in, f);
			continue;
		}
		if (*pmd != PMD_TABLE)
			continue;
		for (p = lo; p < hi;) {
			struct folio *f;
			pgoff_t q, fend;

			if (!v->pte[p - v->pgoff] ||
			    !(f = pc_lookup(&in->pc, p))) {
				p++;
				continue;
			}
			if (!f->order) {
				p++;
				if (pageout)
					pageout_folio(s, v, f, false, others,
						      nothers);
				continue;
			}
			fend = f->index + folio_nr_pages(f);
			for (q = p; q < hi && q < fend && v->pte[q - v->pgoff];
			     q++)
				;
			if (q - p == folio_nr_pages(f)) {
				p = q;
				if (pageout)
					pageout_folio(s, v, f, false, others,
						      nothers);
				continue;
			}
			if (folio_locked(s, f))
				break;
			if (sim_split_folio(s, in, f))
				p = q;
		}
	}
}

void sim_madvise(struct sim *s, struct sim_vma *v, uint64_t off,
		 uint64_t len, int advice)
{
	pgoff_t a = off / RALAB_PAGE_SIZE, b, end;
	unsigned i, clear = 0, set = 0;

	if (!v->active || !len)
		return;
	end = v->pgoff + v->npages;
	b = a + (len + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	if (a < v->pgoff || b > end || a >= b)
		return;
	if (advice == MADV_WILLNEED_) {
		/* madvise_willneed(): fadvise WILLNEED on each VMA's part. */
		for (i = 0; i < v->nseg; i++) {
			pgoff_t x = v->seg[i].start > a ? v->seg[i].start : a;
			pgoff_t y = v->seg[i].end < b ? v->seg[i].end : b;

			if (x < y)
				sim_fadvise(s, v->file,
					    (int64_t)(x * RALAB_PAGE_SIZE),
					    (int64_t)((y - x) * RALAB_PAGE_SIZE),
					    FADV_WILLNEED);
		}
		return;
	}
	if (advice == MADV_DONTNEED_ || advice == MADV_DONTNEED_LOCKED_) {
		/* MADV_DONTNEED_LOCKED (5.18): locked VMAs are no stop. */
		if (advice == MADV_DONTNEED_)
			b = sim_unlocked_end(v, a, b);
		if (a < b)
			zap_range(v, a, b);
		return;
	}
	if (advice == MADV_COLD_ || advice == MADV_PAGEOUT_) {
		b = sim_unlocked_end(v, a, b);
		if (a < b)
			madvise_cold(s, v, a, b, advice == MADV_PAGEOUT_);
		return;
	}
	switch (advice) {
	case MADV_NORMAL_:
		clear = VM_SEQ_READ | VM_RAND_READ;
		break;
	case MADV_RANDOM_:
		clear = VM_SEQ_READ;
		set = VM_RAND_READ;
		break;
	case MADV_SEQUENTIAL_:
		clear = VM_RAND_READ;
		set = VM_SEQ_READ;
		break;
	case MADV_HUGEPAGE_:
		clear = VM_NOHUGEPAGE;
		set = VM_HUGEPAGE;
		break;
	case MADV_NOHUGEPAGE_:
		clear = VM_HUGEPAGE;
		set = VM_NOHUGEPAGE;
		break;
	default:
		return;
	}
	if (seg_set_flags(v, a, b, clear, set))
		s->host_err = -12;
}

/*
 * mprotect_fixup(): as madvise's flags, VMAs whose protections change are
 * split at the range's ends (a PMD across a split goes) and merge again
 * with equal neighbours; one already so is left whole.  Present pages
 * stay mapped (change_protection() rewrites their entries), so nothing
 * is zapped, not even by PROT_NONE.
 */
void sim_mprotect(struct sim *s, struct sim_vma *v, uint64_t off,
		  uint64_t len, int prot)
{
	pgoff_t a = off / RALAB_PAGE_SIZE, b;
	unsigned set = 0;

	if (!v->active || !len)
		return;
	b = a + (len + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE;
	if (a < v->pgoff || b > v->pgoff + v->npages || a >= b)
		return;
	if (!(prot & PROT_R_))
		set |= VM_NOREAD;
	if (prot & PROT_W_)
		set |= VM_WRITE;
	if (prot & PROT_X_)
		set |= VM_EXEC;
	if (seg_set_flags(v, a, b, VM_NOREAD | VM_WRITE | VM_EXEC, set))
		s->host_err = -12;
}
