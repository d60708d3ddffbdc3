# Sourced by tests/run.sh: time, jobs, threads.

# kara-2024/01's race, deterministic.  A sync miss must read its own
# page: the next readahead window after page_cache_sync_ra at index I
# starts at I.  linux-6.9 moves it on (t2's miss at page 28 gets a window
# from 60: "the needed page is not read by readahead"); 6.18 does not.
skipped_syncs() { # TRACE: sync misses whose window started elsewhere
	awk '/^page_cache_sync_ra:/ { split($2, a, "="); want = a[2]; next }
	     /^page_cache_ra_(order|unbounded):/ && want != "" {
		split($2, a, "="); if (a[2] != want) print want " -> " a[2]; want = "" }' "$1"
}
R=tests/jobs/race-patch01.ops
"$RALAB" sim --trace --policy linux-6.9 $R 2> /dev/null > "$T/r69"
"$RALAB" sim --trace --policy linux-6.9+kara-2024/01 $R 2> /dev/null > "$T/r01"
"$RALAB" sim --trace --policy linux-6.18 $R 2> /dev/null > "$T/r618"
if [ "$(skipped_syncs "$T/r69")" = "28 -> 60" ] && [ -z "$(skipped_syncs "$T/r618")" ] &&
   [ -z "$(skipped_syncs "$T/r01")" ]; then
	ok "race kara-2024/01: 6.9 skips the missed page, 01 and 6.18 read it"
else
	bad "race kara-2024/01" "6.9: '$(skipped_syncs "$T/r69")'; 01: '$(skipped_syncs "$T/r01")'; 6.18: '$(skipped_syncs "$T/r618")'"
fi
for k in sync_ra async_ra data_reads elapsed_us; do
	x=$(grep "^$k=" "$T/r69"); y=$(grep "^$k=" "$T/r618")
	[ "$x" != "$y" ] || bad "race kara-2024/01 $k" "same under both: $x"
done
# The stall: t2's one pread waits while 6.9 allocates the window from 60
# that t2 did not ask for (32 folios at cpu_folio_ns 100 us) and then
# finds page 28 only because t1's window put it there; under 6.18 it
# allocates the folios from 28 on that it needs first.
l69=$(sed -n 's/^job.t2.read_lat_p50_us=//p' "$T/r69")
l618=$(sed -n 's/^job.t2.read_lat_p50_us=//p' "$T/r618")
if awk -v a="$l69" -v b="$l618" 'BEGIN { exit !(a > 2 * b && b > 0) }'; then
	ok "race kara-2024/01: t2 stalls $l69 us under 6.9, $l618 us under 6.18"
else
	bad "race kara-2024/01 stall" "t2 read latency 6.9 $l69 us, 6.18 $l618 us"
fi

# Concurrency is deterministic.
"$RALAB" sim --trace --set device=loop tests/jobs/shared-fd-two-readers.ops > "$T/j1"
"$RALAB" sim --trace --set device=loop tests/jobs/shared-fd-two-readers.ops > "$T/j2"
cmp -s "$T/j1" "$T/j2" && grep -q '^job.t2.elapsed_us=' "$T/j1" && ok "jobs deterministic" ||
	bad "jobs deterministic" "two runs differ or no per-job figures"

# A device that takes time changes no readahead decision of one reader
# (spec 2.2): the kernel's events still match with the loop device.
for c in seed000-4k-then-1m rand-64k interleaved-2-streams; do
	zcat tests/cases/$c/kernel.out.gz > "$T/k"
	"$RALAB" sim --trace --set device=loop tests/cases/$c/case.ops > "$T/s"
	if "$RALAB" diff --strict "$T/k" "$T/s" > "$T/d"; then
		w=$(sed -n 's/^wait_us=//p' "$T/s")
		[ "${w%.*}" -gt 0 ] && ok "timing changes no event: $c" ||
			bad "timing changes no event: $c" "no wait at all (wait_us=$w)"
	else
		bad "timing changes no event: $c" "$(tail -5 "$T/d")"
	fi
done

# 'wait' (fio stonewall) serialises jobs; without it they overlap.
printf '# file_size: 8M\n# device: loop\njob a\nread 64K eof\njob b\nread 64K eof\n' > "$T/par.ops"
printf '# file_size: 8M\n# device: loop\njob a\nread 64K eof\njob b\nwait\nread 64K eof\n' > "$T/seq.ops"
pa=$("$RALAB" sim "$T/par.ops" 2> /dev/null | sed -n 's/^job.b.elapsed_us=//p')
sa=$("$RALAB" sim "$T/seq.ops" 2> /dev/null | sed -n 's/^job.a.elapsed_us=//p')
sb=$("$RALAB" sim "$T/seq.ops" 2> /dev/null | sed -n 's/^job.b.elapsed_us=//p')
st=$("$RALAB" sim "$T/seq.ops" 2> /dev/null | sed -n 's/^job.b.start_us=//p')
# Serial: b starts when a has ended (and finds the file cached); parallel:
# b reads it cold beside a.  A job's elapsed time counts from its start.
awk -v pa="$pa" -v sa="$sa" -v sb="$sb" -v st="$st" 'BEGIN { exit !(st == sa && sb < sa / 2 && pa > sb) }' &&
	ok "jobs wait" || bad "jobs wait" "parallel b $pa, serial a $sa b $sb from $st"

# iodepth: preads of one job in flight at once finish sooner.
printf '# file_size: 32M\n# device: loop\nrand-pread 4K 2000 3\n' > "$T/qd1.ops"
printf '# file_size: 32M\n# device: loop\niodepth 16\nrand-pread 4K 2000 3\n' > "$T/qd16.ops"
e1=$("$RALAB" sim "$T/qd1.ops" | sed -n 's/^elapsed_us=//p')
e16=$("$RALAB" sim "$T/qd16.ops" | sed -n 's/^elapsed_us=//p')
awk -v a="$e1" -v b="$e16" 'BEGIN { exit !(b * 4 < a) }' && ok "iodepth overlaps I/O" ||
	bad "iodepth overlaps I/O" "qd1 $e1 us, qd16 $e16 us"

# A copy out of a mapping costs cpu_page_ns a page, as read(2)'s does:
# a second pass over a mapped 1 MiB (no fault) adds 256 pages of it.
printf '# file_size: 1M\n# cpu_page_ns: 280\nmmap 0 1M\nmemcpy 0 16K 64\n' > "$T/cp1.ops"
{ cat "$T/cp1.ops"; printf 'memcpy 0 16K 64\n'; } > "$T/cp2.ops"
c1=$("$RALAB" sim "$T/cp1.ops" | sed -n 's/^elapsed_us=//p')
c2=$("$RALAB" sim "$T/cp2.ops" | sed -n 's/^elapsed_us=//p')
awk -v a="$c1" -v b="$c2" 'BEGIN { exit !(a > 0 && b - a > 71.65 && b - a < 71.75) }' &&
	ok "a copy out of a mapping takes time" || bad "a copy out of a mapping takes time" "one copy $c1 us, two $c2 us"

# The seed-002 table: random reads stay within a few percent from 6.9 to
# the 6.10 series, as in the seed (-2.5% .. +0.7%).
for f in tests/fio/seed002-randread-4k-*.fio; do
	a=$("$RALAB" sim --set device=nvme --policy linux-6.9 "$f" | sed -n 's/^throughput_mb_s=//p')
	b=$("$RALAB" sim --set device=nvme --policy linux-6.9+kara-2024 "$f" | sed -n 's/^throughput_mb_s=//p')
	awk -v a="$a" -v b="$b" 'BEGIN { r = b / a; exit !(r > 0.95 && r < 1.05) }' &&
		ok "seed002 $(basename "$f" .fio)" || bad "seed002 $(basename "$f" .fio)" "$a -> $b MB/s"
done

# posixaio: glibc runs the requests of one descriptor one at a time, so
# its rows of the seed-002 table equal the sync rows (49190 against 48991
# KB/s for random 4 KiB reads), while io_uring's io-wq workers overlap.
ps=$("$RALAB" sim --set device=nvme tests/fio/seed002-randread-4k-sync.fio | sed -n 's/^throughput_mb_s=//p')
pp=$("$RALAB" sim --set device=nvme tests/fio/seed002-randread-4k-posixaio.fio | sed -n 's/^throughput_mb_s=//p')
sed 's/^ioengine=posixaio/ioengine=io_uring/' tests/fio/seed002-randread-4k-posixaio.fio > "$T/uring.fio"
pu=$("$RALAB" sim --set device=nvme "$T/uring.fio" | sed -n 's/^throughput_mb_s=//p')
if awk -v s="$ps" -v p="$pp" -v u="$pu" 'BEGIN { exit !(p / s > 0.95 && p / s < 1.05 && u > 10 * s) }'; then
	ok "posixaio serialises one descriptor ($pp MB/s, sync $ps), io_uring overlaps ($pu)"
else
	bad "posixaio/io_uring" "sync $ps, posixaio $pp, io_uring $pu MB/s"
fi

expect_rc "kernel refuses alloc_fail_ppm" 2 "$RALAB" kernel --set alloc_fail_ppm=10 tests/cases/seed001-seq4k/case.ops
grep -q 'alloc_fail_ppm is a model setting' "$T/err" || bad "kernel alloc_fail_ppm message" "$(head -c 200 "$T/err")"
# ralab kernel runs concurrent jobs as threads (tests/suites/kernel.sh),
# but refuses, with the job's line, what a thread per job cannot do.
for d in "iodepth 4|4|an iodepth above 1" "rate-iops 100|4|a rate limit" "exitall|4|exitall"; do
	printf '# file_size: 1M\njob a\nread 4K 4\njob b\n%s\nread 4K 4\n' "${d%%|*}" > "$T/kr.ops"
	"$RALAB" kernel "$T/kr.ops" > "$T/k.out" 2> "$T/k.err"; rc=$?
	l=${d#*|}; l=${l%%|*}
	[ $rc = 2 ] && grep -q "^$T/kr.ops:$l: job 'b' has ${d##*|}" "$T/k.err" && [ ! -s "$T/k.out" ] &&
		ok "kernel refuses ${d%%|*}" || bad "kernel refuses ${d%%|*}" "exit $rc: $(cat "$T/k.err")"
done

# Two concurrent jobs, each with a mapping of its own (each job's slots
# are its own; this once overwrote one job's mapping with the other's).
printf '# file_size: 64M\njob a\nmmap 0 32M\ntouch 0 32M 64K\nmunmap\njob b\nmmap 32M 32M\ntouch 32M 32M 64K\nmunmap\n' > "$T/jm.ops"
printf '# file_size: 64M\nmmap 0 32M\ntouch 0 32M 64K\nmunmap\nmmap 32M 32M\ntouch 32M 32M 64K\nmunmap\n' > "$T/jm1.ops"
a=$("$RALAB" sim "$T/jm.ops" 2> /dev/null | sed -n 's/^folio_orders=//p'); b=$("$RALAB" sim "$T/jm1.ops" | sed -n 's/^folio_orders=//p')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "jobs with mappings of their own" ||
	bad "jobs with mappings of their own" "two jobs: '$a', one after the other: '$b'"

# Random multi-job workloads (mappings, madvise, fadvise DONTNEED, close
# and open, iodepth, several devices; truncates and writes, t*.ops) run
# to the end with exit 0: a crash, a sanitizer report or a hang (each
# takes well under a second; timeout: exit 124) fails (the suite runs
# under ASan+UBSan too).
n=0; failed=""
for f in tests/jobs/stress/*.ops; do
	if timeout 120 "$RALAB" sim "$f" > /dev/null 2> "$T/stress.err"; then n=$((n + 1))
	else failed="$failed $(basename "$f") (exit $?: $(head -c 200 "$T/stress.err"))"; fi
done
[ -z "$failed" ] && [ $n -ge 25 ] && ok "random multi-job workloads ($n)" ||
	bad "random multi-job workloads" "$n ran;$failed"

# runtime USEC: a job starts no read once its runtime has passed (fio's
# runtime); with 'repeat', its ops from there on run again until then
# (time_based).  The read that crosses the limit ends after it: at most a
# device round trip of one readahead window late (loop: 55 us + 256 KiB at
# 1676 MB/s, well under 1 ms).
num() { sed -n "s/^$1=//p" "$2" | head -n 1; }
in_range() { # VALUE LOW HIGH (not variants.sh's within)
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v < hi) }'
}
printf '# file_size: 64M\n# device: loop\nruntime 5000\nfadvise 0 0 dontneed\nread 4K eof\n' > "$T/rt.ops"
sed '/^runtime/d' "$T/rt.ops" > "$T/rt-all.ops"
"$RALAB" sim "$T/rt.ops" > "$T/rt.out" && "$RALAB" sim "$T/rt-all.ops" > "$T/rt-all.out"
if in_range "$(num elapsed_us "$T/rt.out")" 5000 6000 &&
   [ "$(num bytes_read "$T/rt.out")" -lt "$(num bytes_read "$T/rt-all.out")" ]; then
	ok "runtime stops the reads"
else bad "runtime stops the reads" "$(grep -E '^(elapsed_us|bytes_read)' "$T/rt.out")"; fi
# repeat: passes over a 4 MiB file, each invalidated first, for 20 ms: more
# than one pass, and every byte read came from the device.
printf '# file_size: 4M\n# device: loop\nruntime 20000\nrepeat\nfadvise 0 0 dontneed\nseek 0\nread 4K eof\n' > "$T/rep.ops"
"$RALAB" sim "$T/rep.ops" > "$T/rep.out"
b=$(num bytes_read "$T/rep.out"); sec=$(num data_sectors "$T/rep.out")
if in_range "$(num elapsed_us "$T/rep.out")" 20000 21000 && [ "$b" -gt 4194304 ] &&
   [ $((sec * 512)) -ge "$b" ]; then
	ok "repeat runs the ops again until the runtime"
else bad "repeat runs the ops again until the runtime" "$(grep -E '^(elapsed_us|bytes_read|data_sectors)' "$T/rep.out")"; fi
# same_twice LABEL NAME: a second run of $T/NAME.ops prints $T/NAME.out.
same_twice() {
	"$RALAB" sim "$T/$2.ops" | cmp -s - "$T/$2.out" && ok "$1" || bad "$1" "two runs differ"
}
same_twice "runtime deterministic" rep
# An iodepth job's workers stop together; a 'wait' job's runtime counts
# from its start, which the report gives.
printf '# file_size: 64M\n# device: nvme\njob a\niodepth 8\nruntime 3000\nrepeat\nfadvise 0 0 dontneed\nrand-pread 4K 100000\njob b\nwait\nruntime 2000\nrepeat\nfadvise 0 0 dontneed\nseek 0\nread 4K eof\n' > "$T/rtj.ops"
"$RALAB" sim "$T/rtj.ops" > "$T/rtj.out"
if in_range "$(num job.a.elapsed_us "$T/rtj.out")" 3000 4000 &&
   [ "$(num job.b.start_us "$T/rtj.out")" = "$(num job.a.elapsed_us "$T/rtj.out")" ] &&
   in_range "$(num job.b.elapsed_us "$T/rtj.out")" 2000 3000; then
	ok "runtime per job (iodepth, wait)"
else bad "runtime per job (iodepth, wait)" "$(grep '^job\.' "$T/rtj.out" | tr '\n' ' ')"; fi
# A repeated pass that takes no time (no device, no CPU costs) would never
# reach the runtime: it ends the job (after that one pass) instead of
# spinning.
printf '# file_size: 1M\n# cpu_syscall_ns: 0\n# cpu_folio_ns: 0\n# cpu_page_ns: 0\n# cpu_request_ns: 0\nruntime 1000\nrepeat\nseek 0\nread 4K eof\n' > "$T/zero.ops"
timeout 20 "$RALAB" sim "$T/zero.ops" > "$T/zero.out" && [ "$(num bytes_read "$T/zero.out")" = 1048576 ] &&
	ok "a repeat that takes no time ends" || bad "a repeat that takes no time ends" "$(grep -E '^(bytes_read|elapsed)' "$T/zero.out")"
# The kernel cannot stop where the model does: 'ralab kernel' refuses.
"$RALAB" kernel "$T/rt.ops" > "$T/k.out" 2> "$T/k.err"; rc=$?
[ $rc = 2 ] && grep -q "rt.ops:3: job 'job0' has a runtime" "$T/k.err" && [ ! -s "$T/k.out" ] &&
	ok "kernel refuses a runtime" || bad "kernel refuses a runtime" "exit $rc: $(cat "$T/k.err")"
# delay USEC (fio's startdelay): a job starts then; a 'wait' job at the
# later of its delay and the end of the jobs before it.
printf '# file_size: 4M\n# device: loop\njob a\nread 4K eof\njob b\ndelay 1000\nread 4K eof\njob c\nwait\ndelay 5\nruntime 300\nread 4K eof\n' > "$T/delay.ops"
"$RALAB" sim "$T/delay.ops" > "$T/delay.out"
ae=$(num job.a.elapsed_us "$T/delay.out"); bs=$(num job.b.start_us "$T/delay.out"); be=$(num job.b.elapsed_us "$T/delay.out")
cs=$(num job.c.start_us "$T/delay.out"); ce=$(num job.c.elapsed_us "$T/delay.out")
if [ "$bs" = 1000.0 ] && awk -v a="$ae" -v bs="$bs" -v be="$be" -v cs="$cs" -v ce="$ce" \
	'BEGIN { last = a > bs + be ? a : bs + be; exit !(cs == last && ce >= 300 && ce < 1300) }'; then
	ok "delay starts a job late"
else bad "delay starts a job late" "$(grep '^job\.' "$T/delay.out" | grep -E 'start|elapsed' | tr '\n' ' ')"; fi
# exitall: when that job ends, the jobs running beside it stop (within a
# read); a 'wait' job after it and the job after that one (fio: a later
# group) still run.
printf '# file_size: 64M\n# device: loop\njob bg\nread 4K eof\njob fg\nexitall\nrand-pread 4K 200\njob later\nwait\nread 4K 100\njob later2\nread 4K 100\n' > "$T/ea.ops"
"$RALAB" sim "$T/ea.ops" > "$T/ea.out"
bge=$(num job.bg.elapsed_us "$T/ea.out"); fge=$(num job.fg.elapsed_us "$T/ea.out")
if awk -v b="$bge" -v f="$fge" 'BEGIN { exit !(b >= f && b < f + 1000) }' &&
   [ "$(num job.later.start_us "$T/ea.out")" = "$bge" ] &&
   [ "$(num job.later2.start_us "$T/ea.out")" = "$bge" ] &&
   awk -v e="$(num job.later2.elapsed_us "$T/ea.out")" 'BEGIN { exit !(e > 0) }' &&
   [ "$(num bytes_read "$T/ea.out")" -lt 67108864 ]; then
	ok "exitall stops the jobs beside it"
else bad "exitall stops the jobs beside it" "$(grep -E '^(job\.|bytes_read)' "$T/ea.out" | grep -E 'start|elapsed|bytes' | tr '\n' ' ')"; fi
# A 'wait' job starts a group (fio's stonewall): a job after it starts
# with it, not at 0.  wait-for JOB: a job starts when that one has ended,
# beside the others (which go on starting).
printf '# file_size: 4M\n# device: loop\njob a\nread 4K eof\njob b\nwait\nread 1M eof\njob c\nread 64K eof\njob d\nwait-for c\nread 16K eof\n' > "$T/grp.ops"
"$RALAB" sim "$T/grp.ops" > "$T/grp.out"
ae=$(num job.a.elapsed_us "$T/grp.out"); bs=$(num job.b.start_us "$T/grp.out"); cs=$(num job.c.start_us "$T/grp.out")
ce=$(num job.c.elapsed_us "$T/grp.out"); ds=$(num job.d.start_us "$T/grp.out"); de=$(num job.d.elapsed_us "$T/grp.out")
if [ "$bs" = "$ae" ] && [ "$cs" = "$bs" ] &&
   awk -v cs="$cs" -v ce="$ce" -v ds="$ds" -v de="$de" 'BEGIN { d = ds - cs - ce; exit !(cs > 0 && d < 0.15 && d > -0.15 && de > 0) }'; then
	ok "a job after a 'wait' job starts with it; wait-for"
else bad "a job after a 'wait' job starts with it; wait-for" "$(grep -E '^job\.' "$T/grp.out" | grep -E 'start|elapsed' | tr '\n' ' ')"; fi
same_twice "wait-for deterministic" grp
# A job exitall stopped before it started stays stopped: its runtime,
# counted from its start, does not undo that.
printf '# file_size: 64M\n# device: loop\njob a\nread 4K eof\njob b\nexitall\nread 4K 10\njob c\nwait-for a\nruntime 100000\nread 4K 100\n' > "$T/cut.ops"
"$RALAB" sim "$T/cut.ops" > "$T/cut.out"
if [ "$(num job.c.elapsed_us "$T/cut.out")" = 0.0 ] && [ "$(num bytes_read "$T/cut.out")" -lt 1048576 ]; then
	ok "exitall stops a job not started yet"
else bad "exitall stops a job not started yet" "$(grep -E '^(job\.|bytes_read)' "$T/cut.out" | grep -E 'start|elapsed|bytes' | tr '\n' ' ')"; fi
# think USEC (fio's thinktime) follows every read call, also within one
# 'read LEN COUNT' op: 100 reads, 10 us each, add 1000 us; the fadvise
# adds none.  Same with iodepth workers.
printf '# file_size: 1M\nfadvise 0 0 dontneed\nread 4K 100\n' > "$T/nothink.ops"
printf '# file_size: 1M\nthink 10\nfadvise 0 0 dontneed\nread 4K 100\n' > "$T/think.ops"
printf '# file_size: 1M\njob a\niodepth 2\nthink 10\nfadvise 0 0 dontneed\nstride-pread 0 4096 4096 100\n' > "$T/think2.ops"
printf '# file_size: 1M\njob a\niodepth 2\nfadvise 0 0 dontneed\nstride-pread 0 4096 4096 100\n' > "$T/nothink2.ops"
a=$("$RALAB" sim "$T/think.ops" | sed -n 's/^elapsed_us=//p'); b=$("$RALAB" sim "$T/nothink.ops" | sed -n 's/^elapsed_us=//p')
c=$("$RALAB" sim "$T/think2.ops" | sed -n 's/^elapsed_us=//p'); d=$("$RALAB" sim "$T/nothink2.ops" | sed -n 's/^elapsed_us=//p')
awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { x = a - b; y = c - d
	exit !(x > 999.9 && x < 1000.1 && y > 400 && y < 600) }' &&
	ok "think per read call" || bad "think per read call" "one worker +$a-$b, two workers +$c-$d"
# think USEC EVERY (fio's thinktime_blocks): after every EVERY-th read
# call only: 100 reads, 10 us every 8th, add 12 * 10 us; with iodepth
# workers the job's calls are counted together (12 thinks over 2 workers).
# A fio job with thinktime_blocks=8 says the same.
sed 's/^think 10$/think 10 8/' "$T/think.ops" > "$T/think8.ops"
sed 's/^think 10$/think 10 8/' "$T/think2.ops" > "$T/think28.ops"
a=$("$RALAB" sim "$T/think8.ops" | sed -n 's/^elapsed_us=//p')
c=$("$RALAB" sim "$T/think28.ops" | sed -n 's/^elapsed_us=//p')
printf '[j]\nrw=read\nbs=4k\nsize=1m\nthinktime=10\nthinktime_blocks=8\nthinktime_spin=5\n' > "$T/tb.fio"
awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" 'BEGIN { x = a - b; y = c - d
	exit !(x > 119.9 && x < 120.1 && y > 40 && y < 80) }' &&
	"$RALAB" sim --dump-ops "$T/tb.fio" | grep -qx 'think 10 8' &&
	ok "think every EVERY read calls" || bad "think every EVERY read calls" "one worker +$a-$b, two workers +$c-$d"
# rate-iops N / rate BYTES (fio's rate_iops, rate; linear): read k of a job
# starts no earlier than k/N s (k*LEN/BYTES s) after the job started.
# 100 reads at 1000/s: the last starts at 99 ms; 1 MiB in 4 KiB reads at
# 1 MiB/s: the last starts at 255/256 s.
printf '# file_size: 4M\nrate-iops 1000\nread 4K 100\n' > "$T/ri.ops"
printf '# file_size: 4M\nrate 1M\nread 4K 256\n' > "$T/rb.ops"
a=$("$RALAB" sim "$T/ri.ops" | sed -n 's/^elapsed_us=//p'); b=$("$RALAB" sim "$T/rb.ops" | sed -n 's/^elapsed_us=//p')
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a >= 99000 && a < 99100 && b >= 996093.75 && b < 996200) }' &&
	ok "rate limits" || bad "rate limits" "rate-iops: $a us, rate: $b us"
# epoch: the job's clock starts at that op (fio's pre_read comes before
# it).  Think time: only the 50 reads after it add 10 us each (500 us);
# rate: the 100 reads after it are paced from it (the last 99 ms after
# it, not 149 ms after the start); runtime: 5 ms from it, after 8 MiB of
# pre-reads that alone take longer than that.
printf '# file_size: 1M\nthink 10\nfadvise 0 0 dontneed\nread 4K 50\nepoch\nread 4K 50\n' > "$T/ep-think.ops"
printf '# file_size: 1M\nfadvise 0 0 dontneed\nread 4K 50\nread 4K 50\n' > "$T/ep-none.ops"
printf '# file_size: 4M\nrate-iops 1000\nread 4K 50\nepoch\nread 4K 100\n' > "$T/ep-rate.ops"
printf '# file_size: 64M\n# device: loop\nfadvise 0 0 dontneed\nread 1M 8\n' > "$T/ep-pre.ops"
printf '# file_size: 64M\n# device: loop\nruntime 5000\nfadvise 0 0 dontneed\nread 1M 8\nepoch\nread 4K eof\n' > "$T/ep-rt.ops"
a=$("$RALAB" sim "$T/ep-think.ops" | sed -n 's/^elapsed_us=//p'); b=$("$RALAB" sim "$T/ep-none.ops" | sed -n 's/^elapsed_us=//p')
c=$("$RALAB" sim "$T/ep-rate.ops" | sed -n 's/^elapsed_us=//p')
d=$("$RALAB" sim "$T/ep-pre.ops" | sed -n 's/^elapsed_us=//p'); e=$("$RALAB" sim "$T/ep-rt.ops" | sed -n 's/^elapsed_us=//p')
awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v e="$e" 'BEGIN { x = a - b; y = e - d
	exit !(x > 499.9 && x < 500.1 && c >= 99000 && c < 99200 && d > 5000 && y >= 5000 && y < 5010) }' &&
	ok "epoch starts think, rate and runtime" ||
	bad "epoch starts think, rate and runtime" "think +$a-$b, rate $c us, runtime $e-$d"

# nfsd-like readers: four jobs pread every fourth 16 KiB chunk through one
# descriptor.  On a device that takes time the model's threads fall into
# one sequential stream, as the kernel's do (five runs on 6.18.44 in
# tests/jobs/nfsd-4x16k.kernel); on the ideal device they never wait and
# miss each other's windows, which ralab sim notes on stderr.
N=tests/jobs/nfsd-4x16k.ops
"$RALAB" sim --set device=loop --trace $N > "$T/nfsd" 2> "$T/nfsd.err"
nreq=$(grep -c '^block_rq_issue: R' "$T/nfsd"); nsync=$(grep -c '^page_cache_sync_ra' "$T/nfsd")
kmin=$(grep -v '^#' tests/jobs/nfsd-4x16k.kernel | cut -d' ' -f1 | sort -n | head -1)
kmax=$(grep -v '^#' tests/jobs/nfsd-4x16k.kernel | cut -d' ' -f1 | sort -n | tail -1)
if [ "$nreq" -ge $((kmin * 97 / 100)) ] && [ "$nreq" -le $((kmax * 103 / 100)) ] &&
   [ "$nsync" -le 16 ] && ! grep -q 'note:' "$T/nfsd.err"; then
	ok "nfsd-like shared-fd readers: $nreq requests, $nsync sync calls (kernel $kmin-$kmax)"
else
	bad "nfsd-like shared-fd readers" "$nreq requests, $nsync sync (kernel $kmin-$kmax); $(head -2 "$T/nfsd.err")"
fi
"$RALAB" sim $N > /dev/null 2> "$T/nfsd.err"
grep -q "note: 4 jobs on a device whose I/O takes no time" "$T/nfsd.err" &&
	ok "ralab sim notes jobs on the ideal device" ||
	bad "ralab sim notes jobs on the ideal device" "$(cat "$T/nfsd.err")"
"$RALAB" sim tests/cases/seed001-seq4k/case.ops > /dev/null 2> "$T/nfsd.err"
grep -q 'note:' "$T/nfsd.err" && bad "one job: no note" "$(cat "$T/nfsd.err")" || ok "one job: no note"

# Writeback takes device time: fsync after a 1 MiB write waits for its
# two 512 KiB requests (the loop preset: 55 us each, then 1676 MB/s, one
# at a time: 690 us); after DONTNEED the writeback runs on, and a read
# waits behind it on the device; without either, a write is its copies.
wt() { printf '# file_size: 16M\n# device: loop\npwrite 0 1M\n%b' "$1" > "$T/wt.ops"
       "$RALAB" sim "$T/wt.ops" | sed -n 's/^elapsed_us=//p'; }
w0=$(wt ''); w1=$(wt 'fsync\n'); w2=$(wt 'fadvise 0 0 dontneed\npread 8M 4096\n'); w3=$(wt 'pread 8M 4096\n')
if awk -v a="$w0" -v b="$w1" -v c="$w2" -v d="$w3" \
	'BEGIN { exit !(b - a > 650 && b - a < 720 && c - d > 600 && a < 200) }'; then
	ok "writeback time: fsync waits, DONTNEED's writeback delays a read"
else
	bad "writeback time" "write $w0, +fsync $w1, +dontneed+read $w2, +read $w3 us"
fi

# O_DIRECT reads at a queue depth: an io_uring or libaio task submits its
# next read while the last waits for the device, so N reads overlap (on
# nvme, no command-rate limit: 8 at once are 8 times one); on the loop
# preset requests in service share the device (dev_contention_ns), so
# depth 4 gives less than 4 times depth 1 (fio on this machine's loop
# device: 2.8-2.9 times, 2026-12-04), and it starts at most dev_iops
# (100000) requests a second, so depth 32 gives 100000 x 4 KiB
# (bench/run.sh holds both against fio on the kernel).
dq() { printf '[j]\nfilename=dq\nsize=16m\nbs=4k\nrw=randread\ndirect=1\nioengine=%s\niodepth=%s\n' "$1" "$2" > "$T/dq.fio"
       "$RALAB" sim --set device="$3" "$T/dq.fio" | sed -n 's/^throughput_mb_s=//p'; }
for e in io_uring libaio; do
	n1=$(dq $e 1 nvme); n8=$(dq $e 8 nvme); l1=$(dq $e 1 loop); l4=$(dq $e 4 loop); l32=$(dq $e 32 loop)
	if awk -v a="$n1" -v b="$n8" -v c="$l1" -v d="$l32" -v f="$l4" 'BEGIN {
		cap = 100000 * 4096 / 1e6;
		exit !(b > 7.5 * a && d > 0.97 * cap && d <= cap * 1.001 && d > 4 * c &&
		       f > 2.5 * c && f < 3.2 * c) }'; then
		ok "O_DIRECT reads overlap at iodepth ($e): nvme $n1 -> $n8 MB/s, loop $l1 -> $l4 -> $l32 MB/s"
	else
		bad "O_DIRECT reads overlap at iodepth ($e)" "nvme $n1 -> $n8, loop $l1 -> $l4 -> $l32 MB/s"
	fi
done

# 'via splice' holds for an iodepth N job's preads too (they are issued
# outside the op loop): each splices into a new pipe, so a pread of
# 200000 bytes at byte 1000 asks readahead for 17 pages (16 buffers),
# not the 50 a plain pread asks for.
printf '# file_size: 8M\njob a\niodepth 4\nvia splice\npread 1000 200000\npread 300000 200000\n' > "$T/iod-splice.ops"
sed '/^via splice$/d' "$T/iod-splice.ops" > "$T/iod-read.ops"
a=$("$RALAB" sim --trace "$T/iod-splice.ops" | grep -m1 '^page_cache_sync_ra' | sed 's/.*req_count=\([0-9]*\).*/\1/')
b=$("$RALAB" sim --trace "$T/iod-read.ops" | grep -m1 '^page_cache_sync_ra' | sed 's/.*req_count=\([0-9]*\).*/\1/')
[ "$a/$b" = 17/50 ] && ok "via splice under iodepth 4" || bad "via splice under iodepth 4" "req_count $a (splice) / $b (read), want 17/50"
