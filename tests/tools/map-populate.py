# Map the first half of a file with MAP_POPULATE (mmap() faults its
# pages in), read a byte of each of its pages (present: no faults), then
# read the whole file with read(2): the app traces mappopulate-python-*
# (tests/traces/app/README.md).
import mmap
import os
import sys

f = open(sys.argv[1], 'rb')
n = os.fstat(f.fileno()).st_size
m = mmap.mmap(f.fileno(), n // 2, flags=mmap.MAP_SHARED | mmap.MAP_POPULATE,
              prot=mmap.PROT_READ)
s = 0
for i in range(0, n // 2, 4096):
    s += m[i]
m.close()
while f.read(1 << 20):
    pass
