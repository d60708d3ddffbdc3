// SPDX-License-Identifier: MIT
/*
 * spawn-read.c - read the first 64 KiB of a file, then posix_spawn() 'cat'
 * with the same open file as its standard input (it reads the rest: one
 * file position, one readahead state), wait for it, and read 64 KiB more
 * at offset 0: a program for tests/tools/record-app.sh.  glibc's
 * posix_spawn() is clone(CLONE_VM|CLONE_VFORK): the child's dup2() and
 * execve() run, and strace -f shows them, before the parent's clone()
 * returns.
 *
 *   cc -O2 -o spawn-read tests/tools/spawn-read.c
 *   spawn-read FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	static char buf[65536];
	char *args[] = { "cat", NULL };
	posix_spawn_file_actions_t fa;
	int fd, null, st;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: spawn-read FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	null = open("/dev/null", O_WRONLY);
	if (fd < 0 || null < 0 || read(fd, buf, sizeof(buf)) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_adddup2(&fa, fd, 0) ||
	    posix_spawn_file_actions_adddup2(&fa, null, 1) ||
	    posix_spawnp(&pid, "cat", &fa, NULL, args, environ) ||
	    waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st)) {
		fprintf(stderr, "spawn-read: cat failed\n");
		return 1;
	}
	if (pread(fd, buf, sizeof(buf), 0) < 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
