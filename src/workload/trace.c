// SPDX-License-Identifier: MIT
/*
 * trace.c - turning a recorded I/O trace (strace log, fio iolog) into
 * .ops text: files, descriptors and reads in the order they happened.
 *
 * Files are sized from what the trace shows: a short read gives the exact
 * size (EOF at its end); otherwise the largest offset read.  Each
 * descriptor of the trace becomes a descriptor of the case (open NAME,
 * close), and every read becomes a pread at the offset it had, so the
 * replay does not depend on file positions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "workload.h"

/* The longest 'pause' or 'pace' the .ops parser takes. */
#define TB_MAX_USEC 1000000000000ull

struct tb_file {
	char *path;
	char name[32];
	uint64_t max_end;  /* largest offset + bytes read */
	uint64_t eof;      /* size from a short read, or UINT64_MAX */
	uint64_t stat_max; /* largest size fstat() reported (0: none) */
	uint64_t reads;
	uint64_t direct_reads; /* of those, through O_DIRECT descriptors */
	unsigned used; /* 1: opened; 2: declared in the output */
	bool mapped;   /* mmap'ed somewhere in the log */
	bool sized;    /* truncated: its size is known from there (cur) */
	bool fallocated; /* fallocate(2) in the log */
	uint64_t first_trunc; /* the size of its first truncate (if sized) */
	uint64_t cur;
	bool has_lay;
	struct tb_layout lay; /* when has_lay */
	/*
	 * Its punches can be replayed (unpunch_layouts()): the holes they
	 * made are out of its layout, those left are its own.
	 */
	bool unpunched;
	/* Its descriptors open when 'ralab record -p' attached. */
	unsigned attach_opens;
};

enum tb_kind {
	TB_OPEN, TB_CLOSE, TB_READ, TB_FADVISE, TB_READAHEAD, TB_NOTE, TB_PAUSE,
	TB_PACE, TB_MMAP, TB_MUNMAP, TB_MADVISE, TB_TOUCH, TB_WRITE, TB_FSYNC,
	TB_TRUNCATE, TB_FALLOCATE, TB_SETFL, TB_PUNCH, TB_MLOCK, TB_MUNMAP_PART,
	TB_MPROTECT, TB_SPLICE, TB_SENDFILE, TB_CACHED, TB_RA_STATE
};

struct tb_op {
	enum tb_kind kind;
	unsigned desc, file;
	uint64_t off, len;
	int advice;
	bool dontcache;     /* TB_READ, TB_WRITE: RWF_DONTCACHE */
	uint64_t ret;       /* TB_SPLICE, TB_SENDFILE: bytes it moved */
	bool mapped;        /* TB_PUNCH: MADV_REMOVE through mapping @vm */
	unsigned vm;        /* mapping ops: the mapping (tb_mmap's number) */
	char *note;
	unsigned job;       /* the process that made the call (tb_call) */
	int64_t start, end; /* when it ran, microseconds; -1: unknown */
};

struct tb_desc {
	long key1, key2; /* e.g. descriptor table, fd */
	unsigned file;
	bool open;
	bool ignored; /* a file not replayed (a library, a directory) */
	/*
	 * dup(): the descriptor this number is a copy of (its open file, so
	 * its readahead state and position), or -1; on the original, the
	 * numbers still open on it (the file is closed with the last).
	 */
	int of;
	unsigned refs;
	bool direct;  /* O_DIRECT: opened so (tb_open_direct), or tb_setfl */
};

/* A mapping of a replayed descriptor (tb_mmap). */
struct tb_vm {
	unsigned desc;
	uint64_t off, len;
	unsigned flags; /* TB_MAP_* */
};

struct tb {
	struct tb_file *files;
	unsigned nr_files, cap_files;
	struct tb_desc *descs;
	unsigned nr_descs, cap_descs;
	struct tb_op *ops;
	size_t nr_ops, cap_ops;
	struct tb_vm *vms;
	unsigned nr_vms, cap_vms;
	bool oom, full;
	/* Pauses: some were given; untimed: why they are left out. */
	bool paused;
	const char *untimed;
	/* Processes, in the order they first made a call (tb_call). */
	long *pids;
	unsigned nr_jobs, cap_jobs, cur_job;
	int64_t cur_start, cur_end;
	bool concurrent;
	/*
	 * stat() of paths not opened yet (a program that stats a file, then
	 * opens it): the latest TB_PATH_STATS, taken up when one is opened.
	 */
	struct {
		char *path;
		uint64_t size;
	} pstat[TB_PATH_STATS];
	unsigned next_pstat;
	bool noted_unaligned; /* an O_DIRECT call the kernel would fail */
};

struct tb *tb_new(void)
{
	struct tb *t = calloc(1, sizeof(struct tb));

	if (t)
		t->cur_start = t->cur_end = -1;
	return t;
}

void tb_free(struct tb *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_files; i++) {
		free(t->files[i].path);
		free(t->files[i].lay.brk);
		free(t->files[i].lay.hole);
	}
	for (i = 0; i < t->nr_ops; i++)
		free(t->ops[i].note);
	free(t->files);
	free(t->descs);
	free(t->ops);
	free(t->vms);
	free(t->pids);
	for (i = 0; i < TB_PATH_STATS; i++)
		free(t->pstat[i].path);
	free(t);
}

bool tb_grow(void **p, unsigned *cap, size_t need, size_t size)
{
	void *n;
	unsigned c;

	if (need <= *cap)
		return true;
	c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * size);
	if (!n)
		return false;
	*p = n;
	*cap = c;
	return true;
}

bool tb_full(const struct tb *t)
{
	return t->full;
}

static struct tb_op *add(struct tb *t)
{
	if (t->nr_ops >= TB_MAX_OPS) {
		t->full = true;
		return NULL;
	}
	if (t->nr_ops == t->cap_ops) {
		size_t c = t->cap_ops ? t->cap_ops * 2 : 1024;
		struct tb_op *n = realloc(t->ops, c * sizeof(*n));

		if (!n) {
			t->oom = true;
			return NULL;
		}
		t->ops = n;
		t->cap_ops = c;
	}
	memset(&t->ops[t->nr_ops], 0, sizeof(t->ops[0]));
	t->ops[t->nr_ops].job = t->cur_job;
	t->ops[t->nr_ops].start = t->cur_start;
	t->ops[t->nr_ops].end = t->cur_end;
	return &t->ops[t->nr_ops++];
}

/* The file opened as @path, or -1. */
static int file_of(const struct tb *t, const char *path)
{
	unsigned i;

	for (i = 0; i < t->nr_files; i++)
		if (!strcmp(t->files[i].path, path))
			return (int)i;
	return -1;
}

int tb_file(struct tb *t, const char *path)
{
	unsigned i;
	const char *base;
	struct tb_file *f;
	int known = file_of(t, path);

	if (known >= 0)
		return known;
	if (t->nr_files == TB_MAX_PATHS)
		return -ENOSPC;
	if (!tb_grow((void **)&t->files, &t->cap_files, t->nr_files + 1,
		  sizeof(*t->files)))
		return -ENOMEM;
	f = &t->files[t->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->eof = UINT64_MAX;
	for (i = 0; i < TB_PATH_STATS; i++)
		if (t->pstat[i].path && !strcmp(t->pstat[i].path, path) &&
		    t->pstat[i].size > f->stat_max)
			f->stat_max = t->pstat[i].size;
	/* f1_base.name: unique, and a valid .ops file name. */
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(f->name, sizeof(f->name), "f%u_", t->nr_files + 1);
	for (i = (unsigned)strlen(f->name); *base && i + 1 < sizeof(f->name);
	     base++) {
		char c = *base;

		f->name[i++] = (char)(((c >= 'a' && c <= 'z') ||
				       (c >= 'A' && c <= 'Z') ||
				       (c >= '0' && c <= '9') || c == '_' ||
				       c == '-' || c == '.') ? c : '_');
	}
	f->name[i] = '\0';
	return (int)t->nr_files++;
}

int tb_layout(struct tb *t, const char *path, struct tb_layout *lay)
{
	unsigned i;

	for (i = 0; i < t->nr_files; i++)
		if (!strcmp(t->files[i].path, path))
			break;
	if (i == t->nr_files || t->files[i].has_lay) {
		free(lay->brk);
		free(lay->hole);
		return i == t->nr_files ? 0 : -EEXIST;
	}
	t->files[i].lay = *lay;
	t->files[i].has_lay = true;
	return 0;
}

unsigned tb_paths(const struct tb *t, const char **paths, bool *direct,
		  unsigned max)
{
	unsigned i, n = 0;

	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].used && t->files[i].reads) {
			if (n < max) {
				paths[n] = t->files[i].path;
				direct[n] = t->files[i].direct_reads ==
					    t->files[i].reads;
			}
			n++;
		}
	return n;
}

unsigned tb_nr_cached(const struct tb *t)
{
	unsigned i, n = 0;

	for (i = 0; i < t->nr_files; i++)
		n += t->files[i].reads && t->files[i].has_lay &&
		     t->files[i].lay.cached;
	return n;
}

bool tb_replayed(const struct tb *t, const char *path)
{
	int i = file_of(t, path);

	return i >= 0 && t->files[i].reads &&
	       !(t->files[i].has_lay && t->files[i].lay.cached);
}

/* The open descriptor for (@k1, @k2); else any open one with @k2. */
static int find_desc(struct tb *t, long k1, long k2)
{
	unsigned i;

	for (i = t->nr_descs; i-- > 0;)
		if (t->descs[i].open && t->descs[i].key1 == k1 &&
		    t->descs[i].key2 == k2)
			return (int)i;
	for (i = t->nr_descs; i-- > 0;)
		if (t->descs[i].open && t->descs[i].key2 == k2)
			return (int)i;
	return -1;
}

int tb_open(struct tb *t, long k1, long k2, int file)
{
	struct tb_op *op;
	int old = find_desc(t, k1, k2);

	if (old >= 0 && t->descs[old].key1 == k1)
		tb_close(t, k1, k2); /* a reused number: the old one is gone */
	if (!tb_grow((void **)&t->descs, &t->cap_descs, t->nr_descs + 1,
		  sizeof(*t->descs)))
		return -ENOMEM;
	t->descs[t->nr_descs] = (struct tb_desc){ .key1 = k1, .key2 = k2,
						  .file = (unsigned)file,
						  .open = true,
						  .ignored = file < 0,
						  .of = -1, .refs = 1 };
	if (file < 0) {
		t->nr_descs++;
		return 0;
	}
	op = add(t);
	if (!op)
		return -ENOMEM;
	op->kind = TB_OPEN;
	op->desc = t->nr_descs++;
	op->file = (unsigned)file;
	t->files[file].used |= 1;
	return 0;
}

int tb_open_direct(struct tb *t, long k1, long k2, int file)
{
	int err = tb_open(t, k1, k2, file);

	if (err || file < 0)
		return err;
	t->descs[t->nr_descs - 1].direct = true;
	t->ops[t->nr_ops - 1].advice = 1;
	return 0;
}

void tb_close(struct tb *t, long k1, long k2)
{
	int d = find_desc(t, k1, k2), p;
	struct tb_op *op;

	/*
	 * Another table's descriptor, found by its number: a forked child's
	 * copy of it (find_desc()).  The child's close drops its own
	 * reference; the parent's stays open (the shell's stdin that each
	 * command it runs closes as it exits).
	 */
	if (d < 0 || t->descs[d].key1 != k1)
		return;
	t->descs[d].open = false;
	p = t->descs[d].of >= 0 ? t->descs[d].of : d;
	if (--t->descs[p].refs)
		return; /* another number still has the file open */
	if (t->descs[p].ignored) {
		/* No op names it: the lookups need not pass it again. */
		while (t->nr_descs) {
			const struct tb_desc *l = &t->descs[t->nr_descs - 1];

			if (l->open || !l->ignored || (l->of < 0 && l->refs))
				break;
			t->nr_descs--;
		}
		return;
	}
	op = add(t);
	if (op) {
		op->kind = TB_CLOSE;
		op->desc = (unsigned)p;
	}
}

/*
 * Number (@k1, @k2) on the open file of descriptor @p (a dup, or a
 * fork()ed copy): its reads and writes are @p's (replayed_desc()), and @p
 * is closed with the last of its numbers.
 */
static int add_copy(struct tb *t, int p, long k1, long k2)
{
	if (!tb_grow((void **)&t->descs, &t->cap_descs, t->nr_descs + 1,
		     sizeof(*t->descs)))
		return -ENOMEM;
	t->descs[t->nr_descs++] = (struct tb_desc){
		.key1 = k1, .key2 = k2, .file = t->descs[p].file,
		.open = true, .ignored = t->descs[p].ignored, .of = p
	};
	t->descs[p].refs++;
	return 0;
}

int tb_dup(struct tb *t, long k1, long oldk2, long newk2)
{
	int d = find_desc(t, k1, oldk2), p, n;

	if (oldk2 == newk2)
		return 0;
	n = find_desc(t, k1, newk2);
	if (n >= 0 && t->descs[n].key1 == k1)
		tb_close(t, k1, newk2); /* dup2() closes what was there */
	if (d < 0)
		return 0;
	d = find_desc(t, k1, oldk2); /* the close may have dropped entries */
	if (d < 0)
		return 0;
	p = t->descs[d].of >= 0 ? t->descs[d].of : d;
	return add_copy(t, p, k1, newk2);
}

void tb_share(struct tb *t, long from, long to)
{
	unsigned i;

	for (i = 0; i < t->nr_descs; i++)
		if (t->descs[i].open && t->descs[i].key1 == from)
			t->descs[i].key1 = to;
}

/*
 * fork(): table @to gets a copy of each descriptor open in table @from,
 * on the same open file (a dup: its position, readahead state and
 * O_DIRECT flag), except numbers @to has opened already (strace -f may
 * show a child's calls before the fork returns in the parent).
 */
int tb_fork(struct tb *t, long from, long to)
{
	unsigned i, n = t->nr_descs;

	for (i = 0; i < n; i++) {
		long k2 = t->descs[i].key2;
		int p = t->descs[i].of >= 0 ? t->descs[i].of : (int)i, d, err;

		if (!t->descs[i].open || t->descs[i].key1 != from)
			continue;
		d = find_desc(t, to, k2);
		if (d >= 0 && t->descs[d].key1 == to)
			continue;
		if ((err = add_copy(t, p, to, k2)))
			return err;
	}
	return 0;
}

/* A process's exit closes the descriptors of its table @k1. */
void tb_exit(struct tb *t, long k1)
{
	unsigned i;

	for (i = t->nr_descs; i-- > 0;)
		if (i < t->nr_descs && t->descs[i].open && t->descs[i].key1 == k1)
			tb_close(t, k1, t->descs[i].key2);
}

/* The replayed descriptor for (@k1, @k2) (the original of a dup), or -1. */
static int replayed_desc(struct tb *t, long k1, long k2)
{
	int d = find_desc(t, k1, k2);

	if (d >= 0 && t->descs[d].of >= 0)
		d = t->descs[d].of;
	return d >= 0 && !t->descs[d].ignored ? d : -1;
}

bool tb_known(struct tb *t, long k1, long k2)
{
	return replayed_desc(t, k1, k2) >= 0;
}

/* A call of kind @kind on replayed descriptor @d, over [@off, @off + @len). */
static struct tb_op *desc_op(struct tb *t, int d, enum tb_kind kind,
			     uint64_t off, uint64_t len)
{
	struct tb_op *op = add(t);

	if (op) {
		op->kind = kind;
		op->desc = (unsigned)d;
		op->off = off;
		op->len = len;
	}
	return op;
}

/*
 * An O_DIRECT call at an offset or of a length not a multiple of 512:
 * the kernel fails it (EINVAL), so a log that says it succeeded has its
 * position wrong somewhere; it is left out, with a note.
 */
static bool direct_unaligned(struct tb *t, int d, uint64_t off, uint64_t len)
{
	if (!t->descs[d].direct || !((off | len) & 511))
		return false;
	if (!t->noted_unaligned)
		tb_note(t, "an O_DIRECT call at an offset or of a length not a multiple of 512 bytes, which the kernel fails, is not replayed");
	t->noted_unaligned = true;
	return true;
}

void tb_read_rwf(struct tb *t, long k1, long k2, uint64_t off,
		 uint64_t count, int64_t ret, bool dontcache)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;
	struct tb_op *op;

	if (d < 0 || ret < 0)
		return;
	/*
	 * A direct read that returned nothing was at or past EOF and did
	 * no I/O (and may be at an offset no direct read can replay).
	 */
	if (t->descs[d].direct && !ret)
		return;
	if (direct_unaligned(t, d, off, count))
		return;
	f = &t->files[t->descs[d].file];
	f->reads++;
	f->direct_reads += t->descs[d].direct;
	if (ret > 0 && ret != TB_RET_FILE && off + (uint64_t)ret > f->max_end)
		f->max_end = off + (uint64_t)ret;
	/* A short read ends at EOF. */
	if (ret != TB_RET_FILE && (uint64_t)ret < count && f->eof == UINT64_MAX)
		f->eof = off + (uint64_t)ret;
	op = desc_op(t, d, TB_READ, off, count);
	if (op) {
		op->advice = t->descs[d].direct; /* O_DIRECT (emit_direct) */
		op->dontcache = dontcache;
	}
}

void tb_splice(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int64_t ret, bool direct_pipe)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;
	struct tb_op *op;

	if (d < 0 || ret < 0)
		return;
	if (direct_unaligned(t, d, off, len))
		return;
	f = &t->files[t->descs[d].file];
	f->reads++;
	f->direct_reads += t->descs[d].direct;
	/* A short splice need not be at EOF (a full pipe): no eof here. */
	if (ret > 0 && off + (uint64_t)ret > f->max_end)
		f->max_end = off + (uint64_t)ret;
	op = desc_op(t, d, direct_pipe ? TB_SENDFILE : TB_SPLICE, off, len);
	if (op) {
		op->advice = t->descs[d].direct;
		op->ret = (uint64_t)ret;
	}
}

void tb_cached(struct tb *t, long k1, long k2, uint64_t index,
	       uint64_t nr, unsigned order, bool mark)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0)
		return;
	op = desc_op(t, d, TB_CACHED, index * RALAB_PAGE_SIZE,
		     nr * RALAB_PAGE_SIZE);
	if (op) {
		op->advice = mark;
		op->ret = order;
	}
}

void tb_attach_open(struct tb *t, long k1, long k2)
{
	int d = replayed_desc(t, k1, k2);

	if (d < 0)
		return;
	t->files[t->descs[d].file].attach_opens++;
	desc_op(t, d, TB_RA_STATE, 0, 0);
}

/* @f's readahead state at the attach is known and is one descriptor's. */
static bool fra_set(const struct tb_file *f)
{
	return f->has_lay && f->lay.has_fra && f->attach_opens == 1;
}

/*
 * @f's ra->start at the attach: as given, else where its one marked folio
 * then puts it (the mark is at start + size - async_size), else 0.
 */
static uint64_t fra_start(const struct tb *t, const struct tb_file *f)
{
	uint64_t mark = 0, back = f->lay.fra.size - f->lay.fra.async_size;
	unsigned i, marks = 0;

	if (f->lay.fra.start_known)
		return f->lay.fra.start;
	for (i = 0; i < t->nr_ops; i++) {
		const struct tb_op *op = &t->ops[i];

		if (op->kind == TB_CACHED && op->advice &&
		    &t->files[t->descs[op->desc].file] == f) {
			marks += (unsigned)(op->len / RALAB_PAGE_SIZE >> op->ret);
			mark = op->off / RALAB_PAGE_SIZE;
		}
	}
	return marks == 1 && mark >= back ? mark - back : 0;
}

bool tb_fra_set(const struct tb *t, const char *path)
{
	int i = file_of(t, path);

	return i >= 0 && fra_set(&t->files[i]);
}

void tb_fsync(struct tb *t, long k1, long k2)
{
	int d = replayed_desc(t, k1, k2);

	if (d >= 0)
		desc_op(t, d, TB_FSYNC, 0, 0);
}

/*
 * fcntl(F_SETFL) setting or clearing O_DIRECT: the open file's flag (its
 * dups' too), for the calls after it.
 */
void tb_setfl(struct tb *t, long k1, long k2, bool direct)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0 || t->descs[d].direct == direct)
		return;
	t->descs[d].direct = direct;
	op = desc_op(t, d, TB_SETFL, 0, 0);
	if (op)
		op->advice = direct;
}

void tb_write_rwf(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
		  bool dontcache)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;
	struct tb_op *op;

	if (d < 0 || !len || direct_unaligned(t, d, off, len))
		return;
	/* Files only written are left out (nothing read ahead there). */
	f = &t->files[t->descs[d].file];
	if (off + len > f->max_end)
		f->max_end = off + len;
	if (off + len > f->cur)
		f->cur = off + len;
	op = desc_op(t, d, TB_WRITE, off, len);
	if (op) {
		op->advice = t->descs[d].direct; /* O_DIRECT (emit_write) */
		op->dontcache = dontcache;
	}
}

void tb_truncate(struct tb *t, long k1, long k2, uint64_t size)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;

	if (d < 0)
		return;
	f = &t->files[t->descs[d].file];
	if (!f->sized)
		f->first_trunc = size;
	f->sized = true;
	f->cur = size;
	/* The file has blocks up to there (the .ops declared size). */
	if (size > f->max_end)
		f->max_end = size;
	desc_op(t, d, TB_TRUNCATE, size, 0);
}

void tb_fallocate(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
		  bool keep)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;
	struct tb_op *op;

	if (d < 0 || !len)
		return;
	f = &t->files[t->descs[d].file];
	f->fallocated = true;
	/* Mode 0 moves EOF: the file is that large from here on. */
	if (!keep && off + len > f->cur)
		f->cur = off + len;
	if (!keep && off + len > f->max_end)
		f->max_end = off + len;
	op = desc_op(t, d, TB_FALLOCATE, off, len);
	if (op)
		op->advice = keep;
}

void tb_punch(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	      int zero)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0 || !len)
		return;
	op = desc_op(t, d, TB_PUNCH, off, len);
	if (op)
		op->advice = zero;
}

void tb_punch_vm(struct tb *t, unsigned vm, uint64_t off, uint64_t len)
{
	struct tb_op *op;

	if (vm >= t->nr_vms || !len)
		return;
	op = desc_op(t, (int)t->vms[vm].desc, TB_PUNCH, off, len);
	if (op) {
		op->advice = false;
		op->mapped = true;
		op->vm = vm;
	}
}

void tb_stat(struct tb *t, long k1, long k2, uint64_t size)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_file *f;

	if (d < 0)
		return;
	f = &t->files[t->descs[d].file];
	if (size > f->stat_max)
		f->stat_max = size;
}

int tb_stat_path(struct tb *t, const char *path, uint64_t size)
{
	int fi = file_of(t, path);
	char *copy;

	if (fi >= 0) {
		if (size > t->files[fi].stat_max)
			t->files[fi].stat_max = size;
		return 0;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	free(t->pstat[t->next_pstat].path);
	t->pstat[t->next_pstat].path = copy;
	t->pstat[t->next_pstat].size = size;
	t->next_pstat = (t->next_pstat + 1) % TB_PATH_STATS;
	return 0;
}

/*
 * A descriptor key no descriptor of a log has (they are >= 0): the one a
 * truncate by path is replayed through when the file is not open.
 */
#define TB_PATH_KEY (-2L)

int tb_truncate_path(struct tb *t, long k1, const char *path, uint64_t size)
{
	int fi = tb_file(t, path), err;
	unsigned i;

	if (fi < 0)
		return fi;
	/*
	 * The cut is the inode's, whichever open file it goes through
	 * (truncate(2) opens none): an open descriptor of the file, or one
	 * opened for it alone, which a new open file's fresh readahead
	 * state leaves the others' as they were.
	 */
	for (i = t->nr_descs; i-- > 0;)
		if (t->descs[i].open && !t->descs[i].ignored &&
		    t->descs[i].of < 0 && t->descs[i].file == (unsigned)fi) {
			tb_truncate(t, t->descs[i].key1, t->descs[i].key2, size);
			return 0;
		}
	err = tb_open(t, k1, TB_PATH_KEY, fi);
	if (err)
		return err;
	tb_truncate(t, k1, TB_PATH_KEY, size);
	tb_close(t, k1, TB_PATH_KEY);
	return 0;
}

bool tb_cur_size(struct tb *t, long k1, long k2, uint64_t *size)
{
	int d = replayed_desc(t, k1, k2);
	const struct tb_file *f;

	if (d < 0)
		return false;
	f = &t->files[t->descs[d].file];
	*size = f->cur;
	return f->sized;
}

void tb_advise(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int advice, bool readahead)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0)
		return;
	op = desc_op(t, d, readahead ? TB_READAHEAD : TB_FADVISE, off, len);
	if (op)
		op->advice = advice;
}

int tb_mmap(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	    unsigned flags)
{
	int d = replayed_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0)
		return -ENOENT;
	if (!len || off % 4096)
		return -EINVAL;
	if (!tb_grow((void **)&t->vms, &t->cap_vms, t->nr_vms + 1,
		     sizeof(*t->vms))) {
		t->oom = true;
		return -ENOMEM;
	}
	t->vms[t->nr_vms] = (struct tb_vm){ (unsigned)d, off, len, flags };
	t->files[t->descs[d].file].mapped = true;
	op = add(t);
	if (op) {
		op->kind = TB_MMAP;
		op->desc = (unsigned)d;
		op->vm = t->nr_vms;
		op->off = off;
		op->len = len;
	}
	return (int)t->nr_vms++;
}

/* An op on mapping @vm (made by tb_mmap). */
static struct tb_op *vm_op(struct tb *t, unsigned vm, enum tb_kind kind)
{
	struct tb_op *op;

	if (vm >= t->nr_vms)
		return NULL;
	op = add(t);
	if (op) {
		op->kind = kind;
		op->desc = t->vms[vm].desc;
		op->vm = vm;
	}
	return op;
}

void tb_munmap(struct tb *t, unsigned vm)
{
	vm_op(t, vm, TB_MUNMAP);
}

void tb_munmap_part(struct tb *t, unsigned vm, uint64_t off, uint64_t len)
{
	struct tb_op *op = vm_op(t, vm, TB_MUNMAP_PART);

	if (op) {
		op->off = off;
		op->len = len;
	}
}

void tb_msync(struct tb *t, unsigned vm)
{
	struct tb_op *op = vm_op(t, vm, TB_FSYNC);

	if (op)
		op->advice = 1; /* an msync: of mapping op->vm */
}

void tb_madvise(struct tb *t, unsigned vm, uint64_t off, uint64_t len,
		int advice)
{
	struct tb_op *op = vm_op(t, vm, TB_MADVISE);

	if (op) {
		struct tb_file *f = &t->files[t->descs[op->desc].file];

		op->off = off;
		op->len = len;
		op->advice = advice;
		/* A populate reads the file as faults do (tb_touch()). */
		if (advice == MADV_POPULATE_READ_ ||
		    advice == MADV_POPULATE_WRITE_) {
			f->reads++;
			if (len && off + 1 > f->max_end)
				f->max_end = off + 1;
		}
	}
}

void tb_mprotect(struct tb *t, unsigned vm, uint64_t off, uint64_t len,
		 int prot)
{
	struct tb_op *op = vm_op(t, vm, TB_MPROTECT);

	if (op) {
		op->off = off;
		op->len = len;
		op->advice = prot;
	}
}

void tb_mlock(struct tb *t, unsigned vm, uint64_t off, uint64_t len, int how)
{
	struct tb_op *op = vm_op(t, vm, TB_MLOCK);

	if (op) {
		struct tb_file *f = &t->files[t->descs[op->desc].file];

		op->off = off;
		op->len = len;
		op->advice = how;
		/* Its populate reads the file as faults do (tb_touch()). */
		if (how == MLOCK_ON_) {
			f->reads++;
			if (len && off + 1 > f->max_end)
				f->max_end = off + 1;
		}
	}
}

void tb_touch(struct tb *t, unsigned vm, uint64_t off, int wfault)
{
	struct tb_op *op = vm_op(t, vm, TB_TOUCH);
	struct tb_file *f;

	if (!op)
		return;
	op->off = off;
	op->advice = wfault;
	/* A fault that returned is inside the file: it is longer. */
	f = &t->files[t->descs[op->desc].file];
	f->reads++;
	if (off + 1 > f->max_end)
		f->max_end = off + 1;
}

void tb_pause(struct tb *t, uint64_t us)
{
	struct tb_op *op;

	if (!us)
		return;
	t->paused = true;
	op = add(t);
	if (op) {
		op->kind = TB_PAUSE;
		op->len = us < TB_MAX_USEC ? us : TB_MAX_USEC;
	}
}

void tb_pace(struct tb *t, uint64_t us)
{
	struct tb_op *op;

	if (!us)
		return;
	op = add(t);
	if (op) {
		op->kind = TB_PACE;
		op->len = us < TB_MAX_USEC ? us : TB_MAX_USEC;
	}
}

void tb_untimed(struct tb *t, const char *why)
{
	if (!t->untimed)
		t->untimed = why;
}

void tb_call(struct tb *t, long pid)
{
	unsigned i;

	t->cur_start = t->cur_end = -1;
	if (t->nr_jobs && t->pids[t->cur_job] == pid)
		return;
	for (i = 0; i < t->nr_jobs; i++)
		if (t->pids[i] == pid) {
			t->cur_job = i;
			return;
		}
	if (!tb_grow((void **)&t->pids, &t->cap_jobs, t->nr_jobs + 1,
		  sizeof(*t->pids))) {
		t->oom = true;
		return;
	}
	t->pids[t->nr_jobs] = pid;
	t->cur_job = t->nr_jobs++;
}

void tb_stamp(struct tb *t, int64_t start, int64_t end)
{
	t->cur_start = start;
	t->cur_end = end;
}

void tb_concurrent(struct tb *t)
{
	t->concurrent = true;
}

void tb_note(struct tb *t, const char *fmt, ...)
{
	struct tb_op *op = add(t);
	va_list ap;
	char buf[256];

	if (!op)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	op->kind = TB_NOTE;
	op->note = strdup(buf);
}

static const char *const advice_names[] = {
	"normal", "random", "sequential", "willneed", "dontneed", "noreuse",
};


/*
 * The size a file is declared with: as recorded (or what was read, if the
 * file shrank after), else from the reads.
 */
static unsigned long long tb_size(const struct tb_file *f)
{
	uint64_t v;

	if (f->has_lay)
		v = f->lay.size > f->max_end ? f->lay.size : f->max_end;
	/* (A file rewritten may have been shorter at the short read.) */
	else
		v = f->eof != UINT64_MAX && f->eof > f->max_end ? f->eof :
								f->max_end;
	/* A file cut short later was this large when it was fstat()ed. */
	return v > f->stat_max ? v : f->stat_max;
}

/*
 * @f's extent starts inside its declared size, "A,B,...", and its holes,
 * "A+N,...", each list after its @lead (nothing if empty).
 */
/*
 * Where a file's layout, as the log's end found it, held before: below
 * its first truncate to a size other than 0 (what lies past that was
 * written after; 'ralab record' sees the extents a run ends with).
 */
static uint64_t layout_before(const struct tb_file *f)
{
	if (!f->sized || !f->first_trunc)
		return UINT64_MAX;
	return (f->first_trunc + 4095) / 4096 * 4096;
}

/* Does @f's layout break where it was written after a truncate? */
static bool layout_brk_after(const struct tb_file *f)
{
	uint64_t before = layout_before(f), size = tb_size(f);
	unsigned k;

	for (k = 0; f->has_lay && k < f->lay.nbrk; k++)
		if (f->lay.brk[k] >= before && f->lay.brk[k] < size)
			return true;
	return false;
}

static void emit_layout(struct wl_text *b, const struct tb_file *f,
			const char *brk_lead, const char *hole_lead,
			const char *end)
{
	uint64_t size = tb_size(f), top = size + (4096 - size % 4096) % 4096;
	uint64_t before = layout_before(f);
	unsigned k;
	bool first = true;

	if (!f->has_lay)
		return;
	for (k = 0; k < f->lay.nbrk && f->lay.brk[k] < size &&
		    f->lay.brk[k] < before; k++) {
		ralab__text_printf(b, "%s%llu", first ? brk_lead : ",",
		    (unsigned long long)f->lay.brk[k]);
		first = false;
	}
	if (!first)
		ralab__text_printf(b, "%s", end);
	first = true;
	/* Holes past a truncate are the model's own making. */
	if (before < top)
		top = before;
	for (k = 0; k < f->lay.nhole && f->lay.hole[2 * k + 1] <= top; k++) {
		ralab__text_printf(b, "%s%llu+%llu", first ? hole_lead : ",",
		    (unsigned long long)f->lay.hole[2 * k],
		    (unsigned long long)(f->lay.hole[2 * k + 1] -
					 f->lay.hole[2 * k]));
		first = false;
	}
	if (!first)
		ralab__text_printf(b, "%s", end);
}

/* A mapping as emitted. */
struct emit_vm {
	uint64_t jobs; /* the jobs it is made in (a bit each) */
	uint64_t len;  /* its length, within the file */
	bool skip;     /* not replayed (a note says why) */
	/* Its TB_MUNMAP_PART ops, by index in the log (owned). */
	size_t *parts;
	unsigned nr_parts, cap_parts;
	unsigned nr_holes; /* its struct emit_holes, in any job */
};

/*
 * The protections 'mprotect' gave parts of job @job's copy of mapping
 * @vm, as the parser keeps them (it refuses a fault they deny).
 */
struct emit_prot {
	unsigned job, vm, n;
	struct wl_prot p[MAX_PROTS];
};

/*
 * A hole 'munmap OFF LEN' made in job @job's copy of mapping @vm: the
 * parser's view of that copy is its range less these.
 */
struct emit_hole {
	unsigned job, vm;
	uint64_t start, end;
};

struct emit {
	struct tb *t;
	struct wl_text b;
	unsigned *map;      /* ralab's number of each descriptor; 0: left out */
	unsigned main_file; /* the file the case calls 'main' */
	unsigned next;      /* the number the next descriptor gets */
	unsigned cur;       /* the current descriptor; -1: none */
	/*
	 * Mappings: each one's state; per descriptor, how many are made
	 * and whether its close waits for them (a mapping holds the file
	 * open, its readahead state too); per job, the ones it holds.
	 */
	struct emit_vm *vm;
	unsigned *desc_vms;
	bool *close_pending;
	/*
	 * Per descriptor: O_DIRECT as the ops read so far set it (its open,
	 * then its setfl ops in the order they are written; emit_direct()).
	 */
	bool *direct;
	bool *rwf;          /* per descriptor: 'rwf dontcache' in force */
	unsigned job;       /* the job being emitted (0: one stream) */
	unsigned job_vms[MAX_JOBS][MAX_MAPS], nr_job_vms[MAX_JOBS];
	unsigned noted;     /* notes given once (NOTED_*) */
	/*
	 * Per file: its size as replayed so far (no touch goes past it:
	 * SIGBUS), and whether its truncates are left out (it is mapped and
	 * the jobs that map, truncate or write it are several: their order
	 * is timing).
	 */
	uint64_t *size;
	bool *no_trunc;
	/*
	 * Per file: truncated or fallocated somewhere in the log (its size
	 * or its blocks change: a punch there is not replayed).
	 */
	bool *resized;
	/*
	 * The log has a write fault through a private mapping (a cow
	 * touch): its MADV_PAGEOUT calls are left out (cow_pageout() in
	 * ops.c refuses the two together).
	 */
	bool cow;
	struct emit_hole *holes; /* owned */
	unsigned nr_holes, cap_holes;
	struct emit_prot *prots; /* owned */
	unsigned nr_prots, cap_prots;
	/* Per job: the mapping 'map OFF' last named (its number + 1; 0:
	 * none), as the parser keeps it (select_vm()). */
	unsigned sel[MAX_JOBS];
};

#define NOTED_PAST_EOF 1u
#define NOTED_TOO_MANY 2u
#define NOTED_OVERLAP 4u
#define NOTED_WRITE_EOF 8u
#define NOTED_TRUNC_MAP 16u
#define NOTED_TRUNC_HOLES 32u
#define NOTED_REBREAKS 64u
#define NOTED_TOUCH_EOF 128u
#define NOTED_DIRECT_WRITE 256u
#define NOTED_PUNCH 512u
#define NOTED_PAGEOUT_COW 1024u
#define NOTED_HOLES 2048u
#define NOTED_IN_HOLE 4096u
#define NOTED_PROT 8192u
#define NOTED_ZERO_GROW 16384u

/*
 * What the replay leaves out or changes is said in comment lines of the
 * generated .ops that start so, which the CLI's commands that run a case
 * print on stderr (cli_print_notes()).
 */
#define NOTE "# note: "

static void note_once(struct emit *e, unsigned what, const char *text)
{
	if (!(e->noted & what))
		ralab__text_printf(&e->b, NOTE "%s\n", text);
	e->noted |= what;
}

/* A descriptor is opened: the file is declared or opened again. */
static void emit_open(struct emit *e, const struct tb_op *op)
{
	struct tb_file *f = &e->t->files[op->file];
	const char *direct = op->advice ? " direct" : "";

	if (!f->used)
		return;
	if (op->file == e->main_file) {
		ralab__text_printf(&e->b, "open main%s\n", direct);
	} else if (!(f->used & 2)) {
		ralab__text_printf(&e->b, "file %s %llu", f->name, tb_size(f));
		emit_layout(&e->b, f, " breaks ", " holes ", "");
		ralab__text_printf(&e->b, "%s\n", direct);
		if (layout_brk_after(f))
			note_once(e, NOTED_REBREAKS, "the extent breaks past a truncate of a file other than the main one are left out (only the main file takes '# rebreaks:')");
		f->used = 3;
	} else {
		ralab__text_printf(&e->b, "open %s%s\n", f->name, direct);
	}
	e->map[op->desc] = e->next++;
	e->cur = e->map[op->desc];
	e->direct[op->desc] = op->advice;
	e->rwf[op->desc] = false;
}

/*
 * A read's or write's RWF_DONTCACHE as the descriptor's 'rwf' state:
 * set it where it differs.
 */
static void emit_rwf(struct emit *e, unsigned desc, bool dontcache)
{
	if (e->rwf[desc] == dontcache)
		return;
	e->rwf[desc] = dontcache;
	ralab__text_printf(&e->b, "rwf %s\n", dontcache ? "dontcache" : "none");
}

/*
 * A read or write is replayed as direct or buffered as the log had it
 * then (@op->advice).  The ops of several jobs are written job by job, not
 * in the log's order, so a setfl of another job written before may have
 * left the descriptor the other way: set it again first (the parser
 * checks O_DIRECT alignment in the order the ops are written, and the
 * job runs the two ops without switching).
 */
static void emit_direct(struct emit *e, const struct tb_op *op)
{
	if (e->direct[op->desc] == (op->advice != 0))
		return;
	e->direct[op->desc] = op->advice != 0;
	ralab__text_printf(&e->b, "setfl %s\n", op->advice ? "direct" : "buffered");
}

static void select_fd(struct emit *e, unsigned desc)
{
	if (e->map[desc] != e->cur) {
		e->cur = e->map[desc];
		ralab__text_printf(&e->b, "fd %u\n", e->cur);
	}
}

/*
 * The first page of file range [@a, @b) that job @j's copy of mapping @vm
 * maps: in its range and in none of its holes (as the parser's
 * pmap_live() sees it); at least @b if none.
 */
static uint64_t first_live(const struct emit *e, unsigned j, unsigned vm,
			   uint64_t a, uint64_t b)
{
	const struct tb_vm *v = &e->t->vms[vm];
	uint64_t x = a > v->off ? a : v->off, end = v->off + e->vm[vm].len;
	unsigned i;
	bool moved = true;

	if (b > end)
		b = end;
	/* Past every hole that holds x, until none does. */
	while (moved && x < b && e->vm[vm].nr_holes) {
		moved = false;
		for (i = 0; i < e->nr_holes; i++) {
			const struct emit_hole *h = &e->holes[i];

			if (h->job == j && h->vm == vm && h->start <= x &&
			    x < h->end) {
				x = h->end;
				moved = true;
			}
		}
	}
	return x;
}

static bool copy_live(const struct emit *e, unsigned j, unsigned vm,
		      uint64_t a, uint64_t b)
{
	const struct tb_vm *v = &e->t->vms[vm];
	uint64_t end = v->off + e->vm[vm].len;

	return first_live(e, j, vm, a, b) < (b < end ? b : end);
}

/*
 * Whether [@a, @b) meets a hole of job @j's copy of mapping @vm: an op
 * there would fail to parse.  The log's ops are on pages their process
 * maps, so none should; if one does (a copy of the mapping another
 * process cut differently), it is left out with a note.
 */
static bool meets_hole(struct emit *e, unsigned j, unsigned vm, uint64_t a,
		       uint64_t b)
{
	unsigned i;

	if (!e->vm[vm].nr_holes)
		return false; /* the common case: a fault, on no hole */
	for (i = 0; i < e->nr_holes; i++)
		if (e->holes[i].job == j && e->holes[i].vm == vm &&
		    e->holes[i].start < b && a < e->holes[i].end) {
			note_once(e, NOTED_IN_HOLE, "an op on a part of a mapping the replay has unmapped in that process is left out");
			return true;
		}
	return false;
}

/*
 * Before an op on [@a, @b) of job @j's copy of mapping @vm: if another
 * mapping of the same descriptor in the job maps a page there too (ld.so
 * maps a library's data segment over a page of its read-only one), 'map
 * OFF' names @vm, unless it is named already.
 */
static void select_vm(struct emit *e, unsigned j, unsigned vm, uint64_t a,
		      uint64_t b)
{
	const struct tb_vm *v = &e->t->vms[vm];
	unsigned k;

	if (e->sel[j] == vm + 1)
		return;
	for (k = 0; k < e->nr_job_vms[j]; k++) {
		unsigned o = e->job_vms[j][k];

		if (o != vm && e->t->vms[o].desc == v->desc &&
		    copy_live(e, j, o, a, b)) {
			ralab__text_printf(&e->b, "map %llu\n",
			    (unsigned long long)v->off);
			e->sel[j] = vm + 1;
			return;
		}
	}
}

/*
 * 'munmap OFF LEN' of part of job @j's copy of mapping @op->vm (made),
 * for TB_MUNMAP_PART op @op: left out where it unmaps nothing the copy
 * maps, or all it still maps within the file (the pages past the file's
 * end it leaves, the replay does not map), or the copy has as many holes
 * as the parser keeps (counted before merging: the parser merges).
 */
static void vm_hole(struct emit *e, unsigned j, const struct tb_op *op)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	uint64_t a = op->off > v->off ? op->off : v->off;
	uint64_t b = op->off + op->len, end = v->off + e->vm[op->vm].len;
	unsigned i, n = 0;

	if (b > end)
		b = end;
	if (a >= b || !copy_live(e, j, op->vm, a, b) ||
	    (!copy_live(e, j, op->vm, v->off, a) &&
	     !copy_live(e, j, op->vm, b, end)))
		return;
	for (i = 0; i < e->nr_holes; i++)
		if (e->holes[i].job == j && e->holes[i].vm == op->vm)
			n++;
	if (n == MAX_HOLES ||
	    !tb_grow((void **)&e->holes, &e->cap_holes, e->nr_holes + 1,
		     sizeof(*e->holes))) {
		note_once(e, NOTED_HOLES, "munmap() of more parts of one mapping than ralab keeps holes in (64): the later parts stay mapped");
		return;
	}
	select_fd(e, v->desc);
	select_vm(e, j, op->vm, a, b);
	e->holes[e->nr_holes++] = (struct emit_hole){ j, op->vm, a, b };
	e->vm[op->vm].nr_holes++;
	ralab__text_printf(&e->b, "munmap %llu %llu\n", (unsigned long long)a,
	    (unsigned long long)(b - a));
}

/* The replay's notes give these numbers in their text. */
_Static_assert(MAX_MAPS == 64 && MAX_HOLES == 64 && MAX_PROTS == 32 &&
		       MAX_JOBS == 64,
	       "the replay's notes name 64 mappings, 64 holes, 32 mprotect() parts and 64 jobs");

/*
 * Make mapping @op->vm in the current job, if it is not: a thread using
 * another's mapping, or a child its parent's, gets one of its own (the
 * same file range).  False if it is not replayed: it starts past the
 * file's end, the job holds MAX_MAPS mappings already, or it overlaps
 * another of the same descriptor (which .ops cannot tell apart).
 */
static bool vm_make(struct emit *e, const struct tb_op *op)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	struct emit_vm *ev = &e->vm[op->vm];
	unsigned j = e->job, k;
	uint64_t size = tb_size(&e->t->files[e->t->descs[v->desc].file]);

	if (ev->skip)
		return false;
	if (ev->jobs & (1ull << j))
		return true;
	size = (size + 4095) & ~(uint64_t)4095;
	if (v->off >= size) {
		note_once(e, NOTED_PAST_EOF, "a mapping from past the end of its file is not replayed");
		ev->skip = true;
		return false;
	}
	ev->len = v->len < size - v->off ? v->len : size - v->off;
	if (e->nr_job_vms[j] == MAX_MAPS) {
		/* The number is MAX_MAPS (asserted above). */
		note_once(e, NOTED_TOO_MANY, "a process held more mappings at once than a job can (64): the later ones are not replayed");
		ev->skip = true;
		return false;
	}
	for (k = 0; k < e->nr_job_vms[j]; k++) {
		const struct tb_vm *o = &e->t->vms[e->job_vms[j][k]];

		if (o->desc == v->desc && o->off == v->off) {
			note_once(e, NOTED_OVERLAP, "a mapping from where another mapping of the same descriptor starts is not replayed ('map OFF' names mappings by their start)");
			ev->skip = true;
			return false;
		}
	}
	select_fd(e, v->desc);
	/* MAP_POPULATE: the mmap() call faults the pages in, not a child's. */
	/*
	 * PROT_EXEC and PROT_WRITE always (how faults read ahead, what an
	 * mprotect() changes), MAP_LOCKED
	 * and MAP_POPULATE only where the mmap() call was (a mapping made
	 * anew for a later op has no populate of its own).
	 */
	ralab__text_printf(&e->b, "mmap %llu %llu%s%s%s\n", (unsigned long long)v->off,
	    (unsigned long long)ev->len,
	    op->kind != TB_MMAP		 ? "" :
	    v->flags & TB_MAP_LOCKED	 ? " locked" :
	    v->flags & TB_MAP_POPULATE ? " populate" :
					   "",
	    v->flags & TB_MAP_EXEC ? " exec" : "",
	    v->flags & TB_MAP_WRITE ? " write" : "");
	ev->jobs |= 1ull << j;
	e->job_vms[j][e->nr_job_vms[j]++] = op->vm;
	e->desc_vms[v->desc]++;
	/* The parts of it unmapped before: by whichever process. */
	for (k = 0; k < ev->nr_parts && ev->parts[k] < (size_t)(op - e->t->ops);
	     k++)
		vm_hole(e, j, &e->t->ops[ev->parts[k]]);
	return true;
}

static void vm_unmap(struct emit *e, const struct tb_op *op)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	unsigned j = e->job, k;
	uint64_t at;

	if (!(e->vm[op->vm].jobs & (1ull << j)))
		return;
	select_fd(e, v->desc);
	/* Named by a page it still maps: one in a hole may be another's. */
	at = first_live(e, j, op->vm, v->off, v->off + e->vm[op->vm].len);
	select_vm(e, j, op->vm, at, at + 1);
	ralab__text_printf(&e->b, "munmap %llu\n", (unsigned long long)at);
	if (e->sel[j] == op->vm + 1)
		e->sel[j] = 0;
	e->vm[op->vm].jobs &= ~(1ull << j);
	for (k = 0; k < e->nr_holes;)
		if (e->holes[k].job == j && e->holes[k].vm == op->vm) {
			e->holes[k] = e->holes[--e->nr_holes];
			e->vm[op->vm].nr_holes--;
		} else
			k++;
	for (k = 0; k < e->nr_prots;)
		if (e->prots[k].job == j && e->prots[k].vm == op->vm)
			e->prots[k] = e->prots[--e->nr_prots];
		else
			k++;
	for (k = 0; k < e->nr_job_vms[j]; k++)
		if (e->job_vms[j][k] == op->vm) {
			e->job_vms[j][k] = e->job_vms[j][--e->nr_job_vms[j]];
			break;
		}
	if (!--e->desc_vms[v->desc] && e->close_pending[v->desc]) {
		/* The file's last mapping is gone, and its descriptor was. */
		ralab__text_printf(&e->b, "close\n");
		e->cur = (unsigned)-1;
		e->close_pending[v->desc] = false;
	}
}

static const char *madvice_name(int advice)
{
	switch (advice) {
	case MADV_NORMAL_: return "normal";
	case MADV_RANDOM_: return "random";
	case MADV_SEQUENTIAL_: return "sequential";
	case MADV_WILLNEED_: return "willneed";
	case MADV_DONTNEED_: return "dontneed";
	case MADV_HUGEPAGE_: return "hugepage";
	case MADV_NOHUGEPAGE_: return "nohugepage";
	case MADV_COLD_: return "cold";
	case MADV_PAGEOUT_: return "pageout";
	case MADV_POPULATE_READ_: return "populate_read";
	case MADV_POPULATE_WRITE_: return "populate_write";
	case MADV_DONTNEED_LOCKED_: return "dontneed_locked";
	default: return NULL;
	}
}

/*
 * Where mapping op @op's range ends: the mapping's end, or for an op
 * that faults pages in (@populates), the file's end if that comes first
 * (a note if the range starts past it).
 */
static uint64_t vm_op_end(struct emit *e, const struct tb_op *op,
			  bool populates)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	uint64_t end = v->off + e->vm[op->vm].len;
	uint64_t eof = (e->size[e->t->descs[v->desc].file] + 4095) / 4096 *
		       4096;

	if (!populates)
		return end;
	if (eof < end)
		end = eof;
	if (op->off >= end)
		note_once(e, NOTED_TOUCH_EOF, "a fault past the end the replayed file has then is left out (the replay's writes or truncates differ from the program's)");
	return end;
}

/* Job @j's copy of mapping @vm: what 'mprotect' gave it (@make: new). */
static struct emit_prot *prot_of(struct emit *e, unsigned j, unsigned vm,
				 bool make)
{
	unsigned i;

	for (i = 0; i < e->nr_prots; i++)
		if (e->prots[i].job == j && e->prots[i].vm == vm)
			return &e->prots[i];
	if (!make || !tb_grow((void **)&e->prots, &e->cap_prots,
			      e->nr_prots + 1, sizeof(*e->prots)))
		return NULL;
	e->prots[e->nr_prots] = (struct emit_prot){ .job = j, .vm = vm };
	return &e->prots[e->nr_prots++];
}

/*
 * Whether an access to [@off, @off + @len) (pages @step apart) through
 * the current job's copy of mapping @vm is one the program's mprotect()
 * denied, which the parser refuses (a SIGSEGV the program caught, or a
 * populate or mlock that failed): then it is left out, with a note.
 */
static bool prot_denies(struct emit *e, unsigned vm, uint64_t off,
			uint64_t len, uint64_t step, bool write)
{
	const struct emit_prot *p = prot_of(e, e->job, vm, false);
	uint64_t at;

	if (!p || !ralab__prot_denied(p->p, p->n, off, len, step, write, &at))
		return false;
	note_once(e, NOTED_PROT, "an access the program's mprotect() had denied (a fault it caught, a populate or mlock that failed) is left out");
	return true;
}

/* mprotect(): in the job's copy, as the parser keeps it. */
static void vm_protect(struct emit *e, const struct tb_op *op)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	uint64_t a = op->off, b = op->off + op->len;
	uint64_t end = v->off + e->vm[op->vm].len;
	struct emit_prot *p;

	if (b > end)
		b = end;
	if (a >= b || meets_hole(e, e->job, op->vm, a, b))
		return;
	p = prot_of(e, e->job, op->vm, true);
	if (!p || ralab__prot_set(p->p, &p->n, a, b, (unsigned)op->advice)) {
		note_once(e, NOTED_PROT, "mprotect() of more parts of one mapping than ralab keeps (32) is left out");
		return;
	}
	select_fd(e, v->desc);
	select_vm(e, e->job, op->vm, a, b);
	ralab__text_printf(&e->b, "mprotect %llu %llu %s\n",
	    (unsigned long long)a, (unsigned long long)(b - a),
	    ralab__prot_names[op->advice & 7]);
}

/* mmap, munmap, madvise, touch (a page fault). */
static void emit_vm(struct emit *e, const struct tb_op *op)
{
	const struct tb_vm *v = &e->t->vms[op->vm];
	uint64_t end;
	bool pop;

	switch (op->kind) {
	case TB_MMAP:
		vm_make(e, op);
		break;
	case TB_MUNMAP:
		vm_unmap(e, op);
		break;
	case TB_MUNMAP_PART:
		if (e->vm[op->vm].jobs & (1ull << e->job))
			vm_hole(e, e->job, op);
		break;
	case TB_MPROTECT:
		if (vm_make(e, op))
			vm_protect(e, op);
		break;
	case TB_MADVISE:
		if (!madvice_name(op->advice) || !vm_make(e, op))
			break;
		/*
		 * A populate faults pages in up to the file's end and fails
		 * (EFAULT) at the first page past it: to there.
		 */
		pop = op->advice == MADV_POPULATE_READ_ ||
		      op->advice == MADV_POPULATE_WRITE_;
		end = vm_op_end(e, op, pop);
		if (op->off >= end)
			break;
		if (end - op->off > op->len)
			end = op->off + op->len; /* the range, within the file */
		if (op->advice == MADV_PAGEOUT_ && e->cow) {
			note_once(e, NOTED_PAGEOUT_COW, "madvise(MADV_PAGEOUT) is not replayed in a log with write faults through a private mapping (ralab does not track their anonymous copies)");
			break;
		}
		if (meets_hole(e, e->job, op->vm, op->off, end) ||
		    (pop && prot_denies(e, op->vm, op->off, end - op->off, 4096,
					op->advice == MADV_POPULATE_WRITE_)))
			break;
		select_fd(e, v->desc); /* the mapping is found by it */
		select_vm(e, e->job, op->vm, op->off, end);
		ralab__text_printf(&e->b, "madvise %llu %llu %s\n", (unsigned long long)op->off,
		    (unsigned long long)(end - op->off), madvice_name(op->advice));
		break;
	case TB_MLOCK:
		if (!vm_make(e, op))
			break;
		/*
		 * An mlock populates up to the file's end and fails (ENOMEM)
		 * past it, which the parser refuses: to there.
		 */
		end = vm_op_end(e, op, op->advice == MLOCK_ON_);
		if (op->off >= end)
			break;
		if (end - op->off > op->len)
			end = op->off + op->len;
		if (meets_hole(e, e->job, op->vm, op->off, end) ||
		    (op->advice == MLOCK_ON_ &&
		     prot_denies(e, op->vm, op->off, end - op->off, 4096, false)))
			break;
		select_fd(e, v->desc);
		select_vm(e, e->job, op->vm, op->off, end);
		ralab__text_printf(&e->b, "%s %llu %llu%s\n",
		    op->advice == MLOCK_OFF_ ? "munlock" : "mlock",
		    (unsigned long long)op->off,
		    (unsigned long long)(end - op->off),
		    op->advice == MLOCK_ONFAULT_ ? " onfault" : "");
		break;
	case TB_TOUCH:
		if (!vm_make(e, op) || op->off >= v->off + e->vm[op->vm].len)
			break;
		/* Pages from DIV_ROUND_UP(size, PAGE_SIZE) on: SIGBUS. */
		end = e->size[e->t->descs[v->desc].file];
		if (op->off / 4096 >= (end + 4095) / 4096) {
			note_once(e, NOTED_TOUCH_EOF, "a fault past the end the replayed file has then is left out (the replay's writes or truncates differ from the program's)");
			break;
		}
		if (meets_hole(e, e->job, op->vm, op->off, op->off + 1) ||
		    prot_denies(e, op->vm, op->off, 1, 1, op->advice != 0))
			break;
		select_fd(e, v->desc);
		select_vm(e, e->job, op->vm, op->off, op->off + 1);
		ralab__text_printf(&e->b, "touch %llu 1%s\n", (unsigned long long)op->off,
		    op->advice == TOUCH_WRITE ? " 4096 write" :
		    op->advice == TOUCH_COW   ? " 4096 cow" :
						"");
		break;
	default:
		break;
	}
}

/* A call on a descriptor: read, fadvise, readahead, close, mappings. */
static void emit_call(struct emit *e, const struct tb_op *op)
{
	if (!e->map[op->desc])
		return; /* a descriptor of a file left out */
	if (op->kind == TB_MMAP || op->kind == TB_MUNMAP ||
	    op->kind == TB_MADVISE || op->kind == TB_TOUCH ||
	    op->kind == TB_MLOCK || op->kind == TB_MUNMAP_PART ||
	    op->kind == TB_MPROTECT) {
		emit_vm(e, op);
		return;
	}
	if (op->kind == TB_CLOSE && e->desc_vms[op->desc]) {
		e->close_pending[op->desc] = true;
		return;
	}
	/*
	 * An msync of a mapping not replayed (its descriptor may be closed
	 * by now): its writes were not either.
	 */
	if (op->kind == TB_FSYNC && op->advice &&
	    !(e->vm[op->vm].jobs & (1ull << e->job)))
		return;
	/*
	 * So is an madvise(MADV_REMOVE) of one: its descriptor may be closed
	 * too (fuzz_strace: a mapping replaced at its start, not replayed).
	 */
	if (op->kind == TB_PUNCH && op->mapped &&
	    !(e->vm[op->vm].jobs & (1ull << e->job)))
		return;
	select_fd(e, op->desc);
	switch (op->kind) {
	case TB_CLOSE:
		ralab__text_printf(&e->b, "close\n");
		e->cur = (unsigned)-1;
		break;
	case TB_READ:
		emit_direct(e, op);
		emit_rwf(e, op->desc, op->dontcache);
		ralab__text_printf(&e->b, "pread %llu %llu\n", (unsigned long long)op->off,
		    (unsigned long long)op->len);
		break;
	case TB_SPLICE:
	case TB_SENDFILE: {
		const struct tb_file *sf = &e->t->files[e->t->descs[op->desc].file];
		/* Short of what it asked, before EOF: the pipe filled. */
		bool cut = op->ret < op->len && op->off + op->ret < tb_size(sf);
		uint64_t span;

		emit_direct(e, op);
		if (op->kind == TB_SENDFILE) {
			ralab__text_printf(&e->b, "sendfile %llu %llu",
			    (unsigned long long)op->off, (unsigned long long)op->len);
			if (cut)
				ralab__text_printf(&e->b, " %llu",
				    (unsigned long long)op->ret);
			ralab__text_printf(&e->b, "\n");
			break;
		}
		/*
		 * Each page it took filled a buffer: a pipe larger than a new
		 * one's 16 buffers if it took more, one with that many free
		 * if it filled sooner.
		 */
		span = op->ret ? (op->off % 4096 + op->ret + 4095) / 4096 : 0;
		if (!span || (!cut && span < PIPE_DEF_BUFFERS))
			span = PIPE_DEF_BUFFERS;
		if (span > PIPE_MAX_BUFFERS)
			span = PIPE_MAX_BUFFERS;
		ralab__text_printf(&e->b, "splice %llu %llu %llu\n",
		    (unsigned long long)op->off, (unsigned long long)op->len,
		    (unsigned long long)span);
		break;
	}
	case TB_WRITE: {
		/* A file has blocks up to its declared size: cut there. */
		const struct tb_file *wf = &e->t->files[e->t->descs[op->desc].file];
		uint64_t size = tb_size(wf);

		/*
		 * An O_DIRECT write is replayed over the file's own blocks
		 * only (the parser refuses the rest, where the filesystem
		 * allocates): not into holes or unwritten extents, nor into
		 * a file truncated or fallocated.
		 */
		if (op->advice && ((wf->has_lay && wf->lay.nhole) ||
				   wf->sized || wf->fallocated)) {
			note_once(e, NOTED_DIRECT_WRITE, "writes through an O_DIRECT descriptor of a file with holes, or truncated or fallocated, are not replayed (the filesystem allocates there)");
			break;
		}

		if (op->off >= size || op->len > size - op->off)
			note_once(e, NOTED_WRITE_EOF, "a write past the size the file is declared with is cut there");
		if (op->off < size) {
			uint64_t n = op->len < size - op->off ? op->len :
								  size - op->off;
			unsigned fi = e->t->descs[op->desc].file;

			emit_direct(e, op);
			emit_rwf(e, op->desc, op->dontcache);
			ralab__text_printf(&e->b, "pwrite %llu %llu\n",
			    (unsigned long long)op->off, (unsigned long long)n);
			if (op->off + n > e->size[fi])
				e->size[fi] = op->off + n;
		}
		break;
	}
	case TB_FSYNC:
		ralab__text_printf(&e->b, "fsync\n");
		break;
	case TB_RA_STATE: {
		const struct tb_file *f =
			&e->t->files[e->t->descs[op->desc].file];

		if (fra_set(f))
			ralab__text_printf(&e->b, "ra start=%llu size=%u async_size=%u order=%u mmap_miss=%u prev_pos=%lld\n",
			    (unsigned long long)fra_start(e->t, f),
			    f->lay.fra.size, f->lay.fra.async_size,
			    f->lay.fra.order, f->lay.fra.mmap_miss,
			    (long long)f->lay.fra.prev_pos);
		break;
	}
	case TB_CACHED:
		ralab__text_printf(&e->b, "cached %llu %llu %llu%s\n",
		    (unsigned long long)op->off, (unsigned long long)op->len,
		    (unsigned long long)op->ret,
		    op->advice ? " readahead" : "");
		break;
	case TB_SETFL:
		ralab__text_printf(&e->b, "setfl %s\n", op->advice ? "direct" : "buffered");
		e->direct[op->desc] = op->advice != 0;
		break;
	case TB_FALLOCATE: {
		/* Blocks up to the declared size: cut there. */
		uint64_t size = tb_size(&e->t->files[e->t->descs[op->desc].file]);

		if (op->off < size) {
			uint64_t n = op->len < size - op->off ? op->len :
								  size - op->off;
			unsigned fi = e->t->descs[op->desc].file;

			ralab__text_printf(&e->b, "fallocate %llu %llu%s\n",
			    (unsigned long long)op->off, (unsigned long long)n,
			    op->advice ? " keep" : "");
			if (!op->advice && op->off + n > e->size[fi])
				e->size[fi] = op->off + n;
		}
		break;
	}
	case TB_PUNCH: {
		/*
		 * A punch is replayed as made, inside blocks and past EOF too,
		 * in a file the log does not truncate or fallocate (what the
		 * parser models; check_punches()), whose holes left in the
		 * layout are its own (unpunch_layouts()).  A write into it
		 * later is the model's to count (hole_writes).  Past 16 TiB,
		 * which only XFS allows, nothing is left to punch: cut there.
		 */
		unsigned fi = e->t->descs[op->desc].file;
		const struct tb_file *pf = &e->t->files[fi];
		uint64_t n = op->len;

		if (e->resized[fi] ||
		    (pf->has_lay && pf->lay.nhole && !pf->unpunched)) {
			note_once(e, NOTED_PUNCH, "a hole punched or a range zeroed (fallocate(2) with FALLOC_FL_PUNCH_HOLE or FALLOC_FL_ZERO_RANGE) is not replayed in a file the log truncates or fallocates");
			break;
		}
		/*
		 * FALLOC_FL_ZERO_RANGE without KEEP_SIZE is the same inside
		 * the file (xfs_falloc_newsize(), ext4_zero_range(): the
		 * size moves only for a range past EOF), which is not
		 * replayed.  The size known is the one the log ends with: a
		 * range up to it may have made it, and is not replayed
		 * either.
		 */
		if (op->advice == TB_ZERO_GROW &&
		    (op->off >= e->size[fi] || n >= e->size[fi] - op->off)) {
			note_once(e, NOTED_ZERO_GROW, "fallocate(2) with FALLOC_FL_ZERO_RANGE and without FALLOC_FL_KEEP_SIZE up to or past EOF (which may have moved EOF) is not replayed");
			break;
		}
		if (!n || op->off >= WL_PUNCH_MAX)
			break;
		if (n > WL_PUNCH_MAX - op->off)
			n = WL_PUNCH_MAX - op->off;
		ralab__text_printf(&e->b, "%s %llu %llu\n",
		    op->advice ? "zero-range" : "punch",
		    (unsigned long long)op->off, (unsigned long long)n);
		break;
	}
	case TB_TRUNCATE: {
		unsigned fi = e->t->descs[op->desc].file;
		const struct tb_file *f = &e->t->files[fi];

		if (e->no_trunc[fi])
			note_once(e, NOTED_TRUNC_MAP, "a truncate of a file that several processes map and write is not replayed");
		else if (op->off && f->has_lay && f->lay.nhole &&
			 f->lay.hole[0] < layout_before(f))
			note_once(e, NOTED_TRUNC_HOLES, "a truncate to a size other than 0 of a file with holes is not replayed");
		else {
			ralab__text_printf(&e->b, "truncate %llu\n",
			    (unsigned long long)op->off);
			e->size[fi] = op->off;
		}
		break;
	}
	case TB_FADVISE:
		ralab__text_printf(&e->b, "fadvise %llu %llu %s\n",
		    (unsigned long long)op->off, (unsigned long long)op->len,
		    advice_names[op->advice]);
		break;
	case TB_READAHEAD:
		ralab__text_printf(&e->b, "readahead %llu %llu\n",
		    (unsigned long long)op->off, (unsigned long long)op->len);
		break;
	default:
		break;
	}
}

/*
 * The header settings a recorded layout gives: the main file's filesystem,
 * its device's readahead and request limits (the case has one device: a
 * file elsewhere is noted), and its extent starts.
 */
static void emit_setup(struct emit *e)
{
	const struct tb_file *m = &e->t->files[e->main_file], *first = NULL;
	unsigned i, gone;

	if (!m->has_lay)
		return;
	if (!strcmp(m->lay.fs, "xfs") || !strcmp(m->lay.fs, "ext4"))
		ralab__text_printf(&e->b, "# fs: %s\n", m->lay.fs);
	else if (m->lay.fs[0])
		ralab__text_printf(&e->b, "# the file is on %s; ralab replays it as on xfs\n",
		    m->lay.fs);
	if (m->lay.have_dev) {
		/*
		 * Devices without a limit of their own say UINT_MAX >> 1;
		 * only max_sectors_kb shapes requests, so the model's top
		 * stands in for those.
		 */
		unsigned mhw = m->lay.mhw_kb > (1u << 21) ? 1u << 21 :
							     m->lay.mhw_kb;

		ralab__text_printf(&e->b, "# read_ahead_kb: %u\n", m->lay.ra_kb);
		if (mhw >= 4 && m->lay.msk_kb >= 4 && m->lay.msk_kb <= mhw) {
			ralab__text_printf(&e->b, "# max_hw_sectors_kb: %u\n", mhw);
			ralab__text_printf(&e->b, "# max_sectors_kb: %u\n", m->lay.msk_kb);
		} else {
			ralab__text_printf(&e->b, "# max_sectors_kb %u (max_hw_sectors_kb %u) is not one ralab models\n",
			    m->lay.msk_kb, m->lay.mhw_kb);
		}
	}
	emit_layout(&e->b, m, "# extent_breaks: ", "# holes: ", "\n");
	if (layout_brk_after(m)) {
		/* All of them hold from the truncate on. */
		uint64_t size = tb_size(m);

		ralab__text_printf(&e->b, "# rebreaks: ");
		for (i = 0; i < m->lay.nbrk && m->lay.brk[i] < size; i++)
			ralab__text_printf(&e->b, "%s%llu", i ? "," : "",
			    (unsigned long long)m->lay.brk[i]);
		ralab__text_printf(&e->b, "\n");
	}
	for (i = 0; i < e->t->nr_files; i++) {
		const struct tb_file *f = &e->t->files[i];

		if (f->used && f->has_lay && i != e->main_file &&
		    (f->lay.have_dev != m->lay.have_dev ||
		     f->lay.ra_kb != m->lay.ra_kb ||
		     f->lay.msk_kb != m->lay.msk_kb ||
		     strcmp(f->lay.fs, m->lay.fs)))
			ralab__text_printf(&e->b, NOTE "%s is on another filesystem or device (%s, read_ahead_kb %u): replayed with main's\n",
			    f->name, f->lay.fs[0] ? f->lay.fs : "?",
			    f->lay.ra_kb);
	}
	/*
	 * In a log 'ralab record' described (main has its line), a file
	 * without one was gone when the run ended (a temporary file the
	 * program removed): where it lay, and on which device, is not known.
	 */
	for (i = 0, gone = 0; i < e->t->nr_files; i++) {
		const struct tb_file *f = &e->t->files[i];

		if (f->used && !f->has_lay && !gone++)
			first = f;
	}
	if (gone == 1)
		ralab__text_printf(&e->b, NOTE "%s (%s) has no '# ralab file' line (gone when 'ralab record' ended, as a temporary file is): replayed on main's device, in one extent\n",
		    first->name, first->path);
	else if (gone)
		ralab__text_printf(&e->b, NOTE "%u files, the first %s (%s), have no '# ralab file' line (gone when 'ralab record' ended, as temporary files are): replayed on main's device, each in one extent\n",
		    gone, first->name, first->path);
}

/* Whether @op is replayed (a call on a descriptor of a file kept). */
static bool replayed(const struct tb *t, const struct tb_op *op)
{
	return (op->kind == TB_READ || op->kind == TB_FADVISE ||
		op->kind == TB_READAHEAD || op->kind == TB_WRITE ||
		op->kind == TB_FSYNC || op->kind == TB_TRUNCATE ||
		op->kind == TB_FALLOCATE || op->kind == TB_SETFL ||
		op->kind == TB_PUNCH || op->kind == TB_MMAP ||
		op->kind == TB_MUNMAP || op->kind == TB_MADVISE ||
		op->kind == TB_TOUCH || op->kind == TB_MLOCK ||
		op->kind == TB_MUNMAP_PART || op->kind == TB_MPROTECT ||
		op->kind == TB_SPLICE || op->kind == TB_SENDFILE ||
		op->kind == TB_CACHED || op->kind == TB_RA_STATE) &&
	       t->files[t->descs[op->desc].file].used;
}

/* One stream: the ops in the log's order. */
static void emit_serial(struct emit *e)
{
	struct tb *t = e->t;
	size_t k;

	for (k = 0; k < t->nr_ops; k++) {
		const struct tb_op *op = &t->ops[k];

		switch (op->kind) {
		case TB_NOTE:
			ralab__text_printf(&e->b, NOTE "%s\n", op->note);
			break;
		case TB_PAUSE:
			if (!t->untimed)
				ralab__text_printf(&e->b, "pause %llu\n",
				    (unsigned long long)op->len);
			break;
		case TB_PACE:
			ralab__text_printf(&e->b, "pace %llu\n", (unsigned long long)op->len);
			break;
		case TB_OPEN:
			emit_open(e, op);
			break;
		default:
			emit_call(e, op);
			break;
		}
	}
}

/*
 * A job per process, each pausing as its own timeline does; the first
 * pause of each is from the log's first replayed call.  Threads share
 * descriptors (a process's children may too), so descriptors are not a
 * job's own: all are opened at the start, by the first job, and never
 * closed (which changes nothing for readahead: a descriptor opened again
 * is a new one, with fresh readahead state, as in the log).
 *
 *   job p41          close             (descriptor 0 of main)
 *                    file f1_a 1000    (every descriptor of the log)
 *                    open f1_a ...
 *                    pause, fd, pread  (pid 41's calls)
 *   job p42          close             (the job's own descriptor on main)
 *                    pause, fd, pread  (pid 42's calls)
 */
static int emit_jobs(struct emit *e, const bool *active)
{
	struct tb *t = e->t;
	size_t *order, *at, k;
	int64_t t0 = INT64_MAX, last;
	unsigned j;
	bool first = true;

	order = malloc((t->nr_ops + 1) * sizeof(*order));
	at = calloc(t->nr_jobs + 1, sizeof(*at));
	if (!order || !at) {
		free(order);
		free(at);
		return -ENOMEM;
	}
	/* The ops grouped by job, in the log's order within each. */
	for (k = 0; k < t->nr_ops; k++)
		at[t->ops[k].job + 1]++;
	for (j = 0; j < t->nr_jobs; j++)
		at[j + 1] += at[j];
	for (k = 0; k < t->nr_ops; k++) {
		const struct tb_op *op = &t->ops[k];

		order[at[op->job]++] = k;
		if (replayed(t, op) && op->start >= 0 && op->start < t0)
			t0 = op->start;
	}
	k = 0;
	for (j = 0; j < t->nr_jobs; j++) {
		size_t end = at[j];

		if (!active[j]) {
			k = end;
			continue;
		}
		ralab__text_printf(&e->b, "job p%ld\nclose\n", t->pids[j]);
		e->job = first ? 0 : e->job + 1; /* at most MAX_JOBS are active */
		if (first) {
			size_t i;

			for (i = 0; i < t->nr_ops; i++)
				if (t->ops[i].kind == TB_OPEN)
					emit_open(e, &t->ops[i]);
			first = false;
		} else {
			e->next++; /* the job's own descriptor on main */
		}
		e->cur = (unsigned)-1;
		last = t0;
		for (; k < end; k++) {
			const struct tb_op *op = &t->ops[order[k]];

			if (op->kind == TB_NOTE) {
				ralab__text_printf(&e->b, NOTE "%s\n", op->note);
				continue;
			}
			if (!replayed(t, op))
				continue;
			if (op->start >= 0) {
				uint64_t gap = op->start > last ?
						       (uint64_t)(op->start - last) : 0;

				if (gap)
					ralab__text_printf(&e->b, "pause %llu\n",
					    (unsigned long long)(gap < TB_MAX_USEC ?
								 gap : TB_MAX_USEC));
				if (op->end > last)
					last = op->end;
			}
			emit_call(e, op);
		}
	}
	free(order);
	free(at);
	return 0;
}

/*
 * Jobs: a mapped file whose mappings, truncates and writes are in several
 * jobs keeps its truncates out of the replay (the parser refuses them:
 * which comes first, so whether a touch finds the end moved, is timing).
 */
static void find_no_trunc(struct emit *e)
{
	const struct tb *t = e->t;
	unsigned *job = calloc(t->nr_files + 1, sizeof(*job)), fi;
	size_t k;

	if (!job) {
		/* Out of memory: leave them all out. */
		for (fi = 0; fi < t->nr_files; fi++)
			e->no_trunc[fi] = true;
		return;
	}
	for (k = 0; k < t->nr_ops; k++) {
		const struct tb_op *op = &t->ops[k];

		if (op->kind != TB_TRUNCATE && op->kind != TB_WRITE &&
		    op->kind != TB_FALLOCATE && op->kind != TB_MMAP &&
		    op->kind != TB_TOUCH && op->kind != TB_MLOCK)
			continue;
		fi = t->descs[op->desc].file;
		if (!job[fi])
			job[fi] = op->job + 1;
		else if (job[fi] != op->job + 1 && t->files[fi].mapped)
			e->no_trunc[fi] = true;
	}
	free(job);
}

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * 'ralab record' describes a file as the run left it: the holes a
 * program punched are in its layout, each with a break at its end (the
 * data after a hole is not the disk block after the data before it, in
 * the layout's terms).  The replay punches them itself, so a file with
 * punches and no other change starts without them: its holes less the
 * punches are its own, which stay (with a break at the end of one the
 * punches do not reach), and the breaks at the ends of holes they reach
 * go (the punched part, read as data before its punch, keeps its
 * space).  A punch frees the whole 4 KiB blocks inside its range, and on
 * ext4 one reaching past EOF the EOF block too (filemap_punch()).
 *
 *   recorded:  data [ own  |punched]| data      | a break
 *   replayed:  data [ own ] data-to-be-punched  data
 */
static int unpunch_layouts(struct tb *t, const bool *resized)
{
	uint64_t *r = NULL;
	size_t *npunch, n, m, c;
	uint64_t *nh, size;
	unsigned fi, i, j, k;
	bool ext4;

	/* Each file's punches, counted in one pass over the log. */
	npunch = calloc(t->nr_files + 1, sizeof(*npunch));
	if (!npunch)
		return -ENOMEM;
	for (c = 0; c < t->nr_ops; c++)
		if (t->ops[c].kind == TB_PUNCH)
			npunch[t->descs[t->ops[c].desc].file]++;
	for (fi = 0; fi < t->nr_files; fi++) {
		struct tb_layout *l = &t->files[fi].lay;

		if (!t->files[fi].has_lay || resized[fi] || !l->nhole ||
		    !(n = npunch[fi]))
			continue;
		/* The file's punches as [start, end) pairs, sorted, merged. */
		free(r);
		r = malloc(n * 2 * sizeof(*r));
		if (!r) {
			free(npunch);
			return -ENOMEM;
		}
		size = tb_size(&t->files[fi]);
		ext4 = !strcmp(l->fs, "ext4");
		for (c = m = 0; c < t->nr_ops; c++) {
			const struct tb_op *op = &t->ops[c];
			uint64_t a, b;

			if (op->kind != TB_PUNCH ||
			    t->descs[op->desc].file != fi)
				continue;
			a = (op->off + 4095) & ~(uint64_t)4095;
			b = (op->off + op->len) & ~(uint64_t)4095;
			/* ext4 ends one reaching past EOF after EOF's page. */
			if (ext4 && op->off + op->len > size)
				b = UINT64_MAX;
			if (a >= b)
				continue;
			r[2 * m] = a;
			r[2 * m++ + 1] = b;
		}
		if (!m) {
			t->files[fi].unpunched = true;
			continue;
		}
		qsort(r, m, 2 * sizeof(*r), cmp_range);
		for (c = 1, n = 1; c < m; c++) {
			if (r[2 * c] <= r[2 * (n - 1) + 1]) {
				if (r[2 * c + 1] > r[2 * (n - 1) + 1])
					r[2 * (n - 1) + 1] = r[2 * c + 1];
			} else {
				r[2 * n] = r[2 * c];
				r[2 * n++ + 1] = r[2 * c + 1];
			}
		}
		/*
		 * Each hole less the punches (both sorted): what is left was
		 * a hole before the run, one of the file's own; a hole the
		 * punches reach into loses the break at its end, which their
		 * space made.  Up to one piece more per merged punch.
		 */
		nh = malloc(((size_t)l->nhole + n) * 2 * sizeof(*nh));
		if (!nh) {
			free(r);
			free(npunch);
			return -ENOMEM;
		}
		for (i = 0, c = 0, m = 0; i < l->nhole; i++) {
			uint64_t a = l->hole[2 * i], b = l->hole[2 * i + 1];
			bool cut = false;

			while (c < n && r[2 * c + 1] <= a)
				c++;
			for (; c < n && r[2 * c] < b; c++) {
				if (r[2 * c] > a) {
					nh[2 * m] = a;
					nh[2 * m++ + 1] = r[2 * c];
				}
				cut = true;
				a = r[2 * c + 1] < b ? r[2 * c + 1] : b;
				if (r[2 * c + 1] > b)
					break;
			}
			if (a < b) {
				nh[2 * m] = a;
				nh[2 * m++ + 1] = b;
			}
			if (!cut)
				continue;
			for (j = k = 0; j < l->nbrk; j++)
				if (l->brk[j] != b)
					l->brk[k++] = l->brk[j];
			l->nbrk = k;
		}
		free(l->hole);
		l->hole = nh;
		l->nhole = (unsigned)m;
		t->files[fi].unpunched = true;
	}
	free(r);
	free(npunch);
	return 0;
}

int tb_emit(struct tb *t, const char *what, const char *source, char **ops)
{
	struct emit e = { .t = t, .cur = (unsigned)-1, .next = 1 };
	unsigned i, nr_active = 0, nread = 0;
	bool have = false, *active = NULL, jobs = false;
	size_t k;
	int err = 0;

	*ops = NULL;
	if (t->oom)
		return -ENOMEM;
	/*
	 * Files nothing was read from (directories, say) are left out, and
	 * so are those that were in the page cache (cached=1): noted below.
	 */
	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].used &&
		    (!t->files[i].reads ||
		     (t->files[i].has_lay && t->files[i].lay.cached)))
			t->files[i].used = 0;
	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].used) {
			if (!have)
				e.main_file = i;
			have = true;
			nread++;
		}
	if (!have)
		return -ENODATA;
	/* A program may write many files; a replay reads at most these. */
	if (nread > TB_MAX_FILES)
		return -E2BIG;
	/* ralab descriptor numbers, in the order descriptors are opened. */
	e.map = calloc(t->nr_descs + 1, sizeof(*e.map));
	e.desc_vms = calloc(t->nr_descs + 1, sizeof(*e.desc_vms));
	e.close_pending = calloc(t->nr_descs + 1, sizeof(*e.close_pending));
	e.direct = calloc(t->nr_descs + 1, sizeof(*e.direct));
	e.rwf = calloc(t->nr_descs + 1, sizeof(*e.rwf));
	e.vm = calloc(t->nr_vms + 1, sizeof(*e.vm));
	active = calloc(t->nr_jobs + 1, sizeof(*active));
	e.size = calloc(t->nr_files + 1, sizeof(*e.size));
	e.no_trunc = calloc(t->nr_files + 1, sizeof(*e.no_trunc));
	e.resized = calloc(t->nr_files + 1, sizeof(*e.resized));
	if (!e.map || !e.desc_vms || !e.close_pending || !e.direct || !e.rwf ||
	    !e.vm ||
	    !active || !e.size || !e.no_trunc || !e.resized) {
		err = -ENOMEM;
		goto done;
	}
	for (k = 0; k < t->nr_ops; k++)
		if (t->ops[k].kind == TB_TOUCH &&
		    t->ops[k].advice == TOUCH_COW)
			e.cow = true;
	/* Each mapping's TB_MUNMAP_PART ops, for copies made later. */
	for (k = 0; k < t->nr_ops; k++) {
		struct emit_vm *ev;

		if (t->ops[k].kind != TB_MUNMAP_PART)
			continue;
		ev = &e.vm[t->ops[k].vm];
		if (!tb_grow((void **)&ev->parts, &ev->cap_parts, ev->nr_parts + 1u,
			     sizeof(*ev->parts))) {
			err = -ENOMEM;
			goto done;
		}
		ev->parts[ev->nr_parts++] = k;
	}
	if (t->concurrent && !t->untimed) {
		for (k = 0; k < t->nr_ops; k++)
			if (replayed(t, &t->ops[k]) && !active[t->ops[k].job]) {
				active[t->ops[k].job] = true;
				nr_active++;
			}
		if (nr_active <= MAX_JOBS)
			jobs = true;
		else
			tb_untimed(t, "calls of more processes than ralab has jobs (64) overlap in time");
	}
	for (i = 0; i < t->nr_files; i++)
		e.size[i] = tb_size(&t->files[i]);
	for (k = 0; k < t->nr_ops; k++) {
		const struct tb_op *op = &t->ops[k];

		if (op->kind == TB_TRUNCATE || op->kind == TB_FALLOCATE)
			e.resized[t->descs[op->desc].file] = true;
	}
	if ((err = unpunch_layouts(t, e.resized)))
		goto done;
	if (jobs)
		find_no_trunc(&e);
	ralab__text_printf(&e.b, "# generated by ralab from %s (%s)\n", source, what);
	ralab__text_printf(&e.b, "# file_size: %llu\n", tb_size(&t->files[e.main_file]));
	emit_setup(&e);
	for (i = 0; i < t->nr_files; i++) {
		const struct tb_file *f = &t->files[i];

		if (!f->used)
			continue;
		ralab__text_printf(&e.b, "# %s = %s (%s)\n",
		    i == e.main_file ? "main" : f->name, f->path,
		    f->stat_max && f->stat_max == tb_size(f) &&
				    (!f->has_lay || f->lay.size < f->stat_max) ?
			    "size from fstat" :
		    f->has_lay                ? "size as recorded" :
		    f->eof != UINT64_MAX ? "size from a short read" :
					   "size: the largest offset read");
		if (f->has_lay && f->lay.dropped)
			ralab__text_printf(&e.b, "#   %u extent or hole edges not on a 4 KiB boundary left out\n",
			    f->lay.dropped);
	}
	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].has_lay && t->files[i].lay.cached &&
		    t->files[i].reads)
			ralab__text_printf(&e.b, "# not replayed: %s (cached=1: in the page cache before the run)\n",
			    t->files[i].path);
	if (jobs)
		ralab__text_printf(&e.b, "# jobs: one per process (or thread) of the log, as their calls overlap in time;\n"
			  "# pause: the time between two calls of the process; descriptors are\n"
			  "# shared, all opened at the start and never closed\n");
	else if (t->untimed && (t->paused || t->concurrent))
		ralab__text_printf(&e.b, "# no pauses: %s\n", t->untimed);
	else if (t->paused)
		ralab__text_printf(&e.b, "# pause: the time between two replayed calls (the application's)\n");
	if (jobs) {
		err = emit_jobs(&e, active);
	} else {
		ralab__text_printf(&e.b, "close\n");
		emit_serial(&e);
	}
done:
	if (e.vm)
		for (i = 0; i < t->nr_vms; i++)
			free(e.vm[i].parts);
	free(e.holes);
	free(e.prots);
	free(e.map);
	free(e.desc_vms);
	free(e.close_pending);
	free(e.direct);
	free(e.rwf);
	free(e.vm);
	free(e.size);
	free(e.no_trunc);
	free(e.resized);
	free(active);
	if (!err && e.b.oom)
		err = -ENOMEM;
	if (err) {
		free(e.b.s);
		return err;
	}
	*ops = e.b.s;
	return 0;
}
