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

#define TRACE_SET "openat,open,read,pread64,readv,preadv,lseek,mmap,munmap," \
		  "madvise,fadvise64,readahead,close,copy_file_range,sendfile," \
		  "clone,clone3,fork,vfork"

int cli_record(int argc, char **argv)
{
	const char *out = "ralab.strace";
	int i, st, first = -1;
	char **args;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ralab record [-o LOG] -- COMMAND [ARGS...]\n\n"
			       "Run COMMAND under 'strace -f -tt -T' with the system calls that\n"
			       "read files, and those that make processes and threads (whose\n"
			       "descriptors they share) (%s)\n"
			       "and write the log to LOG (default ralab.strace), for 'ralab sim LOG'.\n",
			       TRACE_SET);
			return 0;
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
	fprintf(stderr, "ralab record: wrote %s (ralab sim %s)\n", out, out);
	return 0;
}
