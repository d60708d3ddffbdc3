// SPDX-License-Identifier: MIT
/*
 * fiemap.c - a file's extents, read with FS_IOC_FIEMAP a batch at a
 * time (a fragmented file has more than one call returns).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "kernel/fiemap.h"

#define BATCH 4096

static int extents(int fd, bool sync, struct kx_extent **out, unsigned *n)
{
	size_t sz = sizeof(struct fiemap) + BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);
	struct kx_extent *ext = NULL;
	unsigned cap = 0, next = 0, i;
	int err = 0;
	bool last = false;

	if (!fm)
		return -ENOMEM;
	while (!last) {
		memset(fm, 0, sz);
		fm->fm_start = next ? ext[next - 1].logical + ext[next - 1].length :
				      0;
		fm->fm_length = FIEMAP_MAX_OFFSET - fm->fm_start;
		fm->fm_flags = sync ? FIEMAP_FLAG_SYNC : 0;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			err = -errno;
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		if (next + fm->fm_mapped_extents > cap) {
			struct kx_extent *x;

			cap = (next + fm->fm_mapped_extents) * 2;
			x = realloc(ext, cap * sizeof(*x));
			if (!x) {
				err = -ENOMEM;
				break;
			}
			ext = x;
		}
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *fe = &fm->fm_extents[i];

			ext[next++] = (struct kx_extent){
				fe->fe_logical, fe->fe_physical, fe->fe_length,
				fe->fe_flags
			};
			last |= fe->fe_flags & FIEMAP_EXTENT_LAST;
		}
	}
	free(fm);
	if (err) {
		free(ext);
		return err;
	}
	*out = ext;
	*n = next;
	return 0;
}

int kx_extents(int fd, struct kx_extent **out, unsigned *n)
{
	return extents(fd, true, out, n);
}

int kx_extents_nosync(int fd, struct kx_extent **out, unsigned *n)
{
	return extents(fd, false, out, n);
}
