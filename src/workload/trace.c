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

/* The longest 'pause' or 'pace' the .ops parser takes. */
#define TB_MAX_USEC 1000000000000ull

struct tb_file {
	char *path;
	char name[32];
	uint64_t max_end;  /* largest offset + bytes read */
	uint64_t eof;      /* size from a short read, or UINT64_MAX */
	uint64_t reads;
	unsigned used; /* 1: opened; 2: declared in the output */
};

enum tb_kind {
	TB_OPEN, TB_CLOSE, TB_READ, TB_FADVISE, TB_READAHEAD, TB_NOTE, TB_PAUSE,
	TB_PACE
};

struct tb_op {
	enum tb_kind kind;
	unsigned desc, file;
	uint64_t off, len;
	int advice;
	char *note;
};

struct tb_desc {
	long key1, key2; /* e.g. pid, fd */
	unsigned file;
	bool open;
};

struct tb {
	struct tb_file *files;
	unsigned nr_files, cap_files;
	struct tb_desc *descs;
	unsigned nr_descs, cap_descs;
	struct tb_op *ops;
	size_t nr_ops, cap_ops;
	bool oom, full;
	/* Pauses: some were given; untimed: why they are left out. */
	bool paused;
	const char *untimed;
};

struct tb *tb_new(void)
{
	return calloc(1, sizeof(struct tb));
}

void tb_free(struct tb *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_files; i++)
		free(t->files[i].path);
	for (i = 0; i < t->nr_ops; i++)
		free(t->ops[i].note);
	free(t->files);
	free(t->descs);
	free(t->ops);
	free(t);
}

static bool grow(void **p, unsigned *cap, size_t need, size_t size)
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
	return &t->ops[t->nr_ops++];
}

int tb_file(struct tb *t, const char *path)
{
	unsigned i;
	const char *base;
	struct tb_file *f;

	for (i = 0; i < t->nr_files; i++)
		if (!strcmp(t->files[i].path, path))
			return (int)i;
	if (t->nr_files == TB_MAX_FILES)
		return -ENOSPC;
	if (!grow((void **)&t->files, &t->cap_files, t->nr_files + 1,
		  sizeof(*t->files)))
		return -ENOMEM;
	f = &t->files[t->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->eof = UINT64_MAX;
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
	if (!grow((void **)&t->descs, &t->cap_descs, t->nr_descs + 1,
		  sizeof(*t->descs)))
		return -ENOMEM;
	t->descs[t->nr_descs] = (struct tb_desc){ k1, k2, (unsigned)file, true };
	op = add(t);
	if (!op)
		return -ENOMEM;
	op->kind = TB_OPEN;
	op->desc = t->nr_descs++;
	op->file = (unsigned)file;
	t->files[file].used |= 1;
	return 0;
}

void tb_close(struct tb *t, long k1, long k2)
{
	int d = find_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0)
		return;
	t->descs[d].open = false;
	op = add(t);
	if (op) {
		op->kind = TB_CLOSE;
		op->desc = (unsigned)d;
	}
}

bool tb_known(struct tb *t, long k1, long k2)
{
	return find_desc(t, k1, k2) >= 0;
}

void tb_read(struct tb *t, long k1, long k2, uint64_t off, uint64_t count,
	     int64_t ret)
{
	int d = find_desc(t, k1, k2);
	struct tb_file *f;
	struct tb_op *op;

	if (d < 0 || ret < 0)
		return;
	f = &t->files[t->descs[d].file];
	f->reads++;
	if (ret > 0 && off + (uint64_t)ret > f->max_end)
		f->max_end = off + (uint64_t)ret;
	/* A short read ends at EOF. */
	if ((uint64_t)ret < count && f->eof == UINT64_MAX)
		f->eof = off + (uint64_t)ret;
	op = add(t);
	if (op) {
		op->kind = TB_READ;
		op->desc = (unsigned)d;
		op->off = off;
		op->len = count;
	}
}

void tb_advise(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int advice, bool readahead)
{
	int d = find_desc(t, k1, k2);
	struct tb_op *op;

	if (d < 0)
		return;
	op = add(t);
	if (op) {
		op->kind = readahead ? TB_READAHEAD : TB_FADVISE;
		op->desc = (unsigned)d;
		op->off = off;
		op->len = len;
		op->advice = advice;
	}
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

struct buf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void out(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	while (!b->oom) {
		if (b->cap) {
			va_start(ap, fmt);
			n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
			va_end(ap);
			if (n >= 0 && (size_t)n < b->cap - b->len) {
				b->len += (size_t)n;
				return;
			}
		}
		{
			size_t c = b->cap ? b->cap * 2 : 1 << 16;
			char *s = realloc(b->s, c);

			if (!s) {
				b->oom = true;
				return;
			}
			b->s = s;
			b->cap = c;
		}
	}
}

int tb_emit(struct tb *t, const char *what, const char *source, char **ops)
{
	struct buf b = { 0 };
	unsigned *map = NULL, i, main_file = 0, cur = (unsigned)-1, next = 1;
	size_t k;
	bool have = false;

	*ops = NULL;
	if (t->oom)
		return -ENOMEM;
	/* Files nothing was read from (directories, say) are left out. */
	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].used && !t->files[i].reads)
			t->files[i].used = 0;
	for (i = 0; i < t->nr_files; i++)
		if (t->files[i].used) {
			main_file = i;
			have = true;
			break;
		}
	if (!have)
		return -ENODATA;
	/* ralab descriptor numbers, in the order descriptors are opened. */
	map = calloc(t->nr_descs + 1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	out(&b, "# generated by ralab from %s (%s)\n", source, what);
	out(&b, "# file_size: %llu\n",
	    (unsigned long long)(t->files[main_file].eof != UINT64_MAX ?
					 t->files[main_file].eof :
					 t->files[main_file].max_end));
	for (i = 0; i < t->nr_files; i++) {
		const struct tb_file *f = &t->files[i];

		if (f->used)
			out(&b, "# %s = %s (%s)\n", i == main_file ? "main" : f->name,
			    f->path,
			    f->eof != UINT64_MAX ? "size from a short read" :
						   "size: the largest offset read");
	}
	if (t->paused && t->untimed)
		out(&b, "# no pauses: %s\n", t->untimed);
	else if (t->paused)
		out(&b, "# pause: the time between two replayed calls (the application's)\n");
	out(&b, "close\n");
	for (k = 0; k < t->nr_ops; k++) {
		const struct tb_op *op = &t->ops[k];
		const struct tb_file *f;

		switch (op->kind) {
		case TB_NOTE:
			out(&b, "# %s\n", op->note);
			continue;
		case TB_PAUSE:
			if (!t->untimed)
				out(&b, "pause %llu\n", (unsigned long long)op->len);
			continue;
		case TB_PACE:
			out(&b, "pace %llu\n", (unsigned long long)op->len);
			continue;
		case TB_OPEN:
			f = &t->files[op->file];
			if (!f->used)
				continue;
			if (op->file == main_file) {
				out(&b, "open main\n");
			} else if (!(f->used & 2)) {
				out(&b, "file %s %llu\n", f->name,
				    (unsigned long long)(f->eof != UINT64_MAX ?
								 f->eof :
								 f->max_end));
				t->files[op->file].used = 3;
			} else {
				out(&b, "open %s\n", f->name);
			}
			map[op->desc] = next++;
			cur = map[op->desc];
			continue;
		default:
			break;
		}
		if (!map[op->desc])
			continue; /* a descriptor of a file left out */
		if (map[op->desc] != cur) {
			cur = map[op->desc];
			out(&b, "fd %u\n", cur);
		}
		switch (op->kind) {
		case TB_CLOSE:
			out(&b, "close\n");
			cur = (unsigned)-1;
			break;
		case TB_READ:
			out(&b, "pread %llu %llu\n", (unsigned long long)op->off,
			    (unsigned long long)op->len);
			break;
		case TB_FADVISE:
			out(&b, "fadvise %llu %llu %s\n",
			    (unsigned long long)op->off,
			    (unsigned long long)op->len,
			    advice_names[op->advice]);
			break;
		case TB_READAHEAD:
			out(&b, "readahead %llu %llu\n",
			    (unsigned long long)op->off,
			    (unsigned long long)op->len);
			break;
		default:
			break;
		}
	}
	free(map);
	if (b.oom) {
		free(b.s);
		return -ENOMEM;
	}
	*ops = b.s;
	return 0;
}
