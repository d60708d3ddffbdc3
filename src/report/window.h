/* SPDX-License-Identifier: MIT */
/*
 * window.h - readahead windows from the event stream, counted the same way
 * for the model (sim.c) and for a kernel recording (recorder.c), so that
 * the window histograms of the two can be compared.
 *
 * A window is what one readahead call submits: page_cache_ra_order's size,
 * or page_cache_ra_unbounded's nr_to_read when it is a call of its own
 * (the order-0 paths, fadvise, readahead(2)).  An ra_unbounded that follows
 * an ra_order within the same sync/async call is the fallback for the rest
 * of that window, not a new one:
 *
 *   sync_ra  ra_order(size=64) ... ra_unbounded(nr_to_read=48)
 *            \________________ one window of 64 __________/
 */
#ifndef RALAB_REPORT_WINDOW_H
#define RALAB_REPORT_WINDOW_H

#include <stdbool.h>

#include "ralab.h"

/* The bucket of ralab_stats.ra_window_hist for a window of @pages. */
static inline unsigned ra_window_bucket(uint64_t pages)
{
	/* floor(log2(pages)), as the kernel's __fls(); @pages is not 0. */
	unsigned k = 63u - (unsigned)__builtin_clzll(pages);

	return k < RALAB_WIN_BUCKETS ? k : RALAB_WIN_BUCKETS - 1;
}

/* Account @ev in @st->ra_window_hist; @ws as ralab_event_window(). */
static inline void ra_window_account(struct ralab_stats *st,
				     const struct ralab_event *ev,
				     struct ralab_window_state *ws)
{
	uint64_t pages = ralab_event_window(ev, ws);

	if (pages)
		st->ra_window_hist[ra_window_bucket(pages)]++;
}

#endif
