#!/usr/bin/env bash
# Run a fio job file with fio itself on this machine's kernel and record
# the readahead, page-cache and block events of its one data file, in
# ralab's event format (as 'ralab sim --trace' prints them: no dev/ino,
# sectors from the file's first sector), to compare with what ralab makes
# of the same job file.
#
#   tests/tools/record-fio.sh JOB.fio OUT.events [FIO_OUTPUT]
#
# FIO_OUTPUT keeps fio's own report of the traced run (bandwidth etc.).
#
# Needs root, fio, xfsprogs, a tracefs with the readahead tracepoints.
# A loop device with direct I/O over a sparse image of its own, XFS,
# read_ahead_kb 128 and max_sectors_kb 512 (written in that order), a
# tracefs instance of its own; all removed on exit.  fio lays the files
# out first; they are synced and evicted, so that only the measured run is
# traced.  Each file must be one extent; requests outside the files
# (metadata) are left out, and sectors count from each file's start.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
job=$(realpath "${1:?usage: record-fio.sh JOB.fio OUT.events}")
out=$(realpath -m "${2:?usage: record-fio.sh JOB.fio OUT.events}")
fio_out=$(realpath -m "${3:-/dev/null}")
w=$(mktemp -d /tmp/ralab-fio.XXXXXX)
inst=/sys/kernel/tracing/instances/ralab-fio-$$
loop=
cleanup() {
	cd /
	[ -d "$inst" ] && { echo 0 > "$inst/tracing_on"; rmdir "$inst"; } || true
	mountpoint -q "$w/mnt" && umount "$w/mnt" || true
	[ -n "$loop" ] && losetup -d "$loop" || true
	rm -rf "$w"
}
trap cleanup EXIT
mkdir "$w/mnt"
truncate -s 8G "$w/img"
loop=$(losetup -f --show --direct-io=on "$w/img")
mkfs.xfs -q -f "$loop"
mount "$loop" "$w/mnt"
q=/sys/block/$(basename "$loop")/queue
echo 512 > "$q/max_sectors_kb"
echo 128 > "$q/read_ahead_kb"
cd "$w/mnt"
fio --create_only=1 --output=/dev/null "$job"
sync
# Each file's first sector (the files must be one extent each).
: > "$w/extents"
for f in $(find . -maxdepth 1 -type f | sort); do
	xfs_io -c "fadvise -d 0 0" "$f"
	[ "$(xfs_io -c fiemap "$f" | wc -l)" = 2 ] ||
		{ echo "record-fio.sh: $f has more than one extent" >&2; exit 1; }
	xfs_io -c fiemap "$f" | awk 'NR == 2 { split($3, a, "\\.\\."); print a[1], a[2] }' >> "$w/extents"
done
[ -s "$w/extents" ] || { echo "record-fio.sh: fio laid out no file" >&2; exit 2; }
dev=$(cat "/sys/block/$(basename "$loop")/dev")
mkdir "$inst"
echo 65536 > "$inst/buffer_size_kb"
# One clock for all CPUs: with the default per-CPU one, events of a
# thread that moved between CPUs can come out in the wrong order.
echo mono > "$inst/trace_clock"
for e in readahead/page_cache_sync_ra readahead/page_cache_async_ra \
	 readahead/page_cache_ra_order readahead/page_cache_ra_unbounded \
	 filemap/mm_filemap_add_to_page_cache block/block_rq_issue; do
	echo 1 > "$inst/events/$e/enable"
done
# Folios of the files that a task other than fio drops (DAMON's kdamond
# pages out memory it finds idle on this machine; kswapd): the recording
# is then not fio's alone.
e=$inst/events/filemap/mm_filemap_delete_from_page_cache
echo "s_dev == $(( ${dev%:*} << 20 | ${dev#*:} )) && comm != \"fio\"" > "$e/filter"
echo 1 > "$e/enable"
echo 1 > "$inst/tracing_on"
fio --output="$fio_out" "$job"
echo 0 > "$inst/tracing_on"
awk -v dev="$dev" -v ext="$w/extents" -f "$here/trace-events.awk" \
	"$inst/trace" > "$out"
ev=$(grep -c 'mm_filemap_delete_from_page_cache: ' "$inst/trace" || true)
[ "$ev" = 0 ] || echo "record-fio.sh: warning: during the run another task" \
	"($(grep -m1 'mm_filemap_delete_from_page_cache: ' "$inst/trace" | sed 's/^ *\(.*\)-[0-9]* .*/\1/'))" \
	"evicted $ev folio(s) of the files: record again" >&2
echo "record-fio.sh: $(wc -l < "$out") events in $out"
