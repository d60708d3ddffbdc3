// SPDX-License-Identifier: MIT
/*
 * recording.c - kernel recordings as ralab output (recording.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/recording.h"

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Does a line of @buf start with @p? */
static bool has_line(const char *buf, const char *p)
{
	char nl[64];

	snprintf(nl, sizeof(nl), "\n%s", p);
	return has_prefix(buf, p) || strstr(buf, nl);
}

static bool has_summary(const char *buf)
{
	return has_line(buf, "data_reads=") && has_line(buf, "folio_orders=");
}

/*
 * A raw event log as ralab output: block sectors made relative to the
 * file (the first request's sector less the byte offset of the first folio
 * added before it, / 512: the recorded files are single-extent), and the
 * summary lines diff compares derived from the events (data_reads: the
 * requests; folio_orders: the orders of the folios added).  Frees @buf.
 */
static char *raw_to_output(char *buf)
{
	unsigned long long orders[64] = { 0 }, nrq = 0, base = 0;
	long long first_ofs = -1;
	bool have_base = false;
	char *out = NULL, *p, *next;
	const char *sep = "";
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	unsigned o;

	if (!m) {
		free(buf);
		return NULL;
	}
	for (p = buf; *p; p = next) {
		unsigned long long bytes, sector, order;
		unsigned nsect;
		long long ofs;
		char kind[16];

		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		else
			next = p + strlen(p);
		if (sscanf(p, "mm_filemap_add_to_page_cache: ofs=%lld order=%llu",
			   &ofs, &order) == 2) {
			if (first_ofs < 0)
				first_ofs = ofs;
			orders[order < 63 ? order : 63]++;
		} else if (sscanf(p, "block_rq_issue: %15s %llu %llu + %u", kind,
				  &bytes, &sector, &nsect) == 4) {
			if (!have_base) {
				unsigned long long f = first_ofs > 0 ?
					(unsigned long long)first_ofs / 512 : 0;

				base = sector >= f ? sector - f : 0;
				have_base = true;
			}
			nrq++;
			fprintf(m, "block_rq_issue: %s %llu %llu + %u\n", kind,
				bytes, sector - base, nsect);
			continue;
		}
		fprintf(m, "%s\n", p);
	}
	fprintf(m, "data_reads=%llu\nfolio_orders=", nrq);
	for (o = 0; o < 64; o++)
		if (orders[o]) {
			fprintf(m, "%s%u:%llu", sep, o, orders[o]);
			sep = " ";
		}
	fprintf(m, "\n");
	free(buf);
	if (fclose(m)) {
		free(out);
		return NULL;
	}
	return out;
}

char *ralab__recording_text(char *buf)
{
	/* Events without the summary: a raw log.  Neither: as it is. */
	if (!has_summary(buf) &&
	    (has_line(buf, "page_cache_") ||
	     has_line(buf, "mm_filemap_add_to_page_cache:") ||
	     has_line(buf, "block_rq_issue:")))
		return raw_to_output(buf);
	return buf;
}

/* A run of @zeros zero deltas: " 0" or " 0*N" (none: nothing). */
static void put_zeros(FILE *out, size_t zeros)
{
	if (zeros > 1)
		fprintf(out, " 0*%zu", zeros);
	else if (zeros)
		fprintf(out, " 0");
}

int ralab__folio_pfns_write(FILE *out, const struct ralab_folio_mem *m,
			    size_t n)
{
	size_t k, zeros = 0;

	fprintf(out, "folio_pfns=");
	if (n)
		fprintf(out, "%llu", (unsigned long long)m[0].pfn);
	for (k = 1; k < n; k++) {
		int64_t d = (int64_t)(m[k].pfn - m[k - 1].pfn -
				      (1ull << (m[k - 1].order & 63)));

		if (!d) {
			zeros++;
			continue;
		}
		put_zeros(out, zeros);
		zeros = 0;
		fprintf(out, " %lld", (long long)d);
	}
	put_zeros(out, zeros);
	fprintf(out, "\n");
	return ferror(out) ? -EIO : 0;
}

/* Pfns past this are no page frame (and keep the sums below in range). */
#define PFN_LIMIT (1ull << 52)

static int pfn_err(struct ralab_diag *d, const char *name, unsigned line,
		   const char *what)
{
	if (d) {
		d->line = line;
		snprintf(d->msg, sizeof(d->msg), "%s:%u: folio_pfns=: %s",
			 name, line, what);
	}
	return -EINVAL;
}

/* Decode the folio_pfns= tokens at @p into m[0 .. n). */
static int pfn_decode(const char *p, struct ralab_folio_mem *m, size_t n,
		      const char *name, unsigned line, struct ralab_diag *d)
{
	size_t k = 0;

	while (*p && *p != '\n') {
		long long v;
		unsigned long long run = 1;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || errno || (*end && *end != ' ' && *end != '\n' &&
					  *end != '*'))
			return pfn_err(d, name, line, "not a number");
		if (*end == '*') {
			p = end + 1;
			if (v || *p < '0' || *p > '9')
				return pfn_err(d, name, line,
					       "a run must be \"0*N\"");
			run = strtoull(p, &end, 10);
			if (errno || !run ||
			    (*end && *end != ' ' && *end != '\n'))
				return pfn_err(d, name, line,
					       "a run must be \"0*N\"");
		}
		p = end;
		if (run > n - k)
			return pfn_err(d, name, line,
				       "more pfns than folios added");
		for (; run; run--, k++) {
			uint64_t pfn;

			if (!k) {
				if (v <= 0 ||
				    (unsigned long long)v >= PFN_LIMIT)
					return pfn_err(d, name, line,
						       "no page frame number");
				m[0].pfn = (uint64_t)v;
				continue;
			}
			/* Out of range either way: wraps past PFN_LIMIT. */
			pfn = m[k - 1].pfn + (1ull << m[k - 1].order) +
			      (uint64_t)v;
			if (!pfn || pfn >= PFN_LIMIT)
				return pfn_err(d, name, line,
					       "no page frame number");
			m[k].pfn = pfn;
		}
	}
	if (k != n)
		return pfn_err(d, name, line, "fewer pfns than folios added");
	return 0;
}

int ralab__recording_folio_mem(const char *text, const char *name,
			       struct ralab_folio_mem **out, size_t *n,
			       struct ralab_diag *diag)
{
	const char *p, *next, *pfns = NULL;
	struct ralab_folio_mem *m = NULL;
	size_t nr = 0, cap = 0;
	unsigned line = 0, pline = 0, bad = 0; /* the first odd add line */
	int err;

	*out = NULL;
	*n = 0;
	for (p = text; *p; p = next) {
		const char *nl = strchr(p, '\n');
		unsigned long long ofs;
		unsigned order;

		next = nl ? nl + 1 : p + strlen(p);
		line++;
		if (has_prefix(p, "folio_pfns=")) {
			if (pfns) {
				free(m);
				return pfn_err(diag, name, line,
					       "a second folio_pfns= line");
			}
			pfns = p + 11;
			pline = line;
			continue;
		}
		if (!has_prefix(p, "mm_filemap_add_to_page_cache: "))
			continue;
		/* An error only where there are pfns to give the folios. */
		if (sscanf(p, "mm_filemap_add_to_page_cache: ofs=%llu order=%u",
			   &ofs, &order) != 2 || order > 30) {
			if (!bad)
				bad = line;
			continue;
		}
		if (nr == cap) {
			size_t c = cap ? 2 * cap : 1024;
			struct ralab_folio_mem *t = realloc(m, c * sizeof(*m));

			if (!t) {
				free(m);
				return -ENOMEM;
			}
			m = t;
			cap = c;
		}
		m[nr++] = (struct ralab_folio_mem){ .ofs = ofs,
						    .order = order };
	}
	if (!pfns) {
		free(m);
		return 0;
	}
	if (bad) {
		free(m);
		return pfn_err(diag, name, bad,
			       "an add event without ofs= and order=");
	}
	if (!nr) {
		free(m);
		return pfn_err(diag, name, pline, "no folio was added");
	}
	err = pfn_decode(pfns, m, nr, name, pline, diag);
	if (err) {
		free(m);
		return err;
	}
	*out = m;
	*n = nr;
	return 0;
}
