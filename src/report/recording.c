// SPDX-License-Identifier: MIT
/*
 * recording.c - kernel recordings as ralab output (recording.h).
 */
#include <stdbool.h>
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
