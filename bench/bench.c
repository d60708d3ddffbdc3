// SPDX-License-Identifier: MIT
/*
 * bench - time ralab_run() on a workload: the median of several runs, the
 * simulated reads per second and the peak RSS.  A benchmark, never a test.
 *
 *   bench CASE.ops [RUNS]
 *   bench --api MIB
 *
 * Prints key=value lines: runs, syscalls, data_reads, seconds_first (the
 * first run, its memory fresh from the kernel), seconds_median,
 * reads_per_second, peak_rss_kib.  --api times the public readahead API
 * (ralab_ra_*()) driving an in-memory cache of flat arrays over 4 KiB
 * sequential reads of a MIB-MiB file, no I/O: what taking the decisions
 * from ralab costs a cache of one's own, per read (api_ns_per_read).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ralab.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The API bench's cache: per page, its folio's head or -1; marks. */
struct flat {
	int64_t *head;
	unsigned char *order, *mark;
	uint64_t npages;
};

static int f_add(void *ctx, uint64_t index, unsigned order, bool mark)
{
	struct flat *f = ctx;
	uint64_t i, n = 1ull << order;

	if (index + n > f->npages)
		return -12; /* -ENOMEM */
	for (i = 0; i < n; i++)
		f->head[index + i] = (int64_t)index;
	f->order[index] = (unsigned char)order;
	f->mark[index] = mark;
	return 0;
}

static void f_read_pages(void *ctx)
{
}

static void f_clear(void *ctx, uint64_t index)
{
	struct flat *f = ctx;

	f->mark[index] = 0;
}

static int bench_api(uint64_t mib)
{
	static const struct ralab_cache_ops ops = {
		.add_folio = f_add,
		.read_pages = f_read_pages,
		.clear_readahead = f_clear,
	};
	struct flat f = { .npages = mib << 8 };
	struct ralab_ra_params p = {
		.i_size = mib << 20,
		.read_ahead_kb = 128,
		.max_sectors_kb = 512,
		.max_order = 9,
	};
	struct ralab_ra *ra;
	uint64_t i;
	double t0, t;

	f.head = malloc(f.npages * sizeof(*f.head));
	f.order = calloc(f.npages, 1);
	f.mark = calloc(f.npages, 1);
	if (!f.head || !f.order || !f.mark || ralab_ra_create(&p, &ops, &f, &ra))
		return 1;
	memset(f.head, 0xff, f.npages * sizeof(*f.head)); /* all -1 */
	t0 = now();
	for (i = 0; i < f.npages; i++) {
		if (f.head[i] < 0)
			ralab_ra_sync(ra, i, 1);
		if (f.head[i] >= 0 && f.mark[f.head[i]])
			ralab_ra_async(ra, (uint64_t)f.head[i], f.order[i], 1);
		ralab_ra_read_done(ra, (i + 1) << 12);
	}
	t = now() - t0;
	printf("api_reads=%llu\n", (unsigned long long)f.npages);
	printf("api_seconds=%.6f\n", t);
	printf("api_ns_per_read=%.1f\n", t * 1e9 / (double)f.npages);
	ralab_ra_destroy(ra);
	free(f.head);
	free(f.order);
	free(f.mark);
	return 0;
}

int main(int argc, char **argv)
{
	struct ralab_workload *wl;
	struct ralab_diag d;
	struct ralab_stats st;
	struct rusage ru;
	double t[64], first;
	int runs = argc > 2 ? atoi(argv[2]) : 5, i;

	/* As the ralab program does (cli/ralab.c: keep_freed_memory()). */
#ifdef M_TRIM_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	if (argc == 3 && !strcmp(argv[1], "--api")) {
		uint64_t mib = strtoull(argv[2], NULL, 10);

		return bench_api(mib ? mib : 1);
	}
	if (argc < 2 || runs < 1 || runs > 64) {
		fprintf(stderr, "usage: bench CASE.ops [RUNS (1-64)]\n");
		return 2;
	}
	if (ralab_workload_load(argv[1], &wl, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		return 2;
	}
	for (i = 0; i < runs; i++) {
		double t0 = now();

		if (ralab_run(wl, NULL, &st)) {
			fprintf(stderr, "bench: run failed\n");
			return 1;
		}
		t[i] = now() - t0;
	}
	first = t[0];
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_double);
	getrusage(RUSAGE_SELF, &ru);
	printf("runs=%d\n", runs);
	printf("syscalls=%llu\n", (unsigned long long)st.syscalls);
	printf("data_reads=%llu\n", (unsigned long long)st.data_reads);
	printf("seconds_first=%.6f\n", first);
	printf("seconds_median=%.6f\n", t[runs / 2]);
	printf("reads_per_second=%.0f\n", (double)st.syscalls / t[runs / 2]);
	printf("peak_rss_kib=%ld\n", ru.ru_maxrss);
	ralab_workload_free(wl);
	return 0;
}
