# What the sweep generators (sweep-*.py) share: writing a case.
import os


def write_case(d, comment, fs, size, ra, msk, ops):
    """OUTDIR/NAME/case.ops: @comment, the header, then @ops, one a line."""
    os.makedirs(d, exist_ok=True)
    with open(d + '/case.ops', 'w') as f:
        if comment:
            f.write('# %s\n' % comment)
        f.write('# fs: %s\n# file_size: %d\n# read_ahead_kb: %d\n# max_sectors_kb: %d\n' % (fs, size, ra, msk))
        f.write('\n'.join(ops) + '\n')
