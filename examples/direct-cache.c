// SPDX-License-Identifier: MIT
/*
 * direct-cache.c - a userspace page cache over O_DIRECT reads that takes
 * its readahead decisions from ralab's policies, through the public API
 * only (ralab_ra_*() in ralab.h).
 *
 * It is what an O_DIRECT + io_uring storage engine loses when it leaves
 * the kernel's page cache, put back: the cache keeps folios of 2^order
 * pages, marks one PG_readahead where the policy says, and reads a
 * window when the policy adds it.  Reads here are plain preads, one per
 * folio, and complete before read_pages() returns.
 *
 * usage: direct-cache [--policy NAME] [--ra-kb N] [--msk-kb N]
 *                     [--max-order N] [--out FILE] FILE BS
 *
 * Reads FILE from its start to its end with BS-byte reads through the
 * cache and prints every readahead event and every folio added, as the
 * kernel's tracepoints print them (the lines 'ralab sim --trace' prints
 * for 'read BS eof'), then folios=, preads= and bytes=.  --out writes the
 * data read to FILE, to check it against the original.
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

#include "ralab.h"

#define PS RALAB_PAGE_SIZE
#define BATCH 31 /* PAGEVEC_SIZE: folios per filemap_get_read_batch() */

struct cache {
	int fd;
	uint64_t size, npages;
	int64_t *head;    /* per page: first page of its folio, or -1 */
	unsigned char *order;
	unsigned char *mark; /* per folio head: PG_readahead */
	char **data;      /* per folio head: its memory */
	uint64_t *queue;  /* folios added since the last read_pages() */
	size_t nqueue;
	uint64_t folios, preads;
	int err;
};

static void print_event(const struct ralab_event *ev)
{
	char line[256];

	if (ralab_event_format(ev, line, sizeof(line)) >= 0)
		printf("%s\n", line);
}

static bool c_present(void *ctx, uint64_t index)
{
	struct cache *c = ctx;

	return index < c->npages && c->head[index] >= 0;
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

static void read_folio_data(struct cache *c, uint64_t index)
{
	size_t len = PS << c->order[index];
	ssize_t n = pread(c->fd, c->data[index], len, (off_t)(index * PS));

	c->preads++;
	if (n < 0)
		c->err = -errno;
	else if ((size_t)n < len) /* past EOF: zeroes, as the kernel's */
		memset(c->data[index] + n, 0, len - (size_t)n);
}

static void c_read_pages(void *ctx)
{
	struct cache *c = ctx;
	size_t i;

	for (i = 0; i < c->nqueue; i++)
		read_folio_data(c, c->queue[i]);
	c->nqueue = 0;
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
	.present = c_present,
	.add_folio = c_add_folio,
	.read_pages = c_read_pages,
	.clear_readahead = c_clear_readahead,
	.event = c_event,
};

/* filemap_get_read_batch(): folios from @index up to page @max. */
static unsigned get_batch(struct cache *c, uint64_t index, uint64_t max,
			  uint64_t *b)
{
	unsigned n = 0;

	while (index < c->npages && c->head[index] >= 0) {
		uint64_t h = (uint64_t)c->head[index];

		b[n++] = h;
		if (n == BATCH || c->mark[h])
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
		uint64_t index = pos / PS;
		uint64_t last_index = (pos + count + PS - 1) / PS;
		uint64_t end = pos + count < c->size ? pos + count : c->size;
		unsigned i, n;

		n = get_batch(c, index, last_index - 1, b);
		if (!n) {
			ralab_ra_sync(ra, index, last_index - index);
			n = get_batch(c, index, last_index - 1, b);
		}
		if (!n) {
			/* filemap_create_folio(): one folio, read now. */
			if (insert(c, index, 0, false))
				return done;
			read_folio_data(c, index);
			b[0] = index;
			n = 1;
		}
		if (c->mark[b[n - 1]])
			ralab_ra_async(ra, b[n - 1], c->order[b[n - 1]],
				       last_index - b[n - 1]);
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
	ralab_ra_read_done(ra, (uint64_t)last_pos);
	return done;
}

static int usage(void)
{
	fprintf(stderr, "usage: direct-cache [--policy NAME] [--ra-kb N] [--msk-kb N] [--max-order N] [--out FILE] FILE BS\n");
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

int main(int argc, char **argv)
{
	struct ralab_ra_params p = {
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};
	const char *outpath = NULL;
	struct cache c = { .fd = -1 };
	struct ralab_ra *ra = NULL;
	FILE *outf = NULL;
	int64_t prev_pos = -1;
	uint64_t total = 0, i;
	uint32_t bs = 0, order = 9;
	struct stat st;
	char *buf = NULL;
	int a, err, ret = 1;

	for (a = 1; a < argc && argv[a][0] == '-'; a += 2) {
		if (a + 1 >= argc)
			return usage();
		if (!strcmp(argv[a], "--policy"))
			p.policy = argv[a + 1];
		else if (!strcmp(argv[a], "--out"))
			outpath = argv[a + 1];
		else if (!strcmp(argv[a], "--ra-kb")) {
			if (parse_u32("--ra-kb", argv[a + 1], 1u << 20, &p.read_ahead_kb))
				return 2;
		} else if (!strcmp(argv[a], "--msk-kb")) {
			if (parse_u32("--msk-kb", argv[a + 1], 1u << 20, &p.max_sectors_kb))
				return 2;
		} else if (!strcmp(argv[a], "--max-order")) {
			if (parse_u32("--max-order", argv[a + 1], RALAB_MAX_ORDER, &order))
				return 2;
			p.max_order = order;
		} else {
			return usage();
		}
	}
	if (argc - a != 2)
		return usage();
	if (parse_u32("BS", argv[a + 1], 64u << 20, &bs))
		return 2;
	if (!bs) {
		fprintf(stderr, "direct-cache: BS must not be 0\n");
		return 2;
	}

	c.fd = open(argv[a], O_RDONLY | O_DIRECT);
	if (c.fd < 0 && errno == EINVAL) /* e.g. tmpfs: no O_DIRECT */
		c.fd = open(argv[a], O_RDONLY);
	if (c.fd < 0 || fstat(c.fd, &st)) {
		fprintf(stderr, "direct-cache: %s: %s\n", argv[a], strerror(errno));
		goto out;
	}
	c.size = (uint64_t)st.st_size;
	c.npages = (c.size + PS - 1) / PS;
	c.head = malloc((c.npages + 1) * sizeof(*c.head));
	c.order = calloc(c.npages + 1, 1);
	c.mark = calloc(c.npages + 1, 1);
	c.data = calloc(c.npages + 1, sizeof(*c.data));
	c.queue = malloc((c.npages + 1) * sizeof(*c.queue));
	buf = malloc(bs);
	if (!c.head || !c.order || !c.mark || !c.data || !c.queue || !buf) {
		fprintf(stderr, "direct-cache: out of memory\n");
		goto out;
	}
	for (i = 0; i < c.npages; i++)
		c.head[i] = -1;
	if (outpath && !(outf = fopen(outpath, "wb"))) {
		fprintf(stderr, "direct-cache: %s: %s\n", outpath, strerror(errno));
		goto out;
	}
	p.i_size = c.size;
	err = ralab_ra_create(&p, &cache_ops, &c, &ra);
	if (err) {
		fprintf(stderr, "direct-cache: %s\n", ralab_strerror(err));
		ret = 2;
		goto out;
	}
	for (;;) {
		uint64_t n = cache_read(&c, ra, &prev_pos, total, bs, buf);

		if (c.err) {
			fprintf(stderr, "direct-cache: pread: %s\n", strerror(-c.err));
			goto out;
		}
		if (!n)
			break;
		if (outf && fwrite(buf, 1, n, outf) != n) {
			fprintf(stderr, "direct-cache: %s: write failed\n", outpath);
			goto out;
		}
		total += n;
	}
	printf("folios=%llu\npreads=%llu\nbytes=%llu\n",
	       (unsigned long long)c.folios, (unsigned long long)c.preads,
	       (unsigned long long)total);
	ret = 0;
out:
	if (outf && fclose(outf) && !ret) {
		fprintf(stderr, "direct-cache: %s: write failed\n", outpath);
		ret = 1;
	}
	ralab_ra_destroy(ra);
	if (c.head && c.data)
		for (i = 0; i < c.npages; i++)
			if (c.head[i] == (int64_t)i)
				free(c.data[i]);
	free(c.head);
	free(c.order);
	free(c.mark);
	free(c.data);
	free(c.queue);
	free(buf);
	if (c.fd >= 0)
		close(c.fd);
	return ret;
}
