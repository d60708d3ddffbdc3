// SPDX-License-Identifier: MIT
/*
 * iolog.c - fio iologs (read_iolog format), versions 2 and 3.
 *
 *   fio version 2 iolog          fio version 3 iolog
 *   FILE add|open|close          TIME FILE add|open|close
 *   FILE read|write|... OFF LEN  TIME FILE read|write|... OFF LEN
 *
 * Reads become preads on a descriptor of their file (opened at 'open'),
 * writes pwrites (cut at the file's size: a file never grows), syncs
 * fsyncs; trims and waits are not modelled and are skipped.
 * Version 3 times are microseconds from the start; fio's replay starts
 * each line no earlier than the gap to the line before after that line
 * started (iolog_delay), which 'pace' does (a skipped line's gap carries
 * over to the next).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "workload.h"

bool ralab__is_iolog(const char *text, size_t len)
{
	return len >= 14 && !strncmp(text, "fio version ", 12);
}

static bool u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &end, 10);
	return !*end && *v <= (uint64_t)RALAB_MAX_POS;
}

int ralab__iolog_to_ops(const char *name, const char *text, size_t len,
			char **ops, struct ralab_diag *diag)
{
	struct tb *tb = tb_new();
	char *copy = malloc(len + 1), *line, *next;
	unsigned no = 0, version = 0;
	uint64_t last_t = 0, gap = 0;
	int err = 0;

	*ops = NULL;
	if (!tb || !copy) {
		tb_free(tb);
		free(copy);
		return -ENOMEM;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (memchr(text, '\0', len))
		err = wl_diag(diag, name, 1, "NUL byte in the file: not an iolog");
	for (line = copy; !err && line && *line; line = next) {
		char *tok[6], *save = NULL, *t;
		int nt = 0, base, file;
		uint64_t off, n;

		no++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (no == 1) {
			if (!strncmp(line, "fio version 2 iolog", 19))
				version = 2;
			else if (!strncmp(line, "fio version 3 iolog", 19))
				version = 3;
			else
				err = wl_diag(diag, name, no, "not a version 2 or 3 fio iolog header: '%.40s'", line);
			continue;
		}
		for (t = strtok_r(line, " \t\r", &save); t && nt < 6;
		     t = strtok_r(NULL, " \t\r", &save))
			tok[nt++] = t;
		if (!nt)
			continue;
		base = version == 3 ? 1 : 0;
		if (version == 3 && !u64(tok[0], &n)) {
			err = wl_diag(diag, name, no, "version 3 lines start with a time in microseconds, not '%.30s'", tok[0]);
			break;
		}
		if (version == 3) {
			/* fio: no delay for the first line or a time going back. */
			if (last_t && n >= last_t)
				gap += n - last_t;
			last_t = n;
		}
		if (nt < base + 2) {
			/* v2 "wait"-style lines have no file: skip them */
			if (nt == base + 1)
				continue;
			err = wl_diag(diag, name, no, "expected FILE ACTION");
			break;
		}
		file = tb_file(tb, tok[base]);
		if (file < 0) {
			err = file == -ENOSPC ? wl_diag(diag, name, no, "more than %d files", TB_MAX_PATHS) : file;
			break;
		}
		if (!strcmp(tok[base + 1], "add")) {
			continue;
		} else if (!strcmp(tok[base + 1], "open")) {
			tb_pace(tb, gap);
			gap = 0;
			err = tb_open(tb, 0, file, file);
		} else if (!strcmp(tok[base + 1], "close")) {
			tb_pace(tb, gap);
			gap = 0;
			tb_close(tb, 0, file);
		} else if (!strcmp(tok[base + 1], "read") ||
			   !strcmp(tok[base + 1], "write")) {
			bool rd = tok[base + 1][0] == 'r';

			if (nt < base + 4 || !u64(tok[base + 2], &off) ||
			    !u64(tok[base + 3], &n) || n > (uint64_t)RALAB_MAX_POS - off) {
				err = wl_diag(diag, name, no, "%s needs OFFSET LENGTH",
					   tok[base + 1]);
				break;
			}
			if (!tb_known(tb, 0, file))
				err = tb_open(tb, 0, file, file);
			tb_pace(tb, gap);
			gap = 0;
			/* Writes: what they put in the page cache is read. */
			if (rd)
				tb_read(tb, 0, file, off, n, (int64_t)n);
			else
				tb_write(tb, 0, file, off, n);
		} else if (!strcmp(tok[base + 1], "sync") ||
			   !strcmp(tok[base + 1], "datasync")) {
			if (tb_known(tb, 0, file))
				tb_fsync(tb, 0, file);
		} else if (!strcmp(tok[base + 1], "trim") ||
			   !strcmp(tok[base + 1], "wait")) {
			continue;
		} else {
			err = wl_diag(diag, name, no, "unknown action '%.20s'", tok[base + 1]);
			break;
		}
	}
	if (!err && tb_full(tb)) {
		if (diag)
			snprintf(diag->msg, sizeof(diag->msg),
				 "%s: more than %u operations to replay", name, TB_MAX_OPS);
		err = -EINVAL;
	}
	if (!err && !version)
		err = wl_diag(diag, name, 1, "empty iolog");
	if (!err) {
		err = tb_emit(tb, "a fio iolog", name, ops);
		if (err == -E2BIG) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg), "%s: reads from more than %d files", name, TB_MAX_FILES);
			err = -EINVAL;
		}
		if (err == -ENODATA) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg), "%s: no reads in this iolog", name);
			err = -EINVAL;
		}
	}
	tb_free(tb);
	free(copy);
	return err;
}
