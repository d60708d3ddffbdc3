/* SPDX-License-Identifier: MIT */
/*
 * trace.h - building .ops text from a recorded I/O trace.  Descriptors are
 * keyed by two numbers (a process id and a descriptor number for strace,
 * a file for iologs).
 */
#ifndef RALAB_TRACE_H
#define RALAB_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#define TB_MAX_FILES 64
#define TB_MAX_OPS (1u << 22)

struct tb;

struct tb *tb_new(void);
void tb_free(struct tb *t);
/* The file of @path (created on first use); -errno if too many. */
int tb_file(struct tb *t, const char *path);
int tb_open(struct tb *t, long k1, long k2, int file);
void tb_close(struct tb *t, long k1, long k2);
bool tb_known(struct tb *t, long k1, long k2);
/* A read of @count bytes at @off that returned @ret. */
void tb_read(struct tb *t, long k1, long k2, uint64_t off, uint64_t count,
	     int64_t ret);
void tb_advise(struct tb *t, long k1, long k2, uint64_t off, uint64_t len,
	       int advice, bool readahead);
/*
 * Time the traced program spent between two replayed calls (computing,
 * or in calls not replayed): a pause before the next op.  Pauses are all
 * left out after tb_untimed().
 */
void tb_pause(struct tb *t, uint64_t us);
/*
 * The next op starts no earlier than @us after the op before it started
 * (fio's iolog replay keeps the log's pace this way).
 */
void tb_pace(struct tb *t, uint64_t us);
/* Some calls had no timing: replay without pauses, saying @why. */
void tb_untimed(struct tb *t, const char *why);
void tb_note(struct tb *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* More than TB_MAX_OPS operations were given (the rest dropped). */
bool tb_full(const struct tb *t);
/* The .ops text (malloc'ed), or -ENODATA when no file was read. */
int tb_emit(struct tb *t, const char *what, const char *source, char **ops);

#endif
