#!/usr/bin/env python3
# The eighth sweep's case generator (tests/cases/sweep-w*: seed 8,
# sweep-x*: seed 9; docs/design.md, "DONTNEED racing readahead I/O").
# Usage: sweep-unaligned.py SEED COUNT OUTDIR -> OUTDIR/s8-NN-FS-raR-mskM/case.ops
# Each case was then recorded twice ('ralab check --strict CASE.ops',
# 'ralab kernel --trace CASE.ops | gzip > kernel.out.gz').
import random, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import write_case
seed = int(sys.argv[1]); n = int(sys.argv[2]); out = sys.argv[3]
R = random.Random(seed)
def unal(maxv):
    c = R.random()
    if c < 0.3: return R.choice([1, 100, 511, 4095, 4097, 8191, 12288, 65535, 65537, 131071, 1000, 3000, 5000, 70000, 200000, 300000])
    if c < 0.6: return R.randrange(1, maxv)
    return R.randrange(1, maxv // 4096 + 2) * 4096
for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    size = R.choice([1 << 20, 4 << 20, 16 << 20, 64 << 20, 3 * 1048576 + 12345, 10_000_000, 33_554_431])
    ra = R.choice([4, 8, 16, 32, 60, 64, 96, 128, 200, 256, 512, 1024])
    msk = R.choice([4, 8, 16, 64, 128, 256, 384, 512, 1024, 1280])
    ops = []
    nfd = 1
    for k in range(R.randrange(4, 14)):
        c = R.random()
        if c < 0.22:
            ops.append('read %d %s' % (unal(1 << 20), R.choice(['1', '2', '5', '20', 'eof'] if size <= (16 << 20) else ['1', '3', '10', '50'])))
        elif c < 0.36:
            ops.append('pread %d %d' % (R.randrange(0, size + 8192), unal(1 << 20)))
        elif c < 0.46:
            ops.append('seek %d' % R.randrange(0, size))
        elif c < 0.62:
            off = R.choice([0, R.randrange(0, size), R.randrange(0, size // 4096 + 1) * 4096])
            ln = R.choice([0, unal(4 << 20), unal(256 << 10)])
            ops.append('fadvise %d %d dontneed' % (off, ln))
        elif c < 0.72:
            off = R.randrange(0, size)
            ops.append('fadvise %d %d %s' % (off, R.choice([0, unal(1 << 20)]), R.choice(['normal', 'random', 'sequential', 'willneed', 'noreuse'])))
        elif c < 0.80:
            ops.append('readahead %d %d' % (R.randrange(0, size + 4096), unal(2 << 20)))
        elif c < 0.86:
            if nfd < 3 and R.random() < 0.5:
                ops.append('open'); nfd += 1
            ops.append('fd %d' % R.randrange(0, nfd))
        elif c < 0.92:
            st = R.choice([-1, 1]) * unal(256 << 10); cnt = R.randrange(2, 40)
            off = R.randrange(0, size)
            if st < 0 and off + st * (cnt - 1) < 0: cnt = off // -st + 1
            ops.append('stride-pread %d %d %d %d' % (off, unal(64 << 10), st, max(cnt, 1)))
        else:
            off = R.randrange(0, size // 4096) * 4096
            ops.append('mmap-read %d %d %d' % (off, min(unal(2 << 20), size - off), R.choice([4096, 8192, 65536, 4096 * 33])))
    write_case('%s/s8-%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'Sweep 8 (2026-12-01): unaligned reads, partial DONTNEED and fadvise, seed %d case %d' % (seed, i),
               fs, size, ra, msk, ops)
