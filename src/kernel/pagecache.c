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

/* Trace the tasks @pids ("PID PID ...") and those they start. */
static int cache_rec_start(const char *pids, struct ralab_cache_rec **out,
			   struct ralab_diag *diag)
{
	struct ralab_cache_rec *r;
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
	    (err = kx_inst_write(r->inst, "events/" ADD_EVENT "/enable", "1", diag)) ||
	    (err = kx_inst_write(r->inst, "tracing_on", "1", diag)))
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
	return cache_rec_start(val, out, diag);
}

int ralab_cache_rec_attach(int pid, struct ralab_cache_rec **out,
			   struct ralab_diag *diag)
{
	char tasks[8192];
	int err;

	*out = NULL;
	if ((err = kx_task_list(pid, tasks, sizeof(tasks))))
		return kx_err(diag, err, "process %d: its threads: %s", pid,
			      strerror(-err));
	return cache_rec_start(tasks, out, diag);
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

int ralab_cache_rec_finish(struct ralab_cache_rec *r, const char *log,
			   unsigned *ninodes, struct ralab_diag *diag)
{
	struct ino *v = NULL;
	size_t n = 0, k;
	unsigned long long lost;
	char path[600];
	FILE *in, *o;
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
	fclose(in);
	ralab_cache_rec_free(r);
	if (err)
		return err;
	o = fopen(log, "ae");
	if (!o) {
		free(v);
		return kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	}
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
