#!/usr/bin/env python3
# The large-folio mapping sweep's case generator (tests/cases/coldmap-*):
# mappings of files read in large folios (MADV_HUGEPAGE's order-9 ones,
# read_ahead_kb up to 4096), touched at steps of 4 KiB to 2 MiB, read and
# write; MADV_COLD over any range (it splits a large folio it covers in
# part), MADV_NOHUGEPAGE (no PMD mappings), MADV_DONTNEED, and DONTNEED
# of page ranges, whose eviction shows which pages are still mapped and
# which folios were split.  6.18 maps a large folio whole on a fault
# (docs/design.md).  File sizes not a multiple of 2 MiB too: no PMD over
# i_size, no whole folio holding the last page in fault-around.
# Usage: sweep-coldmap.py SEED COUNT OUTDIR -> OUTDIR/cNN-FS-raR-mskM/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
for i in range(n):
    fs, size, ra, msk = sweep_case.map_device(R, [2048, 4096])
    ops = []
    maps = []

    def new_map():
        if sweep_case.new_map(R, size, maps, ops, 0.7) and R.random() < 0.6:
            o, l = maps[-1]
            ops.append('madvise %d %d %s' % (o, l, R.choice(['hugepage', 'hugepage', 'nohugepage', 'sequential'])))

    def a_range():
        return sweep_case.map_range(R, maps)

    new_map()
    for k in range(R.randrange(4, 12)):
        c = R.random()
        if not maps:
            new_map()
            continue
        if c < 0.3:
            a, ln = a_range()
            step = R.choice([P, 65536, 1 << 20, 2 << 20])
            w = ' write' if R.random() < 0.15 else ''
            ops.append('touch %d %d %d%s' % (a, ln, step, w))
        elif c < 0.5:
            a, ln = a_range()
            ops.append('madvise %d %d cold' % (a, ln))
        elif c < 0.58:
            a, ln = a_range()
            ops.append('madvise %d %d %s' % (a, ln, R.choice(['nohugepage', 'hugepage', 'dontneed'])))
        elif c < 0.75:
            ops.append(sweep_case.dontneed_pages(R, size))
        elif c < 0.85:
            ops.append(sweep_case.pread_pages(R, size))
        elif c < 0.93:
            sweep_case.remap(R, maps, ops, new_map)
        else:
            new_map()
    sweep_case.unmap_all(maps, ops)
    write_case('%s/c%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'large-folio mapping sweep, seed %d' % seed, fs, size, ra, msk, ops)
