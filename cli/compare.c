// SPDX-License-Identifier: MIT
/*
 * compare.c - 'ralab compare': several policies (and parameter sweeps) on
 * several cases, in one table, each figure also as a ratio to the first
 * policy of its case and setting.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_POLICIES 32
#define MAX_SETS 4
#define MAX_VALUES 16

static const char *const default_policies[] = {
	"linux-6.18", "park-2026", "kara-2026", "linux-6.9",
};


struct sweep {
	char key[64];
	char *values[MAX_VALUES];
	unsigned nr;
	char buf[512];
};

struct row {
	char case_name[128];
	/* The swept settings other than read_ahead_kb and max_sectors_kb
	 * (which have columns of their own), "KEY=VALUE ...": empty if none. */
	char settings[160];
	const char *policy;
	uint32_t ra_kb, msk_kb;
	struct ralab_stats st;
	const struct ralab_stats *base;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ralab compare [OPTIONS] CASE...\n"
		"\n"
		"Run every case under every policy (and every combination of swept\n"
		"settings) and print one table: device reads, bytes read from the\n"
		"device, sync and async readahead calls, pages read ahead and never\n"
		"used, the modelled time, the time readers stalled on I/O (and, in\n"
		"CSV and JSON, the 99th percentile read latency), each with its ratio\n"
		"to the first policy of the same case and setting (with one policy:\n"
		"to the case's first setting); then throughput\n"
		"and the folio order histogram.  Times depend on the device model\n"
		"(--set device=nvme, or the case's '# device:'; the default 'ideal'\n"
		"device charges CPU costs only).\n"
		"\n"
		"options:\n"
		"  --policy SPEC       a policy, NAME or NAME+PATCH+... (repeatable; the\n"
		"                      first is the baseline).  Default: linux-6.18,\n"
		"                      park-2026, kara-2026, linux-6.9\n"
		"  --set KEY=V1,V2...  sweep a setting (any header key: read_ahead_kb,\n"
		"                      max_sectors_kb, max_hw_sectors_kb, file_size, fs,\n"
		"                      alloc_fail_ppm, ...); repeatable, the table holds\n"
		"                      every combination, and a settings column names\n"
		"                      the values of keys without a column of their own\n"
		"                      (fio_files, how fio job files are read, takes one\n"
		"                      value, as in 'ralab sim')\n"
		"  --bisect SPEC       a policy and its patches one at a time: a row\n"
		"                      for NAME, then one more for each patch of SPEC,\n"
		"                      in order, each with the patches above it\n"
		"                      (labelled +PATCH), e.g. --bisect\n"
		"                      linux-6.9+kara-2024+roberts-2025\n"
		"  --format FMT        text (default), json or csv\n"
		"  -h, --help          this text\n");
}

/*
 * --bisect SPEC: rows for SPEC's policy, then with its first patch, its
 * first two, ... as a series is merged.  Return the rows added, or -1.
 */
static int add_bisect(struct cli_policy *pol, unsigned npol, const char *spec)
{
	struct cli_policy all;
	unsigned k;

	if (cli_policy_parse(spec, NULL, 0, &all))
		return -1;
	if (npol + all.nr_patches + 1 > MAX_POLICIES) {
		fprintf(stderr, "ralab compare: at most %d policies (--bisect %s makes %u)\n",
			MAX_POLICIES, spec, all.nr_patches + 1);
		return -1;
	}
	for (k = 0; k <= all.nr_patches; k++) {
		struct cli_policy *p = &pol[npol + k];

		*p = all;
		/* name points into buf, which was copied with it. */
		p->name = p->buf + (all.name - all.buf);
		p->nr_patches = k;
		if (k)
			snprintf(p->label, sizeof(p->label), "+%s",
				 all.patches[k - 1]);
		else
			snprintf(p->label, sizeof(p->label), "%s", p->name);
	}
	return (int)k;
}

static int parse_sweep(struct sweep *sw, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *save = NULL, *tok;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(sw->key) ||
	    strlen(eq + 1) >= sizeof(sw->buf)) {
		fprintf(stderr, "ralab compare: --set wants KEY=V1,V2,..., not '%s'\n", arg);
		return -1;
	}
	memcpy(sw->key, arg, (size_t)(eq - arg));
	sw->key[eq - arg] = '\0';
	strcpy(sw->buf, eq + 1);
	sw->nr = 0;
	for (tok = strtok_r(sw->buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sw->nr == MAX_VALUES) {
			fprintf(stderr, "ralab compare: at most %d values per --set\n", MAX_VALUES);
			return -1;
		}
		sw->values[sw->nr++] = tok;
	}
	if (!sw->nr) {
		fprintf(stderr, "ralab compare: --set %s has no values\n", sw->key);
		return -1;
	}
	return 0;
}

/* A case's name: its file name, or its directory's for DIR/case.ops. */
static const char *case_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	if (!b)
		return path;
	if (strcmp(b + 1, "case.ops"))
		return b + 1;
	n = (size_t)(b - path);
	while (n && path[n - 1] != '/')
		n--;
	snprintf(buf, len, "%.*s", (int)(b - path - (ptrdiff_t)n), path + n);
	return buf;
}

static void orders_text(FILE *out, const struct ralab_stats *st, bool json)
{
	const char *sep = "";
	unsigned o;

	for (o = 0; o <= RALAB_MAX_ORDER; o++) {
		if (!st->folios[o])
			continue;
		if (json)
			fprintf(out, "%s\"%u\": %llu", sep, o,
				(unsigned long long)st->folios[o]);
		else
			fprintf(out, "%s%u:%llu", sep, o,
				(unsigned long long)st->folios[o]);
		sep = json ? ", " : " ";
	}
}

/* The ratio of @v to @b as text; "-" when it has no meaning. */
static const char *ratio(char *buf, size_t len, uint64_t v, uint64_t b,
			 enum cli_fmt f)
{
	if (v == UINT64_MAX || b == UINT64_MAX || (!b && v))
		return f == CLI_FMT_JSON ? "null" : f == CLI_FMT_CSV ? "" : "-";
	snprintf(buf, len, "%.3f", b ? (double)v / (double)b : 1.0);
	return buf;
}

/*
 * The figures of a row, each also as a ratio to the baseline's.  Times come
 * from the time model (the case's device; "ideal" charges CPU costs only):
 * the run's modelled end, the time readers slept on folios under I/O, and
 * the 99th percentile of read latency, in nanoseconds so that CSV and JSON
 * stay integers with one unit.
 */
static uint64_t fig(const struct ralab_stats *st, int k)
{
	switch (k) {
	case 0: return st->data_reads;
	case 1: return st->data_sectors * 512;
	case 2: return st->sync_ra;
	case 3: return st->async_ra;
	case 4: return st->ra_pages;
	case 5: return st->ra_pages_unused;
	case 6: return st->elapsed_ns;
	case 7: return st->wait_ns;
	default: return st->lat_p99_ns;
	}
}

static const char *const fig_names[] = {
	"device_reads", "device_bytes", "sync_ra_calls", "async_ra_calls",
	"ra_pages", "ra_pages_unused", "elapsed_ns", "wait_ns",
	"read_lat_p99_ns",
};

#define NR_FIGS 9

/* Bytes returned to the application per modelled second, in MB/s (10^6). */
static double mb_per_s(const struct ralab_stats *st)
{
	return st->elapsed_ns ? (double)st->bytes_read * 1e3 /
					(double)st->elapsed_ns : 0.0;
}

static void print_text(const struct row *rows, unsigned n, bool settings)
{
	char b[NR_FIGS][32];
	unsigned i;

	if (settings)
		printf("%-24s ", "settings");
	printf("%-32s %6s %6s %-26s %8s %6s %9s %6s %6s %6s %7s %6s %8s %6s %9s %6s %9s %6s %8s  %s\n",
	       "case", "ra_kb", "msk_kb", "policy", "reads", "x", "MiB_read",
	       "x", "sync", "x", "async", "x", "unused", "x", "time_ms", "x",
	       "stall_ms", "x", "MB/s", "folio orders (order:count)");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const struct ralab_stats *st = &r->st, *bs = r->base;
		char unused[24];

		if (st->ra_pages_unused == UINT64_MAX)
			snprintf(unused, sizeof(unused), "?");
		else
			snprintf(unused, sizeof(unused), "%llu",
				 (unsigned long long)st->ra_pages_unused);
		if (settings)
			printf("%-24s ", r->settings);
		printf("%-32s %6u %6u %-26s %8llu %6s %9.1f %6s %6llu %6s %7llu %6s %8s %6s %9.2f %6s %9.2f %6s %8.1f  ",
		       r->case_name, r->ra_kb, r->msk_kb, r->policy,
		       (unsigned long long)st->data_reads,
		       ratio(b[0], 32, fig(st, 0), fig(bs, 0), CLI_FMT_TEXT),
		       (double)st->data_sectors / 2048.0,
		       ratio(b[1], 32, fig(st, 1), fig(bs, 1), CLI_FMT_TEXT),
		       (unsigned long long)st->sync_ra,
		       ratio(b[2], 32, fig(st, 2), fig(bs, 2), CLI_FMT_TEXT),
		       (unsigned long long)st->async_ra,
		       ratio(b[3], 32, fig(st, 3), fig(bs, 3), CLI_FMT_TEXT), unused,
		       ratio(b[5], 32, fig(st, 5), fig(bs, 5), CLI_FMT_TEXT),
		       (double)st->elapsed_ns / 1e6,
		       ratio(b[6], 32, fig(st, 6), fig(bs, 6), CLI_FMT_TEXT),
		       (double)st->wait_ns / 1e6,
		       ratio(b[7], 32, fig(st, 7), fig(bs, 7), CLI_FMT_TEXT),
		       mb_per_s(st));
		orders_text(stdout, st, false);
		printf("\n");
	}
}

static void print_csv(const struct row *rows, unsigned n, bool settings)
{
	unsigned i, o;
	int k;

	printf("case,read_ahead_kb,max_sectors_kb,policy");
	if (settings)
		printf(",settings");
	for (k = 0; k < NR_FIGS; k++)
		printf(",%s", fig_names[k]);
	for (k = 0; k < NR_FIGS; k++)
		printf(",%s_ratio", fig_names[k]);
	for (o = 0; o <= RALAB_MAX_ORDER; o++)
		printf(",folios_order_%u", o);
	printf("\n");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char b[32];

		cli_csv_field(stdout, r->case_name);
		printf(",%u,%u,", r->ra_kb, r->msk_kb);
		cli_csv_field(stdout, r->policy);
		if (settings) {
			printf(",");
			cli_csv_field(stdout, r->settings);
		}
		for (k = 0; k < NR_FIGS; k++) {
			if (fig(&r->st, k) == UINT64_MAX)
				printf(",");
			else
				printf(",%llu", (unsigned long long)fig(&r->st, k));
		}
		for (k = 0; k < NR_FIGS; k++)
			printf(",%s", ratio(b, sizeof(b), fig(&r->st, k),
					    fig(r->base, k), CLI_FMT_CSV));
		for (o = 0; o <= RALAB_MAX_ORDER; o++)
			printf(",%llu", (unsigned long long)r->st.folios[o]);
		printf("\n");
	}
}

static void print_json(const struct row *rows, unsigned n, bool settings)
{
	unsigned i;
	int k;

	printf("{\n  \"schema_version\": 1,\n  \"tool\": \"ralab\",\n  \"version\": \"%s\",\n  \"rows\": [",
	       RALAB_VERSION);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char b[32];

		printf("%s\n    {\"case\": ", i ? "," : "");
		cli_json_str(stdout, r->case_name);
		printf(", \"read_ahead_kb\": %u, \"max_sectors_kb\": %u, \"policy\": ",
		       r->ra_kb, r->msk_kb);
		cli_json_str(stdout, r->policy);
		if (settings) {
			printf(", \"settings\": ");
			cli_json_str(stdout, r->settings);
		}
		for (k = 0; k < NR_FIGS; k++) {
			if (fig(&r->st, k) == UINT64_MAX)
				printf(", \"%s\": null", fig_names[k]);
			else
				printf(", \"%s\": %llu", fig_names[k],
				       (unsigned long long)fig(&r->st, k));
		}
		printf(", \"folio_orders\": {");
		orders_text(stdout, &r->st, true);
		printf("}, \"ratio_to_first\": {");
		for (k = 0; k < NR_FIGS; k++)
			printf("%s\"%s\": %s", k ? ", " : "", fig_names[k],
			       ratio(b, sizeof(b), fig(&r->st, k),
				     fig(r->base, k), CLI_FMT_JSON));
		printf("}}");
	}
	printf("\n  ]\n}\n");
}

/* read_ahead_kb and max_sectors_kb have columns; other keys go in settings. */
static bool own_column(const char *key)
{
	return !strcmp(key, "read_ahead_kb") || !strcmp(key, "max_sectors_kb");
}

/* "KEY=VALUE ..." of combination @combo, for the keys without a column. */
static void combo_label(char *buf, size_t len, const struct sweep *sw,
			unsigned nsw, unsigned combo)
{
	size_t at = 0;
	unsigned k, j;

	buf[0] = '\0';
	for (k = 0; k < nsw; k++) {
		unsigned div = 1;
		int w;

		/* apply_combo(): the last sweep is the least significant. */
		for (j = k + 1; j < nsw; j++)
			div *= sw[j].nr;
		if (own_column(sw[k].key))
			continue;
		w = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "",
			     sw[k].key, sw[k].values[combo / div % sw[k].nr]);
		if (w < 0 || (size_t)w >= len - at)
			break; /* truncated: keep what fits */
		at += (size_t)w;
	}
}

/* Apply combination @combo (mixed radix over the sweeps) to @wl. */
static int apply_combo(struct ralab_workload *wl, const struct sweep *sw,
		       unsigned nsw, unsigned combo)
{
	unsigned k;

	for (k = nsw; k-- > 0;) {
		struct ralab_diag d = { 0 };
		const char *v = sw[k].values[combo % sw[k].nr];

		combo /= sw[k].nr;
		if (ralab_workload_set(wl, sw[k].key, v, &d)) {
			fprintf(stderr, "ralab compare: --set %s=%s: %s\n",
				sw[k].key, v, d.msg);
			return -1;
		}
	}
	return 0;
}

int cli_compare(int argc, char **argv)
{
	struct cli_policy pol[MAX_POLICIES];
	struct sweep sw[MAX_SETS];
	struct ralab_load_opts lo = { 0 };
	char **cases = argv;	/* compacted in place: see below */
	unsigned npol = 0, nsw = 0, ncases = 0, ncombo = 1, i, c, k, p;
	enum cli_fmt fmt = CLI_FMT_TEXT;
	struct cli_progress prog;
	struct row *rows;
	unsigned nrows = 0;
	int ret = 0, rerr;

	for (i = 1; i < (unsigned)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--policy") || !strcmp(a, "--set") ||
			   !strcmp(a, "--format") || !strcmp(a, "--bisect")) {
			if (i + 1 >= (unsigned)argc) {
				fprintf(stderr, "ralab compare: %s needs a value\n", a);
				return 2;
			}
			if (!strcmp(a, "--bisect")) {
				int n = add_bisect(pol, npol, argv[++i]);

				if (n < 0)
					return 2;
				npol += (unsigned)n;
			} else if (!strcmp(a, "--policy")) {
				if (npol == MAX_POLICIES) {
					fprintf(stderr, "ralab compare: at most %d policies\n", MAX_POLICIES);
					return 2;
				}
				if (cli_policy_parse(argv[++i], NULL, 0, &pol[npol++]))
					return 2;
			} else if (!strcmp(a, "--set")) {
				if (nsw == MAX_SETS) {
					fprintf(stderr, "ralab compare: at most %d --set options\n", MAX_SETS);
					return 2;
				}
				/* How the cases are read: one value. */
				if (!strncmp(argv[i + 1], "fio_files=", 10)) {
					if (cli_load_opt(argv[++i], &lo))
						return 2;
					continue;
				}
				if (parse_sweep(&sw[nsw++], argv[++i]))
					return 2;
				ncombo *= sw[nsw - 1].nr;
			} else {
				if (cli_parse_fmt("compare", argv[++i], &fmt))
					return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab compare: unknown option '%s' (see ralab compare --help)\n", a);
			return 2;
		} else {
			/*
			 * Case names are gathered at the front of argv: ncases
			 * never exceeds i - 1, so no unread argument is
			 * overwritten, and sweeps of any number of cases fit.
			 */
			cases[ncases++] = argv[i];
		}
	}
	if (!ncases) {
		fprintf(stderr, "ralab compare: no case given (see ralab compare --help)\n");
		return 2;
	}
	if (!npol)
		for (p = 0; p < sizeof(default_policies) / sizeof(default_policies[0]); p++)
			if (cli_policy_parse(default_policies[p], NULL, 0, &pol[npol++]))
				return 2;

	/* Check every case and every setting before running anything. */
	for (c = 0; c < ncases; c++) {
		struct ralab_workload *wl;
		struct ralab_diag d = { 0 };

		if (ralab_workload_load_opts(cases[c], &lo, &wl, &d)) {
			fprintf(stderr, "%s\n", d.msg);
			return 2;
		}
		cli_print_notes("compare", cases[c], wl);
		for (k = 0; k < ncombo; k++)
			if (apply_combo(wl, sw, nsw, k)) {
				ralab_workload_free(wl);
				return 2;
			}
		ralab_workload_free(wl);
	}

	rows = calloc((size_t)ncases * ncombo * npol, sizeof(*rows));
	if (!rows)
		return 1;
	cli_progress_start(&prog, ncases * ncombo * npol);
	for (c = 0; c < ncases && !ret; c++) {
		struct ralab_workload *wl;
		struct ralab_diag d = { 0 };

		if (ralab_workload_load_opts(cases[c], &lo, &wl, &d)) {
			ret = 2;
			break;
		}
		for (k = 0; k < ncombo && !ret; k++) {
			const struct ralab_config *cfg;
			char nb[128];

			apply_combo(wl, sw, nsw, k);
			cfg = ralab_workload_config(wl);
			for (p = 0; p < npol; p++) {
				struct ralab_run_opts ro = {
					.policy = pol[p].name,
					.patches = pol[p].patches,
					.nr_patches = pol[p].nr_patches,
				};
				struct row *r = &rows[nrows++];

				snprintf(r->case_name, sizeof(r->case_name), "%s",
					 case_name(cases[c], nb, sizeof(nb)));
				r->policy = pol[p].label;
				combo_label(r->settings, sizeof(r->settings),
					    sw, nsw, k);
				r->ra_kb = cfg->read_ahead_kb;
				r->msk_kb = cfg->max_sectors_kb;
				rerr = ralab_run(wl, &ro, &r->st);
				if (rerr) {
					fprintf(stderr, "ralab compare: %s: %s: %s\n",
						cases[c], pol[p].label,
						ralab_strerror(rerr));
					ret = rerr == -EOPNOTSUPP ? 2 : 1;
					break;
				}
				/*
				 * Ratios are to the first policy of the same
				 * setting; with one policy, to the case's first
				 * setting, so that a sweep shows its effect.
				 */
				if (npol == 1)
					r->base = &rows[nrows - 1 - k].st;
				else
					r->base = &rows[nrows - 1 - p].st;
				cli_progress_step(&prog, r->case_name);
			}
		}
		ralab_workload_free(wl);
	}
	cli_progress_end(&prog);
	if (!ret) {
		bool settings = false;

		for (i = 0; i < nsw; i++)
			settings = settings || !own_column(sw[i].key);
		if (fmt == CLI_FMT_JSON)
			print_json(rows, nrows, settings);
		else if (fmt == CLI_FMT_CSV)
			print_csv(rows, nrows, settings);
		else
			print_text(rows, nrows, settings);
	}
	free(rows);
	return ret;
}
