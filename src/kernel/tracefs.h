/* SPDX-License-Identifier: MIT */
/*
 * tracefs.h - small file I/O for tracefs and sysfs, shared by the
 * recorder and the page-fault recorder of 'ralab record'.
 */
#ifndef RALAB_KERNEL_TRACEFS_H
#define RALAB_KERNEL_TRACEFS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct ralab_diag;

/*
 * Instances are named INSTANCE_PREFIX and the pid of the process that
 * made them, so that a teardown can tell those of dead processes.
 */
#define INSTANCE_PREFIX "ralab-"

/* Write @val to @path (one write); 0 or -errno. */
int kx_write_file(const char *path, const char *val);
/* Read @path into @buf (of @len bytes), trailing newlines and spaces cut. */
int kx_read_small(const char *path, char *buf, size_t len);
/* Where tracefs is mounted (with instances), or NULL. */
const char *kx_find_tracefs(void);
/*
 * @fmt's message into @diag (if not NULL; no line), for the recorders of
 * 'ralab record'; returns @err.
 */
int kx_err(struct ralab_diag *diag, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * @p to @m quoted as strace quotes a path ("..", '"' and '\\' escaped),
 * for the lines the recorders add to a log.
 */
void kx_put_path(FILE *m, const char *p);
/* Write @val to the file @file of the instance at @inst; @diag says why not. */
int kx_inst_write(const char *inst, const char *file, const char *val,
		  struct ralab_diag *diag);
/*
 * A tracefs instance of this process's for tracepoint @event ("system/
 * name"): as root, with tracefs mounted and the tracepoint there, made at
 * @inst (@len bytes), named INSTANCE_PREFIX, the pid and @suffix; @who
 * starts the message when not root ("page faults are").  0, or -errno
 * with @inst "" and @diag saying why.
 */
int kx_inst_create(const char *event, const char *who, const char *suffix,
		   char *inst, size_t len, struct ralab_diag *diag);
/* Stop the instance at @inst and remove it. */
void kx_inst_remove(const char *inst);
/* Events the instance at @inst lost to a full ring buffer, over all CPUs. */
unsigned long long kx_overruns(const char *inst);

/*
 * Pages of the file open at @fd (@size bytes) in the page cache
 * (mincore() of a mapping of it); -errno.
 */
long long kx_cached_pages(int fd, off_t size);
/*
 * The tasks (threads) of process @pid as set_event_pid takes them ("TID
 * TID ..."), into @buf (@len bytes); 0 or -errno with @diag (-E2BIG: too
 * many).
 */
int kx_task_list(int pid, char *buf, size_t len, struct ralab_diag *diag);

#endif
