// SPDX-License-Identifier: MIT
/*
 * bench - time ralab_run() on a workload: the median of several runs, the
 * simulated reads per second and the peak RSS.  A benchmark, never a test.
 *
 *   bench CASE.ops [RUNS]
 *
 * Prints key=value lines: runs, syscalls, data_reads, seconds_median,
 * reads_per_second, peak_rss_kib.
 */
#include <stdio.h>
#include <stdlib.h>
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

int main(int argc, char **argv)
{
	struct ralab_workload *wl;
	struct ralab_diag d;
	struct ralab_stats st;
	struct rusage ru;
	double t[64];
	int runs = argc > 2 ? atoi(argv[2]) : 5, i;

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
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_double);
	getrusage(RUSAGE_SELF, &ru);
	printf("runs=%d\n", runs);
	printf("syscalls=%llu\n", (unsigned long long)st.syscalls);
	printf("data_reads=%llu\n", (unsigned long long)st.data_reads);
	printf("seconds_median=%.6f\n", t[runs / 2]);
	printf("reads_per_second=%.0f\n", (double)st.syscalls / t[runs / 2]);
	printf("peak_rss_kib=%ld\n", ru.ru_maxrss);
	ralab_workload_free(wl);
	return 0;
}
