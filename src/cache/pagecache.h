/* SPDX-License-Identifier: MIT */
/*
 * pagecache.h - one file's page cache: folios indexed by an XArray.
 */
#ifndef RALAB_PAGECACHE_H
#define RALAB_PAGECACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "xarray.h"

/* Folio flags that readahead and the read path look at. */
#define PG_uptodate (1u << 0)
#define PG_readahead (1u << 1)
#define PG_locked (1u << 2) /* I/O in flight */
/* (1u << 3): writeback is a time, folio->wb_done_ns (folio_test_writeback()) */
#define PG_from_ra (1u << 4) /* ralab's: added by readahead, for accounting */
#define PG_used (1u << 5)    /* ralab's: the application has read from it */
#define PG_dirty (1u << 6)   /* written, not yet under writeback */
/*
 * ralab's: the folio has no folio->private (XFS: no iomap_folio_state).
 * A large folio gets one when it is read, written in part, zeroed in part
 * or dirtied through a mapping; not when a write(2) makes it and covers
 * it whole (__iomap_write_begin()), and a split releases it.
 */
#define PG_nopriv (1u << 7)
/*
 * The folio goes when a read has copied from it (PG_dropbehind, set by
 * preadv2(2) with RWF_DONTCACHE, 6.14): filemap_end_dropbehind_read().
 */
#define PG_dropbehind (1u << 8)
/*
 * ralab's: not PG_uptodate, but its block's buffer is (ext4, a block per
 * page): ext4's zeroing of the block at EOF (__ext4_block_zero_page_range()
 * for a truncate, a write or a fallocate past EOF) reads the buffer into a
 * folio it makes and never marks the folio uptodate.  A read(2) copies from
 * it without ->read_folio (block_is_partially_uptodate()), fault-around
 * skips it (next_uptodate_folio()), a fault reads it (no I/O) and retries.
 * A folio neither uptodate nor this (ext4's zeroing over a hole or an
 * unwritten block) is read by ->read_folio without I/O: zeroes.
 */
#define PG_bh_uptodate (1u << 9)

struct folio {
	uint64_t index; /* first page; aligned to 1 << order */
	uint64_t done_ns; /* I/O complete (PG_locked cleared) at this time */
	uint64_t added_ns; /* when readahead added it */
	/*
	 * Writeback started on it ends at this time (PG_writeback cleared);
	 * 0: none started.
	 */
	uint64_t wb_done_ns;
	uint64_t pfn; /* where it lies in memory (sim_folio_added()) */
	uint8_t order;
	uint8_t pad;
	uint16_t flags;
	uint32_t id;        /* own slot in the allocator, 1-based */
	uint32_t next_free; /* free-list link while unused */
	uint32_t added_call; /* the system call that added it (for "late") */
};

static inline uint64_t folio_nr_pages(const struct folio *f)
{
	return 1ull << f->order;
}

/* Folios come from chunks that are never moved, so pointers stay valid. */
#define FOLIO_CHUNK 4096

struct page_cache {
	struct xarray i_pages;
	uint64_t nrpages;
	struct folio **chunks;
	uint32_t nr_chunks, cap_chunks;
	uint32_t nr_used;    /* folios handed out from the chunks */
	uint32_t free_head;  /* 1-based index of a freed folio, 0 = none */
	/*
	 * Folios removed so far.  A freed folio is reused at once, so a
	 * pointer held across a wait (other jobs ran) may name another
	 * folio by then: unchanged, none did (folio_still_cached()).
	 */
	uint64_t removed;
};

void pc_init(struct page_cache *pc);
void pc_destroy(struct page_cache *pc);

static inline struct folio *pc_lookup(struct page_cache *pc, uint64_t index)
{
	return xa_load(&pc->i_pages, index);
}

/*
 * pc_add_folio - insert a folio of @order at @index with @flags.
 * Return: 0 with *@out set, -EEXIST if any page of the range is present,
 * -ENOMEM.
 */
int pc_add_folio(struct page_cache *pc, uint64_t index, unsigned order,
		 unsigned flags, struct folio **out);

/* pc_remove_folio - drop @f from the cache; @f is freed. */
void pc_remove_folio(struct page_cache *pc, struct folio *f);

#endif
