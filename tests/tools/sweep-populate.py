#!/usr/bin/env python3
# The populate sweep's case generator (tests/cases/populate-s*): a file
# mapped whole or in part, read through madvise(MADV_POPULATE_READ) and
# MADV_POPULATE_WRITE over any page-aligned range of a mapping, mixed
# with plain reads, touches, other advice (random, sequential, hugepage,
# willneed), fsync and DONTNEED, munmap and a new mapping.  The faults of
# a populate run inside madvise()'s plug, so the requests they make merge
# across windows where touches' do not (docs/design.md).  From seed 21 on,
# mappings made with MAP_POPULATE too (mmap() faults their pages in, in no
# plug).
# Usage: sweep-populate.py SEED COUNT OUTDIR -> OUTDIR/pNN-FS-raR-mskM/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    ra = R.choice([ra, ra, 4096, 2048])
    ops = []
    maps = []   # (off, len) of the live mappings

    def new_map():
        made = sweep_case.new_map(R, size, maps, ops, 0.6)
        # Seeds from 21 on: mmap(MAP_POPULATE) now and then.
        if made and seed >= 21 and R.random() < 0.4:
            ops[-1] += ' populate'

    def a_range(pages_only):
        o, l = R.choice(maps)
        a = R.randrange(o // P, (o + l) // P) * P
        if not pages_only and R.random() < 0.3:
            a += R.randrange(0, P)
        c = R.random()
        if c < 0.3:
            ln = o + l - a
        elif c < 0.6:
            ln = min(o + l - a, R.choice([P, 64 << 10, 1 << 20, 4 << 20, 8 << 20]))
        else:
            ln = R.randrange(1, o + l - a + 1)
        return a, ln

    if R.random() < 0.4:
        ops.append('read %d %d' % (sweep_case.size_of(R, 1 << 20), R.choice([1, 3, 10])))
    new_map()
    for k in range(R.randrange(3, 10)):
        c = R.random()
        if not maps:
            new_map()
            continue
        if c < 0.45:
            a, ln = a_range(True)
            kind = 'populate_write' if R.random() < 0.25 else 'populate_read'
            ops.append('madvise %d %d %s' % (a, ln, kind))
        elif c < 0.6:
            a, ln = a_range(False)
            step = R.choice([P, P, 8192, 65536])
            w = ' write' if R.random() < 0.2 else ''
            ops.append('touch %d %d %d%s' % (a, ln, step, w))
        elif c < 0.72:
            a, ln = a_range(True)
            ops.append('madvise %d %d %s' % (a, ln, R.choice(['random', 'sequential', 'normal', 'hugepage', 'willneed'])))
        elif c < 0.8:
            off = R.randrange(0, size // P) * P
            ops.append('pread %d %d' % (off, min(size - off, sweep_case.size_of(R, 2 << 20))))
        elif c < 0.87:
            ops.append('fsync')
            ops.append('fadvise 0 %d dontneed' % size)
        elif c < 0.93:
            sweep_case.remap(R, maps, ops, new_map)
        else:
            new_map()
    sweep_case.unmap_all(maps, ops)
    write_case('%s/p%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'populate sweep, seed %d' % seed, fs, size, ra, msk, ops)
