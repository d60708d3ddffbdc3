// SPDX-License-Identifier: MIT
/*
 * ops.c - the .ops workload format.
 *
 *   # fs: xfs|ext4            header comments, before the first op
 *   # file_size: 512M         SIZE: bytes, or with K, M, G (powers of 1024)
 *   # read_ahead_kb: 128
 *   # max_sectors_kb: 512
 *   # max_hw_sectors_kb: 1280 (the device's limit)
 *   # extent_kb: 1024         files in extents of 1 MiB, apart on the disk
 *   # block_size: 16K         the filesystem's (XFS: up to 64K; default 4K)
 *   # extent_breaks: 32M,40M  the case's file: extents start there
 *   # holes: 1M+64K,8M+1M     and holes (OFF+LEN) it has: read, no I/O
 *   # unwritten: yes          or: fallocated, never written (no data yet)
 *   read 4K 1                 ops, one per line; '#' starts a comment
 *   read 1M eof
 *
 * Jobs: 'job NAME' starts a stream of ops that runs concurrently with the
 * other jobs, through a descriptor of its own on 'main' ('shared-fd': the
 * first job's descriptor 0); 'iodepth N' lets N preads of the job be in
 * flight at once; 'think USEC [EVERY]' is time after each (or every
 * EVERY-th) read call of the job; 'wait'
 * makes it start when every earlier job has ended, and the jobs after it
 * with it (fio's stonewall); 'wait-for JOB...' when those have ended
 * (fio's wait_for).
 *
 * The case starts with its file ("main") open as descriptor 0.  'open',
 * 'file NAME SIZE [breaks OFF,...] [holes OFF+LEN,...]' ('file NAME SIZE
 * unwritten': preallocated, no data) open more (numbered 1, 2, ... in
 * that order), 'fd N'
 * and 'use NAME' pick one, 'close' closes the current one; ops act on the
 * current descriptor.  All of this is resolved here, so a closed or
 * unknown descriptor is a FILE:LINE error, not a run-time one.
 *
 * Every error names the file and line and nothing is run: the whole file
 * is checked before the workload exists.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload.h"

#define MAX_TOKENS 8
#define MAX_LINE_ERR 40 /* characters of a bad token quoted in errors */
#define RW_MAX 0x7ffff000ull /* MAX_RW_COUNT: most bytes one call moves */

/* A file range 'munmap OFF LEN' took out of a mapping. */
struct pmap_hole {
	uint64_t start, end;
};

struct parser {
	const char *name;
	unsigned line;
	struct ralab_diag *diag;
	/* Descriptor state while parsing, so that ops resolve statically. */
	int cur_fd;                /* -1: none */
	bool job_needs_fd;         /* a new job's first op opens its fd */
	/* The current job's live mappings, by slot (op.map). */
	struct pmap {
		bool live;
		unsigned fd;            /* the descriptor it was made from */
		uint64_t off, len, seq; /* seq: order of creation */
		/* What 'munmap OFF LEN' took out of it: file ranges, sorted,
		 * apart, inside [off, off + len rounded up to a page). */
		unsigned nr_holes;
		struct pmap_hole hole[MAX_HOLES];
		/* What 'mprotect' set, sorted, apart (the rest: as mapped,
		 * readable, writable where the case writes). */
		unsigned nr_prots;
		struct wl_prot prots[MAX_PROTS];
	} map[MAX_MAPS];
	uint64_t map_seq;
	/*
	 * The mapping 'map OFF' named (slot + 1; 0 none): of two mappings of
	 * one descriptor holding a range (ld.so maps a library's data
	 * segment over a page its read-only segment maps too), the one an
	 * op means.
	 */
	unsigned sel_map;
	/*
	 * The first 'touch ... cow' and 'madvise ... pageout': not modelled
	 * together (cow_pageout()).
	 */
	unsigned cow_line, pageout_line;
	unsigned last_ino;         /* file of the last current descriptor */
	unsigned close_line;       /* where the current one was closed */
	unsigned char fd_open[MAX_FDS];
	unsigned char fd_ino[MAX_FDS];
	unsigned char fd_direct[MAX_FDS]; /* opened with O_DIRECT */
	unsigned char fd_rwf[MAX_FDS];    /* 'rwf dontcache': its calls */
	unsigned char fd_splice[MAX_FDS]; /* 'via splice': its reads */
	/* 'wait-for' names, resolved when every job is known (wait_for()). */
	struct pwait {
		unsigned job, line;
		char name[32];
	} wfor[2 * MAX_JOBS];
	unsigned nr_wfor;
};

static int perr(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = wl_vdiag(p->diag, p->name, p->line, fmt, ap);
	va_end(ap);
	return err;
}

/* Quote at most MAX_LINE_ERR characters of a token in a message. */
#define TOK(t) MAX_LINE_ERR, (t)

void ralab_config_default(struct ralab_config *cfg)
{
	*cfg = (struct ralab_config){
		.fs = RALAB_FS_XFS,
		.file_size = 512ull << 20,
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_hw_sectors_kb = 1280,
		.max_segments = 128,
		.max_segment_size = 65536,
		.max_folio_order = 9,
		.block_size = RALAB_PAGE_SIZE,
		.alloc_fail_order = 1,
		.alloc_fail_seed = 1,
	};
	ralab_config_device(cfg, "ideal");
}

/*
 * Device presets.  "ideal" (the default) completes I/O at once, as the
 * recorded kernel cases behave wherever timing could matter but for a
 * DONTNEED right after readahead (docs/design.md), and keeps the CPU
 * costs, so threads still interleave; "loop" is the loop device
 * (direct I/O over a file on virtio) of the development machines, fitted
 * by 'ralab calibrate'; "nvme" and "hdd" are typical figures, not
 * measurements.
 */
static const struct {
	const char *name;
	uint64_t lat_ns, bw;
	uint32_t qd, sys, folio, page, rq, iops, share;
} presets[] = {
	{ "loop", 55000, 1676000000ull, 128, 600, 300, 280, 3000, 100000, 8000 },
	{ "nvme", 80000, 3000000000ull, 1024, 300, 200, 250, 1500, 0, 0 },
	{ "hdd", 8000000, 180000000ull, 32, 300, 200, 250, 1500, 0, 0 },
	{ "ideal", 0, 0, 1024, 600, 300, 280, 3000, 0, 0 },
};

int ralab_config_device(struct ralab_config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].name, name))
			continue;
		snprintf(cfg->device, sizeof(cfg->device), "%s", name);
		cfg->dev_latency_ns = presets[i].lat_ns;
		cfg->dev_bandwidth = presets[i].bw;
		cfg->dev_queue_depth = presets[i].qd;
		cfg->cpu_syscall_ns = presets[i].sys;
		cfg->cpu_folio_ns = presets[i].folio;
		cfg->cpu_page_ns = presets[i].page;
		cfg->cpu_request_ns = presets[i].rq;
		cfg->dev_iops = presets[i].iops;
		cfg->dev_contention_ns = presets[i].share;
		return 0;
	}
	return -ENOENT;
}

/* Parse an unsigned decimal; -ERANGE on overflow, -EINVAL if malformed. */
static int parse_u64(const char *s, uint64_t *out, bool suffix)
{
	uint64_t v = 0, mult = 1;

	if (!*s)
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*s && suffix) {
		switch (*s) {
		case 'K': case 'k': mult = 1ull << 10; break;
		case 'M': case 'm': mult = 1ull << 20; break;
		case 'G': case 'g': mult = 1ull << 30; break;
		case 'T': case 't': mult = 1ull << 40; break;
		default: return -EINVAL;
		}
		s++;
		if (s[0] == 'i' && s[1] == 'B') /* KiB, MiB, GiB, TiB */
			s += 2;
	}
	if (*s)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

static bool starts_digit(const char *s)
{
	return *s >= '0' && *s <= '9';
}

/* A SIZE/offset argument: at most RALAB_MAX_POS. */
static int arg_size(struct parser *p, const char *what, const char *tok,
		    uint64_t *out)
{
	int err;

	if (*tok == '-')
		return perr(p, "%s must not be negative: '%.*s'", what,
			    TOK(tok));
	err = parse_u64(tok, out, true);
	if (err == -ERANGE || (!err && *out > RALAB_MAX_POS))
		return perr(p, "%s '%.*s' is too large (the limit is 2^63 - 1)",
			    what, TOK(tok));
	if (err) {
		if (starts_digit(tok))
			return perr(p, "bad size suffix in %s '%.*s' (use K, M, G or T, or KiB, MiB, GiB or TiB)",
				    what, TOK(tok));
		return perr(p, "%s must be a number, not '%.*s'", what,
			    TOK(tok));
	}
	return 0;
}

static int arg_count(struct parser *p, const char *what, const char *tok,
		     uint64_t *out)
{
	int err = parse_u64(tok, out, false);

	if (err == -ERANGE || (!err && *out > RALAB_MAX_POS))
		return perr(p, "%s '%.*s' is too large", what, TOK(tok));
	if (err)
		return perr(p, "%s must be a whole number, not '%.*s'", what,
			    TOK(tok));
	if (!*out)
		return perr(p, "%s must be at least 1", what);
	return 0;
}

/*
 * "OFF SIZE LEN" of shuffle-pread and fio-pread (tok[1..3]): @op->off,
 * @op->len and the region's blocks of LEN bytes (at least one).
 */
static int arg_region(struct parser *p, const char *name, char **tok,
		      struct op *op, uint64_t *blocks)
{
	char what[40];
	uint64_t size;
	int err;

	snprintf(what, sizeof(what), "%s offset", name);
	if ((err = arg_size(p, what, tok[1], &op->off)))
		return err;
	snprintf(what, sizeof(what), "%s size", name);
	if ((err = arg_size(p, what, tok[2], &size)))
		return err;
	snprintf(what, sizeof(what), "%s length", name);
	if ((err = arg_size(p, what, tok[3], &op->len)))
		return err;
	if (!op->len)
		return perr(p, "%s length must not be 0", name);
	if (size > RALAB_MAX_POS - op->off)
		return perr(p, "%s range ends past 2^63 - 1", name);
	*blocks = size / op->len;
	if (!*blocks)
		return perr(p, "%s size %llu holds no block of %llu bytes", name,
			    (unsigned long long)size,
			    (unsigned long long)op->len);
	return 0;
}

static int nargs(struct parser *p, const char *op, int have, int min, int max,
		 const char *usage)
{
	if (have < min || have > max)
		return perr(p, "wrong number of arguments for '%s' (usage: %s)",
			    op, usage);
	return 0;
}

/*
 * A comma-separated list of sizes for setting @what into *@out
 * (malloc'ed, *@nout items): "100K,1M,..." (@pairs false), or
 * "1M+64K,4M+1M,..." as [start, end) pairs (@pairs true).
 */
static int parse_list(struct parser *p, const char *what, const char *val,
		      bool pairs, uint64_t **out, unsigned *nout)
{
	char *buf = strdup(val), *tok, *save = NULL;
	unsigned n = 0, cap = 0, w = pairs ? 2 : 1;
	uint64_t *v = NULL;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (tok = strtok_r(buf, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		char *plus = pairs ? strchr(tok, '+') : NULL;

		if (pairs && !plus) {
			err = perr(p, "%s: '%.*s' is not OFFSET+LENGTH (e.g. 1M+64K)",
				   what, TOK(tok));
			break;
		}
		if (plus)
			*plus = '\0';
		if (n == cap) {
			uint64_t *b;

			if (cap >= UINT32_MAX / 4) {
				err = perr(p, "%s: too long a list", what);
				break;
			}
			cap = cap ? cap * 2 : 16;
			b = realloc(v, (size_t)w * cap * sizeof(*b));
			if (!b) {
				err = -ENOMEM;
				break;
			}
			v = b;
		}
		err = arg_size(p, what, tok, &v[w * n]);
		if (!err && plus &&
		    !(err = arg_size(p, what, plus + 1, &v[w * n + 1]))) {
			if (v[w * n + 1] > UINT64_MAX - v[w * n])
				err = perr(p, "%s: %s+%s ends past 2^64", what,
					   tok, plus + 1);
			else
				v[w * n + 1] += v[w * n];
		}
		n++;
	}
	free(buf);
	if (err) {
		free(v);
		return err;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* A list of extent starts, "100K,1M,...", into *@out (malloc'ed). */
static int parse_breaks(struct parser *p, const char *val, uint64_t **out,
			unsigned *nout)
{
	return parse_list(p, "extent_breaks", val, false, out, nout);
}

/* Extent starts: ascending multiples of the block size inside the file. */
static int check_breaks(struct parser *p, const struct wl_file *f,
			uint64_t size, const char *what, uint32_t bs)
{
	unsigned k;

	for (k = 0; k < f->nbrk; k++) {
		uint64_t b = f->brk[k];

		if (!b || b % bs || b >= size)
			return perr(p, "%s: %llu is not a multiple of %u KiB inside the file (0 to %llu)",
				    what, (unsigned long long)b, bs >> 10,
				    (unsigned long long)size);
		if (k && b <= f->brk[k - 1])
			return perr(p, "%s: %llu does not come after %llu",
				    what, (unsigned long long)b,
				    (unsigned long long)f->brk[k - 1]);
	}
	return 0;
}

/* Holes, "1M+64K,4M+1M,...": [start, end) pairs into *@out (malloc'ed). */
static int parse_holes(struct parser *p, const char *val, uint64_t **out,
		       unsigned *nout)
{
	return parse_list(p, "holes", val, true, out, nout);
}

/* Holes: ascending, apart, on block boundaries, inside the file. */
static int check_holes(struct parser *p, const struct wl_file *f,
		       uint64_t size, uint32_t bs)
{
	unsigned k;

	/* The last block, partly past the end, is a whole block. */
	uint64_t top = size + (bs - size % bs) % bs;

	for (k = 0; k < f->nhole; k++) {
		uint64_t a = f->hole[2 * k], b = f->hole[2 * k + 1];

		if (a % bs || b % bs || b <= a || b > top)
			return perr(p, "holes: %llu+%llu is not a range of whole %u KiB blocks inside the file (0 to %llu)",
				    (unsigned long long)a,
				    (unsigned long long)(b - a), bs >> 10,
				    (unsigned long long)size);
		if (k && a <= f->hole[2 * k - 1])
			return perr(p, "holes: the one at %llu does not come after the end of the one before (%llu)",
				    (unsigned long long)a,
				    (unsigned long long)f->hole[2 * k - 1]);
	}
	return 0;
}

static int add_op(struct ralab_workload *wl, const struct op *op)
{
	if (wl->nr_ops == wl->cap_ops) {
		unsigned cap = wl->cap_ops ? wl->cap_ops * 2 : 16;
		struct op *o = realloc(wl->ops, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		wl->ops = o;
		wl->cap_ops = cap;
	}
	wl->ops[wl->nr_ops++] = *op;
	return 0;
}

/*
 * How many bytes a write op may reach from op->off: its length, or a
 * fio-pwrite's whole region (its blocks of op->len bytes).
 */
static uint64_t write_span(const struct op *op)
{
	return op->kind == OP_FIO_PWRITE ? op->blocks * op->len : op->len;
}

/* Checks that depend on the file size (re-run when it is overridden). */
static int check_op_vs_config(struct parser *p, const struct ralab_workload *wl,
			      const struct op *op)
{
	uint64_t size = op->ino ? wl->files[op->ino].size : wl->cfg.file_size;

	/*
	 * A file has blocks up to its declared size: writes grow a file
	 * truncated before back to it, not past it.
	 */
	if ((op->kind == OP_PWRITE || op->kind == OP_FALLOCATE ||
	     op->kind == OP_FIO_PWRITE) &&
	    (op->off > size || write_span(op) > size - op->off))
		return perr(p, "%s [%llu, %llu) ends past the file's declared size (%llu bytes), which is as far as it has blocks",
			    op->kind == OP_PWRITE     ? "pwrite" :
			    op->kind == OP_FIO_PWRITE ? "fio-pwrite" :
							"fallocate",
			    (unsigned long long)op->off,
			    (unsigned long long)(op->off + write_span(op)),
			    (unsigned long long)size);
	/*
	 * A punch or zero-range may reach past EOF (filemap_punch()), not
	 * past ext4's largest file (fallocate(2) fails with EFBIG there;
	 * XFS's is 8 EiB); an madvise(MADV_REMOVE) past EOF into the EOF
	 * page's tail, as its mapping may.
	 */
	if (op->kind == OP_PUNCH && op->off + op->len > WL_PUNCH_MAX)
		return perr(p, "%s [%llu, %llu) ends past 16 TiB, ext4's largest file (fallocate(2) fails there with EFBIG): not modelled",
			    op->advice ? "zero-range" : "punch",
			    (unsigned long long)op->off,
			    (unsigned long long)(op->off + op->len));
	if (op->kind == OP_TRUNCATE && op->off > size)
		return perr(p, "truncate to %llu bytes: past the file's declared size (%llu bytes), which is as far as it has blocks",
			    (unsigned long long)op->off,
			    (unsigned long long)size);
	if (op->kind == OP_RAND_PREAD && op->len > size)
		return perr(p, "rand-pread length %llu is larger than the file (%llu bytes)",
			    (unsigned long long)op->len,
			    (unsigned long long)size);
	return 0;
}

/* The job op @i belongs to. */
static unsigned job_of(const struct ralab_workload *wl, unsigned i)
{
	unsigned j;

	for (j = 1; j < wl->nr_jobs; j++)
		if (i < wl->jobs[j].first_op)
			break;
	return j - 1;
}

/*
 * Ops that move a file's end or fault on it, and those that move the
 * position of a descriptor write(2) appends at (@wfd: bit per descriptor).
 */
static bool sizes_op(const struct op *op, const uint64_t *wfd)
{
	switch (op->kind) {
	case OP_MMAP: case OP_TOUCH: case OP_TRUNCATE: case OP_WRITE:
	case OP_PWRITE: case OP_FALLOCATE: case OP_FIO_PWRITE: case OP_MLOCK:
		return true;
	case OP_READ: case OP_SEEK:
		return wfd[op->fd / 64] >> (op->fd % 64) & 1;
	default:
		return false;
	}
}

/*
 * A file both mapped and truncated: a touch of a page past its end at
 * that moment would raise SIGBUS (not modelled: the process dies), so
 * follow its size through the job, with the positions of its
 * descriptors (write(2) appends at them, read(2) moves them), and refuse
 * such a touch.  The ops that decide it must be in one job: across jobs
 * the order, so the size at a touch, is timing.
 *
 *   mmap 0 1M                  size 1M (declared)
 *   truncate 100000            size 100000: pages 0..24 are the file
 *   touch 98304 1              page 24: fine
 *   touch 102400 1             page 25: SIGBUS, refused
 */
static int check_sigbus(struct parser *p, const struct ralab_workload *wl,
			unsigned ino)
{
	uint64_t declared = ino ? wl->files[ino].size : wl->cfg.file_size;
	uint64_t size = declared, pos[MAX_FDS] = { 0 };
	uint64_t wfd[MAX_FDS / 64] = { 0 };
	unsigned i, first = wl->nr_ops, job = 0, size_line = 0;
	const struct wl_job *jb;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].ino == ino && wl->ops[i].kind == OP_WRITE)
			wfd[wl->ops[i].fd / 64] |= 1ull << (wl->ops[i].fd % 64);
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		if (op->ino != ino || !sizes_op(op, wfd))
			continue;
		if (first == wl->nr_ops) {
			first = i;
			job = job_of(wl, i);
		} else if (job_of(wl, i) != job) {
			p->line = op->line;
			return perr(p, "file '%s' is mapped and truncated: its mappings, truncates and writes (and the reads and seeks of a descriptor that write(2) uses) must be in one job (line %u is in another), since a touch past its end would raise SIGBUS",
				    wl->files[ino].name, wl->ops[first].line);
		}
	}
	jb = &wl->jobs[job];
	if (jb->repeat || jb->runtime_ns) {
		p->line = jb->repeat ? jb->repeat_line : jb->runtime_line;
		return perr(p, "file '%s' is mapped and truncated in a job with a runtime: where its end is at each touch is not followed",
			    wl->files[ino].name);
	}
	for (i = first; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];
		uint64_t n, lim, *fp = &pos[op->fd % MAX_FDS];

		if (op->ino != ino)
			continue;
		switch (op->kind) {
		case OP_OPEN:
			*fp = 0;
			break;
		case OP_SEEK:
			*fp = op->off;
			break;
		case OP_READ:
		case OP_WRITE:
			/*
			 * Each call moves at most MAX_RW_COUNT bytes and stops
			 * at the end (a read) or at the declared size, the
			 * blocks the file has (a write).
			 */
			lim = op->kind == OP_READ ? size : declared;
			if (*fp >= lim)
				break;
			n = op->len < RW_MAX ? op->len : RW_MAX;
			if (op->to_eof ||
			    __builtin_mul_overflow(n, op->count, &n) ||
			    n > lim - *fp)
				n = lim - *fp;
			*fp += n;
			if (op->kind == OP_WRITE && *fp > size) {
				size = *fp;
				size_line = op->line;
			}
			break;
		case OP_FIO_PWRITE:
			/* Where its end is depends on the draws. */
			p->line = op->line;
			return perr(p, "fio-pwrite on file '%s', which is mapped and truncated: not modelled (pwrite each block)",
				    wl->files[ino].name);
		case OP_PWRITE:
		case OP_FALLOCATE:
			if ((op->kind == OP_PWRITE || !op->advice) &&
			    op->off + op->len > size) {
				size = op->off + op->len;
				size_line = op->line;
			}
			break;
		case OP_TRUNCATE:
			size = op->off;
			size_line = op->line;
			break;
		case OP_MLOCK: {
			/* Its populate fails at the end: ENOMEM. */
			uint64_t eof = (size + RALAB_PAGE_SIZE - 1) &
				       ~(uint64_t)(RALAB_PAGE_SIZE - 1);

			if (op->advice != MLOCK_ON_ || op->off + op->len <= eof)
				break;
			p->line = op->line;
			return perr(p, "mlock [%llu, %llu): past the end of file '%s' (%llu bytes since line %u); mlock() would fail with ENOMEM, which is not modelled",
				    (unsigned long long)op->off,
				    (unsigned long long)(op->off + op->len),
				    wl->files[ino].name,
				    (unsigned long long)size, size_line);
		}
		case OP_TOUCH: {
			/* Pages from DIV_ROUND_UP(size, PAGE_SIZE) on. */
			uint64_t eof = (size + RALAB_PAGE_SIZE - 1) &
				       ~(uint64_t)(RALAB_PAGE_SIZE - 1);
			uint64_t a = op->off;

			if (!op->len || op->off + op->len <= eof)
				break;
			if (a < eof)
				a += (eof - a + op->count - 1) / op->count *
				     op->count;
			if (a >= op->off + op->len)
				break;
			p->line = op->line;
			if (size_line)
				return perr(p, "%s at %llu: past the end of file '%s' (%llu bytes since line %u); %s, which is not modelled",
					    op->populate ? "madvise populate" : "touch",
					    (unsigned long long)a,
					    wl->files[ino].name,
					    (unsigned long long)size,
					    size_line, op->populate ?
					    "madvise() would fail with EFAULT" :
					    "it would raise SIGBUS");
			return perr(p, "%s at %llu: past the end of file '%s' (%llu bytes); %s, which is not modelled",
				    op->populate ? "madvise populate" : "touch",
				    (unsigned long long)a, wl->files[ino].name,
				    (unsigned long long)size, op->populate ?
				    "madvise() would fail with EFAULT" :
				    "it would raise SIGBUS");
		}
		default:
			break;
		}
	}
	return 0;
}

int ralab__wait_cycle(uint64_t *need, const bool *wait, unsigned n)
{
	uint64_t named[MAX_JOBS], grown;
	unsigned i, k;
	int g = -1;

	memcpy(named, need, n * sizeof(*need));
	for (i = 0; i < n; i++) {
		if (wait[i])
			g = (int)i;
		if (g >= 0) /* every job before its group's 'wait' job */
			need[i] |= ((1ull << g) - 1) | named[g];
	}
	do { /* the transitive closure (at most 64 jobs) */
		grown = 0;
		for (i = 0; i < n; i++)
			for (k = 0; k < n; k++)
				if ((need[i] >> k & 1) && (need[k] & ~need[i])) {
					need[i] |= need[k];
					grown = 1;
				}
	} while (grown);
	for (i = 0; i < n; i++)
		if (need[i] >> i & 1)
			return (int)i;
	return -1;
}

/*
 * Resolve the 'wait-for' names into each job's wait_for mask, and refuse
 * jobs that would wait for each other (ralab__wait_cycle()): a cycle
 * would hold every job of it for ever (fio itself would spin).
 */
static int wait_for(struct parser *p, struct ralab_workload *wl)
{
	uint64_t need[MAX_JOBS];
	bool wait[MAX_JOBS];
	unsigned i, k;
	int c;

	for (i = 0; i < p->nr_wfor; i++) {
		const struct pwait *pw = &p->wfor[i];
		uint64_t named = 0;

		p->line = pw->line;
		for (k = 0; k < wl->nr_jobs; k++) /* names may repeat: each */
			if (!strcmp(wl->jobs[k].name, pw->name))
				named |= 1ull << k;
		if (!named)
			return perr(p, "wait-for: no job '%s'", pw->name);
		if (named >> pw->job & 1)
			return perr(p, "wait-for: job '%s' cannot wait for itself", pw->name);
		wl->jobs[pw->job].wait_for |= named;
		if (!wl->jobs[pw->job].wait_for_line)
			wl->jobs[pw->job].wait_for_line = pw->line;
	}
	for (i = 0; i < wl->nr_jobs; i++) {
		need[i] = wl->jobs[i].wait_for;
		wait[i] = wl->jobs[i].wait;
	}
	if ((c = ralab__wait_cycle(need, wait, wl->nr_jobs)) < 0)
		return 0;
	p->line = wl->jobs[c].wait_for_line ? wl->jobs[c].wait_for_line :
					      wl->jobs[c].line;
	return perr(p, "job '%s' would wait for itself ('wait-for' and 'wait' make a cycle): not modelled",
		    wl->jobs[c].name);
}

/* check_sigbus() for each file the workload both maps and truncates. */
static int check_mapped_sizes(struct parser *p,
			      const struct ralab_workload *wl)
{
	bool mapped[MAX_FILES] = { false }, truncated[MAX_FILES] = { false };
	unsigned i;
	int err;

	for (i = 0; i < wl->nr_ops; i++) {
		if (wl->ops[i].kind == OP_MMAP)
			mapped[wl->ops[i].ino] = true;
		if (wl->ops[i].kind == OP_TRUNCATE)
			truncated[wl->ops[i].ino] = true;
	}
	for (i = 0; i < MAX_FILES; i++)
		if (mapped[i] && truncated[i] &&
		    (err = check_sigbus(p, wl, i)))
			return err;
	return 0;
}

/*
 * O_DIRECT writes are modelled over the file's own blocks and over a
 * preallocated file's unwritten extents (what they write becomes data:
 * filemap_write_direct()); where the filesystem would allocate (a hole,
 * a file truncated, fallocated or punched by the case) it places new
 * blocks and may write zeroes around the data, which ralab does not
 * follow.
 */
static int check_direct_writes(struct parser *p,
			       const struct ralab_workload *wl)
{
	bool resized[MAX_FILES] = { false }; /* by file: up to 256 */
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_TRUNCATE ||
		    wl->ops[i].kind == OP_FALLOCATE ||
		    wl->ops[i].kind == OP_PUNCH)
			resized[wl->ops[i].ino] = true;
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];
		const struct wl_file *f = &wl->files[op->ino];

		if (!op->direct ||
		    (op->kind != OP_WRITE && op->kind != OP_PWRITE &&
		     op->kind != OP_FIO_PWRITE))
			continue;
		if (f->nhole || resized[op->ino]) {
			p->line = op->line;
			return perr(p, "an O_DIRECT write to file '%s', which %s: direct writes are modelled over a file's own blocks and a preallocated file's unwritten extents only",
				    f->name,
				    f->nhole ? "has holes" :
					       "is truncated, fallocated or punched");
		}
	}
	return 0;
}

/* Does @op change the data or the size of its file? */
static bool changes_file(const struct op *op)
{
	switch (op->kind) {
	case OP_WRITE: case OP_PWRITE: case OP_FIO_PWRITE:
	case OP_TRUNCATE: case OP_FALLOCATE:
		return true;
	case OP_TOUCH: case OP_MEMCPY:
		return op->wfault == TOUCH_WRITE;
	default:
		return false;
	}
}

/*
 * A punched hole is modelled in a file that keeps its size and blocks
 * otherwise: the case does not truncate or fallocate it.  Its writes
 * overwrite data in place (dirty folios in a punched range are written
 * back first on XFS, dropped on ext4); one that reaches into a punched
 * hole would have the filesystem allocate blocks where the allocator
 * chooses, which the model's run counts (hole_writes) and the recorder
 * refuses.  Its own holes may be there: they stay, space-less, where the
 * punched ones keep their space (struct blk_layout).
 */
static int check_punches(struct parser *p, const struct ralab_workload *wl)
{
	bool punched[MAX_FILES] = { false };
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_PUNCH)
			punched[wl->ops[i].ino] = true;
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		if (punched[op->ino] &&
		    (op->kind == OP_TRUNCATE || op->kind == OP_FALLOCATE)) {
			p->line = op->line;
			return perr(p, "file '%s' is punched (or zero-ranged) and %s: punch and zero-range are modelled in files the case does not resize or allocate in",
				    wl->files[op->ino].name,
				    op->kind == OP_TRUNCATE ? "truncated"
							    : "fallocated");
		}
	}
	return 0;
}

/*
 * A file with holes of its own cut short (a truncate to a size other
 * than 0) keeps its data below where it is, its own holes there
 * space-less, and what the truncate freed becomes a hole that keeps its
 * space.  Modelled where the case does not write the file: grown back by
 * writes, where its new blocks go is the allocator's choice.
 */
static int check_holed_truncates(struct parser *p,
				 const struct ralab_workload *wl)
{
	unsigned line[MAX_FILES] = { 0 };
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		if (op->kind == OP_TRUNCATE && op->off &&
		    wl->files[op->ino].nhole && !line[op->ino])
			line[op->ino] = op->line;
	}
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		if (line[op->ino] && op->kind != OP_TRUNCATE &&
		    changes_file(op)) {
			p->line = op->line;
			return perr(p, "file '%s' has holes of its own, is truncated to a size other than 0 (line %u) and written: such a file cut short is modelled where the case does not write it",
				    wl->files[op->ino].name, line[op->ino]);
		}
	}
	return 0;
}

/* Does the current job hold a mapping? */
static bool map_any(const struct parser *p)
{
	unsigned k;

	for (k = 0; k < MAX_MAPS; k++)
		if (p->map[k].live)
			return true;
	return false;
}

/* The end of mapping @m's range: its length rounded up to a page. */
static uint64_t pmap_end(const struct pmap *m)
{
	return m->off + ((m->len + RALAB_PAGE_SIZE - 1) &
			 ~(uint64_t)(RALAB_PAGE_SIZE - 1));
}

/*
 * Whether a page of [@a, @b) is still mapped by @m (in its range, in no
 * hole); if @hole, the first hole [@a, @b) meets, or NULL.
 */
static bool pmap_live(const struct pmap *m, uint64_t a, uint64_t b,
		      const struct pmap_hole **hole)
{
	uint64_t lo = a > m->off ? a : m->off, hi = pmap_end(m);
	unsigned i;
	bool live = false;

	if (hole)
		*hole = NULL;
	if (b < hi)
		hi = b;
	if (lo >= hi)
		return false;
	for (i = 0; i < m->nr_holes; i++) {
		if (m->hole[i].end <= lo || m->hole[i].start >= hi)
			continue;
		if (hole && !*hole)
			*hole = &m->hole[i];
		if (m->hole[i].start > lo)
			live = true;
		lo = m->hole[i].end;
		if (lo >= hi)
			return live;
	}
	return true;
}

/* A free slot for a new mapping of @op (descriptor, range); not from
 * where a live mapping of the same descriptor starts ('map OFF' names
 * mappings by their start, where two share a page). */
static int map_new(struct parser *p, struct op *op)
{
	unsigned k, free_slot = MAX_MAPS;

	for (k = 0; k < MAX_MAPS; k++) {
		const struct pmap *m = &p->map[k];

		if (!m->live) {
			if (free_slot == MAX_MAPS)
				free_slot = k;
			continue;
		}
		/* Mappings of one descriptor are named by where they start. */
		if (m->fd == op->fd && m->off == op->off)
			return perr(p, "mapping [%llu, %llu) starts where the mapping [%llu, %llu) made from the same descriptor does (munmap it first: 'map OFF' names a mapping by its start)",
				    (unsigned long long)op->off,
				    (unsigned long long)(op->off + op->len),
				    (unsigned long long)m->off,
				    (unsigned long long)(m->off + m->len));
	}
	if (free_slot == MAX_MAPS)
		return perr(p, "too many mappings at once (at most %d per job)", MAX_MAPS);
	op->map = free_slot;
	return 0;
}

/*
 * MADV_PAGEOUT reclaims the folios a mapping's page tables point to; a
 * copy-on-write touch leaves an anonymous copy there, which ralab does not
 * track (its page tables say "mapped", not by what).
 */
static int cow_pageout(struct parser *p)
{
	if (p->cow_line && p->pageout_line)
		return perr(p, "'madvise ... pageout' (line %u) and copy-on-write touches (line %u) in one case are not modelled: ralab does not track a private mapping's anonymous copies, which MADV_PAGEOUT meets instead of the file's folios",
			    p->pageout_line, p->cow_line);
	return 0;
}

/*
 * The current descriptor's mappings holding a range: how many, the first
 * two met, and whether 'map OFF' named one of them.
 */
struct mine {
	unsigned n, first, other;
	bool sel_in;
};

static void mine_add(const struct parser *p, struct mine *c, unsigned k)
{
	if (!c->n++)
		c->first = k;
	else
		c->other = k;
	c->sel_in |= p->sel_map == k + 1;
}

/*
 * Of the current descriptor's mappings @c holding [@a, @b) (at least one),
 * the one, into *@found: more than one (ld.so maps a library's data
 * segment over a page its read-only segment maps too), the one 'map OFF'
 * named, if it is one of them; else an error.
 */
static int pick_map(struct parser *p, const char *name, uint64_t a,
		    uint64_t b, const struct mine *c, unsigned *found)
{
	if (c->n < 2) {
		*found = c->first;
		return 0;
	}
	if (c->sel_in) {
		*found = p->sel_map - 1;
		return 0;
	}
	return perr(p, "'%s' range [%llu, %llu) is in two mappings of the descriptor, from %llu and from %llu: name one with 'map OFF' first",
		    name, (unsigned long long)a, (unsigned long long)b,
		    (unsigned long long)p->map[c->first].off,
		    (unsigned long long)p->map[c->other].off);
}

/*
 * The mapping holding [@off, @off + @len): the current descriptor's, or
 * else the only one of any descriptor.  A mapping covers whole pages, as
 * the kernel's does (its length rounded up): fio's mmap engine copies on
 * into the last page of a mapping of a length that is not a multiple of
 * the page.
 */
static int map_find(struct parser *p, const char *name, struct op *op,
		    uint64_t off, uint64_t len)
{
	const struct pmap_hole *h, *hole = NULL;
	unsigned k, found = MAX_MAPS, n = 0;
	struct mine c = { 0 };
	int err;

	for (k = 0; k < MAX_MAPS; k++) {
		const struct pmap *m = &p->map[k];
		uint64_t mlen = (m->len + RALAB_PAGE_SIZE - 1) &
				~(uint64_t)(RALAB_PAGE_SIZE - 1);

		if (!m->live || off < m->off || len > mlen ||
		    off - m->off > mlen - len)
			continue;
		if (m->nr_holes) {
			/* Unmapped there, in part or whole (the range may be
			 * another mapping's, made over the hole). */
			(void)pmap_live(m, off, off + len, &h);
			if (h) {
				hole = h;
				continue;
			}
		}
		if (p->cur_fd >= 0 && m->fd == (unsigned)p->cur_fd) {
			mine_add(p, &c, k);
			continue;
		}
		found = k;
		n++;
	}
	if (c.n) {
		if ((err = pick_map(p, name, off, off + len, &c, &found)))
			return err;
		n = 1;
	}
	if (n == 1) {
		/* The op is on the mapping's file (check_sigbus()). */
		op->map = found;
		op->fd = p->map[found].fd;
		op->ino = p->fd_ino[op->fd];
		return 0;
	}
	if (n > 1)
		return perr(p, "'%s' range [%llu, %llu) is in mappings made from several descriptors (make one current: use NAME or fd N)",
			    name, (unsigned long long)off,
			    (unsigned long long)(off + len));
	if (hole)
		return perr(p, "'%s' range [%llu, %llu) is in [%llu, %llu), which 'munmap' took out of its mapping",
			    name, (unsigned long long)off,
			    (unsigned long long)(off + len),
			    (unsigned long long)hole->start,
			    (unsigned long long)hole->end);
	return perr(p, "'%s' range [%llu, %llu) is outside every mapping", name,
		    (unsigned long long)off, (unsigned long long)(off + len));
}

/*
 * munmap OFF LEN: [OFF, OFF + LEN) of a mapping goes, as munmap(2) of
 * that part of it, or a mapping made with MAP_FIXED over it (ld.so's way
 * with a library's segments), does: the VMA is split there and the part's
 * page tables zapped.  The rest stays mapped; a new mapping of the same
 * descriptor may be made over the hole.  All of what is left: the
 * mapping ends (op->len 0, as 'munmap OFF').
 */
static int munmap_part(struct parser *p, char **tok, struct op *op)
{
	unsigned k, found = MAX_MAPS, n = 0;
	struct mine c = { 0 };
	uint64_t a, b, end;
	struct pmap *m;
	int err;

	if ((err = arg_size(p, "offset", tok[1], &op->off)) ||
	    (err = arg_size(p, "length", tok[2], &op->len)))
		return err;
	if (op->off % RALAB_PAGE_SIZE)
		return perr(p, "'munmap' offset %llu is not a multiple of %d",
			    (unsigned long long)op->off, RALAB_PAGE_SIZE);
	if (!op->len || op->off > UINT64_MAX - RALAB_PAGE_SIZE ||
	    op->len > UINT64_MAX - RALAB_PAGE_SIZE - op->off)
		return perr(p, "'munmap' length must be at least 1 byte and end below 2^64");
	a = op->off;
	b = (op->off + op->len + RALAB_PAGE_SIZE - 1) &
	    ~(uint64_t)(RALAB_PAGE_SIZE - 1);
	for (k = 0; k < MAX_MAPS; k++) {
		m = &p->map[k];
		if (!m->live || !pmap_live(m, a, b, NULL))
			continue;
		n++;
		if (p->cur_fd >= 0 && m->fd == (unsigned)p->cur_fd)
			mine_add(p, &c, k);
		found = k;
	}
	if (!n)
		return perr(p, "'munmap' range [%llu, %llu) holds no mapped page",
			    (unsigned long long)a, (unsigned long long)b);
	if (c.n) {
		if ((err = pick_map(p, "munmap", a, b, &c, &found)))
			return err;
	} else if (n > 1)
		return perr(p, "'munmap' range [%llu, %llu) is in mappings made from several descriptors (make one current: use NAME or fd N)",
			    (unsigned long long)a, (unsigned long long)b);
	m = &p->map[found];
	op->map = found;
	op->kind = OP_MUNMAP;
	end = pmap_end(m);
	if (a < m->off)
		a = m->off;
	if (b > end)
		b = end;
	/* Nothing mapped left outside [a, b): the mapping ends. */
	if (!pmap_live(m, m->off, a, NULL) && !pmap_live(m, b, end, NULL)) {
		op->off = op->len = 0;
		m->live = false;
		if (p->sel_map == found + 1)
			p->sel_map = 0;
		return 0;
	}
	if (m->nr_holes == MAX_HOLES)
		return perr(p, "too many holes in one mapping (at most %d)",
			    MAX_HOLES);
	op->off = a;
	op->len = b - a;
	/* Into the sorted holes, merged with those it meets or touches. */
	for (k = 0; k < m->nr_holes && m->hole[k].end < a; k++)
		;
	{
		unsigned j = k;

		while (j < m->nr_holes && m->hole[j].start <= b) {
			if (m->hole[j].start < a)
				a = m->hole[j].start;
			if (m->hole[j].end > b)
				b = m->hole[j].end;
			j++;
		}
		memmove(&m->hole[k + 1], &m->hole[j],
			(m->nr_holes - j) * sizeof(m->hole[0]));
		m->nr_holes = m->nr_holes - (j - k) + 1;
		m->hole[k] = (struct pmap_hole){ a, b };
	}
	return 0;
}

bool ralab__wl_writes(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		switch (op->kind) {
		case OP_WRITE: case OP_PWRITE: case OP_FIO_PWRITE:
		case OP_FALLOCATE: case OP_TRUNCATE: case OP_PUNCH:
			return true;
		case OP_TOUCH: case OP_MEMCPY:
			/* Not a copy-on-write one: a private mapping's. */
			if (op->wfault == TOUCH_WRITE)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/* Onto @t (@k long): @e, joined with the range before it if they meet
 * and have the same protections (as the VMAs merge). */
static void prot_push(struct wl_prot *t, unsigned *k, struct wl_prot e)
{
	if (*k && t[*k - 1].end == e.start && t[*k - 1].prot == e.prot)
		t[*k - 1].end = e.end;
	else
		t[(*k)++] = e;
}

int ralab__prot_set(struct wl_prot *v, unsigned *n, uint64_t a, uint64_t b,
		    unsigned prot)
{
	struct wl_prot t[MAX_PROTS + 2];
	unsigned i, k = 0;

	/* What is before [a, b), the range, what is after (sorted, apart). */
	for (i = 0; i < *n && v[i].start < a; i++)
		prot_push(t, &k, (struct wl_prot){ v[i].start,
				  v[i].end < a ? v[i].end : a, v[i].prot });
	prot_push(t, &k, (struct wl_prot){ a, b, prot });
	for (i = 0; i < *n; i++)
		if (v[i].end > b)
			prot_push(t, &k, (struct wl_prot){
				v[i].start > b ? v[i].start : b, v[i].end,
				v[i].prot });
	if (k > MAX_PROTS)
		return -ENOSPC;
	memcpy(v, t, k * sizeof(t[0]));
	*n = k;
	return 0;
}

const struct wl_prot *ralab__prot_denied(const struct wl_prot *v, unsigned n,
					 uint64_t off, uint64_t len,
					 uint64_t step, bool write,
					 uint64_t *at)
{
	uint64_t end = off + len;
	unsigned i;

	if (!step)
		step = 1;
	for (i = 0; i < n; i++) {
		const struct wl_prot *e = &v[i];
		uint64_t x = off;

		if (write ? (e->prot & PROT_W_) : (e->prot & (PROT_R_ | PROT_W_)))
			continue;
		if (e->end <= off || e->start >= end)
			continue;
		if (x < e->start)
			x += (e->start - x + step - 1) / step * step;
		if (x >= e->end || x >= end)
			continue;
		*at = x;
		return e;
	}
	return NULL;
}

/*
 * An op that reads (@write: writes) the pages of mapping @op->map at
 * @op->off, @op->off + @step, ... below @op->off + @len: refused where
 * 'mprotect' took that access away (the kernel would raise SIGSEGV, or
 * a populate or an mlock would fail).
 */
static int prot_check(struct parser *p, const struct op *op, uint64_t len,
		      uint64_t step, bool write, const char *what)
{
	const struct pmap *m = &p->map[op->map];
	const struct wl_prot *e;
	uint64_t x;

	e = ralab__prot_denied(m->prots, m->nr_prots, op->off, len, step,
			       write, &x);
	if (!e)
		return 0;
	return perr(p, "%s at %llu: [%llu, %llu) is %s since 'mprotect' (not modelled: %s)",
		    what, (unsigned long long)x, (unsigned long long)e->start,
		    (unsigned long long)e->end,
		    write && e->prot ? "not writable" :
		    e->prot ? "execute-only" : "PROT_NONE",
		    write ? "a write there raises SIGSEGV" :
			    "a read there raises SIGSEGV");
}

const char *const ralab__prot_names[8] = { "none", "r", "w", "rw",
					   "x", "rx", "wx", "rwx" };

/* PROT of 'mprotect': none, or r, w and x in that order (rw, rx, ...). */
static int parse_prot(struct parser *p, const char *t, int *prot)
{
	int i;

	for (i = 0; i < 8; i++)
		if (!strcmp(t, ralab__prot_names[i])) {
			*prot = i;
			return 0;
		}
	return perr(p, "unknown protection '%.*s' (none, or r, w, x in that order: r, rw, rx, rwx, x, w, wx)",
		    TOK(t));
}

/* OFF LEN of an op on a mapping (touch, madvise, mlock): its mapping. */
static int map_args(struct parser *p, const char *name, char **tok,
		    struct op *op)
{
	int err;

	if (!map_any(p))
		return perr(p, "'%s' with no mapping (use 'mmap OFF LEN' first)", name);
	if ((err = arg_size(p, "offset", tok[1], &op->off)) ||
	    (err = arg_size(p, "length", tok[2], &op->len)))
		return err;
	return map_find(p, name, op, op->off, op->len);
}

/* The current descriptor, for an op that needs one. */
static int need_fd(struct parser *p, const char *op, struct op *o)
{
	if (p->cur_fd < 0) {
		if (p->close_line)
			return perr(p, "'%s' on a closed descriptor (closed at line %u; use 'open', 'fd N' or 'use NAME')",
				    op, p->close_line);
		return perr(p, "'%s' with no open descriptor", op);
	}
	o->fd = (unsigned)p->cur_fd;
	o->ino = p->fd_ino[p->cur_fd];
	return 0;
}

static int new_fd(struct parser *p, struct ralab_workload *wl, unsigned ino,
		  struct op *o)
{
	if (wl->nr_fds >= MAX_FDS)
		return perr(p, "too many descriptors (at most %d)", MAX_FDS);
	o->kind = OP_OPEN;
	o->fd = wl->nr_fds++;
	o->ino = ino;
	p->fd_open[o->fd] = 1;
	p->fd_direct[o->fd] = o->direct;
	p->fd_rwf[o->fd] = 0;
	p->fd_splice[o->fd] = 0;
	p->fd_ino[o->fd] = (unsigned char)ino;
	wl->fd_ino[o->fd] = (unsigned char)ino;
	p->cur_fd = (int)o->fd;
	p->last_ino = ino;
	return 0;
}

static int find_file(const struct ralab_workload *wl, const char *name)
{
	unsigned i;

	for (i = 0; i < wl->nr_files; i++)
		if (!strcmp(wl->files[i].name, name))
			return (int)i;
	return -1;
}

static const char *const advice_names[] = {
	[FADV_NORMAL] = "normal",	[FADV_RANDOM] = "random",
	[FADV_SEQUENTIAL] = "sequential", [FADV_WILLNEED] = "willneed",
	[FADV_DONTNEED] = "dontneed",	[FADV_NOREUSE] = "noreuse",
};

/* Ops on descriptors and files: open, close, setfl, fd, file, use, fadvise, readahead. */
static int parse_fd_op(struct parser *p, struct ralab_workload *wl,
		       char **tok, int na, struct op *op)
{
	const char *name = tok[0];
	uint64_t v;
	unsigned i;
	int err, ino;

	if (!strcmp(name, "open")) {
		if ((err = nargs(p, name, na, 0, 2, "open [NAME] [direct]")))
			return err;
		/* O_DIRECT: reads go to the device (filemap_read_direct). */
		if (na && !strcmp(tok[na], "direct")) {
			op->direct = true;
			na--;
		} else if (na == 2) {
			return perr(p, "open: '%.*s' is not 'direct'",
				    TOK(tok[2]));
		}
		if (na == 1) {
			ino = find_file(wl, tok[1]);
			if (ino < 0)
				return perr(p, "no file '%.*s' (declare it with 'file NAME SIZE'; the case's file is 'main')",
					    TOK(tok[1]));
			return new_fd(p, wl, (unsigned)ino, op);
		}
		return new_fd(p, wl, p->cur_fd >= 0 ? p->fd_ino[p->cur_fd]
						    : p->last_ino, op);
	}
	if (!strcmp(name, "close")) {
		if ((err = nargs(p, name, na, 0, 0, "close")) ||
		    (err = need_fd(p, name, op)))
			return err;
		op->kind = OP_CLOSE;
		p->fd_open[op->fd] = 0;
		p->cur_fd = -1;
		p->close_line = p->line;
		return 0;
	}
	if (!strcmp(name, "setfl")) {
		/*
		 * fcntl(F_SETFL) of O_DIRECT: the same open file, so the
		 * same position and file_ra_state; its reads and writes
		 * from here on go past the page cache, or through it.
		 */
		if ((err = nargs(p, name, na, 1, 1, "setfl direct|buffered")) ||
		    (err = need_fd(p, name, op)))
			return err;
		if (strcmp(tok[1], "direct") && strcmp(tok[1], "buffered"))
			return perr(p, "setfl: '%.*s' is not 'direct' or 'buffered'",
				    TOK(tok[1]));
		op->kind = OP_SETFL;
		op->direct = tok[1][0] == 'd';
		p->fd_direct[op->fd] = op->direct;
		return 0;
	}
	if (!strcmp(name, "rwf")) {
		/*
		 * The descriptor's read and write calls from here on are
		 * preadv2(2) and pwritev2(2) with these flags (RWF_DONTCACHE,
		 * 6.14: the folios a read copies from, and those its
		 * readahead adds, leave the cache once copied; those a write
		 * makes are written back at once and then leave it), or
		 * plain again.  A parser state, as the flags are each
		 * call's: no op of its own.
		 */
		if ((err = nargs(p, name, na, 1, 1, "rwf dontcache|none")) ||
		    (err = need_fd(p, name, op)))
			return err;
		if (strcmp(tok[1], "dontcache") && strcmp(tok[1], "none"))
			return perr(p,
				    "rwf: '%.*s' is not 'dontcache' or 'none'",
				    TOK(tok[1]));
		p->fd_rwf[op->fd] = tok[1][0] == 'd';
		return 1;
	}
	if (!strcmp(name, "via")) {
		/*
		 * via splice: the descriptor's reads from here on are made
		 * as fio's splice engine makes them, splice(2) into a pipe of
		 * 16 buffers, 64 KiB at most each, emptied after each, until
		 * the read's length or EOF (read at the file position, the
		 * rest at their offsets); via read: read(2) and pread(2)
		 * again.  A parser state, as 'rwf'.
		 */
		if ((err = nargs(p, name, na, 1, 1, "via splice|read")) ||
		    (err = need_fd(p, name, op)))
			return err;
		if (strcmp(tok[1], "splice") && strcmp(tok[1], "read"))
			return perr(p, "via: '%.*s' is not 'splice' or 'read'",
				    TOK(tok[1]));
		p->fd_splice[op->fd] = tok[1][0] == 's';
		return 1;
	}
	if (!strcmp(name, "fsync")) {
		if ((err = nargs(p, name, na, 0, 0, "fsync")) ||
		    (err = need_fd(p, name, op)))
			return err;
		op->kind = OP_FSYNC;
		return 0;
	}
	if (!strcmp(name, "fallocate")) {
		bool keep = na == 3 && !strcmp(tok[3], "keep");
		if (na == 3 && !keep)
			return perr(p, "fallocate mode must be 'keep' (FALLOC_FL_KEEP_SIZE) or none (mode 0), not '%.*s'",
				    TOK(tok[3]));
		if ((err = nargs(p, name, keep ? 2 : na, 2, 2,
				 "fallocate OFF LEN [keep]")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "fallocate offset", tok[1], &op->off)) ||
		    (err = arg_size(p, "fallocate length", tok[2], &op->len)))
			return err;
		if (!op->len)
			return perr(p, "fallocate length must not be 0");
		op->kind = OP_FALLOCATE;
		op->advice = keep;
		return check_op_vs_config(p, wl, op);
	}
	if (!strcmp(name, "punch") || !strcmp(name, "zero-range")) {
		/*
		 * FALLOC_FL_ZERO_RANGE: the page cache goes as for a punch,
		 * the blocks become unwritten extents, which read as the
		 * hole does (zeroes, no I/O); so one op, @advice set.
		 */
		bool zero = name[0] == 'z';

		if ((err = nargs(p, name, na, 2, 2,
				 zero ? "zero-range OFF LEN" : "punch OFF LEN")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, zero ? "zero-range offset" :
					      "punch offset",
				    tok[1], &op->off)) ||
		    (err = arg_size(p, zero ? "zero-range length" :
					      "punch length",
				    tok[2], &op->len)))
			return err;
		if (!op->len)
			return perr(p, "%s length must not be 0", name);
		op->kind = OP_PUNCH;
		op->advice = zero;
		return check_op_vs_config(p, wl, op);
	}
	if (!strcmp(name, "truncate")) {
		if ((err = nargs(p, name, na, 1, 1, "truncate SIZE")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "truncate size", tok[1], &v)))
			return err;
		op->kind = OP_TRUNCATE;
		op->off = v;
		return check_op_vs_config(p, wl, op);
	}
	if (!strcmp(name, "fd")) {
		if ((err = nargs(p, name, na, 1, 1, "fd N")))
			return err;
		if (parse_u64(tok[1], &v, false))
			return perr(p, "descriptor must be a number, not '%.*s'", TOK(tok[1]));
		if (v >= wl->nr_fds)
			return perr(p, "no descriptor %s: %u opened so far (numbered from 0)",
				    tok[1], wl->nr_fds);
		if (!p->fd_open[v])
			return perr(p, "descriptor %s is closed", tok[1]);
		p->cur_fd = (int)v;
		p->last_ino = p->fd_ino[v];
		return 1; /* nothing to run */
	}
	if (!strcmp(name, "file")) {
		bool unw = false;

		if ((err = nargs(p, name, na, 2, 7,
				 "file NAME SIZE [breaks OFF,...] [holes OFF+LEN,...] [direct] | file NAME SIZE unwritten [direct]")))
			return err;
		/* Its first descriptor opened with O_DIRECT. */
		if (na >= 3 && !strcmp(tok[na], "direct")) {
			op->direct = true;
			na--;
		}
		if (na > 6)
			return perr(p, "file NAME SIZE takes at most breaks, holes and direct after it");
		if (na == 3 && !strcmp(tok[3], "unwritten")) {
			if (wl->cfg.extent_kb)
				return perr(p, "an unwritten file cannot be in extents of extent_kb too");
			unw = true;
			na = 2;
		}
		for (i = 3; i <= (unsigned)na; i += 2) {
			if (strcmp(tok[i], "breaks") && strcmp(tok[i], "holes"))
				return perr(p, "file NAME SIZE takes 'breaks OFF,...' and 'holes OFF+LEN,...' after it, not '%.*s'",
					    TOK(tok[i]));
			if (i == (unsigned)na)
				return perr(p, "'%s' after 'file NAME SIZE' needs %s",
					    tok[i], tok[i][0] == 'b' ?
					    "the offsets where the file's extents start (e.g. breaks 1M,4M)" :
					    "the file's holes (e.g. holes 1M+64K)");
			if (i == 5 && !strcmp(tok[3], tok[5]))
				return perr(p, "'%s' given twice", tok[5]);
		}
		if (strlen(tok[1]) >= sizeof(wl->files[0].name))
			return perr(p, "file name '%.*s' is longer than 31 characters", TOK(tok[1]));
		for (i = 0; tok[1][i]; i++) {
			char c = tok[1][i];

			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
			      c == '.'))
				return perr(p, "file name '%.*s' may use letters, digits, '_', '-' and '.'",
					    TOK(tok[1]));
		}
		if (find_file(wl, tok[1]) >= 0)
			return perr(p, "file '%.*s' already exists", TOK(tok[1]));
		if (wl->nr_files == MAX_FILES)
			return perr(p, "too many files (at most %d)", MAX_FILES);
		if ((err = arg_size(p, "file size", tok[2], &v)))
			return err;
		ino = (int)wl->nr_files++;
		snprintf(wl->files[ino].name, sizeof(wl->files[ino].name), "%s", tok[1]);
		wl->files[ino].size = v;
		wl->files[ino].unwritten = unw;
		/*
		 * Where its extents start and where it has holes (as
		 * extent_breaks and holes for the case's file).
		 */
		for (i = 3; i + 1 <= (unsigned)na; i += 2) {
			struct wl_file *f = &wl->files[ino];

			if (tok[i][0] == 'b')
				err = parse_breaks(p, tok[i + 1], &f->brk, &f->nbrk);
			else
				err = parse_holes(p, tok[i + 1], &f->hole, &f->nhole);
			if (err)
				return err;
		}
		if ((err = check_breaks(p, &wl->files[ino], v, "extent_breaks",
					wl->cfg.block_size)) ||
		    (err = check_holes(p, &wl->files[ino], v,
				       wl->cfg.block_size)))
			return err;
		return new_fd(p, wl, (unsigned)ino, op);
	}
	if (!strcmp(name, "use")) {
		if ((err = nargs(p, name, na, 1, 1, "use NAME")))
			return err;
		ino = find_file(wl, tok[1]);
		if (ino < 0)
			return perr(p, "no file '%.*s' (declare it with 'file NAME SIZE'; the case's file is 'main')",
				    TOK(tok[1]));
		for (i = wl->nr_fds; i-- > 0;)
			if (p->fd_open[i] && p->fd_ino[i] == ino)
				break;
		if (i == (unsigned)-1)
			return perr(p, "file '%.*s' has no open descriptor", TOK(tok[1]));
		p->cur_fd = (int)i;
		p->last_ino = (unsigned)ino;
		return 1;
	}
	if (!strcmp(name, "fadvise") || !strcmp(name, "readahead")) {
		bool fadv = name[0] == 'f';

		if ((err = nargs(p, name, na, fadv ? 3 : 2, fadv ? 3 : 2,
				 fadv ? "fadvise OFF LEN normal|random|sequential|willneed|dontneed|noreuse"
				      : "readahead OFF LEN")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "offset", tok[1], &op->off)) ||
		    (err = arg_size(p, "length", tok[2], &op->len)))
			return err;
		op->kind = fadv ? OP_FADVISE : OP_READAHEAD;
		op->advice = FADV_WILLNEED;
		if (fadv) {
			for (i = 0; i < 6; i++)
				if (!strcmp(tok[3], advice_names[i]))
					break;
			if (i == 6)
				return perr(p, "unknown advice '%.*s' (normal, random, sequential, willneed, dontneed, noreuse)",
					    TOK(tok[3]));
			op->advice = (int)i;
		}
		return 0;
	}
	if (!strcmp(name, "mmap") || !strcmp(name, "mmap-read")) {
		bool full = name[4] == '-';
		bool populate = false, locked = false, exec = false;
		bool mwrite = false;
		uint64_t size;

		/* mmap OFF LEN [populate|locked] [exec] [write], any order. */
		while (!full && na > 2) {
			bool *fl = !strcmp(tok[na], "populate") ? &populate :
				   !strcmp(tok[na], "locked")	? &locked :
				   !strcmp(tok[na], "exec")	? &exec :
				   !strcmp(tok[na], "write")	? &mwrite :
								  NULL;

			if (!fl || *fl)
				break;
			*fl = true;
			na--;
		}
		if (locked) /* MAP_LOCKED populates: MAP_POPULATE adds nothing */
			populate = false;
		if ((err = nargs(p, name, na, 2, full ? 3 : 2,
				 full ? "mmap-read OFF LEN [STEP]" : "mmap OFF LEN [populate|locked] [exec] [write]")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "mapping offset", tok[1], &op->off)) ||
		    (err = arg_size(p, "mapping length", tok[2], &op->len)))
			return err;
		if (op->off % RALAB_PAGE_SIZE)
			return perr(p, "mapping offset %llu is not a multiple of the page size",
				    (unsigned long long)op->off);
		if (!op->len)
			return perr(p, "mapping length must not be 0");
		size = op->ino ? wl->files[op->ino].size : wl->cfg.file_size;
		size = (size + RALAB_PAGE_SIZE - 1) & ~(uint64_t)(RALAB_PAGE_SIZE - 1);
		if (op->off > size || op->len > size - op->off)
			return perr(p, "mapping [%llu, %llu) goes past the end of the file (%llu bytes); touching it would raise SIGBUS",
				    (unsigned long long)op->off,
				    (unsigned long long)(op->off + op->len),
				    (unsigned long long)size);
		op->kind = OP_MMAP;
		/*
		 * MAP_POPULATE: the mapping's pages faulted in by mmap();
		 * MAP_LOCKED: the mapping mlock()ed, so faulted in too.
		 */
		op->populate = populate;
		op->locked = locked;
		/* PROT_EXEC: VM_EXEC, whose faults read ahead their own way. */
		op->exec = exec;
		/* PROT_WRITE: VM_WRITE, which 'mprotect' may take away. */
		op->mwrite = mwrite;
		op->count = RALAB_PAGE_SIZE;
		if (full && na == 3 &&
		    (err = arg_size(p, "step", tok[3], &op->count)))
			return err;
		if (!op->count)
			return perr(p, "step must not be 0");
		if ((err = map_new(p, op)))
			return err;
		if (full) {
			/* mmap, touch every STEP bytes, munmap: three ops. */
			struct op t = *op, u = *op;

			if ((err = add_op(wl, op)))
				return err;
			t.kind = OP_TOUCH;
			if ((err = add_op(wl, &t)))
				return err;
			u.kind = OP_MUNMAP;
			u.off = u.len = 0; /* all of it */
			*op = u;
			return 0;
		}
		p->map[op->map] = (struct pmap){ .live = true,
						 .fd = op->fd,
						 .off = op->off,
						 .len = op->len,
						 .seq = ++p->map_seq };
		return 0;
	}
	if (!strcmp(name, "memcpy")) {
		/*
		 * memcpy OFF LEN [COUNT [BUFOFF]] [write]: an application's
		 * copies out of its mapping (fio's mmap engine), each LEN
		 * bytes, one after another, into a buffer BUFOFF bytes into a
		 * page (write: from it into the mapping).  Which way each
		 * runs is the C library's (memcpy_back_min).
		 */
		uint64_t n = 1, bo = 0;

		if (na >= 3 && !strcmp(tok[na], "write")) {
			op->wfault = TOUCH_WRITE;
			na--;
		}
		if ((err = nargs(p, name, na, 2, 4,
				 "memcpy OFF LEN [COUNT [BUFOFF]] [write]")))
			return err;
		if (!map_any(p))
			return perr(p, "'memcpy' with no mapping (use 'mmap OFF LEN' first)");
		if ((err = arg_size(p, "offset", tok[1], &op->off)) ||
		    (err = arg_size(p, "length", tok[2], &op->len)) ||
		    (na >= 3 && (err = arg_count(p, "memcpy count", tok[3], &n))) ||
		    (na == 4 && (err = arg_size(p, "buffer offset", tok[4], &bo))))
			return err;
		if (!op->len || !n)
			return perr(p, "memcpy length and count must not be 0");
		if (bo >= RALAB_PAGE_SIZE)
			return perr(p, "buffer offset %llu is not within a page (0 to %u)",
				    (unsigned long long)bo, RALAB_PAGE_SIZE - 1);
		if (op->len > (RALAB_MAX_POS - op->off) / n)
			return perr(p, "memcpy range ends past 2^63 - 1");
		if ((err = map_find(p, name, op, op->off, op->len * n)))
			return err;
		op->kind = OP_MEMCPY;
		op->count = n;
		op->stride = (int64_t)bo;
		return prot_check(p, op, op->len * n, 1, op->wfault != 0,
				  "memcpy");
	}
	if (!strcmp(name, "touch") || !strcmp(name, "madvise")) {
		bool touch = name[0] == 't';

		/* touch OFF LEN [STEP] [write|cow]: the kind of fault. */
		if (touch && na >= 3 &&
		    (!strcmp(tok[na], "write") || !strcmp(tok[na], "cow"))) {
			op->wfault = tok[na][0] == 'w' ? TOUCH_WRITE : TOUCH_COW;
			na--;
		}
		if ((err = nargs(p, name, na, 2, 3,
				 touch ? "touch OFF LEN [STEP] [write|cow]"
				       : "madvise OFF LEN normal|random|sequential|willneed|dontneed|dontneed_locked|hugepage|nohugepage|cold|pageout|remove|populate_read|populate_write")))
			return err;
		if ((err = map_args(p, name, tok, op)))
			return err;
		if (touch) {
			if (op->wfault == TOUCH_COW && !p->cow_line) {
				p->cow_line = p->line;
				if ((err = cow_pageout(p)))
					return err;
			}
			op->kind = OP_TOUCH;
			op->count = RALAB_PAGE_SIZE;
			if (na == 3 && (err = arg_size(p, "step", tok[3], &op->count)))
				return err;
			if (!op->count)
				return perr(p, "step must not be 0");
			return prot_check(p, op, op->len, op->count,
					  op->wfault != 0, "touch");
		}
		op->kind = OP_MADVISE;
		if (na != 3)
			return perr(p, "wrong number of arguments for 'madvise' (usage: madvise OFF LEN normal|random|sequential|willneed|dontneed|dontneed_locked|hugepage|nohugepage|cold|pageout|remove|populate_read|populate_write)");
		/* madvise() takes a page-aligned start (else EINVAL). */
		if (op->off % RALAB_PAGE_SIZE)
			return perr(p, "madvise offset %llu is not a multiple of %u (madvise() would fail with EINVAL)",
				    (unsigned long long)op->off, RALAB_PAGE_SIZE);
		/*
		 * MADV_POPULATE_READ/_WRITE (5.14): the kernel faults each
		 * page of the range in, in order, as get_user_pages() does
		 * (faultin_page_range(): a page not present is a fault,
		 * with fault-around and retry, a present one is skipped):
		 * the same faults as a touch of every page, made by one
		 * call.  Checked against 6.18 (tests/cases/populate-*).
		 */
		if (!strcmp(tok[3], "populate_read") ||
		    !strcmp(tok[3], "populate_write")) {
			op->kind = OP_TOUCH;
			op->count = RALAB_PAGE_SIZE;
			op->populate = true;
			op->wfault = tok[3][9] == 'w' ? TOUCH_WRITE
						      : TOUCH_READ;
			return prot_check(p, op, op->len, RALAB_PAGE_SIZE,
					  op->wfault != 0, "madvise populate");
		}
		if (!strcmp(tok[3], "normal")) op->advice = MADV_NORMAL_;
		else if (!strcmp(tok[3], "random")) op->advice = MADV_RANDOM_;
		else if (!strcmp(tok[3], "sequential")) op->advice = MADV_SEQUENTIAL_;
		else if (!strcmp(tok[3], "willneed")) op->advice = MADV_WILLNEED_;
		else if (!strcmp(tok[3], "dontneed")) op->advice = MADV_DONTNEED_;
		else if (!strcmp(tok[3], "dontneed_locked")) op->advice = MADV_DONTNEED_LOCKED_;
		else if (!strcmp(tok[3], "hugepage")) op->advice = MADV_HUGEPAGE_;
		else if (!strcmp(tok[3], "nohugepage")) op->advice = MADV_NOHUGEPAGE_;
		else if (!strcmp(tok[3], "cold")) op->advice = MADV_COLD_;
		else if (!strcmp(tok[3], "pageout")) op->advice = MADV_PAGEOUT_;
		else if (!strcmp(tok[3], "remove")) {
			/*
			 * MADV_REMOVE (a shared mapping): madvise_remove()
			 * punches the file's range, vfs_fallocate(PUNCH_HOLE |
			 * KEEP_SIZE), the length rounded up to pages: a
			 * punch, made through the mapping.
			 */
			op->kind = OP_PUNCH;
			op->advice = 0;
			op->madv_remove = true;
			op->len = (op->len + RALAB_PAGE_SIZE - 1) &
				  ~(uint64_t)(RALAB_PAGE_SIZE - 1);
			if (!op->len)
				return perr(p, "madvise remove length must not be 0");
			return check_op_vs_config(p, wl, op);
		} else {
			return perr(p, "unknown advice '%.*s' (normal, random, sequential, willneed, dontneed, dontneed_locked, hugepage, nohugepage, cold, pageout, remove, populate_read, populate_write)",
				    TOK(tok[3]));
		}
		if (op->advice == MADV_PAGEOUT_ && !p->pageout_line) {
			p->pageout_line = p->line;
			return cow_pageout(p);
		}
		return 0;
	}
	if (!strcmp(name, "mlock") || !strcmp(name, "munlock")) {
		/*
		 * mlock OFF LEN [onfault]: mlock(2) (mlock2(MLOCK_ONFAULT))
		 * of the mapping's file range, munlock OFF LEN: munlock(2);
		 * rounded out to pages, as the kernel rounds the address
		 * range.
		 */
		bool on = name[1] == 'l';
		bool onfault = on && na == 3 && !strcmp(tok[3], "onfault");

		if ((err = nargs(p, name, onfault ? 2 : na, 2, 2,
				 on ? "mlock OFF LEN [onfault]"
				    : "munlock OFF LEN")))
			return err;
		if ((err = map_args(p, name, tok, op)))
			return err;
		if (!op->len)
			return perr(p, "%s length must not be 0", name);
		op->kind = OP_MLOCK;
		op->advice = !on ? MLOCK_OFF_ : onfault ? MLOCK_ONFAULT_ : MLOCK_ON_;
		if (op->advice == MLOCK_ON_ &&
		    (err = prot_check(p, op, op->len, RALAB_PAGE_SIZE, false,
				      "mlock")))
			return err;
		return 0;
	}
	if (!strcmp(name, "mprotect")) {
		/*
		 * mprotect OFF LEN PROT: mprotect(2) of the mapping's file
		 * range (rounded out to pages, as the kernel rounds the
		 * address range): VMAs whose protections change are split at
		 * its ends (fault-around and the exec window stop there, a
		 * PMD across a split goes); x makes the range VM_EXEC.
		 */
		if ((err = nargs(p, name, na, 3, 3, "mprotect OFF LEN none|r|rw|rx|rwx|x|w|wx")) ||
		    (err = map_args(p, name, tok, op)) ||
		    (err = parse_prot(p, tok[3], &op->advice)))
			return err;
		if (op->off % RALAB_PAGE_SIZE)
			return perr(p, "mprotect offset %llu is not a multiple of %u (mprotect() would fail with EINVAL)",
				    (unsigned long long)op->off, RALAB_PAGE_SIZE);
		if (!op->len)
			return perr(p, "mprotect length must not be 0");
		op->len = (op->len + RALAB_PAGE_SIZE - 1) &
			  ~(uint64_t)(RALAB_PAGE_SIZE - 1);
		op->kind = OP_MPROTECT;
		if (ralab__prot_set(p->map[op->map].prots,
				    &p->map[op->map].nr_prots, op->off,
				    op->off + op->len, (unsigned)op->advice))
			return perr(p, "too many 'mprotect' ranges in one mapping (at most %d)",
				    MAX_PROTS);
		return 0;
	}
	if (!strcmp(name, "pause") || !strcmp(name, "pace")) {
		if ((err = nargs(p, name, na, 1, 1,
				 name[2] == 'u' ? "pause USEC" : "pace USEC")))
			return err;
		if (parse_u64(tok[1], &v, false) || v > 1000000000000ull)
			return perr(p, "%s must be a whole number of microseconds up to 10^12, not '%.*s'",
				    name, TOK(tok[1]));
		op->kind = name[2] == 'u' ? OP_PAUSE : OP_PACE;
		op->len = v * 1000;
		return 0;
	}
	if (!strcmp(name, "epoch")) {
		/*
		 * The job's clock starts here (fio's td->epoch, set after
		 * pre_read): its think time, rate and runtime count from
		 * this op, not from the job's start.
		 */
		struct wl_job *j = &wl->jobs[wl->nr_jobs - 1];

		if ((err = nargs(p, name, na, 0, 0, "epoch")))
			return err;
		if (j->epoch_line)
			return perr(p, "a second 'epoch' in job '%s' (the first is on line %u)",
				    j->name[0] ? j->name : "job0", j->epoch_line);
		if (j->repeat)
			return perr(p, "'epoch' after 'repeat' in job '%s' (line %u): the repeated ops would start the clock again",
				    j->name[0] ? j->name : "job0", j->repeat_line);
		j->epoch_line = p->line;
		op->kind = OP_EPOCH;
		return 0;
	}
	if (!strcmp(name, "cached")) {
		/*
		 * Folios the page cache had before the case began, as
		 * 'ralab record -p' found them at the attach (their orders
		 * and readahead marks from /proc/kpageflags): put there
		 * without I/O and without events.
		 */
		bool mark = na >= 3 && !strcmp(tok[na], "readahead");
		unsigned nn = na - (mark ? 1 : 0);
		unsigned min_order = ralab__min_order(wl->cfg.block_size);
		uint64_t unit;

		if ((err = nargs(p, name, nn, 2, 3,
				 "cached OFF LEN [ORDER] [readahead]")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "cached offset", tok[1], &op->off)) ||
		    (err = arg_size(p, "cached length", tok[2], &op->len)))
			return err;
		op->count = min_order;
		if (nn == 3 && (parse_u64(tok[3], &op->count, false) ||
				op->count > RALAB_MAX_ORDER))
			return perr(p, "cached: the folio order must be 0 to %u, not '%.*s'",
				    RALAB_MAX_ORDER, TOK(tok[3]));
		if (op->count < min_order)
			return perr(p, "cached: order %llu is below the smallest folio of %u-byte blocks (order %u)",
				    (unsigned long long)op->count,
				    wl->cfg.block_size, min_order);
		unit = RALAB_PAGE_SIZE << op->count;
		if (!op->len || op->off % unit || op->len % unit)
			return perr(p, "cached [%llu, +%llu): offset and length must be whole folios of order %llu (%llu bytes), the length not 0",
				    (unsigned long long)op->off,
				    (unsigned long long)op->len,
				    (unsigned long long)op->count,
				    (unsigned long long)unit);
		op->kind = OP_CACHED;
		op->advice = mark;
		return 0;
	}
	if (!strcmp(name, "ra")) {
		/*
		 * The descriptor's file_ra_state, as 'ralab record -p' took
		 * it from the kernel's first readahead call on the file after
		 * the attach (the tracepoint prints what it found).
		 */
		uint64_t order = 0, miss = 0;
		int k;

		if ((err = need_fd(p, name, op)))
			return err;
		if (na < 1)
			return perr(p, "'ra' needs KEY=VALUE settings (start, size, async_size, order, mmap_miss, prev_pos)");
		op->stride = -1;
		for (k = 1; k <= na; k++) {
			const char *eq = strchr(tok[k], '=');
			size_t kl = eq ? (size_t)(eq - tok[k]) : 0;

#define RA_KEY(s) (kl == sizeof(s) - 1 && !strncmp(tok[k], s, kl))
			if (!eq)
				return perr(p, "ra: '%.*s' is not KEY=VALUE",
					    TOK(tok[k]));
			if (RA_KEY("prev_pos") && !strcmp(eq + 1, "-1")) {
				op->stride = -1;
				continue;
			}
			if (parse_u64(eq + 1, &v, false))
				return perr(p, "ra: %.*s needs a whole number",
					    TOK(tok[k]));
			if (RA_KEY("start"))
				op->off = v;
			else if (RA_KEY("size") && v <= UINT32_MAX)
				op->len = v;
			else if (RA_KEY("async_size") && v <= UINT32_MAX)
				op->count = v;
			else if (RA_KEY("order") && v <= RALAB_MAX_ORDER)
				order = v;
			else if (RA_KEY("mmap_miss") && v <= UINT16_MAX)
				miss = v;
			else if (RA_KEY("prev_pos") && v <= RALAB_MAX_POS)
				op->stride = (int64_t)v;
			else if (RA_KEY("start") || RA_KEY("size") ||
				 RA_KEY("async_size") || RA_KEY("order") ||
				 RA_KEY("mmap_miss") || RA_KEY("prev_pos"))
				return perr(p, "ra: %.*s is out of range",
					    TOK(tok[k]));
			else
				return perr(p, "ra: unknown key in '%.*s' (start, size, async_size, order, mmap_miss, prev_pos)",
					    TOK(tok[k]));
#undef RA_KEY
		}
		if (op->count > op->len)
			return perr(p, "ra: async_size %llu is larger than size %llu",
				    (unsigned long long)op->count,
				    (unsigned long long)op->len);
		op->seed = order | miss << 16;
		op->kind = OP_RA_STATE;
		return 0;
	}
	if (!strcmp(name, "dump")) {
		if ((err = nargs(p, name, na, 0, 0, "dump")))
			return err;
		op->kind = OP_DUMP;
		op->ino = p->cur_fd >= 0 ? p->fd_ino[p->cur_fd] : p->last_ino;
		return 0;
	}
	if (!strcmp(name, "map")) {
		/* map OFF: of the current descriptor's, the one from OFF. */
		unsigned k;

		if ((err = nargs(p, name, na, 1, 1, "map OFF")) ||
		    (err = need_fd(p, name, op)) ||
		    (err = arg_size(p, "offset", tok[1], &op->off)))
			return err;
		for (k = 0; k < MAX_MAPS; k++)
			if (p->map[k].live && p->map[k].fd == op->fd &&
			    p->map[k].off == op->off)
				break;
		if (k == MAX_MAPS)
			return perr(p, "'map %llu': no mapping of the current descriptor starts there",
				    (unsigned long long)op->off);
		p->sel_map = k + 1;
		return 1; /* nothing to run */
	}
	if (!strcmp(name, "munmap")) {
		unsigned k, last = MAX_MAPS;

		if ((err = nargs(p, name, na, 0, 2, "munmap [OFF [LEN]]")))
			return err;
		if (!map_any(p))
			return perr(p, "'munmap' with no mapping");
		if (na == 2)
			return munmap_part(p, tok, op);
		if (na == 1) {
			/* The mapping holding OFF. */
			if ((err = arg_size(p, "offset", tok[1], &op->off)) ||
			    (err = map_find(p, name, op, op->off, 1)))
				return err;
		} else {
			/* The last one made. */
			for (k = 0; k < MAX_MAPS; k++)
				if (p->map[k].live &&
				    (last == MAX_MAPS || p->map[k].seq > p->map[last].seq))
					last = k;
			op->map = last;
		}
		op->kind = OP_MUNMAP;
		p->map[op->map].live = false;
		if (p->sel_map == op->map + 1)
			p->sel_map = 0;
		return 0;
	}
	return -ENOENT;
}

static int parse_job_line(struct parser *p, struct ralab_workload *wl,
			  char **tok, int na);

static int parse_op(struct parser *p, struct ralab_workload *wl, char **tok,
		    int nt)
{
	struct op op = { .line = p->line, .seed = RALAB_DEFAULT_SEED };
	const char *name = tok[0];
	int na = nt - 1, err;

	err = parse_job_line(p, wl, tok, na);
	if (err <= 0)
		return err;
	if (p->job_needs_fd) {
		struct op o = { .line = p->line };

		/* A job reads through a descriptor of its own on 'main'. */
		struct wl_job *j = &wl->jobs[wl->nr_jobs - 1];

		p->job_needs_fd = false;
		if ((err = new_fd(p, wl, 0, &o)) || (err = add_op(wl, &o)))
			return err;
		/* 'repeat' before it: the descriptor is opened once. */
		if (j->repeat && j->first_op + j->repeat_op + 1 == wl->nr_ops)
			j->repeat_op++;
	}
	err = parse_fd_op(p, wl, tok, na, &op);
	if (err == 1)
		return 0;
	if (!err)
		return add_op(wl, &op);
	if (err != -ENOENT)
		return err;
	if (strcmp(name, "read") && strcmp(name, "pread") &&
	    strcmp(name, "splice") && strcmp(name, "sendfile") &&
	    strcmp(name, "seek") && strcmp(name, "rand-pread") &&
	    strcmp(name, "stride-pread") && strcmp(name, "shuffle-pread") &&
	    strcmp(name, "fio-pread") && strcmp(name, "write") &&
	    strcmp(name, "pwrite") && strcmp(name, "fio-pwrite"))
		return perr(p, "unknown op '%.*s' (ops: read, pread, splice, sendfile, seek, rand-pread, stride-pread, shuffle-pread, fio-pread, write, pwrite, fio-pwrite, fsync, truncate, fallocate, punch, zero-range, open, close, setfl, rwf, via, fd, file, use, fadvise, readahead, mmap, mmap-read, map, touch, madvise, mlock, munlock, mprotect, munmap, memcpy, pause, pace, epoch, dump)",
			    TOK(name));
	if ((err = need_fd(p, name, &op)))
		return err;
	op.direct = p->fd_direct[op.fd];
	op.dontcache = p->fd_rwf[op.fd];
	op.splice = p->fd_splice[op.fd];

	if (!strcmp(name, "read")) {
		op.kind = OP_READ;
		if ((err = nargs(p, name, na, 1, 2, "read LEN [COUNT|eof]")) ||
		    (err = arg_size(p, "read length", tok[1], &op.len)))
			return err;
		if (na == 1 || !strcmp(tok[2], "eof")) {
			op.to_eof = true;
			if (!op.len)
				return perr(p, "read length must not be 0 when reading to EOF");
		} else if ((err = arg_count(p, "read count", tok[2],
					    &op.count))) {
			return err;
		}
	} else if (!strcmp(name, "pread")) {
		op.kind = OP_PREAD;
		if ((err = nargs(p, name, na, 2, 2, "pread OFF LEN")) ||
		    (err = arg_size(p, "pread offset", tok[1], &op.off)) ||
		    (err = arg_size(p, "pread length", tok[2], &op.len)))
			return err;
		if (op.len > RALAB_MAX_POS - op.off)
			return perr(p, "pread range ends past 2^63 - 1");
	} else if (!strcmp(name, "splice") || !strcmp(name, "sendfile")) {
		/*
		 * splice OFF LEN [PAGES]: splice(2) from the file at OFF into
		 * a pipe with PAGES free buffers (16: a new pipe, emptied);
		 * sendfile OFF LEN [BYTES]: sendfile(2) (or copy_file_range(2)
		 * falling back to splicing), whose pipe is emptied after each
		 * splice, stopping once BYTES (LEN) went through.
		 */
		bool sf = name[1] == 'e';

		op.kind = sf ? OP_SENDFILE : OP_SPLICE;
		if ((err = nargs(p, name, na, 2, 3,
				 sf ? "sendfile OFF LEN [BYTES]"
				    : "splice OFF LEN [PAGES]")) ||
		    (err = arg_size(p, sf ? "sendfile offset" : "splice offset",
				    tok[1], &op.off)) ||
		    (err = arg_size(p, sf ? "sendfile length" : "splice length",
				    tok[2], &op.len)))
			return err;
		if (op.len > RALAB_MAX_POS - op.off)
			return perr(p, "%s range ends past 2^63 - 1", name);
		op.count = sf ? op.len : PIPE_DEF_BUFFERS;
		if (na == 3 && sf &&
		    (parse_u64(tok[3], &op.count, true) || op.count > op.len))
			return perr(p, "sendfile bytes must be a size up to its length (%llu), not '%.*s'",
				    (unsigned long long)op.len, TOK(tok[3]));
		if (na == 3 && !sf &&
		    (parse_u64(tok[3], &op.count, false) || !op.count ||
		     op.count > PIPE_MAX_BUFFERS))
			return perr(p, "splice pages must be a number of free pipe buffers from 1 to %u, not '%.*s'",
				    PIPE_MAX_BUFFERS, TOK(tok[3]));
	} else if (!strcmp(name, "write")) {
		op.kind = OP_WRITE;
		op.count = 1;
		if ((err = nargs(p, name, na, 1, 2, "write LEN [COUNT]")) ||
		    (err = arg_size(p, "write length", tok[1], &op.len)) ||
		    (na == 2 &&
		     (err = arg_count(p, "write count", tok[2], &op.count))))
			return err;
	} else if (!strcmp(name, "pwrite")) {
		op.kind = OP_PWRITE;
		if ((err = nargs(p, name, na, 2, 2, "pwrite OFF LEN")) ||
		    (err = arg_size(p, "pwrite offset", tok[1], &op.off)) ||
		    (err = arg_size(p, "pwrite length", tok[2], &op.len)))
			return err;
		if ((err = check_op_vs_config(p, wl, &op)))
			return err;
	} else if (!strcmp(name, "seek")) {
		op.kind = OP_SEEK;
		if ((err = nargs(p, name, na, 1, 1, "seek OFF")) ||
		    (err = arg_size(p, "seek offset", tok[1], &op.off)))
			return err;
	} else if (!strcmp(name, "rand-pread")) {
		op.kind = OP_RAND_PREAD;
		if ((err = nargs(p, name, na, 2, 3,
				 "rand-pread LEN COUNT [SEED]")) ||
		    (err = arg_size(p, "rand-pread length", tok[1], &op.len)) ||
		    (err = arg_count(p, "rand-pread count", tok[2], &op.count)))
			return err;
		if (!op.len)
			return perr(p, "rand-pread length must not be 0");
		if (na == 3 && parse_u64(tok[3], &op.seed, false))
			return perr(p, "rand-pread seed must be an unsigned 64-bit number, not '%.*s'",
				    TOK(tok[3]));
		if ((err = check_op_vs_config(p, wl, &op)))
			return err;
	} else if (!strcmp(name, "shuffle-pread")) {
		op.kind = OP_SHUFFLE_PREAD;
		if ((err = nargs(p, name, na, 3, 4,
				 "shuffle-pread OFF SIZE LEN [SEED]")) ||
		    (err = arg_region(p, name, tok, &op, &op.count)))
			return err;
		if (op.count > MAX_SHUFFLE_BLOCKS)
			return perr(p, "shuffle-pread of %llu blocks: at most 2^27",
				    (unsigned long long)op.count);
		if (na == 4 && parse_u64(tok[4], &op.seed, false))
			return perr(p, "shuffle-pread seed must be an unsigned 64-bit number, not '%.*s'",
				    TOK(tok[4]));
	} else if (!strcmp(name, "fio-pread") || !strcmp(name, "fio-pwrite")) {
		bool w = !strcmp(name, "fio-pwrite");
		int k;

		/*
		 * fio's random reads: COUNT blocks of LEN bytes in
		 * [OFF, OFF + SIZE), drawn as fio 3.x draws them with the
		 * offset generator seeded with SEED (fio_rand.c); fio-pwrite
		 * writes them (fio's randwrite; no 'cont').
		 */
		op.kind = w ? OP_FIO_PWRITE : OP_FIO_PREAD;
		if ((err = nargs(p, name, na, 5, w ? 7 : 8,
				 w ? "fio-pwrite OFF SIZE LEN COUNT SEED [nomap] [t64]"
				   : "fio-pread OFF SIZE LEN COUNT SEED [nomap] [cont] [t64]")) ||
		    (err = arg_region(p, name, tok, &op, &op.blocks)) ||
		    (err = arg_count(p, w ? "fio-pwrite count" : "fio-pread count",
				     tok[4], &op.count)))
			return err;
		for (k = 6; k <= na; k++) {
			if (!strcmp(tok[k], "nomap") && !op.nomap)
				op.nomap = true;
			else if (!w && !strcmp(tok[k], "cont") && !op.cont)
				op.cont = true;
			else if (!strcmp(tok[k], "t64") && !op.t64)
				op.t64 = true;
			else
				return perr(p, "%s: '%.*s' is not %s (each at most once)",
					    name, TOK(tok[k]),
					    w ? "'nomap' or 't64'" : "'nomap', 'cont' or 't64'");
		}
		if (parse_u64(tok[5], &op.seed, false) ||
		    (!op.t64 && op.seed > UINT32_MAX))
			return perr(p, "%s seed must be an unsigned %s-bit number, not '%.*s'",
				    name, op.t64 ? "64" : "32", TOK(tok[5]));
		if (op.count > MAX_SHUFFLE_BLOCKS)
			return perr(p, "%s of %llu %s: at most 2^27", name,
				    (unsigned long long)op.count,
				    w ? "writes" : "reads");
		/* fio's 32-bit generator; the map is a bit per block. */
		if (op.blocks > (!op.nomap ? MAX_SHUFFLE_BLOCKS
			     : op.t64 ? UINT64_MAX : UINT32_MAX))
			return perr(p, "%s over %llu blocks: at most %s", name,
				    (unsigned long long)op.blocks,
				    op.nomap ? "2^32 - 1 (without t64)" : "2^27 with the random map");
		if (!op.nomap && op.count > op.blocks)
			return perr(p, "%s: %llu %s of %llu blocks: with the random map each block is %s once (add 'nomap')",
				    name, (unsigned long long)op.count,
				    w ? "writes" : "reads",
				    (unsigned long long)op.blocks,
				    w ? "written" : "read");
		if (w && (err = check_op_vs_config(p, wl, &op)))
			return err;
	} else if (!strcmp(name, "stride-pread")) {
		int64_t stride;
		uint64_t mag, span;

		op.kind = OP_STRIDE_PREAD;
		if ((err = nargs(p, name, na, 4, 4,
				 "stride-pread OFF LEN STRIDE COUNT")) ||
		    (err = arg_size(p, "stride-pread offset", tok[1], &op.off)) ||
		    (err = arg_size(p, "stride-pread length", tok[2], &op.len)))
			return err;
		/* A negative stride reads backwards. */
		if ((err = arg_size(p, "stride-pread stride",
				    tok[3][0] == '-' ? tok[3] + 1 : tok[3],
				    &mag)) ||
		    (err = arg_count(p, "stride-pread count", tok[4], &op.count)))
			return err;
		stride = tok[3][0] == '-' ? -(int64_t)mag : (int64_t)mag;
		op.stride = stride;
		if ((op.count - 1) && mag > RALAB_MAX_POS / (op.count - 1))
			return perr(p, "stride-pread reaches past 2^63 - 1");
		span = mag * (op.count - 1);
		if (stride < 0 && span > op.off)
			return perr(p, "stride-pread goes below offset 0 (offset %llu, %llu preads %llu bytes apart)",
				    (unsigned long long)op.off,
				    (unsigned long long)op.count,
				    (unsigned long long)mag);
		if (stride >= 0 && (span > RALAB_MAX_POS - op.off ||
				    op.len > RALAB_MAX_POS - op.off - span))
			return perr(p, "stride-pread reaches past 2^63 - 1");
		if (stride < 0 && op.len > RALAB_MAX_POS - op.off)
			return perr(p, "stride-pread reaches past 2^63 - 1");
	}
	if (p->fd_direct[op.fd] && ((op.off | op.len | (uint64_t)op.stride) &
				    (DIO_ALIGN - 1)))
		return perr(p, "%s through an O_DIRECT descriptor: offsets and lengths must be multiples of %u bytes (the device's logical block size)",
			    name, DIO_ALIGN);
	return add_op(wl, &op);
}

/*
 * job NAME, iodepth N, think USEC, wait, wait-for JOB..., delay USEC,
 * runtime USEC, repeat, exitall [SCOPE], rate-iops N, rate BYTES,
 * shared-fd.
 * Returns 1 for any other line, 0 when handled, or an error.
 */
static int parse_job_line(struct parser *p, struct ralab_workload *wl,
			  char **tok, int na)
{
	struct wl_job *j = &wl->jobs[wl->nr_jobs - 1];
	uint64_t v;
	int err;

	if (!strcmp(tok[0], "job")) {
		if ((err = nargs(p, tok[0], na, 1, 1, "job NAME")))
			return err;
		if (strlen(tok[1]) >= sizeof(j->name))
			return perr(p, "job name '%.*s' is longer than 31 characters", TOK(tok[1]));
		if (wl->nr_jobs == 1 && !wl->nr_ops && !j->name[0]) {
			/* The first job owns descriptor 0. */
		} else {
			if (wl->nr_jobs == MAX_JOBS)
				return perr(p, "too many jobs (at most %d)", MAX_JOBS);
			j->nr_ops = wl->nr_ops - j->first_op;
			j = &wl->jobs[wl->nr_jobs++];
			memset(j, 0, sizeof(*j));
			j->first_op = wl->nr_ops;
			j->iodepth = 1;
			p->job_needs_fd = true;
			memset(p->map, 0, sizeof(p->map));
			p->sel_map = 0;
		}
		snprintf(j->name, sizeof(j->name), "%s", tok[1]);
		j->line = p->line;
		return 0;
	}
	if (!strcmp(tok[0], "iodepth") || !strcmp(tok[0], "think")) {
		if ((err = nargs(p, tok[0], na, 1, 2,
				 tok[0][0] == 'i' ? "iodepth N [threads|ring]" : "think USEC [EVERY]")) ||
		    (err = parse_u64(tok[1], &v, false) ? perr(p, "%s must be a whole number, not '%.*s'", tok[0], TOK(tok[1])) : 0))
			return err;
		if (tok[0][0] == 'i') {
			if (!v || v > 1024)
				return perr(p, "iodepth must be from 1 to 1024");
			j->iodepth = (unsigned)v;
			/*
			 * threads: N tasks doing blocking preads; ring: N
			 * preads in flight, issued in order by one task (see
			 * engine.c), as buffered io_uring reads are.
			 */
			if (na == 2 && strcmp(tok[2], "threads") && strcmp(tok[2], "ring"))
				return perr(p, "iodepth N takes threads or ring, not '%.*s'",
					    TOK(tok[2]));
			j->ring = na == 2 && !strcmp(tok[2], "ring");
		} else {
			if (v > 1000000000ull)
				return perr(p, "think time must be at most 10^9 microseconds");
			j->think_ns = v * 1000;
			/* think USEC EVERY: after every EVERY-th read call. */
			j->think_every = 1;
			if (na == 2 && (parse_u64(tok[2], &v, false) || !v ||
					v > 1000000000ull))
				return perr(p, "think: EVERY must be a number of read calls from 1 to 10^9, not '%.*s'",
					    TOK(tok[2]));
			if (na == 2)
				j->think_every = (unsigned)v;
		}
		return 0;
	}
	if (!strcmp(tok[0], "wait-for")) {
		int a;

		if ((err = nargs(p, tok[0], na, 1, MAX_TOKENS - 1, "wait-for JOB...")))
			return err;
		for (a = 1; a <= na; a++) {
			struct pwait *pw;

			if (p->nr_wfor == sizeof(p->wfor) / sizeof(p->wfor[0]))
				return perr(p, "too many 'wait-for' names (at most %zu)",
					    sizeof(p->wfor) / sizeof(p->wfor[0]));
			pw = &p->wfor[p->nr_wfor];
			if (strlen(tok[a]) >= sizeof(pw->name))
				return perr(p, "job name '%.*s' is longer than 31 characters", TOK(tok[a]));
			pw->job = wl->nr_jobs - 1;
			pw->line = p->line;
			strcpy(pw->name, tok[a]);
			p->nr_wfor++;
		}
		return 0;
	}
	if (!strcmp(tok[0], "wait")) {
		if ((err = nargs(p, tok[0], na, 0, 0, tok[0])))
			return err;
		j->wait = true;
		return 0;
	}
	if (!strcmp(tok[0], "exitall")) {
		/* exitall [group|stonewall|all]: which jobs (fio's exit_what) */
		int w = na ? ralab__exit_what(tok[1]) : EXIT_GROUP;

		if ((err = nargs(p, tok[0], na, 0, 1, "exitall [group|stonewall|all]")))
			return err;
		if (w < 0)
			return perr(p, "exitall: '%.*s' is not group, stonewall or all",
				    TOK(tok[1]));
		j->exitall = true;
		j->exit_what = (unsigned char)w;
		return 0;
	}
	if (!strcmp(tok[0], "rate-iops") || !strcmp(tok[0], "rate")) {
		bool iops = tok[0][4] == '-';

		if ((err = nargs(p, tok[0], na, 1, 1,
				 iops ? "rate-iops N" : "rate BYTES_PER_SECOND")))
			return err;
		if (iops ? parse_u64(tok[1], &v, false) :
			   parse_u64(tok[1], &v, true))
			return perr(p, "%s must be a whole number%s, not '%.*s'", tok[0],
				    iops ? " of reads per second" : " of bytes per second (K, M, G allowed)",
				    TOK(tok[1]));
		if (!v || v > 1000000000000ull)
			return perr(p, "%s must be from 1 to 10^12", tok[0]);
		if (iops)
			j->rate_iops = v;
		else
			j->rate_bps = v;
		return 0;
	}
	if (!strcmp(tok[0], "delay")) {
		if ((err = nargs(p, tok[0], na, 1, 1, "delay USEC")))
			return err;
		if (parse_u64(tok[1], &v, false) || v > 1000000000000ull)
			return perr(p, "delay must be a whole number of microseconds up to 10^12, not '%.*s'",
				    TOK(tok[1]));
		j->delay_ns = v * 1000;
		return 0;
	}
	if (!strcmp(tok[0], "runtime")) {
		if ((err = nargs(p, tok[0], na, 1, 1, "runtime USEC")))
			return err;
		if (parse_u64(tok[1], &v, false))
			return perr(p, "runtime must be a whole number of microseconds, not '%.*s'",
				    TOK(tok[1]));
		if (!v || v > 1000000000000ull)
			return perr(p, "runtime must be from 1 to 10^12 microseconds");
		j->runtime_ns = v * 1000;
		j->runtime_line = p->line;
		return 0;
	}
	if (!strcmp(tok[0], "repeat")) {
		if ((err = nargs(p, tok[0], na, 0, 0, "repeat")))
			return err;
		if (j->repeat)
			return perr(p, "a second 'repeat' in job '%s' (the first is on line %u)",
				    j->name[0] ? j->name : "job0", j->repeat_line);
		j->repeat = true;
		j->repeat_op = wl->nr_ops - j->first_op;
		j->repeat_line = p->line;
		return 0;
	}
	if (!strcmp(tok[0], "shared-fd")) {
		if ((err = nargs(p, tok[0], na, 0, 0, "shared-fd")))
			return err;
		if (wl->nr_jobs < 2)
			return perr(p, "'shared-fd' belongs in a second or later job: it makes the job use descriptor 0");
		if (!p->job_needs_fd)
			return perr(p, "'shared-fd' must come before the job's first op");
		if (!p->fd_open[0])
			return perr(p, "'shared-fd': descriptor 0 is closed");
		p->job_needs_fd = false;
		p->cur_fd = 0;
		return 0;
	}
	return 1;
}

static int check_config(struct parser *p, struct ralab_workload *wl)
{
	const struct ralab_config *c = &wl->cfg;
	unsigned i;
	int err;

	p->line = wl->hdr_line[HDR_MAX_HW];
	if (c->max_hw_sectors_kb < 4 || c->max_hw_sectors_kb > (1u << 21))
		return perr(p, "max_hw_sectors_kb %u is out of range (4 to 2097152)",
			    c->max_hw_sectors_kb);
	p->line = wl->hdr_line[HDR_MSK];
	if (c->max_sectors_kb &&
	    (c->max_sectors_kb < 4 || c->max_sectors_kb > c->max_hw_sectors_kb))
		return perr(p, "max_sectors_kb %u is not accepted by the kernel: it must be 0 or from 4 to max_hw_sectors_kb (%u)",
			    c->max_sectors_kb, c->max_hw_sectors_kb);
	if (c->extent_kb &&
	    c->file_size / ((uint64_t)c->extent_kb * 1024) > UINT32_MAX) {
		p->line = 0;
		return perr(p, "extent_kb %u cuts the %llu-byte file into more than 2^32 extents",
			    c->extent_kb, (unsigned long long)c->file_size);
	}
	p->line = wl->hdr_line[HDR_BREAKS];
	if ((err = check_breaks(p, &wl->files[0], c->file_size,
				"extent_breaks", c->block_size)))
		return err;
	p->line = wl->hdr_line[HDR_HOLES];
	if ((err = check_holes(p, &wl->files[0], c->file_size,
			       c->block_size)))
		return err;
	p->line = wl->hdr_line[HDR_REBREAKS];
	if ((err = check_breaks(p, &(struct wl_file){
					   .brk = wl->files[0].rebrk,
					   .nbrk = wl->files[0].nrebrk },
				c->file_size, "rebreaks", c->block_size)))
		return err;
	p->line = wl->hdr_line[HDR_BLOCK_SIZE];
	if (c->block_size > RALAB_PAGE_SIZE && c->fs == RALAB_FS_EXT4)
		return perr(p, "block_size %u: ext4 on 6.18 mounts no block size above the page size (large block sizes are XFS's)",
			    c->block_size);
	if (c->block_size > RALAB_PAGE_SIZE &&
	    c->block_size > (RALAB_PAGE_SIZE << c->max_folio_order))
		return perr(p, "block_size %u is larger than the largest folio (order %u)",
			    c->block_size, c->max_folio_order);
	if (c->extent_kb && ((uint64_t)c->extent_kb << 10) % c->block_size) {
		if (wl->hdr_line[HDR_EXTENT_KB] > p->line)
			p->line = wl->hdr_line[HDR_EXTENT_KB];
		return perr(p, "extent_kb %u is not a multiple of the block size (%u bytes)",
			    c->extent_kb, c->block_size);
	}
	/* One fallocate(2) makes such a file: no layout of its own. */
	for (i = 0; i < wl->nr_files; i++) {
		const struct wl_file *f = &wl->files[i];

		if (!f->unwritten || (!f->nbrk && !f->nhole && !c->extent_kb))
			continue;
		p->line = i ? 0 : wl->hdr_line[HDR_UNWRITTEN];
		return perr(p, "file '%s' is unwritten: it cannot have breaks, holes or extent_kb too",
			    f->name);
	}
	return 0;
}

/* Set one header/config key from text; used by headers and overrides. */
static int set_key(struct parser *p, struct ralab_workload *wl,
		   const char *key, const char *val)
{
	uint64_t v;
	int err;

	if (!strcmp(key, "fs")) {
		if (!strcmp(val, "xfs"))
			wl->cfg.fs = RALAB_FS_XFS;
		else if (!strcmp(val, "ext4"))
			wl->cfg.fs = RALAB_FS_EXT4;
		else
			return perr(p, "fs must be xfs or ext4, not '%.*s'",
				    TOK(val));
		wl->hdr_line[HDR_FS] = p->line;
		return 0;
	}
	if (!strcmp(key, "file_size")) {
		if ((err = arg_size(p, "file_size", val, &v)))
			return err;
		wl->cfg.file_size = v;
		wl->hdr_line[HDR_FILE_SIZE] = p->line;
		return 0;
	}
	if (!strcmp(key, "device")) {
		if (ralab_config_device(&wl->cfg, val))
			return perr(p, "device must be loop, nvme, hdd or ideal, not '%.*s'",
				    TOK(val));
		return 0;
	}
	{
		static const char *const tkeys[] = {
			"dev_latency_us", "dev_bandwidth_mb", "dev_queue_depth",
			"cpu_syscall_ns", "cpu_folio_ns", "cpu_page_ns",
			"cpu_request_ns", "dev_iops", "dev_contention_ns",
		};
		size_t k;

		for (k = 0; k < sizeof(tkeys) / sizeof(tkeys[0]); k++) {
			if (strcmp(key, tkeys[k]))
				continue;
			err = parse_u64(val, &v, false);
			if (err || v > 1000000000ull || (k == 2 && (!v || v > 65536)))
				return perr(p, "%s must be a whole number%s, not '%.*s'",
					    key, k == 2 ? " from 1 to 65536" : " up to 10^9",
					    TOK(val));
			switch (k) {
			case 0: wl->cfg.dev_latency_ns = v * 1000; break;
			case 1: wl->cfg.dev_bandwidth = v * 1000000; break;
			case 2: wl->cfg.dev_queue_depth = (uint32_t)v; break;
			case 3: wl->cfg.cpu_syscall_ns = (uint32_t)v; break;
			case 4: wl->cfg.cpu_folio_ns = (uint32_t)v; break;
			case 5: wl->cfg.cpu_page_ns = (uint32_t)v; break;
			case 6: wl->cfg.cpu_request_ns = (uint32_t)v; break;
			case 7: wl->cfg.dev_iops = (uint32_t)v; break;
			default: wl->cfg.dev_contention_ns = (uint32_t)v; break;
			}
			return 0;
		}
	}
	if (!strcmp(key, "memcpy_back_min") || !strcmp(key, "memcpy_back_max")) {
		if ((err = arg_size(p, key, val, &v)))
			return err;
		if (key[13] == 'i')
			wl->cfg.memcpy_back_min = v;
		else
			wl->cfg.memcpy_back_max = v;
		return 0;
	}
	if (!strcmp(key, "alloc_fail_ppm") || !strcmp(key, "alloc_fail_order") ||
	    !strcmp(key, "alloc_fail_seed")) {
		uint64_t max = key[11] == 'p' ? 1000000 :
			       key[11] == 'o' ? RALAB_MAX_ORDER : UINT64_MAX;

		err = parse_u64(val, &v, false);
		if (err || v > max)
			return perr(p, "%s must be a whole number from 0 to %llu, not '%.*s'",
				    key, (unsigned long long)max, TOK(val));
		if (key[11] == 'p')
			wl->cfg.alloc_fail_ppm = (uint32_t)v;
		else if (key[11] == 'o')
			wl->cfg.alloc_fail_order = (uint32_t)v;
		else
			wl->cfg.alloc_fail_seed = v;
		return 0;
	}
	/*
	 * extent_breaks; rebreaks: where the file is apart once truncated
	 * and written anew (what 'ralab check' takes from a recording), from
	 * its first truncate on instead of extent_breaks.
	 */
	if (!strcmp(key, "extent_breaks") || !strcmp(key, "rebreaks")) {
		bool re = key[0] == 'r';
		struct wl_file *f = &wl->files[0];
		uint64_t *brk;
		unsigned n;

		if ((err = parse_breaks(p, val, &brk, &n)))
			return err;
		free(re ? f->rebrk : f->brk);
		*(re ? &f->rebrk : &f->brk) = brk;
		*(re ? &f->nrebrk : &f->nbrk) = n;
		f->rebrk_given |= re;
		wl->hdr_line[re ? HDR_REBREAKS : HDR_BREAKS] = p->line;
		return 0;
	}
	if (!strcmp(key, "holes")) {
		uint64_t *h;
		unsigned n;

		if ((err = parse_holes(p, val, &h, &n)))
			return err;
		free(wl->files[0].hole);
		wl->files[0].hole = h;
		wl->files[0].nhole = n;
		wl->hdr_line[HDR_HOLES] = p->line;
		return 0;
	}
	if (!strcmp(key, "phys_merge")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			return perr(p, "phys_merge must be 0 (no two folios adjacent in memory) or 1 (a read's folios one after another), not '%.*s'",
				    TOK(val));
		wl->cfg.phys_merge = val[0] == '1';
		return 0;
	}
	if (!strcmp(key, "unwritten")) {
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return perr(p, "unwritten must be yes or no, not '%.*s'",
				    TOK(val));
		wl->files[0].unwritten = !strcmp(val, "yes");
		wl->hdr_line[HDR_UNWRITTEN] = p->line;
		return 0;
	}
	if (!strcmp(key, "block_size")) {
		err = arg_size(p, "block_size", val, &v);
		if (err)
			return err;
		if (v < RALAB_PAGE_SIZE || v > 65536 || (v & (v - 1)))
			return perr(p, "block_size must be a power of 2 from 4096 to 65536, not '%.*s'",
				    TOK(val));
		wl->cfg.block_size = (uint32_t)v;
		wl->hdr_line[HDR_BLOCK_SIZE] = p->line;
		return 0;
	}
	if (!strcmp(key, "extent_kb")) {
		err = parse_u64(val, &v, false);
		if (err || v % 4 || v > (1u << 30))
			return perr(p, "extent_kb must be 0 (one extent per file) or a multiple of 4 up to 1073741824, not '%.*s'",
				    TOK(val));
		wl->cfg.extent_kb = (uint32_t)v;
		wl->hdr_line[HDR_EXTENT_KB] = p->line;
		return 0;
	}
	if (!strcmp(key, "read_ahead_kb") || !strcmp(key, "max_sectors_kb") ||
	    !strcmp(key, "max_hw_sectors_kb")) {
		err = parse_u64(val, &v, false);
		if (err || v > UINT32_MAX)
			return perr(p, "%s must be a whole number of KiB from 0 to 4294967295, not '%.*s'",
				    key, TOK(val));
		if (key[1] == 'e') {
			wl->cfg.read_ahead_kb = (uint32_t)v;
			wl->hdr_line[HDR_RA_KB] = p->line;
		} else if (key[4] == 's') {
			wl->cfg.max_sectors_kb = (uint32_t)v;
			wl->hdr_line[HDR_MSK] = p->line;
		} else {
			wl->cfg.max_hw_sectors_kb = (uint32_t)v;
			wl->hdr_line[HDR_MAX_HW] = p->line;
		}
		return 0;
	}
	return 1; /* not a key of ours */
}

/* Split @s in place on blanks; returns the number of tokens. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A header comment "# key: value"; returns 1 if it is not one. */
static int parse_header(struct parser *p, struct ralab_workload *wl,
			char *c)
{
	char *key, *val, *colon, *end;

	c++; /* '#' */
	while (*c == ' ' || *c == '\t')
		c++;
	key = c;
	colon = strchr(c, ':');
	if (!colon)
		return 1;
	for (end = colon; end > key && (end[-1] == ' ' || end[-1] == '\t');)
		end--;
	*end = '\0';
	val = colon + 1;
	while (*val == ' ' || *val == '\t')
		val++;
	for (end = val + strlen(val);
	     end > val && (end[-1] == ' ' || end[-1] == '\t');)
		end--;
	*end = '\0';
	return set_key(p, wl, key, val);
}

int ralab_workload_parse(const char *name, const char *text, size_t len,
			 struct ralab_workload **out, struct ralab_diag *diag)
{
	struct parser p = { .name = name, .diag = diag };
	struct ralab_workload *wl;
	struct op first = { 0 };
	char *buf, *line, *next;
	int err = 0;
	unsigned i;

	*out = NULL;
	if (diag)
		diag->msg[0] = '\0';
	wl = calloc(1, sizeof(*wl));
	buf = malloc(len + 1);
	if (wl)
		wl->text = malloc(len + 1);
	if (!wl || !buf || !wl->text || !(wl->name = strdup(name))) {
		free(buf);
		ralab_workload_free(wl);
		return -ENOMEM;
	}
	memcpy(wl->text, text, len);
	wl->text[len] = '\0';
	ralab_config_default(&wl->cfg);
	/* One job to begin with; 'job' lines add more. */
	wl->nr_jobs = 1;
	wl->jobs[0].iodepth = 1;
	/* The case's file, opened once as descriptor 0. */
	wl->nr_files = 1;
	strcpy(wl->files[0].name, "main");
	new_fd(&p, wl, 0, &first);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (memchr(text, '\0', len)) {
		p.line = 1;
		for (i = 0; i < len && text[i]; i++)
			p.line += text[i] == '\n';
		err = perr(&p, "NUL byte in the file: not a text workload");
		goto out;
	}

	for (line = buf; line && !err; line = next) {
		char *tok[MAX_TOKENS + 1], *hash, *end;
		int nt;

		p.line++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		end = line + strlen(line);
		if (end > line && end[-1] == '\r')
			end[-1] = '\0';
		hash = strchr(line, '#');
		if (hash) {
			/* Headers count only before the first op. */
			if (!wl->nr_ops) {
				char *s = line;

				while (*s == ' ' || *s == '\t')
					s++;
				if (s == hash) {
					err = parse_header(&p, wl, hash);
					if (err > 0)
						err = 0;
					continue;
				}
			}
			*hash = '\0';
		}
		nt = tokenize(line, tok, MAX_TOKENS);
		if (!nt)
			continue;
		if (nt > MAX_TOKENS) {
			err = perr(&p, "too many fields");
			break;
		}
		if (!wl->nr_ops) {
			unsigned saved = p.line;

			err = check_config(&p, wl);
			p.line = saved;
			if (err)
				break;
		}
		err = parse_op(&p, wl, tok, nt);
	}
	if (!err && !wl->nr_ops) {
		p.line = 0;
		err = check_config(&p, wl);
		if (!err)
			err = perr(&p, "no ops: nothing to run");
	}
	wl->files[0].size = wl->cfg.file_size;
	wl->jobs[wl->nr_jobs - 1].nr_ops =
		wl->nr_ops - wl->jobs[wl->nr_jobs - 1].first_op;
	if (!err && !wl->jobs[0].name[0])
		strcpy(wl->jobs[0].name, "job0");
	for (i = 0; !err && i < wl->nr_jobs; i++) {
		const struct wl_job *j = &wl->jobs[i];

		if (!j->nr_ops) {
			p.line = j->line;
			err = perr(&p, "job '%s' has no ops", j->name);
		} else if (j->repeat && j->repeat_op >= j->nr_ops) {
			p.line = j->repeat_line;
			err = perr(&p, "'repeat' is not followed by any op of job '%s'", j->name);
		} else if (j->repeat && !j->runtime_ns) {
			p.line = j->repeat_line;
			err = perr(&p, "'repeat' needs a 'runtime' in job '%s' (else it never ends)", j->name);
		}
	}
	if (!err)
		err = wait_for(&p, wl);
	if (!err)
		err = check_mapped_sizes(&p, wl);
	if (!err)
		err = check_direct_writes(&p, wl);
	if (!err)
		err = check_punches(&p, wl);
	if (!err)
		err = check_holed_truncates(&p, wl);
out:
	free(buf);
	if (err) {
		ralab_workload_free(wl);
		return err;
	}
	*out = wl;
	return 0;
}

int ralab_workload_set(struct ralab_workload *wl, const char *key,
		       const char *value, struct ralab_diag *diag)
{
	struct parser p = { .name = wl->name, .diag = diag };
	struct ralab_config saved = wl->cfg;
	unsigned lines[HDR_NR], i;
	int err;

	struct wl_file f0 = wl->files[0];
	bool brk = !strcmp(key, "extent_breaks"), hole = !strcmp(key, "holes");

	memcpy(lines, wl->hdr_line, sizeof(lines));
	/* set_key() replaces a list; the old one is kept until the new holds. */
	if (brk) {
		wl->files[0].brk = NULL;
		wl->files[0].nbrk = 0;
	}
	if (hole) {
		wl->files[0].hole = NULL;
		wl->files[0].nhole = 0;
	}
	err = set_key(&p, wl, key, value);
	if (err > 0) {
		p.name = "option";
		return perr(&p, "unknown setting '%.*s' (settings: fs, file_size, read_ahead_kb, max_sectors_kb, max_hw_sectors_kb, device, dev_latency_us, dev_bandwidth_mb, dev_queue_depth, dev_iops, dev_contention_ns, cpu_syscall_ns, cpu_folio_ns, cpu_page_ns, cpu_request_ns, alloc_fail_ppm, alloc_fail_order, alloc_fail_seed, memcpy_back_min, memcpy_back_max, extent_kb, block_size, extent_breaks, holes, unwritten, phys_merge)",
			    TOK(key));
	}
	if (!err)
		err = check_config(&p, wl);
	for (i = 0; !err && i < wl->nr_ops; i++) {
		p.line = wl->ops[i].line;
		err = check_op_vs_config(&p, wl, &wl->ops[i]);
	}
	for (i = 0; !err && i < wl->nr_files; i++) {
		p.line = 0;
		err = check_breaks(&p, &wl->files[i], wl->files[i].size,
				   "extent_breaks", wl->cfg.block_size);
		if (!err)
			err = check_holes(&p, &wl->files[i], wl->files[i].size,
					  wl->cfg.block_size);
	}
	if (!err)
		err = check_mapped_sizes(&p, wl);
	if (!err)
		err = check_direct_writes(&p, wl);
	if (!err)
		err = check_punches(&p, wl);
	if (!err)
		err = check_holed_truncates(&p, wl);
	if (err) {
		wl->cfg = saved;
		memcpy(wl->hdr_line, lines, sizeof(lines));
		if (brk) {
			free(wl->files[0].brk);
			wl->files[0].brk = f0.brk;
			wl->files[0].nbrk = f0.nbrk;
		}
		if (hole) {
			free(wl->files[0].hole);
			wl->files[0].hole = f0.hole;
			wl->files[0].nhole = f0.nhole;
		}
	} else {
		if (brk)
			free(f0.brk);
		if (hole)
			free(f0.hole);
	}
	wl->files[0].size = wl->cfg.file_size;
	return err;
}

unsigned ralab_workload_breaks(const struct ralab_workload *wl, unsigned file,
			       uint64_t *ofs, unsigned max)
{
	const struct wl_file *f;

	if (file >= wl->nr_files)
		return 0;
	f = &wl->files[file];
	if (ofs && f->nbrk)
		memcpy(ofs, f->brk,
		       (size_t)(max < f->nbrk ? max : f->nbrk) * sizeof(*ofs));
	return f->nbrk;
}

/*
 * File @file's extent starts, checked and copied: its breaks, or
 * (@rewrite) those it has once truncated and written anew.
 */
static int set_breaks(struct ralab_workload *wl, unsigned file,
		      const uint64_t *ofs, unsigned n, struct ralab_diag *diag,
		      bool rewrite, unsigned gen)
{
	struct parser p = { .name = wl->name, .diag = diag };
	struct wl_file f, *w;
	uint64_t *brk = NULL;
	int err;

	if (file >= wl->nr_files)
		return perr(&p, "extent breaks for file %u: the case has %u file(s)",
			    file, wl->nr_files);
	if (n) {
		brk = malloc((size_t)n * sizeof(*brk));
		if (!brk)
			return -ENOMEM;
		memcpy(brk, ofs, (size_t)n * sizeof(*brk));
	}
	f = (struct wl_file){ .brk = brk, .nbrk = n };
	err = check_breaks(&p, &f, wl->files[file].size, "extent_breaks",
			   wl->cfg.block_size);
	if (err) {
		free(brk);
		return err;
	}
	w = &wl->files[file];
	if (gen) {
		if (gen > w->nregen) {
			struct wl_gen *g = realloc(w->regen, gen * sizeof(*g));

			if (!g) {
				free(brk);
				return -ENOMEM;
			}
			memset(g + w->nregen, 0,
			       (gen - w->nregen) * sizeof(*g));
			w->regen = g;
			w->nregen = gen;
		}
		free(w->regen[gen - 1].brk);
		w->regen[gen - 1] = (struct wl_gen){ brk, n, true };
	} else if (rewrite) {
		free(w->rebrk);
		w->rebrk = brk;
		w->nrebrk = n;
		w->rebrk_given = true;
	} else {
		free(w->brk);
		w->brk = brk;
		w->nbrk = n;
	}
	return 0;
}

int ralab_workload_set_breaks(struct ralab_workload *wl, unsigned file,
			      const uint64_t *ofs, unsigned n,
			      struct ralab_diag *diag)
{
	return set_breaks(wl, file, ofs, n, diag, false, 0);
}

int ralab_workload_set_rebreaks(struct ralab_workload *wl, unsigned file,
				const uint64_t *ofs, unsigned n,
				struct ralab_diag *diag)
{
	return set_breaks(wl, file, ofs, n, diag, true, 0);
}

int ralab_workload_set_rebreaks_gen(struct ralab_workload *wl, unsigned file,
				    unsigned gen, const uint64_t *ofs,
				    unsigned n, struct ralab_diag *diag)
{
	if (!gen || gen > 1u << 20) {
		struct parser p = { .name = wl->name, .diag = diag };

		return perr(&p, "rebreaks of generation %u: generations count from 1",
			    gen);
	}
	return set_breaks(wl, file, ofs, n, diag, true, gen);
}

int ralab__read_fd(int fd, uint64_t max, char **text, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *t;

			if (cap > max) {
				free(buf);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 65536;
			if (cap > max)
				cap = (size_t)max + 1; /* room to see it is more */
			t = realloc(buf, cap);
			if (!t) {
				free(buf);
				return -ENOMEM;
			}
			buf = t;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*text = buf;
	*len = n;
	return 0;
}

int ralab__read_regular(const char *path, uint64_t max, char **text,
			size_t *len, bool *opened)
{
	struct stat sb;
	int fd, err;

	/* O_NONBLOCK: a FIFO must not hang the parser before fstat(). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	*opened = fd >= 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		err = -EINVAL;
	else
		err = ralab__read_fd(fd, max, text, len);
	close(fd);
	return err;
}

int ralab_workload_load(const char *path, struct ralab_workload **out,
			struct ralab_diag *diag)
{
	return ralab_workload_load_opts(path, NULL, out, diag);
}

int ralab_workload_load_opts(const char *path,
			     const struct ralab_load_opts *lo,
			     struct ralab_workload **out,
			     struct ralab_diag *diag)
{
	struct parser p = { .name = path, .diag = diag };
	char *text = NULL;
	size_t len = 0;
	int fd, err;

	*out = NULL;
	/* Not a file but a fio command line, in one argument. */
	if (ralab__is_fio_cmdline(path) && access(path, F_OK)) {
		char *ops, *job_file;

		err = ralab__fio_cmdline_to_ops(path, lo, &ops, &job_file,
						diag);
		if (err)
			return err;
		if (job_file) {
			/* "fio job.fio": the file (it exists: not a line). */
			err = ralab_workload_load_opts(job_file, lo, out, diag);
			free(job_file);
			return err;
		}
		err = ralab_workload_parse("fio command line (as .ops)", ops,
					   strlen(ops), out, diag);
		free(ops);
		return err;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		perr(&p, "cannot open: %s", strerror(-err));
		return err;
	}
	{
		struct stat sb;
		size_t pl = strlen(path);

		/* A recorded case's directory: its case.ops (tests/cases/X/). */
		if (!fstat(fd, &sb) && S_ISDIR(sb.st_mode) &&
		    !(pl >= 8 && !strcmp(path + pl - 8, "case.ops"))) {
			char *joined = malloc(pl + 10);

			close(fd);
			if (!joined)
				return -ENOMEM;
			sprintf(joined, "%s%scase.ops", path,
				pl && path[pl - 1] == '/' ? "" : "/");
			err = ralab_workload_load_opts(joined, lo, out, diag);
			free(joined);
			return err;
		}
	}
	err = ralab__read_fd(fd, WL_MAX_TRACE, &text, &len);
	if (err == -EFBIG) {
		close(fd);
		return perr(&p, "larger than 1 GiB: ralab reads traces up to 1 GiB and other workload files up to 64 MiB");
	}
	if (err) {
		close(fd);
		if (err != -ENOMEM)
			perr(&p, "cannot read: %s", strerror(-err));
		return err;
	}
	close(fd);
	if (text) {
		size_t pl = strlen(path);
		const char *ext = pl > 4 ? path + pl - 4 : "";
		int (*conv)(const char *, const char *, size_t, char **,
			    struct ralab_diag *) = NULL;

		/* By content first, then by extension. */
		if (ralab__is_iolog(text, len))
			conv = ralab__iolog_to_ops;
		else if (ralab__is_fio(text, len) || !strcmp(ext, ".fio"))
			conv = ralab__fio_to_ops;
		else if (ralab__is_strace(text, len) ||
			 (pl > 7 && !strcmp(path + pl - 7, ".strace")))
			conv = ralab__strace_to_ops;
		if (len > WL_MAX_FILE && (!conv || conv == ralab__fio_to_ops)) {
			free(text);
			return perr(&p, "larger than 64 MiB: not a workload file (traces may be up to 1 GiB)");
		}
		if (conv) {
			char *ops, gname[300];

			if (conv == ralab__fio_to_ops)
				err = ralab__fio_to_ops_opts(path, text, len,
							     lo, &ops, diag);
			else
				err = conv(path, text, len, &ops, diag);
			free(text);
			if (err)
				return err;
			snprintf(gname, sizeof(gname), "%.280s (as .ops)", path);
			err = ralab_workload_parse(gname, ops, strlen(ops), out, diag);
			free(ops);
			return err;
		}
	}
	err = ralab_workload_parse(path, text ? text : "", len, out, diag);
	free(text);
	return err;
}

uint64_t *ralab__shuffle(uint64_t n, uint64_t seed)
{
	uint64_t *v = malloc(n * sizeof(*v)), i, x = seed;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n; i > 1; i--) {
		uint64_t j, t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
	return v;
}

uint64_t *ralab__op_order(const struct op *op, struct fio_carry *carry)
{
	struct fio_carry local = { .valid = false };
	uint64_t *v;

	if (op->kind != OP_FIO_PREAD && op->kind != OP_FIO_PWRITE)
		return ralab__shuffle(op->count, op->seed);
	if (!carry)
		carry = &local;
	if (!op->cont || !carry->valid)
		ralab__rng_seed(&carry->t, op->seed, op->t64);
	else if (!op->nomap)
		/* fio spent a draw finding the map full (time_based). */
		ralab__rng(&carry->t);
	v = ralab__fio_order(&carry->t, op->blocks, op->count, !op->nomap);
	carry->valid = true;
	return v;
}

void ralab_workload_free(struct ralab_workload *wl)
{
	if (!wl)
		return;
	unsigned i;

	free(wl->name);
	free(wl->text);
	free(wl->ops);
	for (i = 0; i < MAX_FILES; i++) {
		free(wl->files[i].brk);
		free(wl->files[i].rebrk);
		while (wl->files[i].nregen)
			free(wl->files[i].regen[--wl->files[i].nregen].brk);
		free(wl->files[i].regen);
		free(wl->files[i].hole);
	}
	free(wl);
}

const struct ralab_config *ralab_workload_config(const struct ralab_workload *wl)
{
	return &wl->cfg;
}

const char *ralab_workload_name(const struct ralab_workload *wl)
{
	return wl->name;
}

unsigned ralab_workload_nr_jobs(const struct ralab_workload *wl)
{
	return wl->nr_jobs ? wl->nr_jobs : 1;
}

const char *const ralab__exit_whats[3] = { "group", "stonewall", "all" };

int ralab__exit_what(const char *name)
{
	int k;

	for (k = 0; k < 3; k++)
		if (!strcmp(name, ralab__exit_whats[k]))
			return k;
	return -1;
}

uint64_t ralab_workload_repeat_ns(const struct ralab_workload *wl)
{
	uint64_t max = 0;
	unsigned i;

	for (i = 0; i < wl->nr_jobs; i++)
		if (wl->jobs[i].repeat && wl->jobs[i].runtime_ns > max)
			max = wl->jobs[i].runtime_ns;
	return max;
}

unsigned ralab_workload_nr_files(const struct ralab_workload *wl)
{
	return wl->nr_files;
}

uint64_t ralab_workload_file_size(const struct ralab_workload *wl,
				  unsigned file)
{
	if (file >= wl->nr_files)
		return 0;
	return file ? wl->files[file].size : wl->cfg.file_size;
}

const char *ralab_workload_ops_text(const struct ralab_workload *wl)
{
	return wl->text;
}
