#!/usr/bin/env python3
# The mprotect sweep's case generator (tests/cases/mprotect-s*): a file
# mapped (half of them with MADV_HUGEPAGE, some executable), mprotect of
# ranges anywhere to PROT_NONE, read, read-exec, exec-only, write-only or
# read-write (a case that writes maps writable), touches of pages that
# stay readable (writable, for write faults) around the VMAs that makes,
# willneed, DONTNEED of the file and preads; from seed 2, madvise advice
# and mlock2(MLOCK_ONFAULT) / munlock over the same ranges.  What a changed protection
# splits, fault-around and the exec window stop at, and a split inside a
# PMD-mapped 2 MiB clears (docs/design.md, "mprotect(2)").
# Usage: sweep-mprotect.py SEED COUNT OUTDIR -> OUTDIR/pSEED-NN/case.ops
import os
import random
import sys

seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
R, W, X = 1, 2, 4
NAMES = {0: 'none', R: 'r', W: 'w', R | W: 'rw', X: 'x', R | X: 'rx',
         W | X: 'wx', R | W | X: 'rwx'}
for i in range(n):
    r = random.Random(seed * 1000 + i)
    fs = r.choice(['xfs', 'ext4'])
    npg = r.choice([1024, 2048, 4096])          # 4 to 16 MiB
    ra = r.choice([64, 128, 256, 512, 2048])
    huge = r.random() < 0.5
    exec_ = r.random() < 0.25
    writes = r.random() < 0.3
    lines = ["# mprotect sweep %d.%d" % (seed, i), "# fs: %s" % fs,
             "# file_size: %dK" % (npg * 4), "# read_ahead_kb: %d" % ra]
    ops = []
    if writes:
        ops.append("pwrite %dK 4K" % (r.randrange(npg) * 4))
        ops.append("fadvise 0 %dK dontneed" % (npg * 4))
    ops.append("mmap 0 %dK%s" % (npg * 4, " exec" if exec_ else ""))
    if huge:
        ops.append("madvise 0 %dK hugepage" % (npg * 4))
    prot = [R | (W if writes else 0) | (X if exec_ else 0)] * npg
    choices = [0, R, R | X, X, W] + ([R | W, R | W | X] if writes else [])

    def a_range():
        c = r.random()
        unit = 512 if c < 0.2 else 16 if c < 0.45 else 1
        a = r.randrange(0, max(1, npg // unit)) * unit
        b = min(npg, a + r.randint(1, max(1, 512 // unit)) * unit)
        return a, b

    def readable(p):
        return prot[p] & (R | W)

    def touch_near(write=False):
        # A page next to a VMA's edge where there is one, else anywhere.
        for _ in range(20):
            p = r.randrange(npg)
            if r.random() < 0.7:
                edges = [k for k in range(1, npg) if prot[k] != prot[k - 1]]
                if edges:
                    p = min(npg - 1, max(0, r.choice(edges) + r.randint(-3, 2)))
            if readable(p) and (not write or prot[p] & W):
                return p
        return None

    if huge:
        for k in range(r.randint(1, 3)):
            p = r.randrange(0, npg // 512) * 512
            ops.append("touch %dK 1" % (p * 4))
        ops.append("pause 100000")
    for k in range(r.randint(5, 12)):
        c = r.random()
        if c < 0.35:
            a, b = a_range()
            pr = r.choice(choices)
            ops.append("mprotect %dK %dK %s" % (a * 4, (b - a) * 4, NAMES[pr]))
            for q in range(a, b):
                prot[q] = pr
        elif c < 0.7:
            p = touch_near()
            if p is not None:
                ops.append("touch %dK 1" % (p * 4))
        elif c < 0.75 and writes:
            p = touch_near(True)
            if p is not None:
                ops.append("touch %dK 1 4K write" % (p * 4))
        elif c < 0.79 and seed >= 2:
            # From seed 2: advice and locks over the same VMAs.
            a, b = a_range()
            if r.random() < 0.6:
                ops.append("madvise %dK %dK %s" % (a * 4, (b - a) * 4,
                           r.choice(['random', 'sequential', 'normal',
                                     'nohugepage'])))
            else:
                ops.append(r.choice(["mlock %dK %dK onfault",
                                     "munlock %dK %dK"]) % (a * 4, (b - a) * 4))
        elif c < 0.82:
            ops.append("fadvise 0 %dK willneed" % (npg * 4))
            ops.append("pause 100000")
        elif c < 0.9:
            ops.append("pause 100000")
            ops.append("fadvise 0 %dK dontneed" % (npg * 4))
        else:
            a, b = a_range()
            ops.append("pread %dK %dK" % (a * 4, (b - a) * 4))
    ops.append("pause 100000")
    ops.append("fadvise 0 %dK dontneed" % (npg * 4))
    ops.append("pread 0 %dK" % (npg * 4))
    d = os.path.join(out, "p%d-%02d" % (seed, i))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, 'case.ops'), 'w').write("\n".join(lines + ops) + "\n")
