// SPDX-License-Identifier: MIT
/*
 * progress.c - a progress line on stderr for long runs: only when stderr
 * is a terminal, and only once a run has lasted about a second.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(struct cli_progress *p, unsigned total)
{
	p->total = total;
	p->done = 0;
	p->start = now();
	p->shown = false;
	p->tty = isatty(2);
}

void cli_progress_step(struct cli_progress *p, const char *what)
{
	double t;
	int width = 30, fill;

	p->done++;
	if (!p->tty)
		return;
	t = now() - p->start;
	if (t < 1.0 && !p->shown)
		return;
	p->shown = true;
	fill = p->total ? (int)((double)width * p->done / p->total) : width;
	fprintf(stderr, "\r[%.*s%*s] %u/%u %.40s  ", fill,
		"##############################", width - fill, "", p->done,
		p->total, what);
	fflush(stderr);
}

void cli_progress_end(struct cli_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 80, "");
}
