// SPDX-License-Identifier: MIT
/*
 * fio.c - fio job files as workloads.
 *
 * A job file is turned into .ops text (what 'ralab sim --dump-ops' shows),
 * which the .ops parser then reads.  Every option is checked here, with the
 * job file's FILE:LINE: an option that changes the I/O pattern and is not
 * modelled is an error naming it; an option that only changes fio's
 * reporting is accepted (and listed in the generated text's comments).
 *
 * What is modelled, per job (and per clone, numjobs):
 *   rw/readwrite  read, randread, write, randwrite, rw/readwrite and
 *                 randrw: reads and writes as fio mixes them (gen_rw on
 *                 one file, the files in turn on several; rwmixread,
 *                 rwmixwrite, fsync, fdatasync, sync; the mmap engine's
 *                 writes are write faults)
 *   bs, size, filesize (LO-HI: drawn per file, file_sizes()), offset,
 *   offset_increment, nrfiles, filename,
 *   filename_format, blockalign (random offsets, with norandommap),
 *   file_service_type (roundrobin, sequential, random), openfiles,
 *   number_ios,
 *   loops and io_size (fio's passes: the job's bytes held to io_size or
 *   size times loops, a pass ended by its files done or, on asynchronous
 *   engines, at size bytes; each pass reopens the job's files: fresh
 *   readahead state, and invalidate and fadvise_hint again),
 *   invalidate (POSIX_FADV_DONTNEED of the file's region on open),
 *   pre_read (the files read first), fadvise_hint (0; 1, fio's
 *   default: SEQUENTIAL or RANDOM as the workload; sequential, random,
 *   noreuse), randseed, norandommap, ioengine (sync, vsync: read;
 *   psync, pvsync, libaio, posixaio, io_uring: pread; mmap: a mapping
 *   touched a page at a time), iodepth and thinktime (kept for the time
 *   model: no effect on events), startdelay (one time, not a range),
 *   exitall (global, as fio's: when any job ends, the rest of its group
 *   stop; exit_what=stonewall the jobs running, all every job), rate and
 *   rate_iops (the reads' value; linear),
 *   runtime (plus ramp_time) and time_based (the job stops
 *   starting reads at its runtime; time_based repeats a pass until
 *   then: one file invalidated in place, several reopened), stonewall;
 *   offset patterns: rw=read:N (holes, wrapping past the end;
 *   rw=read:-N backwards), rw=randread:N with rw_sequencer,
 *   percentage_random, and
 *   zonemode=strided with zonesize, zonerange and zoneskip (gen_pattern).
 * Before a value is read, ${VAR}, $pagesize, $mb_memory, $ncpus and bc's
 * arithmetic are done as fio does them (fio_expand.c).
 * Random offsets are fio's own, draw for draw (fio_rand.c: its generator,
 * seeds, random map and random_distribution zipf, pareto, normal and
 * zoned); the reads of a plain uniform random job are one fio-pread op,
 * the writes of a uniform randwrite one fio-pwrite (bulk_writes()).
 * Each clone of each job is a job of the case, and they run concurrently,
 * except that a job with stonewall (or wait_for_previous) starts when the
 * jobs before it have ended, and the jobs after it with it; one with
 * wait_for when the jobs of that name have ended.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "workload.h"

#define MAX_SECTIONS 64
_Static_assert(MAX_SECTIONS <= 64, "check_wait_for() keeps jobs in 64-bit masks");
#define MAX_OPTS 128
/*
 * A line as the parser keeps it: the file's number (0: the job file, then
 * the files it includes, in f->inc[]) above LINE_BITS, its line below; so
 * every option's line names its file in messages (ferr()).
 */
#define LINE_BITS 24
#define MAX_INCLUDES 255
#define MAX_INCLUDE_DEPTH 16
#define FIO_MAX_OPS (1u << 22)
/*
 * I/Os made one by one (a pattern, a mix): runs of them are encoded into
 * few ops, so FIO_MAX_OPS alone would let a 2 PiB job with holes make
 * 10^11 of them, for minutes.
 */
#define FIO_MAX_IOS (1ull << 24)

struct opt {
	char key[48];	/* fio's name for the option (aliases resolved) */
	char name[48];	/* as the job file spells it, for messages */
	char val[256];
	unsigned line;
	unsigned kb_base; /* 1024 or 1000: its section's (kb_bases()) */
};

struct section {
	char name[64];
	unsigned line;
	struct opt opts[MAX_OPTS];
	unsigned nr;
};

struct fio {
	const char *name;
	struct ralab_diag *diag;
	struct section sec[MAX_SECTIONS];
	unsigned nr_sec;
	struct wl_text txt; /* the generated .ops; oom also ends generation */
	unsigned nr_ops;
	uint64_t nr_ios; /* made one by one (FIO_MAX_IOS) */
	unsigned kept_maps; /* mappings the mmap engine left (mm_done()) */
	bool no_map;        /* the file is mapped already: touch it only */
	/* A job whose random map would be too large (fail_map()). */
	const struct job *big_map;
	const struct job *tb_wrap; /* time_based, its offsets wrapped */
	/* Its I/Os depend on a later job's extending its file (past_end()). */
	const struct job *stale;
	/*
	 * Over existing files, its last block reaches past the end of some
	 * of its files and not of others (gen_io()).
	 */
	const struct job *uneven;
	/* How the files stand when fio starts (the caller's choice). */
	enum ralab_fio_files files;
	/* The mmap engine copied past its mapping's end (mm_io()). */
	const struct job *mm_over;
	/* Its block is larger than its region, inside the file (gjob_init()). */
	const struct job *lone;
	/*
	 * A descriptor opened for a loop after the first whose invalidate
	 * and hint wait for its first I/O (emit_fd()): the job's file @k of
	 * clone @clone.
	 */
	struct pend {
		const struct job *j;
		unsigned clone, k;
		bool on;
	} pend[MAX_FDS];
	uint64_t big_blocks;
	/*
	 * No ${VAR} or keywords in file 0: a command line's values (fio's
	 * are as typed).
	 */
	bool literal;
	/*
	 * The job file read after a command line's options (its number, as
	 * an included file's; 0: none), whose sections are its jobs.
	 */
	unsigned main_file;
	/* Files the job file includes (malloc'ed paths), line numbering. */
	char *inc[MAX_INCLUDES];
	unsigned nr_inc;
};

static int ferr(struct fio *f, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int ferr(struct fio *f, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = wl_vdiag(f->diag, line >> LINE_BITS ? f->inc[(line >> LINE_BITS) - 1]
			       : f->name,
		       line & ((1u << LINE_BITS) - 1), fmt, ap);
	va_end(ap);
	return err;
}

/* Below both limits: ops written, I/Os made one by one. */
static bool room(const struct fio *f)
{
	return f->nr_ops < FIO_MAX_OPS && f->nr_ios < FIO_MAX_IOS;
}

static void emit(struct fio *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct fio *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ralab__text_vprintf(&f->txt, fmt, ap);
	va_end(ap);
}

/* Options fio accepts that change only its reporting or bookkeeping. */
static const char *const reporting_only[] = {
	"name", "description", "group_reporting", "write_bw_log",
	"write_lat_log", "write_iops_log", "write_hist_log", "log_avg_msec",
	"per_job_logs", "log_hist_msec", "percentile_list", "clat_percentiles",
	"lat_percentiles", "slat_percentiles", "disable_lat", "disable_clat",
	"disable_slat", "disable_bw_measurement", "gtod_reduce", "unified_rw_reporting",
	"directory", "create_on_open", "allow_file_create",
	"unit_base", "cpus_allowed", "cpumask", "nice", "prio",
	"prioclass", "clocksource", "continue_on_error",
	"fallocate", "overwrite", "create_serialize", "lockmem", "verify",
	"do_verify", "refill_buffers", "scramble_buffers", "buffer_compress_percentage",
	"iodepth_batch", "iodepth_batch_complete_min", "iodepth_low",
	"unlink", "numa_cpu_nodes", "numa_mem_policy",
	"ignore_error", "error_dump", "exitall_on_error", "verify_fatal",
	"verify_dump",
	/*
	 * Reads unaffected: buffer contents, the libaio reaping path,
	 * io_uring's registered buffers and files, batching (buffered
	 * libaio reads run inside io_submit, io_uring issues in order
	 * anyway), write-overlap checks, O_SYNC and O_DSYNC (writes only),
	 * minimum-rate thresholds that only fail a job, statistics.
	 */
	"zero_buffers", "userspace_reap", "fixedbufs", "registerfiles",
	"iodepth_batch_complete_max", "serialize_overlap", "rate_min",
	"rate_cycle", "rate_iops_min", "stats",
	/*
	 * Reporting, CPU placement and the blkio weight of fio's own
	 * cgroup; the I/O buffers (iomem: anonymous memory only, checked
	 * in read_job; their alignment), the layout's fsync.
	 */
	"disk_util", "bwavgtime", "iopsavgtime", "log_offset",
	"log_compression", "log_unix_epoch", "significant_figures",
	"cpus_allowed_policy", "gtod_cpu", "write_iolog", "uid", "gid",
	"cgroup", "cgroup_weight", "cgroup_nodelete", "iomem",
	"iomem_align", "create_fsync", "hugepage-size",
	"allow_mounted_write",
	/*
	 * More of fio's logs and statistics; what a write's buffer holds
	 * (patterns, compressibility, dedupe) and its lifetime hint, which
	 * no read or readahead sees; a network client's file prefix.
	 */
	"log_entries", "log_hist_coarseness", "log_max_value", "log_prio",
	"log_compression_cpus", "log_store_compressed", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "block_error_percentiles",
	"buffer_pattern", "buffer_compress_chunk", "dedupe_percentage",
	"dedupe_mode", "dedupe_working_set_percentage", "dedupe_global",
	"write_hint", "unique_filename",
	"offset_align", /* of percent offsets, which are refused */
	/*
	 * What a verifying job writes into its buffers and checks in what
	 * it reads; the reads back after a job's writes are refused with
	 * verify (read_job()), and with them go the backlog's.
	 */
	"verify_pattern", "verify_interval", "verify_offset", "verify_async",
	"verify_backlog", "verify_backlog_batch",
	"io_submit_mode", /* inline only: checked in read_job() */
	/*
	 * io_uring's: IORING_OP_READ for READV (the same read path), and
	 * the submission thread and forced io-wq punts, checked with the
	 * engine and iodepth in read_job().
	 */
	"nonvectored", "sqthread_poll", "sqthread_poll_cpu", "force_async",
};

static const char *const modelled[] = {
	"rw", "bs", "size", "filesize", "offset", "blockalign",
	"offset_increment", "numjobs", "nrfiles", "filename",
	"file_service_type", "ioengine", "iodepth", "invalidate",
	"fadvise_hint", "thinktime", "randseed", "loops", "number_ios",
	"stonewall", "rwmixread", "rwmixwrite",
	"norandommap", "direct", "buffered", "random_generator",
	"randrepeat", "new_group", "rw_sequencer", "percentage_random",
	"zonemode", "zonesize", "zonerange", "zoneskip", "runtime", "time_based",
	"fsync", "fdatasync", "sync", "end_fsync", "fsync_on_close",
	"startdelay", "exitall", "ramp_time", "rate", "rate_iops",
	"rate_process", "thinktime_blocks", "thinktime_spin",
	"thinktime_blocks_type", "random_distribution", "bsrange",
	"bssplit", "io_size", "allrandrepeat",
	"pre_read", "lockfile", "thread", "filename_format",
	"wait_for", "openfiles", "exit_what", "kb_base",
};

/*
 * fio's aliases (fio --cmdhelp=OPTION: "alias: ..."), each read as the
 * option it names: a job's "timeout" overrides [global]'s "runtime".
 */
static const char *const aliases[][2] = {
	{ "readwrite", "rw" },		{ "blocksize", "bs" },
	{ "blocksize_range", "bsrange" }, { "io_limit", "io_size" },
	{ "wait_for_previous", "stonewall" }, { "timeout", "runtime" },
	{ "nr_files", "nrfiles" },	{ "fileoffset", "offset" },
	{ "iodepth_batch_submit", "iodepth_batch" },
	{ "iodepth_batch_complete", "iodepth_batch_complete_min" },
	{ "ratemin", "rate_min" },	{ "ratecycle", "rate_cycle" },
	{ "disable_bw", "disable_bw_measurement" }, { "mem", "iomem" },
	{ "fill_fs", "fill_device" },	{ "ba", "blockalign" },
	{ "blocksize_unaligned", "bs_unaligned" },
	{ "ss", "steadystate" },	{ "ss_dur", "steadystate_duration" },
	{ "ss_ramp", "steadystate_ramp_time" },
};

static const char *canonical(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(k, aliases[i][0]))
			return aliases[i][1];
	return k;
}

/* @a / @b rounded up, for @a up to UINT64_MAX. */
static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static bool in_list(const char *k, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(k, list[i]))
			return true;
	return false;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/*
 * kb_base: how fio reads the sizes of a section's options, wherever in
 * the section it is set: 1024 (the default: 4k is 4096 and, the other
 * way round, 4kib 4000) or 1000 (4k 4000, 4kib 4096).  A job takes it
 * from [global] if it does not set it; what [global] set stays as
 * [global] read it (fio 3.33: [global] bs=4k then kb_base=1000 in the
 * job is 4096).
 */
static int kb_bases(struct fio *f)
{
	unsigned s, i, gbase = 1024;

	for (s = 0; s < f->nr_sec; s++) {
		struct section *sec = &f->sec[s];
		unsigned base = gbase;

		for (i = 0; i < sec->nr; i++) {
			if (strcmp(sec->opts[i].key, "kb_base"))
				continue;
			if (!strcmp(sec->opts[i].val, "1024"))
				base = 1024;
			else if (!strcmp(sec->opts[i].val, "1000"))
				base = 1000;
			else
				return ferr(f, sec->opts[i].line,
					    "kb_base: '%s' is not 1024 or 1000 (fio fails the job)",
					    sec->opts[i].val);
		}
		for (i = 0; i < sec->nr; i++)
			sec->opts[i].kb_base = base;
		if (!strcmp(sec->name, "global"))
			gbase = base;
	}
	return 0;
}

static int parse_lines(struct fio *f, char *text, unsigned file,
		       unsigned depth, struct section **cur);

/*
 * "include NAME" (fio 3.33): the options of file NAME, read as if they
 * stood here, in the same section.  fio takes the name as everything from
 * the eighth character on ("include=a.fio" works, "include  a.fio" names
 * " a.fio"), relative to the directory of the file that includes it, and
 * neither comments nor ${VAR} survive in it.  fio refuses sections in an
 * included file; when it cannot open one it says so and runs the jobs
 * without it, which ralab makes an error.  fio has no limit on nesting (a
 * file including itself runs out of descriptors); ralab has one.
 */
static int include_file(struct fio *f, const char *spec, unsigned at,
			unsigned depth, struct section **cur)
{
	unsigned file = at >> LINE_BITS;
	const char *from = file ? f->inc[file - 1] : f->name;
	const char *slash = strrchr(from, '/');
	size_t dl = spec[0] != '/' && slash ? (size_t)(slash - from) + 1 : 0;
	char *path, *text = NULL;
	bool opened;
	size_t len = 0;
	int err;

	if (!*spec)
		return ferr(f, at, "include: no file name");
	if (depth == MAX_INCLUDE_DEPTH)
		return ferr(f, at, "include: more than %d files deep (does a file include itself?)",
			    MAX_INCLUDE_DEPTH);
	if (f->nr_inc == MAX_INCLUDES)
		return ferr(f, at, "include: more than %d included files",
			    MAX_INCLUDES);
	path = malloc(dl + strlen(spec) + 1);
	if (!path)
		return -ENOMEM;
	memcpy(path, from, dl);
	strcpy(path + dl, spec);
	err = ralab__read_regular(path, WL_MAX_FILE, &text, &len, &opened);
	if (!opened)
		ferr(f, at, "include: cannot open '%s': %s (fio runs the jobs without it)",
		     path, strerror(-err));
	else if (err == -EINVAL)
		ferr(f, at, "include: '%s' is not a regular file", path);
	else if (err && err != -ENOMEM)
		ferr(f, at, "include: cannot read '%s': %s", path,
		     err == -EFBIG ? "larger than 64 MiB" : strerror(-err));
	if (err) {
		free(path);
		return err == -ENOMEM ? err : -EINVAL;
	}
	f->inc[f->nr_inc++] = path;
	file = f->nr_inc;
	if (text && memchr(text, '\0', len))
		err = ferr(f, file << LINE_BITS | 1, "NUL byte in the file: not a job file");
	else if (text) {
		char *t = realloc(text, len + 1);

		if (!t) {
			free(text);
			return -ENOMEM;
		}
		text = t;
		text[len] = '\0';
		err = parse_lines(f, text, file, depth + 1, cur);
	}
	free(text);
	return err;
}

static int parse_lines(struct fio *f, char *text, unsigned file,
		       unsigned depth, struct section **cur)
{
	char *line, *next, xline[1024];
	unsigned no = file << LINE_BITS;

	for (line = text; line; line = next) {
		struct section *sec;
		struct opt *o;
		char *s, *eq;
		int err;

		no++;
		if (!(no & ((1u << LINE_BITS) - 1)))
			return ferr(f, no - 1, "more than %u lines", (1u << LINE_BITS) - 1);
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/*
		 * fio 3.33 ends a line at its first '#' or ';', wherever it
		 * is: "numjobs=4 ; per job" is 4, "[job] ; x" a section, and
		 * "filename=a#b" names "a".
		 */
		s = line + strcspn(line, "#;");
		*s = '\0';
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (file && file != f->main_file)
				return ferr(f, no, "a section in an included file (fio refuses them)");
			if (!end || end[1])
				return ferr(f, no, "malformed section header '%.60s'", s);
			*end = '\0';
			if (f->nr_sec == MAX_SECTIONS)
				return ferr(f, no, "too many sections (at most %d)", MAX_SECTIONS);
			*cur = &f->sec[f->nr_sec++];
			memset(*cur, 0, sizeof(**cur));
			if (strlen(s + 1) >= sizeof((*cur)->name) || !s[1])
				return ferr(f, no, "bad section name '%.60s'", s + 1);
			strcpy((*cur)->name, s + 1);
			(*cur)->line = no;
			continue;
		}
		if (!*cur)
			return ferr(f, no, "option '%.40s' outside a section", s);
		if (!strncmp(s, "include", 7)) {
			err = include_file(f, s[7] ? s + 8 : "", no, depth, cur);
			if (err)
				return err;
			continue;
		}
		sec = *cur;
		if (sec->nr == MAX_OPTS)
			return ferr(f, no, "too many options in [%s]", sec->name);
		if (!(f->literal && !file) && strchr(s, '$')) {
			char why[320];

			if (ralab__fio_expand(s, xline, sizeof(xline), why,
					      sizeof(why)))
				return ferr(f, no, "%.*s: %s",
					    (int)strcspn(s, "= \t"), s, why);
			s = trim(xline);
		}
		eq = strchr(s, '=');
		if (eq)
			*eq = '\0';
		s = trim(s);
		if (strlen(s) >= sizeof(sec->opts[0].key) ||
		    (eq && strlen(trim(eq + 1)) >= sizeof(sec->opts[0].val)))
			return ferr(f, no, "option too long");
		o = &sec->opts[sec->nr];
		strcpy(o->name, s);
		strcpy(o->key, canonical(s));
		strcpy(o->val, eq ? trim(eq + 1) : "");
		o->line = no;
		sec->nr++;
	}
	return 0;
}

/* The value of @key for a job: its own section, else [global]. */
static const struct opt *get(const struct fio *f, const struct section *job,
			     const char *key)
{
	unsigned i, s;

	for (i = job->nr; i-- > 0;)
		if (!strcmp(job->opts[i].key, key))
			return &job->opts[i];
	/* The [global] sections before this job. */
	for (s = (unsigned)(job - f->sec); s-- > 0;) {
		const struct section *g = &f->sec[s];

		if (strcmp(g->name, "global"))
			continue;
		for (i = g->nr; i-- > 0;)
			if (!strcmp(g->opts[i].key, key))
				return &g->opts[i];
	}
	return NULL;
}

/*
 * fio sizes (fio 3.33's get_mult_bytes()): a number with k, m, g, t or p,
 * then b, i or nothing, counts in powers of the section's kb_base;
 * followed by "ib" ("4KiB"), in powers of the other base (so by default
 * 4KiB is 4000 bytes).  Also 0x and hex digits alone.
 */
static int fio_num(struct fio *f, const struct opt *o, uint64_t *out,
		   const char *what)
{
	const char *s = o->val;
	uint64_t v = 0, mult = 1, base = o->kb_base == 1000 ? 1000 : 1024;
	unsigned pow = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		char *end;

		errno = 0;
		v = strtoull(s + 2, &end, 16);
		if (!isxdigit((unsigned char)s[2]) || *end)
			return ferr(f, o->line, "%s: '%s' is not a %s (hex digits after 0x, without a unit)",
				    o->name, o->val, what);
		if (errno || v > (uint64_t)RALAB_MAX_POS)
			return ferr(f, o->line, "%s: '%s' is too large", o->name, o->val);
		*out = v;
		return 0;
	}
	if (!*s || *s < '0' || *s > '9')
		return ferr(f, o->line, "%s: '%s' is not a %s", o->name, o->val,
			    what);
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return ferr(f, o->line, "%s: '%s' is too large", o->name, o->val);
		v = v * 10 + (uint64_t)(*s - '0');
	}
	switch (*s) {
	case 'k': case 'K': pow = 1; s++; break;
	case 'm': case 'M': pow = 2; s++; break;
	case 'g': case 'G': pow = 3; s++; break;
	case 't': case 'T': pow = 4; s++; break;
	case 'p': case 'P': pow = 5; s++; break;
	case '%':
		return ferr(f, o->line, "%s: percentages are not supported", o->name);
	default: break;
	}
	if (pow && (s[0] == 'i' || s[0] == 'I') && (s[1] == 'b' || s[1] == 'B') &&
	    !s[2]) {
		base = base == 1000 ? 1024 : 1000;
		s += 2;
	}
	if (*s == 'i' || *s == 'I')
		s++;
	if (*s == 'b' || *s == 'B')
		s++;
	if (*s)
		return ferr(f, o->line, "%s: '%s' is not a %s (ranges and lists are not supported)",
			    o->name, o->val, what);
	while (pow--)
		mult *= base;
	if (v > (uint64_t)RALAB_MAX_POS / mult)
		return ferr(f, o->line, "%s: '%s' is too large", o->name, o->val);
	*out = v * mult;
	return 0;
}

static int fio_size(struct fio *f, const struct opt *o, uint64_t *out)
{
	return fio_num(f, o, out, "size");
}

/*
 * A size, or "N%" (N from 0 to 100): *pct and *pct_line (the option's
 * line) set, *out left alone.
 */
static int fio_size_pct(struct fio *f, const struct opt *o, uint64_t *out,
			unsigned *pct, unsigned *pct_line)
{
	size_t n = strlen(o->val), i;
	unsigned v = 0;

	if (!n || o->val[n - 1] != '%')
		return fio_size(f, o, out);
	for (i = 0; i + 1 < n; i++) {
		if (o->val[i] < '0' || o->val[i] > '9' || v > 100)
			return ferr(f, o->line, "%s: '%s' is not a percent from 0 to 100",
				    o->name, o->val);
		v = v * 10 + (unsigned)(o->val[i] - '0');
	}
	if (n == 1 || v > 100)
		return ferr(f, o->line, "%s: '%s' is not a percent from 0 to 100",
			    o->name, o->val);
	*pct = v;
	*pct_line = o->line;
	return 0;
}

/* A count: fio reads it as a size (numjobs=2k is 2048; 0x10 is 16). */
static int fio_uint(struct fio *f, const struct opt *o, uint64_t *out)
{
	return fio_num(f, o, out, "number");
}

/* A boolean option: bare (true), 0 or 1, as fio's parser takes it. */
static int fio_bool(struct fio *f, const struct opt *o, bool *out)
{
	if (!o->val[0] || !strcmp(o->val, "1"))
		*out = true;
	else if (!strcmp(o->val, "0"))
		*out = false;
	else
		return ferr(f, o->line, "%s must be 0 or 1, not '%s'", o->name,
			    o->val);
	return 0;
}

/*
 * A time: a number and an optional unit (fio's: us, usec, ms, msec, s,
 * sec, m, min, h, hour, d, day), else @unit_us; in microseconds.
 */
static int fio_time(struct fio *f, const struct opt *o, uint64_t unit_us,
		    uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
		{ "us", 1 },	   { "usec", 1 },	  { "ms", 1000 },
		{ "msec", 1000 },  { "s", 1000000 },	  { "sec", 1000000 },
		{ "m", 60000000 }, { "min", 60000000 },  { "h", 3600000000ull },
		{ "hour", 3600000000ull },		  { "d", 86400000000ull },
		{ "day", 86400000000ull },
	};
	char *end;
	uint64_t v;
	size_t i;

	if (o->val[0] < '0' || o->val[0] > '9')
		return ferr(f, o->line, "%s: '%s' is not a time", o->name, o->val);
	v = strtoull(o->val, &end, 10);
	if (*end) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(end, units[i].name))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return ferr(f, o->line, "%s: '%s' has an unknown time unit (us, ms, s, m, h or d)",
				    o->name, o->val);
		unit_us = units[i].us;
	}
	if (v > 1000000000000ull / unit_us)
		return ferr(f, o->line, "%s: '%s' is too long (at most 10^12 microseconds)",
			    o->name, o->val);
	*out = v * unit_us;
	return 0;
}

/* fadvise_hint: none, as the workload (fio's "1"), or one advice. */
enum fadv_hint { HINT_NONE, HINT_WORKLOAD, HINT_SEQ, HINT_RAND, HINT_NOREUSE };

struct job {
	char name[64];
	/* fio's name for it (name=, else the section's): what wait_for names */
	char fio_name[256];
	char wait_for[256];    /* wait_for: a job's fio_name ("": none) */
	unsigned wait_for_line;
	bool random, rw;
	unsigned wonly;      /* rw=write, randwrite: its line (0: not) */
	unsigned mix;        /* rwmixread percent */
	uint64_t fsync_blocks; /* fsync=N, fdatasync=N: a sync every N writes */
	bool osync;            /* sync=1: O_SYNC writes */
	bool end_fsync;        /* end_fsync: a sync when the job ends */
	bool fsync_close;      /* fsync_on_close: a sync at each close */
	uint64_t bs, size, filesize, offset, offset_inc, loops, number_ios;
	/*
	 * size as a percent of each file's filesize (fio 3.33); offset and
	 * offset_increment as percents are refused.  0 in *_pct_line:
	 * given in bytes.
	 */
	unsigned size_pct;
	unsigned size_pct_line, offset_pct_line, inc_pct_line;
	uint64_t randseed;
	bool allrand;        /* allrandrepeat */
	bool t64;            /* random_generator=tausworthe64 */
	bool lfsr;           /* random_generator=lfsr (uniform, zoned) */
	unsigned numjobs, nrfiles;
	int engine;          /* 0 read, 1 pread, 2 mmap */
	/*
	 * libaio, posixaio, io_uring, vsync (which queues to join I/Os):
	 * fio counts the bytes each pass queues (FIO_Q_QUEUED) and ends the
	 * pass at size; sync engines complete
	 * inline and count nothing there (do_io(), io_queue_event()).
	 */
	bool queued;
	unsigned iodepth;    /* reads in flight at once (posixaio, io_uring) */
	uint64_t think_us;
	uint64_t think_blocks; /* think after this many I/Os (1) */
	uint64_t runtime_us; /* 0: none */
	uint64_t delay_us;   /* startdelay */
	uint64_t rate_bps, rate_iops; /* reads' rate limits (0: none) */
	bool exitall;
	unsigned char exit_what; /* EXIT_GROUP, _STONEWALL, _ALL (exit_what=) */
	/* new_group: a reporting group, and the one exitall stops */
	bool new_group;
	unsigned new_group_line;
	bool time_based;
	int service;         /* 0 roundrobin, 1 sequential, 2 random */
	unsigned service_nr; /* I/Os on a file before the next (TYPE:N) */
	unsigned openfiles;  /* files open at once (fio's open_files) */
	bool invalidate, norandommap, stonewall;
	bool direct;          /* direct=1: O_DIRECT reads, past the cache */
	bool splice;          /* ioengine=splice: reads splice (via splice) */
	bool libaio;
	unsigned direct_line;
	bool pre_read;          /* pre_read=1: the files read first */
	bool verify_ro;         /* verify=null on a job that only reads */
	bool thread;            /* thread: jobs are threads of one process */
	enum fadv_hint fadvise_hint; /* fio's default: as the workload */
	bool filesize_set;
	/*
	 * filesize=LO-HI: each file's size drawn from fs_lo to filesize
	 * (fs_line: its line; 0 for one size), per clone in fs[].
	 */
	uint64_t fs_lo, fs[MAX_FILES];
	unsigned fs_line;
	/*
	 * Where the file of the clone being made ends: filesize, else
	 * (fio's setup_files: f->io_size + f->file_offset) its share of
	 * size past the clone's offset; a file another job made, its size.
	 */
	uint64_t file_end;
	/*
	 * Where fio's checks find the end of the clone's files (its
	 * f->real_file_size: "offset too large", a sequential read of a
	 * random job going on, wrapping): file_end, but in a run over
	 * existing files (fio_files=existing) the size the last job gave
	 * them, which does not move the I/O region.
	 */
	uint64_t real_end;
	uint64_t rend[MAX_FILES]; /* each file's, the largest in real_end */
	/*
	 * Where a later job makes the clone's files end (it lays one out
	 * again, larger: final_sizes()), if past real_end and the caller
	 * did not say how the files stand; else 0.
	 */
	uint64_t file_final;
	char names[16][128]; /* filename=a:b: the files' names */
	unsigned nnames;
	/*
	 * Offset patterns beyond plain sequential and random (fio io_u.c,
	 * get_next_offset): rw=read:N adds N bytes after each I/O
	 * (seq_add; negative: backwards, see seq_offset());
	 * rw=randread:N takes a new offset every N I/Os only
	 * (seq_nr), the others follow on (rw_sequencer=sequential) or
	 * repeat it (identical); percentage_random makes only that share
	 * of the new offsets random; zonemode=strided reads zonesize bytes
	 * of each zone of zonerange bytes, then moves zonerange + zoneskip
	 * on, wrapping at the end of the file.
	 */
	int64_t seq_add;
	uint64_t seq_nr;
	bool seq_identical;
	unsigned perc_rand;
	bool strided;
	uint64_t zone_size, zone_range, zone_skip;
	/*
	 * random_distribution (fio_rand.c): 0 uniform, or FIO_DIST_*
	 * with its parameter and center (-1: none); zoned: up to 16
	 * zones of access percent / size percent, as fio's table of the
	 * 100 access percents.
	 */
	int dist;
	double dist_param, dist_center;
	/* bsrange / bssplit: bs is the smallest size (and the alignment) */
	uint64_t max_bs;
	/*
	 * blockalign (ba): random offsets in multiples of it instead of
	 * bs (0: bs); uniform and zoned draws without a random map only.
	 */
	uint64_t ba;
	unsigned ba_line;
	uint64_t io_size; /* 0: size */
	unsigned nsplit;
	uint64_t split_bs[16];
	unsigned split_perc[16];
	bool zoned;
	unsigned char zone_lo[100], zone_hi[100]; /* size percents */
	/*
	 * zoned_abs: the zones' sizes in bytes; zone_lo and zone_hi then
	 * hold a zone's number, abs_lo and abs_hi its byte range.
	 */
	bool zoned_abs;
	uint64_t abs_lo[16], abs_hi[16];
	char directory[128];
	/* filename_format: $jobname, $jobnum, $filenum (empty: fio's own) */
	char name_fmt[128];
};

/* Whether a job needs the per-I/O offset generator (gen_pattern). */
static bool has_pattern(const struct job *j)
{
	return j->seq_add || j->seq_nr > 1 || j->strided || j->max_bs > j->bs ||
	       j->ba ||
	       (j->random && (j->perc_rand < 100 || j->dist || j->zoned ||
			      j->lfsr));
}

/*
 * Whether a job's writes are made: rw and randrw (gen_rw() on one file,
 * the files in turn on several); the mmap engine's are write faults.
 */
static bool writes_modelled(const struct job *j)
{
	return j->rw;
}

/*
 * direct=1: reads through O_DIRECT descriptors (filemap_read_direct() in
 * the model).  Their offsets and sizes must be multiples of the logical
 * block size (fio fails others with EINVAL); direct writes too, also
 * into the unwritten files write-only jobs lay out.  The mmap engine's
 * mappings and pre_read (a read(2) into a buffer fio does not align)
 * are not modelled.
 */
static int check_direct(struct fio *f, const struct job *j)
{
	unsigned i;
	uint64_t a = j->bs | j->max_bs | j->offset | j->offset_inc;

	for (i = 0; i < j->nsplit; i++)
		a |= j->split_bs[i];
	if (j->engine == 2)
		return ferr(f, j->direct_line, "direct=1 with ioengine=mmap: a mapping reads through the page cache (use another engine)");
	if (j->pre_read)
		return ferr(f, j->direct_line, "direct=1 with pre_read=1 is not modelled");
	if (a & (DIO_ALIGN - 1))
		return ferr(f, j->direct_line, "direct=1 needs block sizes and offsets in multiples of %u bytes (the logical block size)",
			    DIO_ALIGN);
	return 0;
}

/*
 * The suffix of a job's open ops: its files opened with O_DIRECT, and for
 * the splice engine a 'via splice' line after (its reads splice(2) into a
 * pipe, 64 KiB at most each, emptied after each: fio 3.33's
 * engines/splice.c).
 */
static const char *odirect(const struct job *j)
{
	if (j->splice)
		return j->direct ? " direct\nvia splice" : "\nvia splice";
	return j->direct ? " direct" : "";
}

/*
 * bssplit=BS/PERCENT:BS/PERCENT...[,writes]: the reads' sizes and their
 * shares; sizes without a share split what is left.  Kept, as fio keeps
 * them, in increasing share; bs becomes the smallest size.
 */
static int parse_bssplit(struct fio *f, const struct opt *o, struct job *j)
{
	char buf[256], *p, *save = NULL;
	unsigned n = 0, i, k, sum = 0, missing = 0;
	bool has[16];
	int err;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(o->val, ","), o->val);
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		struct opt sz = *o;
		char *slash = strchr(p, '/');
		uint64_t v;

		if (n == 16)
			return ferr(f, o->line, "bssplit: at most 16 sizes");
		if (slash)
			*slash = '\0';
		snprintf(sz.val, sizeof(sz.val), "%s", p);
		if ((err = fio_size(f, &sz, &j->split_bs[n])))
			return err;
		if (!j->split_bs[n])
			return ferr(f, o->line, "bssplit: a size must not be 0");
		has[n] = slash != NULL;
		j->split_perc[n] = 0;
		if (slash) {
			snprintf(sz.val, sizeof(sz.val), "%s", slash + 1);
			if ((err = fio_uint(f, &sz, &v)))
				return err;
			if (v > 100)
				return ferr(f, o->line, "bssplit: '%s' is not a percent", slash + 1);
			j->split_perc[n] = (unsigned)v;
			sum += (unsigned)v;
		} else {
			missing++;
		}
		n++;
	}
	if (!n)
		return ferr(f, o->line, "bssplit: no size");
	if (sum > 100)
		return ferr(f, o->line, "bssplit: the percents add up to %u, more than 100", sum);
	for (i = 0; i < n; i++)
		if (!has[i])
			j->split_perc[i] = missing == 1 && n == 1 ? 100 : (100 - sum) / missing;
	/* In increasing share, equal shares in their order (a stable sort). */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && j->split_perc[k - 1] > j->split_perc[k]; k--) {
			uint64_t b = j->split_bs[k];
			unsigned pc = j->split_perc[k];

			j->split_bs[k] = j->split_bs[k - 1];
			j->split_perc[k] = j->split_perc[k - 1];
			j->split_bs[k - 1] = b;
			j->split_perc[k - 1] = pc;
		}
	j->nsplit = n;
	j->bs = j->max_bs = j->split_bs[0];
	for (i = 0; i < n; i++) {
		if (j->split_bs[i] < j->bs)
			j->bs = j->split_bs[i];
		if (j->split_bs[i] > j->max_bs)
			j->max_bs = j->split_bs[i];
	}
	return 0;
}

/* A number of fio's "zipf:1.2"-style arguments. */
static bool dist_num(const char *s, double *v, const char **end)
{
	char *e;

	*v = strtod(s, &e);
	*end = e;
	return e != s;
}

/*
 * zoned_abs:A/SIZE[:A/SIZE...]: zones of SIZE bytes from the file's
 * start, drawn by access percent A (fio's table of 100 entries, as
 * zoned).  fio 3.33 fails to parse a zone without its size, and ends a
 * file's pass at the first draw of a zone that ends past the file
 * ("zoned_abs sizes exceed file size": next_io()).
 */
static int parse_zoned_abs(struct fio *f, const struct opt *o, struct job *j)
{
	const char *v = o->val + 10, *e, *c;
	unsigned acc = 0, n = 0, k;
	uint64_t at = 0, size;
	size_t skip;
	int err;

	if (strchr(v, ','))
		return ferr(f, o->line, "random_distribution=%s: fio 3.33 fails to parse zones per direction (after ',': \"failed parsing random_distribution\", the job is dropped); give one set of zones",
			    o->val);
	while (*v) {
		struct opt sz = *o;
		double a;
		size_t len;

		c = strchr(v, ':');
		len = c ? (size_t)(c - v) : strlen(v);
		if (!dist_num(v, &a, &e) || *e != '/' || n == 16 ||
		    !(a >= 0 && a <= 100) || a != (unsigned)a ||
		    (size_t)(e + 1 - v) >= len)
			return ferr(f, o->line, "random_distribution=%s: zoned_abs takes ACCESS/SIZE pairs separated by ':' (at most 16, each with its size; fio 3.33 fails to parse one without)",
				    o->val);
		/* The size, read as fio reads sizes (units, kb_base). */
		skip = (size_t)(e + 1 - v);
		snprintf(sz.val, sizeof(sz.val), "%.*s", (int)(len - skip),
			 v + skip);
		snprintf(sz.name, sizeof(sz.name), "random_distribution");
		if ((err = fio_size(f, &sz, &size)))
			return err;
		if (size > (uint64_t)RALAB_MAX_POS - at)
			return ferr(f, o->line, "random_distribution=%s: the zones add up to more than ralab's largest offset",
				    o->val);
		j->abs_lo[n] = at;
		j->abs_hi[n] = at + size;
		at += size;
		for (k = 0; k < (unsigned)a && acc + k < 100; k++) {
			j->zone_lo[acc + k] = (unsigned char)n;
			j->zone_hi[acc + k] = (unsigned char)(n + 1);
		}
		acc += (unsigned)a;
		n++;
		v = c ? c + 1 : v + len;
	}
	if (acc != 100)
		return ferr(f, o->line, "random_distribution=%s: the access percents add up to %u, not 100",
			    o->val, acc);
	j->zoned = j->zoned_abs = true;
	return 0;
}

/*
 * random_distribution=random | zipf:THETA[:CENTER] | pareto:H[:CENTER] |
 * normal:DEV[:CENTER] (gauss) | zoned:A/S[:A/S...] (access and size
 * percents, the accesses summing to 100; a size left out or 0 shares
 * what the others leave) | zoned_abs:A/SIZE[:A/SIZE...] (sizes in
 * bytes, each given).
 */
static int parse_distribution(struct fio *f, const struct opt *o,
			      struct job *j)
{
	const char *v = o->val, *e;
	double x, c = -1;
	int kind;

	j->dist_center = -1;
	if (!strcmp(v, "random"))
		return 0;
	if (!strncmp(v, "zoned_abs:", 10))
		return parse_zoned_abs(f, o, j);
	if (!strncmp(v, "zoned:", 6)) {
		unsigned acc = 0, size = 0, given, n = 0, missing = 0, i, k;
		unsigned za[16], zs[16];

		/*
		 * fio's HOWTO gives zones per direction after ','
		 * ("zoned:50/5:30/15:20/,50/10:50/90"), but fio 3.33's
		 * option parser splits the value there first and fails the
		 * part after it ("failed parsing"): the job is dropped.
		 */
		if (strchr(v, ','))
			return ferr(f, o->line, "random_distribution=%s: fio 3.33 fails to parse zones per direction (after ',': \"failed parsing random_distribution\", the job is dropped); give one set of zones",
				    o->val);

		/*
		 * A size left out ("20/") or 0 takes an equal part of what
		 * the others leave (fio's zone_split_ddir(): "divide the
		 * remains between them").
		 */
		v += 6;
		while (*v) {
			double a, sz = 0;

			if (!dist_num(v, &a, &e) || *e != '/' || n == 16)
				goto bad_zoned;
			if (e[1] && e[1] != ':' && !dist_num(e + 1, &sz, &e))
				goto bad_zoned;
			if (e[0] == '/')
				e++;
			/* !(x >= 0 && x <= 100): NaN too, before any cast. */
			if ((*e && *e != ':') || !(a >= 0 && a <= 100) ||
			    !(sz >= 0 && sz <= 100) || a != (unsigned)a ||
			    sz != (unsigned)sz)
				goto bad_zoned;
			za[n] = (unsigned)a;
			zs[n] = (unsigned)sz;
			acc += za[n];
			size += zs[n];
			missing += !zs[n];
			n++;
			v = *e ? e + 1 : e;
		}
		if (acc > 100 || size > 100)
			return ferr(f, o->line, "random_distribution=%s: the percents add up to more than 100",
				    o->val);
		if (acc != 100)
			return ferr(f, o->line, "random_distribution=%s: the access percents add up to %u, not 100",
				    o->val, acc);
		/* fio: one zone without a size gets none (all at block 0). */
		given = missing == 1 && n == 1 ? 100 : size;
		for (i = 0, acc = 0, size = 0; i < n; i++) {
			unsigned sz = zs[i] ? zs[i] : (100 - given) / missing;

			for (k = 0; k < za[i]; k++, acc++) {
				j->zone_lo[acc] = (unsigned char)size;
				j->zone_hi[acc] = (unsigned char)(size + sz);
			}
			size += sz;
		}
		j->zoned = true;
		return 0;
bad_zoned:
		return ferr(f, o->line, "random_distribution=%s: zoned takes ACCESS/SIZE percents separated by ':' (at most 16)",
			    o->val);
	}
	if (!strcmp(v, "zipf") || !strcmp(v, "pareto") || !strcmp(v, "normal") ||
	    !strcmp(v, "gauss"))
		return ferr(f, o->line, "random_distribution=%s needs its parameter (%s:NUMBER)",
			    o->val, o->val);
	if (!strncmp(v, "zipf:", 5))
		kind = FIO_DIST_ZIPF, v += 5;
	else if (!strncmp(v, "pareto:", 7))
		kind = FIO_DIST_PARETO, v += 7;
	else if (!strncmp(v, "normal:", 7))
		kind = FIO_DIST_NORMAL, v += 7;
	else if (!strncmp(v, "gauss:", 6))
		kind = FIO_DIST_NORMAL, v += 6;
	else
		return ferr(f, o->line, "random_distribution=%s is not modelled (random, zipf:T, pareto:H, normal:D, zoned:A/S:...)",
			    o->val);
	if (!dist_num(v, &x, &e) || (*e && (*e != ':' || !dist_num(e + 1, &c, &e) ||
					   *e || c < 0 || c > 1)))
		return ferr(f, o->line, "random_distribution=%s: want a number, then optionally ':' and a center from 0 to 1",
			    o->val);
	if (kind == FIO_DIST_ZIPF && (x <= 0 || x == 1.0))
		return ferr(f, o->line, "random_distribution=%s: zipf theta must be above 0 and not 1",
			    o->val);
	if (kind == FIO_DIST_PARETO && (x <= 0 || x >= 1))
		return ferr(f, o->line, "random_distribution=%s: pareto h must be between 0 and 1",
			    o->val);
	if (kind == FIO_DIST_NORMAL && (x < 0 || x > 100))
		return ferr(f, o->line, "random_distribution=%s: the normal deviation is a percent from 0 to 100",
			    o->val);
	j->dist = kind;
	j->dist_param = x;
	j->dist_center = c;
	return 0;
}


/* The fadvise op of a job's fadvise_hint (fio: "1" follows the workload). */
static const char *fadvise_name(const struct job *j)
{
	switch (j->fadvise_hint) {
	case HINT_RAND: return "random";
	case HINT_SEQ: return "sequential";
	case HINT_NOREUSE: return "noreuse";
	default: return j->random ? "random" : "sequential";
	}
}

/*
 * The madvise of fio 3.33's mmap engine (fio_madvise_file): any hint
 * but 0 advises the mapping as the job's rw is, MADV_RANDOM or
 * MADV_SEQUENTIAL, whatever fadvise_hint names (fio 3.33 with
 * fadvise_hint=random on rw=read: fadvise64 POSIX_FADV_RANDOM, then
 * madvise MADV_SEQUENTIAL; later fio follow the hint).
 */
static const char *madvise_name(const struct job *j)
{
	return j->random ? "random" : "sequential";
}

/* fio 3.33's verify= values (fio --cmdhelp=verify). */
static bool verify_type(const char *v)
{
	static const char *const types[] = {
		"0", "md5", "crc64", "crc32", "crc32c-intel", "crc32c",
		"crc16", "crc7", "sha1", "sha256", "sha512", "sha3-224",
		"sha3-256", "sha3-384", "sha3-512", "xxhash", "meta",
		"pattern", "null",
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(v, types[i]))
			return true;
	return false;
}

/*
 * filename=: fio adds the files of every filename= it parses to the job
 * it parses them for (str_filename_cb(), add_file()), and a job starts
 * with a copy of [global]'s files (dup_files()), so the files are those
 * of each [global] before the job, then the job's own, in order: with
 * "filename=a" in [global] and "filename=b" in the job, the job reads a
 * and b (fio 3.33 under strace).  "a:b:c" names that many; nrfiles does
 * not count then.
 */
static int job_filenames(struct fio *f, const struct section *sec,
			 struct job *j)
{
	unsigned s, i, last = (unsigned)(sec - f->sec);

	j->nnames = 0;
	for (s = 0; s <= last; s++) {
		const struct section *x = &f->sec[s];

		if (s < last && strcmp(x->name, "global"))
			continue;
		for (i = 0; i < x->nr; i++) {
			const struct opt *o = &x->opts[i];
			const char *p = o->val;

			if (strcmp(o->key, "filename"))
				continue;
			do {
				size_t n = strcspn(p, ":");

				if (!n || n >= sizeof(j->names[0]))
					return ferr(f, o->line, "filename=%s: %s",
						    o->val,
						    n ? "a name is too long"
						      : "an empty name");
				if (j->nnames == 16)
					return ferr(f, o->line, "filename=%s: at most 16 files for a job (with those of [global])",
						    o->val);
				snprintf(j->names[j->nnames++],
					 sizeof(j->names[0]), "%.*s", (int)n,
					 p);
				p += n;
			} while (*p++ == ':');
		}
	}
	if (j->nnames)
		j->nrfiles = j->nnames;
	return 0;
}

static int read_job(struct fio *f, struct section *sec, struct job *j)
{
	const struct opt *o;
	unsigned i, s, pct; /* a percent offset's value (refused) */
	uint64_t v;
	bool flag = false;
	int err;

	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", sec->name);
	j->bs = 4096;
	j->numjobs = j->nrfiles = 1;
	j->mix = 50;
	j->loops = 1;
	j->invalidate = true;
	j->fadvise_hint = HINT_WORKLOAD;
	j->randseed = 0x89;
	j->dist_center = -1;

	/* Every option of the job and of [global]: known, or an error. */
	for (s = 0; s <= (unsigned)(sec - f->sec); s++) {
		const struct section *x = &f->sec[s];

		if (x != sec && strcmp(x->name, "global"))
			continue;
		for (i = 0; i < x->nr; i++) {
			const char *k = x->opts[i].key;

			if (in_list(k, modelled, sizeof(modelled) / sizeof(modelled[0])) ||
			    in_list(k, reporting_only,
				    sizeof(reporting_only) / sizeof(reporting_only[0])))
				continue;
			if (!in_list(x->opts[i].name, ralab__fio_names,
				     ralab__fio_nr_names)) {
				/*
				 * A job file's: fio says "Bad option <...>"
				 * and drops the job.  (fio's command line
				 * takes unique abbreviations: the full name.)
				 */
				const char *near =
					ralab__fio_closest_option(x->opts[i].name);

				return ferr(f, x->opts[i].line, "'%s' is not an option of fio 3.33%s%s%s",
					    x->opts[i].name,
					    near ? ": did you mean '" : "",
					    near ? near : "", near ? "'?" : "");
			}
			/*
			 * uncached: fio 3.33's RWF_UNCACHED is 0x40, the bit
			 * 6.18 took for RWF_ATOMIC, so preadv2() fails
			 * (EOPNOTSUPP, strace of fio 3.33 on 6.18.44) and the
			 * job stops at its first I/O.
			 */
			if (!strcmp(k, "uncached")) {
				if (!strcmp(x->opts[i].val, "0"))
					continue;
				return ferr(f, x->opts[i].line, "uncached: fio 3.33 passes preadv2() the flag 0x40 (its RWF_UNCACHED), which 6.18 takes as RWF_ATOMIC and refuses for reads (EOPNOTSUPP): the job stops at its first I/O; for RWF_DONTCACHE (0x80) reads write the workload as .ops with 'rwf dontcache'");
			}
			return ferr(f, x->opts[i].line, "option '%s' changes the I/O pattern and is not supported by ralab",
				    x->opts[i].name);
		}
	}
	if ((o = get(f, sec, "rw"))) {
		char base[256];
		const char *colon = strchr(o->val, ':');
		uint64_t nr = 0;

		snprintf(base, sizeof(base), "%.*s",
			 (int)(colon ? (size_t)(colon - o->val) : strlen(o->val)), o->val);
		if (!strcmp(base, "read"))
			;
		else if (!strcmp(base, "randread"))
			j->random = true;
		else if (!strcmp(base, "rw") || !strcmp(base, "readwrite"))
			j->rw = true;
		else if (!strcmp(base, "randrw"))
			j->rw = j->random = true;
		else if (!strcmp(base, "write"))
			j->rw = true, j->wonly = o->line;
		else if (!strcmp(base, "randwrite"))
			j->rw = j->random = true, j->wonly = o->line;
		else
			return ferr(f, o->line, "%s=%s: not modelled (read, randread, write, randwrite, rw, randrw are)",
				    o->name, o->val);
		if (colon) {
			struct opt n = *o;
			bool back = colon[1] == '-' && !j->random;

			/* fio: a hole of N bytes may be negative (backwards). */
			if (colon[1] == '-' && j->random)
				return ferr(f, o->line, "%s=%s: the ':N' modifier of a random job is a count of I/Os, not negative",
					    o->name, o->val);
			snprintf(n.val, sizeof(n.val), "%s", colon + 1 + back);
			if ((err = fio_size(f, &n, &nr)))
				return err;
			if (!nr)
				return ferr(f, o->line, "%s=%s: the ':N' modifier must not be 0",
					    o->name, o->val);
			/* Sequential: N bytes of hole; random: N I/Os per offset. */
			if (j->random)
				j->seq_nr = nr;
			else
				j->seq_add = back ? -(int64_t)nr : (int64_t)nr;
		}
	}
	if ((o = get(f, sec, "rw_sequencer"))) {
		if (!strcmp(o->val, "identical"))
			j->seq_identical = true;
		else if (strcmp(o->val, "sequential"))
			return ferr(f, o->line, "rw_sequencer must be sequential or identical, not '%s'",
				    o->val);
	}
	j->perc_rand = 100;
	if ((o = get(f, sec, "percentage_random"))) {
		struct opt n = *o;
		char *comma = strchr(n.val, ',');

		/* "R[,W[,T]]": the reads' share is the first. */
		if (comma)
			*comma = '\0';
		if ((err = fio_uint(f, &n, &v)))
			return err;
		if (v > 100)
			return ferr(f, o->line, "percentage_random must be from 0 to 100");
		j->perc_rand = (unsigned)v;
	}
	if ((o = get(f, sec, "random_distribution")) &&
	    (err = parse_distribution(f, o, j)))
		return err;
	if ((o = get(f, sec, "directory")))
		snprintf(j->directory, sizeof(j->directory), "%.*s",
			 (int)strcspn(o->val, ":"), o->val);
	if ((o = get(f, sec, "filename_format"))) {
		const char *d;

		/*
		 * fio's tokens; clones without $jobnum share their files,
		 * as with filename=.  $clientuid is fio's client/server mode.
		 */
		for (d = strchr(o->val, '$'); d; d = strchr(d + 1, '$'))
			if (strncmp(d, "$jobname", 8) && strncmp(d, "$jobnum", 7) &&
			    strncmp(d, "$filenum", 8))
				return ferr(f, o->line, "filename_format=%s: '%.12s' is not $jobname, $jobnum or $filenum",
					    o->val, d);
		if (!o->val[0] || strlen(o->val) >= sizeof(j->name_fmt))
			return ferr(f, o->line, "filename_format must be 1 to %zu characters",
				    sizeof(j->name_fmt) - 1);
		memcpy(j->name_fmt, o->val, strlen(o->val) + 1);
	}
	if ((o = get(f, sec, "zonemode"))) {
		if (!strcmp(o->val, "strided"))
			j->strided = true;
		else if (!strcmp(o->val, "zbd"))
			return ferr(f, o->line, "zonemode=zbd (zoned block devices) is not modelled");
		else if (strcmp(o->val, "none"))
			return ferr(f, o->line, "zonemode must be none or strided, not '%s'", o->val);
	}
	if ((o = get(f, sec, "zonesize"))) {
		if ((err = fio_size(f, o, &j->zone_size)))
			return err;
		/*
		 * fio 3.33's zonemode defaults to none, so its "zonesize
		 * without zonemode means strided" (fixup_options()) never
		 * applies: the job is refused.
		 */
		if (!j->strided && j->zone_size)
			return ferr(f, o->line,
				    "zonesize without zonemode=strided: fio 3.33 refuses the job (\"--zonemode=none and --zonesize are not compatible\")");
	}
	if ((o = get(f, sec, "zonerange")) && (err = fio_size(f, o, &j->zone_range)))
		return err;
	if ((o = get(f, sec, "zoneskip")) && (err = fio_size(f, o, &j->zone_skip)))
		return err;
	if (j->strided) {
		o = get(f, sec, "zonemode");
		if (!j->zone_size)
			return ferr(f, o ? o->line : sec->line, "zonemode=strided needs zonesize");
		if (!j->zone_range)
			j->zone_range = j->zone_size;
	}
	if ((o = get(f, sec, "bs"))) {
		struct opt r = *o;

		/* "READS[,WRITES[,TRIMS]]": an empty first keeps 4k. */
		r.val[strcspn(r.val, ",")] = '\0';
		if (r.val[0] && (err = fio_size(f, &r, &j->bs)))
			return err;
		if (!j->bs)
			return ferr(f, o->line, "%s must not be 0", o->name);
	}
	j->max_bs = j->bs;
	if ((o = get(f, sec, "bsrange"))) {
		struct opt a = *o, b;
		char *dash = strpbrk(a.val, "-:"), *comma = strchr(a.val, ',');

		/* "MIN-MAX[,writes]": the reads' range is the first. */
		if (comma)
			*comma = '\0';
		if (!dash || (comma && dash > comma))
			return ferr(f, o->line, "%s: '%s' is not a range (MIN-MAX)", o->name, o->val);
		*dash = '\0';
		b = a;
		snprintf(b.val, sizeof(b.val), "%s", dash + 1);
		if ((err = fio_size(f, &a, &j->bs)) || (err = fio_size(f, &b, &j->max_bs)))
			return err;
		if (!j->bs || j->max_bs < j->bs)
			return ferr(f, o->line, "%s: '%s' is not a range of sizes from small to large",
				    o->name, o->val);
	}
	if ((o = get(f, sec, "bssplit")) && (err = parse_bssplit(f, o, j)))
		return err;
	if ((o = get(f, sec, "blockalign"))) {
		struct opt r = *o;

		/* "READS[,WRITES[,TRIMS]]", as bs. */
		r.val[strcspn(r.val, ",")] = '\0';
		if (r.val[0] && (err = fio_size(f, &r, &j->ba)))
			return err;
		if (r.val[0] && !j->ba)
			return ferr(f, o->line, "%s must not be 0", o->name);
		j->ba_line = o->line;
	}
	if ((o = get(f, sec, "size")) &&
	    (err = fio_size_pct(f, o, &j->size, &j->size_pct, &j->size_pct_line)))
		return err;
	if ((o = get(f, sec, "filesize")) && strpbrk(o->val, "-:")) {
		/* LO-HI: each file's size drawn (file_sizes()). */
		struct opt a = *o, b;
		char *dash = strpbrk(a.val, "-:");

		*dash = '\0';
		b = a;
		snprintf(b.val, sizeof(b.val), "%s", dash + 1);
		if ((err = fio_size(f, &a, &j->fs_lo)) ||
		    (err = fio_size(f, &b, &j->filesize)))
			return err;
		if (!j->fs_lo || j->filesize < j->fs_lo)
			return ferr(f, o->line, "%s: '%s' is not a range of sizes from small to large",
				    o->name, o->val);
		if (j->fs_lo != j->filesize)
			j->fs_line = o->line;
	} else if (o && (err = fio_size(f, o, &j->filesize))) {
		return err;
	}
	j->filesize_set = o != NULL;
	if ((o = get(f, sec, "offset")) &&
	    (err = fio_size_pct(f, o, &j->offset, &pct, &j->offset_pct_line)))
		return err;
	if ((o = get(f, sec, "offset_increment")) &&
	    (err = fio_size_pct(f, o, &j->offset_inc, &pct, &j->inc_pct_line)))
		return err;
	if ((o = get(f, sec, "numjobs"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (!v || v > 64)
			return ferr(f, o->line, "numjobs must be from 1 to 64");
		j->numjobs = (unsigned)v;
	}
	if ((o = get(f, sec, "nrfiles"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (!v || v > MAX_FILES)
			return ferr(f, o->line, "nrfiles must be from 1 to %d (the files of a case)",
				    MAX_FILES);
		j->nrfiles = (unsigned)v;
	}
	if ((o = get(f, sec, "rwmixread"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (v > 100)
			return ferr(f, o->line, "rwmixread must be at most 100");
		j->mix = (unsigned)v;
	}
	if ((o = get(f, sec, "fsync")) || (o = get(f, sec, "fdatasync"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		j->fsync_blocks = v;
	}
	/* O_SYNC / O_DSYNC writes are written back as each one returns. */
	if ((o = get(f, sec, "sync")) && strcmp(o->val, "0") &&
	    strcmp(o->val, "none"))
		j->osync = true;
	if ((o = get(f, sec, "end_fsync"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		j->end_fsync = v != 0;
	}
	if ((o = get(f, sec, "fsync_on_close"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		j->fsync_close = v != 0;
	}
	if ((o = get(f, sec, "rwmixwrite"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (v > 100)
			return ferr(f, o->line, "rwmixwrite must be at most 100");
		j->mix = 100 - (unsigned)v;
	}
	if ((o = get(f, sec, "loops"))) {
		if ((err = fio_uint(f, o, &j->loops)))
			return err;
		if (!j->loops || j->loops > 1000)
			return ferr(f, o->line, "loops must be from 1 to 1000");
	}
	if ((o = get(f, sec, "number_ios")) && (err = fio_uint(f, o, &j->number_ios)))
		return err;
	if ((o = get(f, sec, "randseed")) && (err = fio_uint(f, o, &j->randseed)))
		return err;
	if ((o = get(f, sec, "allrandrepeat")) && (err = fio_bool(f, o, &j->allrand)))
		return err;
	/*
	 * The I/O buffers: anonymous memory, whatever its kind, leaves the
	 * files' page cache alone; a buffer mapped from a file (mmap:FILE,
	 * mmaphuge:FILE, mmapshared:FILE) is another file's page cache.
	 */
	if ((o = get(f, sec, "iomem"))) {
		static const char *const kinds[] = { "malloc", "shm", "shmhuge",
						     "mmap", "mmaphuge", "mmapshared" };

		if (strchr(o->val, ':'))
			return ferr(f, o->line, "%s=%s: a buffer mapped from a file is not modelled",
				    o->name, o->val);
		if (!in_list(o->val, kinds, sizeof(kinds) / sizeof(kinds[0])))
			return ferr(f, o->line, "%s must be malloc, shm, shmhuge, mmap, mmaphuge or mmapshared, not '%s'",
				    o->name, o->val);
	}
	/*
	 * io_submit_mode=offload hands submission to a pool of threads of
	 * fio's (the order and timing of reads in flight then theirs).
	 */
	if ((o = get(f, sec, "io_submit_mode")) && strcmp(o->val, "inline"))
		return ferr(f, o->line, "io_submit_mode=%s is not modelled (inline is)", o->val);
	if ((o = get(f, sec, "pre_read")) && (err = fio_bool(f, o, &j->pre_read)))
		return err;
	if ((o = get(f, sec, "thread")) && (err = fio_bool(f, o, &j->thread)))
		return err;
	if ((o = get(f, sec, "lockfile")) && strcmp(o->val, "none"))
		return ferr(f, o->line, "lockfile=%s (file locking between jobs) is not modelled",
			    o->val);
	/*
	 * random_generator: tausworthe64 makes the offset, block-size and
	 * file generators 64-bit; lfsr draws uniform random offsets from a
	 * file's LFSR instead, each block once, with no random map (fio's
	 * lib/lfsr.c; fio_rand.c).
	 */
	if ((o = get(f, sec, "random_generator"))) {
		if (!strcmp(o->val, "tausworthe64"))
			j->t64 = true;
		else if (!strcmp(o->val, "lfsr"))
			j->lfsr = true;
		else if (strcmp(o->val, "tausworthe"))
			return ferr(f, o->line, "random_generator=%s: tausworthe, tausworthe64 or lfsr",
				    o->val);
	}
	if ((o = get(f, sec, "invalidate")) && (err = fio_bool(f, o, &j->invalidate)))
		return err;
	if ((o = get(f, sec, "fadvise_hint"))) {
		if (!strcmp(o->val, "0"))
			j->fadvise_hint = HINT_NONE;
		else if (!o->val[0] || !strcmp(o->val, "1"))
			j->fadvise_hint = HINT_WORKLOAD;
		else if (!strcmp(o->val, "sequential"))
			j->fadvise_hint = HINT_SEQ;
		else if (!strcmp(o->val, "random"))
			j->fadvise_hint = HINT_RAND;
		else if (!strcmp(o->val, "noreuse"))
			j->fadvise_hint = HINT_NOREUSE;
		else
			return ferr(f, o->line, "fadvise_hint must be 0, 1, sequential, random or noreuse, not '%s'",
				    o->val);
	}
	if ((o = get(f, sec, "norandommap")) && (err = fio_bool(f, o, &j->norandommap)))
		return err;
	if ((o = get(f, sec, "stonewall")) &&
	    (err = fio_bool(f, o, &j->stonewall)))
		return err;
	if ((o = get(f, sec, "exit_what"))) {
		int w = ralab__exit_what(o->val);

		if (w < 0)
			return ferr(f, o->line, "exit_what must be group, stonewall or all, not '%s'",
				    o->val);
		j->exit_what = (unsigned char)w;
	}
	if ((o = get(f, sec, "new_group")) &&
	    (err = fio_bool(f, o, &j->new_group)))
		return err;
	j->new_group_line = o && j->new_group ? o->line : 0;
	/* direct=1 (buffered=0): the files opened with O_DIRECT. */
	if ((o = get(f, sec, "direct")) && (err = fio_bool(f, o, &j->direct)))
		return err;
	j->direct_line = o ? o->line : 0;
	if ((o = get(f, sec, "buffered")) && (err = fio_bool(f, o, &flag)))
		return err;
	if (o && !flag) {
		j->direct = true;
		j->direct_line = o->line;
	}
	j->iodepth = 1;
	if ((o = get(f, sec, "iodepth"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (!v || v > 1024)
			return ferr(f, o->line, "iodepth must be from 1 to 1024");
		j->iodepth = (unsigned)v;
	}
	if ((o = get(f, sec, "thinktime"))) {
		if ((err = fio_time(f, o, 1, &v)))
			return err;
		if (v > 1000000000ull)
			return ferr(f, o->line, "thinktime is too large");
		j->think_us = v;
	}
	/*
	 * thinktime_blocks: the think time comes after that many I/Os.
	 * thinktime_spin: that part of it is spent on the CPU rather than
	 * asleep, which takes the same time in the model (a job's CPU is its
	 * own).  thinktime_blocks_type=issue counts I/Os issued rather than
	 * completed, the same with one I/O in flight.
	 */
	j->think_blocks = 1;
	if ((o = get(f, sec, "thinktime_blocks"))) {
		if ((err = fio_uint(f, o, &j->think_blocks)))
			return err;
		if (!j->think_blocks || j->think_blocks > 1000000000ull)
			return ferr(f, o->line, "thinktime_blocks must be from 1 to 10^9");
	}
	if ((o = get(f, sec, "thinktime_spin"))) {
		if ((err = fio_time(f, o, 1, &v)))
			return err;
		if (v > j->think_us)
			return ferr(f, o->line, "thinktime_spin is longer than thinktime");
	}
	if ((o = get(f, sec, "thinktime_blocks_type")) &&
	    strcmp(o->val, "complete") && strcmp(o->val, "issue"))
		return ferr(f, o->line, "thinktime_blocks_type must be complete or issue, not '%s'", o->val);
	if (o && !strcmp(o->val, "issue") && j->iodepth > 1 && j->think_blocks > 1)
		return ferr(f, o->line, "thinktime_blocks_type=issue with iodepth above 1 is not modelled");
	/* runtime: seconds unless a unit says otherwise; 0 is no limit. */
	if ((o = get(f, sec, "runtime")) && (err = fio_time(f, o, 1000000, &j->runtime_us)))
		return err;
	if ((o = get(f, sec, "exitall")) && (err = fio_bool(f, o, &j->exitall)))
		return err;
	/*
	 * rate=READ[,WRITE[,TRIM]] (bytes/s) and rate_iops: the reads' value,
	 * the first; fio spaces I/Os evenly (rate_process=linear).
	 */
	if ((o = get(f, sec, "rate_process")) && strcmp(o->val, "linear"))
		return ferr(f, o->line, "rate_process=%s is not modelled (only linear)", o->val);
	for (i = 0; i < 2; i++) {
		const char *key = i ? "rate_iops" : "rate";
		struct opt first;
		size_t n;

		if (!(o = get(f, sec, key)))
			continue;
		n = strcspn(o->val, ",");
		if (!n)
			continue; /* ",W": writes only */
		first = *o;
		first.val[n] = '\0';
		if ((err = i ? fio_uint(f, &first, &v) : fio_size(f, &first, &v)))
			return err;
		if (!v || v > 1000000000000ull)
			return ferr(f, o->line, "%s must be from 1 to 10^12", key);
		if (i)
			j->rate_iops = v;
		else
			j->rate_bps = v;
	}
	/* (option values and section names fit: struct opt, section) */
	strcpy(j->fio_name, (o = get(f, sec, "name")) ? o->val : sec->name);
	if ((o = get(f, sec, "wait_for"))) {
		strcpy(j->wait_for, o->val);
		j->wait_for_line = o->line;
	}
	if ((o = get(f, sec, "startdelay"))) {
		if (strchr(o->val, '-') || strchr(o->val, ':'))
			return ferr(f, o->line, "startdelay: a range ('%s') draws a random delay, which ralab does not model: give one time",
				    o->val);
		if ((err = fio_time(f, o, 1000000, &j->delay_us)))
			return err;
	}
	/*
	 * ramp_time: fio runs that long before it starts counting, and
	 * runtime counts after it, so a timed job runs for both (ralab's
	 * figures include the ramp; fio's leave it out).
	 */
	if ((o = get(f, sec, "ramp_time"))) {
		uint64_t ramp;

		if ((err = fio_time(f, o, 1000000, &ramp)))
			return err;
		if (j->runtime_us)
			j->runtime_us += ramp;
	}
	if ((o = get(f, sec, "time_based"))) {
		if ((err = fio_bool(f, o, &j->time_based)))
			return err;
		if (j->time_based && !j->runtime_us)
			return ferr(f, o->line, "time_based needs a runtime (fio would run until stopped)");
	}
	if ((o = get(f, sec, "ioengine"))) {
		const char *e = o->val;

		j->libaio = !strcmp(e, "libaio");
		j->queued = !strcmp(e, "libaio") || !strcmp(e, "posixaio") ||
			    !strcmp(e, "io_uring") || !strcmp(e, "vsync");
		/* vsync: readv(2) at the file position; alone, as sync. */
		if (!strcmp(e, "sync") || (!strcmp(e, "vsync") && j->iodepth == 1))
			j->engine = 0;
		else if (!strcmp(e, "vsync"))
			return ferr(f, o->line, "ioengine=vsync with iodepth %u joins adjacent I/Os into one readv(2), which ralab does not model (iodepth=1: as sync)",
				    j->iodepth);
		else if (!strcmp(e, "psync") || !strcmp(e, "pvsync") ||
			 !strcmp(e, "pvsync2") || !strcmp(e, "libaio") ||
			 !strcmp(e, "posixaio"))
			j->engine = 1;
		else if (!strcmp(e, "splice"))
			j->engine = 1, j->splice = true;
		else if (!strcmp(e, "io_uring"))
			j->engine = 3; /* preads from io-wq workers */
		else if (!strcmp(e, "mmap"))
			j->engine = 2;
		else
			return ferr(f, o->line, "ioengine=%s is not supported (sync, vsync, psync, pvsync, libaio, posixaio, io_uring, mmap, splice)",
				    e);
	}
	/*
	 * io_uring's own options (and libaio's userspace_reap): fio 3.33
	 * drops a job of another engine that sets one ("Bad option").
	 * With one read in flight the submission thread (sqthread_poll)
	 * and forced io-wq punts (force_async) make the events of plain
	 * submissions; with more, buffered reads complete in another order
	 * (6.18.44, fio 3.33: sequential and random, iodepth 4), which is
	 * not modelled.
	 */
	{
		static const struct {
			const char *name;
			bool depth1; /* set (not 0): iodepth 1 only */
		} uring_only[] = { { "nonvectored", false },
				   { "sqthread_poll", true },
				   { "sqthread_poll_cpu", false },
				   { "force_async", true },
				   { "fixedbufs", false },
				   { "registerfiles", false } };
		unsigned u;

		/* libaio's own, likewise. */
		if ((o = get(f, sec, "userspace_reap")) && !j->libaio)
			return ferr(f, o->line, "%s is an option of ioengine=libaio: fio 3.33 drops a job of another engine with it (\"Bad option\")",
				    o->name);

		for (u = 0; u < sizeof(uring_only) / sizeof(uring_only[0]); u++) {
			if (!(o = get(f, sec, uring_only[u].name)))
				continue;
			if (j->engine != 3)
				return ferr(f, o->line, "%s is an option of ioengine=io_uring: fio 3.33 drops a job of another engine with it (\"Bad option\")",
					    o->name);
			if (uring_only[u].depth1 && j->iodepth > 1 &&
			    strcmp(o->val, "0"))
				return ferr(f, o->line, "%s with iodepth=%u: io_uring then completes buffered reads in another order than its submissions (recorded on 6.18.44), which ralab does not model (iodepth=1 is)",
					    o->name, j->iodepth);
		}
	}
	j->service_nr = 1;
	if ((o = get(f, sec, "file_service_type"))) {
		size_t n = strcspn(o->val, ":");

		if (n == 10 && !strncmp(o->val, "roundrobin", n))
			j->service = 0;
		else if (n == 10 && !strncmp(o->val, "sequential", n))
			j->service = 1;
		else if (n == 6 && !strncmp(o->val, "random", n))
			j->service = 2;
		else
			return ferr(f, o->line, "file_service_type=%s is not supported (roundrobin, sequential, random, with :N)",
				    o->val);
		/* TYPE:N: N I/Os on a file before the next is taken. */
		if (o->val[n]) {
			struct opt nr = *o;

			snprintf(nr.val, sizeof(nr.val), "%s", o->val + n + 1);
			if ((err = fio_uint(f, &nr, &v)))
				return err;
			if (!v || v > 1u << 30)
				return ferr(f, o->line, "file_service_type=%s: N must be from 1 to 2^30",
					    o->val);
			j->service_nr = (unsigned)v;
		}
	}
	if ((err = job_filenames(f, sec, j)))
		return err;
	/*
	 * openfiles (open_files): files open at once; 0 or more than the
	 * job has: all of them (fio's fixup_options()).
	 */
	j->openfiles = j->nrfiles;
	if ((o = get(f, sec, "openfiles"))) {
		if ((err = fio_uint(f, o, &v)))
			return err;
		if (v && v < j->nrfiles)
			j->openfiles = (unsigned)v;
	}
	/*
	 * lfsr: uniform offsets come from it, and zoned ones too: a zoned
	 * draw takes its block from the offset generator, which is the
	 * file's LFSR here, over the whole file (in strided zones, the
	 * zone's range) and not the zone of the distribution
	 * (__get_next_rand_offset() ignores the zone's size for it), and
	 * adds the zone's start, so the file ends at the first block past
	 * its end (next_io(); fio 3.33's iologs, tests/fio/rand/zoned-lfsr-*,
	 * and 6.18.44, tests/fio/real/sweep72-f06).  zipf, pareto and
	 * normal have their own generator (init_random_map()).  time_based
	 * resets it to its seed whenever it runs out (fio_file_reset():
	 * generate(), the passes after the first).
	 */
	if (j->lfsr && (!j->random || j->dist))
		j->lfsr = false;
	/*
	 * blockalign: only random offsets take it (fio's sequential ones
	 * do not; fio 3.33's iologs), and one equal to the smallest size
	 * changes nothing.  Any other turns fio's random map off ("fio:
	 * Any use of blockalign= turns off randommap": the same reads as
	 * with norandommap, tests/fio/rand/ba-map-*).  zipf, pareto,
	 * normal and the LFSR draw blocks of the smallest size that fio
	 * reads as blockalign units (next_io(); where they fall past the
	 * end, the file is done: tests/fio/rand/ba-lfsr*, ba-zipf*,
	 * ba-normal, ba-pareto-small); in strided zones, blocks of the
	 * zone's range (ba-strided*).
	 */
	if (!j->random || j->ba == j->bs)
		j->ba = 0;
	if (j->ba)
		j->norandommap = true;
	/*
	 * Random I/O in zones: each zone's blocks drawn afresh (next_io()),
	 * uniform or from zipf, pareto, normal, zoned or zoned_abs (their
	 * percents and sizes of the zone's range) or the LFSR (over the
	 * zone's range, reset at each zone), with randrw,
	 * percentage_random and randread:N too (fio 3.33's iologs,
	 * tests/fio/rand/strided-*).
	 */
	/*
	 * verify on a job that writes: after each pass fio reads back
	 * what it wrote (do_verify()), reads ralab does not make.
	 */
	o = get(f, sec, "verify");
	if (o && !verify_type(o->val))
		return ferr(f, o->line, "verify=%s is not a verify type of fio 3.33 (0, md5, crc64, crc32, crc32c, crc32c-intel, crc16, crc7, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512, xxhash, meta, pattern, null): fio drops the job",
			    o->val);
	if (o && strcmp(o->val, "0") && (j->rw || j->wonly)) {
		const struct opt *dv = get(f, sec, "do_verify");

		if (!dv || strcmp(dv->val, "0"))
			return ferr(f, o->line, "verify=%s makes fio read back what the job wrote after each loop, which ralab does not model (do_verify=0 leaves that out)",
				    o->val);
	}
	/*
	 * verify on a job that only reads: fio checks each block it reads
	 * against the header a verifying writer left there (get_io_u()
	 * sets verify_io_u() for reads of a read-only job).  Files fio
	 * lays out hold no headers: the first check fails and the job
	 * stops with an error (fio 3.33: "bad magic header" at the first
	 * read, or at the first iodepth reads).  verify=null pretends to
	 * check: the same reads.
	 */
	if (o && strcmp(o->val, "0") && strcmp(o->val, "null") && !j->rw &&
	    !j->wonly)
		return ferr(f, o->line, "verify=%s on a job that only reads: fio checks each block against a header a verifying writer left, and stops at the first that fails (on the files it lays out, the first read); ralab does not model verification",
			    o->val);
	j->verify_ro = o && !strcmp(o->val, "null") && !j->rw && !j->wonly;
	/*
	 * pre_read: fio reads the files before the job's clock starts (an
	 * 'epoch' op after them), and with it the cache is not
	 * invalidated (fixup_options()).
	 */
	if (j->pre_read) {
		j->invalidate = false;
		/*
		 * An engine that cannot seek (FIO_PIPEIO: the splice engine)
		 * reads nothing first ("cannot pre-read files with an IO
		 * engine that isn't seekable"): pre_read only keeps the cache.
		 */
		if (j->splice)
			j->pre_read = false;
	}
	/*
	 * size=N%: N percent of each file's size, which filesize= gives
	 * (fio 3.33 refuses the job without it: "you need to specify
	 * size=").
	 */
	/*
	 * filesize=LO-HI: sizes drawn per file, the job's size their sum.
	 * Modelled for reads of the files fio makes for the job, read
	 * once from their start (what decides each file's region).
	 */
	if (j->fs_line) {
		const char *why = j->size || j->size_pct_line ? "size=" :
				  j->offset || j->offset_inc ? "an offset" :
				  j->nnames || j->name_fmt[0] ? "filename= or filename_format (files of other jobs)" :
				  j->rw || j->wonly ? "writes" :
				  j->time_based ? "time_based" :
				  j->io_size || j->number_ios ? "io_size or number_ios" :
				  j->strided || j->seq_add ? "zones or holes" :
				  j->pre_read ? "pre_read" :
				  j->direct ? "direct=1" :
				  j->fs_lo < j->bs ? "a low end below the block size" : NULL;

		if (why)
			return ferr(f, j->fs_line, "filesize=%llu-%llu (a size drawn per file) with %s is not modelled",
				    (unsigned long long)j->fs_lo,
				    (unsigned long long)j->filesize, why);
	}
	if (j->size_pct_line) {
		if (!j->filesize_set)
			return ferr(f, j->size_pct_line, "size=%u%% needs filesize= (it is a share of each file's size)",
				    j->size_pct);
		/* (filesize * N / 100 without overflowing) */
		j->size = (j->filesize / 100 * j->size_pct +
			   j->filesize % 100 * j->size_pct / 100) * j->nrfiles;
		if (!j->size)
			return ferr(f, j->size_pct_line, "size=%u%% of filesize %llu is nothing",
				    j->size_pct, (unsigned long long)j->filesize);
	}
	if (!j->size && !j->filesize)
		return ferr(f, sec->line, "job [%s] has no size or filesize", sec->name);
	/* fio 3.33's fixup_options(): size= below the smallest block. */
	if (j->size && !j->size_pct_line && j->size < j->bs) {
		const struct opt *so = get(f, sec, "size");

		return ferr(f, so ? so->line : sec->line,
			    "job [%s]: size %llu is smaller than its smallest block (%llu bytes): fio refuses the job (\"size too small, must not be less than minimum block size\")",
			    sec->name, (unsigned long long)j->size,
			    (unsigned long long)j->bs);
	}
	if (!j->filesize)
		j->filesize = j->size / j->nrfiles;
	if (!j->size)
		j->size = j->filesize * j->nrfiles;
	/*
	 * offset=N% and offset_increment=N%: fio 3.33 takes N percent of
	 * the size a file has when the job sets up, which is 0 for a file
	 * it is about to lay out (strace: a fresh run reads from 0) and the
	 * old size for one an earlier run left (which it then lays out
	 * again, larger): not modelled.
	 */
	if (j->offset_pct_line || j->inc_pct_line)
		return ferr(f, j->offset_pct_line ? j->offset_pct_line : j->inc_pct_line,
			    "offset and offset_increment as percents are not modelled (fio 3.33 takes them of the size a file has before the job: 0 for files it lays out, else what an earlier run left)");
	/*
	 * The splice engine's writes vmsplice() fio's buffer into a pipe, in
	 * pieces that depend on where the buffer lies in memory (a page's
	 * worth each: 63936 bytes from one 1600 bytes into a page), then
	 * splice() them into the file: not modelled; its reads are.
	 */
	if (j->splice && j->rw) {
		const struct opt *oe = get(f, sec, "ioengine");

		return ferr(f, oe ? oe->line : sec->line,
			    "job [%s]: ioengine=splice with writes is not modelled (fio vmsplices its buffer into a pipe in pieces that depend on where the buffer lies in memory); its reads are",
			    sec->name);
	}
	/*
	 * openfiles with I/Os in flight: a done file stays open until fio
	 * reaps its I/Os, so which file opens next depends on the reaping.
	 * Modelled for buffered libaio, which completes each in io_submit()
	 * (fio's default reaping: one event at a time, oldest first).
	 */
	if (j->openfiles < j->nrfiles && j->queued && j->iodepth > 1) {
		static const char *const reaping[] = {
			"iodepth_batch", "iodepth_batch_complete_min",
			"iodepth_batch_complete_max", "iodepth_low",
		};
		const struct opt *ob = NULL;
		const char *why;
		unsigned k;

		for (k = 0; !ob && k < sizeof(reaping) / sizeof(reaping[0]); k++)
			ob = get(f, sec, reaping[k]);
		why = !j->libaio ? "an engine that completes I/Os on its own time" :
		      j->direct ? "direct=1 (I/Os complete on the device's time)" :
		      ob ? "iodepth_batch or iodepth_low (fio's reaping)" : NULL;
		if (why)
			return ferr(f, j->libaio && !j->direct ? ob->line : sec->line,
				    "job [%s]: openfiles=%u below nrfiles with iodepth=%u and %s is not modelled (a done file stays open until its I/Os are reaped)",
				    sec->name, j->openfiles, j->iodepth, why);
	}
	if (j->direct && (err = check_direct(f, j)))
		return err;
	/*
	 * A block larger than each file (size split over nrfiles): fio opens
	 * each file (its invalidate and hint), finds no block that fits,
	 * closes it and does no I/O (strace of fio 3.33; the DONTNEED drops
	 * what an earlier job cached: tests/fio/real/bs-over-files-*).  The
	 * generator makes no I/O of such a job by itself.
	 */
	/* fio_madvise_file() knows no madvise for noreuse: the job fails. */
	if (j->engine == 2 && j->fadvise_hint == HINT_NOREUSE)
		return ferr(f, sec->line, "job [%s]: ioengine=mmap with fadvise_hint=noreuse: fio has no madvise for it and fails the job",
			    sec->name);
	/* fio maps every file it opens; a job here holds MAX_MAPS mappings. */
	if (j->engine == 2 && j->nrfiles > MAX_MAPS)
		return ferr(f, sec->line, "job [%s]: ioengine=mmap with nrfiles=%u: the mmap engine maps every file it opens, and a job holds at most %d mappings here",
			    sec->name, j->nrfiles, MAX_MAPS);
	/*
	 * io_size (io_limit): the bytes to read, size being the region.
	 * More than size: fio starts over as for another loop (files
	 * closed and opened again, generators reseeded), the last pass
	 * cut short; less: one pass cut short.
	 */
	if ((o = get(f, sec, "io_size"))) {
		if ((err = fio_size(f, o, &j->io_size)))
			return err;
		if (!j->io_size)
			return ferr(f, o->line, "%s must not be 0", o->name);
		if (j->time_based)
			return ferr(f, o->line, "%s with time_based is not modelled", o->name);
		if ((j->io_size + j->size - 1) / j->size > 1000)
			return ferr(f, o->line, "%s: more than 1000 passes over size", o->name);
	}
	/*
	 * Writes only: every I/O a write (fio draws no direction; the
	 * mix generator's draws change nothing else here).  Where writes
	 * are not made (several files, mmap, offset patterns) such a job
	 * would be nothing: refused instead.
	 */
	if (j->wonly) {
		j->mix = 0;
	}
	return 0;
}

/* A .ops file name from a fio file name. */
static void ops_name(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len && i < 31; i++) {
		char c = src[i];

		dst[i] = (char)(((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				 (c >= '0' && c <= '9') || c == '_' || c == '-' ||
				 c == '.') ? c : '_');
	}
	dst[i] = '\0';
}

struct gen {
	char names[MAX_FILES][32];
	uint64_t sizes[MAX_FILES];
	unsigned nr;
	bool unw[MAX_FILES]; /* final_sizes(): each file's */
};

static int file_find(const struct gen *g, const char *name)
{
	unsigned i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->names[i], name))
			return (int)i;
	return -1;
}

static int file_index(struct gen *g, const char *name, uint64_t size,
		      bool *is_new)
{
	unsigned i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->names[i], name)) {
			*is_new = false;
			return g->sizes[i] == size ? (int)i : -2;
		}
	if (g->nr == MAX_FILES)
		return -1;
	snprintf(g->names[g->nr], sizeof(g->names[0]), "%s", name);
	g->sizes[g->nr] = size;
	*is_new = true;
	return (int)g->nr++;
}

/* A run of equally spaced I/Os, emitted as one op (gen_pattern). */
struct run {
	uint64_t off, n, len;
	int64_t stride;
};

static void run_flush(struct fio *f, const struct job *j, struct run *r)
{
	unsigned long long off = r->off, bs = r->len, n = r->n;

	if (!r->n)
		return;
	if (j->engine == 0 && (r->n == 1 || r->stride == (int64_t)r->len)) {
		/* fio's sync engine: lseek when the offset moved, then read. */
		emit(f, "seek %llu\nread %llu %llu\n", off, bs, n);
		f->nr_ops += 2;
	} else if (r->n == 1) {
		emit(f, "pread %llu %llu\n", off, bs);
		f->nr_ops++;
	} else {
		emit(f, "stride-pread %llu %llu %s%llu %llu\n", off, bs,
		     r->stride < 0 ? "-" : "",
		     (unsigned long long)(r->stride < 0 ? -(uint64_t)r->stride
						       : (uint64_t)r->stride),
		     n);
		f->nr_ops++;
	}
	r->n = 0;
}

static void run_add(struct fio *f, const struct job *j, struct run *r,
		    uint64_t off, uint64_t len)
{
	if (r->n == 1 && len == r->len) {
		r->stride = (int64_t)(off - r->off);
		r->n = 2;
		return;
	}
	if (r->n > 1 && len == r->len &&
	    off == r->off + r->n * (uint64_t)r->stride) {
		r->n++;
		return;
	}
	run_flush(f, j, r);
	r->off = off;
	r->len = len;
	r->n = 1;
}

/*
 * File @k of clone @clone of a job, as fio names it: filename=, else
 * filename_format (fio's default "$jobname.$jobnum.$filenum").
 */
static void job_file(const struct job *j, unsigned clone, unsigned k,
		     char *buf, size_t len)
{
	const char *p = j->name_fmt[0] ? j->name_fmt : "$jobname.$jobnum.$filenum";
	size_t n = 0;

	if (j->nnames) {
		snprintf(buf, len, "%s", j->names[k]);
		return;
	}
	buf[0] = '\0';
	while (*p && n + 1 < len) {
		int w;

		if (!strncmp(p, "$jobname", 8))
			w = snprintf(buf + n, len - n, "%.60s", j->name), p += 8;
		else if (!strncmp(p, "$jobnum", 7))
			w = snprintf(buf + n, len - n, "%u", clone), p += 7;
		else if (!strncmp(p, "$filenum", 8))
			w = snprintf(buf + n, len - n, "%u", k), p += 8;
		else
			w = snprintf(buf + n, len - n, "%c", *p++);
		if (w < 0)
			break;
		n += (size_t)w < len - n ? (size_t)w : len - n - 1;
	}
}

/*
 * The name fio gives file @k of clone @clone of a job (f->file_name):
 * job_file(), after the first directory if any.
 */
static const char *fio_name(const struct job *j, unsigned clone, unsigned k,
			    char *buf, size_t len)
{
	char name[160];

	job_file(j, clone, k, name, sizeof(name));
	if (j->directory[0])
		snprintf(buf, len, "%.120s/%s", j->directory, name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/*
 * The seed of generator @slot of a job (td_fill_rand_seeds):
 * allrandrepeat makes it FIO_RANDSEED * thread + slot, else it comes from
 * randseed.
 */
static uint64_t slot_seed(const struct job *j, unsigned thread, unsigned slot)
{
	if (j->allrand)
		return (uint64_t)FIO_RANDSEED * thread + slot;
	return ralab__fio_seed(j->randseed, thread, slot);
}

/*
 * The seed of a job's offset generator (randrepeat=1: fio_rand.c); a
 * 32-bit generator takes its low half.
 */
static uint64_t offset_seed(const struct job *j, unsigned thread)
{
	uint64_t seed = (uint64_t)FIO_RANDSEED * thread;

	return j->t64 ? seed : (uint32_t)seed;
}

/*
 * The length of the next read (fio's get_next_buflen): bs, or with
 * bsrange / bssplit a draw from the block-size generator, aligned down to
 * the smallest size, drawn again until the read fits in the file's I/O
 * region (@end); 0 when not even the smallest fits.
 */
static uint64_t next_len(const struct job *j, struct fio_rng *bsr,
			 uint64_t off, uint64_t end)
{
	uint64_t len = 0, tries = 0;

	if (j->max_bs == j->bs)
		return j->bs;
	if (off + j->bs > end)
		return 0;
	if (j->nsplit) {
		/*
		 * fio draws until a size fits: forever when none with a
		 * share does (it hangs); ralab ends the file there.
		 */
		unsigned i, fits = 0;

		for (i = 0; i < j->nsplit; i++)
			fits += j->split_perc[i] && off + j->split_bs[i] <= end;
		if (!fits)
			return 0;
	}
	do {
		uint64_t r = ralab__rng(bsr);
		unsigned i;

		if (!j->nsplit) {
			len = j->bs + (uint64_t)((double)j->max_bs *
						 (r / ralab__rng_span(bsr)));
		} else {
			unsigned long long perc = 0;

			/* bssplit: in increasing share (fio sorts them). */
			for (i = 0; i < j->nsplit; i++) {
				if (!j->split_perc[i])
					continue;
				len = j->split_bs[i];
				perc += j->split_perc[i];
				if (r / perc <= (bsr->use64 ? UINT64_MAX : 0xffffffffull) / 100 &&
				    off + len <= end)
					break;
			}
		}
		if (!(j->bs & (j->bs - 1)))
			len &= ~(j->bs - 1);
		else
			len -= len % j->bs;
		if (len > j->max_bs)
			len = j->max_bs;
		/*
		 * A range far larger than what is left fits once in very
		 * many draws; fio goes on, ralab ends the file after 2^16.
		 */
		if (++tries == 1u << 16 && off + len > end)
			return 0;
	} while (off + len > end);
	return len;
}

/* What fio keeps per job (struct thread_data) to make its I/Os. */
struct gjob {
	const struct job *j;
	uint64_t start, region, blocks; /* every file's I/O region */
	uint64_t file_end;              /* where the file ends (j->real_end) */
	uint64_t file_final;            /* j->file_final */
	bool stale; /* a decision depended on file_end or file_final */
	bool lone;  /* a block larger than the region, inside the file */
	uint64_t k;                     /* I/Os asked for (ddir_seq_nr) */
	/*
	 * Bytes of the current zone (td->zone_bytes): the job's, not a
	 * file's, so with several files the switch to the next zone moves
	 * the file whose I/O comes when the job's count is full.
	 */
	uint64_t zone_bytes;
	bool wrapped; /* a sequential offset wrapped (seq_offset()) */
	/*
	 * IO_U_F_BUSY_OK on the io_u the next I/O takes: set by an offset
	 * not drawn at random (get_next_block()), cleared only when an I/O
	 * completes, so an attempt that fails leaves it for the next one,
	 * which takes the same io_u: the next file's (set_io_u_file()),
	 * or the next pass's first (struct carry).  A random draw made
	 * with it is not marked in the random map (mark_random_map()).
	 * fio 3.33's iologs: rw=randread:2 over 3 files read a file's
	 * first block twice; rw=randread:4 over io_size passes.
	 */
	bool busy_ok;
	/* [0] reads', [1] writes' (fio's per-direction generators) */
	struct fio_rng offs, bsr[2];      /* 64-bit with tausworthe64 */
	struct fio_taus88 seqr[2], zgen;  /* always 32-bit */
};

/*
 * What fio keeps per file (struct fio_file): positions per direction
 * (last_pos[ddir], last_start[ddir]; [0] reads, [1] writes).
 */
struct gfile {
	uint64_t last[2], last_start[2], zone, nios[2];
	struct fio_map map;
	struct fio_dist dist;
	struct fio_rng lf; /* random_generator=lfsr: the file's */
	uint64_t lf_seed;  /* and its seed, for lfsr_reset() */
	struct run r;
	bool done;
	bool open; /* opened by its first I/O, closed when done (openfiles) */
	/*
	 * Queued I/Os holding the file (f->references), and whether it is
	 * done but waits for them to be reaped before it closes.
	 */
	unsigned refs;
	bool closing;
};

/*
 * A buffered libaio job's queued I/Os (their files), oldest first.  fio
 * reaps one when iodepth are in flight, or when it cannot open the next
 * file (-EBUSY, openfiles) while some are (wait_for_completions(): one
 * event, iodepth_batch_complete_min and _max being 1, and the queue no
 * lower than iodepth_low, which is iodepth).  io_submit() completed each,
 * so the oldest comes back first.  Only then does its file drop the
 * reference, and a file done meanwhile closes (put_file()).
 */
struct inflight {
	unsigned *fi, head, nr, depth;
	/*
	 * The io_us not in flight (td->io_u_freelist, last in first out)
	 * and their IO_U_F_BUSY_OK (struct gjob): a reaped one comes back
	 * clear, one whose get_io_u() failed (-EBUSY) keeps it.
	 */
	bool *busy_ok;
	unsigned nfree;
};

static void reap_one(struct inflight *q, struct gfile *gf, unsigned *nopen)
{
	unsigned fi = q->fi[q->head];

	q->head = (q->head + 1) % q->depth;
	q->nr--;
	q->busy_ok[q->nfree++] = false;
	if (!--gf[fi].refs && gf[fi].closing) {
		gf[fi].closing = false;
		gf[fi].open = false;
		(*nopen)--;
	}
}

static bool past_end(struct gjob *g, uint64_t x);

static void gjob_init(struct gjob *g, const struct job *j, uint64_t start,
		      uint64_t region, unsigned thread)
{
	unsigned d;

	g->j = j;
	g->start = start;
	g->region = region;
	g->blocks = region / j->bs;
	g->file_end = j->real_end;
	g->file_final = j->file_final;
	g->stale = false;
	/*
	 * A block larger than the region (its share of size over nrfiles):
	 * fio's last_block() is 0.  Uniform and zoned offsets then fail
	 * ("rand offset failed") and the job reads nothing, as the model's;
	 * zipf, pareto and normal ones take the region's start, which
	 * fill_io_u() drops where the read would end past the file
	 * ("exceeds file size"), but where the file goes on (another job
	 * made it larger) fio reads it again and again: not modelled
	 * (g->lone), and where that depends on the run (past_end()), stale.
	 */
	g->lone = j->random && j->dist && !j->strided && region &&
		  !g->blocks && !past_end(g, start + j->bs - 1);
	g->k = 0;
	g->zone_bytes = 0;
	g->wrapped = false;
	g->busy_ok = false;
	ralab__rng_seed(&g->offs, offset_seed(j, thread), j->t64);
	/*
	 * Each direction's generators are its own; fio 3.33 seeds the
	 * sequential-or-random ones of every direction from the reads'
	 * slot (td_fill_rand_seeds_internal), the sizes' from slots 0, 1.
	 */
	for (d = 0; d < 2; d++) {
		ralab__taus88_seed(&g->seqr[d],
				   (uint32_t)slot_seed(j, thread,
						       FIO_SLOT_SEQ_RAND_READ));
		ralab__rng_seed(&g->bsr[d], slot_seed(j, thread, FIO_SLOT_BS + d),
				j->t64);
	}
	ralab__taus88_seed(&g->zgen, (uint32_t)slot_seed(j, thread, FIO_SLOT_ZONE));
}

/*
 * File @fi's end as fio's checks see it (over existing files, where a
 * later job laid one out again, larger, the files of a job end apart:
 * j->rend[]); with filesize=LO-HI its I/O region too, its own size
 * (fio's f->io_size), not the job's share.  Taken before each of its
 * I/Os, or each file's stream.
 */
static void gjob_file(struct gjob *g, unsigned fi)
{
	const struct job *j = g->j;

	if (!j->fs_line) {
		g->file_end = j->rend[fi];
		return;
	}
	g->region = g->file_end = j->fs[fi];
	g->blocks = g->region / j->bs;
}

/*
 * A file's distribution between passes: fio keeps it in struct fio_file
 * and does not reseed it at a loop, so the next pass draws on (the
 * offset generators are reseeded).
 */
struct carry {
	struct fio_dist dist;
	bool have;
	/*
	 * rw jobs (the first file's): fio's I/O counts (td->io_issues,
	 * which fsync=N and rwmixread go by) and the direction
	 * (td->rwmix_ddir) run on over loops; reset_io_counters() clears
	 * only rwmix_issues and last_was_sync.
	 */
	uint64_t issues[2];
	unsigned ddir;
	/*
	 * The job's (struct gjob): fio's io_us outlive passes.  With
	 * iodepth > 1 the pass's end reaps what is in flight
	 * (io_u_quiesce()), and the next pass takes one of those, clear.
	 */
	bool busy_ok;
	uint64_t k; /* td->ddir_seq_nr: no pass resets it */
	/*
	 * The round-robin cursor (td->next_file): clear_io_state() closes
	 * the files at a new loop but leaves it, so with files of different
	 * sizes loop 2 starts at the file after the last one picked.
	 */
	unsigned next_file;
	/*
	 * random_generator=lfsr: the file's register has run.  fio makes it
	 * once (init_random_map(), lfsr_init()) and at each later pass only
	 * resets it to the seed (fio_file_reset(), lfsr_reset()), which
	 * leaves out the first pass's double first step (fio 3.33's iologs,
	 * io_size over two passes: threads 2, 4 and 6 draw the first pass's
	 * last block again first, where the state after the seed's is a
	 * block the double step skipped; threads 1, 3, 5 do not).
	 */
	bool lfsr_ran;
};

/* The job's offset state a pass leaves the next (struct carry). */
static void carry_job_load(struct gjob *g, const struct carry *c)
{
	g->busy_ok = c->busy_ok;
	g->k = c->k;
}

static void carry_job_save(struct carry *c, const struct gjob *g)
{
	c->busy_ok = g->busy_ok && !(g->j->queued && g->j->iodepth > 1);
	c->k = g->k;
}

static void carry_save(struct carry *c, const struct gfile *gf)
{
	if (c && gf->dist.nranges) {
		c->dist = gf->dist;
		c->have = true;
	}
	if (c && gf->lf.lfsr)
		c->lfsr_ran = true;
}

/*
 * zipf, pareto and normal draw per file, seeded from the file's name and
 * the thread number; zoned picks a zone (from the job's zone generator),
 * then a block of it from the offset generator.  Both without the random
 * map: fio 3.33 reads blocks twice with them.  Returns nonzero when out
 * of memory.
 */
static int gfile_init(struct gjob *g, struct gfile *gf, const char *fio_name,
		      unsigned thread, const struct carry *c)
{
	const struct job *j = g->j;

	memset(gf, 0, sizeof(*gf));
	gf->last[0] = gf->last[1] = g->start;
	gf->last_start[0] = gf->last_start[1] = gf->zone = g->start;
	if (j->random && j->dist && c && c->have)
		gf->dist = c->dist;
	else if (j->random && j->dist &&
	    ralab__fio_dist_init(&gf->dist, j->dist,
				 (g->region + j->bs - 1) / j->bs, j->dist_param,
				 j->dist_center,
				 ralab__fio_jhash(fio_name, (uint32_t)strlen(fio_name)) *
					 thread))
		gf->done = true; /* no block to draw */
	/*
	 * lfsr: the file's own register, from the same seed at every loop
	 * (fio 3.33's iologs: each loop draws the same blocks in the same
	 * order).  fio fails a job whose seed is the forbidden state: no
	 * I/O.
	 */
	if (j->lfsr) {
		/* Strided zones: over the zone's range (init_random_map()). */
		gf->lf_seed = (uint64_t)FIO_RANDSEED * thread;
		if (ralab__rng_lfsr(&gf->lf,
				    j->strided ? j->zone_range / j->bs : g->blocks,
				    gf->lf_seed))
			gf->done = true;
		if (c && c->lfsr_ran)
			ralab__rng_lfsr_reset(&gf->lf);
		return 0;
	}
	/* Strided zones: a map of the zone's range (init_random_map()). */
	if (j->random && !j->norandommap && !j->dist && !j->zoned && j->strided &&
	    j->zone_range / j->bs)
		return ralab__fio_map_init(&gf->map, j->zone_range / j->bs);
	if (j->random && !j->norandommap && !j->dist && !j->zoned && g->blocks)
		return ralab__fio_map_init(&gf->map, g->blocks);
	return 0;
}

/*
 * A random map that could not be made: too large (its job is refused:
 * fio would need blocks / 8 bytes of memory for it too), or out of memory.
 */
static void fail_map(struct fio *f, const struct job *j, uint64_t blocks,
		     int err)
{
	if (err == -E2BIG && !f->big_map) {
		f->big_map = j;
		f->big_blocks = blocks;
	}
	f->txt.oom = true;
}

/*
 * Whether position @x is at or past the end of the file (fio's
 * f->real_file_size, which it takes when the job sets up).  A file that
 * a later job lays out again, larger (final_sizes()), ends, for this
 * job, where it ended at this job's setup in a fresh run, and at its
 * final size in a run over the files an earlier run left.  Where the two
 * answers differ, fio's I/Os depend on which run it is: g->stale, and
 * the job is refused (note_gjob()).
 *
 *   file  |------- this job's setup: S -------|
 *         |------- a later job's: F ----------------------|
 *   x          answers agree      ^ x in [S, F): they differ
 */
static bool past_end(struct gjob *g, uint64_t x)
{
	bool past = x >= g->file_end;

	if (g->file_final && past != (x >= g->file_final))
		g->stale = true;
	return past;
}

/*
 * The next sequential offset of a file, as fio's get_next_seq_offset()
 * and get_next_offset() make it; false when the file is done.  fio's
 * last_pos starts at the file's offset (start) and is then the end of
 * the last I/O; rw=read:N adds N to it.  Past the file's end (fio
 * compares the offset within the region with the file's size) the
 * offset wraps: to start (the region's offset, taken as a position
 * within it) going forwards, to min(file size, region) - |N| going
 * backwards; a backward job that begins at a nonzero offset jumps
 * there first.  The offset is then taken within the region:
 *
 *   rw=read:-8k bs=4k size=64k       0 56 52 48 ... 4 0 56 ...
 *   rw=read:16k bs=16k size=128k     0 32 64 96 0 32 64 96
 *
 * so a job with holes wraps and reads its region again until its bytes
 * are done (fio 3.33, ioengine=null).
 */
static bool seq_offset_at(const struct gjob *g, const struct gfile *gf,
			  unsigned d, uint64_t end, uint64_t *offp,
			  bool *wrapped)
{
	const struct job *j = g->j;
	uint64_t last = gf->nios[d] ? gf->last[d] : g->start, pos;
	uint64_t top = g->region >= end ? end : g->region;

	if (last >= end)
		return false;
	/* Unsigned as in fio: a position before start wraps past the end. */
	if (last == g->start && g->start && j->seq_add < 0)
		last = top;
	pos = last - g->start;
	if (pos && j->seq_add) {
		pos += (uint64_t)j->seq_add;
		if (pos >= end) {
			pos = j->seq_add > 0 ? g->start : top + (uint64_t)j->seq_add;
			*wrapped = true;
		}
	}
	if (pos >= g->region || g->start + pos >= end)
		return false; /* fio: offset >= io_size, or past the file */
	*offp = g->start + pos;
	return true;
}

/* The same where the file ends, for this job, at file_end (past_end()). */
static bool seq_offset(struct gjob *g, struct gfile *gf, unsigned d,
		       uint64_t *offp)
{
	bool ok = seq_offset_at(g, gf, d, g->file_end, offp, &g->wrapped);

	if (g->file_final) {
		uint64_t off2 = 0;
		bool w2 = false;

		if (seq_offset_at(g, gf, d, g->file_final, &off2, &w2) != ok ||
		    (ok && off2 != *offp))
			g->stale = true;
	}
	return ok;
}

/*
 * The next I/O of a file, as fio's get_next_offset() and
 * get_next_buflen() make it; false when the file is done.  Only reads
 * drawn at random go into the random map (and a read is cut where the
 * map has a block already done); fio marks sequential I/Os of a random
 * job "busy ok" and leaves them out.
 */
static bool next_io(struct gjob *g, struct gfile *gf, unsigned d,
		    uint64_t *offp, uint64_t *lenp)
{
	const struct job *j = g->j;
	bool fresh = !j->seq_nr || g->k++ % j->seq_nr == 0, mark = false;
	uint64_t off, len, b = 0;

	if (gf->done)
		return false;
	if (j->strided) {
		/* fio's setup_strided_zone_mode(), before each I/O. */
		if (g->zone_bytes >= j->zone_size) {
			g->zone_bytes = 0;
			gf->zone += j->zone_range + j->zone_skip;
			if (past_end(g, gf->zone))
				gf->zone = g->start;
			gf->last[d] = gf->zone;
		}
		/* zonesize > zonerange: the zone is read again. */
		if (gf->last[d] >= gf->zone + j->zone_range)
			gf->last[d] = gf->zone;
		/*
		 * At each zonerange's worth of a zone (and at its start),
		 * fio_file_reset(): positions back to the zone's start and
		 * the random map cleared, so a random job draws each zone's
		 * blocks afresh.
		 */
		if (j->zone_range && g->zone_bytes % j->zone_range == 0) {
			gf->last[0] = gf->last[1] = gf->zone;
			if (gf->map.bits) /* not the spare word */
				memset(gf->map.bits, 0,
				       (size_t)((gf->map.n + 63) / 64) *
					       sizeof(*gf->map.bits));
			/*
			 * lfsr_reset(): from the seed, without the double
			 * first step, at each zone after the file's first.
			 */
			if (gf->lf.lfsr && gf->nios[0] + gf->nios[1]) {
				ralab__rng_lfsr(&gf->lf, j->zone_range / j->bs,
						gf->lf_seed);
				ralab__rng_lfsr_reset(&gf->lf);
			}
		}
	}
	if (j->strided && !j->random) {
		off = gf->last[d];
	} else if (!j->random) {
		if (!seq_offset(g, gf, d, &off))
			return false;
	} else if (!fresh && j->seq_identical) {
		off = gf->last_start[d];
		g->busy_ok = true;
	} else if (!fresh ||
		   (j->perc_rand < 100 &&
		    1 + (unsigned)(100.0 * (ralab__taus88(&g->seqr[d]) / 4294967296.0)) >
			    j->perc_rand)) {
		off = gf->last[d]; /* sequential: on from the last I/O */
		g->busy_ok = true;
	} else {
		off = UINT64_MAX;
		mark = true;
	}
	/*
	 * Past the end of the file, a sequential I/O of a random job draws
	 * (get_next_seq_offset fails); an identical one does not look.
	 */
	if (j->random && (off == UINT64_MAX ||
			  (off == gf->last[d] && past_end(g, gf->last[d])))) {
		uint64_t blocks = g->blocks, unit = j->bs, lastb, zoff = 0;

		/*
		 * blockalign: blocks of ba bytes, the last one a whole read
		 * of the smallest size from the region's end (last_block()).
		 */
		if (j->ba) {
			uint64_t max = g->region, less = j->bs > j->ba ? j->bs - j->ba : 0;

			blocks = max > less ? (max - less) / j->ba : 0;
			unit = j->ba;
		}
		lastb = blocks;
		if (!blocks)
			return false;
		/*
		 * Strided zones: a block of the zone's range (last_block(),
		 * in blockalign's units where it is set), from the zone's
		 * start (f->file_offset); the map counts from there too,
		 * and past the region is done.
		 */
		if (j->strided) {
			uint64_t less = j->ba && j->bs > j->ba ? j->bs - j->ba : 0;

			lastb = j->zone_range > less ?
					(j->zone_range - less) / unit : 0;
			if (!lastb)
				return false;
		}
		if (j->zoned) {
			/* A zone by access percent (fio's table). */
			unsigned v = 1 + (unsigned)(100.0 * (ralab__taus88(&g->zgen) /
							      4294967296.0));

			/* Of last_block(): the zone's range when strided. */
			uint64_t base = lastb;

			if (j->zoned_abs) {
				unsigned z = j->zone_lo[v - 1];
				uint64_t send = j->abs_hi[z] / unit;

				if (send > base)
					return false; /* sizes past the file */
				zoff = j->abs_lo[z] / unit;
				lastb = send - zoff;
			} else {
				zoff = j->zone_lo[v - 1] * base / 100;
				lastb = base * (j->zone_hi[v - 1] - j->zone_lo[v - 1]) / 100;
			}
		}
		if (j->dist) {
			b = ralab__fio_dist_next(&gf->dist);
		} else {
			b = ralab__fio_pick(j->lfsr ? &gf->lf : &g->offs, lastb);
			if (b == UINT64_MAX)
				return false; /* its LFSR has given every block */
			if (gf->map.bits && ralab__fio_map_test(&gf->map, b)) {
				b = ralab__fio_map_next_free(&gf->map, b);
				if (b == UINT64_MAX)
					return false; /* its map is full */
			}
			if (j->strided && b * j->bs >= g->region)
				return false; /* fio: offset >= io_size */
			b += zoff;
		}
		off = (j->strided ? gf->zone : g->start) + b * unit;
	}
	/*
	 * A sequential I/O of a random job goes on to the file's end
	 * (get_next_seq_offset()), but an offset at or past the region's
	 * end ends the file (get_next_offset(): offset >= io_size), which
	 * matters where the file is larger than the region.
	 */
	if (j->random && !j->strided && off - g->start >= g->region)
		return false;
	len = next_len(j, &g->bsr[d], off, g->start + g->region);
	if (!len || past_end(g, off + len - 1))
		return false; /* fio: "offset too large" */
	if (gf->map.bits && mark && !g->busy_ok && b < gf->map.n) {
		/*
		 * axmap_set_nr: up to the first block already done.  fio's
		 * __axmap_set() clamps a copy of the count at the map's end,
		 * not the count it uses: within a 64-bit unit, blocks past
		 * the end are set too, and the read is not cut there (a
		 * read crossing the end of a strided zone's map); a unit
		 * that starts at the end is begun, one past it is not.
		 * fio writes that unit past its map's memory, where
		 * axmap_reset() does not clear it: the spare word here,
		 * which next_io() leaves too.
		 */
		uint64_t n = 0, want = (len + j->bs - 1) / j->bs;

		while (n < want &&
		       !((b + n) % 64 == 0 && n && b + n > gf->map.n) &&
		       (b + n) / 64 <= gf->map.n / 64 &&
		       !ralab__fio_map_test(&gf->map, b + n))
			ralab__fio_map_set(&gf->map, b + n++);
		if (n * j->bs < len)
			len = n * j->bs;
	}
	if (j->strided)
		g->zone_bytes += len;
	gf->nios[d]++;
	gf->last_start[d] = off;
	gf->last[d] = off + len;
	*offp = off;
	*lenp = len;
	g->busy_ok = false; /* the I/O's completion clears the flag */
	return true;
}

/*
 * The mmap engine's mapping of a file's region, advised as fio advises
 * files (fio_madvise_file): the current descriptor's.  fio 3.33 maps
 * f->io_size bytes from the file's start, not from its offset
 * (fio_mmapio_prep_full(): mmap_off 0), and copies an I/O at offset O
 * from the mapping at O - f->file_offset (mm_pos()): with offset=4m it
 * reads the file from 0 (6.18.44: the same).
 */
static void map_region(struct fio *f, const struct job *j, uint64_t region)
{
	if (f->no_map)
		return;
	emit(f, "mmap 0 %llu\n", (unsigned long long)region);
	if (j->fadvise_hint != HINT_NONE)
		emit(f, "madvise 0 %llu %s\n", (unsigned long long)region,
		     madvise_name(j));
}

/*
 * Where in the file the mmap engine copies I/O @off of a file whose
 * f->file_offset is @file_offset (the job's offset; with
 * zonemode=strided, the current zone's start, which fio moves there).
 */
static uint64_t mm_pos(uint64_t off, uint64_t file_offset)
{
	return off - file_offset;
}

/*
 * Where fio's I/O buffer starts in a page, for the mmap engine's memcpy:
 * it is malloc'ed (iomem=malloc, buffered) and at least a block long, and
 * glibc gives an allocation that large (above its mmap threshold, as any
 * block that takes glibc's vector loops is) a mapping of its own, the
 * data 16 bytes into its first page, after the chunk header
 * (docs/design.md, "The C library's memcpy").
 */
#define FIO_BUF_OFF 16

/*
 * The mmap engine's copy of @len bytes at @pos of the mapping (memcpy()
 * from it into fio's buffer, or into it for a write).  Which way glibc
 * copies, and so the order of the faults, the simulator decides
 * (memcpy_back_min: the CPU fio runs on).
 */
static void mm_copy(struct fio *f, uint64_t pos, uint64_t len, bool write)
{
	emit(f, "memcpy %llu %llu 1 %u%s\n", (unsigned long long)pos,
	     (unsigned long long)len, FIO_BUF_OFF, write ? " write" : "");
	f->nr_ops++;
}

/*
 * The mmap engine's I/O of @len bytes at file offset @off of a region
 * [@start, @start + @region).  fio 3.33 maps the region's size from the
 * file's start (fio_mmapio_prep_full(): mmap_off 0, mmap_sz f->io_size)
 * and copies at off - start within it (mm_pos()).  But whether an I/O
 * fits the mapping it judges by the offset itself: past mmap_off +
 * mmap_sz, fio unmaps the mapping and maps it again, the same, for each
 * such I/O (fio_mmapio_prep()).  The pages the old mapping had mapped
 * are unmapped then, and the next loop's invalidate drops them (6.18.44:
 * rw=randread offset=2m size=4m loops=2 reads 2 MiB again in loop 2).
 * @len is the mapping's length as the caller made it.
 */
static void mm_io(struct fio *f, const struct job *j, uint64_t off,
		  uint64_t start, uint64_t region, uint64_t len, bool write,
		  uint64_t map_len)
{
	if (!f->no_map && off + len > region) {
		emit(f, "munmap 0\n"); /* this descriptor's */
		map_region(f, j, map_len);
		f->nr_ops += 2;
	}
	/*
	 * A read the file, made larger by another job, lets cross the
	 * region's end: fio copies on into the mapping's last page (a
	 * mapping covers whole pages), but past that page fio 3.33 dies of
	 * SIGSEGV (bs=16k over 501 KiB shares): refused (generate()).
	 */
	if (!f->no_map && !f->mm_over &&
	    mm_pos(off, start) + len >
		    div_up(map_len, RALAB_PAGE_SIZE) * RALAB_PAGE_SIZE)
		f->mm_over = j;
	mm_copy(f, mm_pos(off, start), len, write);
}

/*
 * The end of the mmap engine's use of a mapping.  fio 3.33 never unmaps
 * one (fio_mmapio_close_file() frees its record of it): a loop's mapping
 * stays, and the pages it mapped stay mapped, so the next loop's
 * invalidate cannot drop them (6.18.44: loop 2 of a mmap job reads
 * nothing).  A time_based job on one file keeps its one mapping
 * throughout (its repetitions touch it, f->no_map); on several, fio
 * opens the files again for each repetition, mapping anew, more than a
 * job holds here: those unmap.  So do all of a job's mappings when there
 * would be more (loops x files) than a job holds (MAX_MAPS).
 */
static uint64_t mm_maps(const struct job *j)
{
	return j->loops * div_up(j->io_size > j->size ? j->io_size : j->size,
				 j->size) * j->nrfiles;
}

static const char *mm_end(const struct job *j)
{
	/* More than a job holds here: unmapped (their pages unpinned). */
	return (j->time_based && j->nrfiles > 1) || mm_maps(j) > MAX_MAPS ?
		       "munmap\n" : "";
}

/* The end of a pass's use of a mapping: unmapped, or left (counted). */
static void mm_done(struct fio *f, const struct job *j)
{
	if (f->no_map)
		return;
	if (*mm_end(j))
		emit(f, "munmap\n");
	else
		f->kept_maps++;
}

/*
 * time_based repeats a pass after invalidating the file (fio's reset at
 * the end of the region); offsets that wrap (seq_offset()) go on without
 * that reset, which the repeat does not model: the job is refused.  So
 * is one whose I/Os depended on where a file a later job extends ends
 * (past_end()).
 */
static void note_gjob(struct fio *f, const struct gjob *g)
{
	if (g->wrapped && g->j->time_based && !f->tb_wrap)
		f->tb_wrap = g->j;
	if (g->stale && !f->stale)
		f->stale = g->j;
	if (g->lone && !g->stale && !f->lone)
		f->lone = g->j;
}

/* What a pass of a job issued: bytes and I/Os. */
struct issued {
	uint64_t bytes, ios;
};

/*
 * The I/Os of one file of a job with an offset pattern (has_pattern())
 * or of a random mmap job, I/O by I/O: at most @m of them and @budget
 * bytes.  Reads are run-length encoded into ops; the mmap engine maps
 * the region and copies each I/O out of it (a touch: a fault per page
 * not yet mapped, in order).  Random offsets fall in the job's I/O
 * region (@g: start, region), or in the current strided zone; sequential
 * ones run on to the end of the file.  @g's generators and zone count are
 * the job's, and run on from file to file.  @thread is the job's fio
 * thread number: its generators are fio's (fio_rand.c).
 */
static struct issued gen_pattern(struct fio *f, struct gjob *g, uint64_t m,
				 uint64_t budget, unsigned thread,
				 const char *fio_name, struct carry *c)
{
	const struct job *j = g->j;
	uint64_t start = g->start, region = g->region;
	struct gfile gf;
	uint64_t k, bytes = 0, off, len;
	int err;

	if ((err = gfile_init(g, &gf, fio_name, thread, c))) {
		fail_map(f, j, g->blocks, err);
		return (struct issued){ 0, 0 };
	}
	if (j->engine == 2)
		map_region(f, j, region);
	for (k = 0; k < m && bytes < budget && room(f); k++) {
		if (!next_io(g, &gf, 0, &off, &len))
			break;
		f->nr_ios++;
		if (j->engine == 2 && j->strided) {
			mm_copy(f, mm_pos(off, gf.zone), len, false);
		} else if (j->engine == 2) {
			mm_io(f, j, off, start, region, len, false, region);
		} else {
			run_add(f, j, &gf.r, off, len);
		}
		bytes += len;
	}
	if (j->engine == 2)
		mm_done(f, j);
	else
		run_flush(f, j, &gf.r);
	ralab__fio_map_free(&gf.map);
	carry_save(c, &gf);
	note_gjob(f, g);
	return (struct issued){ bytes, k };
}

/*
 * The direction of a job's next I/O (io_u.c, get_rw_ddir()): @*ddir holds
 * until it has made its share of the I/Os so far (@*want: the other
 * direction's I/Os times this one's percent, over 100, taken when it
 * began), then one is drawn from the mix generator: a read when
 * 1 + floor(100 r / 2^32) <= rwmixread.
 */
static void mix_next(const struct job *j, struct fio_taus88 *mix,
		     const uint64_t *issues, uint64_t *want, unsigned *ddir)
{
	if (issues[*ddir] >= *want) {
		unsigned v = 1 + (unsigned)(100.0 * (ralab__taus88(mix) /
						      4294967296.0));
		unsigned d = v <= j->mix ? 0 : 1;

		/* set_rwmix_bytes(): the old direction's I/Os. */
		if (d != *ddir)
			*want = issues[*ddir] * (d ? 100 - j->mix : j->mix) / 100;
		*ddir = d;
	}
}

/*
 * Writes one after the other, of one size, on the descriptor: as one
 * "seek OFF" and "write LEN COUNT" (the same writes at the same offsets,
 * and f_pos left after them as write(2) leaves it; a job's later reads
 * seek first).  A 10 GiB sequential write job of 4 KiB blocks is then two
 * ops, not 2.6 million (FIO_MAX_OPS).
 */
struct wrun {
	uint64_t off, len, n;
};

static void wrun_flush(struct fio *f, struct wrun *r)
{
	uint64_t i;

	if (r->n < 3) {
		/* Two pwrites are as short as a seek and a write. */
		for (i = 0; i < r->n; i++)
			emit(f, "pwrite %llu %llu\n",
			     (unsigned long long)(r->off + i * r->len),
			     (unsigned long long)r->len);
		f->nr_ops += (unsigned)r->n;
	} else {
		emit(f, "seek %llu\nwrite %llu %llu\n",
		     (unsigned long long)r->off, (unsigned long long)r->len,
		     (unsigned long long)r->n);
		f->nr_ops += 2;
	}
	r->n = 0;
}

static void wrun_add(struct fio *f, struct wrun *r, uint64_t off,
		     uint64_t len)
{
	if (r->n && len == r->len && off == r->off + r->n * r->len) {
		r->n++;
		return;
	}
	wrun_flush(f, r);
	*r = (struct wrun){ off, len, 1 };
}

/*
 * A uniform random write job's writes, one fio-pwrite op where its own
 * generator (ralab__op_order(), as fio-pread's) draws the offsets gen_rw()
 * draws: a 10 GiB randwrite of 4 KiB blocks is then one op, not 2.6 M
 * pwrite ops (FIO_MAX_OPS).  Only for a job whose writes are all there
 * is (no syncs between them, no mapping, no time_based generator going
 * on from pass to pass, no queue of its own), and only if the draws
 * agree (bulk_flush() checks).  Returns the array gen_rw() fills (at
 * most FIO_MAX_IOS offsets, 128 MiB), or NULL: the writes are ops one
 * by one.
 */
static uint64_t *bulk_writes(const struct job *j, uint64_t blocks,
			     uint64_t region, uint64_t n, uint64_t budget)
{
	uint64_t cap = budget / j->bs + 1;

	if (!j->wonly || !j->random || has_pattern(j) || j->engine == 2 ||
	    j->fsync_blocks || j->osync || j->time_based || j->lfsr ||
	    (j->queued && j->iodepth > 1) || !blocks ||
	    blocks != region / j->bs)
		return NULL;
	if (n < cap)
		cap = n;
	if (!j->norandommap && blocks < cap)
		cap = blocks;
	if (cap < 3 || cap > FIO_MAX_IOS)
		return NULL;
	return malloc(cap * sizeof(uint64_t));
}

/*
 * The @nd writes at @drawn (offsets): one fio-pwrite if its generator
 * makes them, else each as gen_rw() would have (wrun_add()).  Frees
 * @drawn.
 */
static void bulk_flush(struct fio *f, const struct job *j, uint64_t start,
		       uint64_t region, unsigned thread, uint64_t *drawn,
		       uint64_t nd, struct wrun *run)
{
	struct op o = {
		.kind = OP_FIO_PWRITE, .off = start, .len = j->bs,
		.count = nd, .blocks = region / j->bs,
		.seed = offset_seed(j, thread), .nomap = j->norandommap,
		.t64 = j->t64,
	};
	uint64_t *v = nd ? ralab__op_order(&o, NULL) : NULL;
	bool same = v != NULL;
	uint64_t i;

	for (i = 0; same && i < nd; i++)
		same = start + v[i] * j->bs == drawn[i];
	free(v);
	if (same) {
		wrun_flush(f, run);
		emit(f, "fio-pwrite %llu %llu %llu %llu %llu%s%s\n",
		     (unsigned long long)start, (unsigned long long)region,
		     (unsigned long long)j->bs, (unsigned long long)nd,
		     (unsigned long long)o.seed,
		     j->norandommap ? " nomap" : "", j->t64 ? " t64" : "");
		f->nr_ops++;
	} else {
		for (i = 0; i < nd; i++)
			wrun_add(f, run, drawn[i], j->bs);
	}
	free(drawn);
}

/*
 * rw=rw and rw=randrw on one file, I/O by I/O as fio 3.33 makes them
 * (io_u.c, get_rw_ddir()): a direction holds until it has made its share
 * of the I/Os so far (rwmix_issues: the other direction's I/Os times this
 * one's percent, over 100, taken when it began), then one is drawn from
 * the job's mix generator (seed slot 4, FIO_RAND_MIX_OFF): a read when
 * 1 + floor(100 r / 2^32) <= rwmixread.  Random offsets come from the
 * one offset generator and random map, whichever the direction;
 * sequential ones go on from each direction's own last position
 * (f->last_pos[ddir]).  Writes are pwrite; with fsync=N (fdatasync=N)
 * fio syncs the file before each I/O while the writes so far are a
 * multiple of N: after the N-th write, before every read until the next
 * write (fio 3.33's iologs: "w s r s r s w").  sync=1 opens the file
 * O_SYNC: each write is written back before it returns (an fsync after
 * it).  At most @n I/Os and about @budget bytes (the last may go past);
 * returns what it made.
 */
static struct issued gen_rw(struct fio *f, const struct job *j,
			    uint64_t start, uint64_t region, uint64_t n,
			    uint64_t budget, unsigned thread,
			    const char *fio_name, struct carry *c)
{
	uint64_t issues[2] = { 0, 0 }, last[2] = { start, start }, want = 0;
	uint64_t bytes = 0;
	struct fio_map map = { 0 };
	struct wrun run = { 0 };
	struct fio_taus88 mix;
	unsigned ddir = 0;
	struct gjob g;
	struct gfile gf;
	bool pattern = has_pattern(j);
	uint64_t k, *drawn = NULL, nd = 0;
	int err;

	gjob_init(&g, j, start, region, thread);
	ralab__taus88_seed(&mix, (uint32_t)slot_seed(j, thread, FIO_SLOT_MIX));
	if (c) {
		memcpy(issues, c->issues, sizeof(issues));
		ddir = c->ddir;
		carry_job_load(&g, c);
	}
	/*
	 * Offset patterns, distributions, mixed sizes: each I/O as reads
	 * alone make them (next_io()), in its direction's position and
	 * generators; the random map is the file's, both directions'.
	 */
	if (pattern && (err = gfile_init(&g, &gf, fio_name, thread, c))) {
		fail_map(f, j, g.blocks, err);
		return (struct issued){ 0, 0 };
	}
	if (!pattern && j->random && !j->norandommap && g.blocks &&
	    (err = ralab__fio_map_init(&map, g.blocks))) {
		fail_map(f, j, g.blocks, err);
		return (struct issued){ 0, 0 };
	}
	/*
	 * The mmap engine copies in and out of a shared mapping of the
	 * region: reads are read faults, writes write faults (an msync
	 * for fsync=N; O_SYNC does nothing to a copy).
	 */
	if (j->engine == 2)
		map_region(f, j, region);
	drawn = bulk_writes(j, g.blocks, region, n, budget);
	for (k = 0; k < n && bytes < budget && room(f); k++, f->nr_ios++) {
		uint64_t off, b, len = j->bs;

		if (j->fsync_blocks && issues[1] &&
		    !(issues[1] % j->fsync_blocks)) {
			wrun_flush(f, &run);
			emit(f, "fsync\n");
			f->nr_ops++;
		}
		mix_next(j, &mix, issues, &want, &ddir);
		if (pattern) {
			if (!next_io(&g, &gf, ddir, &off, &len))
				break; /* the file is done */
		} else if (j->random) {
			if (!g.blocks)
				break;
			b = ralab__fio_pick(&g.offs, g.blocks);
			if (map.bits) {
				if (ralab__fio_map_test(&map, b))
					b = ralab__fio_map_next_free(&map, b);
				if (b == UINT64_MAX)
					break; /* the map is full */
				ralab__fio_map_set(&map, b);
			}
			off = start + b * j->bs;
		} else {
			off = last[ddir];
			last[ddir] += j->bs;
		}
		if (past_end(&g, off + len - 1))
			break; /* fio: "offset too large" */
		issues[ddir]++;
		bytes += len;
		if (j->engine == 2 && pattern && j->strided) {
			mm_copy(f, mm_pos(off, gf.zone), len, ddir);
		} else if (j->engine == 2) {
			mm_io(f, j, off, start, region, len, ddir, region);
		} else if (ddir && drawn) {
			drawn[nd++] = off;
		} else if (ddir) {
			wrun_add(f, &run, off, len);
		} else {
			wrun_flush(f, &run);
			emit(f, "pread %llu %llu\n", (unsigned long long)off,
			     (unsigned long long)len);
			f->nr_ops++;
		}
		if (ddir && j->osync && j->engine != 2) {
			wrun_flush(f, &run);
			emit(f, "fsync\n");
			f->nr_ops++;
		}
	}
	if (drawn)
		bulk_flush(f, j, start, region, thread, drawn, nd, &run);
	wrun_flush(f, &run);
	ralab__fio_map_free(&map);
	if (pattern) {
		ralab__fio_map_free(&gf.map);
		carry_save(c, &gf);
	}
	note_gjob(f, &g);
	if (j->engine == 2)
		mm_done(f, j);
	if (c) {
		memcpy(c->issues, issues, sizeof(issues));
		c->ddir = ddir;
		carry_job_save(c, &g);
	}
	return (struct issued){ bytes, k };
}

/*
 * A clone's file's I/O region (fio's f->file_offset, f->io_size):
 * from the clone's offset (*@start), the rest of the file when the job
 * gives filesize (but size=N%: that share of it), else its share of
 * size, up to the file's end.
 */
static uint64_t io_region(const struct job *j, unsigned clone, uint64_t *start)
{
	uint64_t span, region = j->size / j->nrfiles;

	*start = j->offset + clone * j->offset_inc;
	span = j->file_end > *start ? j->file_end - *start : 0;
	if (region > span || (j->filesize_set && !j->size_pct_line))
		region = span;
	return region;
}

/*
 * What fio does on opening file @k: invalidate, then the fadvise hint.
 * With filesize=LO-HI the region is the file's own size (j->fs[k]; no
 * offsets then), which j->file_end holds only while the file is set up.
 */
static void open_hints(struct fio *f, const struct job *j, unsigned clone,
		       unsigned k)
{
	uint64_t start, region = io_region(j, clone, &start);

	if (j->fs_line)
		region = j->fs[k];

	/* file_invalidate_cache(): f->file_offset, f->io_size. */
	if (j->invalidate)
		emit(f, "fadvise %llu %llu dontneed\n", (unsigned long long)start,
		     (unsigned long long)region);
	if (j->fadvise_hint != HINT_NONE)
		emit(f, "fadvise %llu %llu %s\n", (unsigned long long)start,
		     (unsigned long long)region, fadvise_name(j));
}

/*
 * Make descriptor @fd current for an I/O.  fio opens a file at its first
 * I/O of a loop (get_next_file(), td_io_open_file()), which invalidates
 * its cache and advises it then; a file the loop never reads keeps its
 * pages.  ralab opens the files of a loop after the first at its start
 * and leaves those two to here (f->pend).
 */
static void emit_fd(struct fio *f, unsigned fd)
{
	emit(f, "fd %u\n", fd);
	if (fd < MAX_FDS && f->pend[fd].on) {
		f->pend[fd].on = false;
		open_hints(f, f->pend[fd].j, f->pend[fd].clone, f->pend[fd].k);
	}
}

/*
 * pre_read (fio's pre_read_file()): before the job starts, each file is
 * opened anew (the engine's open, without fio's invalidate or hint), read
 * from the clone's offset with read(2) calls of the largest block size
 * up to its I/O region (f->io_size), and closed; then the job's own
 * descriptor @fd is current again.
 */
static void pre_read(struct fio *f, const struct job *j, unsigned clone,
		     const char *name, unsigned fd, unsigned *nfd)
{
	uint64_t start, region = io_region(j, clone, &start), n;

	n = region / j->max_bs;
	emit(f, "open %s\nseek %llu\n", name, (unsigned long long)start);
	++*nfd;
	if (n)
		emit(f, "read %llu %llu\n", (unsigned long long)j->max_bs,
		     (unsigned long long)n);
	if (region % j->max_bs)
		emit(f, "read %llu 1\n",
		     (unsigned long long)(region % j->max_bs));
	emit(f, "close\nfd %u\n", fd);
	f->nr_ops += 4;
}

/*
 * Whether a pass of a job never ends by itself: random reads with no map
 * to fill (norandommap, a distribution, zones; strided zones clear the
 * map at each zone) end only where the job's bytes or I/Os do.
 */
static bool never_done(const struct job *j)
{
	return j->random && !j->rw &&
	       ((j->norandommap && !j->lfsr) || j->dist || j->zoned ||
		j->strided);
}

/*
 * Whether a random job's pass can go on past a block's worth of I/Os per
 * block: its sequential I/Os (rw=randread:N, percentage_random) are "busy
 * ok" and leave the random map alone, so the map fills only after more
 * I/Os than it has blocks, and until then the job's bytes (size times
 * loops) end the pass: randread:2 over two loops issues both loops' bytes
 * in its first pass (fio's iologs, tests/fio/rand/seqnr-loops*).
 */
static bool map_fills_late(const struct job *j)
{
	return j->random && !j->rw && (j->seq_nr > 1 || j->perc_rand < 100);
}

/*
 * Whether a pass runs to the job's bytes rather than to a count of
 * blocks: it never ends by itself, its map fills late, or strided zones
 * wrap to the file's start when the next zone would begin past its end,
 * or sequential holes wrap (seq_offset(): a file whose reads never
 * reach the end is never done).
 */
static bool runs_to_limit(const struct job *j)
{
	return never_done(j) || map_fills_late(j) || j->strided ||
	       (!j->random && j->seq_add);
}

/*
 * The I/O of one loop @l of a job clone over its open descriptors @fds,
 * within what is left of the job's bytes and I/Os (@left, which it takes
 * what it issues from; time_based jobs: unlimited).  Whether the pass
 * ended at that limit (its files still open), not by itself (its files
 * done: fio closed them).
 */
static bool gen_io(struct fio *f, const struct job *j, unsigned clone,
		   unsigned thread, const unsigned *fds, unsigned nfd,
		   uint64_t l, struct issued *left, struct carry *carry)
{
	/*
	 * Random offsets fall in the file's I/O region (fio's f->io_size,
	 * last_block(); io_region()); the job still reads only its share
	 * of size (@nfd is the job's nrfiles).
	 */
	uint64_t start, region = io_region(j, clone, &start);
	uint64_t span = j->file_end > start ? j->file_end - start : 0;
	uint64_t per_file = j->size / nfd, blocks, n, k;
	uint64_t pass = left->bytes;
	struct issued did = { 0, 0 };
	unsigned fi;
	char namebuf[300];
	bool at_limit;

	/* An asynchronous engine's pass ends at size bytes queued. */
	if (j->queued && !j->time_based && pass > j->size)
		pass = j->size;
	if (per_file > span)
		per_file = span;
	blocks = per_file / j->bs;
	/*
	 * A sequential job's last read may cross its region's end: fio
	 * checks a read of one fixed size against the file's size alone
	 * (fill_io_u(): "offset too large"), so where the file goes on (an
	 * earlier job made it larger) it reads one block more.  The mmap
	 * engine's copy would run past the end of its mapping (mm_io()):
	 * not modelled, it stops.  size=N% regions are whole blocks (fio
	 * rounds f->io_size down).
	 */
	if (!j->random && per_file % j->bs && !has_pattern(j) &&
	    !writes_modelled(j) && !j->size_pct_line) {
		uint64_t end = start + (blocks + 1) * j->bs;

		uint64_t re = j->fs_line ? j->real_end : j->rend[0];

		if (j->file_final &&
		    (end <= re) != (end <= j->file_final) && !f->stale)
			f->stale = j;
		/* Over existing files, the same in each of the job's. */
		for (fi = 1; fi < nfd && !j->fs_line && !f->uneven; fi++)
			if ((end <= j->rend[fi]) != (end <= re))
				f->uneven = j;
		if (end <= re && j->engine != 2)
			blocks++;
	}
	n = blocks * nfd;
	/*
	 * rw and randrw on one file: reads and writes, as fio mixes them,
	 * until a direction runs past the end of the file or the map is
	 * full (the pass ends), or the job's bytes are issued.
	 */
	if (writes_modelled(j) && nfd == 1) {
		if (!j->time_based)
			n = div_up(pass, j->bs);
		if (n > left->ios)
			n = left->ios;
		emit_fd(f, fds[0]);
		did = gen_rw(f, j, start, region, n,
			     j->time_based ? n * j->max_bs : pass, thread,
			     fio_name(j, clone, 0, namebuf, sizeof(namebuf)),
			     carry);
		goto out;
	}
	if ((runs_to_limit(j) || j->fs_line) && !j->time_based)
		n = div_up(pass, j->bs);
	if (n > left->ios)
		n = left->ios;
	if (!j->time_based && n > div_up(pass, j->bs))
		n = div_up(pass, j->bs);
	if (!n)
		goto out;
	/*
	 * One file, or files served in turn, each to its end: a stream
	 * each.  Not random ones: their files share the job's generators,
	 * so a file draws on from where the one before it stopped (below).
	 */
	if (!j->rw && !j->fs_line && (nfd == 1 || (j->service == 1 && !j->random))) {
		/*
		 * The job's generators and zone count (struct gjob) run on
		 * from one file to the next, as fio's per-thread ones do.
		 */
		struct gjob g;
		/* Zones and holes may wrap: a file may never end. */
		bool wraps = j->strided || (!j->random && j->seq_add);
		/* I/O by I/O (gen_pattern()), not as runs of one size. */
		bool per_io = has_pattern(j) || (j->engine == 2 && j->random);

		gjob_init(&g, j, start, region, thread);
		if (carry)
			carry_job_load(&g, carry);
		/* Each file in turn, as one stream. */
		for (fi = 0; fi < nfd; fi++) {
			/* In turn: each to its end while I/Os are left. */
			uint64_t m = n / nfd + (fi < n % nfd);

			if (j->service == 1 && nfd > 1 &&
			    (wraps || j->max_bs > j->bs)) {
				/*
				 * Zones or holes wrap at the end of the
				 * file, so a file may never end: each runs
				 * until it does (or the job's I/Os do).
				 * Mixed sizes: a file takes fewer I/Os
				 * than its blocks of the smallest size.
				 */
				m = n > did.ios ? n - did.ios : 0;
			} else if (j->service == 1 && nfd > 1) {
				uint64_t done = fi * blocks;

				m = done >= n ? 0 : n - done < blocks ? n - done : blocks;
			}

			if (!m)
				continue;
			/*
			 * Mixed sizes: the pass's bytes end the job in
			 * whatever file it is (io_size not a multiple of
			 * size: the last pass reads only the first files).
			 */
			if (j->max_bs > j->bs && did.bytes >= pass && per_io)
				break;
			emit_fd(f, fds[fi]);
			if (per_io) {
				/*
				 * Mixed sizes: the bytes of the file's
				 * share (or of the last io_size pass) end
				 * it, not a count of reads.
				 */
				bool mixed = j->max_bs > j->bs;
				uint64_t want = runs_to_limit(j) || per_file > pass ?
							pass : per_file;
				uint64_t ios = left->ios > did.ios ?
						       left->ios - did.ios : 0;
				struct issued got;

				/* Wrapping: what the files before left. */
				if (wraps || (mixed && want > pass - did.bytes))
					want = pass > did.bytes ? pass - did.bytes : 0;

				gjob_file(&g, fi); /* where its end is */
				got = gen_pattern(f, &g, !mixed ? m : ios,
						  !mixed ? m * j->bs : want,
						  thread, fio_name(j, clone, fi, namebuf, sizeof(namebuf)),
						  carry ? &carry[fi] : NULL);
				did.bytes += got.bytes;
				did.ios += got.ios;
				continue;
			}
			if (j->engine == 2) {
				unsigned long long off = 0, len = m * j->bs;
				uint64_t fit;

				/*
				 * fio's mmap engine advises the mapping
				 * (madvise_name()): MADV_SEQUENTIAL makes
				 * the faults read ahead as read(2) does.
				 * It copies from the file's start
				 * (map_region()).
				 */
				if (!f->no_map)
					emit(f, "mmap %llu %llu\n", off, len);
				if (!f->no_map && j->fadvise_hint != HINT_NONE)
					emit(f, "madvise %llu %llu %s\n", off, len,
					     madvise_name(j));
				/*
				 * The reads that fit the mapping by their
				 * offset, then those that do not, each
				 * mapping again (mm_io()).
				 */
				fit = region > start ?
					      (region - start) / j->bs : 0;
				if (fit > m || f->no_map)
					fit = m;
				if (fit)
					emit(f, "memcpy %llu %llu %llu %u\n", off,
					     (unsigned long long)j->bs,
					     (unsigned long long)fit, FIO_BUF_OFF);
				for (; fit < m && room(f); fit++, f->nr_ios++)
					mm_io(f, j, start + fit * j->bs, start,
					      region, j->bs, false, len);
				mm_done(f, j);
			} else if (j->random) {
				/*
				 * fio reseeds its generators at every loop
				 * (randrepeat): each loop reads in the same
				 * order.
				 */
				emit(f, "fio-pread %llu %llu %llu %llu %llu%s%s%s\n",
				     (unsigned long long)start,
				     (unsigned long long)region,
				     (unsigned long long)j->bs,
				     (unsigned long long)m,
				     (unsigned long long)offset_seed(j, thread),
				     j->norandommap ? " nomap" : "",
				     j->t64 ? " t64" : "",
				     /*
				      * time_based, one file: fio does not
				      * reseed; its map full, it starts the
				      * map again and draws on.
				      */
				     j->time_based && nfd == 1 && l ? " cont" : "");
			} else if (j->engine == 0) {
				emit(f, "seek %llu\nread %llu %llu\n",
				     (unsigned long long)start,
				     (unsigned long long)j->bs,
				     (unsigned long long)m);
			} else {
				emit(f, "stride-pread %llu %llu %llu %llu\n",
				     (unsigned long long)start,
				     (unsigned long long)j->bs,
				     (unsigned long long)j->bs,
				     (unsigned long long)m);
			}
			f->nr_ops += 3;
			did.bytes += m * j->bs;
			did.ios += m;
		}
		if (carry)
			carry_job_save(carry, &g);
		goto out;
	}
	/*
	 * roundrobin / random: switch files as set_io_u_file() does.  The
	 * files share the job's generators; each has its own position,
	 * random map and distribution.  A file that cannot give an I/O (its
	 * map is full: the draw is spent; or it is read to its end) is
	 * done, and the next file is taken: the next one round-robin, or
	 * drawn again from the file generator.
	 */
	{
		struct gfile *gf = calloc(nfd, sizeof(*gf));
		struct gjob g;
		struct fio_rng files;
		struct fio_taus88 mix;
		unsigned ndone = 0, next = 0, run = 0, cur = 0, ddir = 0, nopen = 0;
		/* I/Os queued and not reaped (buffered libaio, openfiles). */
		struct inflight q = { NULL, 0, 0, j->iodepth, NULL, j->iodepth };
		bool queued = j->libaio && j->iodepth > 1 &&
			      j->openfiles < nfd;
		int err;
		uint64_t bytes = 0, budget = j->max_bs > j->bs ? per_file * nfd : n * j->bs;
		uint64_t issues[2] = { 0, 0 }, want = 0;
		bool have = false, rw = writes_modelled(j), synced = false;

		/*
		 * The job's bytes end it, or its files, each done when read
		 * (or written) to its end or its map is full (a sequential
		 * I/O of a job mostly random does not fill it).
		 */
		if (!j->time_based) {
			budget = pass;
			n = div_up(pass, j->bs) < left->ios ?
				    div_up(pass, j->bs) : left->ios;
		}
		if (queued && gf && (!(q.fi = calloc(q.depth, sizeof(*q.fi))) ||
				     !(q.busy_ok = calloc(q.depth, sizeof(*q.busy_ok))))) {
			free(q.fi);
			free(gf);
			gf = NULL;
		}
		if (!gf) {
			f->txt.oom = true;
			goto out;
		}
		gjob_init(&g, j, start, region, thread);
		ralab__rng_seed(&files, slot_seed(j, thread, FIO_SLOT_FILE), j->t64);
		ralab__taus88_seed(&mix, (uint32_t)slot_seed(j, thread, FIO_SLOT_MIX));
		if (carry) { /* the job's counts run on (struct carry) */
			memcpy(issues, carry[0].issues, sizeof(issues));
			ddir = carry[0].ddir;
			next = carry[0].next_file % nfd;
			carry_job_load(&g, carry);
		}
		for (fi = 0; fi < nfd && !f->txt.oom; fi++) {
			gjob_file(&g, fi); /* its map: its own size */
			if ((err = gfile_init(&g, &gf[fi],
					      fio_name(j, clone, fi, namebuf, sizeof(namebuf)),
					      thread, carry ? &carry[fi] : NULL)))
				fail_map(f, j, g.blocks, err);
		}
		/* The mmap engine maps (and advises) every file first. */
		for (fi = 0; j->engine == 2 && fi < nfd; fi++) {
			emit_fd(f, fds[fi]);
			map_region(f, j, j->fs_line ? j->fs[fi] : region);
		}
		for (k = 0; k < n && bytes < budget && !f->txt.oom && room(f);
		     f->nr_ios++) {
			uint64_t off = 0, len = 0;
			bool sync = false;

			if (queued) /* get_io_u(): the freelist's top */
				g.busy_ok = q.busy_ok[--q.nfree];
			while (ndone < nfd) {
				/* __get_next_file: the same file for N I/Os. */
				if (have && run && !gf[cur].done) {
					fi = cur;
					run--;
				} else {
					if (j->service == 2) {
						fi = (unsigned)ralab__fio_pick(&files, nfd);
					} else {
						fi = next;
						next = (next + 1) % nfd;
					}
					if (gf[fi].done)
						continue;
					/*
					 * openfiles: a file not open yet while
					 * that many are is passed over (fio's
					 * -EBUSY; the cursor or the draw moved
					 * on): the next is tried.
					 */
					if (!gf[fi].open && nopen >= j->openfiles) {
						if (queued) { /* put_io_u() */
							q.busy_ok[q.nfree++] = g.busy_ok;
							if (q.nr)
								reap_one(&q, gf, &nopen);
							g.busy_ok = q.busy_ok[--q.nfree];
						}
						continue;
					}
					if (!gf[fi].open)
						nopen++;
					gf[fi].open = true;
					cur = fi;
					have = true;
					/* sequential: a file until it is done. */
					run = j->service == 1 ? UINT_MAX :
						j->service_nr - 1;
				}
				/*
				 * rw: fsync=N syncs the file this I/O took
				 * while the writes so far are a multiple of
				 * N, but right after a sync (as gen_rw(); a
				 * sync is no read or write).
				 */
				if (rw && j->fsync_blocks && issues[1] && !synced &&
				    !(issues[1] % j->fsync_blocks)) {
					sync = true;
					break;
				}
				if (rw)
					mix_next(j, &mix, issues, &want, &ddir);
				gjob_file(&g, fi);
				if (next_io(&g, &gf[fi], ddir, &off, &len))
					break;
				gf[fi].done = true; /* fio: this file is done */
				if (gf[fi].refs) {
					gf[fi].closing = true; /* when reaped */
				} else {
					gf[fi].open = false; /* and closed */
					nopen--;
				}
				ndone++;
			}
			if (ndone == nfd)
				break;
			synced = sync;
			if (sync) {
				emit_fd(f, fds[fi]);
				emit(f, "fsync\n");
				f->nr_ops += 2;
				if (queued) /* done at once: back clear */
					q.busy_ok[q.nfree++] = false;
				continue;
			}
			if (j->engine == 2) {
				uint64_t map = j->fs_line ? j->fs[fi] : region;

				emit_fd(f, fds[fi]);
				if (j->strided)
					mm_copy(f, mm_pos(off, gf[fi].zone),
						len, ddir);
				else
					mm_io(f, j, off, start, g.region, len,
					      ddir, map);
				f->nr_ops++; /* the fd (mm_copy() counts its own) */
			} else {
				emit_fd(f, fds[fi]);
				emit(f, "%s %llu %llu\n",
				     ddir ? "pwrite" : "pread",
				     (unsigned long long)off,
				     (unsigned long long)len);
				f->nr_ops += 2;
			}
			if (rw && ddir && j->osync && j->engine != 2) {
				emit(f, "fsync\n");
				f->nr_ops++;
			}
			issues[ddir]++;
			bytes += len;
			k++;
			if (queued) {
				gf[fi].refs++;
				q.fi[(q.head + q.nr++) % q.depth] = fi;
				if (q.nr == q.depth)
					reap_one(&q, gf, &nopen);
			}
		}
		for (fi = 0; fi < nfd; fi++) {
			if (j->engine == 2) {
				emit(f, "fd %u\n", fds[fi]);
				mm_done(f, j);
			}
			ralab__fio_map_free(&gf[fi].map);
			carry_save(carry ? &carry[fi] : NULL, &gf[fi]);
		}
		if (carry) {
			memcpy(carry[0].issues, issues, sizeof(issues));
			carry[0].ddir = ddir;
			carry[0].next_file = next;
			carry_job_save(carry, &g);
		}
		note_gjob(f, &g);
		free(q.fi);
		free(q.busy_ok);
		free(gf);
		did.bytes = bytes;
		did.ios = k;
	}
out:
	at_limit = did.bytes >= pass || did.ios >= left->ios;
	left->bytes -= did.bytes < left->bytes ? did.bytes : left->bytes;
	left->ios -= did.ios < left->ios ? did.ios : left->ios;
	return at_limit;
}

/*
 * What a job issues in all: fio's do_io() stops once the bytes issued
 * since the job began reach io_size (else size) times loops, or its I/Os
 * number_ios times loops (io_bytes_exceeded(), exceeds_number_ios()), or
 * when its files are done: read to their end, or their random map full;
 * on an asynchronous engine, at size bytes queued (gen_io()).  So on a
 * synchronous one a pass that never ends by itself (norandommap, zipf)
 * issues all loops' bytes at once, and the loops after it issue nothing
 * (fio opens no file for them).  time_based: unlimited.
 */
static struct issued job_limit(const struct job *j)
{
	if (j->time_based)
		return (struct issued){ UINT64_MAX, UINT64_MAX };
	return (struct issued){
		(j->io_size ? j->io_size : j->size) * j->loops,
		j->number_ios ? j->number_ios * j->loops : UINT64_MAX
	};
}

/*
 * Whether pass @l of a job runs, @left of its limit not issued: while
 * something is left, each of its loops; after them, fio goes on while
 * the bytes are short of io_size by a block or more (keep_running()).
 */
static bool pass_due(const struct job *j, uint64_t l, const struct issued *left)
{
	uint64_t issued = job_limit(j).bytes - left->bytes;
	uint64_t max_bs = j->max_bs > j->bs ? j->max_bs : j->bs;

	if (!left->bytes || !left->ios)
		return false;
	if (l < j->loops)
		return true;
	return j->io_size && issued < j->io_size &&
	       j->io_size - issued >= max_bs;
}

/* The section of a job (jobs are read from sections in order). */
static unsigned s_of(const struct fio *f, const struct job *j)
{
	unsigned s;

	for (s = 0; s < f->nr_sec; s++)
		if (!strcmp(f->sec[s].name, j->name))
			return s;
	return 0;
}

/*
 * The ops of the jobs up to @j reached FIO_MAX_OPS: each write, and each
 * read that no counted op (read LEN COUNT, fio-pread) stands for, is an
 * op of its own.
 */
static int too_many_ops(struct fio *f, const struct job *j)
{
	if (f->nr_ios >= FIO_MAX_IOS)
		return ferr(f, f->sec[s_of(f, j)].line,
			    "job [%s]: the jobs up to here make more than %llu I/Os of a pattern, a mix or the mmap engine (each computed on its own): make size, io_size or number_ios smaller",
			    j->name, FIO_MAX_IOS);
	return ferr(f, f->sec[s_of(f, j)].line,
		    "job [%s]: the jobs up to here expand to more than %u ops (each write, and each read of a pattern that is not plain sequential or uniform random, is one): make size, io_size or number_ios smaller",
		    j->name, FIO_MAX_OPS);
}

/*
 * The end of a pass of a job that writes, with end_fsync or
 * fsync_on_close (fio's do_io(): fio_file_fsync() of each file).  A pass
 * that ended at the job's limit (@at_limit) left its files open: each is
 * synced.  One that ended by itself had its files done, and fio closed
 * them (with fsync_on_close, a sync first); it opens each again to sync
 * it (td_io_open_file(): the cache invalidated, the hint given) and
 * closes it (*@closed: the next pass only opens it; with
 * fsync_on_close, put_file() syncs it first).  Several files at
 * the limit are taken as all open (with file_service_type=sequential,
 * fio has closed those before the last one).
 */
static int end_sync(struct fio *f, const struct job *j, unsigned clone,
		    unsigned *fds, char (*onames)[32], bool *closed,
		    bool at_limit, unsigned *nfd)
{
	const char *close_sync = j->fsync_close ? "fsync\n" : "";
	unsigned k;

	for (k = 0; k < j->nrfiles; k++) {
		if (at_limit) {
			emit(f, "fd %u\nfsync\n", fds[k]);
			continue;
		}
		if (*nfd + 1 >= MAX_FDS)
			return ferr(f, f->sec[s_of(f, j)].line,
				    "job [%s]: loops x nrfiles open more than %d descriptors",
				    j->name, MAX_FDS);
		emit(f, "fd %u\n%sclose\nopen %s%s\n", fds[k], close_sync,
		     onames[k], odirect(j));
		fds[k] = ++*nfd;
		open_hints(f, j, clone, k);
		/*
		 * The mmap engine's sync is an msync() of the file's mapping,
		 * which the file opened again has not made yet: none.
		 */
		emit(f, "%s%sclose\n", j->engine == 2 ? "" : "fsync\n",
		     close_sync);
		closed[k] = true;
	}
	return 0;
}

/*
 * How fio lays out a new file for job @j (filesetup.c, extend_file()):
 * for a job that only writes, fallocate(2) and no data (*@unw), unless
 * overwrite or verify has it written, or the mmap engine (fio 3.33 on
 * 6.18.44: written); for any other job, written.
 * Layouts without preallocation (fallocate=none, truncate) are refused:
 * a sparse file is not one ralab makes.
 */
static int layout_unwritten(struct fio *f, const struct job *j, bool *unw)
{
	const struct section *sec = &f->sec[s_of(f, j)];
	const struct opt *o;

	*unw = false;
	/* The mmap engine cannot extend a file (FIO_NOEXTEND): written. */
	if (!j->wonly || j->engine == 2)
		return 0;
	if (((o = get(f, sec, "overwrite")) && strcmp(o->val, "0")) ||
	    ((o = get(f, sec, "verify")) && strcmp(o->val, "0")))
		return 0;
	o = get(f, sec, "fallocate");
	if (o && strcmp(o->val, "native") && strcmp(o->val, "posix") &&
	    strcmp(o->val, "keep") && strcmp(o->val, "1"))
		return ferr(f, o->line, "fallocate=%s: a file a write-only job lays out without preallocation is sparse, which ralab does not make",
			    o->val);
	*unw = true;
	return 0;
}

/*
 * filesize=LO-HI: each file of a clone gets a size drawn from the range,
 * in file order, as fio's get_rand_file_size(): its file-size generator
 * (seed slot 7, FIO_RAND_FILE_SIZE_OFF; 64-bit with tausworthe64) scaled
 * to HI - LO, plus LO, down to a multiple of the smallest block size.
 * The clone's size is their sum (setup_files(): size= left out).
 */
static void file_sizes(struct job *j, unsigned thread)
{
	struct fio_rng r;
	unsigned k;

	ralab__rng_seed(&r, slot_seed(j, thread, FIO_SLOT_FILE_SIZE), j->t64);
	j->size = 0;
	for (k = 0; k < j->nrfiles; k++) {
		double span = j->t64 ? 18446744073709551616.0 : 4294967296.0;
		uint64_t v = (uint64_t)((double)(j->filesize - j->fs_lo) *
					((double)ralab__rng(&r) / span));

		v += j->fs_lo;
		j->fs[k] = v - v % j->bs;
		j->size += j->fs[k];
	}
}

/*
 * Jobs that would wait for each other through wait_for (and stonewall:
 * a stonewall job waits for the jobs before it, the jobs after it start
 * with it) are refused here, with the line of a wait_for: ralab's jobs
 * would never start (fio's own would not either through wait_for alone;
 * through a stonewall, it starts one whose waitee has not started).
 */
static int check_wait_for(struct fio *f, const struct job *jobs, unsigned nj)
{
	uint64_t need[MAX_SECTIONS];
	bool wait[MAX_SECTIONS];
	unsigned i, k;
	int c;

	for (i = 0; i < nj; i++) {
		wait[i] = jobs[i].stonewall && i;
		need[i] = 0;
		for (k = 0; k < nj; k++)
			if (jobs[i].wait_for[0] && !strcmp(jobs[k].fio_name, jobs[i].wait_for) &&
			    strcmp(jobs[i].fio_name, jobs[i].wait_for))
				need[i] |= 1ull << k;
	}
	if ((c = ralab__wait_cycle(need, wait, nj)) < 0)
		return 0;
	/* A cycle has a wait_for in it (stonewalls only look back): its line. */
	for (i = 0; i < nj; i++)
		if ((need[i] >> i & 1) && jobs[i].wait_for_line)
			break;
	if (i == nj)
		i = (unsigned)c;
	return ferr(f, jobs[i].wait_for_line ? jobs[i].wait_for_line :
					       f->sec[s_of(f, &jobs[i])].line,
		    "wait_for=%s: job [%s] would wait for itself (through wait_for and stonewall): not modelled",
		    jobs[i].wait_for, jobs[i].name);
}

/*
 * wait_for=NAME: the job starts when every job fio names so (name=, else
 * its section), each clone of each, has ended (fio's waitee_running());
 * its own name, or one no job has, holds nothing.
 */
static int emit_wait_for(struct fio *f, const struct job *jobs, unsigned nj,
			 const struct job *j)
{
	unsigned k, c, n = 0;

	if (!j->wait_for[0])
		return 0;
	if (!strcmp(j->wait_for, j->fio_name)) {
		emit(f, "# wait_for=%s names the job itself: no wait (fio)\n", j->wait_for);
		return 0;
	}
	for (k = 0; k < nj; k++) {
		char jname[32];

		if (strcmp(jobs[k].fio_name, j->wait_for))
			continue;
		ops_name(jname, sizeof(jname), jobs[k].name);
		for (c = 0; c < jobs[k].numjobs; c++, n++)
			emit(f, "%s %.20s.%u", n % 7 ? "" : n ? "\nwait-for" : "wait-for",
			     jname, c);
	}
	if (n)
		emit(f, "\n");
	else
		emit(f, "# wait_for=%s: no job has that name: no wait (fio)\n", j->wait_for);
	return 0;
}

/*
 * The size each file has when the jobs start, and whether it is laid out
 * unwritten (@fin, by name).  fio sets every job up before any of them
 * runs (create_serialize): a job that needs a file larger than an earlier
 * job made it lays it out again (extend_file(): unlinked, made anew at
 * the larger size, written unless the job only writes), so every job
 * reads the file at its last size.  A job still takes the size the file
 * had at its own setup (j->file_end, fio's f->real_file_size; the main
 * pass in generate(), which also refuses what this leaves alone).
 *
 *   [a] size=4m    a.0.0 laid out, 4 MiB   a reads [0, 4m) of 6 MiB
 *   [b] offset=2m  a.0.0 laid out, 6 MiB   b reads [2m, 6m)
 */
static int final_sizes(struct fio *f, struct job *jobs, unsigned nj,
		       struct gen *fin)
{
	unsigned i, c, k, thread = 0;
	int err;

	for (i = 0; i < nj; i++) {
		struct job *j = &jobs[i];

		for (c = 0; c < j->numjobs; c++) {
			if (j->fs_line)
				file_sizes(j, ++thread);
			else
				++thread;
			for (k = 0; k < j->nrfiles; k++) {
				char fname[128], oname[32];
				uint64_t end = j->offset + c * j->offset_inc +
					       j->filesize;
				int ino;

				job_file(j, c, k, fname, sizeof(fname));
				ops_name(oname, sizeof(oname), fname);
				if (j->filesize_set && j->fs_line)
					end = j->fs[k];
				else if (j->filesize_set)
					end = j->filesize;
				ino = file_find(fin, oname);
				if (ino < 0 && fin->nr < MAX_FILES) {
					ino = (int)fin->nr++;
					snprintf(fin->names[ino],
						 sizeof(fin->names[0]), "%s",
						 oname);
				} else if (ino < 0 || j->filesize_set ||
					   fin->sizes[ino] >= end) {
					continue;
				}
				fin->sizes[ino] = end;
				err = layout_unwritten(f, j, &fin->unw[ino]);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

static int generate(struct fio *f)
{
	struct job jobs[MAX_SECTIONS];
	struct gen g = { .nr = 0 }, fin = { .nr = 0 };
	unsigned nj = 0, s, c, i, nfd = 0, threads = 0;
	bool any_exitall = false, group_exit = false;
	char *body_out;
	size_t body_len;
	int err;

	for (s = 0; s < f->nr_sec; s++) {
		if (!strcmp(f->sec[s].name, "global"))
			continue;
		if ((err = read_job(f, &f->sec[s], &jobs[nj])))
			return err;
		nj++;
	}
	if (!nj)
		return ferr(f, 1, "no job section (only [global])");
	if ((err = check_wait_for(f, jobs, nj)) ||
	    (err = final_sizes(f, jobs, nj, &fin)))
		return err;
	for (i = 0; i < nj; i++)
		any_exitall |= jobs[i].exitall;
	/*
	 * new_group only splits fio's reports, but its group is also what
	 * exitall stops (fio_terminate_threads(td->groupid)); ralab's groups
	 * are a stonewall's.
	 */
	for (i = 0; i < nj; i++)
		group_exit |= jobs[i].exit_what == EXIT_GROUP;
	for (i = 1; any_exitall && group_exit && i < nj; i++)
		if (jobs[i].new_group_line && !jobs[i].stonewall)
			return ferr(f, jobs[i].new_group_line,
				    "new_group with exitall: exitall stops the jobs of the ending job's group, which new_group starts without a stonewall; not modelled");

	/* The body first, to learn the files; the header goes in front. */
	for (i = 0; i < nj; i++) {
		const struct job *j = &jobs[i];

		for (c = 0; c < j->numjobs; c++) {
			unsigned fds[MAX_FILES], k, k2, thread = ++threads;
			uint64_t end0 = 0;
			char onames[MAX_FILES][32];
			uint64_t l;
			struct issued left;
			/* time_based passes are one op stream, repeated. */
			struct carry carry[MAX_FILES] = { 0 }, *pc;
			/* Files end_sync() closed (fio: done in the pass). */
			bool closed[MAX_FILES] = { false }, at_limit;

			/*
			 * Each clone is a job of the case: clones run
			 * concurrently.  A job after the first opens a
			 * descriptor of its own first (unused here).
			 */
			{
				char jname[32];

				ops_name(jname, sizeof(jname), j->name);
				emit(f, "job %.20s.%u\n", jname, c);
			}
			if (i || c)
				nfd++;
			/*
			 * Buffered libaio reads run inside io_submit(), one at a
			 * time.  glibc's POSIX AIO queues a request behind the
			 * one its helper thread is running for the same
			 * descriptor (aio_misc.c, __aio_enqueue_request), so on
			 * one descriptor posixaio preads run one at a time, in
			 * order, too.  io_uring issues the reads in order from
			 * the submitting task, each without blocking up to
			 * where it must wait (its readahead included), and
			 * waits for iodepth of them at once ('ring'; fio
			 * itself on 6.18: the same events as preads in order,
			 * but for prev_pos).  Direct libaio reads do not block
			 * in io_submit() either: iodepth of them in flight,
			 * as io_uring's.
			 */
			if ((j->engine == 3 || (j->direct && j->libaio)) &&
			    j->iodepth > 1)
				emit(f, "iodepth %u ring\n", j->iodepth);
			if (j->think_us && j->think_blocks > 1)
				emit(f, "think %llu %llu\n", (unsigned long long)j->think_us,
				     (unsigned long long)j->think_blocks);
			else if (j->think_us)
				emit(f, "think %llu\n", (unsigned long long)j->think_us);
			if (j->delay_us)
				emit(f, "delay %llu\n", (unsigned long long)j->delay_us);
			/*
			 * exitall is fio's global exitall_on_terminate (its
			 * str_exitall_cb()): one job having it, every job's
			 * end stops the rest of its group (fio 3.33: the job
			 * beside it was cut short when the other ended).
			 */
			if (any_exitall && j->exit_what != EXIT_GROUP)
				emit(f, "exitall %s\n", ralab__exit_whats[j->exit_what]);
			else if (any_exitall)
				emit(f, "exitall\n");
			if (j->rate_iops)
				emit(f, "rate-iops %llu\n", (unsigned long long)j->rate_iops);
			if (j->rate_bps)
				emit(f, "rate %llu\n", (unsigned long long)j->rate_bps);
			if (j->runtime_us)
				emit(f, "runtime %llu\n", (unsigned long long)j->runtime_us);
			/* stonewall: the job (its first clone) waits for the earlier. */
			if (j->stonewall && !c && i)
				emit(f, "wait\n");
			if ((err = emit_wait_for(f, jobs, nj, j)))
				return err;
			if (j->fs_line)
				file_sizes(&jobs[i], thread);
			jobs[i].file_final = 0;
			for (k = 0; k < j->nrfiles; k++) {
				char fname[128], oname[32];
				bool fresh, unw;
				int ino;

				job_file(j, c, k, fname, sizeof(fname));
				ops_name(oname, sizeof(oname), fname);
				/*
				 * One file twice in a job: fio opens each of
				 * its files at its first I/O, so the second
				 * open's invalidate drops what the first
				 * descriptor read (strace of fio 3.33); ralab
				 * opens them all first, which is the same
				 * without invalidate.
				 */
				for (k2 = 0; j->invalidate && k2 < k; k2++) {
					char other[128];

					job_file(j, c, k2, other, sizeof(other));
					if (!strcmp(other, fname))
						return ferr(f, f->sec[s_of(f, j)].line,
							    "job [%s] names file %s twice (filename= or filename_format): not modelled with invalidate=1 (fio opens each at its first I/O, invalidating the other's pages)",
							    j->name, fname);
				}
				/*
				 * fio lays a file out to the clone's offset
				 * plus its share of size, or to filesize.  A
				 * shared file keeps its size unless the job
				 * sets one.
				 */
				jobs[i].file_end = j->filesize_set ? j->filesize :
					j->offset + c * j->offset_inc + j->filesize;
				for (k2 = 0; !j->filesize_set && k2 < g.nr; k2++) {
					if (strcmp(g.names[k2], oname))
						continue;
					/* laid out again (final_sizes) */
					if (g.sizes[k2] < j->file_end)
						g.sizes[k2] = j->file_end;
					jobs[i].file_end = g.sizes[k2];
				}
				if (j->fs_line) /* its own size (file_sizes()) */
					jobs[i].file_end = j->fs[k];
				/*
				 * Where a later job makes the file larger, the
				 * caller may say how it stands when fio
				 * starts: fresh, its end is where the job laid
				 * it out (file_end); existing, the size the
				 * last job gave it (final_sizes()), for fio's
				 * checks only (real_end).  Unsaid, the job is
				 * refused where that matters (past_end(),
				 * file_final).  Not filesize=LO-HI, whose
				 * files have sizes of their own.
				 */
				k2 = (unsigned)file_find(&fin, oname); /* fin's */
				jobs[i].rend[k] = j->file_end;
				if (f->files == RALAB_FIO_FILES_EXISTING &&
				    !j->fs_line && fin.sizes[k2] > j->file_end)
					jobs[i].rend[k] = fin.sizes[k2];
				/* filesize=LO-HI: the last file's, as file_end. */
				if (!k || j->rend[k] > j->real_end || j->fs_line)
					jobs[i].real_end = j->rend[k];
				/* The job's files are one size here (file_end). */
				if (k && j->file_end != end0 && !j->fs_line) {
					char first[128];

					job_file(j, c, 0, first, sizeof(first));
					return ferr(f, f->sec[s_of(f, j)].line,
						    "job [%s]: its files would be of different sizes (%s: %llu bytes, %s: %llu; another job made one; filename= in [global] adds to a job's own); ralab needs one size for a job's files",
						    j->name, first,
						    (unsigned long long)end0, fname,
						    (unsigned long long)j->file_end);
				}
				end0 = j->file_end;
				ino = file_index(&g, oname, j->file_end, &fresh);
				if (ino == -2)
					return ferr(f, f->sec[s_of(f, j)].line,
						    "job [%s] gives file %s a size of %llu bytes; an earlier job gave it another (ralab needs one size per file)",
						    j->name, fname, (unsigned long long)j->file_end);
				if (ino < 0)
					return ferr(f, f->sec[s_of(f, j)].line,
						    "job [%s]: too many files in all (at most %d: nrfiles times numjobs, over the jobs)",
						    j->name, MAX_FILES);
				/* The file as jobs find it (final_sizes; k2 above). */
				unw = fin.unw[k2];
				if (fin.sizes[k2] > j->real_end &&
				    fin.sizes[k2] > jobs[i].file_final &&
				    f->files != RALAB_FIO_FILES_FRESH)
					jobs[i].file_final = fin.sizes[k2];
				if (fresh && ino == 0 && !i && !c)
					emit(f, "close\nopen%s\n", /* main, fresh */
					     odirect(j));
				else if (fresh && ino == 0)
					emit(f, "open main%s\n", odirect(j));
				else if (fresh)
					emit(f, "file %s %llu%s%s\n", oname,
					     (unsigned long long)fin.sizes[k2],
					     unw ? " unwritten" : "", odirect(j));
				else
					emit(f, "open %s%s\n", ino ? oname : "main",
					     odirect(j));
				fds[k] = ++nfd;
				snprintf(onames[k], sizeof(onames[k]), "%s",
					 ino ? oname : "main");
				if (j->pre_read)
					pre_read(f, j, c, onames[k], fds[k], &nfd);
				open_hints(f, j, c, k);
			}
			/*
			 * fio starts the job's clock after the pre-reads
			 * (thread_main(): pre_read_files(), then the epoch):
			 * its think time, rate and runtime count from here.
			 */
			if (j->pre_read && (j->think_us || j->rate_bps ||
					    j->rate_iops || j->runtime_us))
				emit(f, "epoch\n");
			/*
			 * time_based with one file: fio never closes it; at
			 * its end (get_next_seq_offset, get_next_rand_block)
			 * it starts again from the job's offset on the same
			 * descriptor, so the same readahead state, after
			 * invalidating the cache (invalidate=1), and loops do
			 * not matter (keep_running).
			 */
			if (j->time_based && j->nrfiles == 1) {
				struct issued all = { UINT64_MAX, UINT64_MAX };
				struct carry lfsr_pass = { .lfsr_ran = true };

				gen_io(f, j, c, thread, fds, 1, 0, &all, NULL);
				emit(f, "repeat\n");
				if (j->invalidate) { /* on the file's descriptor */
					uint64_t at, len = io_region(j, c, &at);

					emit(f, "fadvise %llu %llu dontneed\n",
					     (unsigned long long)at,
					     (unsigned long long)len);
				}
				all = (struct issued){ UINT64_MAX, UINT64_MAX };
				/*
				 * The mmap engine's one mapping stays (6.18.44:
				 * the repetitions read nothing, the invalidate
				 * keeping the mapped pages).  It stays past the
				 * job too: after a repeat no op can follow.
				 */
				f->no_map = j->engine == 2;
				/*
				 * lfsr: a pass that ends (its register has
				 * given every block) starts again from the
				 * seed (fio_file_reset(), lfsr_reset()), as a
				 * loop does (struct carry), so the second and
				 * later passes are alike: the repeated ops.
				 */
				gen_io(f, j, c, thread, fds, 1, 1, &all,
				       j->lfsr ? &lfsr_pass : NULL);
				f->no_map = false;
				f->kept_maps = 0;
				if (!room(f))
					return too_many_ops(f, j);
				continue;
			}
			/*
			 * Passes x files mappings that all stay (each pinning
			 * its pages against the next pass's invalidate) are
			 * more than a job holds here: unmapping some would
			 * read them again where the kernel does not (fio
			 * sweep, seed 53, f11: 64 files, loops=2).
			 */
			if (j->engine == 2 && !j->time_based &&
			    mm_maps(j) > MAX_MAPS)
				return ferr(f, f->sec[s_of(f, j)].line,
					    "job [%s]: ioengine=mmap keeps a mapping of every file of every pass (loops x io_size/size x nrfiles = %llu), and a job holds at most %d here",
					    j->name, (unsigned long long)mm_maps(j), MAX_MAPS);
			left = job_limit(j);
			for (l = 0; j->time_based ? l < j->loops + 1 : l < j->loops + 1000; l++) {
				struct issued before = left;

				if (!j->time_based && !pass_due(j, l, &left))
					break;
				/*
				 * time_based (several files): after the
				 * loops, one more pass that repeats until the
				 * runtime has passed; fio closes and opens
				 * the files again when all are done.
				 */
				if (j->time_based && l == j->loops)
					emit(f, "repeat\n");
				/*
				 * fio closes a job's files after each loop
				 * (clear_io_state) and opens them again for
				 * the next (td_io_open_file), invalidating and
				 * advising each time: every loop starts with a
				 * fresh struct file, so fresh readahead state,
				 * on a cold cache.
				 */
				for (k = 0; l && k < j->nrfiles; k++) {
					if (nfd + 1 >= MAX_FDS)
						return ferr(f, f->sec[s_of(f, j)].line,
							    "job [%s]: loops x nrfiles open more than %d descriptors",
							    j->name, MAX_FDS);
					if (closed[k])
						emit(f, "open %s%s\n", onames[k],
						     odirect(j));
					else
						emit(f, "fd %u\n%sclose\nopen %s%s\n", fds[k],
						     writes_modelled(j) && j->fsync_close ?
							     "fsync\n" : "",
						     onames[k], odirect(j));
					closed[k] = false;
					fds[k] = ++nfd;
					f->pend[nfd] =
						(struct pend){ j, c, k, true };
				}
				/*
				 * time_based passes start afresh but for the
				 * LFSR, which a pass after the first resets
				 * to its seed (fio_file_reset(), lfsr_reset()).
				 */
				pc = j->time_based ? NULL : carry;
				if (j->time_based && j->lfsr && l) {
					memset(carry, 0, sizeof(carry));
					for (k = 0; k < j->nrfiles; k++)
						carry[k].lfsr_ran = true;
					pc = carry;
				}
				at_limit = gen_io(f, j, c, thread, fds, j->nrfiles, l,
						  &left, pc);
				if (!room(f) ||
				    (!j->time_based && left.bytes == before.bytes &&
				     left.ios == before.ios))
					break;
				/*
				 * A job that only reads, with verify set:
				 * fio 3.33 runs no pass after one that ended
				 * with its files done (measured with fio's
				 * byte counts: loops=2, io_size or number_ios
				 * past the file read it once; holes, backward
				 * reads, norandommap and randread:N, whose
				 * passes end at the job's bytes, repeat;
				 * tests/fio/real/verify-null-*).
				 */
				if (j->verify_ro && !j->time_based &&
				    !runs_to_limit(j))
					break;
				if (!j->time_based && writes_modelled(j) &&
				    (j->end_fsync || j->fsync_close) &&
				    (err = end_sync(f, j, c, fds, onames, closed,
						    at_limit, &nfd)))
					return err;
			}
			/*
			 * A job's process (fio forks one per job unless
			 * thread) takes the mappings its mmap engine left
			 * with it when it exits.
			 */
			for (; f->kept_maps; f->kept_maps--)
				if (!j->thread)
					emit(f, "munmap\n");
			/* time_based: end_fsync, fsync_on_close after the last. */
			for (k = 0; j->time_based && writes_modelled(j) &&
				    (j->end_fsync || j->fsync_close) && k < j->nrfiles; k++)
				emit(f, "fd %u\nfsync\n", fds[k]);
			if (!room(f))
				return too_many_ops(f, j);
		}
	}
	if (f->big_map)
		return ferr(f, f->sec[s_of(f, f->big_map)].line,
			    "job [%s]: a random map of %llu blocks (fio's would take %llu MiB); set norandommap=1, or a smaller size or a larger bs",
			    f->big_map->name, (unsigned long long)f->big_blocks,
			    (unsigned long long)(f->big_blocks >> 23));
	if (f->stale)
		return ferr(f, f->sec[s_of(f, f->stale)].line,
			    "job [%s]: a later job lays its file out again, larger (fio does that before any job runs), and where this job's I/Os reach the end the file had at its setup, fio's I/Os depend on whether the file existed before the run (fio 3.33 keeps the size the file had at the job's setup, so a fresh run and a second one over the files it left differ there): %s",
			    f->stale->name,
			    f->files == RALAB_FIO_FILES_UNSAID ?
				    "say which with --set fio_files=fresh (no file exists) or --set fio_files=existing (an earlier run, or fio --create_only=1, left them)" :
				    "not modelled for a job with filesize=LO-HI");
	if (f->lone)
		return ferr(f, f->sec[s_of(f, f->lone)].line,
			    "job [%s]: random_distribution zipf, pareto or normal with a block larger than the job's share of a file (size over nrfiles) that goes on past it (another job made it larger): fio then reads the start of that share again and again, which is not modelled",
			    f->lone->name);
	if (f->mm_over)
		return ferr(f, f->sec[s_of(f, f->mm_over)].line,
			    "job [%s]: the mmap engine would copy a read past the last page of its mapping (the job's share of a file another job made larger): fio 3.33 dies of SIGSEGV there",
			    f->mm_over->name);
	if (f->uneven)
		return ferr(f, f->sec[s_of(f, f->uneven)].line,
			    "job [%s]: over existing files (fio_files=existing), its last block of a file reaches past the end of some of its files (a later job laid one out again, larger) and not of others: not modelled",
			    f->uneven->name);
	if (f->tb_wrap)
		return ferr(f, get(f, &f->sec[s_of(f, f->tb_wrap)], "rw")->line,
			    "job [%s]: time_based with rw=read:N offsets that wrap past the file's end (or start, going backwards) is not modelled (fio goes on without the reset at the end of its region)",
			    f->tb_wrap->name);
	if (f->txt.oom)
		return -ENOMEM;
	body_out = f->txt.s;
	body_len = f->txt.len;
	f->txt.s = NULL;
	f->txt.len = f->txt.cap = 0;
	emit(f, "# generated by ralab from %s (a fio job file)\n", f->name);
	emit(f, "# file_size: %llu\n", (unsigned long long)fin.sizes[0]);
	emit(f, "# files: main = %s\n", g.names[0]);
	if (fin.unw[0]) /* the case's file is laid out unwritten */
		emit(f, "# unwritten: yes\n");
	emit(f, "%.*s", (int)body_len, body_out);
	free(body_out);
	return f->txt.oom ? -ENOMEM : 0;
}

bool ralab__is_fio(const char *text, size_t len)
{
	size_t i = 0;

	/* A fio job file starts (after blanks and comments) with '['. */
	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' ||
				   text[i] == '\n' || text[i] == '\r'))
			i++;
		if (i < len && (text[i] == '#' || text[i] == ';')) {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		return i < len && text[i] == '[';
	}
	return false;
}

int ralab__fio_to_ops(const char *name, const char *text, size_t len,
		      char **ops, struct ralab_diag *diag)
{
	return ralab__fio_job_to_ops(name, text, len, false, NULL, ops, diag);
}

int ralab__fio_to_ops_opts(const char *name, const char *text, size_t len,
			   const struct ralab_load_opts *lo, char **ops,
			   struct ralab_diag *diag)
{
	return ralab__fio_job_to_ops(name, text, len, false, lo, ops, diag);
}

/*
 * @text (@len bytes) as a job file named @name, then, if @path, the job
 * file @path (@ftext, @flen bytes) after it, as fio 3.33 reads a command
 * line's options and then the job file it names: the file's sections
 * follow the line's, so the line's [global] options are defaults of the
 * file's jobs too (fio puts both into one def_thread), and its --name
 * jobs come first.  The file's lines are its own in messages.
 */
static int fio_to_ops(const char *name, const char *text, size_t len,
		      bool literal, const char *path, const char *ftext,
		      size_t flen, const struct ralab_load_opts *lo, char **ops,
		      struct ralab_diag *diag)
{
	struct fio *f = calloc(1, sizeof(*f));
	char *copy = malloc(len + 1), *fcopy = path ? malloc(flen + 1) : NULL;
	char *fname = path ? strdup(path) : NULL;
	struct section *cur = NULL;
	int err;

	*ops = NULL;
	if (!f || !copy || (path && (!fcopy || !fname))) {
		free(f);
		free(copy);
		free(fcopy);
		free(fname);
		return -ENOMEM;
	}
	f->name = name;
	f->diag = diag;
	f->literal = literal;
	f->files = lo ? lo->fio_files : RALAB_FIO_FILES_UNSAID;
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (memchr(text, '\0', len))
		err = ferr(f, 1, "NUL byte in the file: not a job file");
	else
		err = parse_lines(f, copy, 0, 0, &cur);
	if (!err && path) {
		/* Numbered as an included file is (f->inc[] owns fname). */
		f->inc[f->nr_inc++] = fname;
		fname = NULL;
		f->main_file = f->nr_inc;
		memcpy(fcopy, ftext, flen);
		fcopy[flen] = '\0';
		cur = NULL;
		if (memchr(ftext, '\0', flen))
			err = ferr(f, f->main_file << LINE_BITS | 1,
				   "NUL byte in the file: not a job file");
		else
			err = parse_lines(f, fcopy, f->main_file, 0, &cur);
	}
	if (!err)
		err = kb_bases(f);
	if (!err)
		err = generate(f);
	if (!err)
		*ops = f->txt.s;
	else
		free(f->txt.s);
	free(copy);
	free(fcopy);
	free(fname);
	while (f->nr_inc)
		free(f->inc[--f->nr_inc]);
	free(f);
	return err;
}

int ralab__fio_job_to_ops(const char *name, const char *text, size_t len,
			  bool literal, const struct ralab_load_opts *lo,
			  char **ops, struct ralab_diag *diag)
{
	return fio_to_ops(name, text, len, literal, NULL, NULL, 0, lo, ops,
			  diag);
}

int ralab__fio_cmdline_file_to_ops(const char *name, const char *text,
				   size_t len, const char *path,
				   const char *ftext, size_t flen,
				   const struct ralab_load_opts *lo, char **ops,
				   struct ralab_diag *diag)
{
	return fio_to_ops(name, text, len, true, path, ftext, flen, lo, ops,
			  diag);
}
