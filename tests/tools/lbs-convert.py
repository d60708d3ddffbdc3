#!/usr/bin/env python3
# Make the cases of another sweep large-block ones (docs/design.md,
# "Large block sizes"): each OUTDIR/NAME/case.ops of SRC becomes XFS
# with a block size of 8 to 64 KiB drawn with SEED, named NAME-bNK.
# Cases the model refuses (ralab sim exits 2: a write fault past the
# page holding EOF inside a block, a range not block-aligned where it
# must be) are dropped with the reason on stderr.
# Usage: lbs-convert.py SEED SRC OUTDIR [RALAB]
import os
import random
import subprocess
import sys

seed, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ralab = sys.argv[4] if len(sys.argv) > 4 else 'build/ralab'
R = random.Random(seed)
for name in sorted(os.listdir(src)):
    bs = R.choice([8, 16, 32, 64])
    lines = []
    with open(os.path.join(src, name, 'case.ops')) as f:
        for line in f:
            if line.startswith('# fs:'):
                lines.append('# fs: xfs\n')
                lines.append('# block_size: %dK\n' % bs)
            elif line.startswith('# block_size:'):
                continue
            else:
                lines.append(line)
    d = os.path.join(out, '%s-b%dK' % (name.replace('ext4', 'xfs'), bs))
    os.makedirs(d, exist_ok=True)
    with open(d + '/case.ops', 'w') as f:
        f.writelines(lines)
    r = subprocess.run([ralab, 'sim', d + '/case.ops'], capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write('%s: dropped: %s' % (name, r.stderr))
        os.remove(d + '/case.ops')
        os.rmdir(d)
