// SPDX-License-Identifier: MIT
/*
 * dontcache-read.c - read a file with preadv2(2) and RWF_DONTCACHE (6.14:
 * uncached buffered reads), LEN bytes at a time from its start to its
 * end, at the file position (offset -1), then its first half again with
 * plain preadv2() at offsets: a program for tests/tools/record-app.sh.
 *
 *   cc -O2 -o dontcache-read tests/tools/dontcache-read.c
 *   dontcache-read FILE LEN
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

int main(int argc, char **argv)
{
	struct stat st;
	struct iovec iov;
	long len;
	off_t off;
	ssize_t n;
	int fd;

	if (argc != 3 || (len = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: dontcache-read FILE LEN\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	iov.iov_base = malloc((size_t)len);
	iov.iov_len = (size_t)len;
	if (fd < 0 || !iov.iov_base || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	while ((n = preadv2(fd, &iov, 1, -1, RWF_DONTCACHE)) > 0)
		;
	if (n < 0) {
		perror("preadv2(RWF_DONTCACHE)");
		return 1;
	}
	for (off = 0; off < st.st_size / 2; off += len)
		if (preadv2(fd, &iov, 1, off, 0) < 0) {
			perror("preadv2");
			return 1;
		}
	close(fd);
	return 0;
}
