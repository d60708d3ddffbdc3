/* SPDX-License-Identifier: MIT */
#ifndef RALAB_CLI_H
#define RALAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ralab.h"

bool cli_policy_known(const char *name);

#define CLI_MAX_PATCHES 32

/* A policy with patches, from "NAME+PATCH+..." and --patch options. */
struct cli_policy {
	char buf[256];
	const char *name;
	const char *patches[CLI_MAX_PATCHES];
	unsigned nr_patches;
	char label[512];
};

/* Parse @spec (NULL: the default policy); prints errors; 0 or -1. */
int cli_policy_parse(const char *spec, const char *const *extra,
		     unsigned nr_extra, struct cli_policy *p);
int cli_compare(int argc, char **argv);
int cli_tune(int argc, char **argv);
int cli_dump(int argc, char **argv);
int cli_report(int argc, char **argv);
int cli_record(int argc, char **argv);
int cli_calibrate(int argc, char **argv);

/* A progress line on stderr, shown only on a terminal after ~1 s. */
struct cli_progress {
	unsigned total, done;
	double start;
	bool shown, tty;
};

void cli_progress_start(struct cli_progress *p, unsigned total);
void cli_progress_step(struct cli_progress *p, const char *what);
void cli_progress_end(struct cli_progress *p);
/*
 * --set KEY=VALUE on a loaded workload: 0, or 2 after a message.  The
 * keys of how a file is read (fio_files) are left to cli_load_opts().
 */
int cli_apply_set(struct ralab_workload *wl, const char *kv);
/*
 * On stderr, "ralab CMD: note: PATH: ..." for each distinct '# note: '
 * line of @wl's .ops text (what a trace's replay leaves out or changes),
 * the first CLI_MAX_NOTES of them, then how many more.
 */
#define CLI_MAX_NOTES 8
void cli_print_notes(const char *cmd, const char *path,
		     const struct ralab_workload *wl);
/* The load options of the --set values @sets: 0, or 2 after a message. */
int cli_load_opts(const char *const *sets, unsigned nsets,
		  struct ralab_load_opts *lo);
/* One --set value's part of *@lo (other keys: nothing); 0 or 2. */
int cli_load_opt(const char *kv, struct ralab_load_opts *lo);
/*
 * job.NAME.* lines of a run with several jobs; @waits: the time model's
 * wait figures too (a kernel run has none).
 */
void cli_print_jobs(FILE *out, const struct ralab_stats *st, bool waits);
/* @time_model: print the time model's figures (not for a kernel run). */
void cli_print_summary(FILE *out, const struct ralab_workload *wl,
		       const char *policy, const struct ralab_stats *st,
		       bool time_model);
/*
 * SIGINT, SIGTERM and SIGHUP set the returned flag (for
 * ralab_kernel_opts.stop) instead of killing: the recorder cleans up.
 */
volatile int *cli_catch_signals(void);
/* @s as a JSON string, quoted and escaped. */
void cli_json_str(FILE *out, const char *s);
/* @s as one CSV field (RFC 4180: quoted when it must be). */
void cli_csv_field(FILE *out, const char *s);
/* A key=value text as CSV: a header row and a value row. */
void cli_print_csv(FILE *out, const char *text);
int cli_diff(int argc, char **argv);
/* The readahead windows along a run, in order (owned; free @w). */
#define CLI_MAX_WINDOWS (1u << 22) /* beyond: ra_windows_truncated */
struct cli_windows {
	struct { uint64_t index, pages; } *w;
	size_t n, cap;
	struct ralab_window_state ws;
	bool truncated, trace;
};

/*
 * @win: the window series to include, or NULL.  @kres: a kernel run's
 * result (its fields go in a "kernel" object, without the time model's
 * figures), or NULL for a simulation.
 */
void cli_print_json(FILE *out, const struct ralab_workload *wl,
		    const char *policy, const struct ralab_stats *st,
		    const struct cli_windows *win,
		    const struct ralab_kernel_result *kres);
/* An event callback collecting windows in @arg, a struct cli_windows. */
void cli_collect_window(void *arg, const struct ralab_event *ev);
/* What a comparison found, part by part (true: the part matches). */
struct cli_verdict {
	bool ra, folio_orders, data_reads, folio_stream, rq_stream, match;
};

/*
 * How two outputs are compared: @strict, the folio and request streams
 * too; @ignore, fields left out of the readahead events (prev_pos where
 * timing decides it), at most CLI_MAX_IGNORE.
 */
#define CLI_MAX_IGNORE 8
struct cli_cmp {
	bool strict;
	unsigned nignore;
	const char *ignore[CLI_MAX_IGNORE];
};
/* Parse a --ignore FIELD value into @c; 2 with a message if invalid. */
int cli_cmp_ignore(const char *cmd, struct cli_cmp *c, const char *field);
/* @v: filled if not NULL.  Return: 0 match, 1 differ, 2 bad input. */
int cli_compare_outputs(FILE *out, const char *a, const char *b,
			const struct cli_cmp *c, struct cli_verdict *v);
/* Print verdicts as JSON or CSV; @report: each one's text report. */
enum cli_fmt { CLI_FMT_TEXT, CLI_FMT_JSON, CLI_FMT_CSV };
int cli_parse_fmt(const char *cmd, const char *a, enum cli_fmt *fmt);
void cli_print_verdicts(FILE *out, enum cli_fmt fmt, const char *command,
			const char *const *cases, const char *na,
			const char *nb, bool strict,
			const struct cli_verdict *v, char *const *report,
			unsigned n);
/*
 * A kernel recording or ralab output as ralab output text (malloc'ed; NULL
 * and errno on failure): .gz files are decompressed, and a raw event log
 * (events only, absolute sectors) is given file-relative sectors and the
 * summary lines that diff compares.
 */
char *cli_load_recording(const char *path);
/* Compare two outputs held in memory; takes ownership of @ta and @tb. */
int cli_compare_texts(FILE *out, const char *na, char *ta, const char *nb,
		      char *tb, const struct cli_cmp *c, struct cli_verdict *v);
int cli_kernel(int argc, char **argv);
int cli_check(int argc, char **argv);
void cli_print_event(void *arg, const struct ralab_event *ev);

#endif
