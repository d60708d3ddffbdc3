#!/usr/bin/env python3
# Many small files, each read whole, as cp -r, tar, grep -r or a
# compiler read a tree (tests/cases/smallfiles-*; docs/design.md,
# "Sweeps"): 4 to 64 files of 1 byte to 2 MiB, most under a readahead
# window, where the initial window meets EOF; each read to its end
# with a buffer of 4 KiB to 256 KiB, by one pread of its size, or
# through a mapping (mmap-read), some with advice first, some read a
# second time (from the cache, or after DONTNEED).
# Usage: sweep-smallfiles.py SEED COUNT OUTDIR
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import args, write_case

seed, n, out, R = args()
P = 4096


def fsize():
    c = R.random()
    if c < 0.15:
        return R.randrange(1, P)
    if c < 0.3:
        return R.choice([P, 2 * P, 4 * P, 16 * P, 32 * P, 64 * P])
    if c < 0.75:
        return R.randrange(P, 256 << 10)
    return R.randrange(256 << 10, 2 << 20)


def read_whole(name, size, lines):
    c = R.random()
    if c < 0.15:
        lines.append('fadvise 0 0 %s' % R.choice(['sequential', 'random',
                                                  'willneed', 'noreuse']))
    c = R.random()
    if c < 0.6:
        lines.append('read %d eof' % R.choice([4096, 8192, 32768, 65536,
                                                131072, 262144]))
    elif c < 0.8:
        lines.append('pread 0 %d' % size)
    else:
        lines.append('mmap-read 0 %d %d' % ((size + P - 1) // P * P,
                                            R.choice([4096, 4096, 65536])))


for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    ra = R.choice([16, 32, 64, 128, 128, 256, 512])
    msk = R.choice([64, 128, 256, 512])
    nf = R.randrange(4, 65)
    sizes = [fsize() for _ in range(nf)]
    names = ['main'] + ['f%d' % k for k in range(1, nf)]
    lines = ['file %s %d' % (names[k], sizes[k]) for k in range(1, nf)]
    order = list(range(nf))
    if R.random() < 0.5:
        R.shuffle(order)
    for f in order:
        lines.append('use %s' % names[f])
        read_whole(names[f], sizes[f], lines)
    # A second pass over some: from the cache, or after DONTNEED.
    if R.random() < 0.5:
        for f in R.sample(order, R.randrange(1, nf + 1)):
            lines.append('use %s' % names[f])
            if R.random() < 0.5:
                lines.append('fadvise 0 0 dontneed')
            lines.append('seek 0')
            read_whole(names[f], sizes[f], lines)
    write_case('%s/s-%02d-%s-ra%d-msk%d-n%d' % (out, i, fs, ra, msk, nf),
               'seed %d case %d: %d small files read whole' % (seed, i, nf),
               fs, sizes[0], ra, msk, lines)
