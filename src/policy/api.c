// SPDX-License-Identifier: MIT
/*
 * api.c - readahead decisions for a cache of the caller's own
 * (ralab_ra_*() in ralab.h).
 *
 * The policies already see the page cache only through struct
 * ra_mapping_ops; this file adapts the public struct ralab_cache_ops to
 * it, adding the two gap scans (page_cache_next_miss/prev_miss) on top of
 * the caller's @present, with the kernel's wrap-around rules but without
 * its XArray cursor quirk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

struct ralab_ra {
	struct file_ra_state ra;
	struct ra_mapping mapping;
	const struct ralab_policy_ops *policy;
	unsigned long patches;
	const struct ralab_cache_ops *ops; /* the caller's, borrowed */
	void *ctx;
};

/* page_cache_next_miss(): the first absent page from @index on. */
static pgoff_t api_next_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct ralab_ra *ra = m;
	pgoff_t i = index;
	unsigned long n;

	for (n = 0; n < max_scan; n++, i++) {
		if (!ra->ops->present(ra->ctx, i))
			return i;
		if (i == RA_ULONG_MAX) /* the next step wraps to 0 */
			return 0;
	}
	return index + max_scan;
}

/*
 * page_cache_prev_miss(): the first absent page from @index down; past
 * page 0 the scan wraps to ULONG_MAX; with no gap, the last page examined.
 */
static pgoff_t api_prev_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct ralab_ra *ra = m;
	pgoff_t i = index;
	unsigned long n;

	for (n = 0; n < max_scan; n++) {
		if (n && --i == RA_ULONG_MAX)
			return i;
		if (!ra->ops->present(ra->ctx, i))
			return i;
	}
	return i;
}

static bool api_present(void *m, pgoff_t index)
{
	struct ralab_ra *ra = m;

	return ra->ops->present(ra->ctx, index);
}

static int api_add_folio(void *m, pgoff_t index, unsigned order, bool mark)
{
	struct ralab_ra *ra = m;

	return ra->ops->add_folio(ra->ctx, index, order, mark);
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
	unsigned long patches = 0;
	struct ralab_ra *ra;
	unsigned i;

	*out = NULL;
	if (!ops || !ops->present || !ops->add_folio || !ops->read_pages ||
	    !ops->clear_readahead || p->max_order > RALAB_MAX_ORDER)
		return -EINVAL;
	policy = ralab__policy_find(p->policy);
	if (!policy)
		return -ENOENT;
	for (i = 0; i < p->nr_patches; i++) {
		const struct ralab_patch *pt = ralab__patch_find(p->patches[i]);

		if (!pt)
			return -ENOENT;
		if (strcmp(pt->policy, policy->name))
			return -EINVAL;
		patches |= 1ul << (pt->bit - 1);
	}
	ra = calloc(1, sizeof(*ra));
	if (!ra)
		return -ENOMEM;
	ra->policy = policy;
	ra->patches = patches;
	ra->ops = ops;
	ra->ctx = ctx;
	/* file_ra_state_init(): the bdi's window, no previous read. */
	ra->ra.ra_pages = p->read_ahead_kb / (RALAB_PAGE_SIZE / 1024);
	ra->ra.prev_pos = -1;
	ra->mapping = (struct ra_mapping){
		.ops = &api_mapping_ops,
		.priv = ra,
		.i_size = p->i_size,
		.min_order = 0,
		.max_order = p->max_order,
		.large_folios = p->max_order > 0,
		.io_pages = p->max_sectors_kb / (RALAB_PAGE_SIZE / 1024),
	};
	*out = ra;
	return 0;
}

void ralab_ra_destroy(struct ralab_ra *ra)
{
	free(ra);
}

static struct readahead_control api_ractl(struct ralab_ra *ra, pgoff_t index)
{
	struct readahead_control ractl = {
		.mapping = &ra->mapping,
		.ra = &ra->ra,
		.has_file = true,
		._index = index,
		.patches = ra->patches,
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
