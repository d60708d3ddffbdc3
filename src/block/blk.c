// SPDX-License-Identifier: MIT
/*
 * blk.c - from folios to device requests, as block/ does it on 6.18 for a
 * loop device (no scheduler, one hardware queue).
 *
 *   read_pages() batch: folio folio folio ... (file order)
 *        |  iomap: one bio vector per folio (folios adjacent in memory,
 *        |  blk_vec.mem_next, share one), a new bio when the next folio
 *        |  is not disk-contiguous or the bio holds 256 vectors
 *        v
 *   bio  [vvvvvvvv....]  --split at max_sectors / max_segments-->  pieces
 *        |  each piece: back-merge into the last plugged request if it
 *        |  fits, else a new request (flushing a plug that holds 32
 *        |  requests or whose last request is >= 128 KiB)
 *        v
 *   block_rq_issue, once per request, when the plug is flushed
 */
#include "blk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The functions from a batch to its requests are kept inline: they are
 * the per-window cost of every read (make bench, instructions per read).
 */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/*
 * The filesystem's block map of a fragmented file (struct blk_layout):
 *
 *   file:  [ extent 0 ][ extent 1 ][ extent 2 ] ...
 *   disk:  [ extent 0 ]gap[ extent 1 ]gap[ extent 2 ] ...
 *
 * Each extent lies BLK_EXTENT_GAP sectors after the end of the one before,
 * so no bio or request spans two (iomap_readpage_iter() and ext4's
 * ext4_mpage_readpages() start a new bio where the next block is not
 * disk-contiguous, and a plug merges only contiguous requests).
 */

/* Where extent k + 1 starts (a list, or every @every sectors). */
static inline uint64_t brk_at(const struct blk_layout *l, unsigned k)
{
	return l->every ? (uint64_t)(k + 1) * l->every : l->brk[k];
}

/* The number of breaks at or before file sector @s. */
static unsigned extent_of(const struct blk_layout *l, uint64_t s)
{
	unsigned lo = 0, hi = l->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (brk_at(l, mid) <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the first hole ending after file sector @s. */
static unsigned hole_after(const struct blk_layout *l, uint64_t s)
{
	unsigned lo = 0, hi = l->nh;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (l->hole[2 * mid + 1] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t blk_extent_end(const struct blk_layout *l, uint64_t s)
{
	unsigned k = extent_of(l, s);

	return k < l->n ? brk_at(l, k) : UINT64_MAX;
}

uint64_t blk_mapping_end(const struct blk_layout *l, uint64_t s, bool *hole)
{
	uint64_t end;

	*hole = false;
	if (!l)
		return UINT64_MAX;
	end = blk_extent_end(l, s);
	if (l->nh) {
		unsigned j = hole_after(l, s);

		if (j < l->nh) {
			uint64_t edge = l->hole[2 * j];

			if (edge <= s) {
				*hole = true;
				edge = l->hole[2 * j + 1];
			}
			if (edge < end)
				end = edge;
		}
	}
	return end;
}

/*
 * Sectors of space-less holes before file sector @s (a hole's own, up to
 * @s, if it is one).
 */
static uint64_t holes_before(const struct blk_layout *l, uint64_t s)
{
	unsigned j = hole_after(l, s);
	uint64_t h = l->hcum[j];

	if (j < l->nh && l->hole[2 * j] < s && l->hcum[j + 1] > h)
		h += s - l->hole[2 * j];
	return h;
}

/* The disk sector of file sector @s. */
static uint64_t disk_of(const struct blk_layout *l, uint64_t s)
{
	return s - (l->nh ? holes_before(l, s) : 0) +
	       (uint64_t)extent_of(l, s) * BLK_EXTENT_GAP;
}

/*
 * The file sector of disk sector @d (the inverse of disk_of(), which only
 * grows: the last file sector at or below @d; a hole's sectors share the
 * disk sector of the data after it).
 */
static uint64_t file_sector(const struct blk_layout *l, uint64_t d)
{
	unsigned lo = 0, hi = l->n;
	uint64_t a, b;

	if (l->nh) {
		for (a = 0, b = d + 1 + l->hcum[l->nh]; a + 1 < b;) {
			uint64_t mid = a + (b - a) / 2;

			if (disk_of(l, mid) <= d)
				a = mid;
			else
				b = mid;
		}
		return a;
	}
	/* Extent k + 1 starts on the disk at brk[k] + (k + 1) * GAP. */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (brk_at(l, mid) + (uint64_t)(mid + 1) * BLK_EXTENT_GAP <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return d - (uint64_t)lo * BLK_EXTENT_GAP;
}

int blk_set_max_sectors_kb(struct blk_queue *q, uint32_t kb)
{
	uint32_t max_hw_kb = q->max_hw_sectors / 2;
	uint64_t io_opt;
	unsigned long ra;

	if (kb == 0) {
		/* Writing 0 restores the default: min(hw, 1280 KiB). */
		q->max_sectors = q->max_hw_sectors < 2560 ? q->max_hw_sectors
							  : 2560;
	} else {
		if (kb > max_hw_kb || kb < RALAB_PAGE_SIZE / 1024)
			return -EINVAL;
		q->max_sectors = kb * 2;
	}
	/*
	 * blk_apply_bdi_limits(): a rotational device without io_opt takes
	 * max_sectors as its optimal size; ra_pages never decreases here.
	 */
	io_opt = q->io_opt;
	if (!io_opt && q->rotational)
		io_opt = (uint64_t)q->max_sectors * 512;
	ra = (unsigned long)(io_opt * 2 / RALAB_PAGE_SIZE);
	if (ra < 32)
		ra = 32;
	if (ra > q->ra_pages)
		q->ra_pages = ra;
	q->io_pages = q->max_sectors / 8;
	return 0;
}

void blk_set_read_ahead_kb(struct blk_queue *q, uint32_t kb)
{
	q->ra_pages = kb / (RALAB_PAGE_SIZE / 1024);
}

int blk_queue_setup(struct blk_queue *q, const struct ralab_config *cfg)
{
	memset(q, 0, sizeof(*q));
	q->max_hw_sectors = cfg->max_hw_sectors_kb * 2;
	q->max_segments = cfg->max_segments;
	q->max_segment_size = cfg->max_segment_size;
	q->logical_block_size = 512;
	q->physical_block_size = 512;
	q->rotational = true; /* a loop device over a file */
	q->ra_pages = 32;     /* VM_READAHEAD_PAGES for a new bdi */
	/* Attach: the default limits are committed once. */
	if (blk_set_max_sectors_kb(q, 0))
		return -EINVAL;
	if (blk_set_max_sectors_kb(q, cfg->max_sectors_kb))
		return -EINVAL;
	blk_set_read_ahead_kb(q, cfg->read_ahead_kb);
	q->by_block = cfg->fs == RALAB_FS_EXT4;
	return 0;
}

int blk_queue_timing(struct blk_queue *q, const struct ralab_config *cfg)
{
	q->lat_ns = cfg->dev_latency_ns;
	q->bw = cfg->dev_bandwidth;
	q->admit_ns = cfg->dev_iops ? 1000000000ull / cfg->dev_iops : 0;
	q->share_ns = cfg->dev_contention_ns;
	q->qd = cfg->dev_queue_depth ? cfg->dev_queue_depth : 1;
	q->inflight = calloc(q->qd, sizeof(*q->inflight));
	return q->inflight ? 0 : -ENOMEM;
}

void blk_queue_release(struct blk_queue *q)
{
	free(q->inflight);
	free(q->log);
	free(q->pv);
	free(q->pv_of);
	free(q->pv_plain);
	q->inflight = NULL;
	q->log = NULL;
	q->pv = NULL;
	q->pv_of = NULL;
	q->pv_plain = NULL;
	q->cap_pv = 0;
}

/* Requests done by @t leave the device. */
static void dev_retire(struct blk_queue *q, uint64_t t)
{
	while (q->in_count && q->inflight[q->in_head] <= t) {
		q->in_head = (q->in_head + 1) % q->qd;
		q->in_count--;
	}
}

/* When a request of @bytes issued at @t completes. */
static uint64_t dev_service(struct blk_queue *q, uint64_t t, uint64_t bytes)
{
	uint64_t start = t, begin, done;

	dev_retire(q, t);
	if (q->in_count == q->qd) {
		/* All slots busy: wait for the oldest. */
		start = q->inflight[q->in_head];
		q->in_head = (q->in_head + 1) % q->qd;
		q->in_count--;
	}
	/*
	 * dev_iops: requests start at most that often, however many are
	 * queued (the loop device's own worker, a controller's command
	 * rate); a lone request waits for nothing.
	 */
	if (q->admit_ns) {
		if (start < q->next_admit)
			start = q->next_admit;
		q->next_admit = start + q->admit_ns;
	}
	/*
	 * dev_contention_ns: the requests in service when this one starts
	 * share the device with it (the loop device's worker and the host
	 * behind virtio), so its latency grows with each of them: at a
	 * steady depth N a request takes lat + (N - 1) * share, where a
	 * slot or rate limit alone lets N requests overlap for free up to
	 * the limit.
	 */
	begin = start + q->lat_ns;
	if (q->share_ns) {
		dev_retire(q, start);
		begin += q->share_ns * q->in_count;
	}
	if (begin < q->chan_free)
		begin = q->chan_free;
	done = begin + (q->bw ? bytes * 1000000000ull / q->bw : 0);
	q->chan_free = done;
	q->inflight[(q->in_head + q->in_count) % q->qd] = done;
	q->in_count++;
	return done;
}

uint64_t blk_write_time(struct blk_queue *q, uint64_t bytes, uint64_t now)
{
	uint64_t max = (uint64_t)q->max_sectors * 512, done = now;

	if (!q->inflight || !max)
		return now;
	while (bytes) {
		uint64_t n = bytes < max ? bytes : max;

		done = dev_service(q, now, n);
		bytes -= n;
	}
	return done;
}

static __always_inline void rq_issue(struct blk_queue *q,
				     const struct blk_rq *rq)
{
	struct ralab_stats *st = q->st;
	uint64_t done = q->inflight ? dev_service(q, q->now,
						  (uint64_t)rq->nr_sectors * 512)
				    : q->now;

	if (q->nr_log == q->cap_log) {
		unsigned c = q->cap_log ? q->cap_log * 2 : 64;
		struct blk_done *l = realloc(q->log, c * sizeof(*l));

		if (l) {
			q->log = l;
			q->cap_log = c;
		}
	}
	if (q->nr_log < q->cap_log)
		q->log[q->nr_log++] = (struct blk_done){
			rq->sector, rq->sector + rq->nr_sectors, done
		};

	st->data_reads++;
	st->data_sectors += rq->nr_sectors;
	st->rq_size_hist[blk_rq_bucket(rq->nr_sectors)]++;
	if (q->emit) {
		struct ralab_event ev = {
			.type = RALAB_EV_RQ_ISSUE,
			.sector = q->lay ? file_sector(q->lay, rq->sector) :
					   rq->sector,
			.nr_sectors = rq->nr_sectors,
			.readahead = rq->readahead,
			.sync = rq->sync,
		};

		q->emit(q->emit_arg, &ev);
	}
}

static void plug_flush(struct blk_queue *q)
{
	unsigned i;

	for (i = 0; i < q->plug_count; i++)
		rq_issue(q, &q->plug[q->plug_lifo ? q->plug_count - 1 - i : i]);
	q->plug_count = 0;
}

void blk_plug_flush(struct blk_queue *q, const struct blk_layout *lay,
		    uint64_t now)
{
	q->now = now;
	q->nr_log = 0;
	q->lay = lay && (lay->n || lay->nh) ? lay : NULL;
	plug_flush(q);
	q->lay = NULL;
}

unsigned blk_plug_take(struct blk_queue *q, struct blk_rq *out)
{
	unsigned n = q->plug_count;

	memcpy(out, q->plug, n * sizeof(*out));
	q->plug_count = 0;
	return n;
}

void blk_plug_put(struct blk_queue *q, const struct blk_rq *in, unsigned n)
{
	memcpy(q->plug, in, n * sizeof(*in));
	q->plug_count = n;
}

uint64_t blk_file_sector(const struct blk_layout *lay, uint64_t d)
{
	return lay && (lay->n || lay->nh) ? file_sector(lay, d) : d;
}

/* A split piece of a bio enters blk_mq_submit_bio(). */
static void submit_piece(struct blk_queue *q, uint64_t sector,
			 uint32_t nr_sectors, uint32_t nr_segs, bool ra)
{
	struct blk_rq *last;

	if (q->plug_count) {
		last = &q->plug[q->plug_count - 1];
		/*
		 * blk_attempt_plug_merge(): back merge into the last one.  A
		 * plain read merges into a readahead request and the other
		 * way round (a "mixed merge"); the request keeps the flags
		 * of its first bio.
		 */
		if (!q->nomerges &&
		    last->sector + last->nr_sectors == sector &&
		    last->nr_sectors + nr_sectors <= q->max_sectors &&
		    last->nr_segs + nr_segs <= q->max_segments) {
			last->nr_sectors += nr_sectors;
			last->nr_segs += nr_segs;
			return;
		}
		/* blk_add_rq_to_plug(). */
		if (q->plug_count >= BLK_PLUG_MAX_RQ ||
		    (!q->nomerges &&
		     (uint64_t)last->nr_sectors * 512 >= BLK_PLUG_FLUSH_SIZE))
			plug_flush(q);
	}
	q->plug[q->plug_count++] = (struct blk_rq){
		.sector = sector,
		.nr_sectors = nr_sectors,
		.nr_segs = nr_segs,
		.readahead = ra,
		.sync = q->rq_sync,
	};
}

/*
 * Split one bio at the queue limits (bio_split_rw_at()): a vector that
 * fits whole costs one segment if it is at most a page, otherwise it is
 * counted in segments of max_segment_size and may be cut in the middle.
 */
static __always_inline void submit_bio(struct blk_queue *q,
				       const struct blk_vec *v, unsigned n,
				       bool ra)
{
	uint64_t max_bytes = (uint64_t)q->max_sectors * 512;
	uint64_t pos = v[0].sector * 512; /* start of the current piece */
	uint64_t bytes = 0;
	uint32_t nsegs = 0;
	unsigned i = 0;
	uint64_t done = 0; /* bytes of v[i] already in earlier pieces */

	while (i < n) {
		uint64_t len = v[i].bytes - done;
		bool whole = !done && len <= RALAB_PAGE_SIZE;

		if (whole && nsegs < q->max_segments &&
		    bytes + len <= max_bytes) {
			nsegs++;
			bytes += len;
			i++;
			continue;
		}
		/* bvec_split_segs() */
		{
			uint64_t max_len = max_bytes - bytes;
			uint64_t take = len < max_len ? len : max_len;
			uint64_t total = 0;

			while (take && nsegs < q->max_segments) {
				uint64_t seg = take < q->max_segment_size ?
						       take :
						       q->max_segment_size;

				nsegs++;
				total += seg;
				take -= seg;
			}
			bytes += total;
			if (total == len) {
				done = 0;
				i++;
				continue;
			}
			/*
			 * Cut by max_segments where max_sectors had room:
			 * where the page cache's pages lie together in
			 * memory, fewer (not a direct read's buffer pages).
			 */
			if (take && !q->rq_sync)
				q->st->seg_splits++;
			/* Split here, aligned to the logical block size. */
			bytes &= ~(uint64_t)(q->logical_block_size - 1);
			submit_piece(q, pos / 512, (uint32_t)(bytes / 512),
				     nsegs, ra);
			done += total;
			pos += bytes;
			bytes = 0;
			nsegs = 0;
		}
	}
	if (bytes)
		submit_piece(q, pos / 512, (uint32_t)(bytes / 512), nsegs, ra);
}

#define PV_PLAIN 1   /* read as a plain read (no REQ_RAHEAD) */
#define PV_END_BIO 2 /* the bio is submitted after this vector */

/*
 * Whether bio_add_folio() merges vector @i into vector @i - 1 before it
 * (bvec_try_merge_page()): only where it starts in memory where that one
 * ends (blk_vec.mem_next), and a vector's length stays below 4 GiB.
 */
static __always_inline bool pv_merges(const struct blk_vec *v, unsigned i,
				      uint64_t len)
{
	return v[i].mem_next &&
	       len + v[i].bytes <= UINT32_MAX - RALAB_PAGE_SIZE;
}

/* A bio of @n vectors, some of them adjacent in memory: merged. */
static __attribute__((noinline)) void
submit_merged(struct blk_queue *q, const struct blk_vec *v, unsigned n,
	      bool ra)
{
	struct blk_vec mv[BIO_MAX_VECS];
	unsigned k, m = 0;

	for (k = 0; k < n; k++) {
		if (m && pv_merges(v, k, mv[m - 1].bytes))
			mv[m - 1].bytes += v[k].bytes;
		else
			mv[m++] = v[k];
	}
	submit_bio(q, mv, m, ra);
}

/*
 * Bios of up to 256 disk-contiguous vectors, then the plug is flushed.
 * @plain (or NULL): PV_* flags; a vector read as a plain read is a bio of
 * its own (block_read_full_folio() submits a bio per buffer head, each
 * merged in the plug on its own), and a bio ends at PV_END_BIO.  Where
 * folios merge in memory (blk_vec.mem_next) the 256 count merged vectors,
 * which the bio is split with.
 */
static __always_inline void submit_vecs(struct blk_queue *q,
					const struct blk_vec *vecs,
					const uint8_t *plain, unsigned n,
					bool readahead)
{
	unsigned first = 0, i, nb = 1;
	uint64_t len = n ? vecs[0].bytes : 0; /* the last merged vector's */
	bool merged = false;

	for (i = 1; i <= n; i++) {
		bool ra;

		if (i < n &&
		    vecs[i - 1].sector + vecs[i - 1].bytes / 512 ==
			    vecs[i].sector &&
		    (!plain || (!(plain[i - 1] & (PV_PLAIN | PV_END_BIO)) &&
				!(plain[i] & PV_PLAIN)))) {
			if (pv_merges(vecs, i, len)) {
				len += vecs[i].bytes;
				merged = true;
				continue;
			}
			if (nb < BIO_MAX_VECS) {
				nb++;
				len = vecs[i].bytes;
				continue;
			}
		}
		ra = readahead && !(plain && (plain[first] & PV_PLAIN));
		if (merged)
			submit_merged(q, vecs + first, i - first, ra);
		else
			submit_bio(q, vecs + first, i - first, ra);
		first = i;
		nb = 1;
		merged = false;
		len = i < n ? vecs[i].bytes : 0;
	}
	if (!q->held)
		plug_flush(q);
}

/*
 * When the request holding disk sector @last is done.  Requests are
 * logged in issue order, which is the vectors' order or (plug_lifo) its
 * reverse within a plug: search on from *@r, then from the start.
 */
static inline bool in_rq(const struct blk_done *l, uint64_t sector)
{
	return sector >= l->sector && sector < l->end;
}

static inline uint64_t done_at(const struct blk_queue *q, uint64_t last,
			       unsigned *r, uint64_t now)
{
	unsigned j = *r;

	while (j < q->nr_log && !in_rq(&q->log[j], last))
		j++;
	if (j == q->nr_log) {
		for (j = 0; j < *r && !in_rq(&q->log[j], last); j++)
			;
		if (j == *r)
			return q->held ? BLK_DONE_HELD : now;
	}
	*r = j;
	return q->log[j].done;
}

/* Room for @need vectors in q->pv (and its companions). */
static int pv_reserve(struct blk_queue *q, uint64_t need)
{
	unsigned c;
	struct blk_vec *pv;
	unsigned *of;
	uint8_t *pl;

	if (need <= q->cap_pv)
		return 0;
	if (need > UINT32_MAX / (2 * sizeof(uint64_t)))
		return -ENOMEM;
	c = (unsigned)(need > 2 * (uint64_t)q->cap_pv ? need : 2 * (uint64_t)q->cap_pv);
	pv = realloc(q->pv, c * sizeof(*pv));
	if (!pv)
		return -ENOMEM;
	q->pv = pv;
	of = realloc(q->pv_of, c * sizeof(*of));
	if (!of)
		return -ENOMEM;
	q->pv_of = of;
	pl = realloc(q->pv_plain, c * sizeof(*pl));
	if (!pl)
		return -ENOMEM;
	q->pv_plain = pl;
	q->cap_pv = c;
	return 0;
}

/* One piece of a folio: file sectors [s, e), in a hole or not. */
struct piece {
	uint64_t s, e;
	bool hole;
};

/* Walks file sectors [s, end) in pieces cut at every break and hole edge. */
struct piece_iter {
	const struct blk_layout *l;
	uint64_t s, end;
	unsigned k, h; /* the next break; the first hole ending after s */
};

static void piece_init(struct piece_iter *it, const struct blk_layout *l,
		       uint64_t s, uint64_t len)
{
	*it = (struct piece_iter){ l, s, s + len, extent_of(l, s),
				   l->nh ? hole_after(l, s) : 0 };
}

static bool piece_next(struct piece_iter *it, struct piece *p)
{
	const struct blk_layout *l = it->l;
	uint64_t cut = it->end;
	bool hole;

	if (it->s >= it->end)
		return false;
	hole = it->h < l->nh && l->hole[2 * it->h] <= it->s;
	if (it->k < l->n && brk_at(l, it->k) < cut)
		cut = brk_at(l, it->k);
	if (it->h < l->nh) {
		uint64_t edge = l->hole[2 * it->h + !!hole];

		if (edge < cut)
			cut = edge;
	}
	*p = (struct piece){ it->s, cut, hole };
	it->s = cut;
	if (it->k < l->n && cut == brk_at(l, it->k))
		it->k++;
	if (it->h < l->nh && cut == l->hole[2 * it->h + 1])
		it->h++;
	return true;
}

/*
 * Add a vector of file sectors [s, e) for folio @of, starting in memory
 * where the vector before it ends or not (@mem).
 */
static void pv_add(struct blk_queue *q, const struct blk_layout *l,
		   unsigned *np, uint64_t s, uint64_t e, unsigned of,
		   uint8_t flags, bool mem)
{
	q->pv[*np] = (struct blk_vec){ disk_of(l, s),
				       (uint32_t)((e - s) * 512), mem };
	q->pv_plain[*np] = flags;
	q->pv_of[(*np)++] = of;
}

/*
 * The vectors a bio iomap_readpage_iter() allocates at file sector @s
 * holds: one per page left in the iomap mapping there (up to its end, a
 * break or a hole's edge, or the end of the readahead, @end), at most
 * BIO_MAX_VECS, rounded up as bio_alloc() rounds them (4 inline, then the
 * 16, 64, 128 and 256 biovec slabs).  It matters where the bio goes on
 * into the next mapping, disk-contiguous past a hole: a bio started two
 * pages before a hole holds 4 vectors, and the next bio starts after
 * them.
 */
static unsigned iomap_bio_vecs(const struct blk_layout *l, uint64_t s,
			       uint64_t end)
{
	bool hole;
	uint64_t mend = blk_mapping_end(l, s, &hole), pages;

	if (mend > end)
		mend = end;
	pages = (mend - s + 7) / 8;
	return pages <= 4 ? 4 : pages <= 16 ? 16 : pages <= 64 ? 64 :
	       pages <= 128 ? 128 : BIO_MAX_VECS;
}

/*
 * Map @vecs to the disk into q->pv, folio by folio, as the filesystem
 * does.  XFS (iomap_readpage_iter()): each run of data is a vector, a
 * new bio where the next is not disk-contiguous; holes are zeroed, no
 * I/O, and a bio goes on past them.  ext4 (ext4_mpage_readpages()): a
 * folio of holes alone is zeroed (the bio goes on); a folio of contiguous
 * data then holes is one vector and its bio is submitted after it; any
 * other folio (a hole before data, or data not contiguous on the disk) is
 * "confused": read block by block through buffer heads
 * (block_read_full_folio(): a bio per mapped block, without REQ_RAHEAD),
 * which the plug merges again where the blocks are contiguous.
 */
static int map_extents(struct blk_queue *q, const struct blk_layout *l,
		       const struct blk_vec *vecs, unsigned n, unsigned *out)
{
	struct piece_iter it;
	struct piece pc;
	unsigned i, np = 0;
	int err;
	/* XFS: the current bio's disk end, its vectors and their room. */
	uint64_t bio_end = UINT64_MAX;
	uint64_t mem_end = UINT64_MAX; /* file sector after the last vector */
	unsigned nvec = 0, cap = 0;
	uint64_t batch_end = n ? vecs[n - 1].sector + vecs[n - 1].bytes / 512 : 0;

	for (i = 0; i < n; i++) {
		uint64_t s = vecs[i].sector, len = vecs[i].bytes / 512;
		uint64_t prefix = s; /* ext4: the end of the data it starts with */
		uint64_t last = 0;   /* disk sector after the data so far */
		bool confused = false, hole_seen = false, data = false;

		piece_init(&it, l, s, len);
		if (!q->by_block) {
			while (piece_next(&it, &pc)) {
				uint64_t d;
				bool mem;

				if (pc.hole)
					continue;
				if ((err = pv_reserve(q, (uint64_t)np + 1)))
					return err;
				/* A new bio, sized where it starts. */
				d = disk_of(l, pc.s);
				/* The folio's next piece, or the next folio. */
				mem = pc.s == mem_end &&
				      (pc.s != s || vecs[i].mem_next);
				if (d != bio_end || (nvec == cap && !mem)) {
					if (np)
						q->pv_plain[np - 1] |= PV_END_BIO;
					cap = iomap_bio_vecs(l, pc.s, batch_end);
					nvec = 0;
					mem = false;
				}
				pv_add(q, l, &np, pc.s, pc.e, i, 0, mem);
				if (!mem)
					nvec++;
				bio_end = d + (pc.e - pc.s);
				mem_end = pc.e;
			}
			continue;
		}
		while (!confused && piece_next(&it, &pc)) {
			if (pc.hole) {
				hole_seen = true;
				continue;
			}
			if (hole_seen || (data && disk_of(l, pc.s) != last))
				confused = true;
			data = true;
			last = disk_of(l, pc.e - 1) + 1;
			prefix = pc.e;
		}
		if ((err = pv_reserve(q, (uint64_t)np + (confused ? len / 8 : 1))))
			return err;
		if (!confused) {
			/* Contiguous data, then holes (or holes alone). */
			if (prefix > s)
				pv_add(q, l, &np, s, prefix, i,
				       prefix < s + len ? PV_END_BIO : 0,
				       s == mem_end && vecs[i].mem_next);
			mem_end = prefix;
			continue;
		}
		/* Block by block, the mapped blocks only. */
		for (; s < vecs[i].sector + len; s += 8) {
			if (l->nh) {
				unsigned h = hole_after(l, s);

				if (h < l->nh && l->hole[2 * h] <= s)
					continue;
			}
			pv_add(q, l, &np, s, s + 8, i, PV_PLAIN, false);
		}
		mem_end = UINT64_MAX;
	}
	*out = np;
	return 0;
}

/* blk_submit_read() for a fragmented file, out of the common path. */
static __attribute__((noinline)) int
submit_fragmented(struct blk_queue *q, const struct blk_layout *l,
		  const struct blk_vec *vecs, unsigned n, bool readahead,
		  uint64_t now, uint64_t *done)
{
	unsigned i, np, r = 0;
	int err;

	if ((err = map_extents(q, l, vecs, n, &np)))
		return err;
	q->lay = l;
	submit_vecs(q, q->pv, q->pv_plain, np, readahead);
	q->lay = NULL;
	/* A folio is in memory when the last request holding a piece is. */
	for (i = 0; done && i < n; i++)
		done[i] = now;
	for (i = 0; done && i < np; i++) {
		uint64_t d = done_at(q, q->pv[i].sector + q->pv[i].bytes / 512 - 1,
				     &r, now);

		if (d > done[q->pv_of[i]])
			done[q->pv_of[i]] = d;
	}
	return 0;
}

int blk_submit_read(struct blk_queue *q, const struct blk_layout *lay,
		    const struct blk_vec *vecs, unsigned n, bool readahead,
		    uint64_t now, uint64_t *done)
{
	unsigned i, r = 0;

	q->now = now;
	q->nr_log = 0;
	if (lay && (lay->n || lay->nh))
		return submit_fragmented(q, lay, vecs, n, readahead, now, done);
	submit_vecs(q, vecs, NULL, n, readahead);
	/* A vector is in memory when the request holding its end is. */
	for (i = 0; done && i < n; i++)
		done[i] = done_at(q, vecs[i].sector + vecs[i].bytes / 512 - 1,
				  &r, now);
	return 0;
}

/*
 * An O_DIRECT read (__iomap_dio_rw(), XFS and ext4 alike): one plug; for
 * each mapping of the range (an extent's data up to a break or a hole;
 * holes are zeroed in memory, iomap_dio_hole_iter()) bios of up to
 * BIO_MAX_VECS vectors, one per page of the caller's buffer (page-aligned,
 * its pages taken as not physically contiguous) or the part of one in
 * the mapping, so a bio ends at every mapping's end; each is split at the
 * queue limits and merged in the plug as a buffered read's are, with
 * REQ_SYNC | REQ_IDLE ("RS").
 *
 *   read:     [ page | page | page | page | page ]  buffer pages
 *   file:     [ data        ][ hole ][ data      ]
 *   bios:     [ v  | v  | v ]         [ v | v    ]  two bios, no I/O
 *                                                   for the hole
 */
int blk_submit_direct(struct blk_queue *q, const struct blk_layout *lay,
		      uint64_t sector, uint64_t nr, uint64_t now, uint64_t *done)
{
	static const struct blk_layout flat;
	struct piece_iter it;
	struct piece pc;
	unsigned i;
	int err = 0;

	q->now = now;
	q->nr_log = 0;
	if (!lay)
		lay = &flat;
	q->lay = lay->n || lay->nh ? lay : NULL;
	q->rq_sync = true;
	piece_init(&it, lay, sector, nr);
	while (!err && piece_next(&it, &pc)) {
		uint64_t s = pc.s;
		unsigned n = 0;

		if (pc.hole)
			continue;
		if ((err = pv_reserve(q, BIO_MAX_VECS)))
			break;
		while (s < pc.e) {
			/* The buffer page holding file sector s ends here. */
			uint64_t e = sector + ((s - sector) / 8 + 1) * 8;

			if (e > pc.e)
				e = pc.e;
			q->pv[n++] = (struct blk_vec){
				disk_of(lay, s), (uint32_t)((e - s) * 512),
				false /* buffer pages: apart */
			};
			s = e;
			if (n == BIO_MAX_VECS || s == pc.e) {
				submit_bio(q, q->pv, n, false);
				n = 0;
			}
		}
	}
	plug_flush(q);
	q->rq_sync = false;
	q->lay = NULL;
	*done = now;
	for (i = 0; i < q->nr_log; i++)
		if (q->log[i].done > *done)
			*done = q->log[i].done;
	return err;
}

int blk_submit_read_sync(struct blk_queue *q, const struct blk_layout *lay,
			 const struct blk_vec *vec, uint64_t now,
			 uint64_t *done)
{
	int err;

	q->rq_sync = true;
	err = blk_submit_read(q, lay, vec, 1, false, now, done);
	q->rq_sync = false;
	return err;
}
