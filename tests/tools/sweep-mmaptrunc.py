#!/usr/bin/env python3
# The mapped-truncate sweep's case generator (tests/cases/mtrunc-*;
# docs/design.md, "Files that shrink and grow").  Usage:
# sweep-mmaptrunc.py SEED COUNT OUTDIR -> OUTDIR/mNN-FS-raR-mskM/case.ops.
# A file mapped (one or two mappings, of all of it or a part) while it is
# truncated to 0 or to any size, written anew (pwrite, or write faults
# through the mapping), read through the mapping (read and write touches,
# every 4 KiB to 1 MiB, madvise), with reads, preads, readahead(2),
# fsync and DONTNEED.  The generator follows the file's size: no touch
# goes past its end (SIGBUS).  From seed 32 on, PROT_EXEC mappings
# ('exec') and mlock, mlock onfault and munlock of ranges below the end.  Each case was recorded twice ('ralab check
# --strict CASE.ops', 'ralab kernel --trace CASE.ops | gzip >
# kernel.out.gz').
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
size_of = lambda maxv: sweep_case.size_of(R, maxv)
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    ops = []
    cur = size          # the file's size as the ops go
    maps = []           # live mappings: (off, len), in slot order

    def new_map():
        if sweep_case.new_map(R, size, maps, ops, 0.5) and seed >= 32 \
                and R.random() < 0.4:
            ops[-1] += ' exec'

    def lock():
        # mlock (onfault) or munlock of a range of a live mapping below
        # the end (an mlock past it fails with ENOMEM: refused).
        m = below_eof()
        if not m:
            return
        o, end = m
        a = R.randrange(o // P, end // P) * P
        ln = R.randrange(1, (end - a) // P + 1) * P
        how = R.choice(['mlock', 'mlock', 'mlock onfault', 'munlock'])
        ops.append('%s %d %d%s' % (how.split()[0], a, ln,
                                    ' onfault' if ' ' in how else ''))

    def below_eof():
        # A live mapping that starts below the end (pages up to
        # DIV_ROUND_UP(cur, 4096)), and where it or the end stops; None.
        eof = (cur + P - 1) // P * P
        cand = [(o, l) for (o, l) in maps if o < eof]
        if not cand:
            return None
        o, l = R.choice(cand)
        return o, min(o + l, eof)

    def touch():
        # A range of a live mapping below the end.
        m = below_eof()
        if not m:
            return
        o, end = m
        a = R.randrange(o // P, end // P) * P + R.choice([0, 0, R.randrange(0, P)])
        ln = R.randrange(1, end - a + 1) if R.random() < 0.5 else min(end - a, R.choice([1, P, 64 << 10, 1 << 20, 4 << 20]))
        step = R.choice([P, P, 8192, 65536, 1 << 20])
        kind = R.choice(['', '', '', ' write'])
        if kind or step != P:
            ops.append('touch %d %d %d%s' % (a, ln, step, kind))
        else:
            ops.append('touch %d %d' % (a, ln))

    if R.random() < 0.5:
        ops.append('read %d %d' % (size_of(1 << 20), R.choice([1, 3, 10])))
    new_map()
    if R.random() < 0.6:
        touch()
    for k in range(R.randrange(6, 16)):
        c = R.random()
        if c < 0.18:
            cur = R.choice([0, R.randrange(1, size + 1), R.randrange(0, size // P + 1) * P])
            ops.append('truncate %d' % cur)
        elif c < 0.33:
            off = R.choice([R.randrange(0, size), R.randrange(0, size // P) * P,
                            min(cur, size - 1)])
            ln = min(size_of(3 << 20), size - off)
            ops.append('pwrite %d %d' % (off, ln))
            cur = max(cur, off + ln)
        elif c < 0.58:
            touch()
        elif c < 0.63 and seed >= 32 and R.random() < 0.5:
            lock()
        elif c < 0.63:
            if maps:
                o, l = R.choice(maps)
                ops.append('madvise %d %d %s' % (o, l, R.choice(['random', 'sequential', 'normal', 'willneed'])))
        elif c < 0.70:
            if len(maps) < 2:
                new_map()
            else:
                ops.append('munmap %d' % maps[0][0])
                maps.pop(0)
        elif c < 0.77:
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(1 << 20)))
        elif c < 0.82:
            ops.append('seek 0')
            ops.append('read %d %s' % (size_of(1 << 20), R.choice(['1', '5', 'eof'])))
        elif c < 0.88:
            # DONTNEED after fsync: writeback it starts itself would race
            # its second pass (docs/design.md, "Buffered writes").
            ops.append('fsync')
            ops.append('pause 2000')
            ops.append('fadvise 0 0 dontneed')
        elif c < 0.93:
            ops.append('readahead %d %d' % (R.randrange(0, size), size_of(2 << 20)))
        else:
            ops.append('fadvise %d %d willneed' % (R.randrange(0, size), size_of(1 << 20)))
    while maps:
        ops.append('munmap %d' % maps[0][0])
        maps.pop(0)
    ops.append('fsync')
    ops.append('pause 2000')
    ops.append('fadvise 0 0 dontneed')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 'm%02d-%s-ra%d-msk%d' % (i, fs, ra, msk)
    write_case(out + '/' + name, 'mapped-truncate sweep, seed %d' % seed, fs, size, ra, msk, ops)
