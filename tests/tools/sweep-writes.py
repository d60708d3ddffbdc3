#!/usr/bin/env python3
# The writes sweep's case generator (tests/cases/write-*; docs/design.md,
# "Buffered writes").  Usage: sweep-writes.py SEED COUNT OUTDIR
# -> OUTDIR/wNN-FS-raR-mskM/case.ops.  Each case mixes buffered writes
# (write, pwrite: aligned and not, 1 byte to 3 MiB, over folios cached or
# not) with reads, preads, seeks, DONTNEED (which keeps dirty folios and
# starts their writeback), readahead(2) and WILLNEED, on XFS or ext4
# files of 1 to 64 MiB, some in extents of 64 KiB to 1 MiB (XFS ends a
# write's folios at an extent's end), and fsync; from seed 3 on also
# mmap-read and a second or third descriptor.  Each case was recorded twice
# ('ralab check --strict CASE.ops', 'ralab kernel --trace CASE.ops |
# gzip > kernel.out.gz').
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case
seed, n, out, R = sweep_case.args()
size_of = lambda maxv: sweep_case.size_of(R, maxv)
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    ekb = R.choice([0, 0, 0, 64, 256, 1024])
    ops = []
    nfd = 1
    for k in range(R.randrange(4, 12)):
        c = R.random()
        # Seeds from 3 on: also reads through a mapping (mmap-read,
        # touch) and a second descriptor, its own file position and
        # readahead state, writes through either.
        if seed >= 3 and R.random() < 0.25:
            m = R.random()
            if m < 0.4:
                off = R.randrange(0, size // 4096) * 4096
                ops.append('mmap-read %d %d %d' % (off, min(size - off, R.choice([64 << 10, 1 << 20, 4 << 20])), R.choice([4096, 16384, 65536])))
            elif m < 0.6 and nfd < 3:
                ops.append('open')
                nfd += 1
            else:
                ops.append('fd %d' % R.randrange(0, nfd))
            continue
        if c < 0.3:
            off = R.choice([R.randrange(0, size), R.randrange(0, size // 4096) * 4096])
            ops.append('pwrite %d %d' % (off, min(size_of(3 << 20), size - off)))
        elif c < 0.4:
            ops.append('write %d %d' % (size_of(256 << 10), R.choice([1, 2, 5, 20])))
        elif c < 0.6:
            ops.append('read %d %s' % (size_of(1 << 20), R.choice(['1', '5', '20', 'eof'] if size <= (16 << 20) else ['1', '5', '40'])))
        elif c < 0.7:
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(1 << 20)))
        elif c < 0.8:
            ops.append('seek %d' % R.choice([0, R.randrange(0, size)]))
        elif c < 0.85:
            ops.append('fsync')
        elif c < 0.92:
            # DONTNEED after a pause: readahead I/O in flight would race
            # it (docs/design.md, "DONTNEED racing readahead I/O"); on a
            # file in extents, after fsync: writeback there ends extent
            # by extent, racing DONTNEED's second pass ("Buffered
            # writes").
            ops.append('pause 2000')
            if ekb:
                ops.append('fsync')
            ops.append('fadvise %d %d dontneed' % (R.choice([0, R.randrange(0, size)]), R.choice([0, size_of(4 << 20)])))
        elif c < 0.96:
            ops.append('readahead %d %d' % (R.randrange(0, size), size_of(2 << 20)))
        else:
            ops.append('fadvise %d %d willneed' % (R.randrange(0, size), size_of(1 << 20)))
    if nfd > 1:
        ops.append('fd 0')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 'w%02d-%s-ra%d-msk%d%s' % (i, fs, ra, msk, '-x%d' % ekb if ekb else '')
    hdr = ['# extent_kb: %d' % ekb] if ekb else []
    write_case(out + '/' + name, 'writes sweep, seed %d' % seed, fs, size, ra, msk, hdr + ops)
