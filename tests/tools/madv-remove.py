# Map a file shared and writable, read a byte of each page of its first
# half, punch 1 MiB at 1 MiB and 64 KiB at 3 MiB out of it with
# madvise(MADV_REMOVE), read the first half through the mapping again,
# then the whole file with read(2): the app traces madvremove-python-*
# (tests/traces/app/README.md).
import mmap
import os
import sys

f = open(sys.argv[1], 'r+b')
n = os.fstat(f.fileno()).st_size
m = mmap.mmap(f.fileno(), n)
s = 0
for i in range(0, n // 2, 4096):
    s += m[i]
m.madvise(mmap.MADV_REMOVE, 1 << 20, 1 << 20)
m.madvise(mmap.MADV_REMOVE, 3 << 20, 64 << 10)
for i in range(0, n // 2, 4096):
    s += m[i]
m.close()
while f.read(1 << 20):
    pass
