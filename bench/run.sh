#!/usr/bin/env bash
# make bench: speed, instructions per read, memory, and the ratio to the
# real kernel on the same case.  Numbers, never pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
RALAB=${1:-build/ralab}
BENCH=${2:-build/bench/bench}
T=$(mktemp -d /tmp/ralab-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
kv() { sed -n "s/^$1=//p" "$2"; }

# 1. A 10 GiB file read with 4 KiB read(2) calls (seed 001's fio job).
cat > "$T/seq4k-10g.ops" <<'OPS'
# file_size: 10G
# read_ahead_kb: 128
# max_sectors_kb: 512
read 4K eof
OPS
printf '# file_size: 4K\nread 4K eof\n' > "$T/empty.ops"
"$BENCH" "$T/seq4k-10g.ops" 5 > "$T/b"
reads=$(kv syscalls "$T/b")
echo "== 10 GiB file, 4 KiB read(2) calls, linux-6.18 ($reads reads, median of 5 runs)"
printf '  %-28s %s\n' "simulated reads per second" "$(kv reads_per_second "$T/b")"
printf '  %-28s %s s\n' "time per run" "$(kv seconds_median "$T/b")"
printf '  %-28s %s KiB (target <= 65536)\n' "peak RSS" "$(kv peak_rss_kib "$T/b")"
if command -v valgrind >/dev/null; then
	ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BENCH" "$1" 1 2>&1 |
		sed -n 's/.*Collected : //p'; }
	full=$(ir "$T/seq4k-10g.ops"); base=$(ir "$T/empty.ops")
	printf '  %-28s %s (callgrind; target <= 150)\n' "instructions per read" \
		"$(( (full - base) / reads ))"
else
	echo "  instructions per read: skipped (valgrind not installed)"
fi

# 1b. The public readahead API driving a cache of one's own (flat arrays,
#     no I/O): what the decisions cost per read.
"$BENCH" --api 10240 > "$T/api"
printf '  %-28s %s ns (ralab_ra_*() over a flat in-memory cache, 10 GiB of 4 KiB reads)\n' \
	"API decision cost per read" "$(kv api_ns_per_read "$T/api")"

# 1c. Threads: four fio jobs at once, each reading a 256 MiB file of its
#     own in random 4 KiB preads, on the loop preset: each read waits for
#     its request, so every read is two switches between workers
#     (engine.c; 3.1 s before workers switched straight to each other,
#     0.84 s after).  The fastest of 3 runs.
printf '[global]\nsize=256m\nbs=4k\nrw=randread\nioengine=psync\n[r]\nnumjobs=4\n' > "$T/threads.fio"
best=
for i in 1 2 3; do
	t0=$(date +%s.%N)
	"$RALAB" sim --set device=loop "$T/threads.fio" > "$T/th"
	t1=$(date +%s.%N)
	best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { d = b - a; print (m == "" || d < m) ? d : m }')
done
# bytes_read / 4 KiB: the preads (syscalls= counts the opens too).
awk -v b="$(kv bytes_read "$T/th")" -v d="$best" 'BEGIN { n = b / 4096;
	printf "  %-28s %.0f (4 jobs, random 4 KiB preads, loop preset; %.3f s for %d reads)\n",
	       "threads: reads per second", n / d, d, n }'

# 1d. Random writes into a file truncated to 0: every write a new XFS
#     delalloc record among the others (filemap.c, xr_assign()) and a
#     new written range (sim.c, inode_written()), so the records' upkeep
#     is what this measures (6.4 s when each write rebuilt the whole
#     record array, 0.8 s after, on this machine).
awk 'BEGIN { print "# fs: xfs\n# file_size: 1G\ntruncate 0"; x = 1
	for (i = 0; i < 100000; i++) { x = (x * 16807) % 2147483647
		printf "pwrite %d 4096\n", (x % 262144) * 4096 } }' > "$T/randw.ops"
t0=$(date +%s.%N)
"$RALAB" sim "$T/randw.ops" > "$T/rw"
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { d = b - a
	printf "  %-28s %.0f (100000 random 4 KiB pwrites into a 1 GiB XFS file after truncate 0; %.3f s)\n",
	       "fresh-file writes per second", 100000 / d, d }'

# 2. The seed-000 case on the real kernel (one run) and in ralab.
echo "== seed 000 (4 KiB then 1 MiB reads, 512 MiB, ra 128 KiB, msk 512): kernel vs ralab"
case=tests/cases/seed000-4k-then-1m/case.ops
#    ralab: the median of 9 runs in one process (as tune, compare and
#    check run case after case), and the first run on its own, whose
#    memory comes fresh from the kernel (on a virtual machine its page
#    faults are most of its time).
"$BENCH" "$case" 9 > "$T/s"
sim_s=$(kv seconds_median "$T/s")
sim_1=$(kv seconds_first "$T/s")
if [ "$(id -u)" = 0 ] && "$RALAB" kernel "$case" > "$T/k" 2> "$T/kerr"; then
	k_s=$(kv ops_seconds "$T/k")
	printf '  %-28s %s s (data_reads=%s)\n' "kernel ops wall time" "$k_s" "$(kv data_reads "$T/k")"
	printf '  %-28s %s s (data_reads=%s; median of 9 runs)\n' "ralab simulation time" "$sim_s" "$(kv data_reads "$T/s")"
	printf '  %-28s %s s\n' "ralab first run" "$sim_1"
	awk -v k="$k_s" -v s="$sim_s" -v f="$sim_1" 'BEGIN { printf "  %-28s %.0fx (target >= 100x; first run: %.0fx)\n", "ralab speed-up", k / s, k / f }'
else
	printf '  kernel run skipped: %s\n' "$( [ "$(id -u)" = 0 ] && head -1 "$T/kerr" || echo 'not root')"
	printf '  %-28s %s s (median of 9 runs; first run %s s)\n' "ralab simulation time" "$sim_s" "$sim_1"
fi

# 3. The time model: the ratio of the two seed-000 cases' times, modelled
#    and measured on the kernel.  The loop preset is a fit of one day's
#    loop device, and this machine's loop device has run the same case
#    three to four times as fast from one boot to the next, so the model
#    is also fitted here, in this run, by 'ralab calibrate' on twelve other
#    recorded cases (never the two seed-000 cases it is then compared
#    on; the last two O_DIRECT reads from four and two threads at once,
#    from which it fits dev_contention_ns), with the CPU cost of a cached
#    read(2) measured as it does; that
#    is the model the target line uses.  A kernel run of the
#    1 MiB case is often two to four times as slow as the next with the
#    very same device requests, no reclaim and no compaction: noise only
#    adds time, so the kernel side is the fastest of nine alternating
#    runs of each case (as timeit takes the minimum); every run and the
#    medians are printed too.
echo "== modelled vs measured time: (4 KiB then 1 MiB reads) / (1 MiB reads from 0), 512 MiB"
a=tests/cases/seed000-4k-then-1m/case.ops; b=tests/cases/seed000-1m-from-0/case.ops
elapsed() { "$RALAB" sim --set device=loop "$@" | sed -n 's/^elapsed_us=//p'; }
ma=$(elapsed "$a"); mb=$(elapsed "$b")
awk -v a="$ma" -v b="$mb" 'BEGIN { printf "  %-28s %.0f us / %.0f us = %.3f\n", "ralab (loop preset)", a, b, a / b }'
ok=0
if [ "$(id -u)" = 0 ]; then
	ok=1
	C=tests/cases
	if "$RALAB" calibrate --runs 5 $C/seed001-seq4k/case.ops $C/rand-64k/case.ops \
		$C/stride-64k/case.ops $C/msk128-1m/case.ops $C/ra4096-1m/case.ops \
		$C/seed000-64k-from-0/case.ops $C/interleaved-2-streams/case.ops \
		$C/mid-file-16k/case.ops $C/backward-16k/case.ops $C/msk1280-2m/case.ops \
		$C/direct-threads-4/case.ops $C/direct-threads-2/case.ops \
		> "$T/cal" 2>&1; then
		read -r -a fit <<< "$(sed -n 's/^use: //p' "$T/cal")"
		fa=$(elapsed "${fit[@]}" "$a"); fb=$(elapsed "${fit[@]}" "$b")
		printf '  %-28s %s\n' "CPU measured in this run" \
			"$(sed -n 's/^measured, a cached read(2): //p' "$T/cal") (a cached read(2))"
		printf '  %-28s %s (%s)\n' "device fitted in this run" \
			"$(sed -n 's/^fitted on [0-9]* cases: //; s/ (rms.*//p' "$T/cal")" \
			"$(sed -n 's/^check cases: //p' "$T/cal") on the six cases left out"
		awk -v a="$fa" -v b="$fb" 'BEGIN { printf "  %-28s %.0f us / %.0f us = %.3f\n", "ralab (fitted device)", a, b, a / b }'
	else
		ok=0
		printf '  calibration failed: %s\n' "$(tail -1 "$T/cal")"
	fi
	# The first kernel run after a pause is often the slowest (every
	# read 2-3 ms on this VM): one run of each case warms up, unused.
	[ "$ok" = 1 ] && "$RALAB" kernel "$a" > /dev/null 2>&1 && "$RALAB" kernel "$b" > /dev/null 2>&1 || ok=0
	for i in 1 2 3 4 5 6 7 8 9; do
		[ "$ok" = 1 ] || break
		if "$RALAB" kernel "$a" > "$T/ka" 2>/dev/null && "$RALAB" kernel "$b" > "$T/kb" 2>/dev/null; then
			kv ops_seconds "$T/ka" >> "$T/sa"; kv ops_seconds "$T/kb" >> "$T/sb"
		else
			ok=0; break
		fi
	done
fi
if [ "$ok" = 1 ]; then
	nth() { sort -g "$1" | sed -n "$2p"; }
	printf '  %-28s %s\n' "kernel runs, 4k then 1m (s)" "$(tr '\n' ' ' < "$T/sa")"
	printf '  %-28s %s\n' "kernel runs, 1m from 0 (s)" "$(tr '\n' ' ' < "$T/sb")"
	awk -v a="$(nth "$T/sa" 5)" -v b="$(nth "$T/sb" 5)" 'BEGIN {
		printf "  %-28s %.3f s / %.3f s = %.3f\n", "kernel (medians)", a, b, a / b }'
	awk -v a="$(nth "$T/sa" 1)" -v b="$(nth "$T/sb" 1)" -v ma="$ma" -v mb="$mb" \
		-v fa="$fa" -v fb="$fb" 'BEGIN {
		k = a / b; m = ma / mb; f = fa / fb;
		printf "  %-28s %.3f s / %.3f s = %.3f\n", "kernel (fastest runs)", a, b, k;
		printf "  %-28s %+.0f%%\n", "loop preset vs kernel", 100 * (m - k) / k;
		printf "  %-28s %+.0f%% (target within 20%%)\n", "fitted model vs kernel", 100 * (f - k) / k }'
	# Per-read wall time, the last kernel run of each case beside the
	# fitted model.
	for c in a b; do
		f=$a; [ $c = b ] && f=$b
		"$RALAB" sim --set device=loop "${fit[@]}" "$f" > "$T/m$c"
		printf '  %-28s kernel %s / %s / %s us, model %s / %s / %s us\n' \
			"read p50/p90/p99 ($(basename "$(dirname "$f")" | sed 's/^seed000-//'))" \
			"$(kv read_lat_p50_us "$T/k$c")" "$(kv read_lat_p90_us "$T/k$c")" "$(kv read_lat_p99_us "$T/k$c")" \
			"$(kv read_lat_p50_us "$T/m$c")" "$(kv read_lat_p90_us "$T/m$c")" "$(kv read_lat_p99_us "$T/m$c")"
	done
else
	echo "  kernel runs skipped (not root, or no recorder prerequisites)"
fi

# 4. Queue depth: O_DIRECT random 4 KiB reads of a 64 MiB file through
#    io_uring at iodepth 1, 4 and 32, run by fio on the kernel (the loop
#    device of tests/tools/record-fio.sh) and modelled on the loop preset,
#    whose requests share the device (dev_contention_ns) and whose dev_iops
#    caps what depth can give.  Each kernel figure is one fio run.
echo "== O_DIRECT random 4 KiB reads by queue depth (io_uring, 64 MiB): kernel vs ralab (loop preset)"
if [ "$(id -u)" = 0 ] && command -v fio > /dev/null; then
	for d in 1 4 32; do
		printf '[j]\nfilename=dq\nsize=64m\nbs=4k\nrw=randread\ndirect=1\nioengine=io_uring\niodepth=%s\n' "$d" > "$T/dq$d.fio"
		m=$("$RALAB" sim --set device=loop "$T/dq$d.fio" | sed -n 's/^throughput_mb_s=//p')
		if tests/tools/record-fio.sh "$T/dq$d.fio" "$T/dq.ev" "$T/dq.out" > /dev/null 2>&1 &&
			k=$(sed -n 's/.*READ: bw=[^(]*(\([0-9.]*\)\([kMG]\)B\/s).*/\1 \2/p' "$T/dq.out") && [ -n "$k" ]; then
			awk -v k="$k" -v m="$m" -v d="$d" 'BEGIN { split(k, a, " ");
				kb = a[1] * (a[2] == "G" ? 1000 : a[2] == "k" ? 0.001 : 1);
				printf "  %-28s kernel %.0f MB/s, model %.0f MB/s (%+.0f%%)\n", "iodepth " d, kb, m, 100 * (m - kb) / kb }'
		else
			printf '  %-28s kernel run failed: %s\n' "iodepth $d" "$(tail -1 "$T/dq.out" 2> /dev/null)"
		fi
	done
else
	echo "  kernel runs skipped (not root, or fio not installed)"
fi
