// SPDX-License-Identifier: MIT
/*
 * rw-file.c - read and write a file with buffered system calls, as a
 * program for tests/tools/record-app.sh: its strace log (read, pread64,
 * write, pwrite64, fsync, fadvise64, ftruncate, truncate, stat) is what
 * 'ralab record' replays.
 *
 *   cc -O2 -o rw-file tests/tools/rw-file.c
 *   rw-file FILE STEP...
 *
 * The file is opened read-write once; each STEP then runs in turn:
 *   read:LEN:COUNT     COUNT read() calls of LEN bytes at the position
 *   pread:OFF:LEN      one pread()
 *   write:LEN:COUNT    COUNT write() calls of LEN bytes at the position
 *   pwrite:OFF:LEN     one pwrite()
 *   seek:OFF           lseek() to OFF
 *   fsync              fsync()
 *   dontneed:OFF:LEN   posix_fadvise(POSIX_FADV_DONTNEED)
 *   truncate           ftruncate() to 0, then lseek() to 0
 *   ptruncate:SIZE     truncate() of FILE's path to SIZE (the position
 *                      stays)
 *   stat               stat() of FILE's path
 *   falloc:OFF:LEN     fallocate() mode 0 (the file grows to OFF + LEN)
 *   fallockeep:OFF:LEN fallocate() FALLOC_FL_KEEP_SIZE
 *   wait               print "ready" and wait for a byte (or EOF) on stdin:
 *                      'ralab record -p' attaches meanwhile
 * Sizes are bytes, or with K or M.  The buffer is written through before
 * the first step: a write copying from pages not yet faulted in would
 * copy short and retry (docs/design.md, "Buffered writes").
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUF_MAX (8u << 20)

static size_t num(const char **p)
{
	char *end;
	size_t v = strtoull(*p, &end, 10);

	if (end == *p) {
		fprintf(stderr, "rw-file: a number expected at '%s'\n", *p);
		exit(2);
	}
	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	if (*end == ':')
		end++;
	*p = end;
	return v;
}

int main(int argc, char **argv)
{
	char *buf;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: rw-file FILE STEP...\n");
		return 2;
	}
	buf = malloc(BUF_MAX);
	fd = open(argv[1], O_RDWR);
	if (!buf || fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a, BUF_MAX);
	for (i = 2; i < argc; i++) {
		const char *s = argv[i], *p = strchr(s, ':');
		size_t a = 0, b = 0, k;
		ssize_t n = 0;

		p = p ? p + 1 : s + strlen(s);
		if (*p)
			a = num(&p);
		if (*p)
			b = num(&p);
		if ((!strncmp(s, "read:", 5) || !strncmp(s, "write:", 6) ||
		     !strncmp(s, "pread:", 6) || !strncmp(s, "pwrite:", 7)) &&
		    (s[0] == 'p' ? b : a) > BUF_MAX) {
			fprintf(stderr, "rw-file: '%s' is over 8 MiB\n", s);
			return 2;
		}
		if (!strncmp(s, "read:", 5)) {
			for (k = 0; k < b && (n = read(fd, buf, a)) > 0; k++)
				;
		} else if (!strncmp(s, "pread:", 6)) {
			n = pread(fd, buf, b, (off_t)a);
		} else if (!strncmp(s, "write:", 6)) {
			for (k = 0; k < b && (n = write(fd, buf, a)) > 0; k++)
				;
		} else if (!strncmp(s, "pwrite:", 7)) {
			n = pwrite(fd, buf, b, (off_t)a);
		} else if (!strncmp(s, "seek:", 5)) {
			n = lseek(fd, (off_t)a, SEEK_SET);
		} else if (!strcmp(s, "fsync")) {
			n = fsync(fd);
		} else if (!strncmp(s, "fallockeep:", 11)) {
			n = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)a, (off_t)b);
		} else if (!strncmp(s, "falloc:", 7)) {
			n = fallocate(fd, 0, (off_t)a, (off_t)b);
		} else if (!strcmp(s, "truncate")) {
			n = ftruncate(fd, 0);
			if (!n)
				n = lseek(fd, 0, SEEK_SET);
		} else if (!strncmp(s, "ptruncate:", 10)) {
			n = truncate(argv[1], (off_t)a);
		} else if (!strcmp(s, "stat")) {
			struct stat st;

			n = stat(argv[1], &st);
		} else if (!strcmp(s, "wait")) {
			char c;

			n = write(1, "ready\n", 6);
			if (n > 0)
				n = read(0, &c, 1);
		} else if (!strncmp(s, "dontneed:", 9)) {
			n = -posix_fadvise(fd, (off_t)a, (off_t)b,
					   POSIX_FADV_DONTNEED);
		} else {
			fprintf(stderr, "rw-file: unknown step '%s'\n", s);
			return 2;
		}
		if (n < 0) {
			perror(s);
			return 1;
		}
	}
	close(fd);
	free(buf);
	return 0;
}
