#!/usr/bin/env python3
# The punched-hole sweep's case generator (tests/cases/punch-*):
# fallocate(FALLOC_FL_PUNCH_HOLE) of whole blocks among reads, preads,
# strides, readahead(2), advice, DONTNEED and read and write-free touches
# of a mapping, on XFS (blocks of 4 to 64 KiB) and ext4, the file in one
# extent or in extents of 64 KiB to 1 MiB, read_ahead_kb up to 4096 so
# that holes cut large folios (split around both ends of the hole, the
# pieces inside dropped) and readahead then reads across the hole
# (zeroes, no I/O).  The case writes nothing: a punch is modelled in a
# file the case does not write.  From seed 3 on, MADV_HUGEPAGE on half of
# the mappings: holes cut order-9 folios that PMDs map.  From seed 4 on,
# half the holes are FALLOC_FL_ZERO_RANGE instead (zero-range: unwritten
# extents, read as the hole is).  From seed 6 on, 40% of the files have
# one to four holes of their own (space-less: the data after such a hole
# follows the data before it on the disk), which the punches meet,
# cover or join.  From seed 10 on, half the cases truncate instead of
# punching, always in a file with holes of its own: ftruncate(2) down
# and back up to the full size (a pread between, some times), and at
# times once more down before the last read (named tNN: the file cut
# short keeps its data and its own holes below, what it frees is a hole
# that keeps its space).  From seed 18 on, half the punches a mapping
# covers are madvise(MADV_REMOVE) of the mapping instead.  From seed 29
# on, the punching cases write too: pwrite(2) of 1 byte to 300 KB and
# fsync among the ops, never into a block punched or zeroed before nor
# into the file's own holes (where the filesystem would allocate blocks;
# docs/design.md), but into blocks punched later (dirty folios a punch
# drops, after writing them back on XFS); the own holes are drawn first.
# From seed 32 on, a third of the punches and zero-ranges start and end
# anywhere in a block (whole blocks freed, the ends zeroed in place).
# From seed 34 on, a third of the files of 4 KiB blocks end inside a
# block, and a fifth of the punches and zero-ranges reach past EOF
# (ext4 stops after EOF's page, its zero-range makes a clean folio past
# EOF, XFS frees the EOF block with the range), mostly from near it.
# Usage: sweep-punch.py SEED COUNT OUTDIR -> OUTDIR/{p,t}NN-FS-raR-mskM[-bB]/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    size = R.choice([size, 8 << 20, 16 << 20, 6 << 20 | 65536])
    ra = R.choice([ra, 1024, 2048, 4096])
    bs = P
    if fs == 'xfs' and R.random() < 0.3:
        bs = R.choice([8192, 16384, 32768, 65536])
    extent = R.choice([0, 0, 64, 256, 1024])
    if extent * 1024 % bs:
        extent = 0
    size -= size % bs
    if seed >= 34 and bs == P and R.random() < 1 / 3:
        size -= R.randrange(1, P)
    nb = size // bs
    ops = []
    maps = []
    trunc = seed >= 10 and R.random() < 0.5
    # Byte ranges a write must not reach: own holes, blocks punched.
    holes, punched = [], []

    def gen_holes():
        hdr = ['# extent_kb: %d' % extent] if extent else []
        if trunc or (seed >= 6 and R.random() < 0.4):
            hs, at = [], 0
            for _ in range(R.randrange(1, 5)):
                a = R.randrange(at, nb) if at < nb else nb
                ln = R.choice([1, 1, 4, 16, 64, 256]) * max(1, P // bs)
                ln = min(ln, nb - a)
                if ln <= 0:
                    break
                hs.append('%d+%d' % (a * bs, ln * bs))
                holes.append((a * bs, ln * bs))
                at = a + ln + 1
            if hs:
                hdr.append('# holes: ' + ','.join(hs))
        return hdr

    writes = seed >= 29 and not trunc
    if writes:
        hdr = gen_holes()

    def a_write():
        for _ in range(10):
            off = R.choice([R.randrange(0, size), R.randrange(0, nb) * bs])
            ln = min(size - off, R.choice([1, P, 10000, 65536, 300000]))
            a, b = off // bs * bs, (off + ln + bs - 1) // bs * bs
            if ln > 0 and all(b <= o or o + l <= a for (o, l) in holes + punched):
                ops.append('pwrite %d %d' % (off, ln))
                return

    def a_trunc():
        t = R.choice([R.randrange(0, nb) * bs, R.randrange(0, size // P) * P,
                      R.randrange(1, size)])
        ops.append('truncate %d' % t)
        if R.random() < 0.3:
            off = R.randrange(0, size // P) * P
            ops.append('pread %d %d' % (off, min(size - off, R.choice([P, 65536, 1 << 20]))))
        ops.append('truncate %d' % size)

    def a_punch():
        b = R.randrange(0, nb)
        c = R.random()
        if c < 0.4:
            ln = R.randrange(1, min(4, nb - b) + 1)
        elif c < 0.8:
            ln = R.randrange(1, min(64, nb - b) + 1)
        else:
            ln = R.randrange(1, nb - b + 1)
        # From seed 4 on, half are FALLOC_FL_ZERO_RANGE (zero-range).
        op = 'zero-range' if seed >= 4 and R.random() < 0.5 else 'punch'
        # From seed 18 on, half the punches a mapping covers are made
        # through it with madvise(MADV_REMOVE).
        if op == 'punch' and seed >= 18:
            cover = [(o, l) for (o, l) in maps if o <= b * bs and (b + ln) * bs <= o + l]
            if cover and R.random() < 0.5:
                op = 'madvise'
        if op == 'madvise':
            ops.append('madvise %d %d remove' % (b * bs, ln * bs))
        elif seed >= 34 and R.random() < 0.2:
            b = max(0, nb - R.choice([1, 2, 8, 64, nb]))
            o = b * bs + R.choice([0, R.randrange(0, bs)])
            e = size + R.choice([1, R.randrange(1, bs), R.randrange(1, 1 << 20)])
            ops.append('%s %d %d' % (op, o, e - o))
            ln = (size + bs - 1) // bs - b
        elif seed >= 32 and R.random() < 1 / 3:
            o = b * bs + R.randrange(0, bs)
            e = min(size, (b + ln) * bs - R.randrange(0, bs) + R.choice([0, bs // 2]))
            if e <= o:
                e = min(size, o + R.randrange(1, bs))
            ops.append('%s %d %d' % (op, o, e - o))
        else:
            ops.append('%s %d %d' % (op, b * bs, ln * bs))
        # (From seed 32 on, a block more: an end may reach into it.)
        punched.append((b * bs, ln * bs + (bs if seed >= 32 else 0)))

    for k in range(R.randrange(4, 14)):
        if writes and R.random() < 0.2:
            if R.random() < 0.2:
                ops.append('fsync')
            else:
                a_write()
            continue
        c = R.random()
        if c < 0.22:
            if trunc:
                a_trunc()
            else:
                a_punch()
        elif c < 0.4:
            if R.random() < 0.5:
                ops.append('seek %d' % (R.randrange(0, size // P) * P))
            else:
                ops.append('seek 0')
            ops.append('read %d %s' % (R.choice([P, 16384, 65536, 131072, 1 << 20, 100000]),
                                       R.choice(['eof', '8', '32', '256'])))
        elif c < 0.5:
            off = R.randrange(0, size // P) * P
            ops.append('pread %d %d' % (off, min(size - off, R.choice([P, 65536, 1 << 20, 100000]))))
        elif c < 0.57:
            off = R.randrange(0, size // P) * P
            ops.append('stride-pread %d %d %d %d' % (off, R.choice([P, 16384]), R.choice([8192, 65536, 262144]),
                                                     R.randrange(2, 40)))
        elif c < 0.64:
            off = R.randrange(0, size // P) * P
            ops.append('readahead %d %d' % (off, R.choice([65536, 1 << 20, 4 << 20])))
        elif c < 0.72:
            off = R.randrange(0, size // P) * P
            ln = R.choice([0, P, 65536, 1 << 20, R.randrange(1, 64) * P])
            ops.append('fadvise %d %d %s' % (off, ln, R.choice(['dontneed', 'dontneed', 'willneed', 'sequential', 'random', 'normal'])))
        elif c < 0.9:
            if not maps:
                sweep_case.new_map(R, size, maps, ops, 0.7)
                # From seed 3 on: order-9 folios mapped by PMDs too.
                if seed >= 3 and maps and R.random() < 0.5:
                    ops.append('madvise %d %d hugepage' % maps[-1])
                continue
            o, l = R.choice(maps)
            a = R.randrange(o // P, (o + l) // P) * P
            ln = min(o + l - a, R.choice([P, 65536, 1 << 20, o + l - a]))
            ops.append('touch %d %d %d' % (a, ln, R.choice([P, 16384, 65536, 1 << 20])))
        else:
            if maps:
                sweep_case.remap(R, maps, ops, lambda: sweep_case.new_map(R, size, maps, ops, 0.5))
            else:
                sweep_case.new_map(R, size, maps, ops, 0.7)
    if trunc:
        if R.random() < 0.5:
            ops.append('truncate %d' % R.choice([R.randrange(0, nb) * bs, R.randrange(1, size)]))
    elif not any(o.startswith(('punch', 'zero-range')) for o in ops):
        a_punch()
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([65536, 131072, 1 << 20]))
    sweep_case.unmap_all(maps, ops)
    name = '%s/%s%02d-%s-ra%d-msk%d' % (out, 't' if trunc else 'p', i, fs, ra, msk)
    if bs > P:
        name += '-b%dK' % (bs // 1024)
    if not writes:
        hdr = gen_holes()
    hdr_ops = hdr + ops
    write_case(name, 'punched-hole sweep, seed %d' % seed, fs, size, ra, msk, hdr_ops,
               bs if bs > P else None)
