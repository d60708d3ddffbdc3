#!/usr/bin/env python3
# Writes beside a file's own holes (tests/cases/holewrite-*; docs/design.md,
# "Known differences").  Usage: sweep-holewrites.py SEED COUNT OUTDIR ->
# OUTDIR/wNN-FS-raR-mskM/case.ops.  Each case has a file with one to four
# holes of its own ('# holes:', 4 KiB to 1 MiB, none touching) on XFS or
# ext4, and reads, preads, readahead(2), advice, DONTNEED and mmap-reads
# among buffered writes: write(2) from the file position, pwrite(2), and
# write touches of a shared writable mapping, mostly beside the holes
# (overwrites in place: the layout stays as recorded), some of them into
# a hole.  `ralab kernel` records a case whose writes all stay beside the
# holes (the model's run tells; afterwards the holes are checked on the
# disk) and refuses one that writes into a hole, where the filesystem
# allocates blocks the model does not place; `ralab sim` notes those.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import args, device, size_of, write_case

seed, n, out, R = args()
K = 1024
M = 1 << 20
P = 4096

for i in range(n):
    fs, size, ra, msk = device(R)
    # Holes on page boundaries, none touching another or the file's end.
    holes = []
    for _ in range(R.randrange(1, 5)):
        ln = R.choice([4 * K, 16 * K, 64 * K, 256 * K, M])
        off = R.randrange(1, size // P) * P
        if off + ln + P >= size:
            continue
        if all(off + ln + P <= o or o + l + P <= off for (o, l) in holes):
            holes.append((off, ln))
    holes.sort()
    if not holes:
        holes = [(size // 2 // P * P, 4 * K)]

    def data_range(maxlen):
        """An offset and a length beside every hole (None if none fits)."""
        for _ in range(20):
            off = R.randrange(0, size)
            ln = min(size_of(R, maxlen), size - off)
            if all(off + ln <= o or o + l <= off for (o, l) in holes):
                return off, ln
        return None

    ops = ['# holes: ' + ','.join('%d+%d' % h for h in holes)]
    mapped = False
    for k in range(R.randrange(6, 16)):
        c = R.random()
        if c < 0.15:
            ops.append('read %d %s' % (size_of(R, M), R.choice(['1', '3', '8', 'eof'])))
        elif c < 0.25:
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(R, M)))
        elif c < 0.45:
            # Mostly beside the holes; one in ten anywhere.
            r = data_range(256 * K) if R.random() < 0.9 else (R.randrange(0, size), size_of(R, 64 * K))
            if r:
                ops.append('pwrite %d %d' % r)
        elif c < 0.55:
            r = data_range(64 * K)
            if r:
                ops.append('seek %d' % r[0])
                ops.append('write %d %d' % (max(1, r[1] // 4), R.randrange(1, 5)))
        elif c < 0.65:
            r = data_range(M)
            if r and r[1] >= P:
                if not mapped:
                    ops.append('mmap 0 %d write' % size)
                    mapped = True
                off = r[0] // P * P
                ln = max(P, (r[0] + r[1]) // P * P - off)
                ops.append('touch %d %d %d write' % (off, ln, R.choice([P, 16 * K, 64 * K])))
        elif c < 0.7:
            ops.append('readahead %d %d' % (R.randrange(0, size), R.choice([64 * K, M])))
        elif c < 0.77:
            ops.append('fadvise %d %d %s' % (R.randrange(0, size), R.choice([0, M]),
                                             R.choice(['willneed', 'dontneed', 'sequential', 'random', 'normal'])))
        elif c < 0.85:
            ops.append('fsync')
        elif c < 0.92:
            ops.append('fadvise 0 0 dontneed')
        else:
            off = R.randrange(0, size // P) * P
            ops.append('mmap-read %d %d' % (off, min(R.choice([64 * K, M]), size - off)))
    if mapped:
        ops.append('munmap 0')
    ops += ['fsync', 'fadvise 0 0 dontneed', 'seek 0', 'read %d eof' % R.choice([4096, 65536, 131072, M])]
    write_case('%s/w%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'hole-write sweep (2026-12-07), seed %d case %d' % (seed, i),
               fs, size, ra, msk, ops)
