/* SPDX-License-Identifier: MIT */
/*
 * blk.h - the block layer between a readahead batch and the device:
 * queue limits and their sysfs semantics, bios, splitting, plugging.
 */
#ifndef RALAB_BLK_H
#define RALAB_BLK_H

#include <stdbool.h>
#include <stdint.h>

#include "ralab.h"

#define BLK_PLUG_MAX_RQ 32               /* BLK_MAX_REQUEST_COUNT */
#define BLK_PLUG_FLUSH_SIZE (128u << 10) /* bytes */
#define BIO_MAX_VECS 256
#define BLK_EXTENT_GAP 8 /* sectors between two extents of a file */

/*
 * struct blk_layout - where a file is not disk-contiguous: extent k + 1
 * starts at file sector brk[k] (ascending; or (k + 1) * every when @every
 * is set, for extent_kb, without a list) for k < n, and lies
 * BLK_EXTENT_GAP sectors past extent k's end on the disk, as the recorder
 * lays files out.  Holes (and unwritten extents) are read without I/O:
 * file sectors [hole[2j], hole[2j + 1]) for j < nh.  A file's own holes
 * take no disk space: where no break is, the data after such a hole
 * follows the data before it on the disk:
 *
 *   file:  [ data ][ hole ][ data ]|[ data ]    | a break
 *   disk:  [ data ][ data ]  gap  [ data ]
 *
 * A hole that a truncate or a punch made keeps its space (the data after
 * it stays where it was; the allocator puts data written after a hole
 * as far on the disk as it is in the file: xfs_bmap_adjacent(),
 * ext4_ext_find_goal()).  hcum[j]: the sectors of the space-less holes
 * before hole j (hcum[nh]: all of them); hole j keeps its space when
 * hcum[j + 1] == hcum[j].  Holes may touch.
 */
struct blk_layout {
	const uint64_t *brk;  /* borrowed */
	unsigned n;
	uint64_t every;       /* sectors */
	const uint64_t *hole; /* borrowed */
	const uint64_t *hcum;
	unsigned nh;
};

/* One request waiting in the plug. */
struct blk_rq {
	uint64_t sector;
	uint32_t nr_sectors;
	uint32_t nr_segs;
	bool readahead;
	bool sync; /* REQ_SYNC (blk_queue.rq_sync when submitted) */
};

/*
 * struct blk_queue - one request queue with its backing_dev_info.
 * Limits are in sectors/bytes as in struct queue_limits.
 */
struct blk_queue {
	uint32_t max_sectors;        /* sectors */
	uint32_t max_hw_sectors;     /* sectors */
	uint32_t max_segments;
	uint32_t max_segment_size;   /* bytes */
	uint32_t logical_block_size; /* bytes */
	uint32_t physical_block_size;
	uint64_t io_opt;             /* bytes */
	bool rotational;
	unsigned long ra_pages;      /* bdi->ra_pages */
	unsigned long io_pages;      /* bdi->io_pages */

	struct blk_rq plug[BLK_PLUG_MAX_RQ];
	unsigned plug_count;
	/*
	 * Issue a flushed plug's requests last first: blk-mq's plug list was
	 * popped from its head (6.1.192 and 6.8.0-31 do so; 6.12.117 and
	 * 6.18 issue them in order).
	 */
	bool plug_lifo;
	/*
	 * The submitting task holds a plug of its own around the call
	 * (blk_start_plug() in madvise_do_behavior(): MADV_WILLNEED and
	 * MADV_POPULATE_*): read_pages()' own plug is then nested and
	 * flushes nothing, so requests stay in the plug, merging with the
	 * next submission's, until the plug fills (blk_add_rq_to_plug()),
	 * the task sleeps or the call ends (blk_plug_flush()).  A vector
	 * whose request is still in the plug is done at BLK_DONE_HELD.
	 */
	bool held;
	/*
	 * QUEUE_FLAG_NOMERGES (sysfs nomerges 2): blk_mq_submit_bio() tries
	 * no plug merge, and blk_add_rq_to_plug() does not flush the plug
	 * behind a request of BLK_PLUG_FLUSH_SIZE or more.
	 */
	bool nomerges;
	/*
	 * @lay: the layout of the file of the current submission (NULL: one
	 * extent).  @by_block: the filesystem reads a folio across an
	 * extent's end block by block (ext4's mpage; XFS's iomap does not).
	 * @pv, @pv_of, @pv_plain are scratch: the vectors cut at extent
	 * ends, the folio each belongs to, and whether it is read by block.
	 */
	const struct blk_layout *lay;
	bool by_block;
	/*
	 * Submitting REQ_SYNC reads ("RS"): an O_DIRECT read
	 * (blk_submit_direct), or one submit_bio_wait() makes (XFS's reads
	 * of a block a write covers in part, iomap_read_folio_range()).
	 */
	bool rq_sync;
	struct blk_vec *pv;
	unsigned *pv_of;
	uint8_t *pv_plain;
	unsigned cap_pv;

	/*
	 * The device: up to @qd requests in service, each done @lat_ns after
	 * it starts, its data moving at @bw bytes/s, one request at a time;
	 * and at most one request starting every @admit_ns (dev_iops); a
	 * request's latency grows by @share_ns for each one in service when
	 * it starts (dev_contention_ns).  Completion times only grow (the
	 * channel serialises them), so the in-service set is a FIFO.
	 */
	uint64_t lat_ns, bw, admit_ns, share_ns;
	unsigned qd;
	uint64_t *inflight;   /* ring of completion times */
	unsigned in_head, in_count;
	uint64_t chan_free;
	uint64_t next_admit;  /* when the next request may start */
	uint64_t now;         /* issue time of the current submission */
	/* Requests of the current submission: sector ranges and when done. */
	struct blk_done { uint64_t sector, end, done; } *log;
	unsigned nr_log, cap_log;

	/* Where issued requests go: counted in @st, reported to @emit. */
	struct ralab_stats *st;
	void (*emit)(void *arg, const struct ralab_event *ev);
	void *emit_arg;
};

/* The completion time of a vector whose request waits in a held plug. */
#define BLK_DONE_HELD UINT64_MAX

/* The bucket of ralab_stats.rq_size_hist for a request of @sectors. */
static inline unsigned blk_rq_bucket(uint32_t sectors)
{
	unsigned k = 0;

	while (k + 1 < RALAB_RQ_BUCKETS && (uint64_t)sectors >= (16ull << k))
		k++;
	return k;
}

/*
 * A contiguous piece of a bio: one folio.  @mem_next: it starts in memory
 * where the vector before it ends (the caller knows where its folios lie:
 * sim.c), so that bio_add_folio() merges the two into one vector.
 */
struct blk_vec {
	uint64_t sector;
	uint32_t bytes;
	bool mem_next;
};

/*
 * blk_queue_setup - a loop device as attached (limits from @cfg), then
 * sysfs writes of max_sectors_kb and read_ahead_kb, in that order.
 * Return: 0 or -EINVAL when a value is one the kernel refuses.
 */
int blk_queue_setup(struct blk_queue *q, const struct ralab_config *cfg);

/* queue/max_sectors_kb store: re-derives bdi->ra_pages and io_pages. */
int blk_set_max_sectors_kb(struct blk_queue *q, uint32_t kb);
/* queue/read_ahead_kb store. */
void blk_set_read_ahead_kb(struct blk_queue *q, uint32_t kb);

/*
 * blk_submit_read - submit the folios of one read_pages() call (or one
 * read_folio()) inside one plug, at time @now: @vecs in file sectors,
 * mapped to the disk by @lay (NULL or empty: one extent; a folio across
 * an extent's end in two pieces), bios
 * of up to 256 disk-contiguous vectors, split at the queue limits, merged
 * in the plug, issued when the plug is flushed (and reported in file
 * sectors).  @done[i] receives when the data of @vecs[i] is in memory
 * (the completion of the last request holding a piece of it).
 *
 * Return: 0, or -ENOMEM (nothing submitted) when the pieces of a
 * fragmented file do not fit in memory.
 */
int blk_submit_read(struct blk_queue *q, const struct blk_layout *lay,
		    const struct blk_vec *vecs, unsigned n, bool readahead,
		    uint64_t now, uint64_t *done);

/*
 * blk_submit_direct - an O_DIRECT read of file sectors [@sector, @sector +
 * @nr) at time @now, mapped by @lay (NULL: one extent), as
 * __iomap_dio_rw() submits it; *@done receives when its last request is
 * done.  Return: 0, or -ENOMEM (part of it submitted).
 */
int blk_submit_direct(struct blk_queue *q, const struct blk_layout *lay,
		      uint64_t sector, uint64_t nr, uint64_t now,
		      uint64_t *done);

/*
 * blk_submit_read_sync - blk_submit_read() of one plain read that the
 * filesystem waits for with submit_bio_wait(), which marks it REQ_SYNC.
 */
int blk_submit_read_sync(struct blk_queue *q, const struct blk_layout *lay,
			 const struct blk_vec *vec, uint64_t now,
			 uint64_t *done);

/*
 * blk_plug_flush - issue the requests of a held plug at time @now
 * (blk_finish_plug(), or schedule() of a task that sleeps with one):
 * @lay is the layout of the file they read (NULL: one extent).  Then
 * q->log[0 .. q->nr_log) holds them, in disk sectors, with when each is
 * done.
 */
void blk_plug_flush(struct blk_queue *q, const struct blk_layout *lay,
		    uint64_t now);

/*
 * blk_plug_take - move the plug's requests into @out (room for
 * BLK_PLUG_MAX_RQ), leaving it empty: the plug is per task, and the
 * task is off the CPU.  blk_plug_put() puts @n of them back.
 */
unsigned blk_plug_take(struct blk_queue *q, struct blk_rq *out);
void blk_plug_put(struct blk_queue *q, const struct blk_rq *in, unsigned n);

/* blk_file_sector - the file sector of disk sector @d under @lay. */
uint64_t blk_file_sector(const struct blk_layout *lay, uint64_t d);

/*
 * blk_mapping_end - the file sector where the mapping holding file sector
 * @s ends: the next extent's start or the next edge of a hole (UINT64_MAX:
 * none), as a filesystem's block mapping (an iomap) would end there;
 * *@hole tells whether @s lies in a hole.
 */
uint64_t blk_mapping_end(const struct blk_layout *lay, uint64_t s, bool *hole);
/* The file sector where the extent holding file sector @s ends (holes aside). */
uint64_t blk_extent_end(const struct blk_layout *lay, uint64_t s);

/*
 * blk_write_time - writeback of @bytes of contiguous file data at @now,
 * in requests of up to max_sectors_kb, through the device model: when
 * the last is done (@now on a device whose I/O takes no time).  Write
 * requests are not events (ralab compares reads).
 */
uint64_t blk_write_time(struct blk_queue *q, uint64_t bytes, uint64_t now);

/* The device times of @cfg; blk_queue_release() frees the queue's memory. */
int blk_queue_timing(struct blk_queue *q, const struct ralab_config *cfg);
void blk_queue_release(struct blk_queue *q);

#endif
