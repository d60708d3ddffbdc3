# Reads a file buffered, then with O_DIRECT set on the same descriptor by
# fcntl(F_SETFL), then buffered again with it cleared (tests/traces/app/
# direct-setfl-python-ext4).  Usage: python3 -S setfl-read.py FILE
import os, fcntl, mmap, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
b = memoryview(mmap.mmap(-1, 1 << 20))
for i in range(8):
    os.preadv(fd, [b[:65536]], i * 65536)
fl = fcntl.fcntl(fd, fcntl.F_GETFL)
fcntl.fcntl(fd, fcntl.F_SETFL, fl | os.O_DIRECT)
for i in range(4, 12):
    os.preadv(fd, [b[:131072]], i * 131072)
fcntl.fcntl(fd, fcntl.F_SETFL, fl)
for i in range(40, 100):
    os.preadv(fd, [b[:32768]], i * 32768)
os.close(fd)
