#!/usr/bin/env python3
# The VMA split sweep's case generator (tests/cases/vmasplit-s*): a file
# mapped with MADV_HUGEPAGE (order-9 folios, mapped by PMDs), touched,
# then madvise advice that sets VMA flags (normal, random, sequential,
# hugepage, nohugepage), mlock, mlock2(MLOCK_ONFAULT) and munlock of
# ranges that start and end anywhere (on 2 MiB boundaries or not, over
# VMAs whose flags change or not), more touches, DONTNEED of the file or
# of a range of the mapping, and preads.  A split inside a PMD-mapped
# 2 MiB clears the PMD, so fadvise(DONTNEED) drops the folio; one on a
# boundary, or where no flag changes, does not (docs/design.md, "VMA
# splits and PMD mappings").
# Usage: sweep-vmasplit.py SEED COUNT OUTDIR -> OUTDIR/vSEED-NN/case.ops
import os
import random
import sys

seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
ADVICE = ['normal', 'random', 'sequential', 'hugepage', 'nohugepage']
for i in range(n):
    r = random.Random(seed * 1000 + i)
    fs = r.choice(['xfs', 'ext4'])
    npg = r.choice([2048, 4096, 8192])          # 8 to 32 MiB
    ra = r.choice([512, 1024, 2048, 4096])
    lines = ["# vmasplit sweep %d.%d" % (seed, i), "# fs: %s" % fs,
             "# file_size: %dK" % (npg * 4), "# read_ahead_kb: %d" % ra]
    ops = ["mmap 0 %dK" % (npg * 4), "madvise 0 %dK hugepage" % (npg * 4)]

    def a_range():
        # Pages [a, b): on 2 MiB boundaries, on 64 KiB ones, or anywhere.
        c = r.random()
        unit = 512 if c < 0.3 else 16 if c < 0.5 else 1
        a = r.randrange(0, npg // unit) * unit
        b = min(npg, a + r.randint(1, max(1, 1024 // unit)) * unit)
        return a, b

    for k in range(r.randint(2, 5)):
        a = r.randrange(0, npg // 512) * 512
        ops.append("touch %dK 1" % (a * 4))
    ops.append("pause 100000")
    for k in range(r.randint(4, 10)):
        c = r.random()
        a, b = a_range()
        if c < 0.35:
            ops.append("madvise %dK %dK %s" % (a * 4, (b - a) * 4, r.choice(ADVICE)))
        elif c < 0.5:
            ops.append(r.choice(["mlock %dK %dK onfault", "munlock %dK %dK"]) %
                       (a * 4, (b - a) * 4))
        elif c < 0.75:
            st = r.choice([4, 64, 512, 2048])
            ops.append("touch %dK %dK %dK" % (a * 4, (b - a) * 4, st))
        elif c < 0.85:
            ops.append("pause 100000")
            ops.append("fadvise 0 %dK dontneed" % (npg * 4))
        elif c < 0.92:
            ops.append("madvise %dK %dK dontneed" % (a * 4, (b - a) * 4))
        else:
            ops.append("pread %dK %dK" % (a * 4, (b - a) * 4))
    ops.append("pause 100000")
    ops.append("fadvise 0 %dK dontneed" % (npg * 4))
    ops.append("pread 0 %dK" % (npg * 4))
    d = os.path.join(out, "v%d-%02d" % (seed, i))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, 'case.ops'), 'w').write("\n".join(lines + ops) + "\n")
