// SPDX-License-Identifier: MIT
/*
 * report.c - 'ralab report --html': one self-contained page (inline SVG,
 * no network) with, per case, the readahead window size along the file,
 * the folio order along the file, the device request sizes and bars
 * comparing the policies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_POL 8
#define BUCKETS 256 /* folio-order profile resolution along the file */
#define W 760
#define H 260
#define ML 60 /* margins */
#define MR 20
#define MT 26
#define MB 40

static const char *const colours[MAX_POL] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};

struct window {
	uint64_t start, size; /* pages */
};

struct series {
	struct window *w;
	size_t n, cap;
	double order_sum[BUCKETS];
	uint64_t order_pages[BUCKETS];
	uint64_t file_pages;
	struct ralab_window_state ws; /* ralab_event_window()'s state */
	struct ralab_stats st;
};

static void on_event(void *arg, const struct ralab_event *ev)
{
	struct series *s = arg;
	uint64_t start = ev->index, size, pages, b;

	if (ev->type == RALAB_EV_ADD_FOLIO && s->file_pages) {
		/* Weight each folio's order by its pages, per bucket. */
		pages = 1ull << ev->order;
		b = ev->ofs / RALAB_PAGE_SIZE * BUCKETS / s->file_pages;
		if (b < BUCKETS) {
			s->order_sum[b] += (double)ev->order * (double)pages;
			s->order_pages[b] += pages;
		}
		return;
	}
	size = ralab_event_window(ev, &s->ws);
	if (!size)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		struct window *w = realloc(s->w, cap * sizeof(*w));

		if (!w)
			return;
		s->w = w;
		s->cap = cap;
	}
	s->w[s->n++] = (struct window){ start, size };
}

static void html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else
			fputc(*s, out);
	}
}

static void svg_open(FILE *out, const char *id, const char *title,
		     const char *xlabel, const char *ylabel)
{
	fprintf(out, "<figure><figcaption>%s</figcaption>\n", title);
	fprintf(out, "<svg class=\"chart\" id=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
		id, W, H, W, H);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n",
		ML, MT, W - ML - MR, H - MT - MB);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
		ML + (W - ML - MR) / 2, H - 6, xlabel);
	fprintf(out, "<text x=\"14\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>\n",
		MT + (H - MT - MB) / 2, MT + (H - MT - MB) / 2, ylabel);
}

static void axis_ticks(FILE *out, double xmax, double ymax, const char *xunit)
{
	int i;

	for (i = 0; i <= 4; i++) {
		double fx = ML + (W - ML - MR) * i / 4.0;
		double fy = H - MB - (H - MT - MB) * i / 4.0;

		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%.4g%s</text>\n",
			fx, H - MB + 14, xmax * i / 4.0, xunit);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
			ML - 4, fy + 3, ymax * i / 4.0);
	}
}

static void legend(FILE *out, const struct cli_policy *pol, unsigned np)
{
	unsigned p;

	/* One row above the plot, so that it never hides data. */
	for (p = 0; p < np; p++) {
		fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">",
			ML + (int)p * ((W - ML - MR) / (int)np), MT - 8, colours[p]);
		html_escape(out, pol[p].label);
		fprintf(out, "</text>\n");
	}
}

static void chart_windows(FILE *out, const char *id, struct series *s,
			  const struct cli_policy *pol, unsigned np,
			  uint64_t file_pages)
{
	double xmax = (double)file_pages * RALAB_PAGE_SIZE / 1048576.0, ymax = 1;
	unsigned p;
	size_t i;

	for (p = 0; p < np; p++)
		for (i = 0; i < s[p].n; i++)
			if ((double)s[p].w[i].size > ymax)
				ymax = (double)s[p].w[i].size;
	if (xmax <= 0)
		xmax = 1;
	svg_open(out, id, "Readahead window size along the file (page_cache_ra_order and ra_unbounded calls)",
		 "window start (MiB into the file)", "window (pages)");
	axis_ticks(out, xmax, ymax, "");
	for (p = 0; p < np; p++) {
		fprintf(out, "<g class=\"series\" fill=\"%s\" fill-opacity=\"0.6\"><title>", colours[p]);
		html_escape(out, pol[p].label);
		fprintf(out, "</title>\n");
		/* At most ~2000 points a series: thin long runs evenly. */
		for (i = 0; i < s[p].n; i += s[p].n / 2000 + 1) {
			double x = ML + (W - ML - MR) *
				   ((double)s[p].w[i].start * RALAB_PAGE_SIZE / 1048576.0) / xmax;
			double y = H - MB - (H - MT - MB) * (double)s[p].w[i].size / ymax;

			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\"/>\n", x, y);
		}
		fprintf(out, "</g>\n");
	}
	legend(out, pol, np);
	fprintf(out, "</svg></figure>\n");
}

static void chart_orders(FILE *out, const char *id, struct series *s,
			 const struct cli_policy *pol, unsigned np,
			 uint64_t file_pages)
{
	double xmax = (double)file_pages * RALAB_PAGE_SIZE / 1048576.0;
	unsigned p, b;

	if (xmax <= 0)
		xmax = 1;
	svg_open(out, id, "Folio order along the file (mean order of the pages read in, per 1/256 of the file)",
		 "file offset (MiB)", "folio order");
	axis_ticks(out, xmax, 9, "");
	for (p = 0; p < np; p++) {
		fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colours[p]);
		for (b = 0; b < BUCKETS; b++) {
			double o;

			if (!s[p].order_pages[b])
				continue;
			o = s[p].order_sum[b] / (double)s[p].order_pages[b];
			fprintf(out, "%.1f,%.1f ",
				ML + (W - ML - MR) * (b + 0.5) / BUCKETS,
				H - MB - (H - MT - MB) * o / 9.0);
		}
		fprintf(out, "\"><title>");
		html_escape(out, pol[p].label);
		fprintf(out, "</title></polyline>\n");
	}
	legend(out, pol, np);
	fprintf(out, "</svg></figure>\n");
}

static void chart_requests(FILE *out, const char *id, struct series *s,
			   const struct cli_policy *pol, unsigned np)
{
	double ymax = 1, bw = (double)(W - ML - MR) / RALAB_RQ_BUCKETS;
	unsigned p, k;

	for (p = 0; p < np; p++)
		for (k = 0; k < RALAB_RQ_BUCKETS; k++)
			if ((double)s[p].st.rq_size_hist[k] > ymax)
				ymax = (double)s[p].st.rq_size_hist[k];
	svg_open(out, id, "Device request sizes", "request size (KiB, bucket start)",
		 "requests");
	for (k = 0; k < RALAB_RQ_BUCKETS; k++)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%u</text>\n",
			ML + bw * (k + 0.5), H - MB + 14, 4u << k);
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
		ML - 4, MT + 3, ymax);
	for (p = 0; p < np; p++) {
		fprintf(out, "<g class=\"series\" fill=\"%s\">\n", colours[p]);
		for (k = 0; k < RALAB_RQ_BUCKETS; k++) {
			double h = (H - MT - MB) * (double)s[p].st.rq_size_hist[k] / ymax;
			double x = ML + bw * k + bw * p / np + 1;

			if (!s[p].st.rq_size_hist[k])
				continue;
			fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
				x, H - MB - h, bw / np - 2, h);
			html_escape(out, pol[p].label);
			fprintf(out, ": %llu requests of %u KiB or more</title></rect>\n",
				(unsigned long long)s[p].st.rq_size_hist[k], 4u << k);
		}
		fprintf(out, "</g>\n");
	}
	legend(out, pol, np);
	fprintf(out, "</svg></figure>\n");
}

static void chart_bars(FILE *out, const char *id, struct series *s,
		       const struct cli_policy *pol, unsigned np)
{
	static const char *const names[] = { "device reads", "MiB read",
					     "async readahead calls",
					     "pages read ahead, unused" };
	double gw = (double)(W - ML - MR) / 4;
	unsigned p, g;

	svg_open(out, id, "Policies side by side (each figure relative to the largest)",
		 "", "relative");
	for (g = 0; g < 4; g++) {
		double v[MAX_POL], vmax = 0;

		for (p = 0; p < np; p++) {
			const struct ralab_stats *st = &s[p].st;

			v[p] = g == 0 ? (double)st->data_reads :
			       g == 1 ? (double)st->data_sectors / 2048.0 :
			       g == 2 ? (double)st->async_ra :
			       st->ra_pages_unused == UINT64_MAX ? 0 :
								   (double)st->ra_pages_unused;
			if (v[p] > vmax)
				vmax = v[p];
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
			ML + gw * (g + 0.5), H - MB + 14, names[g]);
		for (p = 0; p < np; p++) {
			double h = vmax ? (H - MT - MB - 10) * v[p] / vmax : 0;
			double x = ML + gw * g + 8 + (gw - 16) * p / np;

			fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
				x, H - MB - h, (gw - 16) / np - 2, h, colours[p]);
			html_escape(out, pol[p].label);
			fprintf(out, ": %.1f</title></rect>\n", v[p]);
		}
	}
	legend(out, pol, np);
	fprintf(out, "</svg></figure>\n");
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ralab report --html OUT.html [--policy SPEC]... [--set KEY=VALUE]... CASE...\n"
		"\n"
		"Write one self-contained HTML page (inline SVG, no network access)\n"
		"with, for each case: the readahead window size along the file, the\n"
		"folio order along the file, the device request sizes, and bars\n"
		"comparing the policies.  Default policies: linux-6.18, park-2026,\n"
		"kara-2026, linux-6.9.  --set overrides a case's header value, as\n"
		"for 'ralab sim' (repeatable).\n");
}

int cli_report(int argc, char **argv)
{
	static const char *const defaults[] = { "linux-6.18", "park-2026",
						"kara-2026", "linux-6.9" };
	struct cli_policy pol[MAX_POL];
	const char *outpath = NULL, *cases[64], *sets[16];
	struct ralab_load_opts lo;
	unsigned np = 0, nc = 0, ns = 0, c, p, k;
	struct series *s;
	FILE *out;
	int i, ret = 0, rerr;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--html") || !strcmp(a, "--policy")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab report: %s needs a value\n", a);
				return 2;
			}
			if (a[2] == 'h') {
				outpath = argv[++i];
			} else {
				if (np == MAX_POL) {
					fprintf(stderr, "ralab report: at most %d policies\n", MAX_POL);
					return 2;
				}
				if (cli_policy_parse(argv[++i], NULL, 0, &pol[np++]))
					return 2;
			}
		} else if (!strcmp(a, "--set")) {
			if (i + 1 >= argc || ns == 16) {
				fprintf(stderr, "ralab report: --set needs KEY=VALUE (at most 16)\n");
				return 2;
			}
			sets[ns++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab report: unknown option '%s'\n", a);
			return 2;
		} else if (nc == 64) {
			fprintf(stderr, "ralab report: at most 64 cases\n");
			return 2;
		} else {
			cases[nc++] = a;
		}
	}
	if (!outpath || !nc) {
		fprintf(stderr, "usage: ralab report --html OUT.html [--policy SPEC]... [--set KEY=VALUE]... CASE...\n");
		return 2;
	}
	if (!np)
		for (p = 0; p < 4; p++)
			if (cli_policy_parse(defaults[p], NULL, 0, &pol[np++]))
				return 2;
	if (cli_load_opts(sets, ns, &lo))
		return 2;
	for (c = 0; c < nc; c++) {
		struct ralab_workload *wl;
		struct ralab_diag d = { 0 };

		if (ralab_workload_load_opts(cases[c], &lo, &wl, &d)) {
			fprintf(stderr, "%s\n", d.msg);
			return 2;
		}
		/* Every --set checked on every case before anything is written. */
		for (k = 0; k < ns; k++) {
			if (cli_apply_set(wl, sets[k])) {
				ralab_workload_free(wl);
				return 2;
			}
		}
		ralab_workload_free(wl);
	}
	out = fopen(outpath, "w");
	if (!out) {
		fprintf(stderr, "ralab report: %s: cannot write\n", outpath);
		return 2;
	}
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		     "<title>ralab report</title>\n<style>\n"
		     "body{font-family:sans-serif;margin:2em;max-width:820px}\n"
		     "figure{margin:1em 0}figcaption{font-weight:bold;margin-bottom:.3em}\n"
		     "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
		     "</style></head><body>\n<h1>ralab %s: readahead report</h1>\n"
		     "<p id=\"status\">static page</p>\n", RALAB_VERSION);
	s = calloc(np, sizeof(*s));
	for (c = 0; c < nc && s && !ret; c++) {
		struct ralab_workload *wl;
		struct ralab_diag d = { 0 };
		uint64_t file_pages;
		char id[64];

		if (ralab_workload_load_opts(cases[c], &lo, &wl, &d)) {
			ret = 2;
			break;
		}
		for (k = 0; k < ns; k++)
			cli_apply_set(wl, sets[k]); /* checked above */
		file_pages = (ralab_workload_config(wl)->file_size + RALAB_PAGE_SIZE - 1) /
			     RALAB_PAGE_SIZE;
		for (p = 0; p < np; p++) {
			struct ralab_run_opts ro = {
				.policy = pol[p].name,
				.patches = pol[p].patches,
				.nr_patches = pol[p].nr_patches,
				.on_event = on_event,
				.event_arg = &s[p],
			};

			free(s[p].w);
			memset(&s[p], 0, sizeof(s[p]));
			s[p].file_pages = file_pages;
			rerr = ralab_run(wl, &ro, &s[p].st);
			if (rerr) {
				fprintf(stderr, "ralab report: %s: %s: %s\n",
					cases[c], pol[p].label,
					ralab_strerror(rerr));
				ret = rerr == -EOPNOTSUPP ? 2 : 1;
			}
		}
		fprintf(out, "<h2>");
		html_escape(out, cases[c]);
		fprintf(out, "</h2>\n<table><tr><th>policy</th><th>device reads</th><th>MiB read</th><th>sync</th><th>async</th><th>unused pages</th></tr>\n");
		for (p = 0; p < np; p++) {
			fprintf(out, "<tr><td style=\"color:%s;text-align:left\">", colours[p]);
			html_escape(out, pol[p].label);
			fprintf(out, "</td><td>%llu</td><td>%.1f</td><td>%llu</td><td>%llu</td><td>%llu</td></tr>\n",
				(unsigned long long)s[p].st.data_reads,
				(double)s[p].st.data_sectors / 2048.0,
				(unsigned long long)s[p].st.sync_ra,
				(unsigned long long)s[p].st.async_ra,
				(unsigned long long)(s[p].st.ra_pages_unused == UINT64_MAX ? 0 : s[p].st.ra_pages_unused));
		}
		fprintf(out, "</table>\n");
		snprintf(id, sizeof(id), "windows-%u", c);
		chart_windows(out, id, s, pol, np, file_pages);
		snprintf(id, sizeof(id), "orders-%u", c);
		chart_orders(out, id, s, pol, np, file_pages);
		snprintf(id, sizeof(id), "requests-%u", c);
		chart_requests(out, id, s, pol, np);
		snprintf(id, sizeof(id), "policies-%u", c);
		chart_bars(out, id, s, pol, np);
		ralab_workload_free(wl);
	}
	/* A check the page can run on itself: every chart has data. */
	fprintf(out, "<script>\n"
		     "document.addEventListener('DOMContentLoaded', function () {\n"
		     "  var charts = document.querySelectorAll('svg.chart');\n"
		     "  var empty = 0;\n"
		     "  charts.forEach(function (c) {\n"
		     "    if (!c.querySelector('circle, polyline, rect.bar, g.series rect')) empty++;\n"
		     "  });\n"
		     "  var st = document.getElementById('status');\n"
		     "  st.textContent = charts.length + ' charts, ' + empty + ' empty';\n"
		     "  st.setAttribute('data-charts', String(charts.length));\n"
		     "  st.setAttribute('data-empty', String(empty));\n"
		     "});\n</script>\n</body></html>\n");
	if (s)
		for (p = 0; p < np; p++)
			free(s[p].w);
	free(s);
	if (fclose(out) && !ret)
		ret = 1;
	return ret;
}
