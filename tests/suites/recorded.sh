# Sourced by tests/run.sh: checking recorded cases without the kernel.
# 'ralab check DIR' compares a directory's case.ops with its recording:
# ralab's own (kernel.out.gz) or the raw event log of the shared format
# (events.txt.gz: events only, block sectors absolute on the device), as
# a held-out case would come.  tests/raw/seed003-rand64k is the shared
# recording of seed 003, copied unchanged.
R=tests/raw/seed003-rand64k
if "$RALAB" check --strict "$R" tests/cases/seed000-1m-from-0 > "$T/chk" 2>&1 &&
   [ "$(grep -c '^MATCH$' "$T/chk")" = 2 ] && grep -q '^request stream: MATCH (1581)$' "$T/chk"; then
	ok "check recorded dirs (raw and ralab format)"
else
	bad "check recorded dirs (raw and ralab format)" "$(cat "$T/chk")"
fi
# The same recording against another policy differs (exit 1): the check
# can fail.
"$RALAB" check --policy ctx-2013-old "$R" > "$T/chk2" 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^DIFFER$' "$T/chk2" && ok "check recorded dir differs" ||
	bad "check recorded dir differs" "exit $rc: $(tail -3 "$T/chk2")"
# diff reads the raw log directly (gzip'ed), sectors made file-relative.
"$RALAB" sim --trace "$R/case.ops" > "$T/s3.out"
"$RALAB" diff --strict "$R/events.txt.gz" "$T/s3.out" > "$T/d3" && ok "diff raw event log" ||
	bad "diff raw event log" "$(cat "$T/d3")"
# Derived summary: the shared summary.txt's data_reads and folio orders.
zcat "$R/events.txt.gz" > "$T/ev.txt"
"$RALAB" diff "$T/ev.txt" "$T/s3.out" > /dev/null &&
	grep -q '^data_reads=1581$' "$R/summary.txt" && grep -q '^folio_orders=0:25988 1:2 2:43 *$' "$R/summary.txt" &&
	grep -q '^data_reads=1581$' "$T/s3.out" && grep -q '^folio_orders=0:25988 1:2 2:43$' "$T/s3.out" &&
	ok "raw log summary" || bad "raw log summary" "$(grep -E '^(data_reads|folio_orders)=' "$T/s3.out")"
# A directory without a recording is an input error.
mkdir -p "$T/norec"
expect_rc "check dir without recording" 2 "$RALAB" check "$T/norec"
# Every command takes a case directory for its case.ops.
"$RALAB" sim tests/cases/seed000-1m-from-0/ > "$T/sd" &&
	"$RALAB" sim tests/cases/seed000-1m-from-0/case.ops | cmp -s - "$T/sd" &&
	ok "sim takes a case directory" || bad "sim takes a case directory" "$(head -3 "$T/sd")"
# Files in several extents (tests/cases/frag-*: recorded cases again with
# extent_kb, checked strictly with the others above).  Modelled as one
# extent, as before extent_kb, about half of them lose the kernel's
# request stream: the layout, not luck, makes them match.
nfrag=0 nlost=0
for d in tests/cases/frag-*/; do
	nfrag=$((nfrag + 1))
	"$RALAB" sim --trace --set extent_kb=0 "$d/case.ops" > "$T/f0" 2> /dev/null
	"$RALAB" diff --strict "$d/kernel.out.gz" "$T/f0" > /dev/null 2>&1 ||
		nlost=$((nlost + 1))
done
[ $nfrag -ge 60 ] && [ $nlost -ge 25 ] && ok "fragmented files need their layout" ||
	bad "fragmented files need their layout" "$nlost of $nfrag cases differ as one extent (want >= 25 of >= 60)"
# A recording by kprobes (kernels before 6.18: no readahead tracepoints,
# no ra->order; src/kernel/recorder.c, tests/tools/check-vm.sh): its sync
# and async calls lack order=, and diff compares the model's without it.
# The calls recorded under 6.12.117 (tests/kernels/linux-6.12) with their
# events, against linux-6.12: MATCH; one field changed: DIFFER.
n=bigmix-04-ext4-ra128-msk64
{ zcat tests/kernels/linux-6.12/$n.events.gz; zcat tests/kernels/linux-6.12/$n.ra.gz; } > "$T/kp.txt"
"$RALAB" sim --trace --policy linux-6.12 tests/cases/$n/case.ops > "$T/kp.sim"
if "$RALAB" diff --strict "$T/kp.txt" "$T/kp.sim" > "$T/kp.out" 2>&1 &&
   grep -q '^readahead events: sync and async calls compared without order=' "$T/kp.out" &&
   grep -q '^readahead events: MATCH (2)$' "$T/kp.out"; then
	ok "diff: calls recorded without order="
else
	bad "diff: calls recorded without order=" "$(cat "$T/kp.out")"
fi
sed 's/^\(page_cache_sync_ra: index=1976 req_count=\)2/\13/' "$T/kp.txt" > "$T/kp2.txt"
"$RALAB" diff --strict "$T/kp2.txt" "$T/kp.sim" > "$T/kp2.out" 2>&1
[ $? = 1 ] && grep -q '^readahead events: DIFFER at #1' "$T/kp2.out" &&
	ok "diff: calls recorded without order= can differ" ||
	bad "diff: calls recorded without order= can differ" "$(cat "$T/kp2.out")"
# --ignore FIELD: 6.1 moves prev_pos after each folio copied, which timing
# decides there; msk128-1m's calls under 6.1.192 differ from linux-6.1's
# in prev_pos alone.
n=msk128-1m
{ zcat tests/kernels/linux-6.1/$n.events.gz; zcat tests/kernels/linux-6.1/$n.ra.gz; } > "$T/k61.txt"
"$RALAB" sim --trace --policy linux-6.1 tests/cases/$n/case.ops > "$T/k61.sim"
"$RALAB" diff "$T/k61.txt" "$T/k61.sim" > "$T/k61.out" 2>&1
rc1=$?
"$RALAB" diff --ignore prev_pos "$T/k61.txt" "$T/k61.sim" > "$T/k61i.out" 2>&1
rc2=$?
[ $rc1 = 1 ] && grep -q 'prev_pos=' "$T/k61.out" && [ $rc2 = 0 ] &&
	grep -q '^readahead events: compared without prev_pos=$' "$T/k61i.out" &&
	ok "diff --ignore prev_pos" ||
	bad "diff --ignore prev_pos" "exit $rc1/$rc2: $(head -5 "$T/k61.out" "$T/k61i.out")"
expect_rc "diff --ignore bad field" 2 "$RALAB" diff --ignore colour "$T/k61.txt" "$T/k61.sim"
expect_rc "check --ignore bad field" 2 "$RALAB" check --ignore colour tests/cases/$n
# Where the filesystem broke a file by itself (ext4's block groups), the
# recording says so (breaks_at=) and check gives the breaks to the model;
# ralab sim alone, which does not know them, differs.
L=tests/layout/ext4-fs-breaks
if "$RALAB" check --strict "$L" > "$T/lb" 2>&1 && grep -q '^request stream: MATCH (196)$' "$T/lb"; then
	ok "check models the filesystem's breaks"
else
	bad "check models the filesystem's breaks" "$(tail -8 "$T/lb")"
fi
"$RALAB" sim --trace "$L/case.ops" > "$T/lb.sim"
"$RALAB" diff --strict "$L/kernel.out.gz" "$T/lb.sim" > /dev/null 2>&1
[ $? = 1 ] && ok "breaks unknown to the model differ" ||
	bad "breaks unknown to the model differ" "sim without breaks_at matched"
# DONTNEED right after readahead finds the readahead's folios under I/O
# and the kernel keeps them (tests/cases/sweep-w10-*, sweep-x22-*: stored
# with '# device: loop').  The time model must decide it: on the ideal
# device, whose I/O is done at once, both cases lose the kernel's events.
for c in tests/cases/sweep-w10-*/ tests/cases/sweep-x22-*/; do
	n=$(basename "$c")
	zcat "$c/kernel.out.gz" > "$T/dn.k"
	"$RALAB" sim --trace --set device=ideal "$c/case.ops" > "$T/dn.i"
	"$RALAB" sim --trace "$c/case.ops" > "$T/dn.l"
	if "$RALAB" diff --strict "$T/dn.k" "$T/dn.l" > /dev/null &&
	   ! "$RALAB" diff "$T/dn.k" "$T/dn.i" > "$T/dn.d"; then
		ok "DONTNEED after readahead: in flight on loop, dropped on ideal ($n)"
	else
		bad "DONTNEED after readahead ($n)" "$(tail -3 "$T/dn.d")"
	fi
done
# Several jobs: every event names its job (job=NAME), and diff compares
# each job's events in order, job by job, since how threads interleave is
# timing.  The recorded jobs-* cases (threads on pages no other job reads)
# match strictly above; here the grouping itself: the same events in
# another interleaving match, one job's events out of order do not.
J=tests/cases/jobs-3files-seq-rand-mmap
"$RALAB" sim --trace "$J/case.ops" > "$T/j.out" 2>/dev/null
# Every job c event moved to the end: another interleaving.
awk '/ job=c$/ { c[n++] = $0; next } { print } END { for (i = 0; i < n; i++) print c[i] }' "$T/j.out" > "$T/j.moved"
# Two folio events of job b swapped: the same counts, another order.
awk '/^mm_filemap.* job=b$/ && !done { if (held == "") { held = $0; next } print; print held; done = 1; next } { print }' "$T/j.out" > "$T/j.swapped"
if ! cmp -s "$T/j.out" "$T/j.moved" &&
   "$RALAB" diff --strict "$T/j.out" "$T/j.moved" > "$T/j.d1" &&
   grep -q '^jobs: each job' "$T/j.d1" &&
   ! "$RALAB" diff --strict "$T/j.out" "$T/j.swapped" > "$T/j.d2" &&
   grep -q '^folio stream: DIFFER' "$T/j.d2" && grep -q 'job=b' "$T/j.d2"; then
	ok "diff compares several jobs job by job"
else
	bad "diff compares several jobs job by job" "$(cat "$T/j.d1" "$T/j.d2" 2>/dev/null | head -20)"
fi
# Without job fields on one side (a recording made before them), in order.
sed 's/ job=[^ ]*$//' "$T/j.out" > "$T/j.plain"
"$RALAB" diff --strict "$T/j.plain" "$T/j.out" > "$T/j.d3" && ! grep -q '^jobs:' "$T/j.d3" &&
	ok "diff without job fields on one side" || bad "diff without job fields on one side" "$(cat "$T/j.d3")"
# check --set changes the model, not the recording: the same DONTNEED
# case on the ideal device differs (with a note pointing at the device);
# a bad setting is an option error.
C=$(ls -d tests/cases/sweep-x22-*/)
"$RALAB" check --strict "$C" > /dev/null 2>&1; r1=$?
"$RALAB" check --strict --set device=ideal "$C" > "$T/cs.out" 2>&1; r2=$?
"$RALAB" check --set no_such_key=1 "$C" > /dev/null 2> "$T/cs.err"; r3=$?
if [ $r1 = 0 ] && [ $r2 = 1 ] && grep -q '^DIFFER$' "$T/cs.out" &&
   grep -q 'try --set device=loop' "$T/cs.out" && [ $r3 = 2 ] &&
   grep -q "unknown setting 'no_such_key'" "$T/cs.err"; then
	ok "check --set"
else
	bad "check --set" "exit $r1 $r2 $r3: $(cat "$T/cs.err")"
fi

# Request streams that differ only in where contiguous reads were cut into
# requests (the same runs of sectors in the same order, the same folios)
# are the block layer's merging of physically adjacent pages, which the
# model does not know: 'ralab check' says so (the case still differs).
# Recorded: a 1 MiB request of order-0 pages at max_sectors_kb 1280 (mmap
# truncate sweep seed 7, m00) and a 12 KiB request where a bio of more
# than 256 order-0 pages ended at max_sectors_kb 16 (seedshape seed 8,
# ss-04).  A request moved by a sector is no such difference.
for d in tests/recordings/physmerge-msk1280 tests/recordings/physmerge-bio; do
	"$RALAB" check --strict "$d" > "$T/pm.out" 2> "$T/pm.err"; rc=$?
	if [ $rc = 1 ] && grep -q '^folio stream: MATCH' "$T/pm.out" &&
	   grep -q '^request stream: the same sectors in the same order, cut into requests differently (largest: [0-9]* KiB in kernel, [0-9]* KiB in ralab)' "$T/pm.out"; then
		ok "check: physical page merging said ($(basename "$d"))"
	else
		bad "check: physical page merging said ($(basename "$d"))" "rc=$rc $(cat "$T/pm.out" "$T/pm.err" | head -20)"
	fi
done
"$RALAB" sim --trace tests/recordings/physmerge-msk1280/case.ops > "$T/pm.sim" 2> /dev/null
zcat tests/recordings/physmerge-msk1280/kernel.out.gz |
	sed '0,/^block_rq_issue: RA 1048576 0 + 2048$/s//block_rq_issue: RA 1048576 8 + 2048/' > "$T/pm.moved"
"$RALAB" diff --strict "$T/pm.moved" "$T/pm.sim" > "$T/pm.out" 2>&1; rc=$?
if [ $rc = 1 ] && ! cmp -s <(zcat tests/recordings/physmerge-msk1280/kernel.out.gz) "$T/pm.moved" &&
   grep -q '^request stream: DIFFER' "$T/pm.out" && ! grep -q 'cut into requests' "$T/pm.out"; then
	ok "diff: a moved request is not called merging"
else
	bad "diff: a moved request is not called merging" "rc=$rc $(head -20 "$T/pm.out")"
fi

# Recordings with folio_pfns= (where the kernel put each folio added):
# the model's folios lie there, and bio_add_folio() merges those the
# kernel's merged.  These cases differ without it under either
# phys_merge setting: a bio whose 256 vectors held 641 pages ending in
# a 4 KiB request (populate seed 39's p09, max_sectors_kb 16), 1 MiB
# requests where runs of pages merged into segments (bigop seed 64's
# big-17, max_sectors_kb 1280), 500 requests against the model's 713
# without (seedshape seed 53's ss-21).
for c in populate-s39-p09-ext4-ra4096-msk16 bigop-s64-big-17-xfs-ra8192-msk1280 \
	 seedshape-s53-ss-21-xfs-ra128-msk1024; do
	rm -rf "$T/nopfn" && mkdir "$T/nopfn" && cp tests/cases/$c/case.ops "$T/nopfn/" &&
	zcat tests/cases/$c/kernel.out.gz | grep -v '^folio_pfns=' > "$T/nopfn/kernel.out"
	"$RALAB" check --strict tests/cases/$c > "$T/pf.out" 2>&1; r=$?
	"$RALAB" check --strict "$T/nopfn" > "$T/pf0.out" 2> "$T/pf0.err"; r0=$?
	"$RALAB" check --strict --set phys_merge=1 "$T/nopfn" > "$T/pf1.out" 2>&1; r1=$?
	if [ $r = 0 ] && [ $r0 = 1 ] && [ $r1 = 1 ] &&
	   zcat tests/cases/$c/kernel.out.gz | grep -q '^folio_pfns=[1-9]' &&
	   grep -q '^request stream: MATCH' "$T/pf.out" &&
	   grep -q '^folio stream: MATCH' "$T/pf0.out" &&
	   grep -q '^request stream: DIFFER' "$T/pf0.out" "$T/pf1.out"; then
		ok "check: folios where the recording put them ($c)"
	else
		bad "check: folios where the recording put them ($c)" "rc=$r $r0 $r1 $(cat "$T/pf.out" "$T/pf0.out" | head -20)"
	fi
done
# 'ralab diff' of such a recording against 'ralab sim' (no placement
# given) names the line and where to use it; without it, not.
C=tests/cases/populate-s39-p09-ext4-ra4096-msk16
zcat $C/kernel.out.gz > "$T/pfk.out"
grep -v '^folio_pfns=' "$T/pfk.out" > "$T/pfk0.out"
"$RALAB" sim --trace $C/case.ops > "$T/pfs.out" 2> /dev/null
"$RALAB" diff --strict "$T/pfk.out" "$T/pfs.out" > "$T/pfd.out" 2>&1; r=$?
"$RALAB" diff --strict "$T/pfk0.out" "$T/pfs.out" > "$T/pfd0.out" 2>&1; r0=$?
if [ $r = 1 ] && [ $r0 = 1 ] && grep -q "cut into requests differently.*this recording says where the kernel put them (folio_pfns=), which 'ralab check' of its directory or 'ralab sim --placement' gives the model" "$T/pfd.out" &&
   grep -q 'cut into requests differently' "$T/pfd0.out" && ! grep -q 'folio_pfns' "$T/pfd0.out"; then
	ok "diff: a recording's folio_pfns= named"
else
	bad "diff: a recording's folio_pfns= named" "rc=$r $r0 $(grep 'cut into' "$T/pfd.out" "$T/pfd0.out")"
fi
# 'ralab sim --placement REC' places the folios as the recording says:
# the same run then matches it strictly; a recording without the line,
# a file that is not there and a malformed line are refused, exit 2,
# before anything runs.
"$RALAB" sim --trace --placement $C/kernel.out.gz $C/case.ops > "$T/pfp.out" 2> /dev/null; r=$?
"$RALAB" diff --strict "$T/pfk.out" "$T/pfp.out" > "$T/pfpd.out" 2>&1; r1=$?
if [ $r = 0 ] && [ $r1 = 0 ] && grep -q '^request stream: MATCH' "$T/pfpd.out"; then
	ok "sim --placement: the recording's requests"
else
	bad "sim --placement: the recording's requests" "rc=$r $r1 $(head -20 "$T/pfpd.out")"
fi
expect_rc "sim --placement: a recording without folio_pfns=" 2 \
	"$RALAB" sim --placement "$T/pfk0.out" $C/case.ops
grep -q "^ralab sim: --placement $T/pfk0.out: no folio_pfns= line" "$T/err" && [ ! -s "$T/out" ] ||
	bad "sim --placement: a recording without folio_pfns=: message" "$(cat "$T/err" "$T/out" | head -5)"
expect_rc "sim --placement: no such file" 2 "$RALAB" sim --placement "$T/nothing" $C/case.ops
grep -q "^ralab sim: --placement $T/nothing: No such file or directory" "$T/err" ||
	bad "sim --placement: no such file: message" "$(head -3 "$T/err")"
sed 's/^folio_pfns=.*/folio_pfns=12 x/' "$T/pfk.out" > "$T/pfkx.out"
expect_rc "sim --placement: a malformed line" 2 "$RALAB" sim --placement "$T/pfkx.out" $C/case.ops
grep -q "^$T/pfkx.out:[0-9]*: folio_pfns=: not a number$" "$T/err" && [ ! -s "$T/out" ] ||
	bad "sim --placement: a malformed line: message" "$(head -3 "$T/err")"
expect_rc "sim --placement: no value" 2 "$RALAB" sim $C/case.ops --placement
# A folio_pfns= line the model cannot use is an error: FILE:LINE, exit 2,
# nothing compared.
C=populate-s39-p09-ext4-ra4096-msk16
zcat tests/cases/$C/kernel.out.gz > "$T/pf.good"
pl=$(grep -n '^folio_pfns=' "$T/pf.good" | cut -d: -f1)
for bad in 'x1:not a number' '0 0*3:no page frame number' '5 0*0:a run must be "0\*N"' \
	   '5 7*2:a run must be "0\*N"' '5:fewer pfns than folios added' \
	   '5 0*100000:more pfns than folios added' '5 -9:no page frame number' \
	   '4503599627370496:no page frame number' '5 99999999999999999999:not a number'; do
	line=${bad%%:*}; want=${bad#*:}
	rm -rf "$T/pfbad" && mkdir "$T/pfbad" && cp tests/cases/$C/case.ops "$T/pfbad/"
	sed "s/^folio_pfns=.*/folio_pfns=$line/" "$T/pf.good" > "$T/pfbad/kernel.out"
	"$RALAB" check --strict "$T/pfbad" > "$T/pfb.out" 2> "$T/pfb.err"; r=$?
	if [ $r = 2 ] && grep -q "^$T/pfbad/kernel.out:$pl: folio_pfns=: $want\$" "$T/pfb.err" &&
	   [ ! -s "$T/pfb.out" ]; then
		ok "check: folio_pfns=$line refused"
	else
		bad "check: folio_pfns=$line refused" "rc=$r $(head -c 300 "$T/pfb.err") $(head -c 200 "$T/pfb.out")"
	fi
done
# An add line the model cannot read: an error where the recording has
# pfns to give (its line named), not where it has none.
sed '0,/^mm_filemap_add_to_page_cache: ofs=/s//mm_filemap_add_to_page_cache: at=/' "$T/pf.good" > "$T/pfbad/kernel.out"
al=$(grep -n '^mm_filemap_add_to_page_cache: at=' "$T/pfbad/kernel.out" | cut -d: -f1)
"$RALAB" check --strict "$T/pfbad" > "$T/pfb.out" 2> "$T/pfb.err"; r=$?
grep -v '^folio_pfns=' "$T/pfbad/kernel.out" > "$T/pfb.k" && mv "$T/pfb.k" "$T/pfbad/kernel.out"
"$RALAB" check --strict "$T/pfbad" > "$T/pfb0.out" 2> "$T/pfb0.err"; r0=$?
if [ $r = 2 ] && grep -q "kernel.out:$al: folio_pfns=: an add event without ofs= and order=$" "$T/pfb.err" &&
   [ $r0 = 1 ] && ! grep -q 'folio_pfns' "$T/pfb0.err"; then
	ok "check: an add line without ofs= refused where pfns are given"
else
	bad "check: an add line without ofs= refused where pfns are given" "rc=$r $r0 $(head -c 300 "$T/pfb.err") $(head -c 300 "$T/pfb0.err")"
fi
(cat "$T/pf.good"; echo 'folio_pfns=5') > "$T/pfbad/kernel.out"
"$RALAB" check --strict "$T/pfbad" > "$T/pfb.out" 2> "$T/pfb.err"; r=$?
if [ $r = 2 ] && grep -q 'kernel.out:[0-9]*: folio_pfns=: a second folio_pfns= line$' "$T/pfb.err"; then
	ok "check: a second folio_pfns= line refused"
else
	bad "check: a second folio_pfns= line refused" "rc=$r $(head -c 300 "$T/pfb.err")"
fi

# Where the kernel's folios lay in memory (phys_merge): with 1, a read's
# folios one after another, merged into 64 KiB segments.  The recording
# above (1 MiB requests of order-0 pages at max_sectors_kb 1280) matches
# strictly with phys_merge 1, and 'ralab check' says so when run with 0;
# a case recorded with its pages apart (seedshape seed 15, ss-00: its
# first 1 MiB read two requests of 512 KiB) differs with 1, and the note
# names 0.  At max_sectors_kb 512, 128 page segments never cut a request
# before max_sectors_kb does: seed 000's case matches either way.
d=tests/recordings/physmerge-msk1280
"$RALAB" check --strict "$d" > "$T/pm0.out" 2> "$T/pm0.err"; r0=$?
"$RALAB" check --strict --set phys_merge=1 "$d" > "$T/pm1.out" 2> "$T/pm1.err"; r1=$?
if [ $r0 = 1 ] && [ $r1 = 0 ] && grep -q '^request stream: MATCH' "$T/pm1.out" &&
   grep -q 'with --set phys_merge=1 (the folios of a read one after another in memory) the model matches' "$T/pm0.err" &&
   ! grep -q 'try --set device=loop' "$T/pm0.err"; then
	ok "check: phys_merge=1 matches pages merged in memory"
else
	bad "check: phys_merge=1 matches pages merged in memory" "rc=$r0 $r1 $(cat "$T/pm0.err" "$T/pm1.out" | head -20)"
fi
C=$(ls -d tests/cases/seedshape-s15-ss-00-*/)
"$RALAB" check --strict "$C" > /dev/null 2>&1; r0=$?
"$RALAB" check --strict --set phys_merge=1 "$C" > "$T/pm1.out" 2> "$T/pm1.err"; r1=$?
if [ $r0 = 0 ] && [ $r1 = 1 ] &&
   grep -q '^data_reads: DIFFER (kernel: 65; ralab: 64)' "$T/pm1.out" &&
   grep -q 'with --set phys_merge=0 (no two folios adjacent in memory) the model matches' "$T/pm1.err"; then
	ok "check: phys_merge=0 matches pages apart in memory"
else
	bad "check: phys_merge=0 matches pages apart in memory" "rc=$r0 $r1 $(cat "$T/pm1.out" "$T/pm1.err" | head -20)"
fi
if "$RALAB" check --strict --set phys_merge=1 tests/cases/seed000-4k-then-1m > /dev/null 2>&1 &&
   "$RALAB" check --strict --set phys_merge=1 tests/cases/seed000-1m-from-0 > /dev/null 2>&1; then
	ok "check: phys_merge=1 changes nothing at max_sectors_kb 512"
else
	bad "check: phys_merge=1 changes nothing at max_sectors_kb 512" "seed 000's cases differ with phys_merge=1"
fi
# 'ralab sim' says when max_segments cut bios (phys_merge 0) and how many;
# not where max_sectors_kb cuts first (seed 000 at 512), nor with 1, nor
# for an O_DIRECT read (its buffer's pages are no page cache folios: the
# same 8 requests with either setting).
C=tests/cases/physmerge-rand1m-msk1024/case.ops
"$RALAB" sim --set phys_merge=0 "$C" > /dev/null 2> "$T/n0"
"$RALAB" sim "$C" > /dev/null 2> "$T/n1"
"$RALAB" sim tests/cases/seed000-4k-then-1m/case.ops > /dev/null 2> "$T/n2"
printf '# file_size: 64M\n# max_sectors_kb: 1024\nopen direct\npread 0 4M\n' > "$T/d.ops"
"$RALAB" sim "$T/d.ops" > "$T/d0" 2> "$T/n3"
"$RALAB" sim --set phys_merge=1 "$T/d.ops" > "$T/d1" 2>&1
if grep -q 'note: max_segments (128) cut 212 bio(s) of small folios' "$T/n0" &&
   ! grep -q 'max_segments' "$T/n1" "$T/n2" "$T/n3" &&
   grep -q '^data_reads=8$' "$T/d0" && grep -q '^data_reads=8$' "$T/d1"; then
	ok "sim: note where max_segments cuts bios"
else
	bad "sim: note where max_segments cuts bios" "$(cat "$T/n0" "$T/n1" "$T/n2" | head -5)"
fi
