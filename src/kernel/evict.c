// SPDX-License-Identifier: MIT
/*
 * evict.c - drop files from the page cache before 'ralab record' runs a
 * program, so that its reads are recorded (and replayed) from the device.
 *
 * A program run on a file it just wrote, or a second time, reads it from
 * the page cache: no readahead, and the recorder marks the file cached=1,
 * which the replay leaves out.  POSIX_FADV_DONTNEED drops a file's clean,
 * unmapped pages; dirty ones are written back first (fdatasync(), since
 * DONTNEED only starts writeback and keeps what is still under it), and
 * mincore() then says what stayed: pages some process maps and keeps
 * (mlock) or dirties again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/tracefs.h"
#include "ralab.h"

#define EVICT_DEPTH 64 /* directories deep */
#define EVICT_TRIES 3

long long kx_cached_pages(int fd, off_t size)
{
	size_t pages = (size_t)(((uint64_t)size + 4095) / 4096), i;
	long long n = 0;
	unsigned char *vec;
	void *map;

	if (!size)
		return 0;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	vec = malloc(pages);
	if (!vec) {
		munmap(map, (size_t)size);
		return -ENOMEM;
	}
	if (mincore(map, (size_t)size, vec))
		n = -errno;
	for (i = 0; n >= 0 && i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)size);
	return n;
}

static int evict_file(const char *path, struct ralab_evict_result *res,
		      struct ralab_diag *diag)
{
	long long left = 0;
	struct stat st;
	int fd, tries;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return kx_err(diag, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return kx_err(diag, -EINVAL, "%s: not a regular file or a directory", path);
	}
	if (fdatasync(fd) && errno != EINVAL) {
		int err = -errno;

		close(fd);
		return kx_err(diag, err, "%s: writing back: %s", path, strerror(-err));
	}
	for (tries = 0; tries < EVICT_TRIES; tries++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		left = kx_cached_pages(fd, st.st_size);
		if (left <= 0)
			break;
		usleep(20000);
	}
	close(fd);
	if (left < 0)
		return kx_err(diag, (int)left, "%s: cannot check the page cache: %s",
			      path, strerror((int)-left));
	res->files++;
	if (left) {
		if (!res->files_left)
			snprintf(res->first_left, sizeof(res->first_left), "%s", path);
		res->files_left++;
		res->pages_left += (uint64_t)left;
	}
	return 0;
}

static int evict_path(const char *path, unsigned depth,
		      struct ralab_evict_result *res, struct ralab_diag *diag)
{
	struct dirent *de;
	struct stat st;
	int err = 0;
	DIR *d;

	/* A symlink named by the caller is followed, none under it. */
	if (depth ? lstat(path, &st) : stat(path, &st))
		return kx_err(diag, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return depth && !S_ISREG(st.st_mode) ? 0 : evict_file(path, res, diag);
	if (depth == EVICT_DEPTH)
		return kx_err(diag, -ELOOP, "%s: more than %d directories deep", path,
			      EVICT_DEPTH);
	d = opendir(path);
	if (!d)
		return kx_err(diag, -errno, "%s: %s", path, strerror(errno));
	while (!err && (de = readdir(d))) {
		size_t len = strlen(path) + strlen(de->d_name) + 2;
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = malloc(len);
		if (!sub) {
			err = -ENOMEM;
			break;
		}
		snprintf(sub, len, "%s%s%s", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
		err = evict_path(sub, depth + 1, res, diag);
		free(sub);
	}
	closedir(d);
	return err;
}

int ralab_evict(const char *path, struct ralab_evict_result *res,
		struct ralab_diag *diag)
{
	if (!path || !*path)
		return kx_err(diag, -EINVAL, "no file to evict");
	return evict_path(path, 0, res, diag);
}
