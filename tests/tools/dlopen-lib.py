# Load a shared library with dlopen(3) (ctypes), as a program loads a
# plugin: ld.so maps the whole span of its LOAD segments from the file's
# start, then maps each segment over part of that first mapping with
# MAP_FIXED (text PROT_EXEC, read-only data, writable data), so the first
# mapping keeps holes; relocations write to the data pages (copy on
# write) and constructors run code.  Then call FUNC if given (a function
# with no arguments returning a string), and read(2) the file whole: the
# app traces dlopen-* (tests/traces/app/README.md).
import ctypes
import os
import sys

lib = ctypes.CDLL(sys.argv[1])
if len(sys.argv) > 2:
    f = getattr(lib, sys.argv[2])
    f.restype = ctypes.c_char_p
    f()
fd = os.open(sys.argv[1], os.O_RDONLY)
while os.read(fd, 1 << 20):
    pass
