// SPDX-License-Identifier: MIT
/*
 * dontcache-io.c - uncached buffered I/O (RWF_DONTCACHE, 6.14) on a file,
 * LEN bytes at a time at the file position (offset -1): a program for
 * tests/tools/record-app.sh.
 *
 *   read:  preadv2(2) with RWF_DONTCACHE from the start to the end, then
 *          the first half again with plain preadv2() at offsets;
 *   write: pwritev2(2) with RWF_DONTCACHE over the first half, 20 ms for
 *          the writeback that starts, then read(2) of the whole file and
 *          pread(2) of the first half again.  On XFS the written half
 *          has left the cache by the first read and is read again; on
 *          ext4, written over blocks that held data, it is still cached
 *          then, marked dropbehind, so that read drops it and the second
 *          reads it again.
 *
 *   cc -O2 -o dontcache-io tests/tools/dontcache-io.c
 *   dontcache-io read|write FILE LEN
 *
 * (tests/traces/app/dontcache-read* were recorded with its read mode as a
 * program of its own, dontcache-read FILE LEN.)
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

static int do_read(int fd, struct iovec *iov, off_t size)
{
	off_t off;
	ssize_t n;

	while ((n = preadv2(fd, iov, 1, -1, RWF_DONTCACHE)) > 0)
		;
	if (n < 0) {
		perror("preadv2(RWF_DONTCACHE)");
		return 1;
	}
	for (off = 0; off < size / 2; off += (off_t)iov->iov_len)
		if (preadv2(fd, iov, 1, off, 0) < 0) {
			perror("preadv2");
			return 1;
		}
	return 0;
}

static int do_write(int fd, struct iovec *iov, off_t size)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	off_t len = (off_t)iov->iov_len, off;
	ssize_t n;

	memset(iov->iov_base, 'w', iov->iov_len);
	for (off = 0; off + len <= size / 2; off += len)
		if (pwritev2(fd, iov, 1, -1, RWF_DONTCACHE) != len) {
			perror("pwritev2(RWF_DONTCACHE)");
			return 1;
		}
	nanosleep(&ts, NULL);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		perror("lseek");
		return 1;
	}
	while ((n = read(fd, iov->iov_base, iov->iov_len)) > 0)
		;
	for (off = 0; n >= 0 && off < size / 2; off += len)
		n = pread(fd, iov->iov_base, iov->iov_len, off);
	if (n < 0) {
		perror("read");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	struct iovec iov;
	int writing, fd, r;
	long len;

	if (argc != 4 || (strcmp(argv[1], "read") && strcmp(argv[1], "write")) ||
	    (len = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: dontcache-io read|write FILE LEN\n");
		return 2;
	}
	writing = argv[1][0] == 'w';
	fd = open(argv[2], writing ? O_RDWR : O_RDONLY);
	iov.iov_base = malloc((size_t)len);
	iov.iov_len = (size_t)len;
	if (fd < 0 || !iov.iov_base || fstat(fd, &st)) {
		perror(argv[2]);
		return 1;
	}
	r = writing ? do_write(fd, &iov, st.st_size) :
		      do_read(fd, &iov, st.st_size);
	close(fd);
	free(iov.iov_base);
	return r;
}
