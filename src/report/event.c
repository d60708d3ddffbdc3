// SPDX-License-Identifier: MIT
/*
 * event.c - events in the kernel's trace text (without the line prefix
 * and without the dev/ino fields), so that ralab's output and a recording
 * of the real kernel can be compared line by line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ralab.h"

static int event_text(const struct ralab_event *ev, char *buf, size_t len)
{
	switch (ev->type) {
	case RALAB_EV_SYNC_RA:
	case RALAB_EV_ASYNC_RA: {
		/* Recorded by kprobes before 6.17: no ra->order to print. */
		char order[24] = "";

		if (ev->order != RALAB_ORDER_UNKNOWN)
			snprintf(order, sizeof(order), " order=%u", ev->order);
		return snprintf(buf, len,
				"%s: index=%llu req_count=%llu%s size=%u async_size=%u ra_pages=%u mmap_miss=%u prev_pos=%lld",
				ev->type == RALAB_EV_SYNC_RA ?
					"page_cache_sync_ra" :
					"page_cache_async_ra",
				(unsigned long long)ev->index,
				(unsigned long long)ev->req_count, order,
				ev->size, ev->async_size, ev->ra_pages,
				ev->mmap_miss, (long long)ev->prev_pos);
	}
	case RALAB_EV_RA_ORDER:
		return snprintf(buf, len,
				"page_cache_ra_order: index=%llu order=%u size=%u async_size=%u ra_pages=%u",
				(unsigned long long)ev->index, ev->order,
				ev->size, ev->async_size, ev->ra_pages);
	case RALAB_EV_RA_UNBOUNDED:
		return snprintf(buf, len,
				"page_cache_ra_unbounded: index=%llu nr_to_read=%llu lookahead_size=%llu",
				(unsigned long long)ev->index,
				(unsigned long long)ev->nr_to_read,
				(unsigned long long)ev->lookahead_size);
	case RALAB_EV_ADD_FOLIO:
		return snprintf(buf, len,
				"mm_filemap_add_to_page_cache: ofs=%llu order=%u",
				(unsigned long long)ev->ofs, ev->order);
	case RALAB_EV_RQ_ISSUE:
		return snprintf(buf, len, "block_rq_issue: %s %llu %llu + %u",
				ev->readahead ? "RA" : ev->sync ? "RS" : "R",
				(unsigned long long)ev->nr_sectors * 512,
				(unsigned long long)ev->sector,
				ev->nr_sectors);
	}
	return snprintf(buf, len, "unknown_event");
}

int ralab_event_format(const struct ralab_event *ev, char *buf, size_t len)
{
	int n = event_text(ev, buf, len);

	/* Several jobs: which one, so that a diff can compare job by job. */
	if (ev->job && n >= 0)
		n += snprintf((size_t)n < len ? buf + n : NULL,
			      (size_t)n < len ? len - (size_t)n : 0,
			      " job=%s", ev->job);
	return n;
}

/*
 * @ws's flag for @ev's job (a new slot for a job not seen yet).  Out of
 * line: a single job's events, nearly all, take no frame for it (make
 * bench, instructions per read).
 */
static __attribute__((noinline)) bool *
job_flag(struct ralab_window_state *ws, const struct ralab_event *ev)
{
	unsigned i;

	for (i = 0; i < ws->nr_jobs; i++)
		if (ws->job[i] == ev->job || !strcmp(ws->job[i], ev->job))
			return &ws->in_order[i + 1];
	if (ws->nr_jobs == RALAB_MAX_JOBS)
		return &ws->in_order[0];
	ws->job[ws->nr_jobs] = ev->job;
	return &ws->in_order[++ws->nr_jobs];
}

/* What a window is: see src/report/window.h. */
uint64_t ralab_event_window(const struct ralab_event *ev,
			    struct ralab_window_state *ws)
{
	bool *in_order = ev->job ? job_flag(ws, ev) : &ws->in_order[0];

	switch (ev->type) {
	case RALAB_EV_SYNC_RA:
	case RALAB_EV_ASYNC_RA:
		*in_order = false;
		return 0;
	case RALAB_EV_RA_ORDER:
		*in_order = true;
		return ev->size;
	case RALAB_EV_RA_UNBOUNDED:
		return *in_order ? 0 : ev->nr_to_read;
	default:
		return 0;
	}
}
