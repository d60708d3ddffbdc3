// SPDX-License-Identifier: MIT
/* How tests/traces/two-threads.strace.gz was made (not built by make):
 *   gcc -O2 -pthread -o thr two-threads.c
 *   head -c 33554432 /dev/urandom > data.bin
 *   ralab record -o two-threads.strace -- ./thr data.bin */
/* Two threads checksum one file through one descriptor, in alternate
 * 128 KiB chunks (as a parallel hasher or an NFS server's threads do). */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define CHUNK (128 * 1024)
static int fd;
static off_t size;
static void *run(void *arg)
{
	long me = (long)arg;
	static __thread unsigned char buf[CHUNK];
	uint64_t h = 1469598103934665603ull;
	for (off_t off = me * CHUNK; off < size; off += 2 * CHUNK) {
		ssize_t n = pread(fd, buf, CHUNK, off);
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	}
	printf("thread %ld: %016llx\n", me, (unsigned long long)h);
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t[2];
	fd = open(argv[1], O_RDONLY);
	size = lseek(fd, 0, SEEK_END);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
