#!/usr/bin/env python3
# The large-block truncate sweep's generator (tests/cases/lbs-s*-lbstrunc-*;
# docs/design.md, "Large block sizes"): XFS with blocks of 8 to 64 KiB,
# a file read, mapped and touched (reads only), truncated down, to the
# size it has, up again (a hole), to 0, at a byte, page or block
# boundary, with reads, preads, readahead(2), WILLNEED and DONTNEED of
# any range, fsync, and a close and reopen (which starts writeback of the
# blocks a truncate zeroed), from seed 4 on fallocate (mode 0 and
# FALLOC_FL_KEEP_SIZE), from seed 5 on buffered writes too (write and
# pwrite of 1 byte to 3 MB at any byte, and writes through a mapping).
# Touches stay below the file's end.
# Usage: sweep-lbstrunc.py SEED COUNT OUTDIR -> OUTDIR/tNN-raR-mskM-bB/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case

P = 4096
seed, n, out, R = sweep_case.args()
for i in range(n):
    _, size, ra, msk = sweep_case.device(R)
    bs = R.choice([8192, 16384, 32768, 65536])
    cur = size
    ops = []
    maps = []
    dirty = False

    def new_size():
        c = R.random()
        if c < 0.35:
            return R.randrange(1, size + 1)
        if c < 0.6:
            return R.randrange(1, size // P + 1) * P
        if c < 0.8:
            return R.randrange(1, size // bs + 1) * bs
        if c < 0.9:
            return cur
        return 0

    def a_range(limit):
        a = R.randrange(0, limit)
        return a, R.randrange(1, limit - a + 1)

    if R.random() < 0.6:
        ops.append('read %d %d' % (sweep_case.size_of(R, 1 << 20), R.choice([1, 3, 10, 40])))
    for k in range(R.randrange(4, 12)):
        c = R.random()
        if seed >= 5 and R.random() < 0.3:
            # Seeds from 5 on: writes at any byte, up to the declared
            # size (as far as the file has blocks), a write(2) at the
            # file position or a touch of a mapping for writing.
            dirty = True
            w = R.random()
            if w < 0.55:
                a = R.choice([R.randrange(0, size), R.randrange(0, size // bs) * bs,
                              R.randrange(0, cur + 1) if cur < size else 0])
                ln = min(size - a, sweep_case.size_of(R, 1 << 20))
                ops.append('pwrite %d %d' % (a, ln))
                cur = max(cur, a + ln)
            elif w < 0.75:
                # From 0 or the end, so the position is known here.
                pos = R.choice([0, cur])
                ln = sweep_case.size_of(R, 256 << 10)
                cnt = R.choice([1, 2, 5])
                if pos + ln * cnt <= size:
                    ops.append('seek %d' % pos)
                    ops.append('write %d %d' % (ln, cnt))
                    cur = max(cur, pos + ln * cnt)
            elif cur >= P:
                top = cur // P * P
                if sweep_case.new_map(R, top, maps, ops, 0.5):
                    o, ln = maps.pop()
                    ops.append('touch %d %d %d write' % (o, ln, R.choice([P, 16384, 65536])))
                    ops.append('munmap %d' % o)
            continue
        if seed >= 4 and c < 0.12:
            # Seeds from 4 on: fallocate, keeping the size or not,
            # over any range (allocated by whole blocks).
            a, ln = a_range(size)
            keep = R.random() < 0.5
            ops.append('fallocate %d %d%s' % (a, ln, ' keep' if keep else ''))
            if not keep and a + ln > cur:
                cur = a + ln
        elif c < 0.25:
            ops.append('truncate %d' % new_size())
            cur = int(ops[-1].split()[1])
        elif c < 0.4:
            ops.append('seek %d' % R.choice([0, R.randrange(0, size)]))
            ops.append('read %d %s' % (sweep_case.size_of(R, 1 << 20), R.choice(['1', '5', '20', 'eof'])))
        elif c < 0.47:
            ops.append('pread %d %d' % (R.randrange(0, size), sweep_case.size_of(R, 1 << 20)))
        elif c < 0.55:
            a, ln = a_range(size)
            ops.append('readahead %d %d' % (a, ln))
        elif c < 0.65:
            a, ln = a_range(size)
            adv = R.choice(['dontneed', 'willneed'])
            if adv == 'dontneed' and dirty:
                # What the writeback DONTNEED starts has finished by
                # the time it reaches a folio is timing: write back
                # first (docs/design.md, "Buffered writes").
                ops.append('fsync')
                dirty = False
            ops.append('fadvise %d %d %s' % (a, ln, adv))
        elif c < 0.8 and cur >= P:
            # A mapping touched below the file's end, unmapped before
            # the next truncate could leave it past EOF.
            top = cur // P * P
            if sweep_case.new_map(R, top, maps, ops, 0.5):
                o, ln = maps.pop()
                if R.random() < 0.3:
                    ops.append('madvise %d %d %s' % (o, ln, R.choice(['hugepage', 'sequential', 'random'])))
                ops.append('touch %d %d %d' % (o, ln, R.choice([P, 65536, 1 << 20])))
                ops.append('munmap %d' % o)
        elif c < 0.9:
            ops.append('fsync')
            dirty = False
            if R.random() < 0.7:
                ops.append('pause 2000')
                ops.append('fadvise 0 0 dontneed')
        else:
            # The release after a truncate starts writeback; DONTNEED
            # waits until it is surely done.
            ops.append('close')
            ops.append('pause 300000')
            ops.append('open')
            if R.random() < 0.5:
                if dirty:
                    ops.append('fsync')
                    dirty = False
                ops.append('fadvise 0 0 dontneed')
    ops.append('fsync')
    ops.append('pause 2000')
    ops.append('fadvise 0 0 dontneed')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 't%02d-ra%d-msk%d-b%dK' % (i, ra, msk, bs // 1024)
    sweep_case.write_case(out + '/' + name, 'large-block truncate sweep, seed %d' % seed, 'xfs', size, ra, msk, ops, bs)
