// SPDX-License-Identifier: MIT
/*
 * xarray.c - the XArray shape and cursor of the page-cache index.
 *
 * Written from the behaviour description in docs/design.md (Appendix A of
 * the readahead spec): node shapes, sibling slots and the cursor's fast and
 * slow steps.  Only what changes readahead decisions is modelled: no RCU,
 * no marks, no multi-index splitting.
 */
#include "xarray.h"

#include <errno.h>
#include <stdlib.h>

static inline xa_entry mk_node(struct xa_node *n)
{
	return (xa_entry)n | 2;
}

static inline xa_entry mk_sibling(unsigned off)
{
	return ((xa_entry)off << 3) | 1;
}

static inline unsigned slot_of(const struct xa_node *n, uint64_t index)
{
	return (unsigned)((index >> n->shift) & XA_CHUNK_MASK);
}

static struct xa_node *node_alloc(struct xarray *xa, unsigned shift,
				  struct xa_node *parent, unsigned offset)
{
	struct xa_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->shift = (unsigned char)shift;
	n->parent = parent;
	n->offset = (unsigned char)offset;
	xa->nr_nodes++;
	return n;
}

static void node_free(struct xarray *xa, struct xa_node *n)
{
	if (xa->hint == n)
		xa->hint = NULL;
	xa->nr_nodes--;
	free(n);
}

/* Smallest root shift whose node covers @maxidx. */
static unsigned shift_for(uint64_t maxidx)
{
	unsigned shift = 0;

	while ((maxidx >> shift) > XA_CHUNK_MASK)
		shift += XA_CHUNK_SHIFT;
	return shift;
}

/*
 * Walk down from the root to the node of @level on @index's path, creating
 * missing nodes.  Returns NULL on allocation failure.
 */
static struct xa_node *walk_create(struct xarray *xa, uint64_t index,
				   unsigned level)
{
	struct xa_node *node = xa_to_node(xa->head);

	while (node->shift > level) {
		unsigned off = slot_of(node, index);
		xa_entry e = node->slots[off];
		struct xa_node *child;

		if (!e) {
			child = node_alloc(xa, node->shift - XA_CHUNK_SHIFT,
					   node, off);
			if (!child)
				return NULL;
			node->slots[off] = mk_node(child);
			node->count++;
		} else {
			child = xa_to_node(e);
		}
		node = child;
	}
	return node;
}

int xa_store_order(struct xarray *xa, uint64_t index, unsigned order,
		   void *ptr)
{
	unsigned level = order - order % XA_CHUNK_SHIFT;
	unsigned nsib = (1u << (order % XA_CHUNK_SHIFT)) - 1;
	uint64_t maxidx = index | ((((uint64_t)nsib + 1) << level) - 1);
	struct xa_node *node;
	unsigned off, k;

	if (!xa->head && maxidx == 0) {
		xa->head = (xa_entry)ptr;
		return 0;
	}
	if (!xa_is_node(xa->head)) {
		/*
		 * Empty, or a single order-0 entry at index 0 stored in the
		 * root: the root becomes a node and the old entry moves down
		 * to slot 0 of a leaf (the kernel stacks nodes over it).
		 */
		xa_entry old = xa->head;
		unsigned shift = shift_for(maxidx);
		struct xa_node *root;

		if (shift < level)
			shift = level;
		root = node_alloc(xa, shift, NULL, 0);
		if (!root)
			return -ENOMEM;
		xa->head = mk_node(root);
		if (old) {
			struct xa_node *leaf = walk_create(xa, 0, 0);

			if (!leaf)
				return -ENOMEM;
			leaf->slots[0] = old;
			leaf->count++;
		}
	}
	while ((maxidx >> xa_to_node(xa->head)->shift) > XA_CHUNK_MASK ||
	       xa_to_node(xa->head)->shift < level) {
		struct xa_node *old = xa_to_node(xa->head);
		struct xa_node *root =
			node_alloc(xa, old->shift + XA_CHUNK_SHIFT, NULL, 0);

		if (!root)
			return -ENOMEM;
		root->slots[0] = xa->head;
		root->count = 1;
		old->parent = root;
		old->offset = 0;
		xa->head = mk_node(root);
	}
	node = walk_create(xa, index, level);
	if (!node)
		return -ENOMEM;
	off = slot_of(node, index);
	node->slots[off] = (xa_entry)ptr;
	for (k = 1; k <= nsib; k++)
		node->slots[off + k] = mk_sibling(off);
	node->count += (unsigned short)(nsib + 1);
	return 0;
}

/* Drop empty nodes upwards, then shrink the root as the kernel does. */
static void delete_upwards(struct xarray *xa, struct xa_node *node)
{
	while (node && node->count == 0) {
		struct xa_node *parent = node->parent;

		if (parent) {
			parent->slots[node->offset] = 0;
			parent->count--;
		} else {
			xa->head = 0;
		}
		node_free(xa, node);
		node = parent;
	}
	while (xa_is_node(xa->head)) {
		struct xa_node *root = xa_to_node(xa->head);
		xa_entry e = root->slots[0];

		if (root->count != 1 || !e)
			break;
		if (!xa_is_node(e) && root->shift)
			break;
		xa->head = e;
		node_free(xa, root);
		if (!xa_is_node(e))
			break;
		xa_to_node(e)->parent = NULL;
	}
}

void xa_erase_order(struct xarray *xa, uint64_t index, unsigned order)
{
	unsigned level = order - order % XA_CHUNK_SHIFT;
	unsigned nsib = (1u << (order % XA_CHUNK_SHIFT)) - 1;
	struct xa_node *node;
	unsigned off, k;

	if (!xa_is_node(xa->head)) {
		if (index == 0)
			xa->head = 0;
		return;
	}
	node = xa_to_node(xa->head);
	if ((index >> node->shift) > XA_CHUNK_MASK)
		return;
	while (node->shift > level) {
		xa_entry e = node->slots[slot_of(node, index)];

		if (!xa_is_node(e))
			return;
		node = xa_to_node(e);
	}
	off = slot_of(node, index);
	for (k = 0; k <= nsib; k++) {
		if (node->slots[off + k]) {
			node->slots[off + k] = 0;
			node->count--;
		}
	}
	delete_upwards(xa, node);
}

void *xa_load_slow(struct xarray *xa, uint64_t index)
{
	const struct xa_node *node = xa->hint;
	xa_entry e;

	if (!node || index - xa->hint_base >= (64ull << node->shift)) {
		e = xa->head;
		if (!xa_is_node(e))
			return index ? NULL : xa_entry_ptr(e);
		node = xa_to_node(e);
		if ((index >> node->shift) > XA_CHUNK_MASK)
			return NULL;
	}
	for (;;) {
		e = node->slots[slot_of(node, index)];
		if (xa_is_sibling(e))
			e = node->slots[xa_sibling_offset(e)];
		if (!xa_is_node(e))
			break;
		node = xa_to_node(e);
	}
	/* Remember the lowest node reached, for the next lookup. */
	if (node->shift <= 48) {
		xa->hint = node;
		xa->hint_base = index & ~((64ull << node->shift) - 1);
	}
	return xa_entry_ptr(e);
}

bool xa_range_empty(const struct xarray *xa, uint64_t index, unsigned order)
{
	unsigned level = order - order % XA_CHUNK_SHIFT;
	unsigned nsib = (1u << (order % XA_CHUNK_SHIFT)) - 1;
	uint64_t maxidx = index | ((((uint64_t)nsib + 1) << level) - 1);
	const struct xa_node *node;
	xa_entry e = xa->head;
	unsigned off, k;

	if (!xa_is_node(e))
		return !e || xa_is_value(e) || index != 0;
	node = xa_to_node(e);
	if ((index >> node->shift) > XA_CHUNK_MASK)
		return true;
	/* An aligned range reaching past the root covers all of it. */
	if ((maxidx >> node->shift) > XA_CHUNK_MASK || node->shift < level)
		return false;
	while (node->shift > level) {
		e = node->slots[slot_of(node, index)];
		if (!e || xa_is_value(e))
			return true;
		if (!xa_is_node(e))
			return false;
		node = xa_to_node(e);
	}
	off = slot_of(node, index);
	for (k = 0; k <= nsib; k++) {
		e = node->slots[off + k];
		if (e && !xa_is_value(e))
			return false;
	}
	return true;
}

static void *find_in(const struct xa_node *n, uint64_t base, uint64_t index)
{
	unsigned i = index > base ? slot_of(n, index) : 0;

	for (; i < XA_CHUNK_SIZE; i++) {
		uint64_t start = base + ((uint64_t)i << n->shift);
		xa_entry e = n->slots[i];
		void *found;

		if (!e || xa_is_sibling(e) || xa_is_value(e))
			continue;
		if (xa_is_node(e) && n->shift) {
			found = find_in(xa_to_node(e), start, index);
			if (found)
				return found;
			continue;
		}
		if (start >= index)
			return xa_entry_ptr(e);
	}
	return NULL;
}

void *xa_find_after(const struct xarray *xa, uint64_t index)
{
	const struct xa_node *root;

	if (!xa_is_node(xa->head))
		return index == 0 ? xa_entry_ptr(xa->head) : NULL;
	root = xa_to_node(xa->head);
	if ((index >> root->shift) > XA_CHUNK_MASK)
		return NULL;
	return find_in(root, 0, index);
}

static void destroy_node(struct xarray *xa, struct xa_node *n)
{
	unsigned i;

	if (n->shift)
		for (i = 0; i < XA_CHUNK_SIZE; i++)
			if (xa_is_node(n->slots[i]))
				destroy_node(xa, xa_to_node(n->slots[i]));
	node_free(xa, n);
}

void xa_destroy(struct xarray *xa)
{
	if (xa_is_node(xa->head))
		destroy_node(xa, xa_to_node(xa->head));
	xa->head = 0;
	xa->hint = NULL;
}

/*
 * The cursor (struct xa_state).  Besides a real node it can be FRESH
 * (never walked: the first step loads the index itself), OUTSIDE (beyond
 * the tree) or ROOT (on a root that is a single direct entry).
 */
enum xas_where { XAS_FRESH, XAS_OUTSIDE, XAS_ROOT, XAS_NODE };

struct xa_state {
	const struct xarray *xa;
	uint64_t index;
	const struct xa_node *node;
	unsigned offset;
	enum xas_where where;
};

static xa_entry xas_load(struct xa_state *xas)
{
	xa_entry e = xas->xa->head;

	if (!xa_is_node(e)) {
		if (xas->index) {
			xas->where = XAS_OUTSIDE;
			return 0;
		}
		xas->where = XAS_ROOT;
		return e;
	}
	if ((xas->index >> xa_to_node(e)->shift) > XA_CHUNK_MASK) {
		xas->where = XAS_OUTSIDE;
		return 0;
	}
	xas->where = XAS_ROOT;
	while (xa_is_node(e)) {
		const struct xa_node *node = xa_to_node(e);
		unsigned off = slot_of(node, xas->index);

		e = node->slots[off];
		xas->node = node;
		xas->where = XAS_NODE;
		if (xa_is_sibling(e)) {
			/*
			 * The cursor stays on the head slot while the index
			 * is inside the folio: this is the lag of Appendix A.
			 */
			off = xa_sibling_offset(e);
			e = node->slots[off];
		}
		xas->offset = off;
		if (!node->shift)
			break;
	}
	return e;
}

/* Descend from the current slot to the entry that covers xas->index. */
static xa_entry xas_descend_here(struct xa_state *xas)
{
	for (;;) {
		xa_entry e = xas->node->slots[xas->offset];

		if (!xa_is_node(e) || !xas->node->shift)
			return e;
		xas->node = xa_to_node(e);
		xas->offset = slot_of(xas->node, xas->index);
	}
}

static xa_entry xas_next(struct xa_state *xas)
{
	if (xas->where == XAS_NODE && !xas->node->shift &&
	    xas->offset != XA_CHUNK_MASK) {
		xas->index++;
		xas->offset++;
		return xas->node->slots[xas->offset];
	}
	if (xas->where != XAS_FRESH)
		xas->index++;
	if (xas->where == XAS_ROOT) {
		xas->where = XAS_OUTSIDE;
		return 0;
	}
	if (xas->where != XAS_NODE)
		return xas_load(xas);
	if (xas->offset != slot_of(xas->node, xas->index))
		xas->offset++;
	while (xas->offset == XA_CHUNK_SIZE) {
		xas->offset = xas->node->offset + 1u;
		xas->node = xas->node->parent;
		if (!xas->node) {
			xas->where = XAS_OUTSIDE;
			return 0;
		}
	}
	return xas_descend_here(xas);
}

static xa_entry xas_prev(struct xa_state *xas)
{
	if (xas->where == XAS_NODE && !xas->node->shift && xas->offset) {
		xas->index--;
		xas->offset--;
		return xas->node->slots[xas->offset];
	}
	if (xas->where != XAS_FRESH)
		xas->index--;
	if (xas->where == XAS_ROOT) {
		xas->where = XAS_OUTSIDE;
		return 0;
	}
	if (xas->where != XAS_NODE)
		return xas_load(xas);
	/* The kernel's offset is 8 bits wide: 0 - 1 wraps to 255. */
	if (xas->offset != slot_of(xas->node, xas->index))
		xas->offset = (xas->offset - 1u) & 0xff;
	while (xas->offset == 0xff) {
		xas->offset = (xas->node->offset - 1u) & 0xff;
		xas->node = xas->node->parent;
		if (!xas->node) {
			xas->where = XAS_OUTSIDE;
			return 0;
		}
	}
	return xas_descend_here(xas);
}

static inline bool is_miss(xa_entry e)
{
	return !e || xa_is_value(e);
}

uint64_t xa_next_miss(const struct xarray *xa, uint64_t index,
		      uint64_t max_scan)
{
	struct xa_state xas = { .xa = xa, .index = index, .where = XAS_FRESH };
	uint64_t n;

	for (n = 0; n < max_scan; n++) {
		xa_entry e = xas_next(&xas);

		if (is_miss(e))
			return xas.index;
		if (xas.index == 0)
			return 0;
	}
	return index + max_scan;
}

uint64_t xa_prev_miss(const struct xarray *xa, uint64_t index,
		      uint64_t max_scan)
{
	struct xa_state xas = { .xa = xa, .index = index, .where = XAS_FRESH };
	uint64_t n;

	for (n = 0; n < max_scan; n++) {
		xa_entry e = xas_prev(&xas);

		if (is_miss(e) || xas.index == UINT64_MAX)
			break;
	}
	return xas.index;
}
