# What the sweep generators (sweep-*.py) share: writing a case.
import os
import random
import sys


def args():
    """SEED COUNT OUTDIR from the command line, and the seeded generator."""
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    return seed, n, out, random.Random(seed)


def write_case(d, comment, fs, size, ra, msk, ops, block_size=None):
    """OUTDIR/NAME/case.ops: @comment, the header (with @block_size in
    bytes, if given), then @ops, one a line."""
    os.makedirs(d, exist_ok=True)
    with open(d + '/case.ops', 'w') as f:
        if comment:
            f.write('# %s\n' % comment)
        f.write('# fs: %s\n' % fs)
        if block_size:
            f.write('# block_size: %dK\n' % (block_size // 1024))
        f.write('# file_size: %d\n# read_ahead_kb: %d\n# max_sectors_kb: %d\n' % (size, ra, msk))
        f.write('\n'.join(ops) + '\n')


def size_of(R, maxv):
    """A size for a read or write: edge values, any, or whole pages."""
    c = R.random()
    if c < 0.25: return R.choice([1, 100, 4095, 4096, 4097, 6144, 8192, 12288, 65536, 65537, 100000, 1 << 20, 2 << 20, 3000000])
    if c < 0.6: return R.randrange(1, maxv)
    return R.randrange(1, maxv // 4096 + 2) * 4096


def device(R):
    """A case's filesystem, file size, read_ahead_kb and max_sectors_kb."""
    fs = R.choice(['xfs', 'ext4'])
    size = R.choice([1 << 20, 4 << 20, 16 << 20, 32 << 20, 64 << 20, 10_000_000])
    ra = R.choice([16, 32, 64, 128, 256, 512, 1024])
    msk = R.choice([16, 64, 128, 256, 512, 1280])
    return fs, size, ra, msk


def new_map(R, size, maps, ops, whole):
    """A mapping that overlaps none of @maps (one descriptor's): the whole
    file with chance @whole while there is none, else any page-aligned
    range; 'mmap OFF LEN' onto @ops, (OFF, LEN) onto @maps.  Up to 20
    draws; False when none fitted."""
    P = 4096
    for _ in range(20):
        if R.random() < whole and not maps:
            off, ln = 0, size
        else:
            off = R.randrange(0, size // P) * P
            ln = R.randrange(1, (size - off) // P + 1) * P
        if all(off + ln <= o or o + l <= off for (o, l) in maps):
            ops.append('mmap %d %d' % (off, ln))
            maps.append((off, ln))
            return True
    return False


def remap(R, maps, ops, new_map):
    """Unmap one of @maps at random ('munmap OFF'), then map anew."""
    o, l = maps.pop(R.randrange(len(maps)))
    ops.append('munmap %d' % o)
    new_map()


def unmap_all(maps, ops):
    """'munmap OFF' of each of @maps, at the end of a case."""
    for (o, l) in maps:
        ops.append('munmap %d' % o)


def map_range(R, maps):
    """A page-aligned range in one of @maps: from a page in it to its
    end (30%), a common length cut at its end (40%), or any whole pages
    in it; (OFF, LEN)."""
    P = 4096
    o, l = R.choice(maps)
    a = R.randrange(o // P, (o + l) // P) * P
    c = R.random()
    if c < 0.3:
        ln = o + l - a
    elif c < 0.7:
        ln = min(o + l - a, R.choice([P, 8192, 64 << 10, 1 << 20, 2 << 20]))
    else:
        ln = R.randrange(1, (o + l - a) // P + 1) * P
    return a, ln


def dontneed_pages(R, size):
    """'fadvise OFF LEN dontneed' of a page-aligned range of a file of
    @size bytes: 1, 2, 16 or 256 pages, or 1 to 63."""
    P = 4096
    off = R.randrange(0, size // P) * P
    ln = R.choice([P, 8192, 65536, 1 << 20, R.randrange(1, 64) * P])
    return 'fadvise %d %d dontneed' % (off, ln)


def pread_pages(R, size):
    """'pread OFF LEN' from a page of a file of @size bytes: a page,
    64 KiB or 1 MiB, cut at its end."""
    P = 4096
    off = R.randrange(0, size // P) * P
    return 'pread %d %d' % (off, min(size - off, R.choice([P, 65536, 1 << 20])))


def map_device(R, ras):
    """device(), for the mapping sweeps: files of 6 to 16 MiB too, not
    all a multiple of 2 MiB, and read_ahead_kb one of @ras as often as
    device()'s draw."""
    fs, size, ra, msk = device(R)
    size = R.choice([size, 16 << 20, 8 << 20 | 12288, 6 << 20 | 4096, 10 << 20])
    ra = R.choice([ra] + ras)
    return fs, size, ra, msk
