// SPDX-License-Identifier: MIT
/*
 * shared-fd-readers FILE NTHREADS BS: evict FILE, then NTHREADS threads
 * share one descriptor and pread it in BS chunks, each taking the next
 * chunk from a shared counter, as nfsd threads serving one sequential
 * client do.  A measurement aid for kara-2024/01's race on a real kernel
 * (docs/seeds.md, seed 001): trace block:block_rq_issue meanwhile and
 * count the plain "R" reads of pages readahead did not bring.
 *
 *   gcc -O2 -pthread -o shared-fd-readers tests/tools/shared-fd-readers.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct shared {
	int fd;
	size_t bs;
	off_t size;
	atomic_long next;
};

static void *reader(void *arg)
{
	struct shared *sh = arg;
	char *buf = malloc(sh->bs);
	long i;

	if (!buf)
		return NULL;
	while ((i = atomic_fetch_add(&sh->next, 1)) * (off_t)sh->bs < sh->size)
		if (pread(sh->fd, buf, sh->bs, i * (off_t)sh->bs) < 0)
			break;
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct shared sh = { .next = 0 };
	pthread_t t[64];
	int n, k;

	if (argc != 4 || (n = atoi(argv[2])) < 1 || n > 64 ||
	    !(sh.bs = strtoul(argv[3], NULL, 0))) {
		fprintf(stderr, "usage: shared-fd-readers FILE NTHREADS(1-64) BS\n");
		return 2;
	}
	sh.fd = open(argv[1], O_RDONLY);
	if (sh.fd < 0) {
		perror(argv[1]);
		return 1;
	}
	sh.size = lseek(sh.fd, 0, SEEK_END);
	posix_fadvise(sh.fd, 0, 0, POSIX_FADV_DONTNEED);
	for (k = 0; k < n; k++)
		if (pthread_create(&t[k], NULL, reader, &sh))
			return 1;
	for (k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	return 0;
}
