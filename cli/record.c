// SPDX-License-Identifier: MIT
/*
 * record.c - 'ralab record': run a command under strace and keep the log
 * that 'ralab sim' reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define TRACE_SET "openat,open,openat2,read,pread64,readv,preadv,preadv2,lseek," \
		  "mmap,munmap," \
		  "madvise,fadvise64,readahead,close,copy_file_range,sendfile," \
		  "splice," \
		  "dup,dup2,dup3,fcntl,clone,clone3,fork,vfork,io_uring_setup"

/* Describe the log's files in it; 0, 1 (failed) or 2 (not a log). */
static int annotate(const char *log)
{
	struct ralab_diag diag = { 0 };
	unsigned n = 0;
	int err = ralab_trace_annotate(log, &n, &diag);

	if (err) {
		fprintf(stderr, "ralab record: %s\n",
			diag.msg[0] ? diag.msg : strerror(-err));
		return err == -ENOMEM || err == -EIO ? 1 : 2;
	}
	fprintf(stderr, "ralab record: described %u file%s in %s\n", n,
		n == 1 ? "" : "s", log);
	return 0;
}

int cli_record(int argc, char **argv)
{
	const char *out = "ralab.strace";
	int i, st, first = -1;
	char **args;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ralab record [-o LOG] -- COMMAND [ARGS...]\n"
			       "       ralab record --annotate LOG\n\n"
			       "Run COMMAND under 'strace -f -tt -T' with the system calls that\n"
			       "read files, and those that make processes and threads (whose\n"
			       "descriptors they share) (%s)\n"
			       "and write the log to LOG (default ralab.strace), for 'ralab sim LOG'.\n\n"
			       "Then add to the log what strace cannot see, a '# ralab file' line per\n"
			       "file read: its size, filesystem, its device's read_ahead_kb,\n"
			       "max_sectors_kb and max_hw_sectors_kb, and where it is not contiguous\n"
			       "on the disk (FIEMAP: breaks=, holes=), which the replay uses as the\n"
			       "case's header and extent breaks ('ralab sim --set' still overrides).\n"
			       "--annotate does only that, for a log made with strace by hand (right\n"
			       "after the run, from the directory it ran in).\n",
			       TRACE_SET);
			return 0;
		} else if (!strcmp(argv[i], "--annotate")) {
			if (i + 2 != argc) {
				fprintf(stderr, "ralab record: --annotate takes one strace log\n");
				return 2;
			}
			return annotate(argv[i + 1]);
		} else if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab record: -o needs a file\n");
				return 2;
			}
			out = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			first = i + 1;
			break;
		} else {
			first = i;
			break;
		}
	}
	if (first < 0 || first >= argc) {
		fprintf(stderr, "usage: ralab record [-o LOG] -- COMMAND [ARGS...]\n");
		return 2;
	}
	if (access("/usr/bin/strace", X_OK) && access("/bin/strace", X_OK)) {
		fprintf(stderr, "ralab record: strace is not installed (package strace)\n");
		return 2;
	}
	args = calloc((size_t)(argc - first) + 10, sizeof(*args));
	if (!args)
		return 1;
	args[0] = (char *)"strace";
	args[1] = (char *)"-f";
	args[2] = (char *)"-tt";
	args[3] = (char *)"-T"; /* durations: the time between calls is the app's */
	args[4] = (char *)"-o";
	args[5] = (char *)out;
	args[6] = (char *)"-e";
	args[7] = (char *)"trace=" TRACE_SET;
	args[8] = (char *)"--";
	for (i = first; i < argc; i++)
		args[9 + i - first] = argv[i];
	pid = fork();
	if (pid < 0) {
		free(args);
		fprintf(stderr, "ralab record: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		execvp("strace", args);
		_exit(127);
	}
	free(args);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "ralab record: the command failed (status %d); the log is in %s\n",
			WIFEXITED(st) ? WEXITSTATUS(st) : 128, out);
		return 1;
	}
	if (annotate(out))
		return 1;
	fprintf(stderr, "ralab record: wrote %s (ralab sim %s)\n", out, out);
	return 0;
}
