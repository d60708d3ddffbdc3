#!/usr/bin/env python3
# The ninth sweep's case generator (tests/cases/bigop-*: seed 10, 30 cases;
# docs/design.md, physical page merging).
# Usage: sweep-bigop.py SEED COUNT OUTDIR -> OUTDIR/big-NN-FS-raR-mskM/case.ops
import random, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import write_case
seed = int(sys.argv[1]); n = int(sys.argv[2]); out = sys.argv[3]
R = random.Random(seed)
M = 1 << 20
for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    size = R.choice([128 * M, 256 * M, 512 * M, 300 * M + 12345])
    ra = R.choice([4, 32, 128, 256, 512, 1024, 2048, 4096, 8192])
    msk = R.choice([64, 128, 256, 512, 1024, 1280])
    ops = []
    for k in range(R.randrange(1, 5)):
        c = R.random()
        big = R.choice([2 * M, 3 * M + 4096, 8 * M, 16 * M, 32 * M, 64 * M, 5 * M + 777])
        if c < 0.3:
            ops.append('read %d %s' % (big, R.choice(['1', '2', '4'])))
        elif c < 0.45:
            ops.append('pread %d %d' % (R.randrange(0, size), big))
        elif c < 0.6:
            ops.append('readahead %d %d' % (R.randrange(0, size // 4096) * 4096 * R.choice([0, 1]), big))
        elif c < 0.72:
            ops.append('fadvise %d %d willneed' % (R.randrange(0, size), big))
        elif c < 0.8:
            ops.append('fadvise 0 0 %s' % R.choice(['sequential', 'random', 'normal', 'noreuse']))
        elif c < 0.88:
            ops.append('seek %d' % R.randrange(0, size))
        else:
            off = R.randrange(0, (size - big) // 4096) * 4096
            ops.append('mmap-read %d %d %d' % (off, big, R.choice([4096, 65536, 2 * M])))
    write_case('%s/big-%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'seed %d case %d' % (seed, i), fs, size, ra, msk, ops)
