#!/usr/bin/env bash
# Run a real program under 'ralab record' on a file laid out in extents,
# and record what the kernel did meanwhile: the check that a program's
# strace log, with the layout 'ralab record' notes, replays as the kernel
# read the file ('ralab sim --trace LOG' against OUT/kernel.events).
#
#   tests/tools/record-app.sh [OPTIONS] OUT -- COMMAND [ARGS...]
#
# In COMMAND, @FILE stands for the data file.  Options:
#   --fs xfs|ext4      the filesystem (default xfs)
#   --size MIB         the file's size (default 16)
#   --extent-kb N      extents of N KiB, each a block apart on the disk
#                      (default 0: one extent)
#   --holes LIST       leave these ranges unwritten: holes (OFF+LEN,...,
#                      bytes or with K or M; written in one pass, so the
#                      data on both sides of a hole may be disk-contiguous)
#   --punch LIST       punch these holes after laying the file out
#   --unwritten LIST   preallocate these ranges without writing them
#                      (unwritten extents), after writing the rest
#   --insert LIST      insert these holes into the laid-out file (which
#                      grows by them; the data on both sides of each stays
#                      disk-contiguous)
#   --copy PATH        the file is a copy of PATH (its bytes and size:
#                      a real program's own data, as file(1)'s magic
#                      database), under its name, written in one pass
#                      (with --extent-kb: in extents, as above)
#   --rewritten        the program truncates the file before it reads it
#                      and writes it anew: its reads are mapped to the
#                      extents the file ends with (taken after the run),
#                      and to those it had before where not (reads of a
#                      file truncated to a size other than 0 and grown
#                      back; OUT/extents.before)
#   --remount          unmount and mount the filesystem before the run
#                      (the inode's cached block map starts cold, as
#                      under 'ralab kernel')
#   --read-ahead-kb N, --max-sectors-kb N   the device's (default 128, 512)
#   --ralab PATH       the ralab binary (default ./ralab)
#   --attach           start COMMAND first, its stdin a pipe, and record it
#                      with 'ralab record -p PID' once it printed "ready"
#                      (the 'wait' step of mmap-read and rw-file: what it
#                      opened and mapped before is in the log's attach
#                      section); the kernel's events are traced from then
#
# Writes OUT/app.strace (ralab record's log, its files described),
# OUT/kernel.events (ralab's event format: the readahead, page-cache and
# block events of the run, sectors counted in the file) and OUT/extents
# (each extent: first and last device sector, file sector).
#
# Needs root, xfsprogs (xfs_io; mkfs.xfs or mkfs.ext4), util-linux
# (losetup, fallocate), strace and a tracefs with the readahead
# tracepoints.  A loop device with direct I/O over a sparse image of its
# own and a tracefs instance of its own, both removed on every exit;
# max_sectors_kb is written before read_ahead_kb.  Exit 0 recorded, 2
# missing prerequisite or bad option, 1 failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fs=xfs size=16 ekb=0 ra=128 msk=512 ralab=./ralab holes= punch= unwritten= insert= remount= copy= rewritten= attach=
usage() { echo "usage: record-app.sh [OPTIONS] OUT -- COMMAND [ARGS...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--fs) fs=${2:?}; shift 2 ;;
	--size) size=${2:?}; shift 2 ;;
	--extent-kb) ekb=${2:?}; shift 2 ;;
	--holes) holes=${2:?}; shift 2 ;;
	--punch) punch=${2:?}; shift 2 ;;
	--unwritten) unwritten=${2:?}; shift 2 ;;
	--insert) insert=${2:?}; shift 2 ;;
	--remount) remount=1; shift ;;
	--rewritten) rewritten=1; shift ;;
	--attach) attach=1; shift ;;
	--copy) copy=$(realpath "${2:?}"); shift 2 ;;
	--read-ahead-kb) ra=${2:?}; shift 2 ;;
	--max-sectors-kb) msk=${2:?}; shift 2 ;;
	--ralab) ralab=${2:?}; shift 2 ;;
	--) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] && [ "$2" = -- ] || usage
case $fs in xfs|ext4) ;; *) echo "record-app.sh: --fs xfs or ext4" >&2; exit 2 ;; esac
for n in "$size" "$ekb" "$ra" "$msk"; do
	[[ $n =~ ^[0-9]+$ ]] || { echo "record-app.sh: '$n' is not a number" >&2; exit 2; }
done
# "OFF+LEN,..." (bytes, or K or M) as lines "OFF LEN" in bytes.
ranges() {
	local r a n
	[ -n "$1" ] || return 0
	for r in ${1//,/ }; do
		[[ $r =~ ^([0-9]+)([KM]?)\+([0-9]+)([KM]?)$ ]] ||
			{ echo "record-app.sh: '$r' is not OFF+LEN" >&2; exit 2; }
		a=${BASH_REMATCH[1]} n=${BASH_REMATCH[3]}
		case ${BASH_REMATCH[2]} in K) a=$((a << 10)) ;; M) a=$((a << 20)) ;; esac
		case ${BASH_REMATCH[4]} in K) n=$((n << 10)) ;; M) n=$((n << 20)) ;; esac
		echo "$a $n"
	done
}
for l in "$holes" "$punch" "$unwritten" "$insert"; do ranges "$l" > /dev/null; done
[ -z "$holes" ] || [ "$ekb" = 0 ] ||
	{ echo "record-app.sh: --holes writes the file in one pass: not with --extent-kb" >&2; exit 2; }
out=$(realpath -m "$1"); shift 2
ralab=$(realpath "$ralab")
trace=/sys/kernel/tracing
[ "$(id -u)" = 0 ] || { echo "record-app.sh: needs root" >&2; exit 2; }
for t in xfs_io fallocate losetup strace "mkfs.$fs"; do
	command -v "$t" > /dev/null || { echo "record-app.sh: $t is not installed" >&2; exit 2; }
done
[ -d "$trace/events/readahead" ] ||
	{ echo "record-app.sh: no readahead tracepoints in $trace" >&2; exit 2; }

mkdir -p "$out"
w=$(mktemp -d /tmp/ralab-app.XXXXXX)
inst=$trace/instances/ralab-app-$$
loop=
cleanup() {
	cd /
	if [ -d "$inst" ]; then echo 0 > "$inst/tracing_on"; rmdir "$inst"; fi
	if mountpoint -q "$w/mnt"; then umount "$w/mnt"; fi
	if [ -n "$loop" ]; then losetup -d "$loop"; fi
	rm -rf "$w"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$w/mnt"
truncate -s 2G "$w/img"
loop=$(losetup -f --show --direct-io=on "$w/img")
if [ "$fs" = xfs ]; then mkfs.xfs -q -f "$loop"; else mkfs.ext4 -q -F "$loop"; fi
mount "$loop" "$w/mnt"
q=/sys/block/$(basename "$loop")/queue
echo "$msk" > "$q/max_sectors_kb"
echo "$ra" > "$q/read_ahead_kb"

# The file: extents of ekb KiB, each allocated with a block before it in
# one run, then the blocks cut out of the file (as 'ralab kernel' lays
# files out: the extents stay apart on the disk).
f=$w/mnt/data
# A copy keeps its name (file(1) maps a magic database named *.mgc).
[ -z "$copy" ] || f=$w/mnt/$(basename "$copy")
bytes=$((size << 20))
if [ -n "$copy" ] && [ "$ekb" -gt 0 ]; then
	# The copy's bytes in extents: chunk k written at k * (e + 4096),
	# then the block after each cut out.
	bytes=$(stat -c %s "$copy")
	e=$((ekb * 1024)) n=$(((bytes + ekb * 1024 - 1) / (ekb * 1024)))
	# A block more: a collapse must end before EOF.
	fallocate -l $((n * (e + 4096) + 4096)) "$f"
	for ((k = 0; k < n; k++)); do
		dd if="$copy" of="$f" bs="$e" skip="$k" count=1 \
			seek=$((k * (e + 4096))) oflag=seek_bytes conv=notrunc \
			status=none
	done
	sync "$f"
	for ((k = n - 1; k >= 0; k--)); do
		fallocate --collapse-range -o $((k * (e + 4096) + e)) -l 4096 "$f"
	done
	truncate -s "$bytes" "$f"
	cmp -s "$copy" "$f" ||
		{ echo "record-app.sh: the copy in extents differs from $copy" >&2; exit 1; }
elif [ -n "$copy" ]; then
	cp "$copy" "$f"
	sync "$f"
elif [ "$ekb" -gt 0 ]; then
	e=$((ekb * 1024)) n=$(((bytes + ekb * 1024 - 1) / (ekb * 1024)))
	fallocate -l $((n * (e + 4096))) "$f"
	dd if=/dev/urandom of="$f" bs=1M count=$(((n * (e + 4096) >> 20) + 1)) \
		conv=notrunc,fsync status=none 2> /dev/null || true
	for ((k = n - 1; k >= 0; k--)); do
		fallocate --collapse-range -o $((k * (e + 4096) + e)) -l 4096 "$f"
	done
	truncate -s "$bytes" "$f"
elif [ -n "$holes$unwritten" ]; then
	# Data everywhere but the holes, written in file order.
	at=0
	while read -r ha hn; do
		if [ "$ha" -gt "$at" ]; then
			head -c $((ha - at)) /dev/urandom |
				dd of="$f" bs=64k seek="$at" oflag=seek_bytes conv=notrunc status=none
		fi
		at=$((ha + hn))
	done < <(ranges "$holes,$unwritten" | sort -n)
	if [ "$bytes" -gt "$at" ]; then
		head -c $((bytes - at)) /dev/urandom |
			dd of="$f" bs=64k seek="$at" oflag=seek_bytes conv=notrunc status=none
	fi
	truncate -s "$bytes" "$f"
	sync "$f"
	while read -r ha hn; do
		fallocate -o "$ha" -l "$hn" "$f"
	done < <(ranges "$unwritten")
else
	dd if=/dev/urandom of="$f" bs=1M count="$size" conv=fsync status=none
fi
while read -r ha hn; do
	fallocate --punch-hole -o "$ha" -l "$hn" "$f"
done < <(ranges "$punch")
while read -r ha hn; do
	fallocate --insert-range -o "$ha" -l "$hn" "$f"
done < <(ranges "$insert" | sort -n)
sync
# Each extent: first and last device sector, and the file sector it
# starts at (xfs_io: "N: [FILE_FIRST..FILE_LAST]: DEV_FIRST..DEV_LAST").
xfs_io -c "fiemap" "$f" | awk 'NR > 1 && $3 != "hole" {
	split($2, l, "\\.\\."); split($3, d, "\\.\\.")
	sub(/^\[/, "", l[1]); print d[1], d[2], l[1] }' > "$out/extents"
want=$([ "$ekb" -gt 0 ] && [ -z "$punch" ] && echo "$n" || echo 1)
got=$(wc -l < "$out/extents")
[ "$got" -ge "$want" ] ||
	{ echo "record-app.sh: the file has $got extents, not $want" >&2; exit 1; }
if [ -n "$remount" ]; then
	umount "$w/mnt"
	mount "$loop" "$w/mnt"
fi
xfs_io -c "fadvise -d 0 0" "$f"
[ "$(fincore -r -n -b -o RES "$f" 2> /dev/null || echo 0)" = 0 ] ||
	{ echo "record-app.sh: the file stayed in the page cache" >&2; exit 1; }

dev=$(cat "/sys/block/$(basename "$loop")/dev")
mkdir "$inst"
echo 0 > "$inst/tracing_on"
echo 65536 > "$inst/buffer_size_kb"
for ev in readahead/page_cache_sync_ra readahead/page_cache_async_ra \
	  readahead/page_cache_ra_order readahead/page_cache_ra_unbounded \
	  filemap/mm_filemap_add_to_page_cache block/block_rq_issue; do
	echo 1 > "$inst/events/$ev/enable"
done
args=()
for a in "$@"; do args+=("${a//@FILE/$f}"); done
# The program itself, and files named by absolute path in its arguments
# (a program ld.so is to run), are read whole first, unless one is the
# file: all in the page cache, cached=1 in the log (execve() reads and
# maps them, on another device than the one traced here).
prog=$(command -v "${args[0]}" || true)
[ -z "$prog" ] || [ "$prog" = "$f" ] || cat "$prog" > /dev/null
for a in "${args[@]:1}"; do
	[[ $a == /* ]] && [ "$a" != "$f" ] && [ -f "$a" ] && cat "$a" > /dev/null
done
rm -f "$out/app.strace"
if [ -n "$attach" ]; then
	# The program opens and maps the file, says "ready" and waits for a
	# byte on its stdin; 'ralab record -p' attaches, then it goes on.
	mkfifo "$w/go"
	"${args[@]}" < "$w/go" > "$w/ready" &
	app=$!
	exec 3> "$w/go"
	for _ in $(seq 200); do
		grep -q ready "$w/ready" 2> /dev/null && break
		kill -0 "$app" 2> /dev/null || break
		sleep 0.05
	done
	grep -q ready "$w/ready" ||
		{ echo "record-app.sh: $1 did not say ready" >&2; exec 3>&-; exit 1; }
	"$ralab" record -o "$out/app.strace" -p "$app" 2> "$w/record.err" &
	rec=$!
	for _ in $(seq 200); do
		grep -q "attached to process" "$w/record.err" && break
		kill -0 "$rec" 2> /dev/null || break
		sleep 0.05
	done
	grep -q "attached to process" "$w/record.err" ||
		{ echo "record-app.sh: ralab record -p did not attach: $(tail -n 2 "$w/record.err")" >&2; exec 3>&-; exit 1; }
	echo 1 > "$inst/tracing_on"
	printf g >&3
	exec 3>&-
	wait "$app" || { echo "record-app.sh: $1 failed" >&2; exit 1; }
	wait "$rec" || { echo "record-app.sh: ralab record -p failed: $(tail -n 2 "$w/record.err")" >&2; exit 1; }
else
	echo 1 > "$inst/tracing_on"
	"$ralab" record -o "$out/app.strace" -- "${args[@]}" > /dev/null
fi
echo 0 > "$inst/tracing_on"
mapping=$out/extents
if [ -n "$rewritten" ]; then
	# Reads go to the extents the file ends with; those of the file
	# before, where the program read them before truncating it to a
	# size other than 0 and the blocks were not reused, to those.
	mv "$out/extents" "$out/extents.before"
	sync "$f"
	xfs_io -c "fiemap" "$f" | awk 'NR > 1 && $3 != "hole" {
		split($2, l, "\\.\\."); split($3, d, "\\.\\.")
		sub(/^\[/, "", l[1]); print d[1], d[2], l[1] }' > "$out/extents"
	got=$(wc -l < "$out/extents")
	cat "$out/extents" "$out/extents.before" > "$w/extents.all"
	mapping=$w/extents.all
fi
lost=$(awk '/overrun:/ { s += $2 } END { print s + 0 }' "$inst"/per_cpu/cpu*/stats)
[ "$lost" = 0 ] || { echo "record-app.sh: the trace lost $lost events" >&2; exit 1; }
awk -v dev="$dev" -v ext="$mapping" -f "$here/trace-events.awk" \
	"$inst/trace" > "$out/kernel.events"
echo "record-app.sh: $(wc -l < "$out/kernel.events") events, $got extents; $out"
