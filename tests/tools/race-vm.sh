#!/usr/bin/env bash
# Measure kara-2024/01's race on an older kernel in a VM (docs/seeds.md,
# seed 001): threads sharing one descriptor pread a 1 GiB file in chunks
# taken from a shared counter (shared-fd-readers.c), block:block_rq_issue
# traced; a page readahead should have brought but did not is read alone,
# as a plain "R" request.  Prints one line per run:
#
#   RACE THREADS CHUNK run N plain=P ra=R
#
#   tests/tools/race-vm.sh KERNEL
#
# KERNEL is as for record-fio-vm.sh.  Needs what record-fio-vm.sh needs.
# The VM is record-fio-vm.sh's: XFS on an emulated NVMe disk,
# read_ahead_kb 128, max_sectors_kb 512 (written in that order).
set -euo pipefail
pkg=${1:?usage: race-vm.sh KERNEL}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d /tmp/ralab-vm.XXXXXX)
trap 'rm -rf "$w"' EXIT
r=$w/r
mkdir -p "$w/k"
. "$here/vm-kernel.sh"
vm_root "$r"
vm_kernel_unpack "$pkg" "$w/k"
gcc -O2 -static -pthread -o "$r/bin/shared-fd-readers" "$here/shared-fd-readers.c"
vm_copy_bin "$r" /usr/bin/fio
vm_kernel_modules "$w/k" "$r/mods" crc32c-intel xfs nvme
{ vm_init_prologue; vm_init_nvme_trace block/block_rq_issue; cat <<'EOI'; } > "$r/init"
mkdir -p /mnt/w
fio --name=mk --rw=write --bs=1m --size=1g --filename=/mnt/w/f --end_fsync=1 >/dev/null
dev=$(tr : , < /sys/block/nvme0n1/dev)
for cfg in "8 4096" "4 16384" "2 16384"; do
	for n in 1 2 3 4; do
		echo > $T/trace; echo 1 > $T/tracing_on
		shared-fd-readers /mnt/w/f $cfg
		echo 0 > $T/tracing_on
		grep block_rq_issue $T/trace > /tmp/rq
		echo "RACE $cfg run $n plain=$(grep -c " $dev R " /tmp/rq) ra=$(grep -c " $dev RA " /tmp/rq)"
	done
done
umount /mnt
poweroff -f
EOI
vm_boot "$w" 3600 race-vm.sh
grep -ao 'RACE [0-9].*' "$w/console" || { echo "race-vm.sh: no run finished" >&2; tail -5 "$w/console" >&2; exit 1; }
