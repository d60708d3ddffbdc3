#!/usr/bin/env python3
# The hole sweep's case generator (tests/cases/hole-s*): a file mapped whole
# (sometimes PROT_EXEC), one to three holes cut in it with "munmap OFF LEN"
# at any page, some mapped again by mappings of their own (ld.so maps a
# library's segments so over its first mapping), then single-page
# touches at and next to the holes' edges, strided runs of touches, DONTNEED
# and pauses.  The VMAs end at each hole: fault-around, the exec window
# and PMD mappings stop there (docs/design.md, "Holes in a mapping").
# Usage: sweep-holes.py SEED COUNT OUTDIR -> OUTDIR/hSEED-NN/case.ops
import random, sys, os
seed=int(sys.argv[1]); n=int(sys.argv[2]); out=sys.argv[3]
for i in range(n):
    r=random.Random(seed*1000+i)
    fs=r.choice(['xfs','ext4'])
    npg=r.choice([512,1024,2048])
    ra=r.choice([16,32,64,128,512])
    lines=[f"# hole sweep {seed}.{i}", f"# fs: {fs}", f"# file_size: {npg*4}K", f"# read_ahead_kb: {ra}"]
    exe=' exec' if r.random()<0.3 else ''
    lines.append(f"mmap 0 {npg*4}K{exe}")
    holes=[]
    for h in range(r.randint(1,3)):
        a=r.randrange(1,npg-40); l=r.randint(1,60)
        if any(not (a+l<=x or a>=y) for x,y in holes) or any(a==y or a+l==x for x,y in holes): continue
        holes.append((a,a+l))
    holes.sort()
    live=[]; p=0
    for x,y in holes:
        if x>p: live.append((p,x))
        p=y
    if p<npg: live.append((p,npg))
    ops=[]
    for x,y in holes:
        ops.append(f"munmap {x*4}K {(y-x)*4}K")
    newmaps=[]
    for x,y in holes:
        if r.random()<0.5:
            ops.append(f"mmap {x*4}K {(y-x)*4}K" + (' exec' if r.random()<0.3 else ''))
            newmaps.append((x,y))
    segs=live+newmaps
    for k in range(r.randint(4,10)):
        x,y=r.choice(segs)
        c=r.random()
        if c<0.5:
            q=r.choice([x,y-1,r.randrange(x,y)])
            ops.append(f"touch {q*4}K 1 4K")
        elif c<0.85:
            a=r.randrange(x,y); b=r.randint(a+1,y)
            st=r.choice([4,8,12,16,64])
            ops.append(f"touch {a*4}K {(b-a)*4}K {st}K")
        else:
            ops.append(f"fadvise 0 {npg*4}K dontneed" if r.random()<0.5 else f"pause 100000")
    lines+= ops
    d=os.path.join(out,f"h{seed}-{i:02d}"); os.makedirs(d,exist_ok=True)
    open(os.path.join(d,'case.ops'),'w').write("\n".join(lines)+"\n")
