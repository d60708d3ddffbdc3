// SPDX-License-Identifier: MIT
/*
 * text.c - the growing text the front-ends write .ops into.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

void ralab__text_vprintf(struct wl_text *t, const char *fmt, va_list ap)
{
	/*
	 * Formatted into a small buffer first: glibc's vsnprintf() into
	 * the text's free space costs in proportion to that space (its
	 * overflow handling), megabytes per op on a large job.
	 */
	char line[256];
	va_list again;
	int n;

	if (t->oom)
		return;
	va_copy(again, ap);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n < 0) {
		t->oom = true;
		goto out;
	}
	while (t->cap - t->len <= (size_t)n) {
		size_t cap = t->cap ? t->cap * 2 : 1 << 16;
		char *s = realloc(t->s, cap);

		if (!s) {
			t->oom = true;
			goto out;
		}
		t->s = s;
		t->cap = cap;
	}
	if ((size_t)n < sizeof(line))
		memcpy(t->s + t->len, line, (size_t)n + 1);
	else
		vsnprintf(t->s + t->len, t->cap - t->len, fmt, again);
	t->len += (size_t)n;
out:
	va_end(again);
}

void ralab__text_printf(struct wl_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ralab__text_vprintf(t, fmt, ap);
	va_end(ap);
}
