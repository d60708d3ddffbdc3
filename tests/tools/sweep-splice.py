#!/usr/bin/env python3
# The splice sweep's case generator (tests/cases/splice-s*): splice(2)
# and sendfile(2) mixed with reads: splices at offsets inside pages and
# on page boundaries, of a few bytes to 2 MiB, into pipes with 1 to 256
# free buffers, runs of splices going on where the last stopped (as a
# program splicing a file through a pipe does), sendfile by offset and
# up to EOF; among them read(2), pread(2), readahead(2), advice,
# DONTNEED of ranges, pwrite(2) (splices of dirty folios), a truncate
# to any size (splices past EOF and over the EOF block), touches of a
# mapping, and a second descriptor, O_DIRECT on some.
# Usage: sweep-splice.py SEED COUNT OUTDIR -> OUTDIR/pNN-FS-raR-mskM/case.ops
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_case
from sweep_case import write_case

P = 4096
seed, n, out, R = sweep_case.args()
size_of = lambda maxv: sweep_case.size_of(R, maxv)
for i in range(n):
    fs, size, ra, msk = sweep_case.device(R)
    ops = []
    cur = size     # the file's size as the ops go
    maps = []
    direct = {}    # descriptor -> O_DIRECT
    nfd, fd = 1, 0

    def offset():
        return R.choice([R.randrange(0, size), R.randrange(0, size // P) * P,
                         R.randrange(0, size // P) * P + R.choice([1, 100, 4095])])

    def pages():
        return R.choice([16, 16, 16, 1, 2, 3, 5, 11, 15, 17, 32, 64, 128, 256])

    for k in range(R.randrange(8, 20)):
        c = R.random()
        dio = direct.get(fd, False)
        if c < 0.3:
            # A run of splices, each where the last ended (what it
            # returned is the model's: the next starts at the same
            # offset in the kernel only if the returns agree, so a run
            # uses lengths and pipes that make them whole pages or EOF,
            # or leaves the offsets to the draw).
            at = offset()
            if dio:
                at = at // 4096 * 4096
            ln = R.choice([65536, 65536, 4096, 100000, 1 << 20, 2 << 20, R.randrange(1, 300000)])
            pg = pages()
            if dio:
                ln = (ln + 4095) // 4096 * 4096
            for _ in range(R.randrange(1, 12)):
                ops.append('splice %d %d %d' % (at, ln, pg) if pg != 16 else 'splice %d %d' % (at, ln))
                # The bytes it takes: its pages, each page part a buffer.
                took = min(ln, pg * P - at % P, max(0, cur - at))
                if took <= 0:
                    break
                at += took
        elif c < 0.4:
            at = offset()
            if dio:
                at = at // 4096 * 4096
            ln = R.choice([R.randrange(1, 3 << 20), 1 << 20, 65536, size])
            if dio:
                ln = (ln + 4095) // 4096 * 4096
            ops.append('sendfile %d %d' % (at, ln))
        elif c < 0.5:
            ops.append('read %d %s' % (size_of(1 << 20), R.choice(['1', '3', '10', 'eof'])) if not dio else
                       'pread %d %d' % (R.randrange(0, size // P) * P, R.randrange(1, 64) * P))
        elif c < 0.57:
            if dio:
                continue
            ops.append('pread %d %d' % (R.randrange(0, size), size_of(1 << 20)))
        elif c < 0.62:
            # (an O_DIRECT descriptor's position on a 512-byte boundary)
            ops.append('seek %d' % (R.randrange(0, size // 512) * 512 if dio else R.randrange(0, size)))
        elif c < 0.68:
            if dio:
                continue
            off = R.choice([R.randrange(0, size), min(cur, size - 1)])
            ln = min(size_of(1 << 20), size - off)
            ops.append('pwrite %d %d' % (off, ln))
            cur = max(cur, off + ln)
        elif c < 0.72:
            if dio or maps:
                continue
            cur = R.choice([R.randrange(1, size + 1), R.randrange(1, size // P + 1) * P, size])
            ops.append('truncate %d' % cur)
        elif c < 0.78:
            # A mapping of descriptor 0 only (buffered).
            if fd != 0 or dio:
                continue
            if not maps and cur >= P:
                ln = cur // P * P
                ops.append('mmap 0 %d' % ln)
                maps.append((0, ln))
            elif maps:
                o, l = maps[0]
                a = R.randrange(0, l // P) * P
                ops.append('touch %d %d %d' % (a, min(l - a, R.choice([P, 65536, 1 << 20])), R.choice([P, 8192])))
        elif c < 0.84:
            ops.append('fsync')
            ops.append('pause 2000')
            ops.append(R.choice(['fadvise 0 0 dontneed', sweep_case.dontneed_pages(R, size)]))
        elif c < 0.88:
            ops.append('readahead %d %d' % (R.randrange(0, size), size_of(2 << 20)))
        elif c < 0.92:
            ops.append('fadvise %d %d %s' % (R.randrange(0, size), R.choice([0, size_of(1 << 20)]),
                                             R.choice(['sequential', 'random', 'normal', 'willneed'])))
        else:
            if nfd < 3 and R.random() < 0.6:
                d = R.random() < 0.3 and not maps
                ops.append('open direct' if d else 'open')
                fd = nfd
                direct[fd] = d
                nfd += 1
            else:
                fd = R.randrange(0, nfd)
                ops.append('fd %d' % fd)
    ops.append('fd 0')
    if maps:
        ops.append('munmap 0')
    ops.append('fsync')
    ops.append('pause 2000')
    ops.append('fadvise 0 0 dontneed')
    ops.append('splice 0 %d' % R.choice([65536, 4096, 1 << 20]))
    ops.append('seek 0')
    ops.append('read %d eof' % R.choice([4096, 65536, 131072, 1 << 20]))
    name = 'p%02d-%s-ra%d-msk%d' % (i, fs, ra, msk)
    write_case(out + '/' + name, 'splice sweep, seed %d' % seed, fs, size, ra, msk, ops)
