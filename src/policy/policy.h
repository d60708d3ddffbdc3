/* SPDX-License-Identifier: MIT */
/*
 * policy.h - the readahead policy and what it needs from the rest.
 *
 * The policy (mm/readahead.c in the kernel) decides windows: where the next
 * readahead starts, how large it is, where its PG_readahead mark goes and in
 * which folio orders it is allocated.  It does not own the page cache or the
 * device.  Everything it asks of them goes through struct ra_mapping_ops, so
 * the same policy code can drive the simulated cache of ralab or, later, a
 * real userspace cache (tests/unit/test_policy.c drives linux-6.18 with a
 * toy cache of its own and gets the kernel's windows).
 *
 * Kernel names are kept (file_ra_state, readahead_control, ra->size,
 * page_cache_async_ra) so that a kernel patch maps onto this code directly.
 */
#ifndef RALAB_POLICY_H
#define RALAB_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "ralab.h"

typedef uint64_t pgoff_t;

#define RA_ULONG_MAX UINT64_MAX

/* struct file_ra_state - per open file, as in 6.18 (field widths too). */
struct file_ra_state {
	pgoff_t start;           /* first page of the current window */
	unsigned int size;       /* pages in the window */
	unsigned int async_size; /* async tail: mark = start + size - async */
	unsigned int ra_pages;   /* per-file maximum window */
	unsigned short order;    /* preferred folio order (6.17+) */
	unsigned short mmap_miss;
	int64_t prev_pos;        /* byte just past the previous read, or -1 */
};

/* struct file mode bits that readahead looks at. */
#define FMODE_RANDOM (1u << 0)
#define FMODE_NOREUSE (1u << 1)

/* What the policy is told about the marked folio of an async call. */
struct ra_folio {
	pgoff_t index;
	unsigned order;
	bool writeback;
};

/*
 * struct ra_mapping_ops - the page cache and I/O path, as readahead uses
 * them.  @m is ra_mapping.priv.
 * @next_miss, @prev_miss: page_cache_next_miss()/prev_miss(), with the
 *	XArray cursor semantics of the kernel.
 * @present: is a folio stored at @index?
 * @add_folio: allocate a locked folio of @order at @index (aligned), set
 *	PG_readahead if @mark, insert it and queue it on the current batch.
 *	Return 0, -EEXIST if something is in the range, or -ENOMEM.
 * @read_pages: submit the current batch in one block plug (may be empty).
 * @clear_readahead: clear PG_readahead on the folio at @index.
 * @trace: a readahead tracepoint fired.
 */
struct ra_mapping_ops {
	pgoff_t (*next_miss)(void *m, pgoff_t index, unsigned long max_scan);
	pgoff_t (*prev_miss)(void *m, pgoff_t index, unsigned long max_scan);
	bool (*present)(void *m, pgoff_t index);
	int (*add_folio)(void *m, pgoff_t index, unsigned order, bool mark);
	void (*read_pages)(void *m);
	void (*clear_readahead)(void *m, pgoff_t index);
	void (*trace)(void *m, const struct ralab_event *ev);
};

/*
 * struct ra_mapping - one file's mapping and its backing device, read live
 * on every call as the kernel reads inode and bdi fields.
 */
struct ra_mapping {
	const struct ra_mapping_ops *ops;
	void *priv;
	uint64_t i_size;
	unsigned min_order, max_order; /* mapping folio-order limits */
	bool large_folios;             /* mapping_large_folio_support() */
	unsigned long io_pages;        /* bdi->io_pages = max_sectors_kb / 4 */
};

/* struct readahead_control - one readahead request. */
struct readahead_control {
	struct ra_mapping *mapping;
	struct file_ra_state *ra;
	unsigned f_mode;  /* FMODE_* of the file */
	bool has_file;    /* false for in-kernel callers without a file */
	pgoff_t _index;   /* next page to submit */
	unsigned long _nr_pages; /* pages in the batch not yet submitted */
	/*
	 * Variant switches, not in the kernel's struct: the patches applied
	 * on top of the policy (bit n-1 for patch n of its series), and
	 * kara-2026's "may shrink the window instead of allocating small
	 * folios" flag for page_cache_ra_order(), and linux-6.1's page cache
	 * without order-1 folios.
	 */
	unsigned long patches;
	bool may_shrink;
	bool no_order1;
};

/*
 * struct ralab_policy_ops - a readahead algorithm.  Every variant is a
 * table of these; policy/registry.c lists them.
 * @sync_ra: page_cache_sync_ra(): the folio at ractl->_index is absent.
 * @async_ra: page_cache_async_ra(): a read reached a PG_readahead folio.
 */
/* ralab_policy_ops.flags */
enum {
	/*
	 * The 3.x read path: do_generic_file_read() walks page by page and
	 * checks each page for absence and PG_readahead; prev_pos keeps the
	 * offset within the last page read.
	 */
	RA_POLICY_READ_PAGEWISE = 1u << 0,
	/*
	 * ext4 mappings have no large folios: before "ext4: enable large
	 * folio for regular file" (Zhang Yi, 6.16) ext4 read in order 0.
	 */
	RA_POLICY_EXT4_ORDER0 = 1u << 1,
	/* The block layer issues a plug's requests last first (6.1, 6.8). */
	RA_POLICY_PLUG_LIFO = 1u << 2,
	/* No order-1 folio in readahead (before 6.9): ractl->no_order1. */
	RA_POLICY_NO_ORDER1 = 1u << 3,
	/*
	 * The loop driver leaves QUEUE_FLAG_NOMERGES set (nomerges 2) on a
	 * direct-I/O device, as before "loop: don't set QUEUE_FLAG_NOMERGES"
	 * (C. Hellwig, 6.11; backported to 6.1.y and 6.6.y): no plug merge
	 * and no plug flush at BLK_PLUG_FLUSH_SIZE.  Checked in a VM on
	 * Ubuntu's 6.8.0-31: /sys/block/loopN/queue/nomerges reads 2 there,
	 * 0 on 6.1.192, 6.12.117 and 6.18.
	 */
	RA_POLICY_LOOP_NOMERGES = 1u << 4,
	/*
	 * filemap_read() sets ra->prev_pos after each folio it copies, so the
	 * readahead of a read's second batch sees the first one's end (6.1;
	 * by 6.8 it kept the position in last_pos and set ra->prev_pos once,
	 * after the read, as 6.18 does).
	 */
	RA_POLICY_PREV_POS_PER_FOLIO = 1u << 5,
	/*
	 * A read batch holds 15 folios (PAGEVEC_SIZE of 6.1), not 31: seen
	 * through RA_POLICY_PREV_POS_PER_FOLIO, as where a read's second
	 * batch starts.  (Kernels that move prev_pos once per read cannot
	 * show their batch size in these events.)
	 */
	RA_POLICY_PAGEVEC15 = 1u << 6,
	/*
	 * Buffered writes make order-0 folios, as before "iomap: Create
	 * large folios in the buffered write path" (M. Wilcox, 6.6); the
	 * 3.x policies (RA_POLICY_READ_PAGEWISE) do too.
	 */
	RA_POLICY_WRITE_ORDER0 = 1u << 7,
	/*
	 * do_async_mmap_readahead() decrements ra->mmap_miss on every fault
	 * on a cached page, locked or not, as before "mm: readahead: improve
	 * mmap_miss heuristic for concurrent faults" (R. Gushchin, Aug 2025,
	 * 6.18): since then a folio still locked for its read I/O is not
	 * counted as a hit (src/mmap.c, async_mmap_ra()).
	 */
	RA_POLICY_MMAP_MISS_ANY = 1u << 8,
	/*
	 * Page faults on files run under mmap_lock only, as before the
	 * per-VMA lock took them (M. Wilcox, 6.7): a fault retried after
	 * filemap_fault() dropped the lock is always FAULT_FLAG_TRIED
	 * (src/mmap.c, fault()).
	 */
	RA_POLICY_FAULT_MMAP_LOCK = 1u << 9,
	/*
	 * A fault maps pages, not folios: fault-around maps the pages of
	 * its 16-page window and finish_fault() the one page faulted, as
	 * before "mm/filemap: map entire large folio faultaround"
	 * (357b92761d94) and "mm/fault: try to map the entire file folio in
	 * finish_fault()" (19773df031bc, both K. Shutsemau, 6.18), and
	 * without the i_size rule of 74207de2ba10 ("mm/memory: do not
	 * populate page table entries beyond i_size", 6.18, backported to
	 * the stable kernels: not modelled for them, unverified there).
	 */
	RA_POLICY_FAULT_MAP_PAGES = 1u << 10,
	/*
	 * No minimum folio order: the policy's page_cache_ra_order() is
	 * 6.9's (or older), which knows nothing of mapping_min_folio_order().
	 * Large block sizes came with 6.12 ("Large block size support" for
	 * XFS, P. Raghav, L. Chamberlain), whose readahead ralab takes from
	 * 6.9's code plus patches, unrecorded on such a filesystem: a case
	 * with block_size above 4096 is refused (-EOPNOTSUPP) under these.
	 */
	RA_POLICY_NO_MIN_ORDER = 1u << 11,
	/*
	 * A fault in a VM_EXEC mapping reads around like any other, and
	 * VM_RAND_READ stops it there too, as before "mm/filemap: allow arch
	 * to request folio size for exec memory" (R. Roberts, 6.17), which
	 * gave exec mappings a window of their own (src/mmap.c,
	 * sync_mmap_ra()).
	 */
	RA_POLICY_NO_EXEC_RA = 1u << 12,
	/*
	 * Before filemap_splice_read() (D. Howells, 6.5) a splice from a
	 * file read through filemap_read() with a pipe iterator (3.x: page by
	 * page in __generic_file_splice_read()), which ralab does not
	 * follow: a workload that splices is refused (-EOPNOTSUPP).
	 */
	RA_POLICY_NO_SPLICE_READ = 1u << 13,
};

struct ralab_policy_ops {
	const char *name;
	const char *source; /* where the behaviour comes from */
	unsigned flags;     /* RA_POLICY_* */
	/*
	 * Patch bits always applied (ralab_patch.bit of the code this policy
	 * runs): a kernel that is a base plus patches, e.g. linux-6.12.
	 */
	unsigned long patches;
	void (*sync_ra)(struct readahead_control *ractl,
			unsigned long req_count);
	void (*async_ra)(struct readahead_control *ractl,
			 const struct ra_folio *folio,
			 unsigned long req_count);
	/*
	 * page_cache_ra_order() as do_sync_mmap_readahead() calls it, on the
	 * window the caller set in @ra (read-around, VM_HUGEPAGE), asking
	 * for @order.  NULL: 6.18's, which takes the order from ra->order.
	 * Before 6.10 the order was an argument and gained 2 on the way in,
	 * so a 6.9 read-around allocates order-2 folios, 6.18's order 0.
	 */
	void (*mmap_ra_order)(struct readahead_control *ractl,
			      struct file_ra_state *ra, unsigned order);
};

const struct ralab_policy_ops *ralab__policy_find(const char *name);

/*
 * struct ralab_patch - a patch that can be applied on top of a policy,
 * one at a time or together, so that a series can be bisected.
 */
struct ralab_patch {
	const char *name;   /* "kara-2024/01" */
	const char *policy; /* the policy it applies to */
	unsigned bit;       /* bit in readahead_control.patches */
	const char *title;
	bool functional;    /* false: a refactoring, same behaviour */
};

const struct ralab_patch *ralab__patch_find(const char *name);

/*
 * ralab__policy_resolve - policy @name (NULL: the default) and the
 * readahead_control.patches bits of @patch_names on top of it.  Return 0,
 * -ENOENT (unknown policy or patch) or -EINVAL (a patch of another policy).
 */
int ralab__policy_resolve(const char *name, const char *const *patch_names,
			  unsigned nr_patches,
			  const struct ralab_policy_ops **policy,
			  unsigned long *bits);

/* ---- helpers shared by the policies (policy/readahead.c) ---- */

unsigned long get_init_ra_size(unsigned long size, unsigned long max);
unsigned long get_next_ra_size(const struct file_ra_state *ra,
			       unsigned long max);
unsigned long ractl_max_pages(const struct readahead_control *ractl,
			      unsigned long req_size);
void page_cache_ra_unbounded(struct readahead_control *ractl,
			     unsigned long nr_to_read,
			     unsigned long lookahead_size);
int do_page_cache_ra(struct readahead_control *ractl,
		     unsigned long nr_to_read, unsigned long lookahead_size);
void force_page_cache_ra(struct readahead_control *ractl,
			 unsigned long nr_to_read);
/*
 * ractl->patches bits that shared code tests: J. Kim's "improve
 * fadvise(POSIX_FADV_WILLNEED) with large folio" (Dec 2025, on 6.18;
 * registry.c "kim-2025/0n").  Bit numbers after the linux-6.9 ones.
 */
#define KIM_2025(n) (1ul << (17 + (n) - 1))
/* A. Li, "mm/readahead: Skip fully overlapped range" (Sep 2025, on 6.17). */
#define LI_2025 (1ul << 20)
/*
 * R. Roberts, "Readahead tweaks for larger folios" (6.17) on linux-6.9's
 * code (registry.c "roberts-2025/0n"); 05 acts in src/mmap.c.
 */
#define ROBERTS_2025(n) (1ul << (12 + (n) - 1))
/* 6.18's page_cache_sync_ra(), which kim-2025/02 calls from fadvise. */
void page_cache_sync_ra_618(struct readahead_control *ractl,
			    unsigned long req_count);
void page_cache_ra_order(struct readahead_control *ractl,
			 struct file_ra_state *ra);
/* read_pages(): submit the batch and advance ractl->_index past it. */
void ra_read_pages(struct readahead_control *ractl);
/*
 * The start of page_cache_sync_ra() since 5.x: trace, then readahead off
 * (ra_pages 0) reads the one page as forced readahead, as does
 * FMODE_RANDOM.  Return: true if that handled the call.
 */
bool ra_sync_forced(struct readahead_control *ractl, unsigned long req_count);
/*
 * generic_fadvise() as far as readahead goes (6.18): NORMAL and SEQUENTIAL
 * re-snapshot ra_pages from the device's @bdi_ra_pages (x1, x2) and clear
 * FMODE_RANDOM (NORMAL also FMODE_NOREUSE); RANDOM sets FMODE_RANDOM,
 * NOREUSE FMODE_NOREUSE; WILLNEED (and readahead(2)) forces readahead of
 * the pages of [@offset, @offset + @len), @len 0 meaning "to the end".
 * @advice is POSIX_FADV_* in Linux's numbering (0..5).  DONTNEED changes
 * no readahead state: evicting is the cache's business.  Never touches
 * ra->start/size/async_size/prev_pos.  Return 0, or -EINVAL.
 */
/* generic_fadvise()'s last byte of [@offset, @offset + @len), 0 = to the end. */
static inline uint64_t ra_fadvise_endbyte(int64_t offset, int64_t len)
{
	uint64_t endbyte = (uint64_t)offset + (uint64_t)len;

	/* Careful about overflows; len 0 means "as much as possible". */
	if (!len || endbyte < (uint64_t)len || endbyte > (uint64_t)INT64_MAX)
		return (uint64_t)INT64_MAX;
	return endbyte - 1; /* inclusive */
}

int ra_fadvise(struct readahead_control *ractl, unsigned *f_mode,
	       unsigned long bdi_ra_pages, int64_t offset, int64_t len,
	       int advice);
void ra_trace_state(struct readahead_control *ractl,
		    enum ralab_event_type type, pgoff_t index,
		    unsigned long req_count);

static inline unsigned ra_ilog2(uint64_t x)
{
	return 63u - (unsigned)__builtin_clzll(x);
}

static inline unsigned ra_ffs0(uint64_t x) /* __ffs(): lowest set bit */
{
	return (unsigned)__builtin_ctzll(x);
}

/*
 * The allocation loop of page_cache_ra_order() (6.9 and 6.18 alike): add
 * folios of up to @new_order from *@index to @limit, aligned, no smaller
 * than @min_order, marking the one that holds @mark.  *@index ends past
 * the last folio added.  Return: 0, or add_folio's error.
 */
static inline int ra_add_folios(struct readahead_control *ractl,
				pgoff_t *index, pgoff_t limit, pgoff_t mark,
				unsigned new_order, unsigned min_order)
{
	struct ra_mapping *m = ractl->mapping;
	pgoff_t i = *index;
	int err = 0;

	while (i <= limit) {
		unsigned order = new_order;

		/* Align with smaller folios where needed. */
		if (i & (((pgoff_t)1 << order) - 1))
			order = ra_ffs0(i);
		/* Do not allocate past EOF or the window. */
		while (order > min_order && i + ((pgoff_t)1 << order) - 1 > limit)
			order--;
		/* Before 6.8 the page cache took no order-1 folio. */
		if (order == 1 && ractl->no_order1)
			order = 0;
		err = m->ops->add_folio(m->priv, i, order,
					i == (mark & ~(((pgoff_t)1 << order) - 1)));
		if (err)
			break;
		ractl->_nr_pages += 1ul << order;
		i += (pgoff_t)1 << order;
	}
	*index = i;
	return err;
}

static inline uint64_t ra_roundup_pow2(uint64_t x)
{
	return x <= 1 ? 1 : 1ull << (64 - __builtin_clzll(x - 1));
}

#endif
