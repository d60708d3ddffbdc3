/* SPDX-License-Identifier: MIT */
/*
 * harness.h - a tiny test harness: typed assertions that print both
 * values and file:line, a TEST() runner and a summary line.
 */
#ifndef RALAB_HARNESS_H
#define RALAB_HARNESS_H

#include <stdio.h>

static int t_failed, t_passed;

#define ASSERT_EQ_U64(a, b)                                                  \
	do {                                                                 \
		unsigned long long _a = (a), _b = (b);                       \
		if (_a != _b) {                                              \
			fprintf(stderr, "%s:%d: `%s == %s` (%llu != %llu)\n", \
				__FILE__, __LINE__, #a, #b, _a, _b);         \
			return 1;                                            \
		}                                                            \
	} while (0)

#define ASSERT_TRUE(x)                                                       \
	do {                                                                 \
		if (!(x)) {                                                  \
			fprintf(stderr, "%s:%d: `%s` is false\n", __FILE__,  \
				__LINE__, #x);                               \
			return 1;                                            \
		}                                                            \
	} while (0)

#define TEST(fn)                                                             \
	do {                                                                 \
		if (fn()) {                                                  \
			fprintf(stderr, "FAIL %s\n", #fn);                   \
			t_failed++;                                          \
		} else {                                                     \
			t_passed++;                                          \
		}                                                            \
	} while (0)

#define TEST_SUMMARY(name)                                                   \
	(printf("%s: %d passed, %d failed\n", name, t_passed, t_failed),     \
	 t_failed ? 1 : 0)

#endif
