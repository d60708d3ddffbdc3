# Map a file read-only through the C library (ctypes) and mprotect() parts
# of the mapping, as ld.so does with a library's segments: PROT_NONE
# pages (the gap between text and data), PROT_READ | PROT_EXEC (text: its
# faults read the exec window up to the VMA's end), and PROT_READ back;
# read a byte of pages next to the VMA edges that makes, so that the exec
# window and fault-around stop there; fadvise(DONTNEED) (which drops what
# fault-around left unmapped), then read(2) the file whole: the app
# traces mprotect-python-* (tests/traces/app/README.md).
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]

PROT_NONE, PROT_READ, PROT_EXEC, MAP_PRIVATE = 0, 1, 4, 2
K = 1024
fd = os.open(sys.argv[1], os.O_RDONLY)
n = os.fstat(fd).st_size
a = libc.mmap(None, n, PROT_READ, MAP_PRIVATE, fd, 0)
if a in (None, ctypes.c_void_p(-1).value):
    sys.exit('mmap: errno %d' % ctypes.get_errno())


def protect(off, length, prot):
    if libc.mprotect(a + off, length, prot):
        sys.exit('mprotect: errno %d' % ctypes.get_errno())


protect(1 * K * K, 1 * K * K, PROT_READ | PROT_EXEC)   # text
protect(2 * K * K, 4 * K, PROT_NONE)                   # the gap
protect(5 * K * K + 40 * K, 48 * K, PROT_NONE)
s = 0
for off in (1 * K * K + 900 * K, 2 * K * K + 8 * K, 1 * K * K + 16 * K,
            5 * K * K + 36 * K, 5 * K * K + 92 * K, 3 * K * K):
    s += ctypes.string_at(a + off, 1)[0]
os.posix_fadvise(fd, 0, n, os.POSIX_FADV_WILLNEED)
for off in (6 * K * K + 60 * K, 6 * K * K + 132 * K):
    s += ctypes.string_at(a + off, 1)[0]
protect(6 * K * K + 64 * K, 64 * K, PROT_NONE)
s += ctypes.string_at(a + 6 * K * K + 188 * K, 1)[0]
os.posix_fadvise(fd, 0, n, os.POSIX_FADV_DONTNEED)
libc.munmap(a, n)
while os.read(fd, K * K):
    pass
