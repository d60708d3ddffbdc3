#!/usr/bin/env python3
# Copy an ELF program with its interpreter (PT_INTERP) renamed, so that a
# recording can start it with ld.so from a file of its own (a cold copy
# on the traced loop device, behind a symbolic link of that short name):
# tests/traces/app/execve-interp-*.
# Usage: interp-patch.py PROGRAM NEWINTERP OUT  (NEWINTERP no longer than
# the old path; the rest of the field is NUL bytes)
import os
import struct
import sys

src, interp, out = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
b = bytearray(open(src, 'rb').read())
if b[:4] != b'\x7fELF' or b[4] != 2 or b[5] != 1:
    sys.exit('interp-patch.py: %s: not a 64-bit little-endian ELF file' % src)
phoff = struct.unpack_from('<Q', b, 32)[0]
phnum = struct.unpack_from('<H', b, 56)[0]
for i in range(phnum):
    o = phoff + i * 56
    if struct.unpack_from('<I', b, o)[0] != 3:  # PT_INTERP
        continue
    off = struct.unpack_from('<Q', b, o + 8)[0]
    size = struct.unpack_from('<Q', b, o + 32)[0]
    if len(interp) >= size:
        sys.exit('interp-patch.py: %s is longer than the %d bytes there' %
                 (interp.decode(), size - 1))
    b[off:off + size] = interp + b'\0' * (size - len(interp))
    break
else:
    sys.exit('interp-patch.py: %s has no PT_INTERP' % src)
with open(out, 'wb') as f:
    f.write(b)
os.chmod(out, 0o755)
