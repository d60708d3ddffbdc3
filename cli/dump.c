// SPDX-License-Identifier: MIT
/*
 * dump.c - 'ralab dump': the page cache after a run (and at 'dump' ops),
 * one line per run of same-order folios, in the style of the page-cache
 * tables posted with the 2025 large-folio readahead patches.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct dump_ctx {
	FILE *out;
	bool json, csv;
	unsigned file, line;
	unsigned count;
	const struct ralab_workload *wl;
};

static void print_run(struct dump_ctx *c, uint64_t first, uint64_t pages,
		      unsigned folios, int order, bool ra, uint64_t used,
		      bool *sep)
{
	uint64_t start = first * RALAB_PAGE_SIZE;
	uint64_t end = (first + pages) * RALAB_PAGE_SIZE - 1;

	if (c->csv) {
		fprintf(c->out, "%u,%u,%llu,%llu,%llu,%u,%d,%d,%llu\n", c->file,
			c->line, (unsigned long long)start, (unsigned long long)end,
			(unsigned long long)pages, folios, order, ra ? 1 : 0,
			(unsigned long long)used);
		return;
	}
	if (c->json) {
		fprintf(c->out,
			"%s\n      {\"start_byte\": %llu, \"end_byte\": %llu, \"pages\": %llu, \"folios\": %u, \"order\": %d, \"readahead_mark\": %s, \"pages_used\": %llu}",
			*sep ? "," : "", (unsigned long long)start,
			(unsigned long long)end, (unsigned long long)pages,
			folios, order, ra ? "true" : "false",
			(unsigned long long)used);
		*sep = true;
		return;
	}
	if (order < 0)
		fprintf(c->out, "%14llu %14llu %8llu %7s %5s %3s %6s\n",
			(unsigned long long)start, (unsigned long long)end,
			(unsigned long long)pages, "-", "hole", "", "-");
	else
		fprintf(c->out, "%14llu %14llu %8llu %7u %5d %3s %6llu\n",
			(unsigned long long)start, (unsigned long long)end,
			(unsigned long long)pages, folios, order,
			ra ? "RA" : "", (unsigned long long)used);
}

static void on_dump(void *arg, unsigned file, unsigned line,
		    const struct ralab_folio_info *f, size_t n)
{
	struct dump_ctx *c = arg;
	uint64_t next = 0, run_first = 0, run_pages = 0, run_used = 0;
	unsigned run_folios = 0;
	int run_order = -2;
	bool run_ra = false, sep = false;
	size_t i;

	c->file = file;
	c->line = line;
	if (c->csv) {
		;
	} else if (c->json) {
		fprintf(c->out, "%s\n    {\"file\": %u, \"line\": %u, \"runs\": [",
			c->count ? "," : "", file, line);
	} else {
		if (line)
			fprintf(c->out, "# file %u at line %u\n", file, line);
		else
			fprintf(c->out, "# file %u after the run\n", file);
		fprintf(c->out, "%14s %14s %8s %7s %5s %3s %6s\n", "start_byte",
			"end_byte", "pages", "folios", "order", "ra", "used");
	}
	c->count++;
	for (i = 0; i <= n; i++) {
		bool end = i == n;
		bool hole = !end && f[i].index != next;
		bool marked = !end && f[i].readahead;

		/* A run ends at a gap, an order change or a marked folio. */
		if (run_order != -2 &&
		    (end || hole || (int)f[i].order != run_order || marked ||
		     run_ra)) {
			print_run(c, run_first, run_pages, run_folios, run_order,
				  run_ra, run_used, &sep);
			run_order = -2;
		}
		if (end)
			break;
		if (hole)
			print_run(c, next, f[i].index - next, 0, -1, false, 0,
				  &sep);
		if (run_order == -2) {
			run_first = f[i].index;
			run_pages = run_used = 0;
			run_folios = 0;
			run_order = (int)f[i].order;
			run_ra = marked;
		}
		run_pages += 1ull << f[i].order;
		run_used += f[i].used;
		run_folios++;
		next = f[i].index + (1ull << f[i].order);
	}
	if (c->json)
		fprintf(c->out, "\n    ]}");
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ralab dump [OPTIONS] CASE.ops\n"
		"\n"
		"Run the case and print its page cache after the run, and at every\n"
		"'dump' op of the case: one line per run of folios of one order, with\n"
		"start and end byte offsets, pages, folios, order, the readahead mark\n"
		"(RA; a marked folio is a line of its own) and the pages the\n"
		"application read; uncached gaps are 'hole' lines.\n"
		"\n"
		"options:\n"
		"  --policy SPEC       as for 'ralab sim'\n"
		"  --set KEY=VALUE     as for 'ralab sim'\n"
		"  --format FMT        text (default), json or csv (order -1: a hole)\n"
		"  -h, --help          this text\n");
}

int cli_dump(int argc, char **argv)
{
	struct dump_ctx c = { .out = stdout };
	const char *path = NULL, *policy = NULL, *sets[64];
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	struct ralab_stats st;
	struct cli_policy pol;
	struct ralab_load_opts lo;
	unsigned nsets = 0, k;
	int i, err;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--policy") || !strcmp(a, "--set") ||
			   !strcmp(a, "--format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab dump: %s needs a value\n", a);
				return 2;
			}
			if (!strcmp(a, "--policy"))
				policy = argv[++i];
			else if (!strcmp(a, "--format")) {
				enum cli_fmt fmt;

				if (cli_parse_fmt("dump", argv[++i], &fmt))
					return 2;
				c.json = fmt == CLI_FMT_JSON;
				c.csv = fmt == CLI_FMT_CSV;
			} else if (nsets == 64) {
				fprintf(stderr, "ralab dump: too many --set options\n");
				return 2;
			} else {
				sets[nsets++] = argv[++i];
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab dump: unknown option '%s'\n", a);
			return 2;
		} else if (path) {
			fprintf(stderr, "ralab dump: one case at a time\n");
			return 2;
		} else {
			path = a;
		}
	}
	if (!path) {
		fprintf(stderr, "ralab dump: no case given (see ralab dump --help)\n");
		return 2;
	}
	if (cli_policy_parse(policy, NULL, 0, &pol))
		return 2;
	if (cli_load_opts(sets, nsets, &lo))
		return 2;
	err = ralab_workload_load_opts(path, &lo, &wl, &d);
	if (err) {
		fprintf(stderr, "%s\n", d.msg[0] ? d.msg : ralab_strerror(err));
		return 2;
	}
	for (k = 0; k < nsets; k++)
		if (cli_apply_set(wl, sets[k])) {
			ralab_workload_free(wl);
			return 2;
		}
	c.wl = wl;
	if (c.csv) {
		printf("file,line,start_byte,end_byte,pages,folios,order,readahead_mark,pages_used\n");
	} else if (c.json) {
		printf("{\n  \"schema_version\": 1,\n  \"tool\": \"ralab\",\n  \"case\": ");
		cli_json_str(stdout, ralab_workload_name(wl));
		printf(",\n  \"policy\": ");
		cli_json_str(stdout, pol.label);
		printf(",\n  \"dumps\": [");
	} else {
		printf("# ralab dump: %s, policy %s\n", ralab_workload_name(wl),
		       pol.label);
	}
	{
		struct ralab_run_opts ro = {
			.policy = pol.name,
			.patches = pol.patches,
			.nr_patches = pol.nr_patches,
			.on_dump = on_dump,
			.dump_arg = &c,
		};

		err = ralab_run(wl, &ro, &st);
	}
	if (c.json)
		printf("\n  ]\n}\n");
	ralab_workload_free(wl);
	if (err) {
		fprintf(stderr, "ralab dump: %s\n", ralab_strerror(err));
		return 1;
	}
	return 0;
}
