#!/usr/bin/env bash
# Run recorded cases live ('ralab kernel --trace') under an older kernel in
# a VM, and record its readahead decisions with kprobes, to check ralab's
# models of older kernels (tests/kernels).
#
#   tests/tools/record-cases-vm.sh KERNEL OUTDIR CASEDIR...
#
# KERNEL is as for record-fio-vm.sh: a Debian kernel package apt can fetch
# or a comma-separated list of .deb files (Ubuntu's image and modules).
# For each CASEDIR (tests/cases/NAME) OUTDIR gets NAME.events.gz, the
# page-cache and block events ralab's recorder printed (and NAME.breaks
# where the VM's filesystem broke the case's file), and NAME.ra.gz, the
# readahead calls: kernels before 6.18 have no readahead tracepoints, so
# kprobes at the entry of page_cache_sync_ra, page_cache_async_ra,
# page_cache_ra_order and page_cache_ra_unbounded read the arguments and
# the file_ra_state (through readahead_control->ra; the layouts of 6.1 to
# 6.16), printed as ralab prints those events for its pre-6.18 policies
# (without their order= field on sync and async calls, which those
# kernels did not have).  Only calls made by ralab's own processes count.
#
# Needs root, apt (network) or the .deb files, gcc, qemu-system-x86,
# busybox-static, cpio, kmod, xfsprogs, e2fsprogs, xz-utils, zstd and a
# built build/ralab.  The VM: qemu under TCG (single-threaded: with
# MTTCG the tracepoint and kprobe text patching died in a stray int3),
# 2 vCPUs, 3000 MB, an emulated NVMe disk with XFS holding the recorder's
# images; the page cache is dropped and memory compacted before each case.
# Nothing is installed on this machine; everything lives in a temporary
# directory removed on exit.
set -euo pipefail
usage="usage: record-cases-vm.sh KERNEL OUTDIR CASEDIR..."
pkg=${1:?$usage}
out=$(realpath -m "${2:?$usage}")
shift 2
[ $# -gt 0 ] || { echo "record-cases-vm.sh: no case" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
w=$(mktemp -d /tmp/ralab-vm.XXXXXX)
trap 'rm -rf "$w"' EXIT
r=$w/r
. "$top/tests/tools/vm-kernel.sh"
mkdir -p "$out"
vm_ralab_cases "$pkg" "$w" "$top" record-cases-vm.sh "$@"
{ vm_init_prologue; cat <<'EOI'; } > "$r/init"
K=/sys/kernel/tracing
# struct readahead_control: file, mapping, ra (+16), _index (+24);
# struct file_ra_state: start, size (+8), async_size, ra_pages, mmap_miss,
# prev_pos (+24).
R='size=+8(+16($arg1)):u32 async_size=+12(+16($arg1)):u32 ra_pages=+16(+16($arg1)):u32'
S='mmap_miss=+20(+16($arg1)):u32 prev_pos=+24(+16($arg1)):s64'
echo "p:ralab/page_cache_sync_ra page_cache_sync_ra index=+24(\$arg1):u64 req_count=\$arg2:u64 $R $S" >> $K/kprobe_events
echo "p:ralab/page_cache_async_ra page_cache_async_ra index=+24(\$arg1):u64 req_count=\$arg3:u64 $R $S" >> $K/kprobe_events
echo "p:ralab/page_cache_ra_order page_cache_ra_order index=+24(\$arg1):u64 order=\$arg3:u32 $R" >> $K/kprobe_events
echo "p:ralab/page_cache_ra_unbounded page_cache_ra_unbounded index=+24(\$arg1):u64 nr_to_read=\$arg2:u64 lookahead_size=\$arg3:u64" >> $K/kprobe_events
echo 262144 > $K/buffer_size_kb
echo 1 > $K/events/ralab/enable
echo "@@@ KERNEL $(uname -r)"
mkdir -p /mnt/rw
for c in /cases/*/case.ops; do
	n=$(basename $(dirname $c))
	sync; echo 3 > /proc/sys/vm/drop_caches; echo 1 > /proc/sys/vm/compact_memory
	echo > $K/trace
	echo "@@@ BEGIN $n"
	ralab kernel --trace --workdir /mnt/rw $c 2>&1 |
		grep -E '^(mm_filemap|block_rq|ralab|breaks=|breaks_at=)'
	echo "@@@ RA $n"
	grep -E '^ *ralab-[0-9]+ .* page_cache_[a-z_]+: \(' $K/trace |
		sed 's/^.* \(page_cache_[a-z_]*\): ([^)]*) /\1: /'
	echo "@@@ END $n"
done
ralab kernel --teardown --workdir /mnt/rw
umount /mnt
poweroff -f
EOI
vm_boot "$w" 7200 record-cases-vm.sh
# (The first marker line follows the escape sequences of the firmware.)
awk -v d="$w" '
/@@@ KERNEL/ { sub(/^.*@@@ KERNEL /, ""); print "record-cases-vm.sh: kernel " $0 > "/dev/stderr"; next }
/@@@ BEGIN/ { n = $NF; f = d "/" n ".events"; printf "" > f; next }
/^@@@ RA / { close(f); f = d "/" n ".ra"; printf "" > f; next }
/^@@@ END / { close(f); print n > (d "/done"); f = ""; next }
/^breaks=/ { print n, substr($0, 8) > (d "/breaks"); next }
/^breaks_at=/ { print n, substr($0, 11) > (d "/breaks_at"); next }
f != "" && /^(mm_filemap|block_rq|page_cache_|ralab)/ { print > f }' "$w/console"
[ -f "$w/done" ] || { echo "record-cases-vm.sh: no case finished" >&2; tail -5 "$w/console" >&2; exit 1; }
while read -r n; do
	if grep -q '^ralab' "$w/$n.events"; then
		echo "record-cases-vm.sh: $n: $(grep -m1 '^ralab' "$w/$n.events")" >&2
		continue
	fi
	x=$(awk -v n="$n" '$1 == n { print $2 }' "$w/breaks")
	if [ "$x" != 0 ]; then
		# The case's own file's breaks, as extent_breaks takes them
		# (variants.sh); other files' are only reported.
		touch "$w/breaks_at"
		awk -v n="$n" '$1 == n { for (i = 2; i <= NF; i++) if ($i ~ /^0:/) { sub(/^0:/, "", $i); s = s (s ? "," : "") $i } } END { if (s) print s }' \
			"$w/breaks_at" > "$out/$n.breaks"
		[ -s "$out/$n.breaks" ] || rm -f "$out/$n.breaks"
		echo "record-cases-vm.sh: $n: the filesystem broke the files in $x place(s) the case does not say ($n.breaks has the case's file's)" >&2
	fi
	gzip -9n < "$w/$n.events" > "$out/$n.events.gz"
	gzip -9n < "$w/$n.ra" > "$out/$n.ra.gz"
done < "$w/done"
echo "record-cases-vm.sh: $(wc -l < "$w/done") of $# cases recorded in $out"
