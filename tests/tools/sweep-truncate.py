#!/usr/bin/env python3
# The truncate sweep's case generator (tests/cases/trunc-*; docs/design.md,
# "Files that shrink and grow").  Usage: sweep-truncate.py SEED COUNT
# OUTDIR -> OUTDIR/tNN-FS-raR-mskM/case.ops.  Each case may read the file
# first, truncates it to 0, then writes it anew: appends (write) and
# writes at any offset (pwrite, leaving holes behind them), 1 byte to
# 3 MiB, with reads, preads, seeks, fsync, DONTNEED after fsync,
# readahead(2), a second truncate now and then, and a close and reopen
# (which starts writeback of a file truncated and rewritten), from seed 3
# on fallocate (mode 0 and FALLOC_FL_KEEP_SIZE), from seed 5 on truncates
# to any size, the first one of the file's own data too; XFS
# (delayed allocation with speculative preallocation past EOF) or ext4,
# files of 1 to 64 MiB.  Each case was recorded twice ('ralab check
# --strict CASE.ops', 'ralab kernel --trace CASE.ops | gzip >
# kernel.out.gz').
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case
seed, n, out, R = sweep_case.args()
size_of = lambda maxv: sweep_case.size_of(R, maxv)
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    ops = []
    if R.random() < 0.5:
        ops.append('read %d %d' % (size_of(1 << 20), R.choice([1, 3, 10])))
    if seed >= 5 and R.random() < 0.6:
        # Seeds from 5 on: to any size (the file's own data kept below).
        ops.append('truncate %d' % R.choice([R.randrange(1, size + 1), R.randrange(1, size // 4096 + 1) * 4096]))
        if R.random() < 0.5:
            ops.append('read %d %d' % (size_of(1 << 20), R.choice([1, 3, 10])))
    else:
        ops.append('truncate 0')
    if seed >= 3 and R.random() < 0.5:
        # Space reserved up front, as RocksDB does for a new file.
        ops.append('fallocate 0 %d%s' % (R.randrange(1, size // 4096 + 1) * 4096, R.choice(['', ' keep'])))
    ops.append(R.choice(['seek 0', 'seek 0', 'seek %d' % R.randrange(0, size // 2)]))
    for k in range(R.randrange(5, 14)):
        c = R.random()
        if c < 0.3:
            ops.append('write %d %d' % (size_of(1 << 20), R.choice([1, 2, 5, 20, 50])))
        elif c < 0.45:
            off = R.choice([R.randrange(0, size), R.randrange(0, size // 4096) * 4096])
            ops.append('pwrite %d %d' % (off, min(size_of(3 << 20), size - off)))
        elif c < 0.6:
            ops.append('read %d %s' % (size_of(1 << 20), R.choice(['1', '5', '20', 'eof'])))
        elif c < 0.67:
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(1 << 20)))
        elif c < 0.74:
            ops.append('seek %d' % R.choice([0, R.randrange(0, size // 2)]))
        elif c < 0.84:
            # DONTNEED after fsync: writeback it starts itself would race
            # its second pass (docs/design.md, "Buffered writes").
            ops.append('fsync')
            if R.random() < 0.7:
                ops.append('pause 2000')
                ops.append('fadvise 0 0 dontneed')
        elif c < 0.89:
            ops.append('readahead %d %d' % (R.randrange(0, size), size_of(2 << 20)))
        elif seed >= 3 and c < 0.92:
            # Seeds from 3 on: fallocate, keeping the size or not.
            off = R.randrange(0, size // 4096) * 4096 if R.random() < 0.5 else R.randrange(0, size)
            ops.append('fallocate %d %d%s' % (off, min(size_of(8 << 20), size - off) or 1, R.choice(['', ' keep'])))
        elif c < 0.94:
            # The release after a truncate starts writeback; DONTNEED
            # waits until it is surely done.
            ops.append('close')
            ops.append('pause 300000')
            ops.append('open')
            if R.random() < 0.5:
                ops.append('fadvise 0 0 dontneed')
        elif seed >= 5 and R.random() < 0.7:
            ops.append('truncate %d' % R.choice([R.randrange(1, size + 1), R.randrange(0, size // 4096 + 1) * 4096, size]))
        else:
            ops.append('truncate 0')
    ops.append('fsync')
    ops.append('pause 2000')
    ops.append('fadvise 0 0 dontneed')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 't%02d-%s-ra%d-msk%d' % (i, fs, ra, msk)
    write_case(out + '/' + name, 'truncate sweep, seed %d' % seed, fs, size, ra, msk, ops)
