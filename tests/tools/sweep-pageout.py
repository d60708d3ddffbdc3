#!/usr/bin/env python3
# The MADV_PAGEOUT sweep's case generator (tests/cases/pageout-*): mappings
# of files read in small and large folios (MADV_HUGEPAGE's order-9 ones,
# read_ahead_kb up to 4096), touched at steps of 4 KiB to 2 MiB, read and
# now and then write; MADV_PAGEOUT over any range (it reclaims each clean
# folio the range maps whole and no other mapping maps, and splits one it
# covers in part, as MADV_COLD does), sometimes with a second descriptor's
# mapping of the same pages; then touches, preads and DONTNEED, whose
# reads show which folios went (from seed 2 on, often at once).  From
# seed 4 on, madvise(MADV_REMOVE) too, in cases that write nothing.  From
# seed 5 on, mlock(2), mlock2(MLOCK_ONFAULT), munlock(2) and MAP_LOCKED
# mappings too, in cases without MADV_REMOVE (the parser refused both;
# from seed 20 on, locking cases remove too: MADV_REMOVE stops at a
# locked VMA).
# From seed 7 on, half the mappings are PROT_EXEC ('exec': the exec
# window).  File sizes not a multiple of 2 MiB too.
# Usage: sweep-pageout.py SEED COUNT OUTDIR -> OUTDIR/pNN-FS-raR-mskM/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
for i in range(n):
    fs, size, ra, msk = sweep_case.map_device(R, [128, 2048, 4096])
    # Seeds from 5 on: a case locks (mlock, MAP_LOCKED) or removes.
    locks = seed >= 5 and R.random() < 0.6
    ops = []
    fdmaps = [[], []]   # each descriptor's mappings
    fd = 0
    opened = False

    def new_map():
        maps = fdmaps[fd]
        if not sweep_case.new_map(R, size, maps, ops, 0.7):
            return
        if locks and R.random() < 0.15:
            ops[-1] += ' locked'
        if seed >= 7 and R.random() < 0.5:
            ops[-1] += ' exec'
        if R.random() < 0.5:
            o, l = maps[-1]
            ops.append('madvise %d %d %s' % (o, l, R.choice(['hugepage', 'hugepage', 'nohugepage', 'sequential', 'random'])))

    def a_range():
        return sweep_case.map_range(R, fdmaps[fd])

    new_map()
    wrote = removed = False
    for k in range(R.randrange(5, 14)):
        c = R.random()
        if not fdmaps[fd]:
            new_map()
            continue
        if c < 0.3:
            a, ln = a_range()
            step = R.choice([P, P, 65536, 1 << 20, 2 << 20])
            w = ' write' if R.random() < 0.1 and not removed else ''
            wrote = wrote or bool(w)
            ops.append('touch %d %d %d%s' % (a, ln, step, w))
        elif locks and c < (0.36 if seed >= 20 else 0.42):
            # Seeds from 5 on: mlock, mlock onfault, munlock.
            a, ln = a_range()
            how = R.choice(['mlock', 'mlock', 'mlock onfault', 'munlock'])
            ops.append('%s %d %d%s' % (how.split()[0], a, ln,
                                        ' onfault' if ' ' in how else ''))
        elif (seed >= 4 and c < (0.42 if locks else 0.36) and not wrote and
              (not locks or seed >= 20)):
            # Seeds from 4 on: madvise(MADV_REMOVE), a punch through the
            # mapping (in a case that writes nothing); from 20 on in
            # locking cases too.
            a, ln = a_range()
            ops.append('madvise %d %d remove' % (a, ln))
            removed = True
        elif c < 0.52:
            a, ln = a_range()
            ops.append('madvise %d %d pageout' % (a, ln))
            # Seeds from 2 on: often the range again at once, whose
            # reads show what went.
            if seed >= 2 and R.random() < 0.5:
                if R.random() < 0.5:
                    ops.append('touch %d %d %d' % (a, ln, R.choice([P, 65536])))
                else:
                    ops.append('pread %d %d' % (a, ln))
        elif c < 0.57:
            a, ln = a_range()
            ops.append('madvise %d %d %s' % (a, ln, R.choice(['cold', 'dontneed', 'willneed'])))
        elif c < 0.65:
            ops.append(sweep_case.dontneed_pages(R, size))
        elif c < 0.77:
            ops.append(sweep_case.pread_pages(R, size))
        elif c < 0.85:
            sweep_case.remap(R, fdmaps[fd], ops, new_map)
        elif c < 0.93:
            # The other descriptor, with mappings of its own.
            if not opened:
                ops.append('open')
                opened = True
                fd = 1
            else:
                fd = 1 - fd
                ops.append('fd %d' % fd)
            if not fdmaps[fd]:
                new_map()
        else:
            new_map()
    for f in (0, 1):
        if fdmaps[f]:
            ops.append('fd %d' % f)
            sweep_case.unmap_all(fdmaps[f], ops)
    ops.append('fd 0')
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([65536, 1 << 20]))
    write_case('%s/p%02d-%s-ra%d-msk%d' % (out, i, fs, ra, msk),
               'MADV_PAGEOUT sweep, seed %d' % seed, fs, size, ra, msk, ops)
