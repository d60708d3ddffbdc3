#!/usr/bin/env python3
# The writeback race sweep's case generator (tests/cases/wbrace-*;
# docs/design.md, "DONTNEED racing readahead I/O").  Usage:
# sweep-wbrace.py SEED COUNT OUTDIR -> OUTDIR/bNN-FS-raR-mskM/case.ops.
# Each case, on the loop device's time model (`# device: loop`), writes
# a file in place (write(2), pwrite(2): 4 KiB to 4 MiB, aligned or not,
# in one run or scattered), then starts writeback with DONTNEED and
# follows it, with or without a pause (0.1 to 20 ms), by another
# DONTNEED, MADV_PAGEOUT of a mapped range, fsync, a rewrite or a
# truncate down: what the kernel keeps depends on whether that writeback
# has ended.  A last read shows what stayed.  Reads before the writes are
# followed by a pause, so that no readahead I/O is in flight at a
# DONTNEED.  Each case was recorded twice ('ralab kernel --trace
# CASE.ops | gzip > kernel.out.gz', 'ralab check --strict').
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case
seed, n, out, R = sweep_case.args()
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    size = min(size, 16 << 20)
    ops = ['# device: loop']
    if R.random() < 0.5:
        off = R.randrange(0, size // 4096) * 4096
        ops.append('pread %d %d' % (off, min(size - off, R.choice([65536, 1 << 20, 4 << 20]))))
        ops.append('pause 20000')
    for k in range(R.randrange(1, 4)):
        ln = R.choice([4096, 11264, 65536, 262144, 1 << 20, 4 << 20, R.randrange(1, 2 << 20)])
        off = R.choice([R.randrange(0, size), R.randrange(0, size // 4096) * 4096])
        ln = min(ln, size - off)
        if R.random() < 0.6:
            ops.append('pwrite %d %d' % (off, ln))
        else:
            cnt = R.choice([1, 4, 16])
            ops.append('seek %d' % off)
            ops.append('write %d %d' % (max(1, ln // cnt), cnt))
    ops.append('fadvise 0 0 dontneed')
    mapped = False
    for k in range(R.randrange(1, 4)):
        p = R.choice([0, 0, 0, 100, 500, 2000, 20000])
        if p:
            ops.append('pause %d' % p)
        c = R.random()
        if c < 0.5:
            ops.append('fadvise %d %d dontneed' % (R.choice([0, R.randrange(0, size // 4096) * 4096]), R.choice([0, 1 << 20, 4 << 20])))
        elif c < 0.62:
            ops.append('fsync')
        elif c < 0.74:
            off = R.randrange(0, size // 4096) * 4096
            ops.append('pwrite %d %d' % (off, min(size - off, R.choice([4096, 65536]))))
        elif c < 0.86 and not mapped:
            off = R.randrange(0, size // 4096) * 4096
            ln = min(size - off, R.choice([1 << 20, 4 << 20]))
            ops.append('mmap %d %d' % (off, ln))
            ops.append('touch %d %d' % (off, ln))
            ops.append('madvise %d %d pageout' % (off, ln))
            ops.append('munmap')
            mapped = True
        else:
            ops.append('fadvise 0 0 dontneed')
    ops.append('fadvise 0 0 dontneed')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 1 << 20]))
    name = 'b%02d-%s-ra%d-msk%d' % (i, fs, ra, msk)
    write_case(out + '/' + name, 'writeback race sweep, seed %d' % seed, fs, size, ra, msk, ops)
