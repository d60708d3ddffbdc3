/* SPDX-License-Identifier: MIT */
/*
 * workload.h - a parsed workload: the configuration and a list of ops.
 */
#ifndef RALAB_WORKLOAD_H
#define RALAB_WORKLOAD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "ralab.h"

#define RALAB_DEFAULT_SEED 88172645463325252ull
#define RALAB_MAX_POS INT64_MAX /* s_maxbytes-like bound on offsets */

enum op_kind {
	OP_READ,         /* read LEN [COUNT|eof] */
	OP_PREAD,        /* pread OFF LEN */
	OP_SEEK,         /* seek OFF */
	OP_RAND_PREAD,   /* rand-pread LEN COUNT [SEED] */
	OP_STRIDE_PREAD, /* stride-pread OFF LEN STRIDE COUNT */
	OP_SHUFFLE_PREAD, /* shuffle-pread OFF SIZE LEN [SEED]: each block once */
	OP_FIO_PREAD,    /* fio-pread OFF SIZE LEN COUNT SEED [nomap]: fio's
			  * random offsets (fio_rand.c) */
	OP_OPEN,         /* open [NAME] [direct], or file NAME SIZE: descriptor
			  * @fd on @ino */
	OP_CLOSE,        /* close */
	OP_FADVISE,      /* fadvise OFF LEN ADVICE */
	OP_READAHEAD,    /* readahead OFF LEN */
	OP_MMAP,         /* mmap OFF LEN: map [OFF, OFF+LEN) shared, read-only */
	OP_TOUCH,        /* touch OFF LEN [STEP]: read a byte every STEP */
	OP_MADVISE,      /* madvise OFF LEN ADVICE */
	OP_MUNMAP,       /* munmap (len: that part, a hole; 0: all) */
	OP_DUMP,         /* dump: the page cache of the current file */
	OP_PAUSE,        /* pause USEC: the job computes (@len ns, no I/O) */
	OP_PACE,         /* pace USEC: the next op starts no earlier than
			  * @len ns after the one before it started */
	OP_WRITE,        /* write LEN [COUNT]: buffered writes at f_pos */
	OP_PWRITE,       /* pwrite OFF LEN: a buffered write at OFF */
	OP_FIO_PWRITE,   /* fio-pwrite OFF SIZE LEN COUNT SEED [nomap] [t64]:
			  * pwrite at fio-pread's offsets (fio's randwrite) */
	OP_FSYNC,        /* fsync: write the file's dirty folios back */
	OP_TRUNCATE,     /* truncate 0: ftruncate(2) to an empty file */
	OP_FALLOCATE,    /* fallocate OFF LEN [keep]: fallocate(2), mode 0
			  * or FALLOC_FL_KEEP_SIZE (@advice 1) */
	OP_SETFL,        /* setfl direct|buffered: fcntl(F_SETFL) sets or
			  * clears O_DIRECT (@direct) on the open file */
	OP_MEMCPY,       /* memcpy OFF LEN [COUNT [BUFOFF]] [write]: @count
			  * copies of @len from @off on, out of the
			  * mapping into a buffer @stride bytes into a
			  * page (write: into it), in the C library's
			  * page order (memcpy_back_*) */
	OP_EPOCH,        /* epoch: the job's think time, rate and runtime
			  * count from here (fio's td->epoch, after
			  * pre_read) */
	OP_PUNCH,        /* punch OFF LEN: fallocate(2) with
			  * FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, whole
			  * blocks of a file the case does not write;
			  * zero-range OFF LEN (@advice 1): the same with
			  * FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE */
	OP_MLOCK,        /* mlock OFF LEN [onfault] (@advice MLOCK_ON_ or
			  * MLOCK_ONFAULT_), munlock OFF LEN (MLOCK_OFF_) */
	OP_MPROTECT,     /* mprotect OFF LEN PROT: @advice PROT_R_ | ... */
	OP_SPLICE,       /* splice OFF LEN [PAGES]: splice(2) from the file
			  * into a pipe with @count free buffers (16) */
	OP_SENDFILE,     /* sendfile OFF LEN [BYTES]: sendfile(2), splices
			  * through an emptied 16-buffer pipe until @count
			  * bytes (LEN) have gone through, or EOF */
	OP_CACHED,       /* cached OFF LEN [ORDER] [readahead]: folios of
			  * order @count the page cache had before the case
			  * began, PG_readahead on them with @advice; no I/O,
			  * no events (ralab record -p: the kernel's at the
			  * attach) */
	OP_RA_STATE,     /* ra start=N size=N async_size=N order=N
			  * mmap_miss=N prev_pos=N: the descriptor's
			  * file_ra_state (@off, @len, @count, @seed: order
			  * and mmap_miss << 16, @stride) (ralab record -p:
			  * the kernel's at the attach) */
};

/*
 * A pipe's buffers: 16 in a new one (PIPE_DEF_BUFFERS), up to 256 by
 * F_SETPIPE_SZ within /proc/sys/fs/pipe-max-size's default 1 MiB.  Each
 * holds at most a page of a spliced file: OP_SPLICE's limit.
 */
#define PIPE_DEF_BUFFERS 16
#define PIPE_MAX_BUFFERS 256

/* OP_MPROTECT's @advice: PROT_READ, PROT_WRITE, PROT_EXEC (0: none). */
enum { PROT_R_ = 1, PROT_W_ = 2, PROT_X_ = 4 };

/* OP_MLOCK's @advice: munlock(2), mlock(2), mlock2(MLOCK_ONFAULT). */
enum { MLOCK_OFF_ = 0, MLOCK_ON_ = 1, MLOCK_ONFAULT_ = 2 };

/*
 * A touch's kind of fault: a read (do_read_fault: fault-around first), a
 * write through a shared mapping (do_shared_fault: no fault-around, the
 * folio dirtied) or through a private one (do_cow_fault: no fault-around,
 * the page copied; the page cache folio stays clean).  TOUCH_GUP is the
 * read fault of mmap(MAP_POPULATE)'s get_user_pages() (sim_populate()).
 */
enum { TOUCH_READ = 0, TOUCH_WRITE = 1, TOUCH_COW = 2, TOUCH_GUP = 3 };

/* madvise advice, as ralab names them (MADV_* values on x86-64). */
enum {
	MADV_NORMAL_ = 0,
	MADV_RANDOM_ = 1,
	MADV_SEQUENTIAL_ = 2,
	MADV_WILLNEED_ = 3,
	MADV_DONTNEED_ = 4,        /* unmaps; the page cache keeps the pages */
	MADV_HUGEPAGE_ = 14,
	MADV_NOHUGEPAGE_ = 15,
	MADV_COLD_ = 20,
	MADV_PAGEOUT_ = 21,       /* reclaims the folios it maps whole */
	MADV_POPULATE_READ_ = 22,  /* 'touch' of every page, one call */
	MADV_POPULATE_WRITE_ = 23,
	MADV_DONTNEED_LOCKED_ = 24, /* MADV_DONTNEED, locked VMAs too (5.18) */
};

/*
 * Where a punch or zero-range may end: 16 TiB, ext4's s_maxbytes with
 * 4 KiB blocks (2^32 blocks), rounded; fallocate(2) fails with EFBIG past
 * it there (XFS's is 8 EiB).  The parser refuses more, the strace replay
 * cuts there.
 */
#define WL_PUNCH_MAX (1ULL << 44)

/* POSIX_FADV_* values, as the kernel numbers them on x86-64. */
enum {
	FADV_NORMAL = 0,
	FADV_RANDOM = 1,
	FADV_SEQUENTIAL = 2,
	FADV_WILLNEED = 3,
	FADV_DONTNEED = 4,
	FADV_NOREUSE = 5,
};

/*
 * One op.  Descriptors are resolved when the workload is parsed: @fd is
 * the index of the descriptor the op uses (descriptors are numbered in
 * the order they are opened; 0 is the one the case starts with), @ino the
 * file (0 is the case's file).
 */
/*
 * Mappings a job may hold at once (mmap ops name one by its slot): as
 * many as a fio job has files, so that its mmap engine, which never
 * unmaps, can keep each.
 */
#define MAX_MAPS 64
/* Holes 'munmap OFF LEN' may leave in one mapping at once. */
#define MAX_HOLES 64

struct op {
	enum op_kind kind;
	unsigned line;
	bool to_eof;     /* read: until read returns 0 */
	unsigned fd, ino;
	unsigned map;    /* mmap, touch, madvise, munmap: the job's slot */
	int advice;
	uint64_t off, len, count, seed;
	int64_t stride;
	/* fio-pread (and fio-pwrite): the blocks of its region (fio's lastb) */
	uint64_t blocks;
	bool nomap;      /* fio-pread: without fio's random map */
	bool cont;       /* fio-pread: draws go on from the job's last one
			  * (past the draw that found the map full) */
	bool t64;        /* fio-pread: tausworthe64 (SEED is 64-bit) */
	int wfault;      /* touch: 0 read, TOUCH_WRITE, TOUCH_COW */
	bool populate;   /* touch: one madvise(MADV_POPULATE_READ or
			  * _WRITE) over the range, not the program's own
			  * loads and stores; mmap: MAP_POPULATE */
	bool locked;     /* mmap: MAP_LOCKED (mlock()ed, populated) */
	bool exec;       /* mmap: PROT_EXEC too (VM_EXEC) */
	bool mwrite;     /* mmap: PROT_WRITE ('write'; every mapping of a
			  * case that writes is writable anyway) */
	bool madv_remove; /* punch: madvise(MADV_REMOVE) through mapping
			   * @map, which punches the file's range */
	bool direct;     /* open: O_DIRECT (its reads bypass the cache);
			  * other ops: on such a descriptor */
	bool dontcache;  /* read ops: preadv2(2) with RWF_DONTCACHE (the
			  * descriptor's 'rwf dontcache') */
	bool splice;     /* read ops: made by splicing, as fio's splice
			  * engine does (the descriptor's 'via splice') */
};

/* mapping_min_folio_order(): the smallest folio of @block_size blocks. */
static inline unsigned ralab__min_order(uint32_t block_size)
{
	unsigned order = 0;

	while ((RALAB_PAGE_SIZE << order) < block_size)
		order++;
	return order;
}

#define MAX_FILES 256
#define MAX_SHUFFLE_BLOCKS (1ull << 27)

/*
 * The block order of shuffle-pread: a Fisher-Yates shuffle of 0..n-1
 * driven by xorshift64 from @seed.  Returns a malloc'ed array, or NULL.
 */
uint64_t *ralab__shuffle(uint64_t n, uint64_t seed);

/*
 * Whether @wl writes its files (write, pwrite, fio-pwrite, truncate,
 * fallocate, punch, zero-range, write touches and copies through shared
 * mappings): 'ralab kernel' then opens its descriptors read-write and maps
 * every mapping PROT_WRITE, so the model's VMAs are VM_WRITE too.
 */
bool ralab__wl_writes(const struct ralab_workload *wl);

/*
 * The protections 'mprotect' gave parts of one mapping: file ranges,
 * sorted, apart (the rest as mapped).  ralab__prot_set(): [@a, @b) gets
 * @prot, the ranges it meets cut back; -ENOSPC past MAX_PROTS ranges.
 * ralab__prot_denied(): the first range that denies a read (@write: a
 * write) of the bytes @off, @off + @step, ... below @off + @len, and in
 * *@at the first such byte; NULL if none.  A read needs PROT_READ or
 * PROT_WRITE (execute-only memory, with protection keys, faults on one).
 */
#define MAX_PROTS 32
struct wl_prot {
	uint64_t start, end;
	unsigned prot; /* PROT_R_ | PROT_W_ | PROT_X_; 0: PROT_NONE */
};
/* 'mprotect' PROT names, by PROT_R_ | PROT_W_ | PROT_X_ value. */
extern const char *const ralab__prot_names[8];
int ralab__prot_set(struct wl_prot *v, unsigned *n, uint64_t a, uint64_t b,
		    unsigned prot);
const struct wl_prot *ralab__prot_denied(const struct wl_prot *v, unsigned n,
					 uint64_t off, uint64_t len,
					 uint64_t step, bool write,
					 uint64_t *at);

/*
 * fio_expand.c: an option line of a fio job file (after its comment) as
 * fio 3.33 parses it: ${VAR} from the environment, $pagesize, $mb_memory
 * and $ncpus, and then bc's arithmetic where a keyword was replaced.
 * Writes at most @size bytes to @out; -EINVAL with a reason in @why
 * (without the option's name) where fio would drop the job or ralab
 * cannot tell what fio would take.
 */
int ralab__fio_expand(const char *in, char *out, size_t size, char *why,
		      size_t whysz);

/* fio_rand.c: fio 3.x's random offsets, draw for draw. */
struct fio_taus88 {
	uint32_t s1, s2, s3;
};

/*
 * A generator fio may make 64-bit (random_generator=tausworthe64: the
 * offset, block-size and file generators; the others stay 32-bit).
 */
struct fio_rng {
	bool use64;
	struct fio_taus88 t;
	uint64_t s[5]; /* taus258 */
	/*
	 * random_generator=lfsr (fio's lib/lfsr.c, spin 0): the register
	 * @lv, its values up to @lmax, @lnum given out; @lcycle makes the
	 * first step a double one.
	 */
	bool lfsr;
	uint64_t lv, lmax, lxor, lbit, lnum, lcycle;
};

void ralab__rng_seed(struct fio_rng *r, uint64_t seed, bool use64);
/*
 * @r as fio's LFSR over @nums values (0 .. @nums - 1, each once), seeded
 * with @seed; -EINVAL where fio fails (@nums of 2^63 or more, a seed
 * that is the register's forbidden all-ones state).
 */
int ralab__rng_lfsr(struct fio_rng *r, uint64_t nums, uint64_t seed);
/* @r (an LFSR) as fio's lfsr_reset() leaves it: no double first step. */
void ralab__rng_lfsr_reset(struct fio_rng *r);

uint64_t ralab__rng(struct fio_rng *r);
/* The generator's largest value plus one, as a double (2^32 or 2^64). */
double ralab__rng_span(const struct fio_rng *r);

/*
 * A job's offset generator after its last fio-pread, which a 'cont'
 * fio-pread goes on from (a time_based pass: fio does not reseed).
 */
struct fio_carry {
	struct fio_rng t;
	bool valid;
};

/*
 * The blocks an op reads in order (shuffle-pread, fio-pread): a malloc'ed
 * array of @op->count block numbers, or NULL (out of memory).  @carry
 * (may be NULL) is the job's generator for fio-pread: a 'cont' op starts
 * from it, and every fio-pread leaves its generator there.
 */
uint64_t *ralab__op_order(const struct op *op, struct fio_carry *carry);

#define FIO_RANDSEED 0xb1899bedu /* the offset seed with randrepeat=1 */
#define FIO_SLOT_BS 0             /* bsrange / bssplit's generator */
#define FIO_SLOT_MIX 4            /* rw/randrw's direction generator */
#define FIO_SLOT_FILE 5           /* file_service_type=random's generator */
#define FIO_SLOT_FILE_SIZE 7      /* filesize=LO-HI's generator */
#define FIO_SLOT_SEQ_RAND_READ 10 /* percentage_random's generator */
#define FIO_SLOT_ZONE 16          /* random_distribution=zoned's */

void ralab__taus88_seed(struct fio_taus88 *t, uint32_t seed);
uint32_t ralab__taus88(struct fio_taus88 *t);
/* The seed of generator @slot of the job with thread number @thread. */
uint64_t ralab__fio_seed(uint64_t randseed, unsigned thread, unsigned slot);
/* A draw of @g scaled to a block of @lastb, as fio scales it. */
uint64_t ralab__fio_pick(struct fio_rng *g, uint64_t lastb);

/* fio's random map: which blocks of a file a job has done. */
struct fio_map {
	uint64_t *bits; /* owned */
	uint64_t n;
};

/*
 * The largest random map: 2^32 blocks, 512 MiB (16 TiB of 4 KiB blocks).
 * Returns 0, -E2BIG past it, or -1 when out of memory.
 */
#define FIO_MAX_MAP_BLOCKS (1ull << 32)
int ralab__fio_map_init(struct fio_map *m, uint64_t n);
void ralab__fio_map_free(struct fio_map *m);
bool ralab__fio_map_test(const struct fio_map *m, uint64_t b);
void ralab__fio_map_set(struct fio_map *m, uint64_t b);
/* The next free block after @b, wrapping to 0; UINT64_MAX when full. */
uint64_t ralab__fio_map_next_free(const struct fio_map *m, uint64_t b);
/*
 * The next @count blocks fio draws from @lastb with generator @t, which
 * it leaves after the last draw (with a fresh random map if @map: then
 * @count <= @lastb).  A malloc'ed array, or NULL.
 */
uint64_t *ralab__fio_order(struct fio_rng *t, uint64_t lastb, uint64_t count,
			   bool map);

/* fio's non-uniform random_distribution: zipf, pareto, normal. */
enum { FIO_DIST_ZIPF = 1, FIO_DIST_PARETO, FIO_DIST_NORMAL };

struct fio_dist {
	int kind;
	uint64_t nranges, rand_off, stddev;
	double theta, zeta2, zetan, pareto_pow;
	struct fio_taus88 t;
};

/* fio's jhash of a file name: with the thread number, the seed. */
uint32_t ralab__fio_jhash(const char *key, uint32_t len);
/* @center: 0..1, or -1 for none.  Returns 0, or -1 if @nranges is 0. */
int ralab__fio_dist_init(struct fio_dist *d, int kind, uint64_t nranges,
			 double param, double center, uint32_t seed);
uint64_t ralab__fio_dist_next(struct fio_dist *d);

/*
 * The largest workload files read: .ops and job files, and traces (an
 * strace log of a long run holds millions of calls; TB_MAX_OPS bounds
 * what is replayed).
 */
#define WL_MAX_FILE (64ull << 20)
#define WL_MAX_TRACE (1ull << 30)

/*
 * ralab__read_fd - all of @fd into *@text (malloc'ed, not terminated;
 * NULL if empty) and *@len.  -EFBIG past @max bytes; -errno.
 */
int ralab__read_fd(int fd, uint64_t max, char **text, size_t *len);

/*
 * ralab__read_regular - all of the regular file @path, as ralab__read_fd();
 * -EINVAL if it is not a regular file (a directory, a FIFO: never waited
 * on).  *@opened says whether an error came from open() or after it.
 * Job files and the files they include.
 */
int ralab__read_regular(const char *path, uint64_t max, char **text,
			size_t *len, bool *opened);

/*
 * A growing text, as the front-ends generate .ops: @s (malloc'ed, owned
 * by whoever holds the struct; NUL-terminated once anything is written)
 * of @len bytes in @cap.  @oom latches on the first failure: later
 * writes do nothing, and the front-end returns -ENOMEM at its end.
 */
struct wl_text {
	char *s;
	size_t len, cap;
	bool oom;
};

void ralab__text_vprintf(struct wl_text *t, const char *fmt, va_list ap);
void ralab__text_printf(struct wl_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* strace.c, iolog.c: recorded traces. */
bool ralab__is_strace(const char *text, size_t len);
int ralab__strace_to_ops(const char *name, const char *text, size_t len,
			 char **ops, struct ralab_diag *diag);
/*
 * The files an strace log reads, as it names them: *@paths (malloc'ed,
 * each path too, NULL-terminated; the caller frees them) and *@n; and
 * *@direct (malloc'ed, @n of them; the caller frees it): whether each was
 * read only through O_DIRECT descriptors (no folio of it was to be added);
 * *@exec (the same): whether execve() ran it (a program: 'ralab record'
 * notes how the kernel maps it, a '# ralab exec' line).
 */
/*
 * Whether @p is where the dynamic loader and libc read at every start
 * (libraries, the loader cache, locales): left out of a replay unless
 * '# ralab evicted' names it.
 */
bool ralab__loader_path(const char *p);
/*
 * Whether @p is the path @dir (its first @n bytes, n > 0; need not end
 * in NUL) or a path under it: the rule of '# ralab evicted' lines.
 */
bool ralab__path_under(const char *p, const char *dir, size_t n);
int ralab__strace_paths(const char *name, const char *text, size_t len,
			char ***paths, bool **direct, bool **exec,
			unsigned *n, struct ralab_diag *diag);
bool ralab__is_iolog(const char *text, size_t len);
int ralab__iolog_to_ops(const char *name, const char *text, size_t len,
			char **ops, struct ralab_diag *diag);

/* fio.c: job files. */
bool ralab__is_fio(const char *text, size_t len);
int ralab__fio_to_ops(const char *name, const char *text, size_t len,
		      char **ops, struct ralab_diag *diag);
/* The same with @lo (borrowed; NULL: all zero). */
int ralab__fio_to_ops_opts(const char *name, const char *text, size_t len,
			   const struct ralab_load_opts *lo, char **ops,
			   struct ralab_diag *diag);
/* The same; @literal: no ${VAR} or keywords (a command line's text). */
int ralab__fio_job_to_ops(const char *name, const char *text, size_t len,
			  bool literal, const struct ralab_load_opts *lo,
			  char **ops, struct ralab_diag *diag);
/*
 * A command line's text (literal), then the job file @path (@ftext, @flen
 * bytes) it names, read after it as fio 3.33 does: the line's [global]
 * options are defaults of the file's jobs too, its jobs come first.
 */
int ralab__fio_cmdline_file_to_ops(const char *name, const char *text,
				   size_t len, const char *path,
				   const char *ftext, size_t flen,
				   const struct ralab_load_opts *lo, char **ops,
				   struct ralab_diag *diag);
/*
 * fio_cmdline.c: a fio command line ("fio --name=a --rw=read ...") as the
 * job file fio reads it as, into *@ops; or, for "fio [output options]
 * FILE", the job file's name in *@job_file (*@ops NULL); both malloc'ed,
 * the caller's.  Errors name the word by its position.
 */
bool ralab__is_fio_cmdline(const char *s);
/*
 * fio_names.c: the option names (and aliases) of fio 3.33; the one
 * closest to @name (at most two edits), or NULL.
 */
extern const char *const ralab__fio_names[];
extern const size_t ralab__fio_nr_names;
const char *ralab__fio_closest_option(const char *name);
int ralab__fio_cmdline_to_ops(const char *cmdline,
			      const struct ralab_load_opts *lo, char **ops,
			      char **job_file, struct ralab_diag *diag);
#define MAX_FDS 4096
/*
 * O_DIRECT reads must be aligned to the device's logical block size (512
 * on a loop device, as blk_queue_setup() has it): iomap_dio_bio_iter()
 * fails others with -EINVAL.
 */
#define DIO_ALIGN 512u

struct wl_file {
	char name[32];
	uint64_t size;
	/* Byte offsets where its extents start (extent_breaks; owned). */
	uint64_t *brk;
	unsigned nbrk;
	/* The same once truncated and rewritten (if given; owned). */
	uint64_t *rebrk;
	unsigned nrebrk;
	bool rebrk_given;
	/* The same for generation g + 1 alone (set: given; owned). */
	struct wl_gen {
		uint64_t *brk;
		unsigned n;
		bool set;
	} *regen;
	unsigned nregen;
	/*
	 * Holes (or unwritten extents): [hole[2j], hole[2j + 1]) in bytes,
	 * ascending; read as zeroes without I/O (holes; owned).
	 */
	uint64_t *hole;
	unsigned nhole;
	/*
	 * Preallocated and never written (fallocate(2) over a new file, as
	 * fio lays out a file for a job that only writes): every block
	 * unwritten, read as zeroes without I/O until written back.
	 */
	bool unwritten;
};

enum { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };
/* Their names (exitall's scope, fio's exit_what), by value. */
extern const char *const ralab__exit_whats[3];
/* The value named @name, or -1. */
int ralab__exit_what(const char *name);

#define MAX_JOBS 64
_Static_assert(MAX_JOBS <= 64, "wl_job.wait_for is a 64-bit mask of jobs");

/*
 * Jobs that would wait for each other.  On entry @need[i] holds the jobs
 * job i names (wait-for, fio's wait_for; bit k: job k) and @wait[i] says
 * whether it is a 'wait' job (fio's stonewall).  On return @need[i] holds
 * every job that must end before job i starts: those it names, and those
 * of its group's 'wait' job (the jobs before that one, and those it
 * names), through any number of steps.  Returns the first job that would
 * wait for itself, or -1.  @n is at most MAX_JOBS.
 */
int ralab__wait_cycle(uint64_t *need, const bool *wait, unsigned n);

/*
 * A job: a stream of ops run by its own thread(s), concurrently with the
 * other jobs.  Without 'job' lines the whole case is one job.
 */
struct wl_job {
	char name[32];
	unsigned first_op, nr_ops;
	unsigned iodepth;  /* concurrent preads (workers) */
	bool ring;         /* iodepth N ring: issued in order by one task */
	uint64_t think_ns; /* after each read call (fio's thinktime) */
	unsigned think_every; /* ... or every this many (thinktime_blocks) */
	bool wait;         /* starts when every earlier job has ended */
	/* 'wait-for': starts when these jobs (bit k: jobs[k]) have ended;
	 * wait_for_line is the first such line (0: none). */
	uint64_t wait_for;
	unsigned wait_for_line;
	unsigned line;
	/* runtime: the job stops starting reads this long after it starts
	 * (0: no limit); with repeat, its ops from repeat_op on run again
	 * until then (fio's runtime and time_based). */
	uint64_t runtime_ns;
	uint64_t delay_ns; /* starts no earlier than this (fio's startdelay) */
	/* Rate limits (fio's rate_iops, rate): 0 = none. */
	uint64_t rate_iops, rate_bps;
	bool repeat;
	bool exitall; /* when it ends, the other jobs stop (fio's exitall) */
	/* which: EXIT_GROUP (its group's), EXIT_STONEWALL (those running,
	 * every group's), EXIT_ALL (every job; fio's exit_what) */
	unsigned char exit_what;
	unsigned repeat_op, repeat_line, runtime_line;
	unsigned epoch_line; /* its 'epoch' op (0: the clock runs from its
			      * start) */
};

/* Header keys, with the line that set each (0 = default). */
enum hdr_key { HDR_FS, HDR_FILE_SIZE, HDR_RA_KB, HDR_MSK, HDR_MAX_HW, HDR_BREAKS, HDR_HOLES, HDR_UNWRITTEN, HDR_REBREAKS, HDR_BLOCK_SIZE, HDR_EXTENT_KB, HDR_NR };

struct ralab_workload {
	char *name;
	char *text; /* the .ops text (generated for other formats) */
	struct ralab_config cfg;
	unsigned hdr_line[HDR_NR];
	struct op *ops;
	unsigned nr_ops, cap_ops;
	/* Files: [0] is the case's ("main", file_size from the header). */
	struct wl_file files[MAX_FILES];
	unsigned nr_files;
	unsigned nr_fds; /* descriptors opened in all */
	unsigned char fd_ino[MAX_FDS]; /* the file of each descriptor */
	struct wl_job jobs[MAX_JOBS];
	unsigned nr_jobs;
};

/*
 * Fill @d with "NAME:LINE: message" ("NAME: message" when @line is 0), the
 * form of every input error.  Return: -EINVAL.  @d may be NULL.
 */
int wl_vdiag(struct ralab_diag *d, const char *name, unsigned line,
	     const char *fmt, va_list ap);
/* The same, with the arguments inline. */
int wl_diag(struct ralab_diag *d, const char *name, unsigned line,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
