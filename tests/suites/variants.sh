# Sourced by tests/run.sh: the variants against the seeds' figures.
# Seed figures count two metadata reads more than the data reads ralab
# models (spec 7.2): seed 3329 = 3327 data reads, 1032 = 1030.

reads() { # POLICY CASE [--set K=V]...: print data_reads
	local pol=$1 c=$2; shift 2
	"$RALAB" sim --policy "$pol" "$@" "$c" | sed -n 's/^data_reads=//p'
}
sectors() {
	"$RALAB" sim --policy "$1" "$2" | sed -n 's/^data_sectors=//p'
}
within() { # NAME VALUE LOW HIGH
	if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then ok "$1"
	else bad "$1" "got '$2', want $3..$4"; fi
}

S0=tests/cases/seed000-4k-then-1m/case.ops
S0b=tests/cases/seed000-4k-then-512k-msk256/case.ops
S0c=tests/cases/seed000-4k-then-1m-msk1024/case.ops
S0d=tests/variants/seed000-4k-then-3m-msk2048.ops

# Seed 000: Park's patch, 3329 -> 1032 and 6147 -> 2056 on the seed's VM.
within "seed000 park-2026 4k-then-1m" "$(reads park-2026 $S0)" 1028 1032
within "seed000 park-2026 4k-then-512k msk256" "$(reads park-2026 $S0b)" 2052 2056
within "seed000 kara-2026 4k-then-1m" "$(reads kara-2026 $S0)" 1024 1040
# "1 MiB reads with max_sectors_kb 1024 are not trimmed": Park changes nothing.
a=$(reads linux-6.18 $S0c); b=$(reads park-2026 $S0c)
[ "$a" = 1027 ] && [ "$b" = "$a" ] && ok "seed000 msk1024 not trimmed" ||
	bad "seed000 msk1024 not trimmed" "linux-6.18 $a, park-2026 $b (kernel: 1027, the same)"
# 3 MiB reads, max_sectors_kb 2048: Park needs more reads (seed: 343 against 271).
a=$(reads linux-6.18 $S0d); b=$(reads park-2026 $S0d)
within "seed000 3m msk2048 linux-6.18" "$a" 271 271
[ -n "$b" ] && [ "$b" -gt "$a" ] && within "seed000 3m msk2048 park-2026" "$b" 330 350 ||
	bad "seed000 3m msk2048 park-2026" "park $b not above linux-6.18 $a"

# Seed 001: the series bisects.  Refactoring patches change nothing, event
# for event; the whole series changes the 4 KiB sequential job.
S1=tests/cases/seed001-seq4k/case.ops
"$RALAB" sim --trace --policy linux-6.9 $S1 | grep -v '^policy=' > "$T/v69"
for p in 04 05 06 09 10; do
	"$RALAB" sim --trace --policy linux-6.9+kara-2024/$p $S1 | grep -v '^policy=' > "$T/vp"
	cmp -s "$T/v69" "$T/vp" && ok "kara-2024/$p is a refactoring" ||
		bad "kara-2024/$p is a refactoring" "output differs from linux-6.9"
done
for p in 01 02 03 07 08; do
	"$RALAB" sim --policy linux-6.9+kara-2024/$p $S1 > /dev/null ||
		bad "kara-2024/$p runs" "exit $?"
done
"$RALAB" sim --trace --policy linux-6.9+kara-2024 $S1 | grep -v '^policy=' > "$T/vall"
cmp -s "$T/v69" "$T/vall" && bad "kara-2024 series" "no change on seed 001" || ok "kara-2024 series changes seed 001"
# 6.9's 4 KiB stream never ramps above order 4 (Roberts 2025, spec 7.1).
grep '^folio_orders=' "$T/v69" | grep -Eq '(^|[ =])([5-9]|1[01]):' &&
	bad "linux-6.9 order oscillation" "$(grep folio_orders "$T/v69")" || ok "linux-6.9 order oscillation"

# R. Roberts' "Readahead tweaks for larger folios" (6.17) patch by patch
# on its 6.16 base, against the folio layouts its commit messages dump
# (tests/variants/roberts-2025.expected).  LAYOUT: runs of one order below
# page SHOWN, then the last window's mark (page_cache_ra_order's
# index + size - async_size), or - when the dump shows none.
layout() { # POLICY OPS SHOWN MARK?
	"$RALAB" sim --trace --policy "$1" "$2" | awk -v n="$3" -v wm="$4" '
		/^mm_filemap_add_to_page_cache:/ {
			split($2, a, "="); split($3, b, "=")
			i = a[2] / 4096; o = b[2] + 0
			if (i >= n) next
			e = i + 2 ^ o; if (e > n) e = n
			if (have && o == po && i == pe) { pe = e; next }
			if (have) out = out sprintf("[%d,%d):%d ", ps, pe, po)
			have = 1; ps = i; pe = e; po = o
		}
		/^page_cache_ra_order:/ {
			for (k = 2; k <= NF; k++) { split($k, f, "="); v[f[1]] = f[2] }
			mark = v["index"] + v["size"] - v["async_size"]
		}
		END {
			if (have) out = out sprintf("[%d,%d):%d", ps, pe, po)
			print out "|" (wm == "-" ? "-" : mark)
		}'
}
while IFS='|' read -r pol ops shown want mark; do
	case $pol in '#'* | '') continue ;; esac
	got=$(layout "$pol" "tests/variants/roberts-2025-$ops.ops" "$shown" "$mark")
	[ "$got" = "$want|$mark" ] && ok "roberts-2025 worked example: $pol $ops" ||
		bad "roberts-2025 worked example: $pol $ops" "got '$got', the commit message '$want|$mark'"
done < tests/variants/roberts-2025.expected
# 03 (room in file_ra_state) changes nothing.
B=linux-6.9+kara-2024+shao-2024
for c in $S1 tests/variants/roberts-2025-touch17-256.ops; do
	"$RALAB" sim --trace --policy $B $c | grep -v '^policy=' > "$T/vb"
	"$RALAB" sim --trace --policy $B+roberts-2025/03 $c | grep -v '^policy=' > "$T/vp"
	cmp -s "$T/vb" "$T/vp" && ok "roberts-2025/03 is a refactoring ($(basename $c))" ||
		bad "roberts-2025/03 is a refactoring" "output differs from $B on $c"
done
# roberts-2025/05 gave exec mappings their own window (from the fault, no
# mark, even under MADV_RANDOM): with it, the 6.9 code plus the patches
# since makes linux-6.18's readahead calls on the recorded XFS cases that
# map text (its other mmap flags change pages mapped, not calls, here; the
# pageout sweep's cases, which they do change, are left out); without it,
# not.
awk 'FNR == 1 && f != "" && x && !skip { print f }
	FNR == 1 { f = FILENAME; skip = 0; x = 0 }
	/^# fs: ext4|^# block_size/ { skip = 1 }
	/^mmap .* exec/ { x = 1 }
	END { if (f != "" && x && !skip) print f }' tests/cases/*/case.ops | grep -v '/pageout-' > "$T/exec-cases"
n=$(wc -l < "$T/exec-cases")
rc() { "$RALAB" sim --trace --policy "$1" $(cat "$T/exec-cases") 2> /dev/null | grep '^page_cache_' | cksum; }
B=linux-6.9+kara-2024+shao-2024+chi-2025
a=$(rc linux-6.18); b=$(rc $B+roberts-2025)
c=$(rc $B+roberts-2025/01+roberts-2025/02+roberts-2025/03+roberts-2025/04)
[ "$n" -gt 100 ] && [ "$a" = "$b" ] && [ "$a" != "$c" ] &&
	ok "roberts-2025/05: exec mappings' readahead calls as linux-6.18's on $n cases" ||
	bad "roberts-2025/05 exec mappings" "$n cases; 6.18 $a, with 05 $b, without $c"
# With all of it, 6.9's code with the patches since (kara-2024, shao-2024,
# chi-2025, roberts-2025) must be 6.18's readahead: the same events, in
# order, on every fourth recorded XFS case of buffered I/O (ext4's order-0
# reads, mappings and large blocks follow the policies' other flags).
# Both are separate code; linux-6.18 is the one checked against the kernel.
awk 'FNR == 1 && f != "" && !skip { print f }
	FNR == 1 { f = FILENAME; skip = 0 }
	/^# fs: ext4|^# block_size|^(mmap|mmap-read|exec|madvise|touch|map|mlock|mprotect|munmap)( |$)/ { skip = 1 }
	END { if (f != "" && !skip) print f }' tests/cases/*/case.ops | awk 'NR % 4 == 1' > "$T/xfs-cases"
n=$(wc -l < "$T/xfs-cases")
a=$("$RALAB" sim --trace --policy linux-6.18 $(cat "$T/xfs-cases") 2> /dev/null | grep -v '^policy=' | cksum)
b=$("$RALAB" sim --trace --policy linux-6.9+kara-2024+shao-2024+chi-2025+roberts-2025 $(cat "$T/xfs-cases") 2> /dev/null | grep -v '^policy=' | cksum)
[ "$n" -gt 400 ] && [ "$a" = "$b" ] && ok "linux-6.9 + the patches since = linux-6.18 on $n recorded cases" ||
	bad "linux-6.9 + the patches since = linux-6.18" "$n cases; traces differ ($a / $b)"

# J. Kim's WILLNEED series (kim-2025, a proposal on 6.18) against the
# traces its commit messages show (tests/variants/kim-2025/README): the
# lines before a "..." open ralab's trace, the lines after it close it.
K=tests/variants/kim-2025
while read -r f pol ops; do
	"$RALAB" sim --trace --policy "$pol" "$K/$ops" | grep '^page_cache_' > "$T/kt"
	if grep -qx '\.\.\.' "$K/$f"; then
		sed '/^\.\.\.$/,$d' "$K/$f" > "$T/khead"
		sed '1,/^\.\.\.$/d' "$K/$f" > "$T/ktail"
		head -n "$(wc -l < "$T/khead")" "$T/kt" | cmp -s - "$T/khead" &&
			tail -n "$(wc -l < "$T/ktail")" "$T/kt" | cmp -s - "$T/ktail"
	else
		cmp -s "$T/kt" "$K/$f"
	fi && ok "kim-2025 commit message trace $f" ||
		bad "kim-2025 commit message trace $f" "$pol: $(diff "$T/kt" "$K/$f" | head -n 4)"
done <<'LIST'
p1-before.trace linux-6.18 willneed-4g.ops
p1-after.trace linux-6.18+kim-2025/01 willneed-4g.ops
p2-after.trace linux-6.18+kim-2025/01+kim-2025/02 willneed-512m.ops
p3-after.trace linux-6.18+kim-2025 willneed-512m.ops
LIST
# Patch 03 reaches every read of a large-folio mapping: a random 4 KiB
# miss becomes an initial window (get_init_ra_size(1) = 4 pages), where
# 6.18 reads the one page, so the device reads over three times the bytes.
a=$(sectors linux-6.18 tests/variants/seed000-rand-4k.ops)
b=$(sectors linux-6.18+kim-2025/03 tests/variants/seed000-rand-4k.ops)
[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt $((3 * a)) ] && ok "kim-2025/03 amplifies random reads" ||
	bad "kim-2025/03 amplifies random reads" "sectors: linux-6.18 $a, kim-2025/03 $b"

# li-2025 (a proposal on 6.17): force_page_cache_ra() skips a range inside
# [ra->start, ra->start + ra->size) and afterwards sets both to 0.  Here
# the first WILLNEED asks for the window the reader has in flight ([16,
# 24)): 6.18 walks it (an unbounded call that finds it cached), li-2025
# skips it; the second, elsewhere, leaves the state reset, so the next
# async call sees size=0, as J. Kara warned ("destroy the readahead state").
L=tests/variants/li-2025-willneed.ops
"$RALAB" sim --trace --policy linux-6.18 $L > "$T/l0"
"$RALAB" sim --trace --policy linux-6.18+li-2025 $L > "$T/l1"
grep -q '^page_cache_ra_unbounded: index=16 nr_to_read=8 ' "$T/l0" &&
	! grep -q '^page_cache_ra_unbounded: index=16 ' "$T/l1" &&
	ok "li-2025 skips a WILLNEED inside the window" ||
	bad "li-2025 skips a WILLNEED inside the window" "$(grep -c unbounded "$T/l0") / $(grep -c unbounded "$T/l1") unbounded calls"
a=$(grep -m1 '^page_cache_async_ra: index=16 ' "$T/l0" | sed 's/.* size=\([0-9]*\) .*/\1/')
b=$(grep -m1 '^page_cache_async_ra: index=16 ' "$T/l1" | sed 's/.* size=\([0-9]*\) .*/\1/')
[ "$a" = 8 ] && [ "$b" = 0 ] && ok "li-2025 resets the readahead state" ||
	bad "li-2025 resets the readahead state" "async call at 16: size $a under 6.18, $b under li-2025"

# Seed 003: sysbench random 64 KiB reads; device bytes: off best, the
# 2013 patch close to it, 3.11's context readahead worst.
S3=tests/variants/seed003-sysbench-rndrd-64k.ops
off=$(sectors ctx-2013-off $S3); new=$(sectors ctx-2013-new $S3); old=$(sectors ctx-2013-old $S3)
if [ "$off" -lt "$new" ] && [ "$new" -lt "$old" ] && [ $((new - off)) -lt $((old - new)) ]; then
	ok "seed003 ctx order"
else
	bad "seed003 ctx order" "off $off new $new old $old sectors"
fi

# compare: one table, ratios to the first policy, three formats.
"$RALAB" compare --policy linux-6.18 --policy park-2026 $S0 > "$T/cmp"
grep -q 'park-2026 .* 1030  0.310' "$T/cmp" && ok "compare text" || bad "compare text" "$(cat "$T/cmp")"
"$RALAB" compare --format csv --set read_ahead_kb=32,128 --policy linux-6.18 --policy park-2026 $S1 > "$T/csv"
[ "$(wc -l < "$T/csv")" = 5 ] && ok "compare csv sweep" || bad "compare csv sweep" "$(cat "$T/csv")"
"$RALAB" compare --format json --policy linux-6.18 --policy kara-2026 $S0 > "$T/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema_version"]==1 and len(d["rows"])==2 and d["rows"][1]["ratio_to_first"]["device_reads"] < 0.35' "$T/json" 2>/dev/null &&
	ok "compare json" || bad "compare json" "$(head -c 400 "$T/json")"
# compare's time columns: on a device with latency, a larger read_ahead_kb
# lets one sequential 4 KiB reader stall less and finish sooner; on the
# ideal device nobody stalls.
col() { # CSV COLUMN ROW: the named column of data row ROW (1-based)
	awk -F, -v c="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
		NR == r + 1 { print $k }' "$1"
}
"$RALAB" compare --format csv --policy linux-6.18 --set device=nvme --set read_ahead_kb=128,1024 \
	tests/fio/seed002-seqread-4k-sync.fio > "$T/t.csv"
e1=$(col "$T/t.csv" elapsed_ns 1); e2=$(col "$T/t.csv" elapsed_ns 2)
w1=$(col "$T/t.csv" wait_ns 1); w2=$(col "$T/t.csv" wait_ns 2)
[ -n "$e1" ] && [ -n "$e2" ] && [ "$e2" -lt "$e1" ] && [ "$w2" -lt "$w1" ] && [ "$w2" -gt 0 ] &&
	ok "compare time columns" || bad "compare time columns" "$(cat "$T/t.csv")"
# With one policy the ratios are to the case's first setting: 512 KiB
# windows need fewer requests than 128 KiB ones.
r1=$(col "$T/t.csv" device_reads_ratio 1); r2=$(col "$T/t.csv" device_reads_ratio 2)
[ "$r1" = 1.000 ] && awk -v r="$r2" 'BEGIN { exit !(r > 0 && r < 1) }' &&
	ok "compare one policy: ratios to the first setting" ||
	bad "compare one policy: ratios to the first setting" "$r1 $r2"
"$RALAB" compare --format csv --policy linux-6.18 $S0 > "$T/t0.csv"
[ "$(col "$T/t0.csv" wait_ns 1)" = 0 ] && [ "$(col "$T/t0.csv" elapsed_ns 1)" -gt 0 ] &&
	ok "compare ideal device: no stalls" || bad "compare ideal device: no stalls" "$(cat "$T/t0.csv")"
# A sweep is not capped: 300 cases (one small case named 300 times), 600 rows.
many=(); for i in $(seq 300); do many+=(tests/cases/tiny-file-100b/case.ops); done
"$RALAB" compare --format csv --policy linux-6.18 --policy linux-6.9 "${many[@]}" > "$T/many"
[ "$(grep -c '^tiny-file-100b,' "$T/many")" = 600 ] && ok "compare 300 cases" ||
	bad "compare 300 cases" "$(wc -l < "$T/many") lines"
expect_rc "compare bad format" 2 "$RALAB" compare --format xml $S0
expect_rc "compare bad sweep" 2 "$RALAB" compare --set read_ahead_kb=128,x $S0
expect_rc "patch on wrong policy" 2 "$RALAB" sim --policy park-2026 --patch kara-2024/01 $S1
expect_rc "unknown patch" 2 "$RALAB" sim --policy linux-6.9 --patch kara-2024/11 $S1

# tune: the recommendation is the smallest read_ahead_kb within --within
# percent of the fastest (total time, for a workload of fixed size); one
# sequential 4 KiB reader on a
# device with latency wants more than 128 KiB.
"$RALAB" tune --format csv --set device=nvme tests/fio/seed002-seqread-4k-sync.fio > "$T/tune.csv"
if awk -F, 'NR == 1 { next } { n++; t[n] = $3; ra[n] = $1 }
	$8 == 1 { best = $3; nb++ } $9 == 1 { rec = $3; rra = $1; nr++ }
	END {
		if (n != 9 || nb != 1 || nr != 1 || rra <= 128 || rec > best * 1.02) exit 1
		for (i = 1; i <= n; i++)
			if (t[i] < best || (t[i] <= best * 1.02 && ra[i] < rra)) exit 1
	}' "$T/tune.csv"; then ok "tune recommendation"
else bad "tune recommendation" "$(cat "$T/tune.csv")"; fi
# A timed job (fio time_based) takes its runtime under every setting: the
# fastest is the one that reads the most per unit of time.
printf '[j]\nrw=read\nbs=4k\nsize=8m\nruntime=50ms\ntime_based\n' > "$T/tb.fio"
"$RALAB" tune --format csv --set device=loop "$T/tb.fio" > "$T/tunet.csv"
if awk -F, 'NR == 1 { next } { b[NR] = $5 / $3 } $8 == 1 { best = $5 / $3 }
	END { for (i in b) if (b[i] > best) exit 1; exit !(best > 0) }' "$T/tunet.csv"; then
	ok "tune timed jobs by bytes read"
else bad "tune timed jobs by bytes read" "$(cat "$T/tunet.csv")"; fi
"$RALAB" tune --ra 64,128 tests/cases/tiny-file-100b/case.ops | grep -q 'no latency' &&
	ok "tune notes the ideal device" || bad "tune notes the ideal device" "no note"
expect_rc "tune bad --ra" 2 "$RALAB" tune --ra 64,x $S0
expect_rc "tune bad --within" 2 "$RALAB" tune --within 200 $S0
expect_rc "tune json" 2 "$RALAB" tune --format json $S0
expect_rc "tune no case" 2 "$RALAB" tune

# linux-6.12 is linux-6.9 with the series but for patch 03, shao-2024 and
# chi-2025:
# on every recorded case of 4 KiB blocks (read, pread, mmap, fadvise,
# readahead(2), threads) it gives the events of $p612.  linux-6.8 and
# linux-6.1 never allocate an order-1 folio, where linux-6.9 allocates
# some on n1 cases
# (their other differences from 6.9 are checked against the kernels' own
# recordings: tests/fio/real-6.*, tests/kernels).
n612=0; n1=0; bad612=; bado1=
p612=linux-6.9+shao-2024+chi-2025
for p in 01 02 04 05 06 07 08 09 10; do p612=$p612+kara-2024/$p; done
# order1 FILE CASE...: the CASEs (of a sim of them into FILE: after a
# line '== CASE' each, if several) that add an order-1 folio.
order1() {
	awk -v c="$2" '/^== / { c = $2 } /^mm_filemap_add_to_page_cache: .* order=1$/ && !(c in s) { s[c]; print c }' "$1"
}
# nheads N: the '== CASE' lines a sim of N cases prints.
nheads() { [ "$1" -gt 1 ] && echo "$1" || echo 0; }
# v612_batch CASE...: 100 cases to one sim per policy (a process per case
# and policy made this the longest test under the sanitizers); a batch
# whose two traces differ, or that fails, is run again case by case.
v612_batch() {
	[ $# -gt 0 ] || return 0
	if "$RALAB" sim --trace --policy "$p612" "$@" > "$T/v9k" 2>/dev/null &&
	   "$RALAB" sim --trace --policy linux-6.12 "$@" > "$T/v612" 2>/dev/null &&
	   [ "$(grep -c '^== ' "$T/v612")" = "$(nheads $#)" ] &&
	   cmp -s <(grep -v '^policy=' "$T/v9k") <(grep -v '^policy=' "$T/v612"); then
		n612=$((n612 + $#))
	else
		for c; do
			"$RALAB" sim --trace --policy "$p612" "$c" > "$T/v9k" 2>/dev/null &&
			"$RALAB" sim --trace --policy linux-6.12 "$c" > "$T/v612" 2>/dev/null &&
			cmp -s <(grep -v '^policy=' "$T/v9k") <(grep -v '^policy=' "$T/v612") &&
				n612=$((n612 + 1)) || bad612="$bad612 $c"
		done
	fi
	"$RALAB" sim --trace --policy linux-6.9 "$@" > "$T/v69" 2>/dev/null ||
		bado1="$bado1 linux-6.9:fails-on-a-batch"
	mapfile -t o1 < <(order1 "$T/v69" "$@")
	[ ${#o1[@]} -gt 0 ] || return 0
	n1=$((n1 + ${#o1[@]}))
	# linux-6.1 refuses splicing (before filemap_splice_read(), 6.5).
	mapfile -t o1s < <(grep -LE '^(splice|sendfile) |^via splice' "${o1[@]}")
	for p in linux-6.8 linux-6.1; do
		[ $p = linux-6.1 ] && o1=("${o1s[@]}")
		[ ${#o1[@]} -gt 0 ] || continue
		"$RALAB" sim --trace --policy $p "${o1[@]}" > "$T/vo" 2>/dev/null ||
			bado1="$bado1 $p:fails"
		[ "$(grep -c '^== ' "$T/vo")" = "$(nheads ${#o1[@]})" ] || bado1="$bado1 $p:missing-cases"
		for c in $(order1 "$T/vo" "${o1[@]}"); do bado1="$bado1 $p:$c"; done
	done
}
# Large blocks aside: 6.9's and 6.12's code did not have them, and ralab
# refuses such a case under those policies (and splicing under 6.1's, whose
# splice read through filemap_read(): a test in cli.sh).
batch=()
for c in $(grep -L '^# block_size:' tests/cases/*/case.ops); do
	batch+=("$c")
	[ ${#batch[@]} -lt 100 ] || { v612_batch "${batch[@]}"; batch=(); }
done
v612_batch "${batch[@]}"
[ -z "$bad612" ] && [ $n612 -ge 3400 ] && ok "linux-6.12 = $p612 on $n612 cases" ||
	bad "linux-6.12 = $p612" "differs on:$(echo $bad612 | cut -c1-200)"
[ -z "$bado1" ] && [ $n1 -ge 20 ] && ok "linux-6.8 and linux-6.1: no order-1 folio on the $n1 cases where linux-6.9 makes some" ||
	bad "linux-6.8 and linux-6.1 without order-1 folios" "n1=$n1:$(echo $bado1 | cut -c1-200)"

# Older kernels, event for event: recorded cases run live by 'ralab kernel'
# under Debian's 6.1.192 and 6.12.117 and Ubuntu's 6.8.0-31 in a VM (every
# fourth case of tests/cases; tests/kernels/README).  Those kernels have
# no readahead tracepoints: the page-cache and block events must match in
# order, but for the cases listed in KNOWN (printed as skips, with what is
# known).
# Where NAME.ra.gz exists (tests/tools/record-cases-vm.sh), the readahead
# calls the kernel made, read by kprobes, must match ralab's too, in order
# and with their state (ralab's order= on sync and async calls aside: those
# kernels had no ra->order), but for the prev_pos of a kernel whose KNOWN
# says "#ra-ignore prev_pos" (timing decides it there: tests/kernels/README).
# A NAME.breaks file gives the layout the VM's filesystem gave the file (its
# extent starts, as extent_breaks takes them; read off the requests, as
# FIEMAP was not kept).
for kd in tests/kernels/linux-*/; do
	kp=$(basename "$kd"); nk=0; nkok=0; nra=0; nraok=0
	for g in "$kd"*.events.gz; do
		name=$(basename "$g" .events.gz); nk=$((nk + 1))
		# NAME.breaks: where the VM's filesystem broke the file itself.
		lay=
		[ -f "$kd$name.breaks" ] && lay="extent_breaks=$(cat "$kd$name.breaks")"
		"$RALAB" sim --policy "$kp" --trace ${lay:+--set "$lay"} \
			"tests/cases/$name/case.ops" 2> "$T/kv.err" > "$T/kv.t"
		grep -E '^(mm_filemap|block_rq)' "$T/kv.t" > "$T/kv.a"
		zcat "$g" > "$T/kv.b"
		why=
		cmp -s "$T/kv.a" "$T/kv.b" ||
			why="page-cache/block $(cmp "$T/kv.a" "$T/kv.b" 2>&1 | head -1)"
		if [ -f "$kd$name.ra.gz" ]; then
			nra=$((nra + 1))
			grep '^page_cache_' "$T/kv.t" |
				sed -E 's/^(page_cache_(sync|async)_ra: index=[0-9]+ req_count=[0-9]+) order=[0-9]+/\1/' > "$T/kv.ra"
			zcat "$kd$name.ra.gz" > "$T/kv.rb"
			if grep -q '^#ra-ignore prev_pos' "$kd/KNOWN"; then
				sed -i 's/ prev_pos=[-0-9]*//' "$T/kv.ra" "$T/kv.rb"
			fi
			if cmp -s "$T/kv.ra" "$T/kv.rb"; then
				nraok=$((nraok + 1))
			else
				why="${why:+$why; }readahead $(cmp "$T/kv.ra" "$T/kv.rb" 2>&1 | head -1)"
			fi
		fi
		known=$(awk -F'\t' -v n="$name" '$1 == n { print $2 ": " $3 }' "$kd/KNOWN")
		if [ -z "$why" ]; then
			nkok=$((nkok + 1))
			[ -z "$known" ] && ok "$kp: $name" ||
				bad "$kp: $name" "matches now: remove it from $kd/KNOWN"
		elif [ -n "$known" ]; then
			skip "$kp: $name" "a known difference at event $known"
		else
			bad "$kp: $name" "$(cat "$T/kv.err"; echo "$why")"
		fi
	done
	[ $nk -ge 100 ] || bad "$kp recordings" "only $nk in $kd"
	echo "  $kp: $nkok of $nk recorded cases match in order; the readahead calls of $nraok of the $nra recorded with them"
done

# compare --bisect: the base, then one row per patch, each on the ones above;
# applied in merge order up to 6.18, the last row is the kernel's 3327.
"$RALAB" compare --format csv --bisect linux-6.9+kara-2024+shao-2024+chi-2025+roberts-2025 $S0 > "$T/bis"
n=$(($(wc -l < "$T/bis") - 1))
first=$(sed -n 2p "$T/bis" | cut -d, -f4); last=$(tail -n 1 "$T/bis" | cut -d, -f4)
lr=$(col "$T/bis" device_reads "$n")
[ "$n" = 18 ] && [ "$first" = linux-6.9 ] && [ "$last" = +roberts-2025/05 ] && [ "$lr" = 3327 ] &&
	ok "compare --bisect" || bad "compare --bisect" "$n rows, first '$first', last '$last' with $lr reads"
expect_rc "compare --bisect too many" 2 "$RALAB" compare --policy linux-6.18 --policy linux-6.18 \
	--policy linux-6.18 --policy linux-6.18 --policy linux-6.18 --policy linux-6.18 \
	--policy linux-6.18 --policy linux-6.18 --policy linux-6.18 --policy linux-6.18 \
	--policy linux-6.18 --policy linux-6.18 --policy linux-6.18 --policy linux-6.18 \
	--policy linux-6.18 --bisect linux-6.9+kara-2024+shao-2024+chi-2025+roberts-2025 $S0
grep -q 'at most 32 policies' "$T/err" || bad "compare --bisect too many message" "$(head -c 200 "$T/err")"
