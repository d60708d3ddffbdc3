// SPDX-License-Identifier: MIT
/*
 * direct-cache.c - a userspace page cache over O_DIRECT reads that takes
 * its readahead decisions from ralab's policies, through the public API
 * only (ralab_ra_*() in ralab.h).
 *
 * It is what an O_DIRECT + io_uring storage engine loses when it leaves
 * the kernel's page cache, put back: the cache keeps folios of 2^order
 * pages, marks one PG_readahead where the policy says, and reads a
 * window when the policy adds it.  read_pages() submits one io_uring read
 * per folio and returns; a folio stays locked (not up to date) until its
 * completion is reaped, and a reader that needs it waits, as
 * filemap_get_pages() does.  Built without liburing, where io_uring is
 * not allowed, or with --sync (valgrind cannot see io_uring write into
 * memory), the reads are synchronous preads instead (engine=pread).
 *
 * usage: direct-cache [--policy NAME] [--ra-kb N] [--msk-kb N]
 *                     [--max-order N] [--block-size N] [--sync] FILE OP...
 *
 * --block-size (4096 to 65536) makes the cache's smallest folio a block,
 * as XFS's large block sizes do (ralab_ra_params.min_order).
 *
 * Runs the OPs on FILE through the cache and prints every readahead event
 * and every folio added, as the kernel's tracepoints print them (the lines
 * 'ralab sim --trace' prints for the same ops), then folios=, preads=,
 * reads= and bytes=.  Every read is checked against a plain pread of the
 * same range; a difference is an error.  OPs (sizes take K, M, G):
 *   read:LEN:COUNT | read:LEN:eof     read(2) from the file position
 *   pread:OFF:LEN    seek:OFF
 *   stride:OFF:LEN:STRIDE:COUNT       preads at OFF + i * STRIDE
 *   rand:LEN:COUNT:SEED               ralab's rand-pread (xorshift64)
 *   fadvise:OFF:LEN:normal|random|sequential|willneed|dontneed|noreuse
 *   readahead:OFF:LEN
 * A lone number BS means read:BS:eof.
 *
 * The read loop is filemap_read() with every folio up to date:
 * filemap_get_read_batch() from the first page of the read, sync
 * readahead when that page is absent, a single-folio read when readahead
 * made nothing there, async readahead when the batch ends on a marked
 * folio, then copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "ralab.h"

#define PS RALAB_PAGE_SIZE
#define BATCH 31 /* PAGEVEC_SIZE: folios per filemap_get_read_batch() */

struct cache {
	int fd;
	uint64_t size, npages;
	unsigned min_order; /* every folio holds a block of 2^min_order pages */
	int64_t *head;    /* per page: first page of its folio, or -1 */
	unsigned char *order;
	unsigned char *mark; /* per folio head: PG_readahead */
	char **data;      /* per folio head: its memory */
	unsigned char *uptodate; /* per folio head: its read completed */
	uint64_t *queue;  /* folios added since the last read_pages() */
	size_t nqueue;
	uint64_t folios, preads, waits;
	int err;
#ifdef HAVE_LIBURING
	struct io_uring ring;
	bool uring;       /* io_uring set up: reads are asynchronous */
	unsigned inflight;
#endif
};

static void print_event(const struct ralab_event *ev)
{
	char line[256];

	if (ralab_event_format(ev, line, sizeof(line)) >= 0)
		printf("%s\n", line);
}

/* Insert a locked folio (it is locked until read_pages() reads it). */
static int insert(struct cache *c, uint64_t index, unsigned order, bool mark)
{
	uint64_t i, n = (uint64_t)1 << order;
	struct ralab_event ev = {
		.type = RALAB_EV_ADD_FOLIO,
		.ofs = index * PS,
		.order = order,
	};
	void *mem;

	if (index >= c->npages || n > c->npages - index)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (c->head[index + i] >= 0)
			return -EEXIST;
	if (posix_memalign(&mem, PS, (size_t)(n * PS)))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		c->head[index + i] = (int64_t)index;
	c->order[index] = (unsigned char)order;
	c->mark[index] = mark;
	c->uptodate[index] = 0;
	c->data[index] = mem;
	c->folios++;
	print_event(&ev);
	return 0;
}

static int c_add_folio(void *ctx, uint64_t index, unsigned order, bool mark)
{
	struct cache *c = ctx;
	int err = insert(c, index, order, mark);

	if (!err)
		c->queue[c->nqueue++] = index;
	return err;
}

/* A read of folio @index ended with @n bytes (or -errno). */
static void read_done(struct cache *c, uint64_t index, ssize_t n)
{
	size_t len = PS << c->order[index];

	if (n < 0)
		c->err = (int)n;
	else if ((size_t)n < len) /* past EOF: zeroes, as the kernel's */
		memset(c->data[index] + n, 0, len - (size_t)n);
	c->uptodate[index] = 1;
}

static void read_folio_sync(struct cache *c, uint64_t index)
{
	ssize_t n = pread(c->fd, c->data[index], PS << c->order[index],
			  (off_t)(index * PS));

	c->preads++;
	read_done(c, index, n < 0 ? -errno : n);
}

#ifdef HAVE_LIBURING
/* Reap one completion, waiting for it if @wait. */
static bool reap(struct cache *c, bool wait)
{
	struct io_uring_cqe *cqe;
	int err = wait ? io_uring_wait_cqe(&c->ring, &cqe) :
			 io_uring_peek_cqe(&c->ring, &cqe);

	if (err) {
		if (wait)
			c->err = err;
		return false;
	}
	read_done(c, (uint64_t)io_uring_cqe_get_data64(cqe), cqe->res);
	io_uring_cqe_seen(&c->ring, cqe);
	c->inflight--;
	return true;
}
#endif

/* ->readahead(): start the reads of the folios queued, in order. */
static void c_read_pages(void *ctx)
{
	struct cache *c = ctx;
	size_t i;

	for (i = 0; i < c->nqueue; i++) {
		uint64_t index = c->queue[i];
#ifdef HAVE_LIBURING
		struct io_uring_sqe *sqe;

		if (c->uring) {
			while (!(sqe = io_uring_get_sqe(&c->ring))) {
				io_uring_submit(&c->ring);
				if (!reap(c, true))
					return;
			}
			io_uring_prep_read(sqe, c->fd, c->data[index],
					   PS << c->order[index],
					   index * PS);
			io_uring_sqe_set_data64(sqe, index);
			c->inflight++;
			c->preads++;
			continue;
		}
#endif
		read_folio_sync(c, index);
	}
	c->nqueue = 0;
#ifdef HAVE_LIBURING
	if (c->uring)
		io_uring_submit(&c->ring);
#endif
}

/* Is the folio's data there?  Reap what has completed first. */
static bool folio_ready(struct cache *c, uint64_t index)
{
#ifdef HAVE_LIBURING
	if (c->uring)
		while (!c->uptodate[index] && reap(c, false))
			;
#endif
	return c->uptodate[index];
}

/* folio_wait_locked(): sleep until the folio's read completes. */
static void folio_wait(struct cache *c, uint64_t index)
{
	c->waits++;
#ifdef HAVE_LIBURING
	while (c->uring && !c->uptodate[index] && !c->err && c->inflight)
		if (!reap(c, true))
			break;
#endif
	/* Not read and nothing in flight: it never will be. */
	if (!c->uptodate[index] && !c->err)
		c->err = -EIO;
}

static void c_clear_readahead(void *ctx, uint64_t index)
{
	struct cache *c = ctx;

	if (index < c->npages && c->head[index] >= 0)
		c->mark[c->head[index]] = 0;
}

static void c_event(void *ctx, const struct ralab_event *ev)
{
	print_event(ev);
}

static const struct ralab_cache_ops cache_ops = {
	.add_folio = c_add_folio,
	.read_pages = c_read_pages,
	.clear_readahead = c_clear_readahead,
	.event = c_event,
};

/*
 * POSIX_FADV_DONTNEED: drop the folios wholly inside the range (the first
 * and the last full page of it, a partial last page only at EOF), as
 * generic_fadvise() does for clean, unmapped folios.
 */
static void dontneed(struct cache *c, struct ralab_ra *ra, int64_t offset,
		     int64_t len)
{
	uint64_t endbyte = (uint64_t)offset + (uint64_t)len, first, last, i;

	if (!len || endbyte < (uint64_t)len || endbyte > (uint64_t)INT64_MAX)
		endbyte = (uint64_t)INT64_MAX;
	else
		endbyte--;
	first = ((uint64_t)offset + PS - 1) / PS;
	last = endbyte / PS;
	if ((endbyte & (PS - 1)) != PS - 1 && endbyte != c->size - 1) {
		if (!last)
			return;
		last--;
	}
	for (i = first; i <= last && i < c->npages; i++) {
		uint64_t n;

		if (c->head[i] != (int64_t)i)
			continue;
		n = (uint64_t)1 << c->order[i];
		/* Locked folios (read in flight) are not invalidated. */
		if (i + n - 1 > last || !folio_ready(c, i))
			continue;
		ralab_ra_folio_removed(ra, i, c->order[i]);
		free(c->data[i]);
		c->data[i] = NULL;
		c->mark[i] = 0;
		while (n--)
			c->head[i + n] = -1;
	}
}

/* filemap_get_read_batch(): folios from @index up to page @max. */
static unsigned get_batch(struct cache *c, uint64_t index, uint64_t max,
			  uint64_t *b)
{
	unsigned n = 0;

	while (index < c->npages && c->head[index] >= 0) {
		uint64_t h = (uint64_t)c->head[index];

		b[n++] = h;
		if (n == BATCH || !folio_ready(c, h) || c->mark[h])
			break;
		index = h + ((uint64_t)1 << c->order[h]);
		if (index > max)
			break;
	}
	return n;
}

/* read(2) of @count bytes at @pos into @out; bytes read. */
static uint64_t cache_read(struct cache *c, struct ralab_ra *ra,
			   int64_t *prev_pos, uint64_t pos, uint64_t count,
			   char *out)
{
	uint64_t done = 0;
	int64_t last_pos = *prev_pos;
	uint64_t b[BATCH];

	while (count && pos < c->size && !c->err) {
		uint64_t nr = (uint64_t)1 << c->min_order;
		uint64_t index = pos / PS;
		/* The end on a block's boundary, the start not (6.18). */
		uint64_t last_index = ((pos + count + PS - 1) / PS + nr - 1) &
				      ~(nr - 1);
		uint64_t end = pos + count < c->size ? pos + count : c->size;
		unsigned i, n;

retry:
		n = get_batch(c, index, last_index - 1, b);
		if (!n) {
			ralab_ra_sync(ra, index, last_index - index);
			n = get_batch(c, index, last_index - 1, b);
		}
		if (!n) {
			/* filemap_create_folio(): one block, read now. */
			uint64_t at = index & ~(nr - 1);

			if (insert(c, at, c->min_order, false) ||
			    ralab_ra_folio_added(ra, at, c->min_order))
				return done;
			read_folio_sync(c, at);
			b[0] = at;
			n = 1;
		}
		if (c->mark[b[n - 1]])
			ralab_ra_async(ra, b[n - 1], c->order[b[n - 1]],
				       last_index - b[n - 1]);
		if (!folio_ready(c, b[n - 1])) {
			/* Copy the folios before it, or wait for it. */
			if (n > 1) {
				n--;
			} else {
				folio_wait(c, b[0]);
				if (c->err)
					break;
				goto retry;
			}
		}
		for (i = 0; i < n; i++) {
			uint64_t fsize = PS << c->order[b[i]];
			uint64_t offset = pos & (fsize - 1), bytes;

			if (end < b[i] * PS)
				break;
			bytes = end - pos;
			if (bytes > fsize - offset)
				bytes = fsize - offset;
			memcpy(out + done, c->data[b[i]] + offset, bytes);
			pos += bytes;
			count -= bytes;
			done += bytes;
			last_pos = (int64_t)pos;
		}
	}
	*prev_pos = last_pos;
	if (last_pos >= 0) /* -1: nothing read yet, and still nothing */
		ralab_ra_read_done(ra, (uint64_t)last_pos);
	return done;
}

static int usage(void)
{
	fprintf(stderr, "usage: direct-cache [--policy NAME] [--ra-kb N] [--msk-kb N] [--max-order N] [--block-size N] [--sync] FILE OP...\n");
	return 2;
}

static int parse_u32(const char *opt, const char *s, uint32_t max, uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || end == s || s[0] == '-' || x > max) {
		fprintf(stderr, "direct-cache: %s must be a whole number up to %u, not '%s'\n",
			opt, max, s);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

/* A signed size with an optional K, M or G suffix, up to the next ':'. */
static int parse_size(const char **sp, int64_t *v)
{
	const char *s = *sp;
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'K': x *= 1024; end++; break;
	case 'M': x *= 1024 * 1024; end++; break;
	case 'G': x *= 1024ll * 1024 * 1024; end++; break;
	default: break;
	}
	if (*end && *end != ':')
		return -1;
	*v = x;
	*sp = *end ? end + 1 : end;
	return 0;
}

struct op {
	char kind; /* r(ead) p(read) s(eek) t(stride) n(rand) f(advise) a(readahead) */
	int64_t a[4];
	bool eof;
	int advice;
};

static int parse_op(const char *arg, struct op *op)
{
	static const struct {
		const char *name;
		char kind;
		int nargs;
	} kinds[] = {
		{ "read:", 'r', 2 },      { "pread:", 'p', 2 },
		{ "seek:", 's', 1 },      { "stride:", 't', 4 },
		{ "rand:", 'n', 3 },      { "fadvise:", 'f', 3 },
		{ "readahead:", 'a', 2 },
	};
	static const char *const advice[] = {
		"normal", "random", "sequential", "willneed", "dontneed", "noreuse",
	};
	const char *s = arg;
	size_t k;
	int i;

	memset(op, 0, sizeof(*op));
	if (!parse_size(&s, &op->a[0]) && !*s && op->a[0] > 0) {
		op->kind = 'r'; /* a lone BS */
		op->eof = true;
		return 0;
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (!strncmp(arg, kinds[k].name, strlen(kinds[k].name)))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return -1;
	op->kind = kinds[k].kind;
	s = arg + strlen(kinds[k].name);
	for (i = 0; i < kinds[k].nargs; i++) {
		if (op->kind == 'r' && i == 1 && !strcmp(s, "eof")) {
			op->eof = true;
			return 0;
		}
		if (op->kind == 'f' && i == 2) {
			for (op->advice = 0; op->advice < 6; op->advice++)
				if (!strcmp(s, advice[op->advice]))
					return 0;
			return -1;
		}
		if (parse_size(&s, &op->a[i]))
			return -1;
	}
	return *s ? -1 : 0;
}

/* The data of a read, against the file read the ordinary way. */
static bool same_data(int fd, uint64_t pos, const char *buf, uint64_t n,
		      char *check)
{
	return pread(fd, check, n, (off_t)pos) == (ssize_t)n &&
	       !memcmp(buf, check, n);
}

int main(int argc, char **argv)
{
	struct ralab_ra_params p = {
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};
	struct cache c = { .fd = -1 };
	struct ralab_ra *ra = NULL;
	struct op *ops = NULL;
	int64_t prev_pos = -1;
	uint64_t total = 0, reads = 0, fpos = 0, maxlen = 4096, i;
	uint32_t order = 9;
	int nops, a, k, err, ret = 1, plain = -1;
	bool sync = false;
	struct stat st;
	char *buf = NULL, *check = NULL;

	for (a = 1; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a += 2) {
		if (!strcmp(argv[a], "--sync")) {
			sync = true;
			a--;
			continue;
		}
		if (a + 1 >= argc)
			return usage();
		if (!strcmp(argv[a], "--policy"))
			p.policy = argv[a + 1];
		else if (!strcmp(argv[a], "--ra-kb")) {
			if (parse_u32("--ra-kb", argv[a + 1], 1u << 20, &p.read_ahead_kb))
				return 2;
		} else if (!strcmp(argv[a], "--msk-kb")) {
			if (parse_u32("--msk-kb", argv[a + 1], 1u << 20, &p.max_sectors_kb))
				return 2;
		} else if (!strcmp(argv[a], "--block-size")) {
			uint32_t bs;

			if (parse_u32("--block-size", argv[a + 1], 65536, &bs))
				return 2;
			if (bs < PS || (bs & (bs - 1))) {
				fprintf(stderr, "direct-cache: --block-size must be a power of 2 from 4096 to 65536, not %u\n",
					bs);
				return 2;
			}
			while ((PS << p.min_order) < bs)
				p.min_order++;
		} else if (!strcmp(argv[a], "--max-order")) {
			if (parse_u32("--max-order", argv[a + 1], RALAB_MAX_ORDER, &order))
				return 2;
			p.max_order = order;
		} else {
			return usage();
		}
	}
	nops = argc - a - 1;
	if (nops < 1)
		return usage();
	ops = calloc((size_t)nops, sizeof(*ops));
	if (!ops)
		return 1;
	for (k = 0; k < nops; k++) {
		struct op *op = &ops[k];

		bool bad = parse_op(argv[a + 1 + k], op) != 0;

		/* Lengths and counts positive, offsets and seeds not negative;
		 * only a stride may be. */
		bad = bad || op->a[0] < 0 || op->a[1] < 0;
		if (op->kind == 'r')
			bad = bad || (op->eof && op->a[0] == 0);
		if (op->kind == 'n')
			bad = bad || op->a[0] == 0;
		if (op->kind == 't')
			bad = bad || op->a[1] == 0;
		if (op->kind == 'n')
			bad = bad || op->a[2] < 0;
		if (op->kind == 't')
			bad = bad || op->a[3] < 0;
		if (bad) {
			fprintf(stderr, "direct-cache: bad op '%s'\n", argv[a + 1 + k]);
			free(ops);
			return 2;
		}
		if ((op->kind == 'r' || op->kind == 'n') && (uint64_t)op->a[0] > maxlen)
			maxlen = (uint64_t)op->a[0];
		if ((op->kind == 'p' || op->kind == 't') && (uint64_t)op->a[1] > maxlen)
			maxlen = (uint64_t)op->a[1];
	}
	if (maxlen > (1u << 30)) {
		fprintf(stderr, "direct-cache: reads larger than 1 GiB are not supported\n");
		free(ops);
		return 2;
	}

	c.fd = open(argv[a], O_RDONLY | O_DIRECT);
	if (c.fd < 0 && errno == EINVAL) /* e.g. tmpfs: no O_DIRECT */
		c.fd = open(argv[a], O_RDONLY);
	plain = open(argv[a], O_RDONLY);
	if (c.fd < 0 || plain < 0 || fstat(c.fd, &st)) {
		fprintf(stderr, "direct-cache: %s: %s\n", argv[a], strerror(errno));
		goto out;
	}
	c.size = (uint64_t)st.st_size;
	/* Whole blocks: the last folio may reach past EOF. */
	c.min_order = p.min_order;
	c.npages = ((c.size + PS - 1) / PS + (1u << c.min_order) - 1) &
		   ~(uint64_t)((1u << c.min_order) - 1);
	c.head = malloc((c.npages + 1) * sizeof(*c.head));
	c.order = calloc(c.npages + 1, 1);
	c.mark = calloc(c.npages + 1, 1);
	c.data = calloc(c.npages + 1, sizeof(*c.data));
	c.uptodate = calloc(c.npages + 1, 1);
	c.queue = malloc((c.npages + 1) * sizeof(*c.queue));
	buf = malloc(maxlen);
	check = malloc(maxlen);
	if (!c.head || !c.order || !c.mark || !c.data || !c.uptodate ||
	    !c.queue || !buf || !check) {
		fprintf(stderr, "direct-cache: out of memory\n");
		goto out;
	}
	for (i = 0; i < c.npages; i++)
		c.head[i] = -1;
#ifdef HAVE_LIBURING
	c.uring = !sync && io_uring_queue_init(256, &c.ring, 0) == 0;
#else
	(void)sync; /* preads anyway */
#endif
	p.i_size = c.size;
	err = ralab_ra_create(&p, &cache_ops, &c, &ra);
	if (err) {
		fprintf(stderr, "direct-cache: %s\n", ralab_strerror(err));
		ret = 2;
		goto out;
	}
	for (k = 0; k < nops; k++) {
		const struct op *op = &ops[k];
		uint64_t x = (uint64_t)op->a[2], count = (uint64_t)op->a[1];

		if (op->kind == 's') {
			fpos = (uint64_t)op->a[0];
			continue;
		}
		if (op->kind == 'f' && op->advice == POSIX_FADV_DONTNEED)
			dontneed(&c, ra, op->a[0], op->a[1]);
		if (op->kind == 'f' || op->kind == 'a') {
			err = ralab_ra_fadvise(ra, op->a[0], op->a[1],
					       op->kind == 'a' ? POSIX_FADV_WILLNEED :
								 op->advice);
			if (err) {
				fprintf(stderr, "direct-cache: fadvise: %s\n", ralab_strerror(err));
				goto out;
			}
			continue;
		}
		if (op->kind == 'p')
			count = 1;
		if (op->kind == 't')
			count = (uint64_t)op->a[3];
		for (i = 0; op->eof || i < count; i++) {
			uint64_t pos, len, n;

			switch (op->kind) {
			case 'r':
				pos = fpos;
				len = (uint64_t)op->a[0];
				break;
			case 'p':
				pos = (uint64_t)op->a[0];
				len = (uint64_t)op->a[1];
				break;
			case 't':
				pos = (uint64_t)(op->a[0] + (int64_t)i * op->a[2]);
				len = (uint64_t)op->a[1];
				break;
			default: /* rand: as ralab's rand-pread */
				len = (uint64_t)op->a[0];
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				pos = c.size / len ? x % (c.size / len) * len : 0;
				break;
			}
			n = cache_read(&c, ra, &prev_pos, pos, len, buf);
			reads++;
			if (c.err) {
				fprintf(stderr, "direct-cache: pread: %s\n", strerror(-c.err));
				goto out;
			}
			if (!same_data(plain, pos, buf, n, check)) {
				fprintf(stderr, "direct-cache: the data at %llu differs from the file's\n",
					(unsigned long long)pos);
				goto out;
			}
			total += n;
			if (op->kind == 'r')
				fpos += n;
			if (op->eof && !n)
				break;
		}
	}
	printf("engine=%s\nfolios=%llu\npreads=%llu\nwaits=%llu\nreads=%llu\nbytes=%llu\n",
#ifdef HAVE_LIBURING
	       c.uring ? "io_uring" : "pread",
#else
	       "pread",
#endif
	       (unsigned long long)c.folios, (unsigned long long)c.preads,
	       (unsigned long long)c.waits, (unsigned long long)reads,
	       (unsigned long long)total);
	ret = 0;
out:
#ifdef HAVE_LIBURING
	/* Reads still in flight write into folio memory: reap them first. */
	while (c.uring && c.inflight && reap(&c, true))
		;
	if (c.uring)
		io_uring_queue_exit(&c.ring);
#endif
	ralab_ra_destroy(ra);
	if (c.head && c.data)
		for (i = 0; i < c.npages; i++)
			if (c.head[i] == (int64_t)i)
				free(c.data[i]);
	free(c.head);
	free(c.order);
	free(c.mark);
	free(c.data);
	free(c.uptodate);
	free(c.queue);
	free(buf);
	free(check);
	free(ops);
	if (c.fd >= 0)
		close(c.fd);
	if (plain >= 0)
		close(plain);
	return ret;
}
