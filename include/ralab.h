/* SPDX-License-Identifier: MIT */
/*
 * ralab.h - the Linux page-cache readahead system, in userspace.
 *
 * ralab runs a workload (a list of read(2)/pread(2) calls on one file) through
 * a model of the kernel's read path, its readahead policy, the page cache and
 * the block layer, and reports what the kernel would have done: every
 * readahead call, every folio added to the page cache and every request
 * issued to the device, in the kernel's tracepoint terms.
 *
 * Conventions:
 * - Functions return 0 or a negative errno; they never print or exit.
 * - Handles are opaque; each has a create/parse function and a free/destroy
 *   function that accepts NULL.
 * - Pointers passed in are borrowed for the duration of the call unless a
 *   comment says otherwise.
 */
#ifndef RALAB_H
#define RALAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RALAB_VERSION "0.1.0"
#define RALAB_PAGE_SIZE 4096u
#define RALAB_MAX_ORDER 11 /* largest folio order the model can hold */
#define RALAB_RQ_BUCKETS 12 /* request sizes 4 KiB .. 8 MiB and more */
#define RALAB_TTU_BUCKETS 24 /* time to first use: < 1 us, then 2^k us */
#define RALAB_WIN_BUCKETS 14 /* readahead windows: 1 .. 8192 pages and more */

/* ---------------------------------------------------------------------- */
/* Configuration: the file system, the file and the block queue.          */

enum ralab_fs {
	RALAB_FS_XFS = 0,
	RALAB_FS_EXT4 = 1,
};

/*
 * struct ralab_config - what a case fixes before its first op.
 *
 * Queue parameters are applied the way sysfs writes apply them on 6.18:
 * max_sectors_kb first (which re-derives read_ahead_kb from it on a
 * rotational device without io_opt), then read_ahead_kb.
 */
struct ralab_config {
	enum ralab_fs fs;
	uint64_t file_size;          /* bytes */
	uint32_t read_ahead_kb;      /* queue/read_ahead_kb */
	uint32_t max_sectors_kb;     /* queue/max_sectors_kb */
	uint32_t max_hw_sectors_kb;  /* device limit (loop: 1280) */
	uint32_t max_segments;       /* loop: 128 */
	uint32_t max_segment_size;   /* bytes; loop: 65536 */
	uint32_t max_folio_order;    /* MAX_PAGECACHE_ORDER (x86-64 THP: 9) */
	/*
	 * The files' layout on the device: 0 (the default), each file in one
	 * extent; otherwise in extents of extent_kb KiB (a multiple of 4),
	 * each apart on the device from the next, so that the filesystem
	 * starts a new bio at every extent's start (a fragmented file).
	 * 'ralab kernel' lays its files out so and checks it with FIEMAP.
	 */
	uint32_t extent_kb;
	/*
	 * The filesystem's block size in bytes, a power of 2 from 4096 (the
	 * default) to 65536.  Above the page size (XFS's large block sizes,
	 * 6.12: mkfs.xfs -b size=N), every folio of the file holds at least
	 * a block: mapping_min_folio_order() is log2(block_size / 4096).
	 */
	uint32_t block_size;
	/*
	 * Where the page cache's folios lie in memory, which decides how the
	 * block layer cuts a read into requests: bio_add_folio() merges a
	 * folio into the bio vector before it when the two are adjacent
	 * physically (bvec_try_merge_page()), and a request holds at most
	 * max_segments segments, so 256 order-0 folios are two requests of
	 * 512 KiB (128 segments each) or, adjacent, one of 1 MiB
	 * (max_sectors_kb 1024).  0 (the default): no two folios adjacent.
	 * 1: the folios one read allocates lie one after another, as the
	 * buddy allocator hands out pages of memory not yet fragmented.  The
	 * kernel's own placement depends on what was freed before (its
	 * per-CPU lists hand freed pages out first, last freed first), so a
	 * recording may match either, or neither where it had some of both.
	 * Only where segments, not max_sectors_kb, cut a request does it
	 * matter: order-0 (or order-1) folios at max_sectors_kb above 512,
	 * and where a bio's 256 vectors end.  A recording's own placement
	 * (ralab_run_opts.folio_mem) takes precedence for its folios.
	 */
	uint32_t phys_merge;

	/*
	 * The time model (none of it changes a readahead decision of a
	 * single reader): a device that serves up to dev_queue_depth
	 * requests at once, each after dev_latency_ns, their data moving at
	 * dev_bandwidth bytes/s one request at a time, starting at most
	 * dev_iops requests a second; and CPU costs.  Requests side by side
	 * share the device: each one's latency grows by dev_contention_ns for
	 * every request still in service when it starts.
	 */
	char device[16];             /* preset: loop, nvme, hdd, ideal */
	uint64_t dev_latency_ns;
	uint64_t dev_bandwidth;      /* bytes per second; 0: infinite */
	uint32_t dev_queue_depth;
	uint32_t dev_iops;           /* requests started a second; 0: no limit */
	uint32_t dev_contention_ns;  /* latency added per request in service */
	uint32_t cpu_syscall_ns;     /* per system call */
	uint32_t cpu_folio_ns;       /* per folio allocated and inserted */
	uint32_t cpu_page_ns;        /* per 4 KiB copied to the application */
	uint32_t cpu_request_ns;     /* per request submitted */

	/*
	 * Memory pressure.  Readahead allocates with __GFP_NORETRY, so under
	 * fragmentation or a memcg limit a large folio allocation fails
	 * (-ENOMEM) and the policy takes its fallback path (page_cache_ra_order
	 * -> do_page_cache_ra, order 0).  Of the readahead allocations of
	 * order >= alloc_fail_order, alloc_fail_ppm per million fail, drawn
	 * from a generator seeded with alloc_fail_seed, so a run is
	 * reproducible.  0 (the default): none fails.  The single-folio read
	 * of the read path (filemap_create_folio) may retry and never fails.
	 */
	uint32_t alloc_fail_ppm;
	uint32_t alloc_fail_order;
	uint64_t alloc_fail_seed;

	/*
	 * The C library's memcpy, which decides the order in which a copy
	 * out of (or into) a mapping faults its pages in ('memcpy' ops: fio's
	 * mmap engine).  glibc's memmove-vec-unaligned-erms copies a block of
	 * memcpy_back_min to memcpy_back_max bytes whose source and
	 * destination are 4 KiB aliased backward: first page, last page,
	 * then down.  glibc 2.36 on AMD does so from the L2 size (its
	 * rep_movsb_stop_threshold, 1 MiB on an EPYC) to the non-temporal
	 * threshold; on Intel the two are one, and no copy runs backward.
	 * 0 (the default): every copy forward.  memcpy_back_max 0: no limit.
	 */
	uint64_t memcpy_back_min, memcpy_back_max;
};

/* ralab_config_device - apply preset @name; -ENOENT if unknown. */
int ralab_config_device(struct ralab_config *cfg, const char *name);

/* ralab_config_default - the recording setup: XFS on a loop device. */
void ralab_config_default(struct ralab_config *cfg);

/* ---------------------------------------------------------------------- */
/* Diagnostics for input errors.                                          */

/*
 * struct ralab_diag - where and why input was rejected.  @msg holds the
 * whole message, "FILE:LINE: what is wrong" (or "FILE: ..." when no line
 * applies), ready to print.
 */
struct ralab_diag {
	unsigned line;
	char msg[512];
};

/* ---------------------------------------------------------------------- */
/* Workloads (.ops files).                                                */

struct ralab_workload;

/*
 * ralab_workload_parse - parse .ops text.
 * @name: file name used in diagnostics (borrowed).
 * @text, @len: the text; need not be NUL-terminated.
 * @out: on success a new workload; free it with ralab_workload_free().
 * @diag: filled on -EINVAL.
 *
 * Return: 0, -EINVAL (malformed input, see @diag) or -ENOMEM.
 */
int ralab_workload_parse(const char *name, const char *text, size_t len,
			 struct ralab_workload **out, struct ralab_diag *diag);

/*
 * ralab_workload_load - read and parse a file: .ops, a fio job file, an
 * strace log or a fio iolog (recognised by content, then by extension), or
 * a recorded case's directory (its case.ops); or, where no file has that
 * name, a fio command line ("fio --name=a --rw=read ...", read as fio
 * 3.33 reads it; messages number its words).  -errno on I/O errors.
 * A fio job file's ${VAR} is read from the environment and its $ncpus and
 * $mb_memory from this machine (sysconf), as fio does; so does
 * ralab_workload_parse() of a job file's text.
 */
int ralab_workload_load(const char *path, struct ralab_workload **out,
			struct ralab_diag *diag);

/*
 * How a fio job file's files stand when fio starts.  It matters where a
 * later job lays a file out again, larger, and an earlier job's I/Os reach
 * the end the file had at that earlier job's setup (fio 3.33 keeps the
 * size a file has when the job sets up):
 *
 *   [a] size=4m               fresh: a's file ends at 4m (a lays it out)
 *   [b] filename=a.0.0 size=8m    existing: at 8m, as [b] left it
 */
enum ralab_fio_files {
	RALAB_FIO_FILES_UNSAID = 0, /* refuse such a job, with the reason */
	RALAB_FIO_FILES_FRESH,      /* no file exists: each job lays its out */
	RALAB_FIO_FILES_EXISTING,   /* all exist at the sizes the jobs give
				     * them (an earlier run of the same job
				     * file, or fio --create_only=1, left
				     * them) */
};

/* How to read a workload file (ralab_workload_load_opts()). */
struct ralab_load_opts {
	enum ralab_fio_files fio_files;
};

/*
 * ralab_workload_load_opts - ralab_workload_load() with @opts (borrowed;
 * NULL: all zero, as ralab_workload_load()).
 */
int ralab_workload_load_opts(const char *path,
			     const struct ralab_load_opts *opts,
			     struct ralab_workload **out,
			     struct ralab_diag *diag);

void ralab_workload_free(struct ralab_workload *wl);

/* The configuration from the workload's header (borrowed from @wl). */
const struct ralab_config *ralab_workload_config(const struct ralab_workload *wl);

/* Overrides, checked as the header values are (-EINVAL with @diag). */
int ralab_workload_set(struct ralab_workload *wl, const char *key,
		       const char *value, struct ralab_diag *diag);

/*
 * ralab_workload_set_breaks - where file @file of the workload (0: the
 * case's own, then in the order its 'file' ops name them) is not
 * disk-contiguous: its extents start at the @n byte offsets @ofs
 * (ascending multiples of 4096 inside the file; copied).  Replaces the
 * file's earlier list (the header's extent_breaks for file 0) and, for
 * that file, extent_kb; n = 0 drops the list.  What 'ralab check' does
 * with a recording's breaks= where the filesystem broke a file itself.
 * Return: 0, -EINVAL (see @diag) or -ENOMEM.
 */
int ralab_workload_set_breaks(struct ralab_workload *wl, unsigned file,
			      const uint64_t *ofs, unsigned n,
			      struct ralab_diag *diag);

/*
 * ralab_workload_set_rebreaks - where file @file is not disk-contiguous
 * once truncated and written anew (the blocks of a rewrite are the
 * filesystem's choice): its extents then start at the @n byte offsets
 * @ofs (ascending multiples of 4096 inside the file; copied).  From a
 * truncate on, the model takes these instead of the file's breaks;
 * without them, the file keeps its breaks.  What 'ralab check' does
 * with a recording's rebreaks_at=.  Return: 0, -EINVAL (see @diag) or
 * -ENOMEM.
 */
int ralab_workload_set_rebreaks(struct ralab_workload *wl, unsigned file,
				const uint64_t *ofs, unsigned n,
				struct ralab_diag *diag);

/*
 * ralab_workload_set_rebreaks_gen - as ralab_workload_set_rebreaks(), for
 * what follows the @gen-th truncate of @file only (@gen >= 1; @n may be
 * 0: contiguous); the rebreaks of ralab_workload_set_rebreaks() serve the
 * generations not given (the last one, as a run leaves it).  A file's
 * allocations of one generation are not those of the next, and a truncate
 * to a size other than 0 keeps the blocks below it.  What 'ralab check'
 * does with a recording's rebreaks_gen_at=.  Return: 0, -EINVAL (see
 * @diag) or -ENOMEM.
 */
int ralab_workload_set_rebreaks_gen(struct ralab_workload *wl, unsigned file,
				    unsigned gen, const uint64_t *ofs,
				    unsigned n, struct ralab_diag *diag);

/*
 * ralab_workload_breaks - file @file's extent starts as set (extent_breaks
 * or ralab_workload_set_breaks(); not those of extent_kb): copies up to
 * @max into @ofs, returns how many there are.
 */
unsigned ralab_workload_breaks(const struct ralab_workload *wl, unsigned file,
			       uint64_t *ofs, unsigned max);

/* The workload's name (its file name), borrowed. */
const char *ralab_workload_name(const struct ralab_workload *wl);

/* The number of jobs (threads) the workload runs; 1 without 'job' lines. */
unsigned ralab_workload_nr_jobs(const struct ralab_workload *wl);

/*
 * The longest runtime of a job that repeats its ops until then (fio's
 * time_based; 'repeat' with 'runtime'), in ns; 0 if no job does.
 */
uint64_t ralab_workload_repeat_ns(const struct ralab_workload *wl);

/* The number of files the workload reads (the case's own and the others). */
unsigned ralab_workload_nr_files(const struct ralab_workload *wl);

/* The declared size of file @file in bytes (0: no such file). */
uint64_t ralab_workload_file_size(const struct ralab_workload *wl,
				  unsigned file);

/*
 * The workload as .ops text, borrowed: the file itself for .ops input,
 * the generated equivalent for fio job files, strace logs and iologs.
 */
const char *ralab_workload_ops_text(const struct ralab_workload *wl);

/* ---------------------------------------------------------------------- */
/* Events: the kernel's tracepoints, as the model fires them.             */

enum ralab_event_type {
	RALAB_EV_SYNC_RA,       /* readahead:page_cache_sync_ra */
	RALAB_EV_ASYNC_RA,      /* readahead:page_cache_async_ra */
	RALAB_EV_RA_ORDER,      /* readahead:page_cache_ra_order */
	RALAB_EV_RA_UNBOUNDED,  /* readahead:page_cache_ra_unbounded */
	RALAB_EV_ADD_FOLIO,     /* filemap:mm_filemap_add_to_page_cache */
	RALAB_EV_RQ_ISSUE,      /* block:block_rq_issue */
};

/*
 * struct ralab_event - one event.  Which fields are meaningful depends on
 * @type; they carry the tracepoint's fields of the same names.
 */
struct ralab_event {
	enum ralab_event_type type;
	uint64_t index;      /* ra events: page index */
	uint64_t req_count;  /* sync/async */
	uint32_t order;      /* ra events: ra->order; add: folio order */
#define RALAB_ORDER_UNKNOWN UINT32_MAX /* sync/async recorded by kprobes
					* on a kernel without ra->order
					* (before 6.17): printed without
					* order= */
	uint32_t size, async_size, ra_pages, mmap_miss;
	int64_t prev_pos;
	uint64_t nr_to_read, lookahead_size; /* ra_unbounded */
	uint64_t ofs;        /* add: byte offset of the folio */
	/*
	 * add: the folio's first page frame number, where the kernel put it
	 * in memory (the tracepoint's pfn=; recordings only, 0 elsewhere).
	 * Not printed: bio_add_folio() merges folios adjacent in memory
	 * into one vector, so 'ralab check' places the model's folios here
	 * (ralab_run_opts.folio_mem).
	 */
	uint64_t pfn;
	uint64_t sector;     /* rq: first sector, from the file's start */
	uint32_t nr_sectors; /* rq */
	uint32_t readahead;  /* rq: 1 if REQ_RAHEAD ("RA"), else "R" or "RS" */
	uint32_t sync;       /* rq: 1 if REQ_SYNC ("RS": an O_DIRECT read,
			      * or one submit_bio_wait() made) */
	/*
	 * The job (thread) the event happened in, in a workload of several
	 * jobs; NULL in a workload of one (borrowed: the workload's).
	 * Printed as a last field, " job=NAME".
	 */
	const char *job;
};

/*
 * ralab_event_format - the event as the kernel's trace prints it, without
 * the line prefix and without dev/ino, e.g.
 * "page_cache_ra_order: index=0 order=0 size=4 async_size=3 ra_pages=32",
 * then " job=NAME" if @ev->job is set.
 * Return: the length snprintf() would return.
 */
int ralab_event_format(const struct ralab_event *ev, char *buf, size_t len);

#define RALAB_MAX_JOBS 64

/*
 * struct ralab_window_state - ralab_event_window()'s state over an event
 * stream, zeroed at the start.  Per job: the events of several jobs
 * interleave, and an ra_order and its fallback are one job's.
 */
struct ralab_window_state {
	const char *job[RALAB_MAX_JOBS]; /* borrowed from the events */
	bool in_order[RALAB_MAX_JOBS + 1]; /* [0]: events without a job */
	unsigned nr_jobs;
};

/*
 * ralab_event_window - the readahead window @ev opens, in pages, or 0.
 * A window is page_cache_ra_order's size, or page_cache_ra_unbounded's
 * nr_to_read when it is a call of its own; an ra_unbounded after an
 * ra_order in the same sync/async call (of the same job) is that window's
 * fallback.
 */
uint64_t ralab_event_window(const struct ralab_event *ev,
			    struct ralab_window_state *ws);

typedef void (*ralab_event_fn)(void *arg, const struct ralab_event *ev);

/* ---------------------------------------------------------------------- */
/* Policies: the readahead algorithm and its variants.                    */

/* Number of registered policies, and the name/description of policy @i. */
unsigned ralab_policy_count(void);
const char *ralab_policy_name(unsigned i);
const char *ralab_policy_source(unsigned i);

/* Patches that apply on top of a policy (e.g. "kara-2024/01" on linux-6.9). */
unsigned ralab_patch_count(void);
const char *ralab_patch_name(unsigned i);
const char *ralab_patch_title(unsigned i);
const char *ralab_patch_policy(unsigned i); /* the policy it applies to */

/* ---------------------------------------------------------------------- */
/* Running a workload.                                                    */

/* Time figures of one job (a 'job' section of the case). */
struct ralab_job_stats {
	char name[32];
	uint64_t start_ns;     /* when it started: its delay (0), or for a
				* 'wait' job when the jobs before it had
				* ended if that is later */
	uint64_t elapsed_ns;   /* from its start to the end of its last op */
	uint64_t reads, bytes; /* read/pread calls, bytes returned */
	uint64_t wait_ns, waits, late_ra_waits;
	uint64_t lat_p50_ns, lat_p99_ns; /* per read call */
};

/*
 * struct ralab_stats - what a run did.  Counts of events are counts of the
 * corresponding tracepoints.
 */
struct ralab_stats {
	uint64_t data_reads;    /* requests issued for file data */
	uint64_t data_sectors;  /* 512-byte sectors in those requests */
	uint64_t sync_ra, async_ra, ra_order, ra_unbounded;
	uint64_t read_folio;    /* single-folio synchronous reads */
	uint64_t alloc_failures; /* readahead allocations failed (alloc_fail_ppm) */
	uint64_t folios[RALAB_MAX_ORDER + 1]; /* folios added, by order */
	uint64_t pages_added;
	uint64_t ra_pages;        /* pages added by readahead */
	uint64_t ra_pages_unused; /* of those, never read by the application
				     and still cached at the end
				     (UINT64_MAX: not tracked) */
	uint64_t ra_pages_evicted_unused; /* evicted before being read */
	/* Device requests by size: [k] counts sizes in [4 KiB << k, 8 KiB << k). */
	uint64_t rq_size_hist[RALAB_RQ_BUCKETS];
	/*
	 * Readahead windows by size (src/report/window.h says what a window
	 * is): [k] counts windows of [2^k, 2^(k+1)) pages, the last open-ended.
	 */
	uint64_t ra_window_hist[RALAB_WIN_BUCKETS];
	uint64_t syscalls;      /* read/pread calls made */
	uint64_t bytes_read;    /* bytes returned to the application */
	uint64_t bytes_written; /* bytes of write/pwrite calls (buffered) */
	uint64_t write_reads;   /* reads a write made of blocks it covers
				   only in part (each its own submission) */
	uint64_t cache_nodes;   /* XArray nodes at the end */
	/*
	 * Bios split at max_segments where max_sectors_kb had room (folios
	 * of a page or two at max_sectors_kb above 512): where the kernel's
	 * pages lie together in memory, fewer requests (phys_merge).
	 */
	uint64_t seg_splits;
	/*
	 * Writes (calls, and write faults on clean folios) into a file's
	 * own holes (`# holes:`) of a file never truncated: the filesystem
	 * allocates blocks there where ralab does not model, and the model
	 * keeps them holes (docs/design.md, "Known differences").
	 */
	uint64_t hole_writes;

	/* The time model (device and CPU costs of the case's config). */
	uint64_t elapsed_ns;    /* the last job's end */
	uint64_t wait_ns;       /* time readers slept on folios under I/O */
	uint64_t waits;
	uint64_t late_ra_waits; /* of those, on folios read ahead: late */
	/*
	 * Folios read ahead, by the time from their readahead to their first
	 * use: [0] under 1 us, [k] in [2^(k-1), 2^k) us, the last open-ended.
	 */
	uint64_t ttu_hist[RALAB_TTU_BUCKETS];
	uint64_t lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_max_ns;
	unsigned nr_jobs;
	struct ralab_job_stats job[RALAB_MAX_JOBS];
};

/*
 * struct ralab_run_opts - how to run.  Zero means the default.
 * @policy: policy name; NULL means "linux-6.18".
 * @patches, @nr_patches: patch names to apply on top of @policy (borrowed;
 *	a series' name, such as "kara-2024", stands for all its patches).
 * @on_event, @event_arg: called for every event in order (borrowed).
 */
/* One folio of a page-cache dump. */
struct ralab_folio_info {
	uint64_t index;    /* first page */
	unsigned order;
	unsigned readahead; /* PG_readahead */
	unsigned used;      /* pages of it the application has read */
};

/*
 * Called with the page cache of file @file (0 is the case's) at a 'dump'
 * op (@line its line) or after the run (@line 0): @n folios in index
 * order, borrowed for the call.
 */
typedef void (*ralab_dump_fn)(void *arg, unsigned file, unsigned line,
			      const struct ralab_folio_info *folios, size_t n);

/* Where a recorded kernel put one folio it added (an add event's pfn=). */
struct ralab_folio_mem {
	uint64_t ofs; /* byte offset, as the add event */
	uint64_t pfn;
	unsigned order;
};

struct ralab_run_opts {
	const char *policy;
	const char *const *patches;
	unsigned nr_patches;
	ralab_event_fn on_event;
	void *event_arg;
	ralab_dump_fn on_dump; /* NULL: no dumps (dump ops are skipped) */
	void *dump_arg;
	/*
	 * Where the kernel put the folios it added, in the order of its add
	 * events (a recording's folio_pfns=; borrowed; NULL: none).  The
	 * model's k-th added folio lies at @folio_mem[k].pfn when its offset
	 * and order are those of @folio_mem[k], so that bio_add_folio()
	 * merges the folios the kernel's merged (adjacent in memory); any
	 * other lies where ralab_config.phys_merge puts it.
	 */
	const struct ralab_folio_mem *folio_mem;
	size_t nr_folio_mem;
};

/*
 * ralab_run - run @wl from a cold page cache and fill @stats.
 * Return: 0, -ENOENT (unknown policy or patch), -EINVAL (a patch that does
 * not apply to the policy), -EOPNOTSUPP (the policy does not model the
 * case: a block_size above 4096 under a policy older than 6.18's code),
 * -ENOMEM.
 */
int ralab_run(const struct ralab_workload *wl,
	      const struct ralab_run_opts *opts, struct ralab_stats *stats);

/* ---------------------------------------------------------------------- */
/* The recorder: the same workload on the running kernel.                 */

/* Where the recorder keeps images and mount points unless told otherwise. */
#define RALAB_KERNEL_WORKDIR "/tmp/ralab-kernel"

/*
 * struct ralab_kernel_opts - how to record.
 * @workdir: where images and mount points live (NULL: RALAB_KERNEL_WORKDIR).
 * @stop: when it becomes non-zero (a signal handler sets it), the recording
 *	stops at the next step, cleans up and returns -EINTR.  May be NULL.
 * @on_event, @event_arg: every data event, in order, after the run.
 * @device_filter: filter the tracepoints in the kernel on the loop device
 *	only and keep the case's files' events (by inode) while reading the
 *	trace.  The recorder does this by itself when the files' inode
 *	numbers are too scattered for a tracefs filter; false (the default)
 *	filters on the inodes in the kernel too, so that less crosses the
 *	trace buffer.
 */
struct ralab_kernel_opts {
	const char *workdir;
	volatile int *stop;
	ralab_event_fn on_event;
	void *event_arg;
	bool device_filter;
};

/*
 * struct ralab_kernel_result - what the kernel did.  @st is filled as
 * ralab_run() fills it, from the recorded events and the ops.
 */
struct ralab_kernel_result {
	struct ralab_stats st;
	uint64_t meta_reads;   /* read requests outside the file's extents */
	/*
	 * Pages of the test files that another task removed from the page
	 * cache during the run (not the workload: its DONTNEED, truncates
	 * and direct writes are the model's), in @evicted_folios folios;
	 * @evicted_by names the first such task (kdamond.0: DAMON's
	 * pageout; kswapd0: reclaim).  The model never does this, so the
	 * kernel reads those pages anew where the workload comes back.
	 */
	uint64_t evicted_pages, evicted_folios;
	char evicted_by[16];
	uint64_t stat_reads;   /* /sys/block/loopN/stat field 1, difference */
	uint64_t stat_sectors; /* field 3 */
	uint64_t ops_ns;       /* wall time of the ops */
	unsigned extents;      /* extents of the test files (FIEMAP) */
	/*
	 * Places where a test file's next block is not disk-contiguous with
	 * the one before, other than where the case's layout (extent_kb,
	 * extent_breaks) puts them: the kernel starts a new bio there.  The
	 * first RALAB_MAX_BREAKS are listed in @brk (file: 0 for the case's
	 * own, as ralab_workload_set_breaks() numbers them; ofs: the byte
	 * offset where the next extent starts).
	 */
	unsigned breaks;
#define RALAB_MAX_BREAKS 4096
	struct ralab_break {
		unsigned file;
		uint64_t ofs;
		unsigned gen; /* rebrk_gen only: the generation (1, 2, ...) */
	} brk[RALAB_MAX_BREAKS];
	/*
	 * A file the case truncates: where its rewrite, as the run left it,
	 * is not disk-contiguous (data after a hole as far on the disk as in
	 * the file counts as contiguous, as the model takes it), listed as
	 * @brk after an entry at offset 0 (no break can be there), so that a
	 * rewrite without breaks is listed too.  'ralab check' gives them to
	 * the model for what follows a truncate
	 * (ralab_workload_set_rebreaks()).
	 */
	unsigned rebreaks;
	struct ralab_break rebrk[RALAB_MAX_BREAKS];
	/*
	 * A file truncated more than once: generation g (what followed its
	 * g-th truncate) as it stood at the next one, for g = 1 .. the last
	 * but one, listed as @rebrk with @gen set; each generation starts
	 * with an entry at offset 0 (none can break there), so one without
	 * breaks is listed too (ralab_workload_set_rebreaks_gen()).
	 */
	unsigned rebreaks_gen;
	struct ralab_break rebrk_gen[RALAB_MAX_BREAKS];
	char kernel[65];       /* uname -r */
	/*
	 * This machine's C library: the sizes its memcpy copies backward
	 * where aliased (struct ralab_config's memcpy_back_min and _max;
	 * glibc on x86, from 'ld.so --list-diagnostics'); 0 if none.
	 */
	uint64_t memcpy_back_min, memcpy_back_max;
};

/*
 * ralab_kernel_check - can this machine record?  Return: 0, or -errno with
 * @diag saying what is missing (root, loop devices, tracefs, tracepoints,
 * mkfs for @fs).  Changes nothing.
 */
int ralab_kernel_check(enum ralab_fs fs, struct ralab_diag *diag);

/*
 * ralab_kernel_run - run @wl on the running kernel: a loop device with
 * direct I/O over a sparse image in the work directory, a file system and
 * a test file, queue parameters, a cold cache, a private tracefs instance.
 * Everything attached or mounted is removed before returning, whatever
 * happens.  Return: 0, -EINTR (stopped), or -errno with @diag.
 */
int ralab_kernel_run(const struct ralab_workload *wl,
		     const struct ralab_kernel_opts *opts,
		     struct ralab_kernel_result *res, struct ralab_diag *diag);

/*
 * ralab_kernel_teardown - remove every loop device, mount and tracefs
 * instance a recorder left behind, and the work directory's images.
 */
int ralab_kernel_teardown(const char *workdir, struct ralab_diag *diag);

/*
 * ralab_trace_annotate - add to the strace log at @log what its replay
 * needs and the log cannot show: for each file it reads, the size, the
 * filesystem, the readahead settings of its device (read_ahead_kb,
 * max_sectors_kb, max_hw_sectors_kb) and where its blocks are not
 * contiguous on the disk (FIEMAP), as '# ralab file' lines at its end,
 * which 'ralab sim' turns into the case's header and extent breaks.  Do
 * it right after the run, on the same machine: relative paths are taken
 * from the current directory.  A file that cannot be opened gets a comment
 * instead.  If the log lists the inodes the run added page-cache folios
 * to (ralab_cache_rec_finish()), a file read that got none is marked
 * cached=1: it was all in the page cache, and the replay leaves it out.
 * *@nfiles (if not NULL): files described; *@ncached (if not NULL): of
 * them, marked cached=1.  Return: 0, or -errno with @diag (-EEXIST: the
 * log has its files described already).
 */
int ralab_trace_annotate(const char *log, unsigned *nfiles,
			 unsigned *ncached, struct ralab_diag *diag);

/*
 * ralab_trace_note_evicted - append to the strace log at @log a line
 * '# ralab evicted "PATH"' for each of @paths[0..@n) (absolute, as
 * realpath() gives it): files dropped from the page cache before the
 * run (ralab_evict()).  The replay then keeps the reads of files under
 * those paths that it leaves out otherwise, the shared libraries under
 * /lib and /usr/lib above all (a program started with its libraries
 * cold).  Call it before ralab_trace_annotate(), which then describes
 * them.  Return: 0, or -errno with @diag.
 */
int ralab_trace_note_evicted(const char *log, const char *const *paths,
			     unsigned n, struct ralab_diag *diag);

/*
 * Page faults of a traced program ('ralab record'): reads through mmap()
 * are no system calls, so strace does not show them.
 *
 * ralab_fault_rec_start - trace the faults of process @pid's children
 * and theirs (the process that runs strace: its own faults are left out),
 * from the exceptions:page_fault_user tracepoint in a tracefs instance of
 * its own.  Start it before @pid execs.  Needs root.  Return: 0 with *@out
 * (ralab_fault_rec_finish() or _free() it), or -errno with @diag
 * (-EPERM: not root; -ENOENT: no tracefs or no such tracepoint).
 *
 * ralab_fault_rec_finish - stop, and write each fault into the strace log
 * at @log (made with -f -ttt) at its time among the calls, as
 * "PID SECONDS.USEC # ralab fault addr=0x.. error_code=0x.. wait_us=N"
 * (N: how long the task then slept in D, waiting for I/O), with a
 * "# ralab faults recorded=N" line at the end.  Frees @r.  *@nfaults (if
 * not NULL): faults written.  Return: 0, or -errno with @diag (the log
 * is left as it was).
 *
 * ralab_fault_rec_free - stop and remove the instance, writing nothing.
 */
struct ralab_fault_rec;
int ralab_fault_rec_start(int pid, struct ralab_fault_rec **out,
			  struct ralab_diag *diag);
/*
 * ralab_fault_rec_attach - the same for a running process ('ralab record
 * -p'): the faults of process @pid's tasks (all its threads) and of those
 * they start.  Start it before strace attaches.
 */
int ralab_fault_rec_attach(int pid, struct ralab_fault_rec **out,
			   struct ralab_diag *diag);
int ralab_fault_rec_finish(struct ralab_fault_rec *r, const char *log,
			   unsigned *nfaults, struct ralab_diag *diag);
void ralab_fault_rec_free(struct ralab_fault_rec *r);

/*
 * Files a traced program found in the page cache ('ralab record'): the
 * replay starts every file cold, a real program reads files the system had
 * cached before it ran.
 *
 * ralab_cache_rec_start - trace filemap:mm_filemap_add_to_page_cache for
 * process @pid and its children, in a tracefs instance of its own.  Start
 * it before @pid execs.  Needs root.  Return: 0 with *@out (finish or free
 * it), or -errno with @diag (-EPERM: not root; -ENOENT: no tracefs or no
 * such tracepoint).
 *
 * ralab_cache_rec_finish - stop, and append to the strace log at @log one
 * "# ralab pages-added dev=MAJ:MIN ino=N" line per inode the run added
 * page-cache folios to and "# ralab pages-added traced inodes=N"; if the
 * trace lost events, "# ralab pages-added lost=N" instead (then no file
 * can be taken as cached).  ralab_trace_annotate() marks each file read
 * that got no folio cached=1.  Frees @r.  *@ninodes (if not NULL): inodes
 * listed.  Return: 0, or -errno with @diag.
 *
 * ralab_cache_rec_free - stop and remove the instance, writing nothing.
 */
struct ralab_cache_rec;
int ralab_cache_rec_start(int pid, struct ralab_cache_rec **out,
			  struct ralab_diag *diag);
/*
 * ralab_cache_rec_attach - the same for process @pid's tasks and theirs
 * ('ralab record -p'), with the readahead tracepoints too: finish then
 * also appends "# ralab attach-ra dev=MAJ:MIN ino=N f_ra=START:SIZE:
 * ASYNC_SIZE:ORDER:MMAP_MISS:PREV_POS" per file, the readahead state its
 * first readahead call after the attach found (START '?' where that call
 * does not tell), which ralab_trace_annotate() puts on the file's line.
 */
int ralab_cache_rec_attach(int pid, struct ralab_cache_rec **out,
			   struct ralab_diag *diag);

/*
 * Attaching to a running program ('ralab record -p PID'): strace sees only
 * the calls made after it attaches, so reads on descriptors opened before
 * and faults in mappings made before name files the log never opened.
 *
 * ralab_attach_describe - write to @log (made anew; NULL: write nothing)
 * what process @pid has then, from /proc/PID, as strace lines that would
 * have made it, between "PID T # ralab attach pid=PID ..." and "PID T #
 * ralab attached": its working directory (chdir), its other threads
 * (clone), each regular file it has open (openat, with its flags, and
 * lseek to its offset) and each file mapping (openat, mmap, close), and
 * "# ralab attach-cached" for each of those files with pages in the page
 * cache.  strace -A then appends the calls that follow.  The replay
 * starts each file as just opened and cold: the kernel's readahead state
 * of an open file and its cached pages are not known, and the replay
 * notes where they matter.  *@info (if not NULL): what was found; its
 * digest covers the descriptors and their offsets, so a second call
 * (@log NULL) after strace attached tells whether they changed meanwhile.
 * Return: 0, or -errno with @diag (-ESRCH/-ENOENT: no such process;
 * -EACCES: not its owner or root).
 */
struct ralab_attach_info {
	unsigned threads;      /* tasks of the process */
	unsigned fds;          /* descriptors on regular files, described */
	unsigned maps;         /* mappings (VMAs) of regular files */
	unsigned read_before;  /* of the descriptors, not at offset 0 */
	unsigned cached_files; /* files with pages in the page cache then */
	unsigned folios;       /* their folios given (root: kpageflags) */
	unsigned skipped;      /* deleted files, paths the log cannot carry */
	unsigned long long digest; /* of the readable ones and their offsets */
};
int ralab_attach_describe(int pid, const char *log,
			  struct ralab_attach_info *info,
			  struct ralab_diag *diag);
int ralab_cache_rec_finish(struct ralab_cache_rec *r, const char *log,
			   unsigned *ninodes, struct ralab_diag *diag);
void ralab_cache_rec_free(struct ralab_cache_rec *r);

/*
 * ralab_evict - drop @path from the page cache, so that a program run next
 * reads it from the device ('ralab record --evict'): a regular file, or
 * every regular file under a directory (symbolic links under it are not
 * followed).  Each file's dirty pages are written back, then
 * POSIX_FADV_DONTNEED; mincore() says what stayed (pages a process maps
 * and locks or dirties again).  Adds to @res (zero it first).  Needs no
 * root.  Return: 0, or -errno with @diag.
 */
struct ralab_evict_result {
	unsigned files;		/* regular files evicted */
	unsigned files_left;	/* of them, with pages still cached */
	uint64_t pages_left;	/* 4 KiB pages still cached */
	char first_left[256];	/* the first of those files */
};

int ralab_evict(const char *path, struct ralab_evict_result *res,
		struct ralab_diag *diag);

/* ---------------------------------------------------------------------- */
/* Readahead decisions for a cache of your own.                           */

/*
 * The policies reach the page cache and the device through a narrow
 * interface: add a folio (locked, maybe marked PG_readahead), submit the
 * folios added so far, clear a mark.  A cache of your own -- say a
 * userspace cache that reads with O_DIRECT into its own memory --
 * implements it and takes its readahead decisions from the same code as
 * ralab's simulator (examples/direct-cache.c).  Page indices are of 4 KiB
 * pages.
 *
 * Readahead also scans the page cache for gaps (page_cache_next_miss and
 * prev_miss), and in the kernel the result depends on the shape of the
 * XArray that indexes the folios (spec Appendix A).  So ralab keeps that
 * shape for you: every folio it adds through @add_folio is in it, and you
 * tell it about the folios your cache adds or drops by itself
 * (ralab_ra_folio_added/removed).  With that, the decisions are the
 * kernel's, event for event.  Covered: what read(2) and pread(2) ask (sync
 * and async readahead, prev_pos), posix_fadvise() and readahead(2), files
 * that change size.  Not exposed: the mmap fault paths (a userspace cache
 * takes no page faults).
 *
 * struct ralab_cache_ops - what the policy asks of your cache.  @ctx is
 * the pointer given to ralab_ra_create().
 * @add_folio: allocate a folio of 2^@order pages for page @index (aligned
 *	to its size), locked, PG_readahead if @mark, insert it and queue it
 *	for the next @read_pages.  The range is free (ralab checked).  Return
 *	0, or -ENOMEM (the policy then falls back to order 0, or stops).
 * @read_pages: start reading the folios queued since the last call, in
 *	the order they were added (possibly none).
 * @clear_readahead: clear PG_readahead on the folio at page @index.
 * @event: optional (may be NULL): each readahead tracepoint as it fires.
 */
struct ralab_cache_ops {
	int (*add_folio)(void *ctx, uint64_t index, unsigned order, bool mark);
	void (*read_pages)(void *ctx);
	void (*clear_readahead)(void *ctx, uint64_t index);
	void (*event)(void *ctx, const struct ralab_event *ev);
};

/*
 * struct ralab_ra_params - the file and the device, as readahead sees them.
 * @policy: policy name; NULL means "linux-6.18".
 * @patches, @nr_patches: patches on top of @policy (borrowed; as in
 *	struct ralab_run_opts).
 * @i_size: file size in bytes.
 * @read_ahead_kb: the per-file maximum window (file_ra_state.ra_pages).
 * @max_sectors_kb: the device's request limit; a read larger than the
 *	window may grow its window up to it (bdi->io_pages).
 * @max_order: the largest folio order your cache takes (0: no large
 *	folios; the kernel's x86-64 maximum is 9).
 * @min_order: the smallest (0, the default: 4 KiB pages; 2 for a cache of
 *	16 KiB blocks, as XFS's large block sizes): readahead adds no smaller
 *	folio and puts each on a boundary of its own size.  As
 *	filemap_get_pages() does, round the end of a read up to 2^@min_order
 *	pages (not its start) for ralab_ra_sync()'s and ralab_ra_async()'s
 *	@nr, and read a missing folio yourself in that order, aligned.
 */
struct ralab_ra_params {
	const char *policy;
	const char *const *patches;
	unsigned nr_patches;
	uint64_t i_size;
	uint32_t read_ahead_kb;
	uint32_t max_sectors_kb;
	unsigned max_order;
	unsigned min_order;
};

struct ralab_ra;

/*
 * ralab_ra_create - readahead state for one open file of your cache.
 * @p: read during the call only (its strings too, except that the policy
 *	and patch names are looked up, not kept).
 * @ops, @ctx: your cache (borrowed; must outlive the state).
 * @out: on success the new state; free it with ralab_ra_destroy().
 * Return: 0, -ENOENT (unknown policy or patch), -EINVAL (a patch of
 * another policy, @max_order above RALAB_MAX_ORDER, @min_order above
 * @max_order or above 4, or an op missing), -EOPNOTSUPP (@min_order under
 * a policy older than 6.18's code), -ENOMEM.  The cache starts empty, as
 * far as ralab knows.
 */
int ralab_ra_create(const struct ralab_ra_params *p,
		    const struct ralab_cache_ops *ops, void *ctx,
		    struct ralab_ra **out);
void ralab_ra_destroy(struct ralab_ra *ra);

/*
 * ralab_ra_sync - page_cache_sync_ra(): the reader wants @nr pages from
 * page @index, and page @index is not cached.  The policy may add folios
 * (and call @read_pages); page @index may still be absent afterwards, as
 * in the kernel: then read it yourself (and ralab_ra_folio_added() it).
 */
void ralab_ra_sync(struct ralab_ra *ra, uint64_t index, uint64_t nr);

/*
 * ralab_ra_async - page_cache_async_ra(): the reader reached the folio at
 * page @index (2^@order pages) that has PG_readahead, and wants @nr pages
 * from @index on.  The policy clears the mark (through @clear_readahead)
 * and may start the next window.
 */
void ralab_ra_async(struct ralab_ra *ra, uint64_t index, unsigned order,
		    uint64_t nr);

/*
 * ralab_ra_read_done - a read ended at byte @pos (file_ra_state.prev_pos,
 * which tells sequential from random reads).
 */
void ralab_ra_read_done(struct ralab_ra *ra, uint64_t pos);

/*
 * ralab_ra_folio_added - your cache inserted a folio of 2^@order pages at
 * page @index by itself (not through @add_folio: say the single-folio read
 * a reader does when readahead made nothing at its page).  Return 0,
 * -EINVAL (@index not aligned to the order, or order above
 * RALAB_MAX_ORDER or below the params' min_order), -EEXIST (something is
 * there), -ENOMEM.
 */
int ralab_ra_folio_added(struct ralab_ra *ra, uint64_t index, unsigned order);

/*
 * ralab_ra_folio_removed - your cache dropped the folio of 2^@order pages
 * at page @index (eviction, POSIX_FADV_DONTNEED).  Return 0, or -ENOENT if
 * no such folio is there.
 */
int ralab_ra_folio_removed(struct ralab_ra *ra, uint64_t index,
			   unsigned order);

/*
 * ralab_ra_set_size - the file is now @i_size bytes long (readahead stops
 * at EOF).  Folios past a new EOF are yours to drop (and report).
 */
void ralab_ra_set_size(struct ralab_ra *ra, uint64_t i_size);

/* ralab_ra_cached - does a folio cover page @index? */
bool ralab_ra_cached(struct ralab_ra *ra, uint64_t index);

/*
 * ralab_ra_fadvise - posix_fadvise(2) as generic_fadvise() treats it, for
 * readahead: @advice is POSIX_FADV_NORMAL, _RANDOM, _SEQUENTIAL (window
 * limits and random mode, as the kernel keeps them per open file),
 * _WILLNEED (readahead of the pages of [@offset, @offset + @len), @len 0
 * meaning to the end, through @add_folio/@read_pages as usual; readahead(2)
 * is the same), _NOREUSE or _DONTNEED (no readahead effect: evicting is
 * your cache's business; tell ralab_ra_folio_removed()).  Return 0, or
 * -EINVAL (@len < 0, or unknown @advice).
 */
int ralab_ra_fadvise(struct ralab_ra *ra, int64_t offset, int64_t len,
		     int advice);

/* ralab_strerror - text for a return value of this library. */
const char *ralab_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif
