# Sourced by tests/run.sh: fio job files.

# Input errors: FILE:LINE: message, exit 2, nothing on stdout.
# A fourth field names the file the message must name (an included one).
while IFS='|' read -r file line text where; do
	case "$file" in ''|'#'*) continue ;; esac
	f=tests/fio/errors/$file
	at=tests/fio/errors/${where:-$file}
	"$RALAB" sim "$f" > "$T/out" 2> "$T/err"; rc=$?
	msg=$(head -n 1 "$T/err")
	if [ $rc -ne 2 ] || [ -s "$T/out" ]; then bad "fio error $file" "exit $rc"
	elif [ "${msg#"$at:$line: "}" = "$msg" ]; then bad "fio error $file" "'$msg' does not start with '$at:$line: '"
	elif [ "${msg#*"$text"}" = "$msg" ]; then bad "fio error $file" "'$msg' lacks '$text'"
	else ok "fio error $file"; fi
done < tests/fio/errors/expected.txt

# ralab's table of fio 3.33's option names (src/workload/fio_names.c),
# which tells a typo from an option not modelled: where fio is installed,
# every option fio --cmdhelp=all lists is in it, and a name fio calls a
# "Bad option" is not.
grep -o '"[a-z0-9_-]*"' src/workload/fio_names.c | tr -d '"' | sort > "$T/names"
if command -v fio > /dev/null; then
	fio --cmdhelp=all 2>&1 | awk -F: '/^ *[a-z]/ { gsub(/ /, "", $1); print $1 }' | sort -u > "$T/fionames"
	printf '[j]\nfilename=x\nsiz=1m\n' > "$T/typo.fio"
	missing=$(comm -13 "$T/names" "$T/fionames" | tr '\n' ' ')
	if [ "$(wc -l < "$T/fionames")" -ge 200 ] && [ -z "$missing" ] &&
	   (cd "$T" && fio --parse-only typo.fio 2>&1) | grep -q 'Bad option <siz=1m>' &&
	   ! grep -qx siz "$T/names"; then
		ok "fio option names: fio --cmdhelp=all's $(wc -l < "$T/fionames") all known"
	else
		bad "fio option names" "missing: $missing"
	fi
else
	skip "fio option names against fio --cmdhelp=all" "fio is not installed (the names' table is still used)"
fi

# Seed 001's job file runs unchanged.  fio's default fadvise_hint makes it
# POSIX_FADV_SEQUENTIAL (ra_pages 64): 10 GiB in 40967 requests, mostly
# order-6 folios; without the hint it is the 4 KiB case recorded on the
# kernel (tests/cases/seed001-seq4k), scaled to 10 GiB.
"$RALAB" sim --dump-ops tests/fio/seed001-kara-2024.fio > "$T/ops"
if grep -qx 'fadvise 0 10737418240 sequential' "$T/ops" && grep -qx 'read 4096 2621440' "$T/ops"; then
	ok "fio seed001 understood"
else
	bad "fio seed001 understood" "$(cat "$T/ops")"
fi
"$RALAB" compare --policy linux-6.9 --policy linux-6.18 tests/fio/seed001-kara-2024.fio > "$T/cmp" &&
	[ "$(grep -c 'seed001-kara-2024.fio' "$T/cmp")" = 2 ] && ok "fio compare" || bad "fio compare" "$(cat "$T/cmp")"
# The seed-002 table's nine jobs all run.
n=0
for f in tests/fio/seed002-*.fio; do
	"$RALAB" sim "$f" > /dev/null && n=$((n + 1))
done
[ $n = 9 ] && ok "fio seed002 jobs" || bad "fio seed002 jobs" "$n of 9 ran"
# A job file and its --dump-ops text are the same workload.
"$RALAB" sim --dump-ops tests/fio/mixed-small.fio > "$T/mixed.ops"
# (Six jobs on the ideal device: ralab sim's note on stderr is expected.)
"$RALAB" sim tests/fio/mixed-small.fio 2> /dev/null | grep -v '^case=' > "$T/a"
"$RALAB" sim "$T/mixed.ops" 2> /dev/null | grep -v '^case=' > "$T/b"
cmp -s "$T/a" "$T/b" && ok "fio dump-ops equivalent" || bad "fio dump-ops equivalent" "$(diff "$T/a" "$T/b" | head)"

# fadvise_hint takes fio's values: 0 (none), 1 (as the workload), or an
# advice given whatever the workload.
printf '[job]\nrw=read\nsize=1m\nfadvise_hint=random\n' > "$T/fh.fio"
printf '[job]\nrw=read\nsize=1m\nfadvise_hint=0\n' > "$T/fh0.fio"
if "$RALAB" sim --dump-ops "$T/fh.fio" | grep -q '^fadvise 0 1048576 random$' &&
   ! "$RALAB" sim --dump-ops "$T/fh0.fio" | grep -v ' dontneed$' | grep -q '^fadvise 0 1048576'; then
	ok "fio fadvise_hint values"
else
	bad "fio fadvise_hint values" "$("$RALAB" sim --dump-ops "$T/fh.fio" | grep fadvise)"
fi

# rw and randrw write (tests/fio/rand/rw-*: fio's own order of reads,
# writes and syncs); end_fsync and fsync_on_close sync the written file
# at the end of each loop, and a read-only job never syncs.  fc.fio's
# first loop ends when a direction reaches the end of the file, which
# fio then closes (fsync_on_close: a sync), opens again to sync it (and
# syncs again as it closes it): 3; its second ends at the job's bytes,
# the file still open: 1 (tests/fio/real/sweep6-f01 on the kernel).
printf '[job]\nrw=randrw\nsize=1m\nend_fsync=1\n' > "$T/ef.fio"
printf '[job]\nrw=rw\nsize=1m\nloops=2\nfsync_on_close=1\n' > "$T/fc.fio"
printf '[job]\nrw=read\nsize=1m\nend_fsync=1\n' > "$T/er.fio"
if [ "$("$RALAB" sim --dump-ops "$T/ef.fio" | grep -v '^#' | tail -1)" = fsync ] &&
   [ "$("$RALAB" sim --dump-ops "$T/ef.fio" | grep -c '^pwrite ')" -gt 50 ] &&
   [ "$("$RALAB" sim --dump-ops "$T/fc.fio" | grep -c '^fsync$')" = 4 ] &&
   ! "$RALAB" sim --dump-ops "$T/er.fio" | grep -q '^fsync\|^pwrite'; then
	ok "fio writes, end_fsync, fsync_on_close"
else
	bad "fio writes, end_fsync, fsync_on_close" "$("$RALAB" sim --dump-ops "$T/fc.fio" | grep -v '^#' | grep -v pread | head)"
fi

# fio's aliases are the options they name: a job's blocksize= overrides
# [global]'s bs=, nr_files= is nrfiles=, fileoffset= is offset=.
printf '[global]\nbs=8k\nnrfiles=1\n[j]\nrw=read\nsize=64k\nblocksize=16k\nnr_files=2\nfileoffset=16k\nioengine=psync\n' > "$T/alias.fio"
out=$("$RALAB" sim --dump-ops "$T/alias.fio" | grep -c '^pread 16384 16384$')
[ "$out" = 2 ] && ok "fio option aliases" || bad "fio option aliases" "$("$RALAB" sim --dump-ops "$T/alias.fio" | grep -v '^#')"

# Options that change only what a write's buffer holds, its lifetime hint
# or fio's logs: the same I/O as without them (fio 3.33's own iologs
# agree, ioengine=null).
printf '[j]\nrw=randrw\nbs=8k\nsize=1m\n' > "$T/rep0.fio"
{ cat "$T/rep0.fio"; printf 'buffer_pattern=0xdeadbeef\ndedupe_percentage=30\nwrite_hint=short\nlog_entries=2048\nblock_error_percentiles=1\n'; } > "$T/rep.fio"
if "$RALAB" sim --dump-ops "$T/rep.fio" | grep -v '^#' > "$T/rep.ops" &&
   "$RALAB" sim --dump-ops "$T/rep0.fio" | grep -v '^#' | cmp -s - "$T/rep.ops" && [ -s "$T/rep.ops" ]; then
	ok "fio buffer-content and log options"
else
	bad "fio buffer-content and log options" "$("$RALAB" sim "$T/rep.fio" 2>&1 | head -2)"
fi

# Offset patterns, as fio's HOWTO and io_u.c define them.
# fiopat NAME OPTIONS...: write a one-job file, print its I/O ops.
fiopat() {
	local name=$1; shift
	printf '[job]\n' > "$T/$name.fio"
	printf '%s\n' "$@" >> "$T/$name.fio"
	"$RALAB" sim --dump-ops "$T/$name.fio" | grep -E '^(pread|stride-pread|seek|read) '
}
# rw=read:12k: 4 KiB reads 16 KiB apart; past the end of the 1 MiB file
# the offset wraps to its start, until size bytes are read: four times
# over (fio 3.33's own reads, tests/fio/rand/holes-*).
out=$(fiopat holes rw=read:12k bs=4k size=1m ioengine=psync)
[ "$out" = "$(printf 'stride-pread 0 4096 16384 64\n%.0s' 1 2 3 4)" ] && ok "fio rw=read:N holes" ||
	bad "fio rw=read:N holes" "$out"
# rw=read:-8k: a read at 0, then backwards from the end, 4 KiB at a time.
# (fio's reads: 0, 56k, 52k, ... 4k, 0; tests/fio/rand/back-*.)
out=$(fiopat back rw=read:-8k bs=4k size=64k ioengine=psync)
[ "$out" = "$(printf 'stride-pread 0 4096 57344 2\nstride-pread 53248 4096 -4096 14')" ] &&
	ok "fio rw=read:-N backwards" || bad "fio rw=read:-N backwards" "$out"
# zonemode=strided: 1 MiB of each 4 MiB (zonesize 1m, zoneskip 3m), 64 MiB
# in all, so the 16 zones of the file are read four times over (fio wraps
# at the end of the file; t/strided.py in fio checks the same walk).
out=$(fiopat strided rw=read bs=64k size=64m zonemode=strided zonesize=1m zoneskip=3m ioengine=psync |
	awk '{ printf "%s/%s/%s ", $2, $4, $5 }')
want=$(for i in $(seq 0 63); do printf '%s/65536/16 ' $(( (i % 16) * 4194304 )); done)
[ "$out" = "$want" ] && ok "fio zonemode=strided" || bad "fio zonemode=strided" "$out"
# zonerange 1m > zonesize 256k: the first 256 KiB of each MiB.
out=$(fiopat zr rw=read bs=64k size=4m zonemode=strided zonesize=256k zonerange=1m ioengine=psync |
	awk '{ printf "%s/%s ", $2, $5 }')
want=$(for i in $(seq 0 15); do printf '%s/4 ' $(( (i % 4) * 1048576 )); done)
[ "$out" = "$want" ] && ok "fio strided zonerange > zonesize" || bad "fio strided zonerange > zonesize" "$out"
# zonesize 2m > zonerange 1m: each zone twice before the next.
out=$(fiopat zs rw=read bs=64k size=4m zonemode=strided zonesize=2m zonerange=1m ioengine=psync |
	awk '{ printf "%s/%s ", $2, $5 }')
# (0-1m, 0-1m, 1m-2m, 1m-2m; the middle two are contiguous: one op)
want="0/16 0/32 1048576/16 "
[ "$out" = "$want" ] && ok "fio strided zonesize > zonerange" || bad "fio strided zonesize > zonerange" "$out"
# rw=randread:4: a new random offset every 4 I/Os, the others follow on.
# (At the end of the file the next one is random again, as in fio.)
offsets() { # the offsets of pread and stride-pread ops, one per line
	awk '$1 == "pread" { print $2 } $1 == "stride-pread" {
		st = $4 ~ /^-/ ? -substr($4, 2) : $4
		for (i = 0; i < $5; i++) print $2 + i * st }'
}
out=$(fiopat r4 rw=randread:4 bs=4k size=1m ioengine=psync | offsets)
if echo "$out" | awk 'NR % 4 != 1 && prev + 4096 < 1048576 && $1 != prev + 4096 { bad = 1 }
	NR % 4 == 1 && $1 % 4096 { bad = 1 } { prev = $1 } END { exit bad || NR != 256 }'; then
	ok "fio rw=randread:N"
else bad "fio rw=randread:N" "$(echo "$out" | head)"; fi
# rw_sequencer=identical: each random offset read 4 times.
out=$(fiopat r4i rw=randread:4 rw_sequencer=identical bs=4k size=1m ioengine=psync)
if echo "$out" | awk '$1 != "stride-pread" || $4 != 0 || $5 != 4 { bad = 1 } END { exit bad || NR != 64 }'; then
	ok "fio rw_sequencer=identical"
else bad "fio rw_sequencer=identical" "$(echo "$out" | head)"; fi
# percentage_random: 0 is sequential, 100 is fio's default, 50 is a mix.
out=$(fiopat p0 rw=randread percentage_random=0 bs=4k size=1m)
[ "$out" = "$(printf 'seek 0\nread 4096 256')" ] && ok "fio percentage_random=0" ||
	bad "fio percentage_random=0" "$out"
[ "$(fiopat p100 rw=randread percentage_random=100 bs=4k size=1m)" = \
  "$(fiopat pdef rw=randread bs=4k size=1m)" ] && ok "fio percentage_random=100" ||
	bad "fio percentage_random=100" "differs from plain randread"
# With 50, about half the I/Os follow the one before (4 KiB on).
out=$(fiopat p50 rw=randread percentage_random=50 bs=4k size=1m ioengine=psync)
seq=$(echo "$out" | awk '$1 == "stride-pread" && $4 == 4096 { s += $5 - 1 } $1 == "stride-pread" { n += $5 } $1 == "pread" { n++ }
	END { print (n == 256 && s >= 90 && s <= 166) ? "ok" : n "/" s }')
[ "$seq" = ok ] && ok "fio percentage_random=50" || bad "fio percentage_random=50" "I/Os/sequential: $seq"
[ "$(fiopat p50 rw=randread percentage_random=50 bs=4k size=1m ioengine=psync)" = "$out" ] &&
	ok "fio patterns deterministic" || bad "fio patterns deterministic" "two runs differ"
# Five pattern jobs were expanded and recorded on the kernel
# (tests/cases/fio-*, checked with the other recorded cases); their job
# files, kept in the cases' comments, must still expand to those ops.
for d in tests/cases/fio-*/; do
	sed -n 's/^#   //p' "$d/case.ops" > "$T/job.fio"
	"$RALAB" sim --dump-ops "$T/job.fio" | grep -v -e '^job ' -e '^# generated' -e '^# files' > "$T/job.ops"
	grep -v -e '^#' "$d/case.ops" > "$T/rec.ops"
	grep -v -e '^#' "$T/job.ops" | cmp -s - "$T/rec.ops" && ok "fio expands as recorded: $(basename "$d")" ||
		bad "fio expands as recorded: $(basename "$d")" "$(grep -v '^#' "$T/job.ops" | diff - "$T/rec.ops" | head -5)"
done
# loops: fio closes the files after each loop and opens them again for the
# next (clear_io_state, td_io_open_file), so every pass starts on a new
# descriptor (fresh readahead state), invalidated and advised again, each
# at its first I/O of the loop (get_next_file() opens it then).
printf '[j]\nrw=read\nbs=4k\nfilesize=1m\nnrfiles=2\nloops=3\nfile_service_type=sequential\n' > "$T/loops.fio"
out=$("$RALAB" sim --dump-ops "$T/loops.fio" | grep -E '^(close|open|fadvise|file|fd|seek)' | tr '\n' '/')
hint='fadvise 0 1048576 dontneed/fadvise 0 1048576 sequential/'
want="close/open/${hint}file j.0.1 1048576/${hint}fd 1/seek 0/fd 2/seek 0/"
want="${want}fd 1/close/open main/fd 2/close/open j.0.1/fd 3/${hint}seek 0/fd 4/${hint}seek 0/"
want="${want}fd 3/close/open main/fd 4/close/open j.0.1/fd 5/${hint}seek 0/fd 6/${hint}seek 0/"
[ "$out" = "$want" ] && ok "fio loops reopen the files" || bad "fio loops reopen the files" "$out"
# runtime (seconds unless a unit says otherwise) and time_based: the job
# stops at its runtime; time_based repeats it.  With one file, fio starts
# it again on the same descriptor after invalidating the cache (no
# close, so the readahead state goes on); with several, it closes and
# opens them again when all are done, as its loops do.
printf '[j]\nrw=read\nbs=4k\nsize=8m\nruntime=50ms\ntime_based\n' > "$T/tb.fio"
out=$("$RALAB" sim --dump-ops "$T/tb.fio" | sed -n '/^runtime/,$p' | grep -v '^fadvise 0 8388608 sequential' | tr '\n' '/')
want="runtime 50000/close/open/fadvise 0 8388608 dontneed/fd 1/seek 0/read 4096 2048/repeat/fadvise 0 8388608 dontneed/fd 1/seek 0/read 4096 2048/"
[ "$out" = "$want" ] && ok "fio time_based, one file" || bad "fio time_based, one file" "$out"
printf '[j]\nrw=read\nbs=4k\nsize=8m\nnrfiles=2\nruntime=50ms\ntime_based\n' > "$T/tb2.fio"
out=$("$RALAB" sim --dump-ops "$T/tb2.fio" | sed -n '/^repeat/,$p' | grep -E '^(repeat|close|open)' | tr '\n' '/')
[ "$out" = "repeat/close/open main/close/open j.0.1/" ] && ok "fio time_based, two files" || bad "fio time_based, two files" "$out"
got=
for rt in 2 1m 250ms 7us 3H; do
	printf '[j]\nrw=read\nsize=1m\nruntime=%s\n' "$rt" > "$T/rt.fio"
	got="$got $("$RALAB" sim --dump-ops "$T/rt.fio" | sed -n 's/^runtime //p')"
done
[ "$got" = " 2000000 60000000 250000 7 10800000000" ] && ok "fio runtime units" ||
	bad "fio runtime units" "$got"
# On the loop device model, 50 ms of an 8 MiB file re-read: 50 ms, and
# more than the file.
"$RALAB" sim --set device=loop "$T/tb.fio" > "$T/tb.out"
if awk -F= '$1 == "elapsed_us" { e = $2 } $1 == "bytes_read" { b = $2 }
	END { exit !(e >= 50000 && e < 51000 && b > 8388608) }' "$T/tb.out"; then
	ok "fio time_based runs for its runtime"
else bad "fio time_based runs for its runtime" "$(grep -E '^(elapsed_us|bytes_read)' "$T/tb.out")"; fi
printf '[j]\nrw=read\nsize=1m\nstartdelay=2ms\n' > "$T/sd.fio"
"$RALAB" sim --dump-ops "$T/sd.fio" | grep -qx 'delay 2000' && ok "fio startdelay" ||
	bad "fio startdelay" "$("$RALAB" sim --dump-ops "$T/sd.fio" | head -8)"
printf '[global]\nrw=read\nsize=4m\n[bg]\n[fg]\nexitall\n' > "$T/ea.fio"
[ "$("$RALAB" sim --dump-ops "$T/ea.fio" | grep -A1 -x 'job fg.0' | tail -n 1)" = exitall ] &&
	ok "fio exitall" || bad "fio exitall" "$("$RALAB" sim --dump-ops "$T/ea.fio" | grep -A2 '^job')"
# ramp_time: a timed job runs for its ramp and then its runtime.
printf '[j]\nrw=read\nsize=1m\nruntime=2\nramp_time=500ms\n' > "$T/rp.fio"
"$RALAB" sim --dump-ops "$T/rp.fio" | grep -qx 'runtime 2500000' && ok "fio ramp_time" ||
	bad "fio ramp_time" "$("$RALAB" sim --dump-ops "$T/rp.fio" | grep runtime)"
# rate / rate_iops: the reads' value (the first of READ,WRITE,TRIM).
printf '[j]\nrw=read\nsize=1m\nrate=1m,2m\nrate_iops=300\n' > "$T/rate.fio"
[ "$("$RALAB" sim --dump-ops "$T/rate.fio" | grep '^rate' | tr '\n' /)" = "rate-iops 300/rate 1048576/" ] &&
	ok "fio rate" || bad "fio rate" "$("$RALAB" sim --dump-ops "$T/rate.fio" | grep '^rate')"

# Test $1: job files $2 and $3 are read as the same .ops.
same_ops() {
	if [ "$("$RALAB" sim --dump-ops "$2" | grep -v '^#')" = \
	     "$("$RALAB" sim --dump-ops "$3" | grep -v '^#')" ]; then
		ok "$1"
	else bad "$1" "$("$RALAB" sim --dump-ops "$2" 2>&1 | head -3)"; fi
}

# Options that leave buffered reads as they are run as the job without
# them: the same .ops.
printf '[j]\nrw=randread\nbs=4k\nsize=1m\n' > "$T/plain.fio"
printf '[j]\nrw=randread\nbs=4k\nsize=1m\nzero_buffers\nsync=1\niodepth_batch_submit=8\nstats=0\npre_read=0\nlockfile=none\n' > "$T/quiet.fio"
same_ops "fio options that leave reads alone" "$T/quiet.fio" "$T/plain.fio"
# size_increment is in fio's HOWTO but not in fio 3.33, which drops the
# job ("Did you mean offset_increment?"): an error here too.
printf '[j]\nrw=read\nsize=1m\nsize_increment=128k\n' > "$T/sinc.fio"
"$RALAB" sim "$T/sinc.fio" > /dev/null 2> "$T/sinc.err"; rc=$?
if [ $rc -eq 2 ] &&
   grep -q "sinc.fio:4: 'size_increment' is not an option of fio 3.33" "$T/sinc.err"; then
	ok "fio size_increment: not an option of fio 3.33"
else bad "fio size_increment: not an option of fio 3.33" "$(cat "$T/sinc.err")"; fi

# fio 3.33 ends a line at its first '#' or ';' (fio --showcmd of this
# file: --name=j --rw=randread --bs=4k --size=1m --numjobs=2): inline
# comments, also after a section name.
printf '[j]\nrw=randread\nbs=4k\nsize=1m\nnumjobs=2\n' > "$T/plain2.fio"
printf '[j] ; the job\nrw=randread # random\nbs=4k;x\nsize=1m\t; 1 MiB\nnumjobs=2\t# two\n' > "$T/icomm.fio"
same_ops "fio inline comments" "$T/icomm.fio" "$T/plain2.fio"

# Sizes as fio 3.33 reads them (fio --output-format=terse, one I/O of
# bs, for each): "iB" counts in the other base, kb_base=1000 turns both
# around, p is 2^50, 0x is hex.  tests/fio/real/kib-units is recorded.
for t in 1024:4k:4096 1024:4kib:4000 1024:4KiB:4000 1024:4kb:4096 1024:1mib:1000000 \
	 1024:2Ki:2048 1024:0x1000:4096 1000:4k:4000 1000:4KiB:4096 1000:1m:1000000 \
	 1000:1MiB:1048576 1000:2Ki:2000; do
	IFS=: read -r kb v want <<< "$t"
	printf '[z]\nkb_base=%s\nsize=1g\nbs=%s\nrw=read\nnumber_ios=1\n' "$kb" "$v" > "$T/kb.fio"
	got=$("$RALAB" sim --dump-ops "$T/kb.fio" 2>&1 | grep -m1 '^read')
	[ "$got" = "read $want 1" ] && ok "fio size $v with kb_base=$kb" ||
		bad "fio size $v with kb_base=$kb" "$got, want read $want 1"
done
# Counts too (fio: numjobs=0x2 is 2 jobs, number_ios=1k 1024 I/Os).
printf '[z]\nsize=64m\nbs=4k\nrw=randread\nnumjobs=0x2\nnumber_ios=1k\n' > "$T/kb.fio"
[ "$("$RALAB" sim "$T/kb.fio" 2>/dev/null | grep '^bytes_read=')" = "bytes_read=8388608" ] &&
	ok "fio counts with a unit or in hex" ||
	bad "fio counts with a unit or in hex" "$("$RALAB" sim "$T/kb.fio" 2>&1 | grep -m1 -E 'bytes_read|fio')"
printf '[global]\nbs=4k\n[z]\nsize=1g\nkb_base=1000\nrw=read\nnumber_ios=1\n' > "$T/kb.fio"
[ "$("$RALAB" sim --dump-ops "$T/kb.fio" | grep -m1 '^read')" = "read 4096 1" ] &&
	ok "fio kb_base of a job leaves [global]'s sizes" ||
	bad "fio kb_base of a job leaves [global]'s sizes" "$("$RALAB" sim --dump-ops "$T/kb.fio" 2>&1 | grep -m1 -v '^#')"

# bssplit whose only sizes with a share cannot fit: fio itself spins
# drawing sizes; ralab ends the file (a fuzzer found the hang).
if out=$(timeout 20 "$RALAB" sim fuzz/corpus/fio-fixed-hang-bssplit.fio 2>&1) &&
   echo "$out" | grep -qx 'bytes_read=618496'; then
	ok "fio bssplit that cannot fit ends"
else bad "fio bssplit that cannot fit ends" "$(echo "$out" | tail -3)"; fi

# wait_for names a job as fio does (name=, else its section), each of its
# clones; its own name or one no job has holds nothing (fio's
# waitee_running()).
printf '[global]\nrw=read\nsize=1m\n[x]\nname=loader\nnumjobs=2\n[y]\nwait_for=loader\n[z]\nwait_for=z\n[w]\nwait_for=nobody\n' > "$T/wf.fio"
if "$RALAB" sim --dump-ops "$T/wf.fio" > "$T/wf.ops" 2> "$T/err" &&
   [ "$(grep -c '^wait-for' "$T/wf.ops")" = 1 ] && grep -qx 'wait-for x.0 x.1' "$T/wf.ops" &&
   grep -q '^# wait_for=z names the job itself' "$T/wf.ops" &&
   grep -q '^# wait_for=nobody: no job has that name' "$T/wf.ops"; then
	ok "fio wait_for: by name=, every clone; itself or no job: no wait"
else bad "fio wait_for: by name=, every clone; itself or no job: no wait" "$(cat "$T/err"; grep wait "$T/wf.ops")"; fi

# exitall is global in fio (str_exitall_cb() sets exitall_on_terminate):
# with it on [a] only, [b]'s end stops [a].  fio 3.33 on this job
# (2026-12-02, psync): a read 1241088 bytes in 305 ms, b 1 MiB in 300 ms.
printf '[a]\nfilename=a.dat\nrw=read\nbs=4k\nsize=16m\nrate_iops=1000\nexitall\n[b]\nfilename=b.dat\nrw=read\nbs=64k\nsize=1m\nrate_iops=50\n' > "$T/ea.fio"
"$RALAB" sim --set device=loop "$T/ea.fio" > "$T/ea.out" 2> "$T/err"
if awk -v a="$(sed -n 's/^job\.a\.0\.elapsed_us=//p' "$T/ea.out")" 'BEGIN { exit !(a >= 300000 && a < 310000) }' &&
   awk -v b="$(sed -n 's/^bytes_read=//p' "$T/ea.out")" 'BEGIN { exit !(b > 1048576 + 1200000 && b < 1048576 + 1300000) }'; then
	ok "fio exitall on one job: any job's end stops the others"
else bad "fio exitall on one job: any job's end stops the others" "$(cat "$T/err"; grep -E '^(bytes_read|job\..*elapsed)' "$T/ea.out")"; fi

# A time_based job on the default device (I/O takes no time) is bound by
# CPU costs alone: a note says so (fio's own fio-seq-read.fio example,
# runtime=900, makes about 250 million reads there); with a device that
# takes time, none.
printf '[j]\nrw=read\nbs=1m\nsize=64m\ntime_based\nruntime=1\n' > "$T/tb.fio"
"$RALAB" sim "$T/tb.fio" > /dev/null 2> "$T/tb.err"
"$RALAB" sim --set device=loop "$T/tb.fio" > /dev/null 2> "$T/tb2.err"
if grep -q 'note: a job repeats its reads for 1 s (time_based) on a device whose I/O takes no time' "$T/tb.err" &&
   ! grep -q 'repeats its reads' "$T/tb2.err"; then
	ok "time_based on a device that takes no time: a note"
else bad "time_based on a device that takes no time: a note" "$(cat "$T/tb.err" "$T/tb2.err")"; fi

# exit_what (fio 3.33 on these three, 2026-12-02, psync; bytes read by
# a, c, d): all, a:1048576 c:1228800 d:0 (d, a later group, never
# starts); stonewall, a:1048576 c:1241088 d:1048576 (the jobs running
# stop, d runs); group (the default), a:1048576 c:1232896 d:1048576.
printf '[a]\nfilename=a.dat\nrw=read\nbs=64k\nsize=1m\nrate_iops=50\nexitall\nexit_what=all\n[c]\nfilename=c.dat\nrw=read\nbs=4k\nsize=16m\nrate_iops=1000\n[d]\nstonewall\nfilename=d.dat\nrw=read\nbs=64k\nsize=1m\n' > "$T/ew.fio"
for w in all stonewall group; do
	sed "s/exit_what=all/exit_what=$w/" "$T/ew.fio" > "$T/ew-$w.fio"
	"$RALAB" sim --set device=loop "$T/ew-$w.fio" > "$T/ew-$w.out" 2> "$T/err"
done
b() { sed -n 's/^bytes_read=//p' "$T/ew-$1.out"; }
if [ "$(b all)" -gt 2200000 ] && [ "$(b all)" -lt 2300000 ] &&
   [ "$(b stonewall)" -gt $(($(b all) + 1048575)) ] && [ "$(b group)" = "$(b stonewall)" ] &&
   grep -qx 'job.d.0.elapsed_us=0.0' "$T/ew-all.out"; then
	ok "fio exit_what: all, stonewall, group"
else bad "fio exit_what: all, stonewall, group" "$(cat "$T/err") all=$(b all) stonewall=$(b stonewall) group=$(b group)"; fi

# A reading job's verify options change what fio checks in its buffers
# (verify=null pretends to check), io_submit_mode=inline is fio's
# default: the same reads.
printf '[j]\nrw=read\nsize=1m\nbs=64k\n' > "$T/nv.fio"
printf '[j]\nrw=read\nsize=1m\nbs=64k\nverify=null\nverify_pattern=0xaa555aa5\nverify_interval=512\nverify_backlog=16\nio_submit_mode=inline\n' > "$T/v.fio"
if "$RALAB" sim --dump-ops "$T/v.fio" 2> "$T/err" | grep -v '^#' > "$T/v.ops" && [ -s "$T/v.ops" ] &&
   "$RALAB" sim --dump-ops "$T/nv.fio" | grep -v '^#' | cmp -s - "$T/v.ops"; then
	ok "fio verify options of a reading job, io_submit_mode=inline: the same reads"
else bad "fio verify options of a reading job, io_submit_mode=inline: the same reads" "$(cat "$T/err")"; fi

# fio_files: where a later job lays a file out again, larger, fio's I/Os
# depend on whether the files existed before the run.  Unsaid, such a job
# is refused, naming the option; every command that reads cases takes it
# (--set fio_files=fresh|existing); the two make different I/Os (fio's
# own, tests/fio/rand/relaid-*; on the kernel, tests/fio/real/relaid-*).
j=tests/fio/rand/relaid-randread-seq-fresh.fio
expect_rc "fio_files unsaid refused" 2 "$RALAB" sim "$j"
grep -q 'say which with --set fio_files=fresh' "$T/err" ||
	bad "fio_files unsaid message" "$(head -c 300 "$T/err")"
expect_rc "fio_files bad value" 2 "$RALAB" sim --set fio_files=old "$j"
grep -q 'fio_files=old: fresh' "$T/err" ||
	bad "fio_files bad value message" "$(head -c 300 "$T/err")"
expect_rc "fio_files sim" 0 "$RALAB" sim --set fio_files=fresh "$j"
expect_rc "fio_files dump" 0 "$RALAB" dump --set fio_files=existing "$j"
expect_rc "fio_files compare" 0 "$RALAB" compare --set fio_files=fresh --set read_ahead_kb=64,128 "$j"
expect_rc "fio_files tune" 0 "$RALAB" tune --set fio_files=existing "$j"
expect_rc "fio_files report" 0 "$RALAB" report --html "$T/ff.html" --set fio_files=fresh "$j"
"$RALAB" sim --set fio_files=fresh --dump-ops "$j" > "$T/ff.fresh" 2>&1
"$RALAB" sim --set fio_files=existing --dump-ops "$j" > "$T/ff.existing" 2>&1
if cmp -s "$T/ff.fresh" "$T/ff.existing" || ! grep -q stride-pread "$T/ff.fresh"; then
	bad "fio_files fresh and existing differ" "the same ops"
else
	ok "fio_files fresh and existing differ"
fi
# existing: a sequential job's last block fits one of its files (which a
# later job made larger) and not the other: refused.
expect_rc "fio_files existing, uneven last block" 2 "$RALAB" sim --set fio_files=existing tests/fio/errors/relaid-uneven-last-block.fio
grep -q 'over existing files (fio_files=existing), its last block of a file reaches past the end of some' "$T/err" ||
	bad "fio_files existing, uneven last block: message" "$(head -c 300 "$T/err")"
expect_rc "fio_files fresh, uneven last block" 0 "$RALAB" sim --set fio_files=fresh tests/fio/errors/relaid-uneven-last-block.fio
# The mmap engine: a last read that crosses its share's end in a file
# that goes on is copied into the mapping's last page (fuzz_fio found the
# model making a copy outside every mapping; tests/fio/*/*mmap*-last-page);
# past that page fio dies of SIGSEGV, and ralab refuses the job.
expect_rc "fio_files existing, mmap into the last page" 0 "$RALAB" sim --set fio_files=existing tests/fio/errors/relaid-mmap-existing.fio
expect_rc "fio mmap past the last page" 2 "$RALAB" sim --set fio_files=existing tests/fio/errors/relaid-mmap-segv.fio
grep -q 'fio 3.33 dies of SIGSEGV there' "$T/err" ||
	bad "fio mmap past the last page: message" "$(head -c 300 "$T/err")"

# fio itself on the kernel: tests/fio/real/*.fio were run with fio 3.33 on
# Linux 6.18.44 (tests/tools/record-fio.sh: loop device, XFS, read_ahead_kb
# 128, max_sectors_kb 512) and their events recorded.  What ralab makes of
# the job file must reproduce them: in order (random jobs too: ralab draws
# fio's offsets, src/workload/fio_rand.c), or, for jobs marked
# '; compare: multiset' (concurrent ones), as a multiset without prev_pos
# (the offset of the read before); io_uring's reads in order without
# prev_pos ('; compare: without prev_pos': a read that waited moves it
# early).
# fio_events_match LABEL A B ERR: the events A (ralab) are those of B
# (the kernel, not empty); else the error output ERR and a diff.
fio_events_match() {
	if [ -s "$3" ] && cmp -s "$2" "$3"; then
		ok "$1"
	else
		bad "$1" "$(cat "$4"; diff "$3" "$2" | head -6)"
	fi
}

# real_events LABEL CASE JOB: the events of CASE (a job file or a fio
# command line) against those recorded for job file JOB, whose
# '; set: K=V ...' gives the model what the recording machine was (its
# memcpy) and '; compare:' how to compare.  fio's own runs were recorded
# without job= fields.
real_events() {
	local n=${3%.fio} sets=() kv
	for kv in $(sed -n 's/^; set: //p' "$3"); do sets+=(--set "$kv"); done
	"$RALAB" sim "${sets[@]}" --trace "$2" 2> "$T/real.err" | grep -E '^(page_cache|mm_filemap|block_rq)' |
		sed 's/ job=[^ ]*$//' > "$T/real.sim"
	zcat "$n.events.gz" > "$T/real.k"
	if grep -q '^; compare: multiset' "$3"; then
		sed 's/ prev_pos=[-0-9]*//' "$T/real.sim" | sort > "$T/real.a"
		sed 's/ prev_pos=[-0-9]*//' "$T/real.k" | sort > "$T/real.b"
	elif grep -q '^; compare: without prev_pos' "$3"; then
		sed 's/ prev_pos=[-0-9]*//' "$T/real.sim" > "$T/real.a"
		sed 's/ prev_pos=[-0-9]*//' "$T/real.k" > "$T/real.b"
	else
		cp "$T/real.sim" "$T/real.a"; cp "$T/real.k" "$T/real.b"
	fi
	fio_events_match "$1" "$T/real.a" "$T/real.b" "$T/real.err"
}

nreal=0
for f in tests/fio/real/*.fio; do
	nreal=$((nreal + 1))
	real_events "fio itself: $(basename "$f" .fio)" "$f" "$f"
done
[ $nreal -ge 694 ] || bad "fio itself" "only $nreal recorded fio jobs in tests/fio/real"

# A fio command line (ralab sim 'fio --name=a --rw=read ...'): fio 3.33
# reads it as a job file whose options before the first --name are
# [global]'s.  tests/fio/cmdline.txt has fio's own command line for each
# recorded job file (fio --showcmd); each must make the workload of the
# job file, op for op (ralab sim --dump-ops: a fio job file or command
# line becomes .ops text, which alone makes the workload), whose events
# are the kernel's (above).  Where fio is installed, the lines are
# checked to be what fio --showcmd still writes.
ncmd=0
while IFS='|' read -r name cmd; do
	case "$name" in ''|'#'*) continue ;; esac
	ncmd=$((ncmd + 1))
	"$RALAB" sim --dump-ops "$cmd" < /dev/null > "$T/cmd.a" 2> "$T/cmd.err"; rc=$?
	"$RALAB" sim --dump-ops "tests/fio/real/$name.fio" > "$T/cmd.b" 2>> "$T/cmd.err"
	if [ $rc = 0 ] && grep -q '^job\|^[a-z]' "$T/cmd.b" &&
	   cmp -s <(grep -v '^# generated by ralab from ' "$T/cmd.a") \
		  <(grep -v '^# generated by ralab from ' "$T/cmd.b"); then
		ok "fio command line: $name"
	else
		bad "fio command line: $name" "$(cat "$T/cmd.err"; diff "$T/cmd.b" "$T/cmd.a" | grep -v 'generated by ralab' | head -6)"
	fi
done < tests/fio/cmdline.txt
[ $ncmd -ge 155 ] || bad "fio command lines" "only $ncmd in tests/fio/cmdline.txt"
if command -v fio > /dev/null; then
	# One fio for all the job files (fio takes 0.15 s to start): a line
	# for each, in their order.
	grep -v '^#' tests/fio/cmdline.txt | grep . > "$T/show.want"
	# shellcheck disable=SC2046 # one word per job file
	fio --showcmd $(cut -d'|' -f1 "$T/show.want" | sed 's|.*|tests/fio/real/&.fio|') 2> /dev/null |
		sed 's/ *$//' | paste -d'|' <(cut -d'|' -f1 "$T/show.want") - > "$T/show.got"
	if [ "$(wc -l < "$T/show.want")" = $ncmd ] && cmp -s "$T/show.want" "$T/show.got"; then
		ok "fio command lines are fio --showcmd's"
	else
		bad "fio command lines are fio --showcmd's" "$(diff "$T/show.want" "$T/show.got" | head -4)"
	fi
else
	skip "fio command lines are fio --showcmd's" "fio is not installed (the recorded lines are still checked)"
fi
# The same lines in getopt_long_only()'s other spellings, as blog posts
# write them: "-bs=4k" and "-size 16m" / "--size 16m" (a value in the next
# word for every option that needs one; fio 3.33's flag options, such as
# --group_reporting, take none).  Each must make the ops of the original
# line, whose events are the kernel's; where fio is installed, fio must
# parse it to the same options
# (fio --parse-only --debug=parse lists each option and value it handles).
noval=" bs_unaligned exitall exitall_on_error group_reporting new_group norandommap refill_buffers stonewall thread time_based verify_only zero_buffers showcmd userspace_reap hipri fixedbufs registerfiles sqthread_poll "
alt_spelling() {
	local w i=0 d k v out=
	set -f
	for w in $1; do
		i=$((i + 1)); d=--; [ $((i % 2)) = 0 ] && d=-
		case "$w" in
		--*=*)	k=${w%%=*}; k=${k#--}; v=${w#*=}
			case "$noval" in
			*" $k "*) out="$out $d${w#--}" ;;
			*) if [ -n "$v" ]; then out="$out $d$k $v"; else out="$out $d${w#--}"; fi ;;
			esac ;;
		--*)	out="$out $d${w#--}" ;;
		*)	out="$out $w" ;;
		esac
	done
	set +f
	printf '%s\n' "${out# }"
}
nalt=0 nfio=0 fdiffer=
while IFS='|' read -r name cmd; do
	case "$name" in ''|'#'*) continue ;; esac
	alt=$(alt_spelling "$cmd")
	[ "$alt" != "$cmd" ] || continue
	nalt=$((nalt + 1))
	# The original line makes the recorded events (above): the same ops.
	"$RALAB" sim --dump-ops "$cmd" > "$T/alt.a" 2>&1
	"$RALAB" sim --dump-ops "$alt" > "$T/alt.b" 2>&1
	if [ -s "$T/alt.a" ] && cmp -s "$T/alt.a" "$T/alt.b"; then
		ok "fio command line, other spelling: $name"
	else
		bad "fio command line, other spelling: $name" "$alt: $(diff "$T/alt.a" "$T/alt.b" | head -4)"
	fi
	# fio takes 0.2 s to start: every 8th line is enough to keep the
	# spellings honest.
	if command -v fio > /dev/null && [ $((nalt % 8)) = 1 ]; then
		nfio=$((nfio + 1))
		set -f
		# shellcheck disable=SC2086 # the words, as the shell splits them
		a=$(cd "$T" && fio --parse-only --debug=parse ${cmd#fio } 2>&1 | sed 's/^parse *[0-9]* *//')
		# shellcheck disable=SC2086
		b=$(cd "$T" && fio --parse-only --debug=parse ${alt#fio } 2>&1 | sed 's/^parse *[0-9]* *//')
		set +f
		# What differed, for the message.  (fio pads a pid below 10000
		# with one more space: the sed takes any number.)
		[ -n "$a" ] && [ "$a" = "$b" ] ||
			fdiffer="$fdiffer $name [$(diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -4 | tr '\n' ' ')]"
	fi
done < tests/fio/cmdline.txt
[ $nalt -ge 150 ] || bad "fio command lines, other spelling" "only $nalt"
if command -v fio > /dev/null; then
	[ -z "$fdiffer" ] && [ $nfio -ge 19 ] && ok "fio parses the other spellings as the originals" ||
		bad "fio parses the other spellings as the originals" "$nfio checked, differ:$fdiffer"
else
	skip "fio parses the other spellings as the originals" "fio is not installed (ralab's events of them are still checked)"
fi
# Errors name the word by its position; fio's own options that change
# only its output are left out; a word that is no option is refused.
while IFS='|' read -r cmd word text; do
	"$RALAB" sim "$cmd" > "$T/out" 2> "$T/err"; rc=$?
	msg=$(head -n 1 "$T/err")
	if [ $rc -ne 2 ] || [ -s "$T/out" ]; then bad "fio command line error: $cmd" "exit $rc $msg"
	elif [ "${msg#"fio command line:$word: "}" = "$msg" ] || [ "${msg#*"$text"}" = "$msg" ]; then
		bad "fio command line error: $cmd" "'$msg': want 'fio command line:$word: ...$text'"
	else ok "fio command line error: $cmd"; fi
done <<'EOF2'
fio --rw=read --size=1m|1|no job section
fio --name=a --rw=read --size=1m --bs=1x|5|bs: '1x' is not a size
fio --name=a --rw=read --size=1m --bs=$pagesize|5|bs: '$pagesize' is not a size
fio --name=a --rw=read --size=1m no-such-job.fio|5|job file 'no-such-job.fio': No such file or directory
fio --bs=8k tests/fio|3|job file 'tests/fio': not a regular file
fio tests/fio/seed002-seqread-4k-sync.fio tests/fio/seed002-seqread-4k-libaio.fio|3|one job file at most
fio --output=x no-such-job.fio|3|job file 'no-such-job.fio': No such file or directory
fio --name=a --rw=read --size=1m -- x|5|'--': one job file at most, and no '--'
fio --name=a --rw=read --size=1m --direct|5|--direct needs a value (fio: "option requires an argument")
fio --name=a --direct --rw=read --size=1m|3|direct must be 0 or 1, not '--rw=read'
fio --name=a --rw=read --size=1m --bs|5|--bs needs a value
fio --name=a --rw=read --size=1m --bs 1x|5|bs: '1x' is not a size
fio --name=a --rw=read --size=1m --bs 'a;b'|6|'#' and ';' are not read
fio --rw=read --name|3|--name needs a value
fio --name=a --rw=read --size=1m --section=a|5|--section is fio's own option, not a job's
fio --name=a --rw=read --size=1m --include=x.fio|5|--include is not a fio option
fio --name= --rw=read|2|--name needs a job name
fio --name=a --rw=read --size='1m|4|a quote is not closed
fio --name=a --rw=read --filename=a;b --size=1m|4|'#' and ';' are not read in a command line here
EOF2
# "fio JOB.fio", output options around it: the job file (getopt moves it
# after the options).
"$RALAB" sim --dump-ops "fio --output-format=json tests/fio/real/back-4k.fio --eta never" > "$T/a" 2>&1
"$RALAB" sim --dump-ops tests/fio/real/back-4k.fio > "$T/b" 2>&1
if [ -s "$T/a" ] && cmp -s "$T/a" "$T/b"; then ok "fio command line: fio JOB.fio reads the job file"
else bad "fio command line: fio JOB.fio reads the job file" "$(head -3 "$T/a")"; fi
# Job options and a job file: fio 3.33 reads the file after the line,
# whose options before any --name hold for the file's jobs too and whose
# --name jobs run first, as one job file would have it
# (tests/fio/cmdline-file.equiv.fio).  Where fio is installed, its own
# iologs (ioengine=null) of the two must be the same I/O, job by job.
cf="fio --bs=16k --size=128k --name=c --rw=read --size=64k --name=d --rw=randread tests/fio/cmdline-file.fio"
"$RALAB" sim --dump-ops "$cf" 2>&1 | tail -n +2 > "$T/a"
"$RALAB" sim --dump-ops tests/fio/cmdline-file.equiv.fio 2>&1 | tail -n +2 > "$T/b"
if [ "$(grep -c '^job ' "$T/a")" = 4 ] && cmp -s "$T/a" "$T/b"; then ok "fio command line: job options and a job file"
else bad "fio command line: job options and a job file" "$(diff "$T/a" "$T/b" | head -4)"; fi
if command -v fio > /dev/null; then
	mkdir -p "$T/cf/tests/fio" && cp tests/fio/cmdline-file.fio "$T/cf/tests/fio/"
	{ printf '[global]\nioengine=null\nwrite_iolog=l2\n'; cat tests/fio/cmdline-file.equiv.fio; } > "$T/cf/equiv.fio"
	set -f
	# shellcheck disable=SC2086 # the words, as the shell splits them
	(cd "$T/cf" && fio --ioengine=null --write_iolog=l1 ${cf#fio } > /dev/null 2>&1 &&
		fio equiv.fio > /dev/null 2>&1)
	set +f
	iolog_jobs() { grep -v '^fio version' "$1" | cut -d' ' -f2- | sort -s -k1,1; }
	if [ -s "$T/cf/l1" ] && [ "$(iolog_jobs "$T/cf/l1")" = "$(iolog_jobs "$T/cf/l2")" ] &&
	   [ "$(grep -c ' read [0-9]* 16384$' "$T/cf/l1")" = 28 ]; then
		ok "fio reads job options and a job file as the one job file"
	else
		bad "fio reads job options and a job file as the one job file" "$(diff <(iolog_jobs "$T/cf/l1") <(iolog_jobs "$T/cf/l2") | head -4)"
	fi
else
	skip "fio reads job options and a job file as the one job file" "fio is not installed (ralab's ops of the two are still compared)"
fi
# A message about the job file's text names the job file's line.
printf '[global]\nsize=64k\n[a]\nrw=read\nbs=1x\n' > "$T/cfbad.fio"
"$RALAB" sim "fio --bs=16k --name=c --rw=read --size=1m $T/cfbad.fio" > "$T/out" 2> "$T/err"; rc=$?
if [ $rc = 2 ] && [ ! -s "$T/out" ] && [ "$(head -1 "$T/err")" = "$T/cfbad.fio:5: bs: '1x' is not a size (ranges and lists are not supported)" ]; then
	ok "fio command line: an error in its job file names the file's line"
else bad "fio command line: an error in its job file names the file's line" "rc=$rc $(head -1 "$T/err")"; fi
"$RALAB" sim "fio --output-format json -eta=never --name=a --rw=read --size=1m" 2> "$T/err" > "$T/a"
"$RALAB" sim "fio --name=a --rw=read --size=1m" 2> "$T/err" > "$T/b"
if [ -s "$T/a" ] && cmp -s "$T/a" "$T/b"; then ok "fio command line: output options left out"
else bad "fio command line: output options left out" "$(cat "$T/err")"; fi

# Older kernels: the same job files run by fio 3.33 in a VM (qemu, emulated
# NVMe, XFS, read_ahead_kb 128, max_sectors_kb 512) under Debian's 6.1.192
# and Ubuntu's 6.8.0-31 (before the 2024 series and before order-1 folios)
# and Debian's 6.12.117 (with the series); tests/tools/record-fio-vm.sh.
# Those kernels have no readahead tracepoints: the page-cache and block
# events must match, in order.
for kv in 6.1 6.8 6.12; do
	nold=0
	for g in tests/fio/real-$kv/*.events.gz; do
		name=$(basename "$g" .events.gz); f=tests/fio/real/$name.fio
		nold=$((nold + 1))
		"$RALAB" sim --policy "linux-$kv" --trace "$f" 2> "$T/old.err" |
			grep -E '^(mm_filemap|block_rq)' | sed 's/ job=[^ ]*$//' > "$T/old.a"
		zcat "$g" > "$T/old.b"
		if grep -q '^; compare: multiset' "$f"; then
			sort -o "$T/old.a" "$T/old.a"; sort -o "$T/old.b" "$T/old.b"
		fi
		fio_events_match "fio on linux-$kv: $name" "$T/old.a" "$T/old.b" "$T/old.err"
	done
	[ $nold -ge 38 ] || bad "fio on linux-$kv" "only $nold recorded jobs in tests/fio/real-$kv"
done

# Seed 002's seqread-4k-sync at full size (1 GiB) under Ubuntu's 6.8.0-31,
# the nearest kernel to the seed's 6.9 recorded here (docs/seeds.md): 4098
# requests, folios 2:8198 3:4095 4:12287, event for event.
"$RALAB" sim --policy linux-6.8 --trace tests/fio/seed002-seqread-4k-sync.fio 2> "$T/s68.err" |
	grep -E '^(mm_filemap|block_rq)' > "$T/s68.a"
zcat tests/fio/seed002-6.8/seed002-seqread-4k-sync.events.gz > "$T/s68.b"
fio_events_match "seed 002 seqread-4k-sync, 1 GiB, on linux-6.8" "$T/s68.a" "$T/s68.b" "$T/s68.err"

# ralab check on a recording without readahead events (a kernel before
# 6.18): the page-cache and block streams are compared in order.
mkdir -p "$T/old61"
"$RALAB" sim --dump-ops tests/fio/real/mmap-perc.fio > "$T/old61/case.ops"
cp tests/fio/real-6.1/mmap-perc.events.gz "$T/old61/events.txt.gz"
if "$RALAB" check --policy linux-6.1 "$T/old61" > "$T/old61.out" 2>&1 &&
   grep -q '^readahead_events: not recorded' "$T/old61.out" &&
   grep -q '^folio stream: MATCH' "$T/old61.out"; then
	ok "check without readahead events: linux-6.1 matches"
else bad "check without readahead events" "$(head -5 "$T/old61.out")"; fi
if "$RALAB" check --policy linux-6.9 "$T/old61" > "$T/old61.out" 2>&1; then
	bad "check without readahead events: linux-6.9 differs" "$(tail -3 "$T/old61.out")"
else
	grep -q '^folio stream: DIFFER' "$T/old61.out" &&
		ok "check without readahead events: linux-6.9 differs (order-1 folios)" ||
		bad "check without readahead events: linux-6.9 differs" "$(tail -3 "$T/old61.out")"
fi

# fio's ${VAR}, keywords and bc arithmetic (tests/fio/keywords.txt, as
# fio 3.33 took each case; where fio is installed, also against fio
# itself on this machine: $ncpus and $mb_memory are the machine's).
kw_job() {
	printf '[a]\nfilename=%s/kw.dat\nrw=read\nsize=1g\n%s\n' "$T" "$1"
	case $1 in bs*) ;; *) printf 'bs=4k\n' ;; esac
	case $1 in number_ios*) ;; *) printf 'number_ios=1\n' ;; esac
}
# What ralab made of the job: "bs N", "jobs N", "ios N" or "exit R".
kw_ralab() {
	local ops rc
	ops=$(RALAB_T_BS=16k "$RALAB" sim --dump-ops "$T/kw.fio" 2> "$T/kw.err"); rc=$?
	[ $rc = 0 ] || { echo "exit $rc"; return; }
	case $1 in
	numjobs*) echo "jobs $(grep -c '^job ' <<< "$ops")" ;;
	number_ios*) echo "ios $(grep -m1 '^read ' <<< "$ops" | cut -d' ' -f3)" ;;
	*) echo "bs $(grep -m1 '^read ' <<< "$ops" | cut -d' ' -f2)" ;;
	esac
}
# What fio 3.33 made of it, in the same terms ("drop": fio dropped it).
kw_fio() {
	local cmd v
	cmd=$(cd "$T" && env -u RALAB_T_UNSET RALAB_T_BS=16k fio --showcmd "$T/kw.fio" 2> /dev/null)
	case $1 in
	numjobs*) v=$(grep -o -- '--numjobs=[^ ]*' <<< "$cmd" | cut -d= -f2); echo "jobs ${v:-1}" ;;
	number_ios*) v=$(grep -o -- '--number_ios=[^ ]*' <<< "$cmd" | cut -d= -f2); echo "ios $v" ;;
	*) v=$(grep -o -- '--bs=[^ ]*' <<< "$cmd" | cut -d= -f2)
	   case $v in *,*) v=${v#*,} ;; esac
	   # sizes without a keyword come back as written
	   case $v in *k) v=$((${v%k} * 1024)) ;; *m) v=$((${v%m} * 1048576)) ;; esac
	   echo "bs $v" ;;
	esac
	grep -q -- '--rw=' <<< "$cmd" || echo drop
}
have_fio=$(command -v fio || true)
[ -n "$have_fio" ] || skip "fio keywords against fio itself" "fio is not installed (apt-get install fio): the recorded answers are still checked"
while IFS='|' read -r line want; do
	case $line in '#'* | '') continue ;; esac
	line=${line% }; want=${want# }
	kw_job "$line" > "$T/kw.fio"
	got=$(kw_ralab "$line")
	case $want in
	drop | refuse) [ "$got" = "exit 2" ] && grep -q '^.*kw.fio:5: ' "$T/kw.err" ;;
	live) [ "${got%% *}" != exit ] ;; # evaluated; fio's answer below
	*) [ "$got" = "$want" ] ;;
	esac && ok "fio keywords: $line ($want)" ||
		bad "fio keywords: $line ($want)" "$got: $(cat "$T/kw.err")"
	[ -n "$have_fio" ] && [ "$want" != refuse ] || continue
	f=$(kw_fio "$line")
	case $f in
	*drop) [ "$got" = "exit 2" ] ;;
	*) [ "$got" = "$f" ] ;;
	esac && ok "fio keywords against fio 3.33: $line" ||
		bad "fio keywords against fio 3.33: $line" "fio: $f, ralab: $got $(cat "$T/kw.err")"
done < tests/fio/keywords.txt
