/* SPDX-License-Identifier: MIT */
/*
 * fiemap.h - a file's extents on the disk, from FS_IOC_FIEMAP: where the
 * filesystem will start a new bio, for the recorder and for 'ralab
 * record'.
 */
#ifndef RALAB_KERNEL_FIEMAP_H
#define RALAB_KERNEL_FIEMAP_H

#include <stdint.h>

struct kx_extent {
	uint64_t logical, physical, length; /* bytes */
	uint32_t flags;                     /* FIEMAP_EXTENT_* */
};

/*
 * kx_extents - every extent of the open file @fd (after writing back its
 * dirty pages: FIEMAP_FLAG_SYNC), in file order.  Return: 0 with
 * *@out (malloc'ed, the caller frees it; NULL when the file has none)
 * and *@n, or -errno (*@out untouched).
 */
int kx_extents(int fd, struct kx_extent **out, unsigned *n);

/*
 * kx_extents_nosync - the same without writing anything back: blocks not
 * allocated yet come as FIEMAP_EXTENT_UNKNOWN extents with no address.
 */
int kx_extents_nosync(int fd, struct kx_extent **out, unsigned *n);

#endif
