#!/usr/bin/env python3
# Interleaved sequential streams in one file, as a k-way merge of sorted
# runs reads them (tests/cases/merge-*; docs/design.md, "Sweeps"): two to
# eight runs, each read front to back in chunks, the next chunk taken
# from the runs in turn or at random (as the merge's keys decide), until
# every run is read or the case's step count ends.  Either one
# descriptor for all runs (preads: one file_ra_state that the streams
# share, where the sync path's context readahead has to find each
# stream in the page cache) or a descriptor per run (reads after a seek:
# a state each), with advice now and then and
# DONTNEED of the file after a pause.  Runs abut (one stream's
# readahead reaching into the next run, whose reader then finds the
# pages and their marks) or lie apart, and chunks are whole pages or
# records of any size.  Usage: sweep-merge.py SEED COUNT OUTDIR
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_case import args, write_case

seed, n, out, R = args()
M = 1 << 20
P = 4096

for i in range(n):
    fs = R.choice(['xfs', 'xfs', 'ext4'])
    size = R.choice([8 * M, 16 * M, 32 * M, 64 * M, 10_000_000,
                     128 * M])
    ra = R.choice([16, 32, 64, 128, 128, 256, 512, 1024])
    # Up to 512: past 128 segments of 4 KiB, where pages lie in memory
    # decides the requests (phys_merge).
    msk = R.choice([64, 128, 256, 512])
    k = R.randrange(2, 9)
    # From seed 3 on a third of the cases copy out of one mapping of the
    # file instead (memcpy: page faults, mmap read-around and its
    # mmap_miss, one ra state for all runs).
    modes = ['pread', 'fds'] + (['mmap'] if seed >= 3 else [])
    mode = R.choice(modes)
    # Run bounds: cut points in the file, abutting or with gaps.
    if R.random() < 0.5:
        cuts = sorted(R.sample(range(1, size // P), k - 1))
        bounds = [0] + [c * P for c in cuts] + [size]
        runs = [[bounds[j], bounds[j + 1]] for j in range(k)]
        shape = 'abut'
    else:
        runs = []
        for _ in range(k):
            a = R.randrange(0, size // P) * P
            b = min(size, a + R.choice([64 << 10, 256 << 10, M, 4 * M,
                                        R.randrange(1, 2048) * P]))
            runs.append([a, b])
        runs.sort()
        # Overlapping runs are cut where the next begins.
        for j in range(k - 1):
            runs[j][1] = min(runs[j][1], runs[j + 1][0])
        runs = [r for r in runs if r[1] > r[0]]
        k = len(runs)
        shape = 'apart'
    # Chunks: pages, records of one size, or mixed sizes (None).
    c = R.random()
    if c < 0.4:
        csz = R.choice([4096, 8192, 16384, 32768, 65536, 131072])
    elif c < 0.7:
        csz = R.choice([100, 1000, 4000, 10000, 40000, 100000])
    else:
        csz = None
    order = R.choice(['turn', 'random', 'skewed'])
    weights = [R.random() + 0.05 for _ in range(k)]
    steps = R.randrange(100, 1500)
    lines = []
    if mode == 'fds':
        for j in range(1, k):
            lines.append('open')
        for j in range(k):
            lines.append('fd %d' % j)
            lines.append('seek %d' % runs[j][0])
            if R.random() < 0.15:
                lines.append('fadvise 0 0 %s' % R.choice(
                    ['sequential', 'random', 'normal']))
    elif mode == 'mmap':
        lines.append('mmap 0 %d' % size)
        if R.random() < 0.3:
            lines.append('madvise 0 %d %s' % (
                (size + P - 1) // P * P,
                R.choice(['sequential', 'random', 'normal', 'hugepage'])))
    elif R.random() < 0.2:
        lines.append('fadvise 0 0 %s' % R.choice(['sequential', 'random']))
    pos = [r[0] for r in runs]
    cur = k - 1 if mode == 'fds' else None
    t = 0
    for _ in range(steps):
        live = [j for j in range(k) if pos[j] < runs[j][1]]
        if not live:
            break
        if order == 'turn':
            while t % k not in live:
                t += 1
            j = t % k
            t += 1
        elif order == 'random':
            j = R.choice(live)
        else:
            j = R.choices(live, [weights[x] for x in live])[0]
        ln = min(csz or R.choice([512, 4096, 6000, 16384, 65536, 70000]),
                 runs[j][1] - pos[j])
        if mode == 'fds':
            if cur != j:
                lines.append('fd %d' % j)
                cur = j
            lines.append('read %d 1' % ln)
        elif mode == 'mmap':
            lines.append('memcpy %d %d' % (pos[j], ln))
        else:
            lines.append('pread %d %d' % (pos[j], ln))
        pos[j] += ln
        if R.random() < 0.004:
            # After a pause, so that no readahead I/O is in flight: what
            # DONTNEED keeps then would be the device's timing.
            lines.append('pause 100000')
            lines.append('fadvise 0 0 dontneed')
    if mode == 'mmap':
        lines.append('munmap')
    write_case('%s/m-%02d-%s-ra%d-msk%d-k%d-%s-%s' %
               (out, i, fs, ra, msk, k, mode, shape),
               'seed %d case %d: %d runs merged, %s, %s, %s, chunks %s' %
               (seed, i, k, mode, order, shape,
                csz or 'mixed'),
               fs, size, ra, msk, lines)
