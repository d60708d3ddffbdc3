// SPDX-License-Identifier: MIT
/*
 * mmap-read.c - read a file through mmap(), as a program for
 * tests/tools/record-app.sh: the page faults 'ralab record' traces are
 * the reads its log replays.
 *
 *   cc -O2 -o mmap-read tests/tools/mmap-read.c
 *   mmap-read FILE STEP...
 *
 * The file is mapped whole, read-only and shared, and its descriptor
 * closed (the mapping keeps the file open); each STEP then runs in turn:
 *   seq|random|willneed|hugepage|nohugepage|normal   madvise() of the
 *                         whole mapping
 *   touch:OFF:LEN:STEP    read a byte every STEP bytes of [OFF, OFF+LEN)
 *   wtouch:OFF:LEN:STEP   write a byte every STEP bytes (write faults; the
 *                         file is then opened read-write and mapped
 *                         writable, shared or, with private as the first
 *                         step, private)
 *   populate:OFF:LEN      madvise(MADV_POPULATE_READ) of [OFF, OFF+LEN)
 *   wpopulate:OFF:LEN     madvise(MADV_POPULATE_WRITE) (writable, as wtouch)
 *   dontneed:OFF:LEN      madvise(MADV_DONTNEED) of [OFF, OFF+LEN): unmapped
 *   cold:OFF:LEN          madvise(MADV_COLD) of [OFF, OFF+LEN)
 *   evict                 posix_fadvise(POSIX_FADV_DONTNEED) of the whole
 *                         file, through a descriptor opened again
 *   msync                 msync(MS_SYNC) of the whole mapping
 *   anon:LEN              write every page of LEN bytes of anonymous
 *                         memory (faults that are not reads of the file)
 *   rand:N:SEED           read a byte of N pages picked at random
 *   pread:OFF:LEN         pread() through a descriptor opened again
 *   unmap:OFF:LEN         munmap() part of the mapping
 *   fork:STEP             a child process runs STEP (on the inherited
 *                         mapping), the parent waits for it
 *   thread:STEP,STEP...   a thread runs these STEPs in turn (on the
 *                         mapping), the program waits for it
 *   wait                  print "ready" and wait for a byte (or EOF) on
 *                         stdin: 'ralab record -p' attaches meanwhile
 * Sizes are bytes, or with K or M.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *path;
static unsigned char *map;
static size_t size;
static volatile unsigned sum;

static size_t num(const char **p)
{
	char *end;
	size_t v = strtoull(*p, &end, 10);

	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	*p = *end == ':' ? end + 1 : end;
	return v;
}

static void *thread_steps(void *arg);

static int step(const char *s)
{
	static const struct { const char *n; int a; } adv[] = {
		{ "seq", MADV_SEQUENTIAL }, { "random", MADV_RANDOM },
		{ "willneed", MADV_WILLNEED }, { "hugepage", MADV_HUGEPAGE },
		{ "normal", MADV_NORMAL }, { "nohugepage", MADV_NOHUGEPAGE },
	};
	const char *p;
	size_t off, len, st, i;
	unsigned k;

	for (k = 0; k < sizeof(adv) / sizeof(adv[0]); k++)
		if (!strcmp(s, adv[k].n))
			return madvise(map, size, adv[k].a);
	if (!strncmp(s, "touch:", 6) || !strncmp(s, "wtouch:", 7)) {
		bool w = s[0] == 'w';

		p = s + (w ? 7 : 6);
		off = num(&p);
		len = num(&p);
		st = num(&p);
		if (!st || off + len > size)
			return -1;
		/* A store without a load before it: a write fault. */
		for (i = off; i < off + len; i += st)
			if (w)
				((volatile unsigned char *)map)[i] = 0x5a;
			else
				sum += map[i];
		return 0;
	}
	if (!strncmp(s, "populate:", 9) || !strncmp(s, "wpopulate:", 10)) {
		bool w = s[0] == 'w';

		p = s + (w ? 10 : 9);
		off = num(&p);
		len = num(&p);
		if (off + len > size)
			return -1;
		return madvise(map + off, len,
			       w ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
	}
	if (!strncmp(s, "dontneed:", 9) || !strncmp(s, "cold:", 5)) {
		bool cold = s[0] == 'c';

		p = s + (cold ? 5 : 9);
		off = num(&p);
		len = num(&p);
		if (off + len > size)
			return -1;
		return madvise(map + off, len, cold ? MADV_COLD : MADV_DONTNEED);
	}
	if (!strcmp(s, "evict")) {
		int fd = open(path, O_RDONLY), err;

		if (fd < 0)
			return -1;
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
		return err ? -1 : 0;
	}
	if (!strcmp(s, "msync"))
		return msync(map, size, MS_SYNC);
	if (!strncmp(s, "anon:", 5)) {
		volatile unsigned char *a;

		p = s + 5;
		len = num(&p);
		a = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED)
			return -1;
		madvise((void *)a, len, MADV_NOHUGEPAGE);
		for (i = 0; i < len; i += 4096)
			a[i] = 1;
		return munmap((void *)a, len);
	}
	if (!strcmp(s, "private"))
		return 0; /* taken at the start */
	if (!strncmp(s, "rand:", 5)) {
		uint64_t x;

		p = s + 5;
		len = num(&p);
		x = num(&p) * 2654435761u + 1;
		for (i = 0; i < len; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			sum += map[((x >> 33) % (size / 4096)) * 4096];
		}
		return 0;
	}
	if (!strncmp(s, "pread:", 6)) {
		char *buf;
		int fd = open(path, O_RDONLY);
		ssize_t n;

		p = s + 6;
		off = num(&p);
		len = num(&p);
		buf = malloc(len + 1);
		if (fd < 0 || !buf)
			return -1;
		n = pread(fd, buf, len, (off_t)off);
		close(fd);
		free(buf);
		return n < 0 ? -1 : 0;
	}
	if (!strncmp(s, "unmap:", 6)) {
		p = s + 6;
		off = num(&p);
		len = num(&p);
		return munmap(map + off, len);
	}
	if (!strcmp(s, "wait")) {
		char c;

		return write(1, "ready\n", 6) == 6 && read(0, &c, 1) >= 0 ? 0 : -1;
	}
	if (!strncmp(s, "thread:", 7)) {
		char *steps = strdup(s + 7);
		pthread_t t;
		void *r = (void *)1;

		if (!steps || pthread_create(&t, NULL, thread_steps, steps)) {
			free(steps);
			return -1;
		}
		pthread_join(t, &r);
		free(steps);
		return r ? -1 : 0;
	}
	if (!strncmp(s, "fork:", 5)) {
		int st2;
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (!pid)
			_exit(step(s + 5) ? 1 : 0);
		if (waitpid(pid, &st2, 0) < 0 || !WIFEXITED(st2) || WEXITSTATUS(st2))
			return -1;
		return 0;
	}
	return -1;
}

/* thread:STEP,STEP...: the steps, in a thread of their own. */
static void *thread_steps(void *arg)
{
	char *save = NULL, *t;

	for (t = strtok_r(arg, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (step(t))
			return (void *)1;
	return NULL;
}

int main(int argc, char **argv)
{
	struct stat stb;
	bool writes = false, priv;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: mmap-read FILE STEP...\n");
		return 2;
	}
	path = argv[1];
	for (i = 2; i < argc; i++)
		writes |= !strncmp(argv[i], "wtouch:", 7) ||
			  !strncmp(argv[i], "wpopulate:", 10) ||
			  !strncmp(argv[i], "fork:wtouch:", 12);
	priv = !strcmp(argv[2], "private");
	fd = open(path, writes && !priv ? O_RDWR : O_RDONLY);
	if (fd < 0 || fstat(fd, &stb)) {
		perror(path);
		return 1;
	}
	size = (size_t)stb.st_size;
	map = mmap(NULL, size, PROT_READ | (writes ? PROT_WRITE : 0),
		   priv ? MAP_PRIVATE : MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	close(fd);
	for (i = 2; i < argc; i++)
		if (step(argv[i])) {
			fprintf(stderr, "mmap-read: step %s failed\n", argv[i]);
			return 1;
		}
	return 0;
}
