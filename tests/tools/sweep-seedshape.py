#!/usr/bin/env python3
# The seed-shaped sweep's case generator (tests/cases/seedshape-*: seed 1,
# 40 cases; docs/design.md): cases shaped as the seeds' recorded ones --
# small reads then large ones to the end, one size to the end, random
# preads, strides, a mix -- on 32 MiB to 1 GiB files at read_ahead_kb 4
# to 4096 and max_sectors_kb 8 to 1280, XFS, ext4 or the default.
# Usage: sweep-seedshape.py SEED COUNT OUTDIR -> OUTDIR/ss-NN-FS-raR-mskM/case.ops
# Each case was recorded twice ('ralab check --strict CASE.ops',
# 'ralab kernel --trace CASE.ops | gzip > kernel.out.gz').
import random, os, sys
seed=int(sys.argv[1]); n=int(sys.argv[2]); out=sys.argv[3]
R=random.Random(seed)
def sz(b):
    for u,s in ((1<<30,'G'),(1<<20,'M'),(1<<10,'K')):
        if b % u == 0: return '%d%s' % (b//u, s)
    return str(b)
for i in range(n):
    fsz = R.choice([32,64,128,256,512,768,1024]) << 20
    ra = R.choice([4,8,16,32,64,96,128,128,128,192,256,512,1024,2048,4096])
    msk = R.choice([8,16,32,64,128,256,512,512,1024,1280])
    fs = R.choice(['xfs','xfs','ext4',None])
    k = R.choice(['two','seq','rand','rand','mix','stride'])
    ops=[]
    small=[4<<10, 8<<10, 12<<10, 16<<10, 64<<10, 100<<10, 128<<10]
    big=[64<<10, 256<<10, 512<<10, 1<<20, 2<<20, 3<<20, 4<<20, 3000000]
    if k=='two':
        ops.append('read %s %d' % (sz(R.choice(small)), R.choice([1,1,2,5])))
        ops.append('read %s eof' % sz(R.choice(big)))
    elif k=='seq':
        ops.append('read %s eof' % sz(R.choice(small+big)))
    elif k=='rand':
        ops.append('rand-pread %s %d %d' % (sz(R.choice([4<<10,16<<10,64<<10,128<<10,1<<20])), R.choice([500,1000,2000]), R.randrange(1,99999)))
    elif k=='stride':
        b=R.choice(small)
        ops.append('stride-pread 0 %s %s %d' % (sz(b), sz(b*R.choice([2,3,4])), min(2000, fsz//(b*4))))
    else:
        ops.append('read %s %d' % (sz(R.choice(small)), R.choice([10,100,1000])))
        ops.append('seek %d' % (R.randrange(0, fsz//2)//4096*4096))
        ops.append('read %s %d' % (sz(R.choice(big)), R.choice([10,50])))
        ops.append('rand-pread %s %d %d' % (sz(R.choice(small)), R.choice([100,300]), R.randrange(1,999)))
    name='ss-%02d-%s-ra%d-msk%d' % (i, fs or 'dflt', ra, msk)
    d=os.path.join(out,name); os.makedirs(d, exist_ok=True)
    with open(d+'/case.ops','w') as f:
        f.write('# seed-shaped sweep, seed %d case %d\n' % (seed,i))
        if fs: f.write('# fs: %s\n' % fs)
        f.write('# file_size: %s\n# read_ahead_kb: %d\n# max_sectors_kb: %d\n' % (sz(fsz), ra, msk))
        f.write('\n'.join(ops)+'\n')
