#!/usr/bin/env python3
# The tenth sweep's case generator (tests/cases/jobmix-*: seed 11, 30
# cases; docs/design.md, concurrent runs): two to four jobs, each on a
# file of its own.  Usage: sweep-jobs.py SEED COUNT OUTDIR
import random, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import write_case
seed = int(sys.argv[1]); n = int(sys.argv[2]); out = sys.argv[3]
R = random.Random(seed)
M = 1 << 20
def unal(maxv):
    c = R.random()
    if c < 0.3: return R.choice([4096, 16384, 65536, 131072, 1 << 20, 5000, 70000])
    if c < 0.5: return R.randrange(1, maxv)
    return R.randrange(1, maxv // 4096 + 2) * 4096
for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    ra = R.choice([32, 64, 128, 256, 512, 1024])
    msk = R.choice([64, 128, 256, 512])
    nj = R.randrange(2, 5)
    sizes = [R.choice([8 * M, 16 * M, 32 * M, 64 * M, 20 * M + 1234]) for _ in range(nj)]
    lines = []
    for j in range(1, nj):
        lines.append('file f%d %d' % (j, sizes[j]))
    for j in range(nj):
        lines.append('job j%d' % j)
        if j:
            lines.append('use f%d' % j)
        size = sizes[j]
        for k in range(R.randrange(1, 6)):
            c = R.random()
            if c < 0.3:
                lines.append('read %d %s' % (unal(1 << 20), R.choice(['1', '5', '20', 'eof'])))
            elif c < 0.45:
                lines.append('pread %d %d' % (R.randrange(0, size), unal(1 << 20)))
            elif c < 0.55:
                lines.append('seek %d' % R.randrange(0, size))
            elif c < 0.65:
                lines.append('rand-pread %d %d %d' % (R.choice([4096, 16384, 65536]), R.randrange(10, 200), R.randrange(1, 1000)))
            elif c < 0.73:
                lines.append('fadvise 0 0 %s' % R.choice(['sequential', 'random', 'normal']))
            elif c < 0.8:
                lines.append('readahead %d %d' % (R.randrange(0, size), unal(2 << 20)))
            elif c < 0.9:
                st = R.choice([1, -1]) * R.choice([16384, 65536, 200000]); cnt = R.randrange(2, 50); off = R.randrange(0, size)
                if st < 0 and off + st * (cnt - 1) < 0: cnt = off // -st + 1
                lines.append('stride-pread %d %d %d %d' % (off, R.choice([4096, 16384, 65536]), st, max(cnt, 1)))
            else:
                off = R.randrange(0, size // 4096) * 4096
                lines.append('mmap-read %d %d %d' % (off, min(unal(4 << 20), size - off), R.choice([4096, 65536])))
    write_case('%s/mj-%02d-%s-ra%d-msk%d-j%d' % (out, i, fs, ra, msk, nj),
               None, fs, sizes[0], ra, msk, lines)
