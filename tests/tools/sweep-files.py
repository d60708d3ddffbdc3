#!/usr/bin/env python3
# Several files read by one program, in turn (tests/cases/files-*;
# docs/design.md, "Sweeps"): two to four files of 1 to 64 MiB, some not
# a whole number of pages, each with its own descriptor and readahead
# state, the ops switching between them as cmp, diff, sort's merge or a
# tar of small files do: reads, preads, strides, random preads, seeks,
# advice, readahead(2), DONTNEED of a range or a whole file, mmap-reads.
# Usage: sweep-files.py SEED COUNT OUTDIR
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import args, write_case, size_of

seed, n, out, R = args()
M = 1 << 20
P = 4096


def op(size):
    """One op on a file of @size bytes (its current descriptor)."""
    c = R.random()
    if c < 0.25:
        return 'read %d %s' % (size_of(R, 1 << 20),
                               R.choice(['1', '2', '5', '20', 'eof']))
    if c < 0.4:
        return 'pread %d %d' % (R.randrange(0, size), size_of(R, 1 << 20))
    if c < 0.47:
        return 'seek %d' % R.choice([0, R.randrange(0, size),
                                     R.randrange(0, size // P) * P])
    if c < 0.55:
        return 'rand-pread %d %d %d' % (R.choice([4096, 16384, 65536]),
                                        R.randrange(5, 100),
                                        R.randrange(1, 1000))
    if c < 0.62:
        return 'fadvise 0 0 %s' % R.choice(['sequential', 'random',
                                            'normal', 'willneed'])
    if c < 0.7:
        if R.random() < 0.4:
            return 'fadvise 0 0 dontneed'
        off = R.randrange(0, size // P) * P
        return 'fadvise %d %d dontneed' % (off, R.choice(
            [P, 65536, 1 << 20, R.randrange(1, 64) * P]))
    if c < 0.77:
        return 'readahead %d %d' % (R.randrange(0, size),
                                    size_of(R, 2 << 20))
    if c < 0.87:
        st = R.choice([1, -1]) * R.choice([8192, 16384, 65536, 200000])
        cnt = R.randrange(2, 40)
        off = R.randrange(0, size)
        if st < 0 and off + st * (cnt - 1) < 0:
            cnt = off // -st + 1
        return 'stride-pread %d %d %d %d' % (off, R.choice([4096, 16384, 65536]),
                                             st, max(cnt, 1))
    off = R.randrange(0, size // P) * P
    return 'mmap-read %d %d %d' % (off, min(size_of(R, 4 << 20), size - off),
                                   R.choice([4096, 4096, 65536]))


for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    ra = R.choice([16, 32, 64, 128, 256, 512, 1024])
    # Up to 512: past 128 segments of 4 KiB, where pages lie in memory
    # decides the requests (phys_merge).
    msk = R.choice([64, 128, 256, 512])
    nf = R.randrange(2, 5)
    sizes = [R.choice([1 * M, 4 * M, 8 * M, 16 * M, 32 * M, 64 * M,
                       3 * M + 1234, 20 * M + 4096, 10_000_000])
             for _ in range(nf)]
    names = ['main'] + ['f%d' % k for k in range(1, nf)]
    lines = ['file %s %d' % (names[k], sizes[k]) for k in range(1, nf)]
    cur = None
    for k in range(R.randrange(6, 25)):
        # Runs of ops on one file, then a switch, as a merge reads.
        f = R.randrange(nf) if cur is None or R.random() < 0.7 else cur
        if f != cur:
            lines.append('use %s' % names[f])
            cur = f
        for _ in range(R.randrange(1, 4)):
            o = op(sizes[f])
            # From seed 4 on a DONTNEED comes after a pause, so that no
            # readahead I/O (of readahead(2), WILLNEED or an async window)
            # is in flight: what it keeps then would be the device's timing.
            if seed >= 4 and o.endswith(' dontneed'):
                lines.append('pause 100000')
            lines.append(o)
    write_case('%s/f-%02d-%s-ra%d-msk%d-n%d' % (out, i, fs, ra, msk, nf),
               'seed %d case %d: %d files read in turn' % (seed, i, nf),
               fs, sizes[0], ra, msk, lines)
