// SPDX-License-Identifier: MIT
/*
 * libFuzzer targets for the other input formats, one binary each:
 * -DFUZZ_FIO (job files), -DFUZZ_FIOCMD (fio command lines),
 * -DFUZZ_STRACE (strace logs), -DFUZZ_IOLOG (fio iologs).  Any input must be converted to .ops that parse, or be
 * rejected with a FILE:LINE (or FILE:) message.  -DFUZZ_RAWLOG: kernel
 * recordings (ralab__recording_text), whose output must carry the
 * summary lines whenever the input had kernel events, and their
 * folio_pfns= line (ralab__recording_folio_mem): one pfn per add event,
 * or a FILE:LINE message.
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ralab.h"
#include "report/recording.h"
#include "workload/workload.h"

#if defined(FUZZ_RAWLOG)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Does a line of @s start with @p? */
static bool line_starts(const char *s, const char *p)
{
	char nl[64] = "\n";

	strcat(nl, p);
	return !strncmp(s, p, strlen(p)) || strstr(s, nl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *out;
	bool events;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	events = line_starts(buf, "block_rq_issue:") ||
		 line_starts(buf, "page_cache_") ||
		 line_starts(buf, "mm_filemap_add_to_page_cache:");
	out = ralab__recording_text(buf); /* takes @buf */
	if (!out)
		return 0;
	/* Kernel events always come out with the lines diff compares. */
	if (events && (!line_starts(out, "data_reads=") ||
		       !line_starts(out, "folio_orders=")))
		__builtin_trap();
	{
		struct ralab_folio_mem *m = NULL;
		struct ralab_diag d = { 0 };
		size_t n = 0, k;
		int err = ralab__recording_folio_mem(out, "fuzz", &m, &n, &d);

		if (err == -EINVAL && strncmp(d.msg, "fuzz:", 5))
			__builtin_trap();
		if (err && (m || n))
			__builtin_trap();
		for (k = 0; k < n; k++)
			if (!m[k].pfn || m[k].pfn >= 1ull << 52)
				__builtin_trap();
		free(m);
	}
	free(out);
	return 0;
}
#else

#if defined(FUZZ_FIOCMD)
/* A fio command line: "fio " and the input (NUL bytes end it). */
static int fiocmd(const char *name, const char *text, size_t len, char **ops,
		  struct ralab_diag *diag)
{
	char *line = malloc(len + 5), *job_file = NULL;
	int err;

	(void)name;
	if (!line)
		return -12;
	memcpy(line, "fio ", 4);
	memcpy(line + 4, text, len);
	line[len + 4] = '\0';
	err = ralab__fio_cmdline_to_ops(line, NULL, ops, &job_file, diag);
	free(line);
	/* "fio FILE": a name, not ops (the job file parser has its own). */
	if (!err && job_file) {
		free(job_file);
		*ops = strdup("# file_size: 4096\nread 4096\n");
		err = *ops ? 0 : -12;
	}
	return err;
}
#define CONVERT fiocmd
#define ERR_NAME "fio command line:"
#elif defined(FUZZ_FIO)
/* A job file, read with each fio_files choice (by the input's length). */
static int fio_job(const char *name, const char *text, size_t len,
		   char **ops, struct ralab_diag *diag)
{
	struct ralab_load_opts lo = {
		.fio_files = (enum ralab_fio_files)(len % 3),
	};

	return ralab__fio_to_ops_opts(name, text, len, &lo, ops, diag);
}
#define CONVERT fio_job
#elif defined(FUZZ_STRACE)
#define CONVERT ralab__strace_to_ops
#else
#define CONVERT ralab__iolog_to_ops
#endif
#ifndef ERR_NAME
#define ERR_NAME "fuzz.in:"
#endif

/*
 * Does @msg start with the name of a regular file (a command line's job
 * file, whose messages name it and its lines)?
 */
static bool names_a_file(const char *msg)
{
	char path[256];
	size_t n = strcspn(msg, ":");
	struct stat sb;

	if (!n || n >= sizeof(path) || !msg[n])
		return false;
	memcpy(path, msg, n);
	path[n] = '\0';
	return !stat(path, &sb) && S_ISREG(sb.st_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d;
	char *ops = NULL;
	int err;

	memset(&d, 0, sizeof(d));
	err = CONVERT("fuzz.in", (const char *)data, size, &ops, &d);
	if (err) {
		/*
		 * A job file's include names the included file instead, and
		 * a command line's job file itself.
		 */
		if (err == -22 && strncmp(d.msg, ERR_NAME, strlen(ERR_NAME)) &&
		    !memmem(data, size, "include", 7) && !names_a_file(d.msg))
			__builtin_trap();
		return 0;
	}
	/* What a converter writes must be a valid workload. */
	err = ralab_workload_parse("fuzz.ops", ops, strlen(ops), &wl, &d);
	/* (Limits of ralab's, not errors: a fio job of 2^32 random reads.) */
	if (err == -22 && !strstr(d.msg, "past 2^63") && !strstr(d.msg, "too large") &&
	    !strstr(d.msg, "larger than the file") && !strstr(d.msg, "too many") &&
	    !strstr(d.msg, ": at most 2^"))
		__builtin_trap();
	/* And it must run (small workloads only, to keep runs short). */
	if (!err && wl->nr_ops < 2000) {
		struct ralab_stats st;
		uint64_t work = 0, biggest = wl->cfg.file_size;
		unsigned i;

		for (i = 0; i < wl->nr_files; i++)
			if (wl->files[i].size > biggest)
				biggest = wl->files[i].size;
		for (i = 0; i < wl->nr_ops; i++)
			work += wl->ops[i].to_eof ? 1000 : wl->ops[i].count + 1;
		/* time_based: a few passes at most (the default CPU costs). */
		for (i = 0; i < wl->nr_jobs; i++)
			if (wl->jobs[i].runtime_ns > 20000)
				wl->jobs[i].runtime_ns = 20000;
		if (biggest <= (16u << 20) && work <= 20000)
			ralab_run(wl, NULL, &st);
	}
	ralab_workload_free(wl);
	free(ops);
	return 0;
}
#endif
