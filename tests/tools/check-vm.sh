#!/usr/bin/env bash
# Run 'ralab check --strict' live under an older kernel in a VM: the
# recorder's own kprobes on the readahead functions (kernels before 6.18
# have no readahead tracepoints; src/kernel/recorder.c) against the model
# 'ralab check' picks for that kernel.  Then check that no kprobe
# definition or trace instance is left, after the runs and after a run
# interrupted with SIGINT.
#
#   tests/tools/check-vm.sh KERNEL CASEDIR...
#
# KERNEL is as for record-fio-vm.sh: a Debian kernel package apt can fetch
# or a comma-separated list of .deb files (Ubuntu's image and modules).
# Prints, per case, ralab check's verdict and first divergence, then the
# leftovers.  The first CASEDIR is run once more and interrupted as soon as
# its kprobes are defined (give one that runs for a while).  Exit status: 0 if every case matched and nothing was left.
#
# Needs what record-cases-vm.sh needs (root, qemu-system-x86, busybox-static,
# cpio, kmod, xfsprogs, e2fsprogs, zstd, a built build/ralab); nothing is
# installed on this machine.
set -euo pipefail
usage="usage: check-vm.sh KERNEL CASEDIR..."
pkg=${1:?$usage}
shift
[ $# -gt 0 ] || { echo "check-vm.sh: no case" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
w=$(mktemp -d /tmp/ralab-vm.XXXXXX)
trap 'rm -rf "$w"' EXIT
r=$w/r
. "$top/tests/tools/vm-kernel.sh"
vm_ralab_cases "$pkg" "$w" "$top" check-vm.sh "$@"
basename "$1" > "$r/first"
{ vm_init_prologue; cat <<'EOI'; } > "$r/init"
K=/sys/kernel/tracing
echo "@@@ KERNEL $(uname -r)"
mkdir -p /mnt/rw
first=/cases/$(cat /first)/case.ops
for c in /cases/*/case.ops; do
	echo "@@@ CASE $(basename $(dirname $c))"
	ralab check --strict --workdir /mnt/rw $c 2>&1
	echo "@@@ KPROBES $(grep -c ralab_ $K/kprobe_events)"
done
# Interrupted once its kprobes are there: they and the instance must go.
ralab kernel --workdir /mnt/rw $first > /dev/null 2>&1 &
i=0
while [ "$(grep -c ralab_ $K/kprobe_events)" = 0 ] && [ $i -lt 3000 ] &&
      kill -0 $! 2>/dev/null; do usleep 10000; i=$((i + 1)); done
echo "@@@ DURING $(grep -c ralab_ $K/kprobe_events)"
kill -INT $! 2>/dev/null || true
wait $! || true
echo "@@@ AFTER-INT $(grep -c ralab_ $K/kprobe_events) $(ls $K/instances | grep -c ralab-)"
ralab kernel --teardown --workdir /mnt/rw
umount /mnt
poweroff -f
EOI
vm_boot "$w" 7200 check-vm.sh
awk '
/@@@ KERNEL/ { sub(/^.*@@@ KERNEL /, ""); print "kernel " $0; next }
/^@@@ CASE / { n = $3; next }
/^@@@ KPROBES / { if ($3 != 0) { print n ": " $3 " kprobe definitions left"; bad = 1 } next }
/^@@@ DURING / { print "kprobes defined during the run interrupted: " $3; if ($3 == 0) bad = 1; next }
/^@@@ AFTER-INT / { print "after SIGINT: " $3 " kprobe definitions, " $4 " instances left"; if ($3 != 0 || $4 != 0) bad = 1; next }
n != "" && /^(MATCH|DIFFER)$/ { print n ": " $0; if ($0 != "MATCH") bad = 1; next }
n != "" && /^(readahead|folio|request|data_reads|policy|  [-+] )/ { print n ":   " $0; next }
n != "" && /^ralab / { print n ": " $0; bad = 1; next }
END { exit bad }' "$w/console"
