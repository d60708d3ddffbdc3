# mlock(2) and mlockall(2) through the C library (ctypes): map the whole
# file shared, lock part of it (mlock: 4 MiB from 4 MiB on, populated)
# or all of it (mlockall: MCL_CURRENT | MCL_FUTURE before the mmap), read
# a byte every 64 KiB of the first quarter, madvise(MADV_DONTNEED) the
# whole mapping (EINVAL at the first locked VMA, after zapping those
# before it), fadvise(DONTNEED) the file (the pages still mapped stay),
# then read(2) it whole: the app traces mlock-python-* and
# mlockall-python-* (tests/traces/app/README.md).
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
for fn in (libc.mlock, libc.munmap):
    fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]

PROT_READ, MAP_SHARED, MADV_DONTNEED = 1, 1, 4
MCL_CURRENT, MCL_FUTURE = 1, 2
M = 1 << 20
mode = sys.argv[2] if len(sys.argv) > 2 else 'mlock'
fd = os.open(sys.argv[1], os.O_RDONLY)
n = os.fstat(fd).st_size
if mode == 'mlockall' and libc.mlockall(MCL_CURRENT | MCL_FUTURE):
    sys.exit('mlockall: errno %d' % ctypes.get_errno())
a = libc.mmap(None, n, PROT_READ, MAP_SHARED, fd, 0)
if mode == 'mlock' and libc.mlock(a + 4 * M, 4 * M):
    sys.exit('mlock: errno %d' % ctypes.get_errno())
s = 0
for i in range(0, n // 4, 65536):
    s += ctypes.string_at(a + i, 1)[0]
libc.madvise(a, n, MADV_DONTNEED)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
while os.read(fd, M):
    pass
if mode == 'mlockall':
    libc.munlockall()
libc.munmap(a, n)
