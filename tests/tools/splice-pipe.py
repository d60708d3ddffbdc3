# splice(2) and sendfile(2) from a file at offsets inside pages: splice
# 64 KiB at a time into a new pipe (16 buffers: each takes 16 pages, so
# one splice at byte 1000 returns 64536 bytes though it asked readahead
# for 17 pages), by offset and by the file position; into a pipe with
# five pages already in it (11 buffers free); sendfile(2) to /dev/null
# by offset, by the file position and up to EOF: the app traces
# sendfile-splice-python-* (tests/traces/app/README.md).
import os
import sys


def drain(r, n):
    got = 0
    while got < n:
        got += len(os.read(r, n - got))


fd = os.open(sys.argv[1], os.O_RDONLY)
null = os.open('/dev/null', os.O_WRONLY)
r, w = os.pipe()
off = 1000
for i in range(40):
    n = os.splice(fd, w, 65536, offset_src=off)
    drain(r, n)
    off += n
os.lseek(fd, 3 * 1048576 + 333, os.SEEK_SET)
for i in range(30):
    drain(r, os.splice(fd, w, 65536))
off = 5000 + 4 * 1048576
for i in range(8):
    off += os.sendfile(null, fd, off, 100000) + 30000
os.lseek(fd, 5 * 1048576 + 4095, os.SEEK_SET)
for i in range(6):
    os.sendfile(null, fd, None, 100001)
os.write(w, b'x' * 4096 * 5)
off = 6 * 1048576 + 100
for i in range(20):
    n = os.splice(fd, w, 65536, offset_src=off)
    drain(r, n)
    off += n
os.sendfile(null, fd, 8 * 1048576 - 10000, 1000000)
