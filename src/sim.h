/* SPDX-License-Identifier: MIT */
/*
 * sim.h - one simulated machine: a file, its page cache, its open file
 * and the block queue below it.
 */
#ifndef RALAB_SIM_H
#define RALAB_SIM_H

#include <ucontext.h>

#include "block/blk.h"
#include "cache/pagecache.h"
#include "policy/policy.h"
#include "ralab.h"
#include "report/latency.h"
#include "workload/workload.h"

#define FOLIO_BATCH_SIZE 31 /* PAGEVEC_SIZE; 15 before (RA_POLICY_PAGEVEC15) */
#define MAX_RW_COUNT 0x7ffff000ull /* INT_MAX & PAGE_MASK */

/*
 * Which pages the application has read, for the "read ahead but never
 * used" figures: a bitmap over the file, in lazily allocated chunks.
 */
#define USED_CHUNK_PAGES (1u << 15)
#define USED_MAX_CHUNKS (1u << 24)

struct used_map {
	uint64_t **chunk;
	uint64_t nr_chunks;
	bool overflow; /* too sparse to track: figures unknown */
	uint64_t *word;    /* the word of the last page marked ... */
	uint64_t word_base; /* ... and the page of its bit 0 */
};

struct sim;

/* struct inode + address_space: one file and its page cache. */
struct sim_inode {
	struct sim *sim;
	struct page_cache pc;
	struct ra_mapping mapping;
	struct used_map used;
	/*
	 * The folio of the last fast-path read: sequential small reads hit
	 * the same folio many times.  Cleared when a folio leaves the cache.
	 */
	struct folio *last_hit;
	/* Where the file is not disk-contiguous (owned: lay.brk, lay.hole). */
	struct blk_layout lay;
	/*
	 * Pages [dirty_lo, dirty_hi) hold every dirty folio (a bound, not
	 * exact; empty when dirty_lo >= dirty_hi): fsync walks only there,
	 * not the whole cache at every O_SYNC write.
	 */
	pgoff_t dirty_lo, dirty_hi;
	/* When the last of the writeback started on the file ends (ns). */
	uint64_t wb_end;
	/*
	 * The file's declared size: its blocks (lay) and the range of the
	 * ops' offset generators.  mapping.i_size is the current size,
	 * below it after a truncate, growing back as writes pass EOF.
	 */
	uint64_t size;
	/*
	 * XFS's i_disk_size: the size on the disk, which writeback carries
	 * up to i_size (the declared size until a truncate).
	 */
	uint64_t disk_size;
	/*
	 * Truncated down since the last release (XFS_ITRUNCATED, ext4's
	 * EXT4_STATE_DA_ALLOC_CLOSE): a close starts writeback.
	 */
	bool truncated;
	/*
	 * After a truncate the file has no blocks but those written since:
	 * [wr[2k], wr[2k + 1]) bytes, block-aligned, sorted, disjoint
	 * (owned).  What lies between them below i_size is a hole, which
	 * reads zero-fill and writes need not read; lay's holes are rebuilt
	 * from them when stale (inode_layout()).
	 */
	bool fresh, lay_stale;
	/*
	 * Punched (or zero-ranged) by the case: fresh from then on, and a
	 * write outside the blocks it holds (inode_blocks_held()) allocates
	 * blocks where the model does not follow (inode_meets_own_hole()).
	 */
	bool punched;
	uint64_t *wr;
	unsigned nwr, cap_wr;
	/*
	 * A fresh inode's own holes, those of its declared layout that it
	 * kept when it became fresh (a punch): [own[2k], own[2k + 1]) bytes
	 * (owned), which, unlike the holes a truncate or a punch made, take
	 * no disk space (struct blk_layout).
	 */
	uint64_t *own;
	unsigned nown;
	/*
	 * XFS, after a truncate: the data fork's extent records in blocks
	 * (owned; cap_xr allocated), sorted and merged where they may be,
	 * where a write's mapping ends (xfs_map()).  xr_remerge: the
	 * rebreaks changed (a truncate), so records merged apart may join.
	 */
	struct xfs_rec {
		uint64_t start, end;
		uint8_t state; /* XR_DELALLOC, XR_UNWRITTEN, XR_WRITTEN */
	} *xr;
	unsigned nxr, cap_xr;
	bool xr_remerge;
	/*
	 * Where the file's rewrite is not disk-contiguous (its rebreaks): for
	 * one generation (what followed the g-th truncate, as it stood at
	 * the next), given for some g = 1 .. nregen, and those of the run's
	 * end for the others (last); owned.  set: given at all.  re: the
	 * ones in use (NULL: last), switched at each truncate (ntrunc so
	 * far).
	 */
	struct sim_regen {
		uint64_t *brk; /* sectors */
		unsigned n;
		bool set;
	} *regen, last;
	const struct sim_regen *re;
	unsigned nregen, ntrunc;
};

/* The rebreaks of @in in use now (none given: n 0, !set). */
static inline const struct sim_regen *
inode_rebreaks(const struct sim_inode *in)
{
	return in->re ? in->re : &in->last;
}

enum { XR_DELALLOC, XR_UNWRITTEN, XR_WRITTEN };

/* Folio @f of @in is dirty now. */
static inline void inode_dirty(struct sim_inode *in, const struct folio *f)
{
	if (in->dirty_lo >= in->dirty_hi || f->index < in->dirty_lo)
		in->dirty_lo = f->index;
	if (f->index + (1ull << f->order) > in->dirty_hi)
		in->dirty_hi = f->index + (1ull << f->order);
}

/* struct file: one open file description. */
struct sim_file {
	struct sim_inode *inode;
	struct file_ra_state ra;
	unsigned f_mode;
	int64_t f_pos;
	bool open;
	bool direct; /* O_DIRECT: reads bypass the page cache */
};

/* vm_flags that readahead looks at, and mlock's (which madvise does). */
#define VM_SEQ_READ (1u << 0)
#define VM_RAND_READ (1u << 1)
#define VM_HUGEPAGE (1u << 2)
#define VM_EXEC (1u << 3)
#define VM_NOHUGEPAGE (1u << 4)
#define VM_LOCKED (1u << 5)
#define VM_LOCKONFAULT (1u << 6)
/* Not a VMA: a part 'munmap OFF LEN' took out (nothing faults there). */
#define VM_HOLE (1u << 7)
/*
 * Protections (mprotect(2) splits VMAs where they change): VM_NOREAD is
 * a VMA without VM_READ (PROT_NONE, PROT_WRITE or PROT_EXEC alone).
 */
#define VM_NOREAD (1u << 8)
#define VM_WRITE (1u << 9)

/*
 * A shared read-only file mapping.  ralab places it at a virtual address
 * congruent to its file offset modulo 2 MiB (as the kernel's
 * thp_get_unmapped_area() does for mappings of 2 MiB or more, and as
 * 'ralab kernel' requests with MAP_FIXED_NOREPLACE), so the page-table
 * position of file page p is p % 512 and a PMD covers 512 file pages.
 */
/*
 * One VMA of the mapping: madvise() splits the mapping where the flags it
 * sets change, and neighbours with the same flags merge again (vma_merge),
 * so the VMAs are the runs of equal flags, in order.
 */
struct vma_seg {
	pgoff_t start, end; /* file pages [start, end) */
	unsigned vm_flags;
};

/* A mapping (a slot of a job): its VMAs and its page tables. */
struct sim_vma {
	bool active;
	struct sim_file *file; /* vma->vm_file */
	pgoff_t pgoff;         /* vm_pgoff of the first VMA */
	uint64_t npages;
	struct vma_seg *seg;   /* owned; nseg in file order */
	unsigned nseg;
	uint8_t *pte;          /* per page: mapped */
	uint8_t *pmd;          /* per 512-page region: PMD_* */
	uint64_t first_region;
};


/* Per-job time figures (struct ralab_job_stats has the public ones). */
struct sim_job {
	const struct wl_job *def;
	unsigned nr_workers;
	bool released;     /* its workers may run (engine.c held()) */
	bool cut;          /* stopped by an exitall (deadline) */
	/* The shared op cursor of the workers of an iodepth > 1 job. */
	unsigned op;
	uint64_t i, x, *order;
	bool eof;
	/* Workers in a pread, and whether an op other than a pread runs
	 * (or waits to): such an op is a barrier (engine.c job_wait). */
	unsigned busy;
	bool barrier;
	/* No read starts at or after this time (its runtime; UINT64_MAX). */
	uint64_t deadline;
	uint64_t start_ns; /* its delay, or when a 'wait' job was released */
	uint64_t pass_start; /* when the shared cursor last went to 'repeat' */
	uint64_t end_ns, wait_ns, waits, late_waits, reads, bytes;
	uint64_t think_calls; /* read calls since its last think (EVERY) */
	/*
	 * A job with an 'epoch' op (fio's pre_read before its clock starts)
	 * thinks, keeps its rate and runs out of runtime only from that op
	 * on; its rate counts the reads and bytes after it, from epoch_ns.
	 */
	bool before_epoch;
	uint64_t epoch_ns, epoch_reads, epoch_bytes;
	uint64_t cpu_free; /* ring: when its issuing task is free */
	struct fio_carry carry; /* its fio-pread generator (cont) */
	uint64_t lat[LAT_BUCKETS];
	/* Its mappings, by slot (op.map); threads share an address space,
	 * but each job names only its own. */
	struct sim_vma vma[MAX_MAPS];
};

/*
 * A thread of the simulation: a job's, or one of its iodepth workers.
 * Each has its own clock and runs as a coroutine; the scheduler always
 * resumes the one with the earliest clock, so events interleave in time
 * order.  With a single worker nothing switches.
 */
/*
 * How a read call is made, from its op (struct sim_worker.call_how):
 * CALL_DONTCACHE, preadv2(2) with RWF_DONTCACHE (IOCB_DONTCACHE: the
 * folios it adds are PG_dropbehind, readahead_control.dropbehind,
 * filemap_create_folio()); CALL_SPLICE, by splicing ('via splice', fio's
 * splice engine).  Either takes the read off the fast path.
 */
enum { CALL_DONTCACHE = 1, CALL_SPLICE = 2 };

static inline unsigned char call_flags(const struct op *op)
{
	return (op->dontcache ? CALL_DONTCACHE : 0) |
	       (op->splice ? CALL_SPLICE : 0);
}

struct sim_worker {
	ucontext_t ctx;
	void *stack;
	unsigned vg_stack; /* valgrind's id of @stack (engine.c) */
	uint64_t now;
	struct sim_job *job;
	unsigned id;
	uint32_t call;     /* system calls made, to tell late readahead */
	uint64_t op_start; /* when its latest op (not a pace) started */
	bool finished;
	/* In job_wait(): 1 for the job's barrier op to end, 2 for its
	 * preads to end; 0 not waiting. */
	unsigned char wait_for;
	bool ring;         /* its job issues in order (iodepth N ring) */
	/* How its current read call is made: CALL_* (call_flags()). */
	unsigned char call_how;
	/* Folios added since the last read_pages(), in order: per task,
	 * since a worker can be preempted in the middle of a window. */
	struct folio **batch;
	struct blk_vec *vecs;
	uint64_t *done;
	unsigned nr_batch, cap_batch;
	/*
	 * A plug it holds around a call (madvise(): sim_plug_start()):
	 * its requests wait in the queue's plug, read from @plug_in; set
	 * aside in @plug_rq while another worker runs (sim_yield()).
	 */
	bool plug_held;
	unsigned plug_n;
	struct sim_inode *plug_in;
	struct blk_rq plug_rq[BLK_PLUG_MAX_RQ];
	/*
	 * Pages [lo, hi) whose requests a full plug issued during call
	 * @fresh_call (blk_add_rq_to_plug()): still being read in that
	 * call, whatever the device's latency (sim_plug_fresh()).
	 */
	uint32_t fresh_call;
	unsigned nr_fresh;
	struct { uint64_t lo, hi; } fresh[BLK_PLUG_MAX_RQ];
};

struct sim {
	struct ralab_config cfg;
	const struct ralab_policy_ops *policy;
	/* policy->flags & RA_POLICY_READ_PAGEWISE, for filemap_read_fast() */
	bool read_pagewise;
	bool maps_writable;      /* VM_WRITE: ralab__wl_writes() */
	unsigned long patches; /* readahead_control.patches for every call */
	unsigned batch_size;   /* folios per filemap_get_read_batch() */
	struct blk_queue q;
	uint64_t s_maxbytes;
	struct ralab_stats *st;
	ralab_event_fn on_event;
	void *event_arg;
	ralab_dump_fn on_dump;
	void *dump_arg;
	/*
	 * Where folios lie in memory: the recorded kernel's places
	 * (ralab_run_opts.folio_mem, borrowed) for the first @nr_fmem
	 * added, as long as they are the folios it added; else the next of
	 * @next_pfn (phys_merge: one after another; else a page apart).
	 */
	const struct ralab_folio_mem *fmem;
	size_t nr_fmem;
	uint64_t nr_added;
	uint64_t next_pfn;

	struct sim_inode *inodes; /* [0] is the case's file */
	unsigned nr_inodes;
	struct sim_file *files;   /* descriptors, by their number in the case */
	unsigned nr_files, cap_files;

	/* Time and concurrency (engine.c). */
	const struct ralab_workload *wl;
	struct sim_worker *workers, *cur;
	unsigned nr_workers;
	struct sim_job *jobs;
	unsigned nr_jobs;
	bool multi;              /* more than one worker: switch */
	struct ralab_window_state win; /* ra_window_account()'s state */
	uint64_t alloc_rng;      /* alloc_fail_ppm's generator state */
	int host_err;            /* -ENOMEM: the host ran out, not the model */
	bool kblockd;            /* events now are kblockd's: no job's */
	ucontext_t sched;
};

void sim_yield(struct sim *s);

/*
 * The current worker's own plug around a call (madvise()'s): from
 * sim_plug_start() on, the reads it submits wait in the plug until it
 * fills, until the worker sleeps on a folio they read (sim_plug_flush()
 * with @sleep, which its callers make: schedule() flushes the plug, and
 * kblockd issues those requests, for no job) or until
 * sim_plug_finish().  Folios in the plug are done at BLK_DONE_HELD.
 */
void sim_plug_start(struct sim *s);
void sim_plug_flush(struct sim *s, bool sleep);
void sim_plug_finish(struct sim *s);
/*
 * A wait for a folio whose read is still in a plug (BLK_DONE_HELD): a
 * worker other than the holder, which the model lets issue them now
 * (the holder, in the kernel, at its next sleep).  Issues every held
 * plug and returns when the last of those requests is done.
 */
uint64_t sim_plug_wait_held(struct sim *s);
/* After a submission (@in's) of a worker holding a plug. */
void sim_plug_submitted(struct sim *s, struct sim_inode *in);
/*
 * Whether @f's read left the worker's plug in its current call, full:
 * the folio is still locked for it (a fault on it sleeps).
 */
bool sim_plug_fresh(const struct sim *s, const struct folio *f);
/* Hand @ev to the run's callback, tagged with the job in several. */
void sim_emit(struct sim *s, const struct ralab_event *ev);
/*
 * Folio @f entered the page cache (by readahead, ->read_folio or a
 * write): counted, placed in memory (f->pfn), and reported as
 * mm_filemap_add_to_page_cache is.
 */
void sim_folio_added(struct sim *s, struct folio *f);

/*
 * The current worker spends @ns of CPU time.  A ring job's worker does
 * not give way while it issues: one task issues its reads in order.
 */
static inline void sim_spend(struct sim *s, uint64_t ns)
{
	s->cur->now += ns;
	if (s->multi && !s->cur->ring)
		sim_yield(s);
}

/*
 * The job's think time after a read call: after every call, or every
 * think_every-th (fio's thinktime_blocks).
 */
static inline void sim_think(struct sim *s)
{
	struct sim_job *j = s->cur->job;
	const struct wl_job *d = j->def;

	if (!d->think_ns || j->before_epoch)
		return;
	if (d->think_every > 1 && ++j->think_calls < d->think_every)
		return;
	j->think_calls = 0;
	sim_spend(s, d->think_ns);
}

/*
 * The current worker sleeps until @t (a folio under I/O).  @late: the
 * folio was read ahead by an earlier call, so the wait is readahead that
 * came too late (a sync miss waits for its own read instead).
 */
static inline void sim_wait(struct sim *s, uint64_t t, bool late)
{
	struct sim_worker *w = s->cur;

	if (t == BLK_DONE_HELD)
		t = sim_plug_wait_held(s);
	if (t > w->now) {
		w->job->wait_ns += t - w->now;
		w->job->waits++;
		w->job->late_waits += late;
		/* ring: the task issues the next reads meanwhile. */
		if (w->ring && w->now > w->job->cpu_free)
			w->job->cpu_free = w->now;
		w->now = t;
	}
	if (s->multi)
		sim_yield(s);
	/* ring: the rest of the read is the task's again (task_work). */
	if (w->ring && w->job->cpu_free > w->now)
		w->now = w->job->cpu_free;
}

void folio_first_use(struct sim *s, struct folio *f);

/* The application reads from @f: its first use closes its time to use. */
static inline void folio_use(struct sim *s, struct folio *f)
{
	if (!(f->flags & PG_used))
		folio_first_use(s, f);
}

/*
 * After a wait (other jobs ran meanwhile), is @f still the folio cached
 * at @index, where it was before?  @removed: in->pc.removed before the
 * wait.  Another job may have truncated or evicted it, and its slot
 * may hold another folio by now; the kernel's folio_lock() then finds
 * folio->mapping changed and looks the page up again, as callers do.
 */
static inline bool folio_still_cached(struct sim_inode *in,
				      const struct folio *f, pgoff_t index,
				      uint64_t removed)
{
	return in->pc.removed == removed || pc_lookup(&in->pc, index) == f;
}

/*
 * folio_lock() on @f: false when the caller has it at once; true when
 * it slept first (for the folio's read, or for another worker to submit
 * the readahead that added it), and other jobs ran meanwhile: the caller
 * looks the page up again.  @late: as for sim_wait().
 */
bool sim_folio_lock_wait(struct sim *s, struct folio *f, bool late);

/* Is the folio's data in memory at the current worker's time? */
static inline bool folio_ready(const struct sim *s, const struct folio *f)
{
	return f->done_ns <= s->cur->now;
}

/*
 * folio_test_locked(): still being added by readahead, or its read not
 * done yet at the current worker's time.
 */
static inline bool folio_locked(const struct sim *s, const struct folio *f)
{
	return (f->flags & PG_locked) || !folio_ready(s, f);
}

/*
 * folio_test_writeback(): its writeback not done yet at the current
 * worker's time (never, on a device whose I/O takes no time).
 */
static inline bool folio_test_writeback(const struct sim *s,
					const struct folio *f)
{
	return f->wb_done_ns > s->cur->now;
}

static inline bool folio_late(const struct sim *s, const struct folio *f)
{
	return (f->flags & PG_from_ra) && f->added_call != s->cur->call;
}

static inline void lat_add(struct sim_job *j, uint64_t ns)
{
	j->lat[lat_bucket(ns)]++;
}

/* pread(2) by the current worker (engine.c's iodepth workers). */
int64_t sim_pread(struct sim *s, struct sim_file *f, int64_t pos,
		  uint64_t len);

/* engine.c: run the workload's jobs. */
int sim_run_jobs(struct sim *s, const struct ralab_workload *wl);
void sim_run_op(struct sim *s, const struct op *op);
/* Before a read of the current job: wait for its rate limit, if any. */
void sim_rate_wait(struct sim *s);

/* mmap.c: the mapping ops and the fault path. */
int sim_mmap(struct sim_vma *v, struct sim_file *f, uint64_t off,
	     uint64_t len);
void sim_munmap(struct sim_vma *v);
int sim_munmap_part(struct sim_vma *v, uint64_t off, uint64_t len);
/* @in's mappings (every job's) into @out[max]; how many. */
unsigned sim_vmas_of(struct sim *s, const struct sim_inode *in,
		     struct sim_vma **out, unsigned max);
/* folio_mapped(): is a page of @f mapped by one of @v[0..n)? */
bool sim_folio_mapped(struct sim_vma *const *v, unsigned n,
		      const struct folio *f);
/* A truncate's unmap_mapping_range(): pages from @from on, every job's. */
void sim_unmap_from(struct sim *s, const struct sim_inode *in, pgoff_t from);
/* unmap_mapping_pages() of pages [@from, @to), every job's. */
void sim_unmap_range(struct sim *s, const struct sim_inode *in, pgoff_t from,
		     pgoff_t to);
void sim_touch(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
	       uint64_t step, int wfault);
/* mmap(MAP_POPULATE): every page of @v faulted in, up to EOF. */
void sim_populate(struct sim *s, struct sim_vma *v);
/* mlock(2), mlock2(MLOCK_ONFAULT), munlock(2) (@how: MLOCK_*). */
void sim_mlock(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
	       int how);
/* The end of [@a, @b) before @v's first VM_LOCKED VMA in it. */
pgoff_t sim_unlocked_end(const struct sim_vma *v, pgoff_t a, pgoff_t b);
/* 'memcpy': copies out of (into) a mapping, in the C library's order. */
void sim_memcpy(struct sim *s, struct sim_vma *v, uint64_t off, uint64_t len,
		uint64_t count, uint64_t bufoff, int wfault);
void sim_madvise(struct sim *s, struct sim_vma *v, uint64_t off,
		 uint64_t len, int advice);
/* mprotect(2) of [@off, @off + @len) to @prot (PROT_R_ | PROT_W_ | ...). */
void sim_mprotect(struct sim *s, struct sim_vma *v, uint64_t off,
		  uint64_t len, int prot);
/* ->read_folio of a folio not uptodate that needs no I/O (filemap.c). */
void sim_folio_read_noio(struct sim *s, struct folio *f);
int sim_create_folio(struct sim *s, struct sim_inode *in, pgoff_t index,
		     struct folio **out);
/* split_folio() to order 0, unmapped first; 0 or -EBUSY (filemap.c). */
int sim_split_folio(struct sim *s, struct sim_inode *in, struct folio *f);

void used_mark_slow(struct used_map *u, uint64_t first, uint64_t last);

/* Mark pages [first, last] as read by the application. */
static inline void used_mark(struct used_map *u, uint64_t first,
			     uint64_t last)
{
	if (last - u->word_base < 64 && first >= u->word_base && u->word) {
		/* Bits first..last of the word (a folio of up to 64 pages). */
		*u->word |= (~0ull >> (63 - (last - u->word_base))) &
			    (~0ull << (first - u->word_base));
		return;
	}
	used_mark_slow(u, first, last);
}

int sim_init(struct sim *s, const struct ralab_config *cfg,
	     const uint64_t *sizes, unsigned nr_inodes,
	     const struct ralab_policy_ops *policy, struct ralab_stats *st,
	     ralab_event_fn on_event, void *event_arg);
void sim_destroy(struct sim *s);
/*
 * The layout of @in's blocks as they are now (holes a truncate left
 * rebuilt if stale), or NULL: the host ran out of memory (host_err set).
 */
const struct blk_layout *inode_layout_rebuild(struct sim_inode *in);

static inline const struct blk_layout *inode_layout(struct sim_inode *in)
{
	if (__builtin_expect(in->lay_stale, 0))
		return inode_layout_rebuild(in);
	return &in->lay;
}

/*
 * blk_mapping_end(inode_layout(@in), @s, @hole), without rebuilding a
 * stale layout: for a write, which would otherwise rebuild it at every
 * call (a random write job: O(n) each).  *@oom: a rebuild ran out of
 * memory (host_err is set).
 */
uint64_t inode_mapping_end(struct sim_inode *in, uint64_t s, bool *hole,
			   bool *oom);

/* The filesystem's block: a page, or 8 to 64 KiB on large-block XFS. */
static inline uint64_t inode_block_size(const struct sim_inode *in)
{
	return (uint64_t)RALAB_PAGE_SIZE << in->mapping.min_order;
}

/* The first page of the block holding byte @b. */
static inline pgoff_t block_start_page(const struct sim_inode *in,
				       uint64_t b)
{
	return b / inode_block_size(in) << in->mapping.min_order;
}

/* @b rounded up to a block, in pages: where the blocks below @b end. */
static inline pgoff_t block_end_page(const struct sim_inode *in, uint64_t b)
{
	return block_start_page(in, b + inode_block_size(in) - 1);
}

/*
 * Bytes [pos, end) of @in were written: their blocks (whole) exist from
 * now.
 */
void inode_written(struct sim_inode *in, uint64_t pos, uint64_t end);
/*
 * Whether bytes [@a, @b) of @in, never truncated, meet one of the file's
 * own holes (`# holes:`, space-less), or, once punched, a block that
 * inode_blocks_held() does not hold (a punched hole, an own hole, on XFS
 * a zeroed range).  A write there makes the filesystem allocate blocks
 * where ralab does not model (the recorder refuses such cases): counted
 * in ralab_stats.hole_writes, and `ralab sim` says so.
 */
bool inode_meets_own_hole(const struct sim_inode *in, uint64_t a, uint64_t b);
/*
 * Are pages [@a, @b) of fresh @in all on blocks a write keeps where they
 * are: data, or (ext4) unwritten extents?
 */
bool inode_blocks_held(const struct sim_inode *in, pgoff_t a, pgoff_t b);
/* Bytes [a, b) of @in (whole blocks) are a hole from now: a punch. */
void inode_unwritten(struct sim_inode *in, uint64_t a, uint64_t b);

/*
 * The extent starts (@n byte offsets, copied) file @i has once truncated
 * and rewritten.  Return: 0 or -ENOMEM.
 */
/* The rebreaks of generation @gen (1, 2, ...) of inode @i. */
int sim_set_rebreaks_gen(struct sim *s, unsigned i, unsigned gen,
			 const uint64_t *ofs, unsigned n);
/* At a truncate of @in: the next generation's rebreaks take over. */
void sim_next_generation(struct sim_inode *in);
int sim_set_rebreaks(struct sim *s, unsigned i, const uint64_t *ofs,
		     unsigned n);

/*
 * The layout of inode @i: @n byte offsets where extents start (ascending,
 * inside the file), or, with none, extents of cfg->extent_kb (0: one);
 * and @nh holes, [hole[2j], hole[2j + 1]) in bytes (ascending, apart, on
 * 4 KiB boundaries).  Return: 0, -ENOMEM, or -EOVERFLOW (over 2^32
 * extents of extent_kb).
 */
int sim_set_layout(struct sim *s, unsigned i, const uint64_t *ofs,
		   unsigned n, const uint64_t *hole, unsigned nh);
/* open(2): descriptor @fd (its number in the case) on inode @ino. */
struct sim_file *sim_file_open(struct sim *s, unsigned fd, unsigned ino);
void sim_jobs_free(struct sim *s);
/* Remove a folio from the page cache (invalidation). */
void sim_remove_folio(struct sim_inode *in, struct folio *f);

/* A readahead_control for descriptor @f at page @index. */
static inline struct readahead_control sim_ractl(const struct sim *s,
						 struct sim_file *f,
						 pgoff_t index)
{
	struct readahead_control ractl = {
		.mapping = &f->inode->mapping,
		.ra = &f->ra,
		.f_mode = f->f_mode,
		.has_file = true,
		._index = index,
		.patches = s->patches,
		.no_order1 = s->policy->flags & RA_POLICY_NO_ORDER1,
	};

	return ractl;
}

/* fadvise.c: posix_fadvise(2) and readahead(2). */
int sim_fadvise(struct sim *s, struct sim_file *f, int64_t offset,
		int64_t len, int advice);

/* filemap.c: read(2)/pread(2) of @count bytes at @pos; bytes read. */
uint64_t filemap_read(struct sim *s, struct sim_file *f, int64_t pos,
		      uint64_t count);

/*
 * filemap.c: splice(2) of up to @len bytes at @pos into a pipe with
 * @slots free buffers (filemap_splice_read()); bytes spliced.
 */
uint64_t filemap_splice_read(struct sim *s, struct sim_file *f, int64_t pos,
			     uint64_t len, unsigned slots);

/*
 * filemap.c: read(2)/pread(2) through an O_DIRECT descriptor: bytes read,
 * or -1 (EINVAL: not aligned to the logical block size).
 */
int64_t filemap_read_direct(struct sim *s, struct sim_file *f, int64_t pos,
			    uint64_t count);

/*
 * filemap.c: write(2)/pwrite(2) through an O_DIRECT descriptor over the
 * file's own blocks: bytes written, or -1 (EINVAL: not aligned).
 */
int64_t filemap_write_direct(struct sim *s, struct sim_file *f, int64_t pos,
			     uint64_t count);

/* filemap.c: write(2)/pwrite(2) of @count bytes at @pos; bytes written. */
uint64_t filemap_write(struct sim *s, struct sim_file *f, int64_t pos,
		       uint64_t count);

/*
 * Writeback: runs of contiguous dirty folios of @in, pages [@first,
 * @next), each written back as one run of requests of up to
 * max_sectors_kb through the device model (wb_folio, then wb_flush at the
 * end).  Every folio of a run is under writeback until its last request
 * is done, as an ioend ends all its folios at once; @done is when the
 * last run's is.
 */
struct wb_run {
	struct sim_inode *in; /* not owned */
	uint64_t first, next, bytes, done;
};
void wb_folio(struct sim *s, struct sim_inode *in, struct wb_run *wb,
	      struct folio *f);
void wb_flush(struct sim *s, struct wb_run *wb);
/*
 * fsync(2): the inode's dirty folios are written back (the caller waits
 * for them) and stay cached, clean.
 */
void filemap_writeback(struct sim *s, struct sim_inode *in);

/*
 * ftruncate(2) to @size (at most the declared size).  To 0: every folio
 * dropped, dirty or not (reads in flight waited for), i_size 0; a later
 * close starts writeback of what was written since (filemap_release).
 * To another size: xfs_setattr_size() or ext4_setattr(): the partial
 * block at the old or new end zeroed, the page cache cut at the new end
 * (truncate_pagecache()), the blocks past it freed.
 */
void filemap_truncate(struct sim *s, struct sim_inode *in, uint64_t size);

/* @in is preallocated and never written: one unwritten extent. */
void filemap_preallocated(struct sim_inode *in);

/*
 * fallocate(2) of bytes [off, off + len), mode 0 (i_size grows to the
 * end) or FALLOC_FL_KEEP_SIZE (@keep): blocks not there yet, or only
 * reserved, are allocated unwritten (read as zeroes; on XFS their extent
 * ends a write's iomap).  Only a file truncated or preallocated lacks
 * blocks.
 */
void filemap_fallocate(struct sim *s, struct sim_inode *in, uint64_t off,
		       uint64_t len, bool keep);

/*
 * fallocate(2) with FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE of bytes
 * [off, off + len), whole blocks of a file the case does not write: its
 * page cache there dropped (large folios across the ends split), its
 * blocks there a hole; with @zero (FALLOC_FL_ZERO_RANGE) unwritten
 * extents instead, which read the same.
 */
void filemap_punch(struct sim *s, struct sim_inode *in, uint64_t off,
		   uint64_t len, bool zero);

/*
 * Folios the page cache had before the case began ('cached' op; the
 * kernel's at a 'ralab record -p' attach): bytes [off, off + len) in
 * folios of @order, uptodate and clean, PG_readahead on each with @mark;
 * no I/O, no events, not counted as the run's.  Pages past EOF and
 * folios where some page is cached already are left out.
 */
void filemap_prefill(struct sim *s, struct sim_inode *in, uint64_t off,
		     uint64_t len, unsigned order, bool mark);

/* The release of an open file: writeback after a truncate. */
void filemap_release(struct sim *s, struct sim_inode *in);

/*
 * filemap_read_fast - the common case of filemap_read(), inlined into the
 * op loop: the whole read lies in one cached, uptodate folio without
 * PG_readahead or PG_dropbehind and before EOF, in a call without
 * RWF_DONTCACHE, so filemap_get_pages() would return just
 * that folio and start no readahead.  Returns false when the full path
 * must run.  (s_maxbytes >= i_size; 6.x read path only.)
 */
static inline __attribute__((always_inline)) bool
filemap_read_fast(struct sim *s, struct sim_file *f, int64_t pos,
		  uint64_t count)
{
	uint64_t index = (uint64_t)pos / RALAB_PAGE_SIZE;
	struct sim_inode *in = f->inode;
	struct folio *hit;

	if (!count || (uint64_t)pos + count > in->mapping.i_size ||
	    s->read_pagewise || s->cur->call_how)
		return false;
	hit = in->last_hit;
	if (!hit || index - hit->index >= folio_nr_pages(hit))
		hit = in->last_hit = pc_lookup(&in->pc, index);
	if (!hit ||
	    (hit->flags & (PG_uptodate | PG_readahead | PG_dropbehind)) !=
		    PG_uptodate ||
	    hit->done_ns > s->cur->now || (uint64_t)pos + count >
		    (hit->index + folio_nr_pages(hit)) * RALAB_PAGE_SIZE)
		return false;
	f->ra.prev_pos = pos + (int64_t)count;
	if (!(hit->flags & PG_used))
		folio_use(s, hit);
	used_mark(&in->used, index,
		  ((uint64_t)pos + count - 1) / RALAB_PAGE_SIZE);
	return true;
}

#endif
