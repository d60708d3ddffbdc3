// SPDX-License-Identifier: MIT
/*
 * splice-read.c - read a file with splice(2) through a pipe, 64 KiB at a
 * time (as a proxy or 'cat' built on splice does), then 8 KiB at an offset
 * of 64 KiB given by pointer: a program for tests/tools/record-app.sh.
 *
 *   cc -O2 -o splice-read tests/tools/splice-read.c
 *   splice-read FILE
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int p[2], fd, null;
	off64_t off = 65536;
	ssize_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: splice-read FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	null = open("/dev/null", O_WRONLY);
	if (fd < 0 || null < 0 || pipe(p)) {
		perror(argv[1]);
		return 1;
	}
	while ((n = splice(fd, NULL, p[1], NULL, 65536, 0)) > 0)
		if (splice(p[0], NULL, null, NULL, (size_t)n, 0) < 0)
			return 1;
	if (n < 0 || splice(fd, &off, p[1], NULL, 8192, 0) < 0) {
		perror("splice");
		return 1;
	}
	return 0;
}
