/* SPDX-License-Identifier: MIT */
/*
 * workload.h - a parsed workload: the configuration and a list of ops.
 */
#ifndef RALAB_WORKLOAD_H
#define RALAB_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "ralab.h"

#define RALAB_DEFAULT_SEED 88172645463325252ull
#define RALAB_MAX_POS INT64_MAX /* s_maxbytes-like bound on offsets */

enum op_kind {
	OP_READ,         /* read LEN [COUNT|eof] */
	OP_PREAD,        /* pread OFF LEN */
	OP_SEEK,         /* seek OFF */
	OP_RAND_PREAD,   /* rand-pread LEN COUNT [SEED] */
	OP_STRIDE_PREAD, /* stride-pread OFF LEN STRIDE COUNT */
};

struct op {
	enum op_kind kind;
	unsigned line;
	bool to_eof;     /* read: until read returns 0 */
	uint64_t off, len, count, seed;
	int64_t stride;
};

/* Header keys, with the line that set each (0 = default). */
enum hdr_key { HDR_FS, HDR_FILE_SIZE, HDR_RA_KB, HDR_MSK, HDR_MAX_HW, HDR_NR };

struct ralab_workload {
	char *name;
	struct ralab_config cfg;
	unsigned hdr_line[HDR_NR];
	struct op *ops;
	unsigned nr_ops, cap_ops;
};

#endif
