#!/usr/bin/env python3
# The hole sweep's case generator (tests/cases/hole-s*): a file mapped whole
# (sometimes PROT_EXEC), one to three holes cut in it with "munmap OFF LEN"
# at any page, some mapped again by mappings of their own (ld.so maps a
# library's segments so over its first mapping), then single-page
# touches at and next to the holes' edges, strided runs of touches, DONTNEED
# and pauses.  The VMAs end at each hole: fault-around, the exec window
# and PMD mappings stop there (docs/design.md, "Holes in a mapping").
# From seed 2 on: files to 32 MiB and read_ahead_kb to 2048, MADV_HUGEPAGE
# before the holes (PMDs next to them), holes to 600 pages (across 2 MiB),
# a new mapping starting a page before its hole (ld.so's data segment,
# sharing a page with the mapping before: 'map OFF' names which), and
# preads, madvise DONTNEED and RANDOM within a VMA.
# Usage: sweep-holes.py SEED COUNT OUTDIR -> OUTDIR/hSEED-NN/case.ops
import os
import random
import sys

seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
more = seed >= 2
for i in range(n):
    r = random.Random(seed * 1000 + i)
    fs = r.choice(['xfs', 'ext4'])
    npg = r.choice([512, 1024, 2048] + ([4096, 8192] if more else []))
    ra = r.choice([16, 32, 64, 128, 512] + ([1024, 2048] if more else []))
    lines = ["# hole sweep %d.%d" % (seed, i), "# fs: %s" % fs,
             "# file_size: %dK" % (npg * 4), "# read_ahead_kb: %d" % ra]
    exe = ' exec' if r.random() < 0.3 else ''
    lines.append("mmap 0 %dK%s" % (npg * 4, exe))
    if more and r.random() < 0.4:
        lines.append("madvise 0 %dK hugepage" % (npg * 4))
    holes = []
    for h in range(r.randint(1, 3)):
        a = r.randrange(1, npg - 40)
        l = r.randint(1, 600 if more and r.random() < 0.3 else 60)
        if more:
            l = min(l, npg - 1 - a)
        if any(not (a + l <= x or a >= y) for x, y in holes) or \
           any(a == y or a + l == x for x, y in holes):
            continue
        holes.append((a, a + l))
    holes.sort()
    live = []   # (first page, end page, mapping's start page)
    p = 0
    for x, y in holes:
        if x > p:
            live.append((p, x, 0))
        p = y
    if p < npg:
        live.append((p, npg, 0))
    ops = []
    for x, y in holes:
        ops.append("munmap %dK %dK" % (x * 4, (y - x) * 4))
    newmaps = []
    shared = False
    for x, y in holes:
        if r.random() < 0.5:
            # From seed 2: now and then from the page before the hole, which
            # the first mapping maps too (unless it is another hole's).
            s = x
            if more and r.random() < 0.4 and x - 1 > 0 and \
               not any(b == x for a, b in holes):
                s = x - 1
                shared = True
            ops.append("mmap %dK %dK" % (s * 4, (y - s) * 4) +
                       (' exec' if r.random() < 0.3 else ''))
            newmaps.append((s, y, s))
    segs = live + newmaps
    for k in range(r.randint(4, 10)):
        x, y, m = r.choice(segs)
        c = r.random()
        op = None
        if c < 0.5:
            q = r.choice([x, y - 1, r.randrange(x, y)])
            op = "touch %dK 1 4K" % (q * 4)
        elif c < 0.85:
            a = r.randrange(x, y)
            b = r.randint(a + 1, y)
            st = r.choice([4, 8, 12, 16, 64])
            op = "touch %dK %dK %dK" % (a * 4, (b - a) * 4, st)
        elif not more or c < 0.9:
            ops.append("fadvise 0 %dK dontneed" % (npg * 4) if r.random() < 0.5
                       else "pause 100000")
        else:
            a = r.randrange(x, y)
            b = r.randint(a + 1, y)
            w = r.choice(['pread', 'dontneed', 'random'])
            if w == 'pread':
                ops.append("pread %dK %dK" % (a * 4, (b - a) * 4))
            else:
                op = "madvise %dK %dK %s" % (a * 4, (b - a) * 4, w)
        if op:
            if shared:
                ops.append("map %dK" % (m * 4))
            ops.append(op)
    lines += ops
    d = os.path.join(out, "h%d-%02d" % (seed, i))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, 'case.ops'), 'w').write("\n".join(lines) + "\n")
