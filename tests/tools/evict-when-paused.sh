#!/usr/bin/env bash
# Another process evicting a case's file during a recording, as DAMON's
# kdamond or kswapd may: once 'ralab kernel --workdir WD' has the file of
# SIZE bytes partly cached and it stays so (the case pauses), drop it
# from the page cache with POSIX_FADV_DONTNEED from python3.
#   tests/tools/evict-when-paused.sh WD SIZE &
# (tests/recordings/evicted-by-others was recorded so; tests/suites/kernel.sh.)
set -u
wd=${1:?usage: evict-when-paused.sh WD SIZE} size=${2:?usage: evict-when-paused.sh WD SIZE}
f=
for _ in $(seq 1 300); do
	f=$(ls "$wd"/mnt-*/data-"$size".bin 2>/dev/null | head -n 1)
	[ -n "$f" ] && break
	sleep 0.05
done
[ -n "$f" ] || { echo "evict-when-paused.sh: no file of $size bytes in $wd" >&2; exit 1; }
for _ in $(seq 1 400); do
	c=$(fincore -nb -o RES "$f" 2>/dev/null)
	if [ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" -lt "$size" ]; then
		sleep 0.3
		[ "$(fincore -nb -o RES "$f" 2>/dev/null)" = "$c" ] && break
	fi
	sleep 0.02
done
exec python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$f"
