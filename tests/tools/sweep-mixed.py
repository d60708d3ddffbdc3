#!/usr/bin/env python3
# The mixed sweep's case generator (tests/cases/mix-*): every kind of op
# on one file, mixed: reads, preads, strides, readahead(2), WILLNEED and
# other advice; write(2) after a seek, pwrite; a mapping or two, read and
# write touches, madvise; truncates to any size, fallocate; fsync and
# DONTNEED after it; a second and third descriptor.  The
# generator follows the file's size, so that no touch goes past its end;
# from seed 3 on, files in extents of 64 KiB to 1 MiB too.
# Usage: sweep-mixed.py SEED COUNT OUTDIR -> OUTDIR/xNN-FS-raR-mskM/case.ops
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
    cur = size
    maps = []   # (off, len) of the current descriptor's live mappings
    nfd = 1
    fd = 0
    mfd = {}    # descriptor -> its mappings

    def new_map():
        sweep_case.new_map(R, size, maps, ops, 0.4)

    def touch():
        eof = (cur + P - 1) // P * P
        cand = [(o, l) for (o, l) in maps if o < eof]
        if not cand:
            return
        o, l = R.choice(cand)
        end = min(o + l, eof)
        a = R.randrange(o // P, end // P) * P + R.choice([0, R.randrange(0, P)])
        ln = min(end - a, R.choice([1, P, 64 << 10, 1 << 20, R.randrange(1, end - a + 1)]))
        step = R.choice([P, P, 8192, 65536])
        kind = R.choice(['', '', ' write'])
        ops.append('touch %d %d %d%s' % (a, ln, step, kind))

    for k in range(R.randrange(8, 20)):
        c = R.random()
        if c < 0.12:
            ops.append('read %d %s' % (size_of(1 << 20), R.choice(['1', '3', '10', 'eof'])))
        elif c < 0.2:
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(1 << 20)))
        elif c < 0.25:
            ops.append('seek %d' % R.randrange(0, size))
        elif c < 0.3:
            off = R.randrange(0, size)
            st = R.choice([-1, 1]) * R.choice([8192, 65536, 200000])
            cnt = R.randrange(2, 30)
            if st < 0:
                cnt = min(cnt, off // -st + 1)
            ops.append('stride-pread %d %d %d %d' % (off, size_of(64 << 10), st, cnt))
        elif c < 0.36:
            at = R.choice([0, R.randrange(0, size), min(cur, size - 1)])
            ln, cnt = size_of(1 << 20), R.choice([1, 2, 5])
            ops.append('seek %d' % at)
            ops.append('write %d %d' % (ln, cnt))
            cur = max(cur, min(size, at + ln * cnt))
        elif c < 0.43:
            off = R.choice([R.randrange(0, size), R.randrange(0, size // P) * P, min(cur, size - 1)])
            ln = min(size_of(3 << 20), size - off)
            ops.append('pwrite %d %d' % (off, ln))
            cur = max(cur, off + ln)
        elif c < 0.5:
            if len(maps) < 2:
                new_map()
            else:
                ops.append('munmap %d' % maps[0][0])
                maps.pop(0)
        elif c < 0.62:
            touch()
        elif c < 0.65:
            if maps:
                o, l = R.choice(maps)
                ops.append('madvise %d %d %s' % (o, l, R.choice(['random', 'sequential', 'normal', 'willneed'])))
        elif c < 0.72:
            cur = R.choice([0, R.randrange(1, size + 1), R.randrange(0, size // P + 1) * P, size])
            ops.append('truncate %d' % cur)
        elif c < 0.75:
            off = R.randrange(0, size // P) * P if R.random() < 0.5 else R.randrange(0, size)
            ln = min(size_of(8 << 20), size - off) or 1
            keep = R.choice(['', ' keep'])
            ops.append('fallocate %d %d%s' % (off, ln, keep))
            if not keep:
                cur = max(cur, off + ln)
        elif c < 0.82:
            ops.append('fsync')
            ops.append('pause 2000')
            ops.append('fadvise %s dontneed' % R.choice(['0 0', '%d %d' % (R.randrange(0, size), size_of(4 << 20))]))
        elif c < 0.86:
            ops.append('readahead %d %d' % (R.randrange(0, size), size_of(2 << 20)))
        elif c < 0.9:
            ops.append('fadvise %d %d %s' % (R.randrange(0, size), R.choice([0, size_of(1 << 20)]), R.choice(['willneed', 'sequential', 'random', 'normal', 'noreuse'])))
        elif c < 0.95:
            # Another descriptor: its own mappings.
            mfd[fd] = maps
            if nfd < 3 and R.random() < 0.5:
                ops.append('open')
                fd = nfd
                nfd += 1
            else:
                fd = R.randrange(0, nfd)
                ops.append('fd %d' % fd)
            maps = mfd.get(fd, [])
        else:
            if cur >= P and not maps:
                ops.append('mmap-read 0 %d %d' % (min(cur, size) // P * P, R.choice([P, 65536, 1 << 20])))
    for f in list(mfd.keys()) + [fd]:
        ms = maps if f == fd else mfd.get(f, [])
        if ms:
            ops.append('fd %d' % f)
            for (o, l) in ms:
                ops.append('munmap %d' % o)
            ms.clear()
    ops.append('fd 0')
    ops.append('fsync')
    ops.append('pause 2000')
    ops.append('fadvise 0 0 dontneed')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 'x%02d-%s-ra%d-msk%d' % (i, fs, ra, msk)
    if seed >= 3:
        # Seeds from 3 on: the file in extents of 64 KiB to 1 MiB.
        ekb = R.choice([0, 64, 256, 1024])
        if ekb:
            ops.insert(0, '# extent_kb: %d' % ekb)
            name += '-x%d' % ekb
    write_case(out + '/' + name, 'mixed sweep, seed %d' % seed, fs, size, ra, msk, ops)
