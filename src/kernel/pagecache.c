// SPDX-License-Identifier: MIT
/*
 * pagecache.c - which files a program 'ralab record' runs found in the
 * page cache.
 *
 * The replay starts every file cold, but a real program reads files the
 * system had cached long before it ran (/etc/passwd, an interpreter's
 * modules).  The kernel says which files got pages during the run: the
 * filemap:mm_filemap_add_to_page_cache tracepoint names each folio's
 * device and inode.  A file the program read that got none was served
 * from the cache, made no device read and no readahead; annotate.c then
 * marks it cached=1, and the replay leaves it out.
 *
 * The events go to a tracefs instance of their own (following the
 * program's process tree, event-fork), read once at the end.  A file read
 * in full adds a folio per 4 KiB to 2 MiB: a run reading some hundreds of
 * MiB in small folios fills the buffer (8 MiB per CPU, kernel memory on
 * every CPU, so not more); if it lost events (overrun) nothing can be
 * called cached, and the log says so.
 *
 * Attached to a running process ('ralab record -p'), the instance also
 * has the readahead tracepoints: the first call on each file tells its
 * readahead state at the attach ('# ralab attach-ra' lines, attach_ra()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/tracefs.h"
#include "ralab.h"

#define ADD_EVENT "filemap/mm_filemap_add_to_page_cache"
#define PAGES_BUFFER_KB "8192" /* per CPU (kernel memory): some 10^5 events */
#define PAGES_SUFFIX "-pages"

struct ralab_cache_rec {
	char inst[512]; /* "" once removed */
	bool attach;    /* -p: the readahead events too (attach_ra()) */
};

/*
 * 'ralab record -p': the readahead tracepoints too.  Each prints, on
 * entry, the file_ra_state it found: the first such call on a file after
 * the attach tells that file's state then (attach_ra()).
 */
static const char *const ra_events[] = {
	"readahead/page_cache_sync_ra",
	"readahead/page_cache_async_ra",
	"readahead/page_cache_ra_order",
	"readahead/page_cache_ra_unbounded",
};

/* A file: its device (major, minor) and inode, as the tracepoint has it. */
struct ino {
	unsigned maj, min;
	unsigned long long ino;
};

void ralab_cache_rec_free(struct ralab_cache_rec *r)
{
	if (!r)
		return;
	if (r->inst[0])
		kx_inst_remove(r->inst);
	free(r);
}

/*
 * Trace the tasks @pids ("PID PID ...") and those they start; with
 * @attach, their readahead calls too.
 */
static int cache_rec_start(const char *pids, bool attach,
			   struct ralab_cache_rec **out,
			   struct ralab_diag *diag)
{
	struct ralab_cache_rec *r;
	char ev[128];
	unsigned i;
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if ((err = kx_inst_create(ADD_EVENT, "the page cache is", PAGES_SUFFIX,
				  r->inst, sizeof(r->inst), diag)))
		goto fail;
	if ((err = kx_inst_write(r->inst, "tracing_on", "0", diag)) ||
	    (err = kx_inst_write(r->inst, "buffer_size_kb", PAGES_BUFFER_KB, diag)) ||
	    (err = kx_inst_write(r->inst, "options/event-fork", "1", diag)) ||
	    (err = kx_inst_write(r->inst, "set_event_pid", pids, diag)) ||
	    (err = kx_inst_write(r->inst, "events/" ADD_EVENT "/enable", "1", diag)))
		goto fail;
	r->attach = attach;
	for (i = 0; attach && i < sizeof(ra_events) / sizeof(ra_events[0]);
	     i++) {
		snprintf(ev, sizeof(ev), "events/%s/enable", ra_events[i]);
		if ((err = kx_inst_write(r->inst, ev, "1", diag)))
			goto fail;
	}
	if ((err = kx_inst_write(r->inst, "tracing_on", "1", diag)))
		goto fail;
	*out = r;
	return 0;
fail:
	ralab_cache_rec_free(r);
	return err;
}

int ralab_cache_rec_start(int pid, struct ralab_cache_rec **out,
			  struct ralab_diag *diag)
{
	char val[32];

	snprintf(val, sizeof(val), "%d", pid);
	return cache_rec_start(val, false, out, diag);
}

int ralab_cache_rec_attach(int pid, struct ralab_cache_rec **out,
			   struct ralab_diag *diag)
{
	char tasks[8192];
	int err = kx_task_list(pid, tasks, sizeof(tasks), diag);

	*out = NULL;
	return err ? err : cache_rec_start(tasks, true, out, diag);
}

static int by_ino(const void *a, const void *b)
{
	const struct ino *x = a, *y = b;

	if (x->maj != y->maj)
		return x->maj < y->maj ? -1 : 1;
	if (x->min != y->min)
		return x->min < y->min ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/*
 * The inodes of the trace's events, sorted and each once, into *@out
 * (@*nr of them); 0 or -ENOMEM.
 */
static int trace_inos(FILE *in, struct ino **out, size_t *nr)
{
	struct ino *v = NULL;
	size_t n = 0, cap = 0, k, w;
	char line[1024];

	while (fgets(line, sizeof(line), in)) {
		const char *p =
			strstr(line, " mm_filemap_add_to_page_cache: dev ");
		struct ino x;

		if (!p || sscanf(p + 35, "%u:%u ino %llx", &x.maj, &x.min,
				 &x.ino) != 3)
			continue;
		/* Runs of one file's pages: keep the first. */
		if (n && !by_ino(&v[n - 1], &x))
			continue;
		if (n == cap) {
			struct ino *g =
				realloc(v, (cap ? 2 * cap : 64) * sizeof(*v));

			if (!g) {
				free(v);
				return -ENOMEM;
			}
			v = g;
			cap = cap ? 2 * cap : 64;
		}
		v[n++] = x;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_ino);
	for (k = w = 0; k < n; k++)
		if (!w || by_ino(&v[w - 1], &v[k]))
			v[w++] = v[k];
	*out = v;
	*nr = w;
	return 0;
}

/* A file's first readahead call after the attach, and what came of it. */
struct first_ra {
	struct ino f;
	bool async;
	unsigned long long index, size, async_size, order, mmap_miss;
	long long prev_pos;
	/* The window it read: the next ra_order or ra_unbounded's index. */
	bool have_next, known;
	unsigned long long next;
};

/*
 * The file_ra_state @x found, as 'f_ra=START:SIZE:ASYNC_SIZE:ORDER:
 * MMAP_MISS:PREV_POS' for annotate.c.  Its start the tracepoint does not
 * print.  After a synchronous call it is '?': the call sets its own, but
 * a random read's leaves the state as it was, and an asynchronous call
 * later finds that start; the replay takes it from the file's marked
 * folio (the mark is at start + size - async_size).  An
 * asynchronous one at the marked folio @index went on from the window
 * (start += size) if @index was where the window's mark falls
 * (round_down(start + size - async_size, 1 << order)), and the window it
 * read starts at @next: start is @next - size if that puts the mark at
 * @index; if not, it went the way of a mark without readahead state, and
 * start is one that does not put the mark there.
 */
static void put_fra(FILE *o, const struct first_ra *x)
{
	unsigned long long start = 0, unit = 1ull << x->order;

	fprintf(o, "# ralab attach-ra dev=%u:%u ino=%llu f_ra=", x->f.maj,
		x->f.min, x->f.ino);
	if (x->async) {
		if (x->have_next && x->next >= x->size &&
		    ((x->next - x->async_size) & ~(unit - 1)) == x->index)
			start = x->next - x->size;
		else if (((x->size - x->async_size) & ~(unit - 1)) == x->index)
			start = unit;
		fprintf(o, "%llu", start);
	} else {
		fputc('?', o); /* the replay takes it from the mark */
	}
	fprintf(o, ":%llu:%llu:%llu:%llu:%lld\n", x->size, x->async_size,
		x->order, x->mmap_miss, x->prev_pos);
}

/*
 * Each file's first readahead call in the trace @in and the window it
 * read, written to @o.  A file whose first is ra_order or ra_unbounded
 * alone (an mmap fault's read-around, readahead(2)) showed no state:
 * none is written.
 */
static int attach_ra(FILE *in, FILE *o)
{
	struct first_ra *v = NULL;
	size_t n = 0, k;
	char line[1024];

	while (fgets(line, sizeof(line), in)) {
		const char *p, *q;
		bool sync = false, async = false, next = false;
		struct first_ra x = { 0 };

		if ((p = strstr(line, " page_cache_sync_ra: ")))
			sync = true;
		else if ((p = strstr(line, " page_cache_async_ra: ")))
			async = true;
		else if ((p = strstr(line, " page_cache_ra_order: ")) ||
			 (p = strstr(line, " page_cache_ra_unbounded: ")))
			next = true;
		else
			continue;
		if (!(q = strstr(p, " dev=")) ||
		    sscanf(q, " dev=%u:%u ino=%llx index=%llu", &x.f.maj,
			   &x.f.min, &x.f.ino, &x.index) != 4)
			continue;
		for (k = 0; k < n; k++)
			if (!by_ino(&v[k].f, &x.f))
				break;
		if (k < n) {
			/* The window its first call read. */
			if (next && v[k].known && !v[k].have_next) {
				v[k].have_next = true;
				v[k].next = x.index;
			}
			continue;
		}
		if (!next &&
		    (!(q = strstr(p, " order=")) ||
		     sscanf(q, " order=%llu size=%llu async_size=%llu", &x.order,
			    &x.size, &x.async_size) != 3 ||
		     !(q = strstr(p, " mmap_miss=")) ||
		     sscanf(q, " mmap_miss=%llu prev_pos=%lld", &x.mmap_miss,
			    &x.prev_pos) != 2))
			continue;
		x.async = async;
		x.known = sync || async;
		{
			struct first_ra *g = realloc(v, (n + 1) * sizeof(*v));

			if (!g) {
				free(v);
				return -ENOMEM;
			}
			v = g;
		}
		v[n++] = x;
	}
	for (k = 0; k < n; k++)
		if (v[k].known)
			put_fra(o, &v[k]);
	free(v);
	return 0;
}

int ralab_cache_rec_finish(struct ralab_cache_rec *r, const char *log,
			   unsigned *ninodes, struct ralab_diag *diag)
{
	struct ino *v = NULL;
	size_t n = 0, k;
	unsigned long long lost;
	char path[600];
	FILE *in, *o;
	char *ra = NULL; /* attach_ra()'s lines */
	size_t ra_len = 0;
	int err;

	if ((err = kx_inst_write(r->inst, "tracing_on", "0", diag))) {
		ralab_cache_rec_free(r);
		return err;
	}
	lost = kx_overruns(r->inst);
	snprintf(path, sizeof(path), "%s/trace", r->inst);
	in = fopen(path, "re");
	if (!in) {
		err = kx_err(diag, -errno, "%s: %s", path, strerror(errno));
		ralab_cache_rec_free(r);
		return err;
	}
	err = trace_inos(in, &v, &n);
	/* The files' readahead state at the attach (lost events: none). */
	if (!err && r->attach && !lost) {
		FILE *m = open_memstream(&ra, &ra_len);

		rewind(in);
		err = m ? attach_ra(in, m) : -ENOMEM;
		if (m && fclose(m) && !err)
			err = -ENOMEM;
	}
	/* Closed first: an instance with a file open is not removed. */
	fclose(in);
	ralab_cache_rec_free(r);
	if (err) {
		free(ra);
		free(v);
		return err;
	}
	o = fopen(log, "ae");
	if (!o) {
		free(ra);
		free(v);
		return kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	}
	if (ra_len)
		fwrite(ra, 1, ra_len, o);
	free(ra);
	/*
	 * annotate.c reads these: "traced" says the list is whole, so a
	 * file read whose inode is not on it was all in the cache.
	 */
	if (lost)
		fprintf(o,
			"# ralab pages-added lost=%llu (events lost: no file "
			"is taken as cached)\n",
			lost);
	else
		for (k = 0; k < n; k++)
			fprintf(o, "# ralab pages-added dev=%u:%u ino=%llu\n",
				v[k].maj, v[k].min, v[k].ino);
	if (!lost)
		fprintf(o, "# ralab pages-added traced inodes=%zu\n", n);
	free(v);
	if (fclose(o))
		return kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	if (ninodes)
		*ninodes = lost ? 0 : (unsigned)n;
	return 0;
}
