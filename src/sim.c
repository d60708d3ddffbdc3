// SPDX-License-Identifier: MIT
/*
 * sim.c - wiring: the page cache and block queue seen through
 * struct ra_mapping_ops, and the runner that plays a workload's ops.
 */
#include "sim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/window.h"
#include "workload/workload.h"

/* ext4 with 4 KiB blocks: 2^32 - 1 blocks; XFS: MAX_LFS_FILESIZE. */
#define EXT4_S_MAXBYTES 17592186040320ull

/*
 * @ev as the run reports it: in a workload of several jobs, which
 * interleave by timing, tagged with the running job (a copy in @buf).
 */
static const struct ralab_event *tag(const struct sim *s,
				     const struct ralab_event *ev,
				     struct ralab_event *buf)
{
	if (s->nr_jobs < 2 || !s->cur || !s->cur->job || s->kblockd)
		return ev;
	*buf = *ev;
	buf->job = s->cur->job->def->name;
	return buf;
}

void sim_emit(struct sim *s, const struct ralab_event *ev)
{
	struct ralab_event buf;

	if (s->on_event)
		s->on_event(s->event_arg, tag(s, ev, &buf));
}

void sim_folio_added(struct sim *s, struct folio *f)
{
	pgoff_t index = f->index;
	unsigned order = f->order;
	uint64_t k = s->nr_added++;

	if (k < s->nr_fmem && s->fmem[k].ofs == index * RALAB_PAGE_SIZE &&
	    s->fmem[k].order == order) {
		f->pfn = s->fmem[k].pfn;
	} else {
		f->pfn = s->next_pfn;
		s->next_pfn += (1ull << order) + !s->cfg.phys_merge;
	}
	s->st->folios[order]++;
	s->st->pages_added += 1ull << order;
	if (s->on_event) {
		struct ralab_event ev = {
			.type = RALAB_EV_ADD_FOLIO,
			.ofs = index * RALAB_PAGE_SIZE,
			.order = order,
		};

		sim_emit(s, &ev);
	}
}

static pgoff_t m_next_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct sim_inode *in = m;

	return xa_next_miss(&in->pc.i_pages, index, max_scan);
}

static pgoff_t m_prev_miss(void *m, pgoff_t index, unsigned long max_scan)
{
	struct sim_inode *in = m;

	return xa_prev_miss(&in->pc.i_pages, index, max_scan);
}

static bool m_present(void *m, pgoff_t index)
{
	struct sim_inode *in = m;

	return pc_lookup(&in->pc, index) != NULL;
}

static int grow_batch(struct sim_worker *w)
{
	unsigned cap = w->cap_batch ? w->cap_batch * 2 : 64;
	struct folio **b = realloc(w->batch, cap * sizeof(*b));
	struct blk_vec *v;
	uint64_t *d;

	if (!b)
		return -ENOMEM;
	w->batch = b;
	v = realloc(w->vecs, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	w->vecs = v;
	d = realloc(w->done, cap * sizeof(*d));
	if (!d)
		return -ENOMEM;
	w->done = d;
	w->cap_batch = cap;
	return 0;
}

/* The chunk holding page @p, allocated if need be; NULL: overflow set. */
static uint64_t *used_chunk(struct used_map *u, uint64_t p)
{
	uint64_t c = p / USED_CHUNK_PAGES;

	if (c >= u->nr_chunks) {
		uint64_t n = c + 1 > 2 * u->nr_chunks ? c + 1
						      : 2 * u->nr_chunks;
		uint64_t **nc;

		if (n > USED_MAX_CHUNKS ||
		    !(nc = realloc(u->chunk, n * sizeof(*nc)))) {
			u->overflow = true;
			return NULL;
		}
		memset(nc + u->nr_chunks, 0, (n - u->nr_chunks) * sizeof(*nc));
		u->chunk = nc;
		u->nr_chunks = n;
	}
	if (!u->chunk[c] && !(u->chunk[c] = calloc(USED_CHUNK_PAGES / 64, 8)))
		u->overflow = true;
	return u->chunk[c];
}

/* A word at a time: a 1 MiB read marks 4 words, not 256 bits. */
void used_mark_slow(struct used_map *u, uint64_t first, uint64_t last)
{
	uint64_t p = first, *chunk = NULL;

	if (u->overflow)
		return;
	while (p <= last) {
		uint64_t bit = p % USED_CHUNK_PAGES, lo = bit % 64;
		uint64_t hi = last - p < 63 - lo ? lo + (last - p) : 63;

		if (!chunk || !bit) {
			chunk = used_chunk(u, p);
			if (!chunk)
				return;
		}
		chunk[bit / 64] |= (~0ull >> (63 - hi)) & (~0ull << lo);
		u->word = &chunk[bit / 64];
		u->word_base = p - lo;
		p += hi - lo + 1;
	}
}

/* Pages of [first, first + n) that were read, counted a word at a time. */
static uint64_t used_count(const struct used_map *u, uint64_t first,
			   uint64_t n)
{
	uint64_t used = 0;

	while (n) {
		uint64_t c = first / USED_CHUNK_PAGES, bit = first % USED_CHUNK_PAGES;
		uint64_t in_word = 64 - bit % 64, take = n < in_word ? n : in_word;

		if (c < u->nr_chunks && u->chunk[c]) {
			uint64_t w = u->chunk[c][bit / 64] >> (bit % 64);

			if (take < 64)
				w &= (1ull << take) - 1;
			used += (uint64_t)__builtin_popcountll(w);
		}
		first += take;
		n -= take;
	}
	return used;
}

static void used_free(struct used_map *u)
{
	uint64_t c;

	for (c = 0; c < u->nr_chunks; c++)
		free(u->chunk[c]);
	free(u->chunk);
	memset(u, 0, sizeof(*u));
}

/* Readahead pages still cached and never read by the application. */
static void count_unused(struct sim *s, struct sim_inode *in)
{
	struct page_cache *pc = &in->pc;
	uint32_t n;

	if (in->used.overflow || s->st->ra_pages_unused == UINT64_MAX) {
		s->st->ra_pages_unused = UINT64_MAX;
		return;
	}
	for (n = 0; n < pc->nr_used; n++) {
		struct folio *f = &pc->chunks[n / FOLIO_CHUNK][n % FOLIO_CHUNK];

		if ((f->flags & (PG_uptodate | PG_from_ra)) !=
		    (PG_uptodate | PG_from_ra))
			continue;
		s->st->ra_pages_unused +=
			folio_nr_pages(f) -
			used_count(&in->used, f->index, folio_nr_pages(f));
	}
}

/*
 * Does this readahead allocation fail (config alloc_fail_*)?  The draw is
 * splitmix64 over the run's own state: the same case and seed fail the
 * same allocations.
 */
static bool alloc_fails(struct sim *s, unsigned order)
{
	uint64_t z;

	if (!s->cfg.alloc_fail_ppm || order < s->cfg.alloc_fail_order)
		return false;
	z = (s->alloc_rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z % 1000000 < s->cfg.alloc_fail_ppm;
}

static int m_add_folio(void *m, pgoff_t index, unsigned order, bool mark)
{
	struct sim_inode *in = m;
	struct sim *s = in->sim;
	struct sim_worker *w;
	struct folio *f;
	int err;

	/*
	 * Allocation takes time, and another thread may run meanwhile: it
	 * sees the window already in file_ra_state but not this folio.
	 */
	sim_spend(s, s->cfg.cpu_folio_ns);
	w = s->cur;
	/* As filemap_alloc_folio() fails before filemap_add_folio() looks. */
	if (alloc_fails(s, order)) {
		s->st->alloc_failures++;
		return -ENOMEM;
	}
	if (w->nr_batch == w->cap_batch && grow_batch(w))
		err = -ENOMEM;
	else
		err = pc_add_folio(&in->pc, index, order,
				   PG_locked | PG_from_ra |
				   (mark ? PG_readahead : 0) |
				   ((w->call_how & CALL_DONTCACHE) ?
					    PG_dropbehind : 0), &f);
	if (err == -ENOMEM)
		s->host_err = err;
	if (err)
		return err;
	f->added_ns = w->now;
	f->added_call = w->call;
	s->st->ra_pages += 1ull << order;
	sim_folio_added(s, f);
	w->batch[w->nr_batch++] = f;
	return 0;
}

/* read_pages(): ->readahead for the batch, in one plug. */
static void m_read_pages(void *m)
{
	struct sim_inode *in = m;
	const struct blk_layout *lay;
	struct sim *s = in->sim;
	struct sim_worker *w = s->cur;
	uint64_t before = s->st->data_reads;
	unsigned i;

	if (!w->nr_batch)
		return;
	for (i = 0; i < w->nr_batch; i++) {
		struct folio *f = w->batch[i];

		w->vecs[i].sector = f->index * (RALAB_PAGE_SIZE / 512);
		w->vecs[i].bytes = RALAB_PAGE_SIZE << f->order;
		/* Where the folio before it ends in memory, it merges. */
		w->vecs[i].mem_next = i && f->pfn == w->batch[i - 1]->pfn +
			folio_nr_pages(w->batch[i - 1]);
	}
	lay = inode_layout(in);
	s->q.held = w->plug_held;
	if (!lay || blk_submit_read(&s->q, lay, w->vecs, w->nr_batch, true,
				    w->now, w->done)) {
		/* The host is out of memory: the run ends with -ENOMEM. */
		s->host_err = -ENOMEM;
		for (i = 0; i < w->nr_batch; i++)
			w->done[i] = w->now;
	}
	s->q.held = false;
	/* The data is there (the folio unlocked) when its request is done. */
	for (i = 0; i < w->nr_batch; i++) {
		struct folio *f = w->batch[i];

		f->done_ns = w->done[i];
		f->flags = (uint16_t)((f->flags & ~PG_locked) | PG_uptodate);
	}
	w->nr_batch = 0;
	if (w->plug_held)
		sim_plug_submitted(s, in);
	sim_spend(s, (s->st->data_reads - before) * s->cfg.cpu_request_ns);
}

/*
 * Requests of a held plug were issued (q->log): their folios, done at
 * BLK_DONE_HELD so far, are done when the request holding their last
 * sector is.
 */
static void plug_issued(struct sim *s, struct sim_inode *in, bool fresh)
{
	const struct blk_layout *lay = inode_layout(in);
	struct sim_worker *w = s->cur;
	unsigned i;

	if (fresh && w->fresh_call != w->call) {
		w->fresh_call = w->call;
		w->nr_fresh = 0;
	}
	for (i = 0; lay && i < s->q.nr_log; i++) {
		const struct blk_done *d = &s->q.log[i];
		uint64_t p = blk_file_sector(lay, d->sector) / 8;
		uint64_t last = blk_file_sector(lay, d->end - 1) / 8;
		uint64_t done = d->done;

		if (fresh && w->nr_fresh < BLK_PLUG_MAX_RQ) {
			w->fresh[w->nr_fresh].lo = p;
			w->fresh[w->nr_fresh++].hi = last + 1;
		}
		while (p <= last) {
			struct folio *f = pc_lookup(&in->pc, p);

			if (!f) {
				p++;
				continue;
			}
			if (f->done_ns == BLK_DONE_HELD &&
			    f->index + folio_nr_pages(f) - 1 <= last)
				f->done_ns = done;
			p = f->index + folio_nr_pages(f);
		}
	}
}

void sim_plug_start(struct sim *s)
{
	s->cur->plug_held = true;
	s->cur->plug_in = NULL;
}

void sim_plug_submitted(struct sim *s, struct sim_inode *in)
{
	/* One file per call: a plug left by another is issued first. */
	if (s->cur->plug_in && s->cur->plug_in != in)
		sim_plug_flush(s, false);
	s->cur->plug_in = in;
	/* Some may have left already (a full plug, blk_add_rq_to_plug()). */
	plug_issued(s, in, true);
}

bool sim_plug_fresh(const struct sim *s, const struct folio *f)
{
	const struct sim_worker *w = s->cur;
	unsigned i;

	if (w->fresh_call != w->call)
		return false;
	for (i = 0; i < w->nr_fresh; i++)
		if (f->index < w->fresh[i].hi &&
		    f->index + folio_nr_pages(f) > w->fresh[i].lo)
			return true;
	return false;
}

/*
 * Issue the plug's requests, which read @in, now.  blk_mq_flush_plug_list
 * (from_schedule): a sleeping task's requests are run from kblockd, not
 * from the task (@kblockd).
 */
static void plug_issue(struct sim *s, struct sim_inode *in, bool kblockd)
{
	s->kblockd = kblockd;
	blk_plug_flush(&s->q, inode_layout(in), s->cur->now);
	s->kblockd = false;
	plug_issued(s, in, false);
}

void sim_plug_flush(struct sim *s, bool sleep)
{
	if (s->cur->plug_in && s->q.plug_count)
		plug_issue(s, s->cur->plug_in, sleep);
}

/*
 * A folio another worker's readahead added and has not submitted yet
 * (PG_locked, in that worker's batch; it gave way while allocating the
 * next): locked until that worker submits it and its read is done.  The
 * waiter moves just past the owner's time and gives way, so that the
 * owner runs first (ties go to the lower number); it looks again after.
 */
bool sim_folio_lock_wait(struct sim *s, struct folio *f, bool late)
{
	unsigned i, k;

	if (f->flags & PG_locked) {
		for (i = 0; i < s->nr_workers; i++) {
			const struct sim_worker *o = &s->workers[i];
			uint64_t t;

			if (o == s->cur)
				continue;
			for (k = 0; k < o->nr_batch; k++)
				if (o->batch[k] == f)
					break;
			if (k == o->nr_batch)
				continue;
			t = (o->now > s->cur->now ? o->now : s->cur->now) + 1;
			sim_wait(s, t, late);
			return true;
		}
	}
	if (folio_ready(s, f))
		return false;
	sim_wait(s, f->done_ns, late);
	return true;
}

/* The latest completion among the requests q->log holds, or @t. */
static uint64_t log_done(const struct sim *s, uint64_t t)
{
	unsigned i;

	for (i = 0; i < s->q.nr_log; i++)
		if (s->q.log[i].done > t)
			t = s->q.log[i].done;
	return t;
}

uint64_t sim_plug_wait_held(struct sim *s)
{
	uint64_t t = s->cur->now;
	unsigned i;

	if (s->cur->plug_held && s->q.plug_count && s->cur->plug_in) {
		sim_plug_flush(s, true);
		t = log_done(s, t);
	}
	for (i = 0; i < s->nr_workers; i++) {
		struct sim_worker *o = &s->workers[i];

		if (o == s->cur || !o->plug_held || !o->plug_n ||
		    !o->plug_in || s->q.plug_count)
			continue;
		blk_plug_put(&s->q, o->plug_rq, o->plug_n);
		o->plug_n = 0;
		plug_issue(s, o->plug_in, true);
		t = log_done(s, t);
	}
	return t;
}

void sim_plug_finish(struct sim *s)
{
	sim_plug_flush(s, false);
	s->cur->plug_held = false;
	s->cur->plug_in = NULL;
}

static void m_clear_readahead(void *m, pgoff_t index)
{
	struct sim_inode *in = m;
	struct folio *f = pc_lookup(&in->pc, index);

	if (f)
		f->flags &= (uint16_t)~PG_readahead;
}

static void m_trace(void *m, const struct ralab_event *ev)
{
	struct sim_inode *in = m;
	struct sim *s = in->sim;
	struct ralab_event buf;

	switch (ev->type) {
	case RALAB_EV_SYNC_RA: s->st->sync_ra++; break;
	case RALAB_EV_ASYNC_RA: s->st->async_ra++; break;
	case RALAB_EV_RA_ORDER: s->st->ra_order++; break;
	case RALAB_EV_RA_UNBOUNDED: s->st->ra_unbounded++; break;
	default: break;
	}
	/* Tagged once, for the window count and the callback alike. */
	ev = tag(s, ev, &buf);
	ra_window_account(s->st, ev, &s->win);
	if (s->on_event)
		s->on_event(s->event_arg, ev);
}

static const struct ra_mapping_ops sim_mapping_ops = {
	.next_miss = m_next_miss,
	.prev_miss = m_prev_miss,
	.present = m_present,
	.add_folio = m_add_folio,
	.read_pages = m_read_pages,
	.clear_readahead = m_clear_readahead,
	.trace = m_trace,
};

static void blk_emit(void *arg, const struct ralab_event *ev)
{
	sim_emit(arg, ev);
}

int sim_init(struct sim *s, const struct ralab_config *cfg,
	     const uint64_t *sizes, unsigned nr_inodes,
	     const struct ralab_policy_ops *policy, struct ralab_stats *st,
	     ralab_event_fn on_event, void *event_arg)
{
	unsigned i;
	int err;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->policy = policy;
	s->read_pagewise = policy->flags & RA_POLICY_READ_PAGEWISE;
	s->st = st;
	s->on_event = on_event;
	s->event_arg = event_arg;
	/* Past any real page frame: a recorded folio never follows one. */
	s->next_pfn = 1ull << 52;
	s->alloc_rng = cfg->alloc_fail_seed;
	if (cfg->block_size > RALAB_PAGE_SIZE &&
	    (policy->flags & RA_POLICY_NO_MIN_ORDER))
		return -EOPNOTSUPP;
	err = blk_queue_setup(&s->q, cfg);
	if (!err)
		err = blk_queue_timing(&s->q, cfg);
	if (err)
		return err;
	s->q.st = st;
	s->q.emit = on_event ? blk_emit : NULL;
	s->q.emit_arg = s;
	s->q.plug_lifo = policy->flags & RA_POLICY_PLUG_LIFO;
	s->q.nomerges = policy->flags & RA_POLICY_LOOP_NOMERGES;
	s->batch_size = policy->flags & RA_POLICY_PAGEVEC15 ? 15
							  : FOLIO_BATCH_SIZE;
	s->s_maxbytes = cfg->fs == RALAB_FS_EXT4 ? EXT4_S_MAXBYTES
						 : (uint64_t)INT64_MAX;
	s->inodes = calloc(nr_inodes, sizeof(*s->inodes));
	if (!s->inodes)
		return -ENOMEM;
	s->nr_inodes = nr_inodes;
	for (i = 0; i < nr_inodes; i++) {
		struct sim_inode *in = &s->inodes[i];
		unsigned max_order = cfg->max_folio_order;
		unsigned min_order = ralab__min_order(cfg->block_size);

		if (cfg->fs == RALAB_FS_EXT4 &&
		    (policy->flags & RA_POLICY_EXT4_ORDER0))
			max_order = 0;
		in->sim = s;
		in->size = sizes[i];
		in->disk_size = sizes[i];
		pc_init(&in->pc);
		in->mapping = (struct ra_mapping){
			.ops = &sim_mapping_ops,
			.priv = in,
			.i_size = sizes[i],
			.min_order = min_order,
			.max_order = max_order,
			.large_folios = max_order > 0,
			.io_pages = s->q.io_pages,
		};
		if ((err = sim_set_layout(s, i, NULL, 0, NULL, 0)))
			return err;
	}
	return 0;
}

static void layout_free(struct blk_layout *l)
{
	free((void *)l->brk);
	free((void *)l->hole);
	*l = (struct blk_layout){ 0 };
}

/*
 * Holes in sectors, with the sectors of the space-less holes before each:
 * @hole in bytes; hole k keeps its space if @space and space[k] (no
 * @space: a file's own holes, none does).
 */
static int layout_holes(struct blk_layout *l, const uint64_t *hole,
			unsigned nh, const bool *space)
{
	uint64_t *h, *cum;
	unsigned k;

	if (!nh)
		return 0;
	if (nh > UINT32_MAX / 4)
		return -ENOMEM;
	h = malloc(((size_t)nh * 3 + 1) * sizeof(*h));
	if (!h)
		return -ENOMEM;
	cum = h + 2 * nh;
	cum[0] = 0;
	for (k = 0; k < nh; k++) {
		h[2 * k] = hole[2 * k] / 512;
		h[2 * k + 1] = hole[2 * k + 1] / 512;
		cum[k + 1] = cum[k] +
			     (space && space[k] ? 0 : h[2 * k + 1] - h[2 * k]);
	}
	l->hole = h;
	l->hcum = cum;
	l->nh = nh;
	return 0;
}

/* Room for @need values in *@p (capacity *@cap); false: out of memory. */
static bool grow_u64(uint64_t **p, unsigned *cap, size_t need)
{
	size_t n = *cap ? *cap : 8;
	uint64_t *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	if (n > UINT32_MAX)
		return false;
	q = realloc(*p, n * sizeof(*q));
	if (!q)
		return false;
	*p = q;
	*cap = (unsigned)n;
	return true;
}

/*
 * Bytes [a, b) of fresh inode @in hold no data any more (a punched hole,
 * whole blocks): cut out of its written ranges, one of which may split.
 */
void inode_unwritten(struct sim_inode *in, uint64_t a, uint64_t b)
{
	unsigned i, k;

	if (!in->fresh || a >= b)
		return;
	for (i = 0; i < in->nwr; i++) {
		if (in->wr[2 * i] < a && in->wr[2 * i + 1] > b) {
			/* Inside one range: it splits around the hole. */
			if (!grow_u64(&in->wr, &in->cap_wr,
				      2 * ((size_t)in->nwr + 1))) {
				in->sim->host_err = -ENOMEM;
				return;
			}
			memmove(&in->wr[2 * (i + 1)], &in->wr[2 * i],
				(in->nwr - i) * 2 * sizeof(*in->wr));
			in->nwr++;
			in->wr[2 * i + 1] = a;
			in->wr[2 * (i + 1)] = b;
			in->lay_stale = true;
			return;
		}
	}
	for (i = k = 0; i < in->nwr; i++) {
		uint64_t lo = in->wr[2 * i], hi = in->wr[2 * i + 1];

		if (lo < a && hi > a)
			hi = a;
		else if (lo < b && hi > b)
			lo = b;
		else if (lo >= a && hi <= b)
			continue;
		in->wr[2 * k] = lo;
		in->wr[2 * k++ + 1] = hi;
	}
	in->nwr = k;
	in->lay_stale = true;
}

bool inode_meets_own_hole(const struct sim_inode *in, uint64_t a, uint64_t b)
{
	const struct blk_layout *l = &in->lay;
	unsigned k;

	/*
	 * A truncated file's holes are tracked as written ranges, filled as
	 * it grows back; a punched one's would be allocated anywhere.
	 */
	if (in->fresh)
		return in->punched &&
		       !inode_blocks_held(in, a / RALAB_PAGE_SIZE,
					  (b + RALAB_PAGE_SIZE - 1) /
						  RALAB_PAGE_SIZE);
	for (k = 0; k < l->nh; k++) {
		/* Space-less: an own hole (a punched one keeps its space). */
		if (l->hcum[k + 1] != l->hcum[k] && l->hole[2 * k] * 512 < b &&
		    a < l->hole[2 * k + 1] * 512)
			return true;
	}
	return false;
}

void inode_written(struct sim_inode *in, uint64_t pos, uint64_t end)
{
	/* A block is written whole: a large block's zeroed rest too. */
	const uint64_t bs = inode_block_size(in);
	uint64_t a = pos & ~(bs - 1), b = (end + bs - 1) & ~(bs - 1);
	unsigned i = 0, j, lo = 0, hi = in->nwr;

	if (!in->fresh || a >= b)
		return;
	/* i: the first range ending at or after a (touching merges). */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (in->wr[2 * mid + 1] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;
	/* j: past the last range starting at or before b. */
	for (j = i; j < in->nwr && in->wr[2 * j] <= b; j++)
		;
	if (j > i) {
		/* Ranges i..j-1 merge into one. */
		if (in->wr[2 * i] < a)
			a = in->wr[2 * i];
		if (in->wr[2 * (j - 1) + 1] > b)
			b = in->wr[2 * (j - 1) + 1];
		if (in->wr[2 * i] == a && in->wr[2 * i + 1] == b && j == i + 1)
			return; /* nothing new */
		memmove(&in->wr[2 * (i + 1)], &in->wr[2 * j],
			(in->nwr - j) * 2 * sizeof(*in->wr));
		in->nwr -= j - i - 1;
	} else {
		if (!grow_u64(&in->wr, &in->cap_wr, 2 * (in->nwr + 1))) {
			in->sim->host_err = -ENOMEM;
			return;
		}
		memmove(&in->wr[2 * (i + 1)], &in->wr[2 * i],
			(in->nwr - i) * 2 * sizeof(*in->wr));
		in->nwr++;
	}
	in->wr[2 * i] = a;
	in->wr[2 * i + 1] = b;
	in->lay_stale = true;
}

/*
 * A fresh inode's holes are the gaps between its written ranges in->wr
 * (merged where they touch) and, past the last, up to its last block
 * (inode_layout_rebuild()); its extent breaks are the layout's own,
 * which writes do not change.  So the mapping at @s is found in in->wr
 * by a binary search: the range holding @s (data up to its end, where a
 * hole begins) or the gap holding it (a hole up to the next range).
 */
uint64_t inode_mapping_end(struct sim_inode *in, uint64_t s, bool *hole,
			   bool *oom)
{
	const struct blk_layout *l;
	uint64_t end, edge = UINT64_MAX, b = s * 512, eof;
	unsigned lo = 0, hi = in->nwr;
	bool h = false;

	*oom = false;
	if (!in->fresh || !in->lay_stale || b / 512 != s) {
		l = inode_layout(in);
		if (!l) {
			*oom = true;
			*hole = false;
			return UINT64_MAX;
		}
		return blk_mapping_end(l, s, hole);
	}
	end = blk_extent_end(&in->lay, s);
	/* The first range ending after @b. */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (in->wr[2 * mid + 1] <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	eof = block_end_page(in, in->size) * RALAB_PAGE_SIZE;
	if (lo < in->nwr && in->wr[2 * lo] <= b) {
		/* In data: a hole follows unless the file's blocks end. */
		if (lo + 1 < in->nwr || in->wr[2 * lo + 1] < in->size)
			edge = in->wr[2 * lo + 1];
	} else if (lo < in->nwr) {
		h = true;
		edge = in->wr[2 * lo];
	} else if ((!in->nwr || in->wr[2 * in->nwr - 1] < in->size) &&
		   b < eof) {
		h = true;
		edge = eof;
	}
	*hole = h;
	if (edge != UINT64_MAX && edge / 512 < end)
		end = edge / 512;
	return end;
}

/*
 * Gap [@a, @b) of a fresh inode's written ranges as holes at @h (@space
 * per hole, *@nh of them so far): its own holes there (in->own from *@j
 * on, ascending) space-less, the rest keeping its space.
 */
static void gap_holes(const struct sim_inode *in, uint64_t a, uint64_t b,
		      unsigned *j, uint64_t *h, bool *space, unsigned *nh)
{
	while (*j < in->nown && in->own[2 * *j + 1] <= a)
		++*j;
	while (a < b) {
		bool more = *j < in->nown;
		uint64_t os = more ? in->own[2 * *j] : b;
		uint64_t oe = more ? in->own[2 * *j + 1] : b;
		bool own = more && os <= a;
		uint64_t e = own ? oe : os;

		if (e > b)
			e = b;
		h[2 * *nh] = a;
		h[2 * *nh + 1] = e;
		space[(*nh)++] = !own;
		a = e;
		if (own && oe <= a)
			++*j;
	}
}

const struct blk_layout *inode_layout_rebuild(struct sim_inode *in)
{
	uint64_t *h;
	bool *space;
	unsigned k, j = 0, nh = 0;
	/* Each gap, cut by own holes: at most 2 * nown + 1 pieces more. */
	size_t max = (size_t)in->nwr + 1 + 2 * (size_t)in->nown;
	uint64_t at = 0;
	int err;

	h = malloc(max * (2 * sizeof(*h) + sizeof(*space)));
	if (!h) {
		in->sim->host_err = -ENOMEM;
		return NULL;
	}
	space = (bool *)(h + 2 * max);
	for (k = 0; k < in->nwr; k++) {
		if (in->wr[2 * k] > at)
			gap_holes(in, at, in->wr[2 * k], &j, h, space, &nh);
		at = in->wr[2 * k + 1];
	}
	/*
	 * Past the last write: a hole up to where the file's blocks end,
	 * its last block whole (the read of the EOF block is a block's).
	 */
	if (at < in->size)
		gap_holes(in, at, block_end_page(in, in->size) * RALAB_PAGE_SIZE,
			  &j, h, space, &nh);
	free((void *)in->lay.hole);
	in->lay.hole = in->lay.hcum = NULL;
	in->lay.nh = 0;
	err = layout_holes(&in->lay, h, nh, space);
	free(h);
	if (err) {
		in->sim->host_err = err;
		return NULL;
	}
	in->lay_stale = false;
	return &in->lay;
}

/* @r becomes the breaks at byte offsets @ofs (@n of them), in sectors. */
static int regen_set(struct sim_regen *r, const uint64_t *ofs, unsigned n)
{
	uint64_t *b = NULL;
	unsigned k;

	if (n && !(b = malloc((size_t)n * sizeof(*b))))
		return -ENOMEM;
	for (k = 0; k < n; k++)
		b[k] = ofs[k] / 512;
	free(r->brk);
	*r = (struct sim_regen){ b, n, true };
	return 0;
}

int sim_set_rebreaks(struct sim *s, unsigned i, const uint64_t *ofs,
		     unsigned n)
{
	return regen_set(&s->inodes[i].last, ofs, n);
}

int sim_set_rebreaks_gen(struct sim *s, unsigned i, unsigned gen,
			 const uint64_t *ofs, unsigned n)
{
	struct sim_inode *in = &s->inodes[i];

	if (gen > in->nregen) {
		struct sim_regen *g = realloc(in->regen, gen * sizeof(*g));

		if (!g)
			return -ENOMEM;
		memset(g + in->nregen, 0, (gen - in->nregen) * sizeof(*g));
		in->regen = g;
		in->nregen = gen;
	}
	return regen_set(&in->regen[gen - 1], ofs, n);
}

void sim_next_generation(struct sim_inode *in)
{
	unsigned g = ++in->ntrunc;

	in->xr_remerge = true;
	in->re = g <= in->nregen && in->regen[g - 1].set ? &in->regen[g - 1] :
							  &in->last;
}

int sim_set_layout(struct sim *s, unsigned i, const uint64_t *ofs,
		   unsigned n, const uint64_t *hole, unsigned nh)
{
	struct sim_inode *in = &s->inodes[i];
	uint64_t e = (uint64_t)s->cfg.extent_kb * 1024, size = in->size;
	uint64_t *brk;
	unsigned k;

	layout_free(&in->lay);
	if (!n) {
		/* extent_kb: every e bytes, inside the file; no list. */
		if (e && size > e) {
			if ((size - 1) / e > UINT32_MAX)
				return -EOVERFLOW;
			in->lay = (struct blk_layout){
				.n = (unsigned)((size - 1) / e),
				.every = e / 512,
			};
		}
		return layout_holes(&in->lay, hole, nh, NULL);
	}
	brk = malloc((size_t)n * sizeof(*brk));
	if (!brk)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		brk[k] = ofs[k] / 512;
	in->lay = (struct blk_layout){ .brk = brk, .n = n };
	return layout_holes(&in->lay, hole, nh, NULL);
}

void sim_destroy(struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nr_inodes; i++) {
		layout_free(&s->inodes[i].lay);
		free(s->inodes[i].wr);
		free(s->inodes[i].own);
		free(s->inodes[i].last.brk);
		while (s->inodes[i].nregen)
			free(s->inodes[i].regen[--s->inodes[i].nregen].brk);
		free(s->inodes[i].regen);
		free(s->inodes[i].xr);
		used_free(&s->inodes[i].used);
		pc_destroy(&s->inodes[i].pc);
	}
	free(s->inodes);
	free(s->files);
	sim_jobs_free(s);
	blk_queue_release(&s->q);
	s->inodes = NULL;
	s->files = NULL;
}

/* open(2): file_ra_state_init() snapshots bdi->ra_pages. */
struct sim_file *sim_file_open(struct sim *s, unsigned fd, unsigned ino)
{
	struct sim_file *f;

	if (fd >= s->cap_files) {
		unsigned cap = s->cap_files ? s->cap_files : 8;
		struct sim_file *nf;

		while (cap <= fd)
			cap *= 2;
		nf = realloc(s->files, cap * sizeof(*nf));
		if (!nf)
			return NULL;
		memset(nf + s->cap_files, 0, (cap - s->cap_files) * sizeof(*nf));
		s->files = nf;
		s->cap_files = cap;
	}
	if (fd >= s->nr_files)
		s->nr_files = fd + 1;
	f = &s->files[fd];
	memset(f, 0, sizeof(*f));
	f->inode = &s->inodes[ino];
	f->ra.ra_pages = (unsigned)s->q.ra_pages;
	f->ra.prev_pos = -1;
	f->open = true;
	return f;
}

void __attribute__((noinline)) folio_first_use(struct sim *s, struct folio *f)
{
	f->flags |= PG_used;
	if (f->flags & PG_from_ra) {
		uint64_t us = (s->cur->now - f->added_ns) / 1000;
		unsigned k = us ? 64u - (unsigned)__builtin_clzll(us) : 0;

		s->st->ttu_hist[k < RALAB_TTU_BUCKETS ? k : RALAB_TTU_BUCKETS - 1]++;
	}
}

void sim_remove_folio(struct sim_inode *in, struct folio *f)
{
	struct ralab_stats *st = in->sim->st;

	if (in->last_hit == f)
		in->last_hit = NULL;
	/* Read ahead, never read, and gone: "read but discarded". */
	if ((f->flags & PG_from_ra) && !in->used.overflow)
		st->ra_pages_evicted_unused +=
			folio_nr_pages(f) -
			used_count(&in->used, f->index, folio_nr_pages(f));
	pc_remove_folio(&in->pc, f);
}

/* The page cache of @in, folio by folio, to the dump callback. */
static void dump_inode(struct sim *s, unsigned ino, unsigned line)
{
	struct sim_inode *in = &s->inodes[ino];
	struct ralab_folio_info *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t index = 0;
	struct folio *f;

	while ((f = xa_find_after(&in->pc.i_pages, index))) {
		if (n == cap) {
			struct ralab_folio_info *nv;

			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n].index = f->index;
		v[n].order = f->order;
		v[n].readahead = !!(f->flags & PG_readahead);
		v[n].used = in->used.overflow ?
				    0 :
				    (unsigned)used_count(&in->used, f->index,
							 folio_nr_pages(f));
		n++;
		index = f->index + folio_nr_pages(f);
		if (!index)
			break;
	}
	s->on_dump(s->dump_arg, ino, line, v, n);
	free(v);
}

/*
 * One splice of up to @len bytes at @pos into a pipe with @slots free
 * buffers: filemap_splice_read(), or through an O_DIRECT descriptor
 * copy_splice_read(), a direct read of what the buffers take.
 */
static int64_t splice_data(struct sim *s, struct sim_file *f, int64_t pos,
			   uint64_t len, unsigned slots)
{
	if (f->direct) {
		if (len > (uint64_t)slots * RALAB_PAGE_SIZE)
			len = (uint64_t)slots * RALAB_PAGE_SIZE;
		return filemap_read_direct(s, f, pos, len);
	}
	return (int64_t)filemap_splice_read(s, f, pos, len, slots);
}

/*
 * do_splice_direct() (sendfile(2), copy_file_range(2)) and fio's splice
 * engine: splices of what is left of @len into a pipe of 16 buffers,
 * emptied after each, until @stop bytes went through or EOF; bytes, or
 * -1 if the first failed.
 */
static int64_t splice_until(struct sim *s, struct sim_file *f, int64_t pos,
			    uint64_t len, uint64_t stop)
{
	uint64_t done = 0;

	while (done < stop) {
		int64_t n = splice_data(s, f, pos + (int64_t)done, len - done,
					PIPE_DEF_BUFFERS);

		if (n < 0)
			return done ? (int64_t)done : n;
		if (!n)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* A read call that began at @t0 moved @n bytes: its job's counts. */
static void read_counted(struct sim *s, uint64_t t0, uint64_t n)
{
	struct sim_job *j = s->cur->job;

	s->st->bytes_read += n;
	j->reads++;
	j->bytes += n;
	lat_add(j, s->cur->now - t0);
}

/* read(2)/pread(2) after rw_verify_area(): -1 when the call fails. */
static int64_t __attribute__((noinline))
sys_read_slow(struct sim *s, struct sim_file *f, int64_t pos, uint64_t len)
{
	uint64_t t0 = s->cur->now, n;

	s->cur->call++;
	sim_spend(s, s->cfg.cpu_syscall_ns);
	if (pos < 0 || len > (uint64_t)INT64_MAX - (uint64_t)pos)
		return -1;
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (s->cur->call_how & CALL_SPLICE) {
		/* 'via splice': fio's splice engine, 64 KiB a splice. */
		int64_t d = splice_until(s, f, pos, len, len);

		if (d < 0)
			return d;
		n = (uint64_t)d;
	} else if (f->direct) {
		int64_t d = filemap_read_direct(s, f, pos, len);

		if (d < 0)
			return d;
		n = (uint64_t)d;
	} else {
		n = filemap_read(s, f, pos, len);
	}
	read_counted(s, t0, n);
	return (int64_t)n;
}

/* The fast path's time: the call and the pages copied. */
static inline void fast_done(struct sim *s, int64_t pos, uint64_t len)
{
	struct sim_job *j = s->cur->job;
	uint64_t cost = s->cfg.cpu_syscall_ns +
			(((uint64_t)pos & (RALAB_PAGE_SIZE - 1)) + len +
			 RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE * s->cfg.cpu_page_ns;

	s->st->bytes_read += len;
	j->reads++;
	j->bytes += len;
	lat_add(j, cost);
	sim_spend(s, cost);
}

static inline int64_t sys_read(struct sim *s, struct sim_file *f,
			       int64_t pos, uint64_t len)
{
	s->st->syscalls++;
	if (!f->direct && len <= MAX_RW_COUNT && pos >= 0 &&
	    len <= (uint64_t)INT64_MAX - (uint64_t)pos &&
	    filemap_read_fast(s, f, pos, len)) {
		fast_done(s, pos, len);
		return (int64_t)len;
	}
	return sys_read_slow(s, f, pos, len);
}

/*
 * splice OFF LEN PAGES: one splice(2); sendfile OFF LEN BYTES: one
 * sendfile(2) (splice_until()).
 */
static void sys_splice(struct sim *s, struct sim_file *f, const struct op *op)
{
	uint64_t t0;
	int64_t d;

	s->st->syscalls++;
	s->cur->call++;
	sim_spend(s, s->cfg.cpu_syscall_ns);
	t0 = s->cur->now;
	if (op->kind == OP_SPLICE) {
		d = splice_data(s, f, (int64_t)op->off, op->len,
				(unsigned)op->count);
	} else {
		/* do_sendfile() and copy_file_range(): MAX_RW_COUNT at most. */
		uint64_t len = op->len < MAX_RW_COUNT ? op->len : MAX_RW_COUNT;

		d = splice_until(s, f, (int64_t)op->off, len,
				 op->count < len ? op->count : len);
	}
	read_counted(s, t0, d > 0 ? (uint64_t)d : 0);
}

int64_t sim_pread(struct sim *s, struct sim_file *f, int64_t pos, uint64_t len)
{
	return sys_read(s, f, pos, len);
}

/*
 * fio's rate limits (rate_iops, rate; rate_process=linear): after the
 * reads and bytes the current job has done since it started, its next
 * read is due when that share of the rate has passed; wait for it.
 */
static bool rated(const struct wl_job *d)
{
	return d->rate_iops || d->rate_bps;
}

void sim_rate_wait(struct sim *s)
{
	const struct sim_job *j = s->cur->job;
	const struct wl_job *d = j->def;
	unsigned __int128 due = 0, t; /* rates up to 10^12: no overflow */

	if (!rated(d) || j->before_epoch)
		return;
	if (d->rate_iops)
		due = (unsigned __int128)(j->reads - j->epoch_reads) *
		      1000000000u / d->rate_iops;
	if (d->rate_bps) {
		t = (unsigned __int128)(j->bytes - j->epoch_bytes) *
		    1000000000u / d->rate_bps;
		if (t > due)
			due = t;
	}
	due += d->epoch_line ? j->epoch_ns : j->start_ns;
	if (due > UINT64_MAX)
		due = UINT64_MAX;
	if ((uint64_t)due > s->cur->now)
		sim_spend(s, (uint64_t)due - s->cur->now);
}

/*
 * After a fast read of whole pages: the next reads of @len that lie in the
 * same folio (and before EOF) are fast reads too, with nothing in between
 * that could change the folio: take up to @left of them at once.  Returns
 * how many; the file position, prev_pos and the pages read follow them.
 */
static inline uint64_t fast_more(struct sim_file *f, uint64_t len,
				 uint64_t left)
{
	struct sim_inode *in = f->inode;
	const struct folio *hit = in->last_hit;
	uint64_t pos = (uint64_t)f->f_pos, k;
	uint64_t end = (hit->index + folio_nr_pages(hit)) * RALAB_PAGE_SIZE;

	if (end > in->mapping.i_size)
		end = in->mapping.i_size;
	if (pos >= end)
		return 0;
	k = (end - pos) / len;
	if (k > left)
		k = left;
	if (!k)
		return 0;
	f->f_pos = (int64_t)(pos + k * len);
	f->ra.prev_pos = f->f_pos;
	used_mark(&in->used, pos / RALAB_PAGE_SIZE,
		  (pos + k * len - 1) / RALAB_PAGE_SIZE);
	return k;
}

/*
 * read LEN COUNT|eof: the loop that runs millions of times, kept apart so
 * that the fast path stays in registers.
 */
static void __attribute__((noinline))
run_reads(struct sim *s, struct sim_file *f, const struct op *op)
{
	struct sim_worker *w = s->cur;
	struct sim_job *j = w->job;
	uint64_t i, len = op->len, nfast = 0;
	/* The time of a page-aligned cached read, and its latency bucket. */
	uint64_t cost = s->cfg.cpu_syscall_ns +
			(len + RALAB_PAGE_SIZE - 1) / RALAB_PAGE_SIZE *
				s->cfg.cpu_page_ns;
	unsigned bucket = lat_bucket(cost);
	/* Think time follows every read call (fio's thinktime is per I/O). */
	uint64_t think = j->before_epoch ? 0 : j->def->think_ns;
	uint64_t step = cost + think;
	bool to_eof = op->to_eof;
	uint64_t count = to_eof ? UINT64_MAX : op->count;
	/*
	 * No read starts at or after the job's deadline (its runtime; with
	 * threads, another job's exitall can move it while this op runs).
	 * Only threads and runtimes need more than the clock per read.
	 */
	bool slow_checks = s->multi || j->deadline != UINT64_MAX;
	int64_t n;

	if (w->now >= j->deadline)
		return;
	for (i = 0; i < count; i++) {
		int64_t pos = f->f_pos;


		if (len <= MAX_RW_COUNT && pos >= 0 &&
		    len <= (uint64_t)INT64_MAX - (uint64_t)pos &&
		    filemap_read_fast(s, f, pos, len)) {
			f->f_pos = pos + (int64_t)len;
			if (!(pos & (RALAB_PAGE_SIZE - 1))) {
				/* Counted at the end; the clock moves now. */
				nfast++;
				w->now += step;
				if (!slow_checks && !(len & (RALAB_PAGE_SIZE - 1))) {
					uint64_t k = fast_more(f, len,
							       count - i - 1);

					nfast += k;
					i += k;
					w->now += k * step;
					continue;
				}
				if (__builtin_expect(slow_checks, 0)) {
					if (w->now >= j->deadline)
						break;
					if (s->multi)
						sim_yield(s);
				}
				continue;
			}
			s->st->syscalls++;
			fast_done(s, pos, len);
		} else {
			s->st->syscalls++;
			n = sys_read_slow(s, f, pos, len);
			if (n > 0)
				f->f_pos += n;
			if (to_eof && n <= 0)
				break;
		}
		if (think)
			sim_spend(s, think);
		if (w->now >= j->deadline)
			break;
	}
	s->st->syscalls += nfast;
	s->st->bytes_read += nfast * len;
	j->reads += nfast;
	j->bytes += nfast * len;
	j->lat[bucket] += nfast;
}

/* Whether the job's runtime has passed: its loops of reads stop there. */
static inline bool past_runtime(const struct sim *s)
{
	return s->cur->now >= s->cur->job->deadline;
}

/*
 * A read call of a single-threaded job (when its rate allows), then its
 * think time; what it returned (0 when the runtime passed first).
 */
static int64_t read_think(struct sim *s, struct sim_file *f, int64_t pos,
			  uint64_t len)
{
	const struct sim_job *j = s->cur->job;
	int64_t n;

	if (rated(j->def)) {
		sim_rate_wait(s);
		if (past_runtime(s))
			return 0;
	}
	n = sys_read(s, f, pos, len);
	sim_think(s);
	return n;
}

/* read LEN COUNT|eof under a rate limit, or thinking every EVERY calls:
 * one call at a time, not the fast loop (run_reads). */
static void run_reads_by_call(struct sim *s, struct sim_file *f,
			    const struct op *op)
{
	uint64_t i;
	int64_t n;

	for (i = 0; (op->to_eof || i < op->count) && !past_runtime(s); i++) {
		n = read_think(s, f, f->f_pos, op->len);
		if (n > 0)
			f->f_pos += n;
		if (op->to_eof && n <= 0)
			break;
	}
}

/* A system call other than a read: counted, and its entry cost. */
static void sys_enter(struct sim *s)
{
	s->st->syscalls++;
	sim_spend(s, s->cfg.cpu_syscall_ns);
}

/*
 * A write/pwrite call: its system call cost, then the write path (its
 * copies and any reads it waits for).  Not a read: no latency sample.
 */
static uint64_t sys_write(struct sim *s, struct sim_file *f, int64_t pos,
			  uint64_t len)
{
	sys_enter(s);
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (f->direct) {
		int64_t n = filemap_write_direct(s, f, pos, len);

		return n < 0 ? 0 : (uint64_t)n; /* EINVAL: nothing written */
	}
	return filemap_write(s, f, pos, len);
}

void sim_run_op(struct sim *s, const struct op *op)
{
	struct sim_file *f = op->fd < s->nr_files ? &s->files[op->fd] : NULL;
	uint64_t i, x, size;

	if (op->kind != OP_PACE)
		s->cur->op_start = s->cur->now;
	/* Its read calls' RWF_DONTCACHE and splicing, for the op's length. */
	s->cur->call_how = call_flags(op);
	switch (op->kind) {
	case OP_OPEN:
		f = sim_file_open(s, op->fd, op->ino);
		if (f)
			f->direct = op->direct;
		break;
	case OP_SETFL:
		sys_enter(s);
		f->direct = op->direct;
		break;
	case OP_CLOSE:
		f->open = false;
		filemap_release(s, f->inode);
		break;
	case OP_TRUNCATE:
		sys_enter(s);
		filemap_truncate(s, f->inode, op->off);
		break;
	case OP_FALLOCATE:
		sys_enter(s);
		filemap_fallocate(s, f->inode, op->off, op->len, op->advice);
		break;
	case OP_PUNCH:
		sys_enter(s);
		if (op->madv_remove) {
			/*
			 * MADV_REMOVE stops at the first VM_LOCKED VMA, with
			 * EINVAL, after punching the VMAs before it
			 * (madvise_remove(), sim_unlocked_end()).
			 */
			pgoff_t a = op->off / RALAB_PAGE_SIZE;
			pgoff_t b = sim_unlocked_end(&s->cur->job->vma[op->map],
						     a, a + op->len /
							    RALAB_PAGE_SIZE);

			if (a < b)
				filemap_punch(s, f->inode, op->off,
					      (b - a) * RALAB_PAGE_SIZE, false);
			break;
		}
		filemap_punch(s, f->inode, op->off, op->len, op->advice);
		break;
	case OP_READ:
		/* Rate limits, think time every EVERY calls and O_DIRECT:
		 * not the fast loop. */
		if (rated(s->cur->job->def) ||
		    s->cur->job->def->think_every > 1 || f->direct)
			run_reads_by_call(s, f, op);
		else
			run_reads(s, f, op);
		break;
	case OP_PREAD:
		read_think(s, f, (int64_t)op->off, op->len);
		break;
	case OP_SPLICE:
	case OP_SENDFILE:
		sys_splice(s, f, op);
		sim_think(s);
		break;
	case OP_SEEK:
		f->f_pos = (int64_t)op->off;
		break;
	case OP_PWRITE:
		sys_write(s, f, (int64_t)op->off, op->len);
		break;
	case OP_FIO_PWRITE: {
		uint64_t *order = ralab__op_order(op, NULL);

		for (i = 0; order && i < op->count && !past_runtime(s); i++)
			sys_write(s, f, (int64_t)(op->off + order[i] * op->len),
				  op->len);
		free(order);
		break;
	}
	case OP_FSYNC:
		sys_enter(s);
		filemap_writeback(s, f->inode);
		break;
	case OP_WRITE:
		for (i = 0; i < op->count && !past_runtime(s); i++) {
			uint64_t n = sys_write(s, f, f->f_pos, op->len);

			f->f_pos += (int64_t)n;
			if (!n)
				break;
		}
		break;
	case OP_RAND_PREAD:
		x = op->seed;
		size = f->inode->size;
		for (i = 0; i < op->count && !past_runtime(s); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			read_think(s, f,
				   (int64_t)((x % (size / op->len)) * op->len),
				   op->len);
		}
		break;
	case OP_SHUFFLE_PREAD:
	case OP_FIO_PREAD: {
		uint64_t *order = ralab__op_order(op, &s->cur->job->carry);

		for (i = 0; order && i < op->count && !past_runtime(s); i++)
			read_think(s, f, (int64_t)(op->off + order[i] * op->len),
				   op->len);
		free(order);
		break;
	}
	case OP_STRIDE_PREAD:
		for (i = 0; i < op->count && !past_runtime(s); i++)
			read_think(s, f,
				   (int64_t)op->off + (int64_t)i * op->stride,
				   op->len);
		break;
	case OP_FADVISE:
	case OP_READAHEAD:
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		sim_fadvise(s, f, (int64_t)op->off, (int64_t)op->len,
			    op->advice);
		break;
	case OP_MMAP: {
		struct sim_vma *v = &s->cur->job->vma[op->map];

		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		if (sim_mmap(v, f, op->off, op->len)) {
			s->host_err = -12;
			break;
		}
		if (op->exec)
			v->seg[0].vm_flags |= VM_EXEC;
		if (op->mwrite || s->maps_writable)
			v->seg[0].vm_flags |= VM_WRITE;
		if (op->populate)
			sim_populate(s, v);
		else if (op->locked)
			/* MAP_LOCKED: mmap() mlock()s the new VMA. */
			sim_mlock(s, v, op->off, op->len, MLOCK_ON_);
		break;
	}
	case OP_MPROTECT:
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		sim_mprotect(s, &s->cur->job->vma[op->map], op->off, op->len,
			     op->advice);
		break;
	case OP_MLOCK:
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		sim_mlock(s, &s->cur->job->vma[op->map], op->off, op->len,
			  op->advice);
		break;
	case OP_TOUCH:
		if (!op->populate) {
			sim_touch(s, &s->cur->job->vma[op->map], op->off,
				  op->len, op->count, op->wfault);
			break;
		}
		/* madvise(MADV_POPULATE_*): the faults, in madvise()'s plug. */
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		sim_plug_start(s);
		sim_touch(s, &s->cur->job->vma[op->map], op->off, op->len,
			  op->count, op->wfault);
		sim_plug_finish(s);
		break;
	case OP_MEMCPY:
		sim_memcpy(s, &s->cur->job->vma[op->map], op->off, op->len,
			   op->count, (uint64_t)op->stride, op->wfault);
		break;
	case OP_MADVISE:
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		sim_plug_start(s);
		sim_madvise(s, &s->cur->job->vma[op->map], op->off, op->len,
			    op->advice);
		sim_plug_finish(s);
		break;
	case OP_MUNMAP:
		s->st->syscalls++;
		sim_spend(s, s->cfg.cpu_syscall_ns);
		if (op->len) {
			if (sim_munmap_part(&s->cur->job->vma[op->map],
					    op->off, op->len))
				s->host_err = -ENOMEM;
		} else
			sim_munmap(&s->cur->job->vma[op->map]);
		break;
	case OP_PACE:
		/* A replay's pace (fio iologs): wait if ahead of it. */
		if (s->cur->op_start + op->len > s->cur->now &&
		    s->cur->op_start + op->len > s->cur->op_start)
			sim_spend(s, s->cur->op_start + op->len - s->cur->now);
		break;
	case OP_PAUSE:
		/* Time the application spends between its calls. */
		sim_spend(s, s->cur->now + op->len < s->cur->now ?
				     UINT64_MAX - s->cur->now : op->len);
		break;
	case OP_RA_STATE:
		/* ra_pages stays the descriptor's (the device's, advice). */
		f->ra.start = op->off;
		f->ra.size = (unsigned int)op->len;
		f->ra.async_size = (unsigned int)op->count;
		f->ra.order = (unsigned short)(op->seed & 0xffff);
		f->ra.mmap_miss = (unsigned short)(op->seed >> 16);
		f->ra.prev_pos = op->stride;
		break;
	case OP_CACHED:
		filemap_prefill(s, f->inode, op->off, op->len,
				(unsigned)op->count, op->advice);
		break;
	case OP_DUMP:
		if (s->on_dump)
			dump_inode(s, op->ino, op->line);
		break;
	case OP_EPOCH: {
		struct sim_job *j = s->cur->job;

		j->before_epoch = false;
		j->epoch_ns = s->cur->now;
		j->epoch_reads = j->reads;
		j->epoch_bytes = j->bytes;
		if (j->def->runtime_ns && !j->cut)
			j->deadline = s->cur->now + j->def->runtime_ns;
		break;
	}
	}
	s->cur->call_how = 0;
}

/* A latency percentile from a job's histogram (bucket midpoints). */
static void time_stats(struct sim *s, struct ralab_stats *st)
{
	uint64_t all[LAT_BUCKETS] = { 0 }, reads = 0;
	unsigned i, b;

	st->nr_jobs = s->nr_jobs < RALAB_MAX_JOBS ? s->nr_jobs : RALAB_MAX_JOBS;
	for (i = 0; i < s->nr_jobs; i++) {
		const struct sim_job *j = &s->jobs[i];

		if (j->end_ns > st->elapsed_ns)
			st->elapsed_ns = j->end_ns;
		st->wait_ns += j->wait_ns;
		st->waits += j->waits;
		st->late_ra_waits += j->late_waits;
		for (b = 0; b < LAT_BUCKETS; b++)
			all[b] += j->lat[b];
		reads += j->reads;
		if (i < RALAB_MAX_JOBS) {
			struct ralab_job_stats *js = &st->job[i];

			snprintf(js->name, sizeof(js->name), "%s", j->def->name);
			js->start_ns = j->start_ns;
			js->elapsed_ns = j->end_ns > j->start_ns ?
						 j->end_ns - j->start_ns : 0;
			js->reads = j->reads;
			js->bytes = j->bytes;
			js->wait_ns = j->wait_ns;
			js->waits = j->waits;
			js->late_ra_waits = j->late_waits;
			js->lat_p50_ns = lat_pct(j->lat, j->reads, 50);
			js->lat_p99_ns = lat_pct(j->lat, j->reads, 99);
		}
	}
	st->lat_p50_ns = lat_pct(all, reads, 50);
	st->lat_p90_ns = lat_pct(all, reads, 90);
	st->lat_p99_ns = lat_pct(all, reads, 99);
	st->lat_max_ns = lat_pct(all, reads, 100);
}

/* Does the workload splice from a file (splice, sendfile, via splice)? */
static bool wl_splices(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_SPLICE ||
		    wl->ops[i].kind == OP_SENDFILE || wl->ops[i].splice)
			return true;
	return false;
}

int ralab_run(const struct ralab_workload *wl,
	      const struct ralab_run_opts *opts, struct ralab_stats *stats)
{
	static const struct ralab_run_opts none;
	const struct ralab_policy_ops *policy;
	struct sim *s;
	unsigned i;
	int err;

	unsigned long patches;
	uint64_t sizes[MAX_FILES];

	if (!opts)
		opts = &none;
	memset(stats, 0, sizeof(*stats));
	err = ralab__policy_resolve(opts->policy, opts->patches,
				    opts->nr_patches, &policy, &patches);
	if (err)
		return err;
	if ((policy->flags & RA_POLICY_NO_SPLICE_READ) && wl_splices(wl))
		return -EOPNOTSUPP;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < wl->nr_files; i++)
		sizes[i] = wl->files[i].size;
	err = sim_init(s, &wl->cfg, sizes, wl->nr_files, policy, stats,
		       opts->on_event, opts->event_arg);
	for (i = 0; !err && i < wl->nr_files; i++) {
		if (wl->files[i].nbrk || wl->files[i].nhole)
			err = sim_set_layout(s, i, wl->files[i].brk,
					     wl->files[i].nbrk, wl->files[i].hole,
					     wl->files[i].nhole);
		if (!err && wl->files[i].rebrk_given)
			err = sim_set_rebreaks(s, i, wl->files[i].rebrk,
					       wl->files[i].nrebrk);
		for (unsigned g = 0; !err && g < wl->files[i].nregen; g++)
			if (wl->files[i].regen[g].set)
				err = sim_set_rebreaks_gen(
					s, i, g + 1, wl->files[i].regen[g].brk,
					wl->files[i].regen[g].n);
		if (!err && wl->files[i].unwritten) {
			filemap_preallocated(&s->inodes[i]);
			err = s->host_err;
		}
	}
	s->patches = patches;
	s->on_dump = opts->on_dump;
	s->dump_arg = opts->dump_arg;
	s->fmem = opts->folio_mem;
	s->nr_fmem = opts->folio_mem ? opts->nr_folio_mem : 0;
	if (!err && !sim_file_open(s, 0, 0))
		err = -ENOMEM;
	/* Every descriptor of the case, numbered as the case numbers them. */
	for (i = 1; !err && i < wl->nr_fds; i++)
		if (!sim_file_open(s, i, wl->fd_ino[i]))
			err = -ENOMEM;
	for (i = 1; !err && i < wl->nr_fds; i++)
		s->files[i].open = false;
	if (!err)
		err = sim_run_jobs(s, wl);
	if (!err)
		err = s->host_err;
	if (!err) {
		time_stats(s, stats);
		for (i = 0; i < s->nr_inodes; i++) {
			stats->cache_nodes += s->inodes[i].pc.i_pages.nr_nodes;
			count_unused(s, &s->inodes[i]);
			if (s->on_dump)
				dump_inode(s, i, 0);
		}
	}
	sim_destroy(s);
	free(s);
	return err;
}
