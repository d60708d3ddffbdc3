// SPDX-License-Identifier: MIT
/*
 * api.c - readahead decisions for a cache of the caller's own
 * (ralab_ra_*() in ralab.h).
 *
 * The policies already see the page cache only through struct
 * ra_mapping_ops; this file adapts the public struct ralab_cache_ops to
 * it.  The gap scans (page_cache_next_miss/prev_miss) depend on the shape
 * of the kernel's XArray, so the shape of the caller's cache is kept here
 * in ralab's XArray model: folios added through add_folio go in when the
 * caller accepts them, and the caller reports the ones it adds or drops
 * by itself.
 */
#include <errno.h>
#include <stdlib.h>

#include "cache/xarray.h"
#include "policy/policy.h"

struct ralab_ra {
	struct file_ra_state ra;
	struct ra_mapping mapping;
	const struct ralab_policy_ops *policy;
	unsigned long patches;
	const struct ralab_cache_ops *ops; /* the caller's, borrowed */
	void *ctx;
	unsigned f_mode;          /* FMODE_RANDOM, FMODE_NOREUSE */
	unsigned long bdi_ra_pages; /* read_ahead_kb, for FADV_NORMAL */
	/*
	 * Which pages hold which folios.  An entry points at tag[order]: the
	 * order of each folio is known, so a removal can be checked.
	 */
	struct xarray shape;
	uint64_t tag[RALAB_MAX_ORDER + 1];
};

static pgoff_t api_next_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct ralab_ra *ra = m;

	return xa_next_miss(&ra->shape, index, max_scan);
}

static pgoff_t api_prev_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct ralab_ra *ra = m;

	return xa_prev_miss(&ra->shape, index, max_scan);
}

static bool api_present(void *m, pgoff_t index)
{
	struct ralab_ra *ra = m;

	return xa_load(&ra->shape, index) != NULL;
}

/*
 * filemap_add_folio(): the range must be free; the folio goes into the
 * shape first (that may need memory), then to the caller, and out again if
 * the caller cannot take it.
 */
static int api_add_folio(void *m, pgoff_t index, unsigned order, bool mark)
{
	struct ralab_ra *ra = m;
	int err;

	if (!xa_range_empty(&ra->shape, index, order))
		return -EEXIST;
	if (xa_store_order(&ra->shape, index, order, &ra->tag[order]))
		return -ENOMEM;
	err = ra->ops->add_folio(ra->ctx, index, order, mark);
	if (err) {
		xa_erase_order(&ra->shape, index, order);
		return err == -EEXIST ? -EEXIST : -ENOMEM;
	}
	return 0;
}

static void api_read_pages(void *m)
{
	struct ralab_ra *ra = m;

	ra->ops->read_pages(ra->ctx);
}

static void api_clear_readahead(void *m, pgoff_t index)
{
	struct ralab_ra *ra = m;

	ra->ops->clear_readahead(ra->ctx, index);
}

static void api_trace(void *m, const struct ralab_event *ev)
{
	struct ralab_ra *ra = m;

	if (ra->ops->event)
		ra->ops->event(ra->ctx, ev);
}

static const struct ra_mapping_ops api_mapping_ops = {
	.next_miss = api_next_miss,
	.prev_miss = api_prev_miss,
	.present = api_present,
	.add_folio = api_add_folio,
	.read_pages = api_read_pages,
	.clear_readahead = api_clear_readahead,
	.trace = api_trace,
};

int ralab_ra_create(const struct ralab_ra_params *p,
		    const struct ralab_cache_ops *ops, void *ctx,
		    struct ralab_ra **out)
{
	const struct ralab_policy_ops *policy;
	unsigned long patches;
	struct ralab_ra *ra;
	int err;

	*out = NULL;
	if (!ops || !ops->add_folio || !ops->read_pages ||
	    !ops->clear_readahead || p->max_order > RALAB_MAX_ORDER ||
	    p->min_order > 4 || p->min_order > p->max_order)
		return -EINVAL;
	err = ralab__policy_resolve(p->policy, p->patches, p->nr_patches,
				    &policy, &patches);
	if (err)
		return err;
	if (p->min_order && (policy->flags & RA_POLICY_NO_MIN_ORDER))
		return -EOPNOTSUPP;
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return -ENOMEM;
	ra->policy = policy;
	ra->patches = patches;
	ra->ops = ops;
	ra->ctx = ctx;
	/* file_ra_state_init(): the bdi's window, no previous read. */
	ra->bdi_ra_pages = p->read_ahead_kb / (RALAB_PAGE_SIZE / 1024);
	ra->ra.ra_pages = (unsigned)ra->bdi_ra_pages;
	ra->ra.prev_pos = -1;
	ra->mapping = (struct ra_mapping){
		.ops = &api_mapping_ops,
		.priv = ra,
		.i_size = p->i_size,
		.min_order = p->min_order,
		.max_order = p->max_order,
		.large_folios = p->max_order > 0,
		.io_pages = p->max_sectors_kb / (RALAB_PAGE_SIZE / 1024),
	};
	*out = ra;
	return 0;
}

void ralab_ra_destroy(struct ralab_ra *ra)
{
	if (!ra)
		return;
	xa_destroy(&ra->shape);
	free(ra);
}

static struct readahead_control api_ractl(struct ralab_ra *ra, pgoff_t index)
{
	struct readahead_control ractl = {
		.mapping = &ra->mapping,
		.ra = &ra->ra,
		.f_mode = ra->f_mode,
		.has_file = true,
		._index = index,
		.patches = ra->patches,
		.no_order1 = ra->policy->flags & RA_POLICY_NO_ORDER1,
	};

	return ractl;
}

void ralab_ra_sync(struct ralab_ra *ra, uint64_t index, uint64_t nr)
{
	struct readahead_control ractl = api_ractl(ra, index);

	ra->policy->sync_ra(&ractl, (unsigned long)nr);
}

void ralab_ra_async(struct ralab_ra *ra, uint64_t index, unsigned order,
		    uint64_t nr)
{
	struct readahead_control ractl = api_ractl(ra, index);
	struct ra_folio folio = { .index = index, .order = order };

	ra->policy->async_ra(&ractl, &folio, (unsigned long)nr);
}

void ralab_ra_read_done(struct ralab_ra *ra, uint64_t pos)
{
	ra->ra.prev_pos = (int64_t)pos;
}

int ralab_ra_fadvise(struct ralab_ra *ra, int64_t offset, int64_t len,
		     int advice)
{
	struct readahead_control ractl = api_ractl(ra, 0);

	return ra_fadvise(&ractl, &ra->f_mode, ra->bdi_ra_pages, offset, len,
			  advice);
}

int ralab_ra_folio_added(struct ralab_ra *ra, uint64_t index, unsigned order)
{
	/* No folio smaller than a block: readahead relies on it. */
	if (order > RALAB_MAX_ORDER || order < ra->mapping.min_order ||
	    (index & ((1ull << order) - 1)))
		return -EINVAL;
	if (!xa_range_empty(&ra->shape, index, order))
		return -EEXIST;
	return xa_store_order(&ra->shape, index, order, &ra->tag[order]) ?
		       -ENOMEM : 0;
}

int ralab_ra_folio_removed(struct ralab_ra *ra, uint64_t index,
			   unsigned order)
{
	/* A folio of this order covering an index aligned to it starts there. */
	if (order > RALAB_MAX_ORDER || (index & ((1ull << order) - 1)) ||
	    xa_load(&ra->shape, index) != &ra->tag[order])
		return -ENOENT;
	xa_erase_order(&ra->shape, index, order);
	return 0;
}

void ralab_ra_set_size(struct ralab_ra *ra, uint64_t i_size)
{
	ra->mapping.i_size = i_size;
}

bool ralab_ra_cached(struct ralab_ra *ra, uint64_t index)
{
	return xa_load(&ra->shape, index) != NULL;
}
