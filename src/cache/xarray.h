/* SPDX-License-Identifier: MIT */
/*
 * xarray.h - a model of the kernel's XArray, as far as the page cache uses it.
 *
 * The page-cache index of a file is a radix tree of 64-slot nodes.  Two of
 * its walks decide readahead windows (page_cache_next_miss() and
 * page_cache_prev_miss()), and the kernel's cursor does not always look at
 * the slot of the index it reports when it starts inside a multi-page folio
 * (spec Appendix A, "lag").  To reproduce the kernel's windows event for
 * event, this module stores folios in the same shape as lib/xarray.c does
 * (heads plus sibling slots, orders >= 6 one level up) and walks it with a
 * cursor that has the same states and steps.
 *
 * Entries are tagged words: a pointer to a caller object (8-byte aligned,
 * low bits 000), a sibling (low bits 001, head slot above), an internal
 * node (010) or a value entry (100, a shadow of an evicted folio).
 */
#ifndef RALAB_XARRAY_H
#define RALAB_XARRAY_H

#include <stdbool.h>
#include <stdint.h>

#define XA_CHUNK_SHIFT 6
#define XA_CHUNK_SIZE (1u << XA_CHUNK_SHIFT)
#define XA_CHUNK_MASK (XA_CHUNK_SIZE - 1)

typedef uintptr_t xa_entry;

struct xa_node {
	unsigned char shift;  /* 0 for leaves, then 6, 12, ... */
	unsigned char offset; /* slot in the parent */
	unsigned short count; /* non-empty slots, siblings included */
	struct xa_node *parent;
	xa_entry slots[XA_CHUNK_SIZE];
};

/* The tree.  Zero-initialised means empty. */
struct xarray {
	xa_entry head;
	uint64_t nr_nodes; /* for the memory report */
	/*
	 * Lookup hint: the node of the last xa_load(), covering
	 * [hint_base, hint_base + (64 << hint->shift)).  Sequential readers
	 * look up neighbouring indices, so most loads start there instead of
	 * at the root.  Only a speed-up: the result is the same.
	 */
	const struct xa_node *hint;
	uint64_t hint_base;
};

static inline bool xa_is_node(xa_entry e)
{
	return (e & 7) == 2;
}

static inline struct xa_node *xa_to_node(xa_entry e)
{
	return (struct xa_node *)(e - 2);
}

static inline bool xa_is_sibling(xa_entry e)
{
	return (e & 7) == 1;
}

static inline unsigned xa_sibling_offset(xa_entry e)
{
	return (unsigned)(e >> 3);
}

static inline bool xa_is_value(xa_entry e)
{
	return (e & 7) == 4;
}

/* An object entry (folio), or NULL for empty/sibling/node/value. */
static inline void *xa_entry_ptr(xa_entry e)
{
	return (e & 7) ? (void *)0 : (void *)e;
}

/*
 * xa_store_range - store @ptr for [index, index + 2^order), index aligned.
 * The range must be empty.  Returns 0, or -ENOMEM.
 */
int xa_store_order(struct xarray *xa, uint64_t index, unsigned order,
		   void *ptr);

/*
 * xa_erase_order - remove the entry stored at @index with @order, leaving
 * nothing (no shadow), and free nodes that become empty, shrinking the tree
 * as the kernel does.
 */
void xa_erase_order(struct xarray *xa, uint64_t index, unsigned order);

/* xa_range_empty - true if no object covers any index of the range. */
bool xa_range_empty(const struct xarray *xa, uint64_t index, unsigned order);

/* xa_load - the object covering @index, or NULL. */
void *xa_load_slow(struct xarray *xa, uint64_t index);

static inline void *xa_load(struct xarray *xa, uint64_t index)
{
	const struct xa_node *node = xa->hint;

	/* Fast path: a leaf hint covering @index (sequential lookups). */
	if (node && !node->shift && index - xa->hint_base < XA_CHUNK_SIZE) {
		xa_entry e = node->slots[index & XA_CHUNK_MASK];

		if (xa_is_sibling(e))
			e = node->slots[xa_sibling_offset(e)];
		return xa_entry_ptr(e);
	}
	return xa_load_slow(xa, index);
}

/*
 * xa_find_after - the first object whose first index is >= @index, or
 * NULL.  (An object covering @index but starting before it is xa_load's.)
 */
void *xa_find_after(const struct xarray *xa, uint64_t index);

/* Free every node.  Objects are the caller's. */
void xa_destroy(struct xarray *xa);

/*
 * The kernel's scans, with its cursor semantics (Appendix A):
 * xa_next_miss: first index in [index, index + max_scan) whose slot holds no
 * object as the cursor sees it; 0 if the scan wraps; index + max_scan if
 * none.  xa_prev_miss: the same walking down; ULONG_MAX on wrap; the last
 * index examined if no gap is found.
 */
uint64_t xa_next_miss(const struct xarray *xa, uint64_t index,
		      uint64_t max_scan);
uint64_t xa_prev_miss(const struct xarray *xa, uint64_t index,
		      uint64_t max_scan);

#endif
