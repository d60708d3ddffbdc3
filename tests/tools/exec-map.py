# Map a file as a program's text is mapped (ld.so: MAP_PRIVATE, PROT_READ
# | PROT_EXEC) through the C library (ctypes), read a byte of pages at
# scattered offsets (cold faults: each reads ra_pages from the fault on,
# 6.17's exec window, unmarked), a run of pages in order, then map the
# file again without PROT_EXEC and do the same (read-around, centred and
# marked), and read(2) it whole: the app traces exec-python-*
# (tests/traces/app/README.md).
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

PROT_READ, PROT_EXEC, MAP_PRIVATE = 1, 4, 2
K = 1024
fd = os.open(sys.argv[1], os.O_RDONLY)
n = os.fstat(fd).st_size
half = n // 2
s = 0
for prot, base in ((PROT_READ | PROT_EXEC, 0), (PROT_READ, half)):
    a = libc.mmap(None, half, prot, MAP_PRIVATE, fd, base)
    if a in (None, ctypes.c_void_p(-1).value):
        sys.exit('mmap: errno %d' % ctypes.get_errno())
    for off in (5000 * K, 300 * K, 2100 * K, 7000 * K, 1234 * K):
        if off < half:
            s += ctypes.string_at(a + off, 1)[0]
    for off in range(3 * K * K, 4 * K * K, 4 * K):
        s += ctypes.string_at(a + off, 1)[0]
    libc.munmap(a, half)
while os.read(fd, K * K):
    pass
