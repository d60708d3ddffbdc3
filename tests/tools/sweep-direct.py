# The O_DIRECT sweep's case generator (tests/cases/direct-*;
# docs/design.md, "O_DIRECT reads and writes").  Usage: sweep-direct.py SEED COUNT
# OUTDIR -> OUTDIR/dNN-FS-raR-mskM/case.ops.  Each case reads one file
# through an O_DIRECT descriptor ('open direct': reads, preads, strides,
# random preads of 512 bytes to 4 MiB at 512-byte multiples, across EOF
# too) and through buffered ones (reads, preads, readahead(2), WILLNEED,
# mmap-read), with buffered writes (whose dirty folios a direct read
# writes back first), fsync and DONTNEED; XFS or ext4, some files in
# extents of 64 KiB to 1 MiB or with holes; from seed 2 on, direct
# pwrites too (512-byte multiples inside a file without holes: they drop
# the folios they cover); from seed 5 on, a quarter of the files are
# preallocated and never written ('# unwritten: yes'), which direct
# pwrites turn into data where they write; from seed 12 on, every file is
# on XFS with blocks of 8 to 64 KiB (large block sizes: holes of 64 KiB);
# from seed 37 on, fcntl(F_SETFL) sets and clears O_DIRECT on the
# current descriptor ('setfl direct', after a seek to a 512-byte
# multiple, and 'setfl buffered'), so that either descriptor reads
# either way with its own position and readahead state.
# Each case was recorded twice
# ('ralab check --strict CASE.ops', 'ralab kernel --trace CASE.ops |
# gzip > kernel.out.gz').
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import args, write_case

seed, n, out, R = args()
K = 1024
M = 1 << 20


def dlen():
    """A direct read's length: a multiple of 512 bytes."""
    c = R.random()
    if c < 0.4:
        return R.choice([512, 1024, 4096, 8192, 65536, 102400, 131072, 524288, M, 1536 * K, 2 * M, 3 * M, 4 * M])
    return R.randrange(1, 4 * M // 512) * 512


for i in range(n):
    bs = R.choice([8 * K, 16 * K, 32 * K, 64 * K]) if seed >= 12 else None
    fs = 'xfs' if bs else R.choice(['xfs', 'xfs', 'ext4'])
    size = R.choice([1 * M, 4 * M, 16 * M, 32 * M, 3 * M + 12345, 10_000_000])
    ra = R.choice([16, 32, 64, 128, 256, 512, 1024])
    msk = R.choice([16, 64, 128, 256, 512, 1024, 1280])
    ops = []
    lay = R.random()
    if lay < 0.2:
        ops.append('# extent_kb: %d' % R.choice([64, 256, 1024]))
    elif lay < 0.35:
        h = sorted(set(R.randrange(1, size // (64 * K)) * 64 * K for _ in range(R.randrange(1, 4))))
        # From seed 28 on, no two holes that touch (the parser refuses
        # them: one hole); up to seed 27 the generator made such pairs.
        if seed >= 28:
            h = [o for j, o in enumerate(h) if j == 0 or o - h[j - 1] > 64 * K]
        ops.append('# holes: ' + ','.join('%d+%d' % (o, 64 * K if bs else R.choice([4 * K, 64 * K])) for o in h))
    elif seed >= 5 and lay < 0.6:
        ops.append('# unwritten: yes')
    dwrites = seed >= 2 and lay >= 0.35
    ops.append('open direct')
    cur = 1
    # Whether each descriptor is O_DIRECT now: only setfl changes it.
    direct = [False, True]
    for k in range(R.randrange(5, 16)):
        if seed >= 37 and R.random() < 0.12:
            if direct[cur]:
                ops.append('setfl buffered')
            else:
                ops.append('seek %d' % (R.randrange(0, size // 512) * 512))
                ops.append('setfl direct')
            direct[cur] = not direct[cur]
            continue
        c = R.random()
        if direct[cur] and c < 0.25:
            ops.append('read %d %s' % (dlen(), R.choice(['1', '2', '5', 'eof'] if size <= 16 * M else ['1', '3', '8'])))
        elif direct[cur] and c < 0.4:
            ops.append('pread %d %d' % (R.randrange(0, (size + 8192) // 512) * 512, dlen()))
        elif direct[cur] and c < 0.45:
            ops.append('seek %d' % (R.randrange(0, size // 512) * 512))
        elif direct[cur] and c < 0.5:
            ln = R.choice([4096, 65536, 512])
            off, st, cnt = R.randrange(0, size // 2 // 4096) * 4096, R.choice([-1, 1]) * ln * R.randrange(1, 5), R.randrange(2, 20)
            if off + st * (cnt - 1) < 0:
                cnt = off // -st + 1
            ops.append('stride-pread %d %d %d %d' % (off, ln, st, cnt))
        elif direct[cur] and c < 0.55:
            ops.append('rand-pread %d %d %d' % (R.choice([4096, 16384, 65536]), R.randrange(5, 50), R.randrange(1, 1 << 30)))
        elif direct[cur] and dwrites and c < 0.62:
            ln = R.choice([512, 4096, 8192, 65536, 102400, M])
            top = size // 512 * 512 - ln
            if top > 0:
                ops.append('pwrite %d %d' % (R.randrange(0, top // 512) * 512, ln))
        elif c < 0.62:
            ops.append('fd %d' % (1 - cur))
            cur = 1 - cur
        elif not direct[cur] and c < 0.75:
            ops.append(R.choice(['read %d %d' % (R.choice([4096, 65536, 100000, M]), R.randrange(1, 10)),
                                'pread %d %d' % (R.randrange(0, size), R.choice([4096, 65536, M]))]))
        elif c < 0.8:
            ops.append('readahead %d %d' % (R.randrange(0, size), R.choice([64 * K, M, 2 * M])))
        elif c < 0.85:
            ops.append('fadvise %d %d %s' % (R.randrange(0, size), R.choice([0, M]), R.choice(['willneed', 'dontneed', 'sequential', 'random'])))
        elif not direct[cur] and c < 0.93:
            ops.append('pwrite %d %d' % (R.randrange(0, size - 1), R.choice([1, 4096, 10000, 65536, 300000])))
        elif c < 0.96:
            ops.append('fsync')
        else:
            off = R.randrange(0, size // 4096) * 4096
            ops.append('mmap-read %d %d' % (off, min(R.choice([64 * K, M]), size - off)))
    write_case('%s/d%02d-%s-ra%d-msk%d%s' % (out, i, fs, ra, msk, '-b%dK' % (bs // K) if bs else ''),
               'O_DIRECT sweep (%s), seed %d case %d' % ('2026-12-07' if seed >= 37 else '2026-12-05' if seed >= 12 else '2026-12-04' if seed >= 5 else '2026-12-02', seed, i),
               fs, size, ra, msk, ops, bs)
