/* SPDX-License-Identifier: MIT */
/*
 * trace.h - building .ops text from a recorded I/O trace.  Descriptors are
 * keyed by two numbers (a process id and a descriptor number for strace,
 * a file for iologs).
 */
#ifndef RALAB_TRACE_H
#define RALAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TB_MAX_FILES 256   /* files a replay reads (its .ops 'file's) */
#define TB_MAX_PATHS 4096  /* files a log opens, written-only ones too */
#define TB_MAX_OPS (1u << 22)

struct tb;

/* Make *@p (of *@cap elements of @size bytes) hold @need: false if out of
 * memory. */
bool tb_grow(void **p, unsigned *cap, size_t need, size_t size);

struct tb *tb_new(void);
void tb_free(struct tb *t);
/* The file of @path (created on first use); -errno if too many. */
int tb_file(struct tb *t, const char *path);

/*
 * What the trace cannot show of a file, noted when it was recorded ('ralab
 * record' appends it to an strace log): its size, filesystem, the readahead
 * settings of its device, and where it is not contiguous on the disk.
 */
struct tb_layout {
	uint64_t size;
	char fs[16];                       /* "": not known */
	unsigned ra_kb, msk_kb, mhw_kb;    /* 0: not known */
	bool have_dev;                     /* ra_kb.. were given */
	uint64_t *brk;                     /* extent starts (owned by tb) */
	unsigned nbrk;
	uint64_t *hole;    /* holes, unwritten extents: [start, end) pairs */
	unsigned nhole;    /* (owned by tb) */
	unsigned dropped;  /* edges not on a 4 KiB boundary, left out */
	/*
	 * All in the page cache before the run (cached=1): its reads make
	 * no device reads and no readahead, and it is not replayed.
	 */
	bool cached;
	/*
	 * The readahead state of its descriptor when 'ralab record -p'
	 * attached (f_ra=), from the kernel's first readahead call on the
	 * file after it.
	 */
	bool has_fra;
	struct tb_fra {
		bool start_known; /* '?': from the file's marked folio */
		uint64_t start;
		unsigned size, async_size, order, mmap_miss;
		int64_t prev_pos;
	} fra;
};

/*
 * tb_layout - @path's layout; takes @lay->brk and @lay->hole.  A path the trace never
 * opened is ignored (0).  -EEXIST if @path was given one already.
 */
int tb_layout(struct tb *t, const char *path, struct tb_layout *lay);
/*
 * tb_paths - the paths of the files read, as opened (up to @max into
 * @paths, which point into @t), and whether each was read only through
 * O_DIRECT descriptors (into @direct); returns how many there are.
 */
unsigned tb_paths(const struct tb *t, const char **paths, bool *direct,
		  unsigned max);
/* tb_nr_cached - how many files read were marked cached=1 (not replayed). */
unsigned tb_nr_cached(const struct tb *t);
/*
 * tb_replayed - whether @path is a file the replay reads (read, and not
 * marked cached=1); after the log's '# ralab file' lines.
 */
bool tb_replayed(const struct tb *t, const char *path);
/*
 * A descriptor is opened; @file < 0: on a file that is not replayed, kept
 * so that its number does not stand for another (a lookup that finds no
 * descriptor (@k1, @k2) takes the latest open one numbered @k2: threads
 * share descriptors, and children inherit them).
 */
int tb_open(struct tb *t, long k1, long k2, int file);
/*
 * The same with O_DIRECT: its reads go to the device (those that returned
 * 0, at EOF, are left out); its writes are replayed over the file's own
 * blocks (not into holes, nor into a file truncated or fallocated: noted).
 */
int tb_open_direct(struct tb *t, long k1, long k2, int file);
void tb_close(struct tb *t, long k1, long k2);
/*
 * dup2(), dup(), fcntl(F_DUPFD): (@k1, @newk2) is (@k1, @oldk2)'s open file
 * too, after closing what @newk2 was.  The file stays open until the last
 * of its numbers is closed.
 */
int tb_dup(struct tb *t, long k1, long oldk2, long newk2);
/* The open descriptors keyed @from are keyed @to from now on. */
void tb_share(struct tb *t, long from, long to);
/* fork(): table @to gets a copy of table @from's open descriptors. */
int tb_fork(struct tb *t, long from, long to);
/* A process's exit: the descriptors of its table @k1 are closed. */
void tb_exit(struct tb *t, long k1);
/* Whether (@k1, @k2) is a replayed descriptor. */
bool tb_known(struct tb *t, long k1, long k2);
/*
 * A read of @count bytes at @off that returned @ret (TB_RET_FILE: what
 * the file holds there, not in the log: the kernel's own reads of a
 * program execve() runs); @dontcache: preadv2(2) with RWF_DONTCACHE
 * (replayed under 'rwf dontcache').
 */
#define TB_RET_FILE INT64_MAX
void tb_read_rwf(struct tb *t, long k1, long k2, uint64_t off,
		 uint64_t count, int64_t ret, bool dontcache);
static inline void tb_read(struct tb *t, long k1, long k2, uint64_t off,
			   uint64_t count, int64_t ret)
{
	tb_read_rwf(t, k1, k2, off, count, ret, false);
}
/*
 * splice(2) from the file at @off of @len bytes into a pipe, which took
 * @ret (replayed as 'splice', the pipe's free buffers told from @ret:
 * 16, a new pipe, unless it filled before @len and before EOF); with
 * @direct_pipe, sendfile(2) or copy_file_range(2), which splice through
 * a pipe of their own until @len or EOF ('sendfile').
 */
void tb_splice(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int64_t ret, bool direct_pipe);
/*
 * Descriptor (@k1, @k2) was open when 'ralab record -p' attached: its
 * file's readahead state then is set on it ('ra'), if the file's line
 * gives one (f_ra=) and this is the file's only such descriptor.
 */
void tb_attach_open(struct tb *t, long k1, long k2);
/* tb_fra_set - whether the replay sets @path's readahead state so. */
bool tb_fra_set(const struct tb *t, const char *path);
/*
 * Folios the file had in the page cache at a 'ralab record -p' attach:
 * @nr pages from page @index in folios of @order, PG_readahead on them
 * with @mark ('cached'; no I/O).
 */
void tb_cached(struct tb *t, long k1, long k2, uint64_t index, uint64_t nr,
	       unsigned order, bool mark);
/* fsync(2) or fdatasync(2): the file's written folios go back clean. */
void tb_fsync(struct tb *t, long k1, long k2);
/* fcntl(F_SETFL): O_DIRECT set (@direct) or cleared on the open file. */
void tb_setfl(struct tb *t, long k1, long k2, bool direct);
/*
 * A write of @len bytes (what the call wrote) at @off; @dontcache: a
 * pwritev2(2) with RWF_DONTCACHE (replayed under 'rwf dontcache').
 */
void tb_write_rwf(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
		  bool dontcache);
static inline void tb_write(struct tb *t, long k1, long k2, uint64_t off,
			    uint64_t len)
{
	tb_write_rwf(t, k1, k2, off, len, false);
}
/*
 * fallocate(2) of [off, off + len): mode 0, or FALLOC_FL_KEEP_SIZE
 * (@keep): the file's size stays.
 */
void tb_fallocate(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
		  bool keep);
/*
 * fallocate(2) with FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE (@zero
 * TB_PUNCH_HOLE), FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE
 * (TB_ZERO_KEEP) or FALLOC_FL_ZERO_RANGE alone (TB_ZERO_GROW: it moves
 * EOF if the range passes it).
 */
enum { TB_PUNCH_HOLE = 0, TB_ZERO_KEEP = 1, TB_ZERO_GROW = 2 };
void tb_punch(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	      int zero);
/*
 * madvise(MADV_REMOVE) through mapping @vm: a punch of [@off, @off +
 * @len) of its file (madvise_remove() calls vfs_fallocate(PUNCH_HOLE |
 * KEEP_SIZE)), on the descriptor the mapping was made from.
 */
void tb_punch_vm(struct tb *t, unsigned vm, uint64_t off, uint64_t len);
/* ftruncate(2) of a replayed file (an open with O_TRUNC: to 0). */
void tb_truncate(struct tb *t, long k1, long k2, uint64_t size);
/* fstat() of a descriptor said the file was @size bytes then. */
void tb_stat(struct tb *t, long k1, long k2, uint64_t size);
/*
 * truncate(2) of @path to @size, by a process whose descriptor table is
 * @k1: replayed on a descriptor the file has open, else on one of its own
 * (the file is registered as tb_file() does: -ENOSPC, -ENOMEM).
 */
int tb_truncate_path(struct tb *t, long k1, const char *path, uint64_t size);
/*
 * stat() of @path said @size: the file's, if it is open or opened later
 * (TB_PATH_STATS paths not opened yet are kept); 0 or -ENOMEM.
 */
#define TB_PATH_STATS 16
int tb_stat_path(struct tb *t, const char *path, uint64_t size);
/*
 * The file's size now, known after a truncate (then true, *@size set):
 * where an O_APPEND write goes.
 */
bool tb_cur_size(struct tb *t, long k1, long k2, uint64_t *size);
void tb_advise(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int advice, bool readahead);
/*
 * Mappings.  tb_mmap(): (@k1, @k2) maps [@off, @off + @len) of its file
 * (@off page-aligned; @flags TB_MAP_*: MAP_POPULATE, every page up to
 * the file's end faulted in by the mmap() call; MAP_LOCKED, the same,
 * and the mapping locked; PROT_EXEC); returns the mapping's
 * number, -ENOENT if the descriptor is not replayed, or -errno.
 * tb_touch(): a page fault on it at file offset @off (a read; the
 * fault-around and readahead that follow are the model's).  tb_madvise():
 * madvise() of [@off, @off + @len) of the file through it (MADV_*_
 * advice; others are not replayed).  A mapping holds its file open: the
 * descriptor's close waits for its munmap.  tb_munmap_part(): [@off,
 * @off + @len) of the file goes out of it (munmap() of part of it, or a
 * MAP_FIXED mapping made over it), the rest stays.
 */
enum { TB_MAP_POPULATE = 1, TB_MAP_LOCKED = 2, TB_MAP_EXEC = 4,
       TB_MAP_WRITE = 8 };
int tb_mmap(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	    unsigned flags);
void tb_munmap(struct tb *t, unsigned vm);
void tb_munmap_part(struct tb *t, unsigned vm, uint64_t off, uint64_t len);
/* msync(): writeback of mapping @vm's file (an fsync of it). */
void tb_msync(struct tb *t, unsigned vm);
void tb_madvise(struct tb *t, unsigned vm, uint64_t off, uint64_t len,
		int advice);
void tb_touch(struct tb *t, unsigned vm, uint64_t off, int wfault);
/* mprotect(2) of [@off, @off + @len) of the file through @vm (PROT_*_). */
void tb_mprotect(struct tb *t, unsigned vm, uint64_t off, uint64_t len,
		 int prot);
/* mlock(2) (@how MLOCK_ON_, MLOCK_ONFAULT_) or munlock (MLOCK_OFF_). */
void tb_mlock(struct tb *t, unsigned vm, uint64_t off, uint64_t len, int how);
/*
 * Time the traced program spent between two replayed calls (computing,
 * or in calls not replayed): a pause before the next op.  Pauses are all
 * left out after tb_untimed().
 */
void tb_pause(struct tb *t, uint64_t us);
/*
 * The next op starts no earlier than @us after the op before it started
 * (fio's iolog replay keeps the log's pace this way).
 */
void tb_pace(struct tb *t, uint64_t us);
/* Some calls had no timing: replay without pauses, saying @why. */
void tb_untimed(struct tb *t, const char *why);
/*
 * Per-process replay.  tb_call(): a call of process (or thread) @pid
 * begins; the ops it adds are that process's.  tb_stamp(): it ran from
 * @start to @end (microseconds on the log's clock).  tb_concurrent():
 * calls of two processes overlapped, so one stream with pauses cannot
 * keep the timeline; the output then has a job per process, each with
 * the pauses of its own timeline (if every replayed call was stamped).
 */
void tb_call(struct tb *t, long pid);
void tb_stamp(struct tb *t, int64_t start, int64_t end);
void tb_concurrent(struct tb *t);
void tb_note(struct tb *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* More than TB_MAX_OPS operations were given (the rest dropped). */
bool tb_full(const struct tb *t);
/* The .ops text (malloc'ed), or -ENODATA when no file was read. */
int tb_emit(struct tb *t, const char *what, const char *source, char **ops);

#endif
