/* SPDX-License-Identifier: MIT */
/*
 * latency.h - read latencies as a log-linear histogram (log2 with 8
 * sub-buckets: within 12.5%), and percentiles read off it.  The model's
 * jobs and the kernel recorder fill the same histogram, so their
 * percentiles are comparable.
 */
#ifndef RALAB_REPORT_LATENCY_H
#define RALAB_REPORT_LATENCY_H

#include <stdint.h>

#define LAT_BUCKETS (64 * 8)

static inline unsigned lat_bucket(uint64_t ns)
{
	unsigned b;

	if (ns < 8) {
		b = (unsigned)ns;
	} else {
		unsigned l = 63u - (unsigned)__builtin_clzll(ns);

		b = (l - 2) * 8 + (unsigned)((ns >> (l - 3)) & 7);
	}
	return b < LAT_BUCKETS ? b : LAT_BUCKETS - 1;
}

/* The @pct-th percentile of the @n values in @h: its bucket's middle. */
static inline uint64_t lat_pct(const uint64_t *h, uint64_t n, unsigned pct)
{
	uint64_t want = (n * pct + 99) / 100, seen = 0;
	unsigned b;

	if (!n)
		return 0;
	for (b = 0; b < LAT_BUCKETS; b++) {
		seen += h[b];
		if (seen >= want && h[b]) {
			unsigned l;

			if (b < 8)
				return b;
			l = b / 8 + 2;
			return ((8ull + b % 8) << (l - 3)) +
			       (1ull << (l - 3)) / 2;
		}
	}
	return 0;
}

#endif
