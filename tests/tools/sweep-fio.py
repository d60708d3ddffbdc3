#!/usr/bin/env python3
# A randomized sweep of fio job files (buffered reads, and writes among
# them: engines, rw mixes, block sizes, several files, offset, io_size,
# fadvise_hint, loops, distributions), each to be run by fio itself on
# the kernel and compared with what ralab makes of it, as
# tests/suites/fio.sh does for tests/fio/real:
#   tests/tools/record-fio.sh OUTDIR/fNN.fio fNN.events
#   ralab sim --trace OUTDIR/fNN.fio   (its readahead, page-cache and
#   block events; '; compare:' lines say how to compare)
# Seed 1's cases that found bugs are tests/fio/real/sweep1-*.
# Seeds from 5 on make files of several jobs instead (gen2 below): a
# writer and then readers of its file (stonewall), syncs at the end of a
# job or of each loop, a later reader that keeps the cache (invalidate=0,
# pre_read), zones, thinktime.
# Seeds from 8 on make one job each of the option space the earlier
# seeds left out (gen3 below): sequences with holes (rw=read:N),
# repeated offsets (rw=randread:N, rw_sequencer), offsets and sizes that
# are not block multiples, io_size beyond size (fio wraps), number_ios,
# several files named by filename=a:b or nrfiles with service types,
# zoned distributions, percentage_random on sequential jobs.  From
# seed 11 on, odd seeds make gen2's files again, even ones gen3's.
# Seeds from 16 on make gen4's files: many files (up to 64), openfiles,
# filesize ranges, wait_for, a reading job's verify options; from 20 on,
# gen5's: the options of all of them at once, in one to three jobs.
# From 41 on, odd seeds make gen4's files again, with up to 256 files.
# From 74 on, gen5's distributions include zoned_abs.
# Usage: sweep-fio.py SEED COUNT OUTDIR -> OUTDIR/fNN.fio
import os
import random
import sys

seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
R = random.Random(seed)
os.makedirs(out, exist_ok=True)


def bs_line(rand):
    r = R.random()
    if rand and r < 0.15:
        return 'bsrange=4k-%dk' % R.choice([16, 64, 128])
    if r < 0.25:
        return 'bssplit=4k/50:64k/30:%dk/20' % R.choice([16, 128, 256])
    return 'bs=%s' % R.choice(['4k', '8k', '16k', '64k', '128k', '256k', '1m'])


def engine(names, weights, depths):
    """An engine drawn by weight, and the lines that set it (an iodepth
    for libaio and posixaio)."""
    eng = R.choices(names, weights)[0]
    lines = ['ioengine=%s' % eng]
    if eng in ('libaio', 'posixaio'):
        lines.append('iodepth=%d' % R.choice(depths))
    return eng, lines


def posix_files(lines):
    """glibc's POSIX AIO runs the requests of different descriptors on
    helper threads of their own, at once: a posixaio job with iodepth > 1
    over several files makes its events in the order of their timing
    (seed 39 f32, seed 40 f22: the same events as the kernel's, in
    another order)."""
    def val(k):
        v = [l.split('=', 1)[1] for l in lines if l.startswith(k + '=')]
        return v[-1] if v else ''
    return (val('ioengine') == 'posixaio' and val('iodepth') not in ('', '1')
            and (val('nrfiles') not in ('', '1') or ':' in val('filename')))


ENGINE_ONLY = ('iodepth', 'userspace_reap', 'sqthread_poll', 'fixedbufs',
               'registerfiles', 'nonvectored', 'force_async', 'hipri')


def splice_engine(g, jobs):
    """From seed 91 on, two files in five whose jobs only read take fio's
    splice engine instead of theirs (its reads splice(2) into a pipe;
    it has no queue: engine-only lines go)."""
    lines = g + [l for _, ls in jobs for l in ls]
    if seed < 91 or R.random() >= 0.4:
        return g, jobs
    if any(l.startswith('rw=') and 'write' in l or l.startswith(('rw=rw', 'rw=randrw'))
           for l in lines):
        return g, jobs
    if not any(l.startswith('ioengine=') for l in lines):
        return g, jobs
    def conv(ls):
        return ['ioengine=splice' if l.startswith('ioengine=') else l
                for l in ls if not l.startswith(ENGINE_ONLY)]
    return conv(g), [(n, conv(ls)) for n, ls in jobs]


def write_file(i, g, jobs, cmp=None):
    """OUTDIR/fNN.fio: the seed, a '; compare:' line, @g, then @jobs."""
    g, jobs = splice_engine(g, jobs)
    if not cmp and any(posix_files(g + l) for _, l in jobs):
        cmp = 'multiset'
    with open(os.path.join(out, 'f%02d.fio' % i), 'w') as f:
        f.write('; fio sweep, seed %d\n' % seed)
        if cmp:
            f.write('; compare: %s\n' % cmp)
        f.write('\n'.join(g) + '\n')
        for name, lines in jobs:
            f.write('[%s]\n' % name)
            for l in lines:
                if l:
                    f.write(l + '\n')


def gen2(i):
    """A file of several jobs on one data file (seeds from 5 on)."""
    size = R.choice([4, 8, 16, 24, 32])
    g = ['[global]', 'filename=data', 'size=%dm' % size]
    engs, w = ['psync', 'sync', 'pvsync', 'libaio', 'posixaio', 'mmap'], [35, 15, 10, 15, 10, 15]
    if seed >= 7:
        engs, w = engs + ['vsync'], w + [10]
    eng = R.choices(engs, w)[0]
    g.append('ioengine=%s' % eng)
    if eng in ('libaio', 'posixaio'):
        g.append('iodepth=%d' % R.choice([1, 4, 16]))
    jobs = []
    shape = R.choice(['write-read', 'rw-loops', 'read-read', 'zones', 'think'])
    if shape == 'write-read':
        w = ['rw=%s' % R.choice(['write', 'randwrite']), bs_line(True)]
        w.append(R.choice(['end_fsync=1', 'fsync_on_close=1', 'fsync=%d' % R.choice([8, 32]),
                           'fdatasync=%d' % R.choice([8, 32]), '']))
        if R.random() < 0.3:
            w.append('loops=2')
        jobs.append(('w', w))
        r = ['stonewall', 'rw=%s' % R.choice(['read', 'randread', 'read']), bs_line(True)]
        if R.random() < 0.5:
            r.append('invalidate=0')
        jobs.append(('r', r))
    elif shape == 'rw-loops':
        j = ['rw=%s' % R.choice(['readwrite', 'randrw', 'write']), bs_line(True),
             'rwmixread=%d' % R.choice([50, 70]), 'loops=%d' % R.choice([2, 3])]
        j.append(R.choice(['end_fsync=1', 'fsync_on_close=1', 'fsync=16', '']))
        if R.random() < 0.4:
            j.append('invalidate=0')
        jobs.append(('j', j))
    elif shape == 'read-read':
        jobs.append(('a', ['rw=%s' % R.choice(['read', 'randread']), bs_line(True),
                           'io_size=%dm' % R.randrange(1, size + 1)]))
        b = ['stonewall', 'rw=%s' % R.choice(['read', 'randread']), bs_line(True)]
        b.append(R.choice(['invalidate=0', 'pre_read=1\ninvalidate=0', 'invalidate=1']))
        jobs.append(('b', b))
    elif shape == 'zones':
        zs = R.choice([256, 512, 1024])
        jobs.append(('z', ['rw=%s' % R.choice(['read', 'randread']), bs_line(False),
                           'zonemode=strided', 'zonesize=%dk' % zs,
                           'zoneskip=%dk' % R.choice([zs, 2 * zs, 4 * zs])]))
    else:
        jobs.append(('t', ['rw=%s' % R.choice(['read', 'randread']), bs_line(True),
                           'thinktime=%d' % R.choice([100, 1000]),
                           'thinktime_blocks=%d' % R.choice([1, 8, 32])]))
    if R.random() < 0.3:
        g.append('fadvise_hint=%s' % R.choice(['0', 'sequential', 'random']))
    write_file(i, g, jobs)


def gen3(i):
    """One job from the option space earlier seeds left out (seeds 8+)."""
    size = R.choice([4, 8, 12, 16, 32])
    eng, lines = engine(['psync', 'sync', 'pvsync', 'vsync', 'libaio', 'posixaio', 'mmap'],
                        [30, 15, 10, 10, 15, 5, 15], [1, 4, 16])
    shape = R.choice(['holes', 'repeat', 'unaligned', 'wrap', 'files', 'zoned', 'percrand'])
    bs = R.choice([4, 8, 16, 32, 64, 128, 256])
    if shape == 'holes':
        lines.append('rw=%s:%dk' % (R.choice(['read', 'read', 'readwrite']), R.choice([4, 12, 60, 128, 1024])))
        lines.append('bs=%dk' % bs)
    elif shape == 'repeat':
        if R.random() < 0.5:
            lines.append('rw=randread:%d' % R.choice([2, 4, 8]))
        else:
            lines.append('rw=read:%d' % R.choice([2, 4]))
            lines.append('rw_sequencer=%s' % R.choice(['identical', 'sequential']))
        lines.append('bs=%dk' % bs)
    elif shape == 'unaligned':
        lines.append('rw=%s' % R.choice(['read', 'randread', 'read']))
        lines.append('bs=%dk' % bs)
        lines.append('offset=%dk' % R.choice([4, 100, 508, 1028, 3000]))
        if R.random() < 0.5:
            lines.append('io_size=%dk' % R.randrange(256, size * 1024, 4))
    elif shape == 'wrap':
        lines.append('rw=%s' % R.choice(['read', 'randread']))
        lines.append('bs=%dk' % bs)
        if R.random() < 0.5:
            lines.append('io_size=%dm' % (size + R.choice([1, size // 2, size])))
        else:
            lines.append('number_ios=%d' % R.choice([10, 100, 1000]))
    elif shape == 'files':
        lines.append('rw=%s' % R.choice(['read', 'randread']))
        lines.append('bs=%dk' % bs)
        if R.random() < 0.5:
            lines.append('filename=%s' % ':'.join('d%d' % k for k in range(R.choice([2, 3]))))
        else:
            lines.append('nrfiles=%d' % R.choice([2, 3, 4]))
        lines.append('file_service_type=%s' % R.choice(['roundrobin:4', 'sequential', 'random:2', 'roundrobin']))
    elif shape == 'zoned':
        lines.append('rw=randread')
        lines.append('bs=%dk' % bs)
        lines.append('random_distribution=zoned:%s' % R.choice(['60/10:30/20:10/70', '90/10:10/90', '50/50:50/50']))
    else:
        lines.append('rw=%s' % R.choice(['read', 'randread']))
        lines.append('bs=%dk' % bs)
        lines.append('percentage_random=%d' % R.choice([10, 50, 90]))
    lines.append('size=%dm' % size)
    if R.random() < 0.3:
        lines.append('fadvise_hint=%s' % R.choice(['0', 'sequential', 'random']))
    if R.random() < 0.15:
        lines.append('loops=2')
    with open(os.path.join(out, 'f%02d.fio' % i), 'w') as f:
        f.write('; fio sweep, seed %d\n' % seed)
        f.write('[j]\n')
        for l in lines:
            f.write(l + '\n')


def gen4(i):
    """Many files, openfiles, sizes drawn per file, wait_for (seeds 16+)."""
    eng, g = engine(['psync', 'sync', 'pvsync', 'libaio', 'posixaio', 'mmap'],
                    [35, 15, 10, 15, 10, 15], [1, 4, 16])
    shape = R.choice(['many', 'open', 'fsrange', 'waitfor', 'verify'])
    rw = R.choice(['read', 'randread'])
    bs = R.choice([4, 8, 16, 64, 128, 256])
    svc = R.choice(['roundrobin', 'random', 'sequential', 'roundrobin:%d' % R.choice([2, 8])])
    jobs = []
    if shape == 'many':
        nrf = R.choice([8, 16, 40, 64] if seed < 41 else [16, 64, 100, 160, 256])
        if eng == 'mmap':
            nrf = min(nrf, 64)  # the mappings a job holds at once
        jobs.append(('j', ['rw=%s' % rw, 'bs=%dk' % bs, 'nrfiles=%d' % nrf,
                           'size=%dm' % (nrf * R.choice([256, 512]) // 1024),
                           'file_service_type=%s' % svc]))
    elif shape == 'open':
        nrf = R.choice([4, 8, 12])
        jobs.append(('j', ['rw=%s' % rw, 'bs=%dk' % bs, 'nrfiles=%d' % nrf,
                           'size=%dm' % nrf, 'openfiles=%d' % R.choice([1, 2, 3]),
                           'file_service_type=%s' % svc]))
    elif shape == 'fsrange':
        nrf = R.choice([4, 8, 16, 32])
        lo = R.choice([bs, 64, 128]) if bs <= 64 else bs
        j = ['rw=%s' % rw, 'bs=%dk' % bs, 'nrfiles=%d' % nrf,
             'filesize=%dk-%dk' % (lo, R.choice([512, 1024, 2048])),
             'file_service_type=%s' % svc]
        if R.random() < 0.3:
            j.append('random_generator=tausworthe64')
        if R.random() < 0.3:
            j.append('numjobs=2')
        jobs.append(('j', j))
    elif shape == 'waitfor':
        size = R.choice([4, 8, 16])
        # (filename= in [global] would add data to b's files)
        g += ['size=%dm' % size]
        jobs.append(('a', ['filename=data', 'rw=%s' % rw, 'bs=%dk' % bs]))
        jobs.append(('b', ['rw=%s' % R.choice(['read', 'randread']), 'bs=%dk' % R.choice([4, 64, 1024]),
                           'filename=other', 'size=%dm' % R.choice([2, 4])]))
        jobs.append(('c', ['wait_for=a', 'filename=data', 'rw=%s' % R.choice(['read', 'randread']),
                           'bs=%dk' % R.choice([4, 16, 128]),
                           R.choice(['invalidate=0', 'invalidate=1', ''])]))
    else:
        jobs.append(('j', ['rw=%s' % rw, 'bs=%dk' % bs, 'size=%dm' % R.choice([4, 8, 16]),
                           'verify=%s' % R.choice(['0', 'null']),
                           'verify_pattern=0xff', 'io_submit_mode=inline']))
    if R.random() < 0.25:
        g.append('fadvise_hint=%s' % R.choice(['0', 'sequential', 'random']))
    if R.random() < 0.1 and shape != 'waitfor':
        g.append('loops=2')
    concurrent = any('numjobs' in l for _, j in jobs for l in j) or shape == 'waitfor'
    write_file(i, ['[global]'] + g, jobs, 'multiset' if concurrent else None)


def gen5(i):
    """Options of every earlier generator at once (seeds 20+): one to
    three jobs, each on files of its own (concurrent) or, after a
    stonewall, on the first job's file."""
    g = ['size=%dm' % R.choice([4, 8, 16])]
    jobs = []
    cmp = None
    for name in 'abc'[:R.choice([1, 1, 2, 3])]:
        eng, j = engine(['psync', 'sync', 'pvsync', 'vsync', 'libaio', 'posixaio', 'mmap'],
                        [25, 10, 10, 10, 15, 10, 20], [1, 8, 32])
        rnd = R.random() < 0.5
        rw = ('randread' if rnd else 'read')
        if R.random() < 0.15:
            rw += ':%d' % R.choice([2, 4]) if rnd else ':%dk' % R.choice([4, 64])
        j.append('rw=%s' % rw)
        j.append(bs_line(rnd))
        if R.random() < 0.4:
            nrf = R.choice([2, 3, 5, 8])
            j.append('nrfiles=%d' % nrf)
            j.append('file_service_type=%s' % R.choice(['roundrobin', 'sequential', 'random', 'roundrobin:3']))
            if R.random() < 0.3:
                j.append('openfiles=%d' % R.choice([1, 2]))
        if R.random() < 0.2:
            j.append('loops=%d' % R.choice([2, 3]))
        if R.random() < 0.2:
            j.append('invalidate=0')
        if R.random() < 0.15:
            j.append('io_size=%dm' % R.choice([2, 6, 20]))
        if R.random() < 0.1:
            j.append('number_ios=%d' % R.choice([50, 500]))
        if R.random() < 0.15:
            j.append('offset=%dk' % R.choice([64, 1000, 2048]))
        if rnd and R.random() < 0.25:
            # From seed 74 on, zoned_abs too (the same draws before).
            j.append('random_distribution=%s' % R.choice(['zipf:1.2', 'pareto:0.5', 'normal:10', 'zoned:50/10:50/90'] +
                                                         (['zoned_abs:60/512k:40/1m', 'zoned_abs:30/1m:70/3m'] if seed >= 74 else [])))
        if rnd and R.random() < 0.15:
            j.append('norandommap')
        if rnd and R.random() < 0.15:
            j.append('random_generator=%s' % R.choice(['tausworthe64', 'lfsr']))
        if R.random() < 0.1:
            j.append('percentage_random=%d' % R.choice([20, 80]))
        if R.random() < 0.2:
            j.append('fadvise_hint=%s' % R.choice(['0', 'sequential', 'random']))
        if R.random() < 0.15:
            j.append('thinktime=%d' % R.choice([50, 500]))
        if R.random() < 0.08:
            j.append('pre_read=1')
        if R.random() < 0.1:
            j.append('numjobs=2')
            if R.random() < 0.5:
                j.append('offset_increment=%dm' % R.choice([1, 2]))
            cmp = 'multiset'
        if jobs and R.random() < 0.5:
            # after the first job, on its file
            j = ['stonewall', 'filename=%s' % jobs[0][2]] + [l for l in j if not l.startswith(('nrfiles', 'file_service', 'openfiles', 'numjobs', 'offset_increment'))]
        elif jobs:
            cmp = 'multiset'
        jobs.append((name, j, '%s.0.0' % name))
    write_file(i, ['[global]'] + g, [(n, l) for n, l, _ in jobs], cmp)


for i in range(n):
    if seed >= 41 and seed % 2:
        gen4(i)
        continue
    if seed >= 20:
        gen5(i)
        continue
    if seed >= 16:
        gen4(i)
        continue
    # Seeds 8 to 10 are gen3's; from 11 on, odd seeds gen2's, even gen3's.
    if seed >= 8 and (seed <= 10 or seed % 2 == 0):
        gen3(i)
        continue
    if seed >= 5:
        gen2(i)
        continue
    lines = []
    cmp = None
    eng = R.choices(['psync', 'sync', 'pvsync', 'libaio', 'posixaio', 'mmap', 'io_uring'],
                    [30, 15, 10, 15, 10, 15, 5])[0]
    lines.append('ioengine=%s' % eng)
    if eng in ('libaio', 'posixaio', 'io_uring'):
        lines.append('iodepth=%d' % R.choice([1, 4, 16, 64]))
    if eng == 'io_uring':
        cmp = 'without prev_pos'
    rw = R.choices(['read', 'randread', 'readwrite', 'randrw', 'read-pr'],
                   [30, 35, 10, 10, 15])[0]
    if rw == 'read-pr':
        lines.append('rw=randread')
        lines.append('percentage_random=%d' % R.choice([10, 30, 50, 80]))
    else:
        lines.append('rw=%s' % rw)
    if rw in ('readwrite', 'randrw'):
        lines.append('rwmixread=%d' % R.choice([50, 70, 90]))
        if R.random() < 0.3:
            lines.append('fsync=%d' % R.choice([4, 16]))
    rand = rw != 'read'
    r = R.random()
    if rand and r < 0.15:
        lines.append('bsrange=4k-%dk' % R.choice([16, 64, 128]))
    elif r < 0.25:
        lines.append('bssplit=4k/50:64k/30:%dk/20' % R.choice([16, 128, 256]))
    else:
        lines.append('bs=%s' % R.choice(['4k', '8k', '12k', '16k', '32k', '64k', '128k', '256k', '1m']))
    size = R.choice([4, 8, 12, 16, 24, 32, 48])
    nrf = R.choices([1, 2, 3], [70, 20, 10])[0]
    if nrf > 1:
        lines.append('nrfiles=%d' % nrf)
        lines.append('file_service_type=%s' % R.choice(['roundrobin', 'random', 'sequential']))
    lines.append('size=%dm' % size)
    if R.random() < 0.15 and size >= 8:
        lines.append('offset=%dm' % R.randrange(1, size // 2))
    if R.random() < 0.15:
        lines.append('io_size=%dm' % R.randrange(1, size + 1))
    hint = R.choices(['', '0', '1', 'sequential', 'random'], [50, 20, 10, 10, 10])[0]
    if hint:
        lines.append('fadvise_hint=%s' % hint)
    if R.random() < 0.15:
        lines.append('loops=2')
        if R.random() < 0.5:
            lines.append('invalidate=0')
    if rand and R.random() < 0.2:
        lines.append('random_distribution=%s' % R.choice(['zipf:1.1', 'zipf:1.5', 'pareto:0.9', 'normal:20']))
    if rand and R.random() < 0.15:
        lines.append('norandommap')
    if R.random() < 0.08:
        lines.append('numjobs=2')
        cmp = 'multiset'
    if not cmp and posix_files(lines):
        cmp = 'multiset'
    with open(os.path.join(out, 'f%02d.fio' % i), 'w') as f:
        f.write('; fio sweep, seed %d\n' % seed)
        if cmp:
            f.write('; compare: %s\n' % cmp)
        f.write('[j]\n')
        for l in lines:
            f.write(l + '\n')
