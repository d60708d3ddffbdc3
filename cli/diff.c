// SPDX-License-Identifier: MIT
/*
 * diff.c - compare two outputs in ralab's format (ralab sim --trace, or a
 * kernel recording): readahead events in order, folio orders, data reads.
 * A raw event log (the kernel's events alone, block sectors absolute on
 * the device, as in the shared recordings) is taken too (src/report/
 * recording.c).  Files ending in .gz are read through gzip -dc.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "report/recording.h"

enum stream { S_RA, S_FOLIO, S_RQ, S_NR };

static const char *const stream_name[S_NR] = {
	"readahead events", "folio stream", "request stream",
};

struct line {
	const char *text;
	unsigned no;
};

struct output {
	const char *name;
	char *buf;
	struct line *ev[S_NR];
	unsigned nev[S_NR], cap[S_NR];
	const char *data_reads, *folio_orders;
	unsigned nlines;
	bool pfns; /* a folio_pfns= line: where its folios lay in memory */
};

static int push(struct output *o, enum stream s, const char *t, unsigned no)
{
	if (o->nev[s] == o->cap[s]) {
		unsigned cap = o->cap[s] ? o->cap[s] * 2 : 1024;
		struct line *l = realloc(o->ev[s], cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		o->ev[s] = l;
		o->cap[s] = cap;
	}
	o->ev[s][o->nev[s]++] = (struct line){ t, no };
	return 0;
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (n + 1 >= cap) {
			char *b;

			cap = cap ? cap * 2 : 1 << 16;
			b = realloc(buf, cap);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (!r)
			break;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * The output of gzip -dc @path (NUL-terminated, malloc'ed), or NULL.
 * posix_spawnp(), not fork(): glibc's starts the child in this process's
 * memory (CLONE_VM), where fork() copies its page tables, which under
 * ASan's shadow memory made each case's recording cost milliseconds.
 */
static char *slurp_gz(const char *path, size_t *len)
{
	char gz[] = "gzip", dc[] = "-dc", dd[] = "--";
	char *argv[] = { gz, dc, dd, (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int fd[2], st = 0, err;
	bool failed = false;
	pid_t pid;

	if (access(path, R_OK))
		return NULL;
	if (pipe2(fd, O_CLOEXEC))
		return NULL;
	err = posix_spawn_file_actions_init(&fa);
	if (!err) {
		err = posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
		if (!err)
			err = posix_spawnp(&pid, "gzip", &fa, NULL, argv,
					   environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (err) {
		close(fd[0]);
		close(fd[1]);
		errno = err;
		return NULL;
	}
	close(fd[1]);
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 1 << 16);

			if (!b) {
				failed = true;
				break;
			}
			buf = b;
		}
		r = read(fd[0], buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			failed = true;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (failed || !buf || !WIFEXITED(st) || WEXITSTATUS(st)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

char *cli_load_recording(const char *path)
{
	size_t len = 0;
	char *buf = ends_with(path, ".gz") ? slurp_gz(path, &len)
					   : slurp(path, &len);

	return buf ? ralab__recording_text(buf) : NULL;
}

static void unload(struct output *o)
{
	unsigned s;

	for (s = 0; s < S_NR; s++)
		free(o->ev[s]);
	free(o->buf);
}

/* Index the lines of @buf (taken over, freed by unload()). */
static int parse_output(struct output *o, const char *path, char *buf)
{
	char *p, *next;
	unsigned no = 0;

	memset(o, 0, sizeof(*o));
	o->name = path;
	o->buf = buf;
	for (p = o->buf; *p; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		else
			next = p + strlen(p);
		no++;
		if (has_prefix(p, "page_cache_"))
			push(o, S_RA, p, no);
		else if (has_prefix(p, "mm_filemap_add_to_page_cache:"))
			push(o, S_FOLIO, p, no);
		else if (has_prefix(p, "block_rq_issue:"))
			push(o, S_RQ, p, no);
		else if (has_prefix(p, "data_reads="))
			o->data_reads = p + 11;
		else if (has_prefix(p, "folio_orders="))
			o->folio_orders = p + 13;
		else if (has_prefix(p, "folio_pfns="))
			o->pfns = true;
	}
	o->nlines = no;
	if (!o->data_reads || !o->folio_orders) {
		fprintf(stderr, "%s: not a ralab output (no data_reads= or folio_orders= line) nor a kernel event log\n", path);
		unload(o);
		return 2;
	}
	return 0;
}

static int load(struct output *o, const char *path)
{
	char *buf = cli_load_recording(path);

	if (!buf) {
		fprintf(stderr, "ralab diff: %s: %s\n", path, strerror(errno ? errno : EIO));
		return 2;
	}
	return parse_output(o, path, buf);
}

/* Compare one stream; print the first divergence with context. */
static bool compare_stream(FILE *out, const struct output *a,
			   const struct output *b, enum stream s, bool verbose)
{
	unsigned n = a->nev[s] < b->nev[s] ? a->nev[s] : b->nev[s];
	unsigned i, k, from;

	for (i = 0; i < n; i++)
		if (strcmp(a->ev[s][i].text, b->ev[s][i].text))
			break;
	if (i == n && a->nev[s] == b->nev[s]) {
		fprintf(out, "%s: MATCH (%u)\n", stream_name[s], n);
		return true;
	}
	fprintf(out, "%s: DIFFER at #%u (%u in %s, %u in %s)\n",
		stream_name[s], i + 1, a->nev[s], a->name, b->nev[s], b->name);
	if (!verbose)
		return false;
	from = i >= 3 ? i - 3 : 0;
	for (k = from; k < i; k++)
		fprintf(out, "    %s\n", a->ev[s][k].text);
	for (k = i; k < i + 3 && k < a->nev[s]; k++)
		fprintf(out, "  - %s   [%s:%u]\n", a->ev[s][k].text, a->name,
			a->ev[s][k].no);
	for (k = i; k < i + 3 && k < b->nev[s]; k++)
		fprintf(out, "  + %s   [%s:%u]\n", b->ev[s][k].text, b->name,
			b->ev[s][k].no);
	return false;
}

static int compare(FILE *out, struct output *pa_, struct output *pb_,
		   const struct cli_cmp *c, struct cli_verdict *v);

int cli_compare_outputs(FILE *out, const char *pa, const char *pb,
			const struct cli_cmp *c, struct cli_verdict *v)
{
	struct output a, b;
	int ret;

	ret = load(&a, pa);
	if (ret)
		return ret;
	ret = load(&b, pb);
	if (ret) {
		unload(&a);
		return ret;
	}
	return compare(out, &a, &b, c, v);
}

int cli_compare_texts(FILE *out, const char *na, char *ta, const char *nb,
		      char *tb, const struct cli_cmp *c, struct cli_verdict *v)
{
	struct output a, b;
	int ret;

	ret = parse_output(&a, na, ta);
	if (ret) {
		free(tb);
		return ret;
	}
	ret = parse_output(&b, nb, tb);
	if (ret) {
		unload(&a);
		return ret;
	}
	return compare(out, &a, &b, c, v);
}

static bool is_call(const char *t)
{
	return has_prefix(t, "page_cache_sync_ra:") ||
	       has_prefix(t, "page_cache_async_ra:");
}

/* Do @o's sync and async calls lack order= (recorded by kprobes)? */
static bool calls_without_order(const struct output *o)
{
	unsigned i;

	for (i = 0; i < o->nev[S_RA]; i++)
		if (is_call(o->ev[S_RA][i].text))
			return !strstr(o->ev[S_RA][i].text, " order=");
	return false;
}

/*
 * Drop " @field=VALUE" from @o's readahead events (in its own buffer), or
 * from its sync and async calls only.
 */
static void drop_field(struct output *o, const char *field, bool calls_only)
{
	char pat[40];
	unsigned i;

	snprintf(pat, sizeof(pat), " %s=", field);
	for (i = 0; i < o->nev[S_RA]; i++) {
		char *t = (char *)o->ev[S_RA][i].text, *p, *e;

		if ((calls_only && !is_call(t)) || !(p = strstr(t, pat)))
			continue;
		e = strchr(p + 1, ' ');
		if (!e)
			e = p + strlen(p);
		memmove(p, e, strlen(e) + 1);
	}
}

/* The fields of readahead events that --ignore takes. */
static const char *const ra_fields[] = {
	"index", "req_count", "order", "size", "async_size", "ra_pages",
	"mmap_miss", "prev_pos", "nr_to_read", "lookahead_size",
};

int cli_cmp_ignore(const char *cmd, struct cli_cmp *c, const char *field)
{
	unsigned i, n;

	for (i = 0; i < sizeof(ra_fields) / sizeof(ra_fields[0]); i++)
		if (!strcmp(field, ra_fields[i]))
			break;
	if (i == sizeof(ra_fields) / sizeof(ra_fields[0])) {
		fprintf(stderr, "ralab %s: --ignore takes a field of the readahead events (index, req_count, order, size, async_size, ra_pages, mmap_miss, prev_pos, nr_to_read, lookahead_size), not '%s'\n",
			cmd, field);
		return 2;
	}
	for (n = 0; n < c->nignore; n++)
		if (c->ignore[n] == ra_fields[i])
			return 0;
	if (c->nignore == CLI_MAX_IGNORE) {
		fprintf(stderr, "ralab %s: at most %d --ignore\n", cmd,
			CLI_MAX_IGNORE);
		return 2;
	}
	c->ignore[c->nignore++] = ra_fields[i];
	return 0;
}

/* The job an event line names (" job=NAME", its last field), or "". */
static const char *job_of(const char *t)
{
	const char *p = strstr(t, " job=");

	return p ? p + 5 : "";
}

static bool has_jobs(const struct output *o)
{
	unsigned s, i;

	for (s = 0; s < S_NR; s++)
		for (i = 0; i < o->nev[s]; i++)
			if (*job_of(o->ev[s][i].text))
				return true;
	return false;
}

static int by_job(const void *x, const void *y)
{
	const struct line *a = x, *b = y;
	int c = strcmp(job_of(a->text), job_of(b->text));

	if (c)
		return c;
	return a->no < b->no ? -1 : a->no > b->no;
}

/*
 * Several jobs: each job's events in its own order, the jobs one after
 * another (by name).  How the jobs interleave is timing, in the kernel
 * as in the model; what each job's reads make of the page cache is not
 * (where the jobs do not share the pages they read).
 */
static void group_by_job(struct output *o)
{
	unsigned s;

	for (s = 0; s < S_NR; s++)
		if (o->nev[s])
			qsort(o->ev[s], o->nev[s], sizeof(o->ev[s][0]), by_job);
}

/* Drop the job fields (in @o's own buffer). */
static void strip_jobs(struct output *o)
{
	unsigned s, i;

	for (s = 0; s < S_NR; s++)
		for (i = 0; i < o->nev[s]; i++) {
			char *p = strstr((char *)o->ev[s][i].text, " job=");

			if (p)
				*p = '\0';
		}
}

/* Compare and report; frees both outputs. */
/* A block_rq_issue line: its flags, first sector and sectors. */
struct rq {
	char flags[8];
	unsigned long long sector, n;
};

static bool parse_rq(const char *t, struct rq *r)
{
	unsigned long long bytes;

	return sscanf(t, "block_rq_issue: %7s %llu %llu + %llu", r->flags,
		      &bytes, &r->sector, &r->n) == 4;
}

/*
 * The next run of @o's requests from *@i: requests of the same flags, each
 * starting where the one before ended.  False at the end or on a line
 * that does not parse.
 */
static bool next_run(const struct output *o, unsigned *i, struct rq *run,
		     unsigned long long *largest)
{
	struct rq r;

	if (*i >= o->nev[S_RQ] || !parse_rq(o->ev[S_RQ][*i].text, run))
		return false;
	if (run->n > *largest)
		*largest = run->n;
	for ((*i)++; *i < o->nev[S_RQ]; (*i)++) {
		if (!parse_rq(o->ev[S_RQ][*i].text, &r) ||
		    strcmp(r.flags, run->flags) || r.sector != run->sector + run->n)
			break;
		if (r.n > *largest)
			*largest = r.n;
		run->n += r.n;
	}
	return true;
}

/*
 * Request streams that differ only in where contiguous reads were cut
 * into requests: the same runs of sectors, in the same order.  With the
 * same folios, that is the block layer's merging, which depends on where
 * the pages lie in memory (physically adjacent pages share a segment, so
 * a request may hold more than max_segments pages, and a bio more than
 * 256): the model places them by its phys_merge setting (docs/design.md,
 * "Where folios lie in memory"), which 'ralab check' tries both ways, or
 * where a recording's folio_pfns= says the kernel put them.
 */
static void note_split_only(FILE *out, const struct output *a,
			    const struct output *b)
{
	unsigned long long la = 0, lb = 0;
	unsigned i = 0, k = 0;
	struct rq ra, rb;

	for (;;) {
		bool ga = next_run(a, &i, &ra, &la), gb = next_run(b, &k, &rb, &lb);

		if (!ga || !gb) {
			if (ga || gb || i < a->nev[S_RQ] || k < b->nev[S_RQ])
				return;
			break;
		}
		if (strcmp(ra.flags, rb.flags) || ra.sector != rb.sector ||
		    ra.n != rb.n)
			return;
	}
	fprintf(out, "request stream: the same sectors in the same order, cut into requests differently (largest: %llu KiB in %s, %llu KiB in %s): the block layer merges pages adjacent in memory, where the model places them by phys_merge%s (docs/design.md, \"Where folios lie in memory\")\n",
		la / 2, a->name, lb / 2, b->name,
		a->pfns || b->pfns ?
			"; this recording says where the kernel put them (folio_pfns=), which 'ralab check' of its directory or 'ralab sim --placement' gives the model" :
			"");
}

static int compare(FILE *out, struct output *pa_, struct output *pb_,
		   const struct cli_cmp *c, struct cli_verdict *v)
{
	struct output a = *pa_, b = *pb_;
	const char *pa = a.name, *pb = b.name;
	bool ra, fo, dr, fs, rq, strict = c->strict;
	unsigned i;
	int ret;

	if (has_jobs(&a) && has_jobs(&b)) {
		group_by_job(&a);
		group_by_job(&b);
		fprintf(out, "jobs: each job's events compared in order, job by job\n");
	} else {
		/* One side does not say (an older recording): in order. */
		strip_jobs(&a);
		strip_jobs(&b);
	}
	/*
	 * A kernel before 6.18 has no readahead tracepoints: a recording
	 * of one has page-cache events but no readahead ones.  Then the
	 * page-cache and block streams stand for them, in order.
	 */
	if ((!a.nev[S_RA] && a.nev[S_FOLIO] && b.nev[S_RA]) ||
	    (!b.nev[S_RA] && b.nev[S_FOLIO] && a.nev[S_RA])) {
		fprintf(out, "readahead_events: not recorded (%s has no readahead tracepoints); page cache and block events compared in order\n",
			a.nev[S_RA] ? pb : pa);
		ra = true;
		strict = true;
	} else {
		/*
		 * Kernels before 6.17 have no ra->order: their calls, read
		 * by kprobes, are compared without it.
		 */
		bool na = calls_without_order(&a);

		if (na != calls_without_order(&b)) {
			drop_field(na ? &b : &a, "order", true);
			fprintf(out, "readahead events: sync and async calls compared without order= (%s has no ra->order)\n",
				na ? pa : pb);
		}
		for (i = 0; i < c->nignore; i++) {
			drop_field(&a, c->ignore[i], false);
			drop_field(&b, c->ignore[i], false);
			fprintf(out, "readahead events: compared without %s=\n",
				c->ignore[i]);
		}
		ra = compare_stream(out, &a, &b, S_RA, true);
	}
	fo = !strcmp(a.folio_orders, b.folio_orders);
	fprintf(out, "folio_orders: %s", fo ? "MATCH" : "DIFFER");
	if (!fo)
		fprintf(out, " (%s: %s; %s: %s)", pa, a.folio_orders, pb,
			b.folio_orders);
	fprintf(out, "\n");
	dr = !strcmp(a.data_reads, b.data_reads);
	fprintf(out, "data_reads: %s", dr ? "MATCH" : "DIFFER");
	if (!dr)
		fprintf(out, " (%s: %s; %s: %s)", pa, a.data_reads, pb,
			b.data_reads);
	fprintf(out, "\n");
	fs = compare_stream(out, &a, &b, S_FOLIO, strict);
	rq = compare_stream(out, &a, &b, S_RQ, strict);
	if (!rq && fs && ra)
		note_split_only(out, &a, &b);
	ret = ra && fo && dr && (!strict || (fs && rq)) ? 0 : 1;
	fprintf(out, "%s\n", ret ? "DIFFER" : "MATCH");
	if (v)
		*v = (struct cli_verdict){ ra, fo, dr, fs, rq, !ret };
	unload(&a);
	unload(&b);
	return ret;
}

static const char *mv(bool match)
{
	return match ? "MATCH" : "DIFFER";
}

void cli_print_verdicts(FILE *out, enum cli_fmt fmt, const char *command,
			const char *const *cases, const char *na,
			const char *nb, bool strict,
			const struct cli_verdict *v, char *const *report,
			unsigned n)
{
	static const char *const hdr[] = {
		"readahead_events", "folio_orders", "data_reads",
		"folio_stream", "request_stream",
	};
	unsigned i, k;

	if (fmt == CLI_FMT_CSV) {
		fprintf(out, "case,a,b,strict,match");
		for (k = 0; k < 5; k++)
			fprintf(out, ",%s", hdr[k]);
		fprintf(out, "\n");
	} else {
		fprintf(out, "{\n  \"schema_version\": 1,\n  \"tool\": \"ralab\",\n  \"command\": \"%s\",\n  \"strict\": %s,\n  \"a\": ",
			command, strict ? "true" : "false");
		cli_json_str(out, na);
		fprintf(out, ",\n  \"b\": ");
		cli_json_str(out, nb);
		fprintf(out, ",\n  \"comparisons\": [");
	}
	for (i = 0; i < n; i++) {
		const bool part[5] = {
			v[i].ra, v[i].folio_orders, v[i].data_reads,
			v[i].folio_stream, v[i].rq_stream,
		};

		if (fmt == CLI_FMT_CSV) {
			cli_csv_field(out, cases[i]);
			fprintf(out, ",");
			cli_csv_field(out, na);
			fprintf(out, ",");
			cli_csv_field(out, nb);
			fprintf(out, ",%d,%s", strict, mv(v[i].match));
			for (k = 0; k < 5; k++)
				fprintf(out, ",%s", mv(part[k]));
			fprintf(out, "\n");
			continue;
		}
		fprintf(out, "%s\n    {\"case\": ", i ? "," : "");
		cli_json_str(out, cases[i]);
		fprintf(out, ", \"match\": %s", v[i].match ? "true" : "false");
		for (k = 0; k < 5; k++)
			fprintf(out, ", \"%s\": \"%s\"", hdr[k], mv(part[k]));
		fprintf(out, ", \"report\": ");
		cli_json_str(out, report[i] ? report[i] : "");
		fprintf(out, "}");
	}
	if (fmt != CLI_FMT_CSV)
		fprintf(out, "\n  ]\n}\n");
}

/* Parse --format's value; print the error and return -1 if bad. */
int cli_parse_fmt(const char *cmd, const char *a, enum cli_fmt *fmt)
{
	if (!strcmp(a, "text"))
		*fmt = CLI_FMT_TEXT;
	else if (!strcmp(a, "json"))
		*fmt = CLI_FMT_JSON;
	else if (!strcmp(a, "csv"))
		*fmt = CLI_FMT_CSV;
	else {
		fprintf(stderr, "ralab %s: --format is text, json or csv, not '%s'\n",
			cmd, a);
		return -1;
	}
	return 0;
}

int cli_diff(int argc, char **argv)
{
	const char *files[2];
	enum cli_fmt fmt = CLI_FMT_TEXT;
	struct cli_cmp c = { 0 };
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--strict")) {
			c.strict = true;
		} else if (!strcmp(argv[i], "--ignore")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab diff: --ignore needs a field\n");
				return 2;
			}
			if (cli_cmp_ignore("diff", &c, argv[++i]))
				return 2;
		} else if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab diff: --format needs a value\n");
				return 2;
			}
			if (cli_parse_fmt("diff", argv[++i], &fmt))
				return 2;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "ralab diff: unknown option '%s'\n", argv[i]);
			return 2;
		} else if (n == 2) {
			fprintf(stderr, "ralab diff: two files, please\n");
			return 2;
		} else {
			files[n++] = argv[i];
		}
	}
	if (n != 2) {
		fprintf(stderr, "usage: ralab diff [--strict] [--ignore FIELD]... [--format FMT] A B\n");
		return 2;
	}
	if (fmt == CLI_FMT_TEXT)
		return cli_compare_outputs(stdout, files[0], files[1], &c,
					   NULL);
	{
		struct cli_verdict v;
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		const char *name = files[1];
		int ret;

		if (!m)
			return 1;
		ret = cli_compare_outputs(m, files[0], files[1], &c, &v);
		fclose(m);
		if (ret < 2)
			cli_print_verdicts(stdout, fmt, "diff", &name, files[0],
					   files[1], c.strict, &v, &text, 1);
		free(text);
		return ret;
	}
}
