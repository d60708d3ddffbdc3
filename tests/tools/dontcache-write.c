// SPDX-License-Identifier: MIT
/*
 * dontcache-write.c - write the first half of a file with pwritev2(2)
 * and RWF_DONTCACHE (6.14: uncached buffered writes, written back at
 * once), LEN bytes at a time at the file position (offset -1), wait
 * 20 ms for that writeback, then read the whole file with read(2), LEN
 * bytes at a time, and its first half once more: a program for
 * tests/tools/record-app.sh.  On XFS the written half has left the cache
 * by the first read and is read again; on ext4 it is still cached then,
 * marked dropbehind, so that read drops it and the second reads it again.
 *
 *   cc -O2 -o dontcache-write tests/tools/dontcache-write.c
 *   dontcache-write FILE LEN
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct stat st;
	struct iovec iov;
	long len;
	off_t off;
	ssize_t n;
	int fd;

	if (argc != 3 || (len = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: dontcache-write FILE LEN\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	iov.iov_base = malloc((size_t)len);
	iov.iov_len = (size_t)len;
	if (fd < 0 || !iov.iov_base || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	memset(iov.iov_base, 'w', (size_t)len);
	for (off = 0; off + len <= st.st_size / 2; off += len)
		if (pwritev2(fd, &iov, 1, -1, RWF_DONTCACHE) != len) {
			perror("pwritev2(RWF_DONTCACHE)");
			return 1;
		}
	nanosleep(&ts, NULL);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		perror("lseek");
		return 1;
	}
	while ((n = read(fd, iov.iov_base, (size_t)len)) > 0)
		;
	for (off = 0; n >= 0 && off < st.st_size / 2; off += len)
		n = pread(fd, iov.iov_base, (size_t)len, off);
	if (n < 0) {
		perror("read");
		return 1;
	}
	close(fd);
	return 0;
}
