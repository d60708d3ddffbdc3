/* SPDX-License-Identifier: MIT */
/*
 * sim.h - one simulated machine: a file, its page cache, its open file
 * and the block queue below it.
 */
#ifndef RALAB_SIM_H
#define RALAB_SIM_H

#include "block/blk.h"
#include "cache/pagecache.h"
#include "policy/policy.h"
#include "ralab.h"

#define FOLIO_BATCH_SIZE 31 /* PAGEVEC_SIZE */
#define MAX_RW_COUNT 0x7ffff000ull /* INT_MAX & PAGE_MASK */

/* struct file: one open file description. */
struct sim_file {
	struct file_ra_state ra;
	unsigned f_mode;
	int64_t f_pos;
};

struct sim {
	struct ralab_config cfg;
	const struct ralab_policy_ops *policy;
	struct page_cache pc;
	struct blk_queue q;
	struct ra_mapping mapping;
	uint64_t s_maxbytes;
	struct ralab_stats *st;
	ralab_event_fn on_event;
	void *event_arg;

	/* Folios added since the last read_pages(), in order. */
	struct folio **batch;
	struct blk_vec *vecs;
	unsigned nr_batch, cap_batch;

	struct sim_file file;
};

int sim_init(struct sim *s, const struct ralab_config *cfg,
	     const struct ralab_policy_ops *policy, struct ralab_stats *st,
	     ralab_event_fn on_event, void *event_arg);
void sim_destroy(struct sim *s);
void sim_file_open(struct sim *s, struct sim_file *f);

/* filemap.c: read(2)/pread(2) of @count bytes at @pos; bytes read. */
uint64_t filemap_read(struct sim *s, struct sim_file *f, int64_t pos,
		      uint64_t count);

#endif
