# Map a file, read a byte of each page of its first half, page out the
# first quarter with madvise(MADV_PAGEOUT), then read the first half
# again: the app trace pageout-python-* (tests/traces/app/README.md).
# Python 3.11's mmap module has no MADV_PAGEOUT name; 21 is its value.
import mmap
import os
import sys

MADV_PAGEOUT = 21
f = open(sys.argv[1], 'rb')
n = os.fstat(f.fileno()).st_size
m = mmap.mmap(f.fileno(), n, prot=mmap.PROT_READ)
s = 0
for i in range(0, n // 2, 4096):
    s += m[i]
m.madvise(MADV_PAGEOUT, 0, n // 4)
for i in range(0, n // 2, 4096):
    s += m[i]
m.close()
