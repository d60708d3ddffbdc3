# Sourced by tests/run.sh: input errors and the command line.

# --- input errors: FILE:LINE: message, exit 2, nothing on stdout ----------
while IFS='|' read -r file line text; do
	case "$file" in ''|'#'*) continue ;; esac
	f=tests/errors/$file
	"$RALAB" sim "$f" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$line" = 0 ]; then want="$f: "; else want="$f:$line: "; fi
	msg=$(head -n 1 "$T/err")
	if [ $rc -ne 2 ]; then bad "error $file" "exit $rc, want 2"
	elif [ -s "$T/out" ]; then bad "error $file" "printed to stdout"
	elif [ "${msg#"$want"}" = "$msg" ]; then bad "error $file" "'$msg' does not start with '$want'"
	elif [ "${msg#*"$text"}" = "$msg" ]; then bad "error $file" "'$msg' lacks '$text'"
	else ok "error $file"; fi
done < tests/errors/expected.txt
# Every error file is listed.
for f in tests/errors/*.ops; do
	grep -q "^$(basename "$f")|" tests/errors/expected.txt ||
		bad "error $(basename "$f")" "not listed in tests/errors/expected.txt"
done

# --- command line ---------------------------------------------------------
expect_rc "cli help" 0 "$RALAB" --help
grep -q 'sim CASE.ops' "$T/out" || bad "cli help text" "no sim command"
expect_rc "cli sim help" 0 "$RALAB" sim --help
for opt in --trace --policy --set --parse-only; do
	grep -q -- "$opt" "$T/out" || bad "cli sim help" "does not describe $opt"
done
expect_rc "cli unknown command" 2 "$RALAB" frob
# Copies of 512 KiB out of a mapping: the C library decides the order of
# the faults, and sim says so unless the machine's memcpy is given.
mcase=tests/cases/memcpy-read-movsb/case.ops
expect_rc "cli memcpy note" 0 "$RALAB" sim "$mcase"
grep -q "note: the workload copies blocks of up to 512 KiB" "$T/err" ||
	bad "cli memcpy note" "no note on the C library's memcpy: $(head -c 300 "$T/err")"
expect_rc "cli memcpy note, range given" 0 "$RALAB" sim \
	--set memcpy_back_min=1048576 --set memcpy_back_max=133169152 "$mcase"
[ -s "$T/err" ] && bad "cli memcpy note, range given" "$(head -c 300 "$T/err")"
expect_rc "cli unknown option" 2 "$RALAB" sim --frob tests/cases/seed001-seq4k/case.ops
expect_rc "cli missing case" 2 "$RALAB" sim
expect_rc "cli nonexistent file" 2 "$RALAB" sim "$T/nope.ops"
grep -q "$T/nope.ops: cannot open" "$T/err" || bad "cli nonexistent file" "message: $(cat "$T/err")"
expect_rc "cli unknown policy" 2 "$RALAB" sim --policy nope tests/cases/seed001-seq4k/case.ops
expect_rc "cli bad --set" 2 "$RALAB" sim --set read_ahead_kb=x tests/cases/seed001-seq4k/case.ops
expect_rc "cli --set unknown key" 2 "$RALAB" sim --set colour=blue tests/cases/seed001-seq4k/case.ops
expect_rc "cli --parse-only" 0 "$RALAB" sim --parse-only tests/cases/seed001-seq4k/case.ops
# 66 files: a direct write to the 66th is not taken for one to the second,
# which a truncate resized (a 64-bit mask of files did that; fuzz_ops).
{ echo '# file_size: 1M'; for i in $(seq 1 65); do echo "file f$i 64K"
	[ "$i" = 1 ] && echo 'truncate 4096'; done
  printf 'open f65 direct\npwrite 0 4096\n'; } > "$T/many.ops"
expect_rc "direct write to the 66th file" 0 "$RALAB" sim "$T/many.ops"
expect_rc "cli calibrate --runs 0" 2 "$RALAB" calibrate --runs 0 tests/cases/seed001-seq4k/case.ops tests/cases/rand-4k/case.ops
grep -q 'runs must be from 1 to 20' "$T/err" || bad "cli calibrate --runs message" "$(head -c 200 "$T/err")"
[ -s "$T/out" ] && bad "cli --parse-only" "printed output"
expect_rc "cli policies" 0 "$RALAB" policies
grep -q '^linux-6.18 ' "$T/out" || bad "cli policies" "no linux-6.18"
grep -q '^roberts-2025/04 *on linux-6.9: ' "$T/out" || bad "cli policies" "no roberts-2025/04"
# Splicing before 6.5 (filemap_read() with a pipe iterator) is not modelled:
# refused under linux-6.1 and the 3.11 policies, with the reason, before
# anything runs; 6.8 has filemap_splice_read().
expect_rc "cli splice under linux-6.1" 2 "$RALAB" sim --policy linux-6.1 tests/cases/splice-ext4-ra512/case.ops
grep -q "splice(2), sendfile(2) or 'via splice' a kernel of 6.5 or later" "$T/err" && [ ! -s "$T/out" ] ||
	bad "cli splice under linux-6.1 message" "$(head -c 300 "$T/err")"
expect_rc "cli splice under ctx-2013-new" 2 "$RALAB" compare --policy linux-6.18 --policy ctx-2013-new tests/cases/splice-ext4-ra512/case.ops
expect_rc "cli splice under linux-6.8" 0 "$RALAB" sim --policy linux-6.8 tests/cases/splice-ext4-ra512/case.ops
# A series' name applies all its patches, to its own base only.
expect_rc "cli series name" 0 "$RALAB" sim --policy linux-6.9+roberts-2025 tests/cases/seed001-seq4k/case.ops
expect_rc "cli series on another base" 2 "$RALAB" sim --policy linux-6.18+roberts-2025 tests/cases/seed001-seq4k/case.ops
grep -q 'patch roberts-2025/01 applies to linux-6.9, not to linux-6.18' "$T/err" || bad "cli series on another base message" "$(head -c 200 "$T/err")"
expect_rc "cli series name prefix" 2 "$RALAB" sim --policy linux-6.9+roberts tests/cases/seed001-seq4k/case.ops
grep -q "unknown patch 'roberts'" "$T/err" || bad "cli series name prefix message" "$(head -c 200 "$T/err")"

# The default job: the seed-000 case, whose kernel count is 3327.
expect_rc "cli default" 0 "$RALAB"
grep -Eq "^linux-6.18 +3327 " "$T/out" && grep -Eq "^park-2026 +1030 " "$T/out" || bad "cli default" "unexpected: $(cat "$T/out")"

# --set overrides the header exactly as editing the header would.
sed 's/^# read_ahead_kb: 128/# read_ahead_kb: 512/' tests/cases/seed001-seq4k/case.ops > "$T/ra512.ops"
"$RALAB" sim "$T/ra512.ops" | grep -v '^case=' > "$T/a"
"$RALAB" sim --set read_ahead_kb=512 tests/cases/seed001-seq4k/case.ops | grep -v '^case=' > "$T/b"
if cmp -s "$T/a" "$T/b" && grep -q 'read_ahead_kb=512' "$T/b"; then ok "cli --set"
else bad "cli --set" "differs from the edited header"; fi

# Sizes take K, M, G, T and KiB, MiB, GiB, TiB alike (powers of 1024).
sed -e 's/^# file_size: 256M/# file_size: 256MiB/' -e 's/^rand-pread 64K/rand-pread 64KiB/' \
	tests/cases/seed003-rand64k/case.ops > "$T/kib.ops"
"$RALAB" sim "$T/kib.ops" | grep -v '^case=' > "$T/a"
"$RALAB" sim tests/cases/seed003-rand64k/case.ops | grep -v '^case=' > "$T/b"
if grep -q 'KiB' "$T/kib.ops" && cmp -s "$T/a" "$T/b"; then ok "KiB sizes"
else bad "KiB sizes" "differs from K"; fi

# Deterministic: the same input gives byte-identical output.
"$RALAB" sim --trace tests/cases/seed003-rand64k/case.ops > "$T/r1"
"$RALAB" sim --trace tests/cases/seed003-rand64k/case.ops > "$T/r2"
if cmp -s "$T/r1" "$T/r2"; then ok "deterministic"; else bad "deterministic" "two runs differ"; fi

# Touching a mapped page again changes nothing: one byte in every 3 reads
# as one byte per page (and 64 Mi touches take no time).
printf '# file_size: 64M\nmmap 0 64M\ntouch 1 65535K %s\nmunmap\n' 3 > "$T/t3.ops"
printf '# file_size: 64M\nmmap 0 64M\ntouch 1 65535K %s\nmunmap\n' 4096 > "$T/t4k.ops"
"$RALAB" sim --trace --set device=loop "$T/t3.ops" | grep -v '^case=' > "$T/t3"
"$RALAB" sim --trace --set device=loop "$T/t4k.ops" | grep -v '^case=' > "$T/t4k"
if cmp -s "$T/t3" "$T/t4k" && grep -q '^data_reads=[1-9]' "$T/t3"; then ok "touch step below a page"
else bad "touch step below a page" "step 3 and step 4096 differ"; fi

# diff reports a divergence and exits 1.
sed '0,/^page_cache_sync_ra/s/req_count=16 /req_count=15 /' "$T/r1" > "$T/r3"
expect_rc "diff detects a change" 1 "$RALAB" diff "$T/r1" "$T/r3"
"$RALAB" diff "$T/r1" "$T/r3" | grep -q '^readahead events: DIFFER' || bad "diff report" "no DIFFER line"
expect_rc "diff same" 0 "$RALAB" diff "$T/r1" "$T/r2"
expect_rc "diff bad input" 2 "$RALAB" diff "$T/r1" /dev/null


# Several cases to one sim: each one's output after '== CASE', as if run
# alone; an error in any runs none.
c1=tests/cases/seed001-seq4k/case.ops c2=tests/cases/rand-4k/case.ops
{ echo "== $c1"; "$RALAB" sim --trace "$c1"; echo "== $c2"; "$RALAB" sim --trace "$c2"; } > "$T/s1"
"$RALAB" sim --trace "$c1" "$c2" > "$T/s2"
if cmp -s "$T/s1" "$T/s2" && [ "$(grep -c '^== ' "$T/s2")" = 2 ]; then ok "sim several cases"
else bad "sim several cases" "differs from one run each"; fi
expect_rc "sim several cases, one bad" 2 "$RALAB" sim "$c1" tests/errors/alloc-fail-order-too-big.ops
[ -s "$T/out" ] && bad "sim several cases, one bad" "ran: $(head -3 "$T/out")"
# In JSON, one array: each element the object the case gives alone.
"$RALAB" sim --format json "$c1" "$c2" > "$T/sj" 2> "$T/sj.err"
"$RALAB" sim --format json "$c1" > "$T/sj1" && "$RALAB" sim --format json "$c2" > "$T/sj2"
if python3 - "$T/sj" "$T/sj1" "$T/sj2" <<'PY' 2> "$T/sj.err"
import json, sys
a = json.load(open(sys.argv[1]))
assert isinstance(a, list) and len(a) == 2, a
assert a == [json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))]
PY
then ok "sim several cases, json: one array"
else bad "sim several cases, json: one array" "$(tail -2 "$T/sj.err")"; fi
expect_rc "sim several cases, csv" 2 "$RALAB" sim --format csv "$c1" "$c2"

# A write into a file's own holes (# holes): the filesystem allocates
# blocks there, which ralab does not model (and `ralab kernel` refuses to
# record), so 'ralab sim' says so and counts the writes: write(2),
# pwrite(2), write faults on clean folios (a touch, MADV_POPULATE_WRITE;
# an O_DIRECT write there is refused, tests/errors).  Not for
# writes beside the holes, nor into a file truncated first (its holes are
# modelled as written ranges).
hw=0
for body in 'pwrite 1048576 4096' 'seek 1040000\nwrite 16384' \
	'mmap 0 4M\ntouch 1048576 1 4096 write\nmunmap 0' \
	'mmap 0 4M\nmadvise 1052672 8192 populate_write\nmunmap 0' 'pwrite 1048576 4096\npwrite 1064960 4096'; do
	hw=$((hw + 1))
	printf "# fs: xfs\n# file_size: 4M\n# holes: 1M+64K\n$body\nfsync\nfadvise 0 0 dontneed\npread 1M 64K\n" > "$T/hw$hw.ops"
done
printf '# file_size: 4M\n# holes: 1M+64K\npwrite 0 8192\npwrite 1200000 4096\nmmap 0 4M\ntouch 1114112 1 4096 write\n' > "$T/hw-beside.ops"
printf '# file_size: 4M\n# holes: 1M+64K\ntruncate 0\npwrite 1048576 4096\n' > "$T/hw-trunc.ops"
note=
for k in 1 2 3 4 5; do
	"$RALAB" sim "$T/hw$k.ops" > /dev/null 2> "$T/hw.err" || note="$note hw$k:rc"
	want=1; [ $k -ge 4 ] && want=2
	grep -q "^ralab sim: note: $want write(s) reached into a file's own holes (# holes)" "$T/hw.err" || note="$note hw$k:$(head -c 100 "$T/hw.err")"
done
for k in beside trunc; do
	"$RALAB" sim "$T/hw-$k.ops" > /dev/null 2> "$T/hw.err" || note="$note $k:rc"
	! grep -q "own holes" "$T/hw.err" || note="$note $k:noted"
done
if [ -z "$note" ]; then ok "sim: note on writes into a file's own holes"
else bad "sim: note on writes into a file's own holes" "$note"; fi
# The same for holes the case punched (and on XFS zeroed: its blocks are
# allocated again elsewhere), once they are there (a write fault into the
# dirty large folio ext4 keeps across the hole's start too): not for a
# write into a range punched later, beside it, or into ext4's zeroed range
# (unwritten in place).
note=
for fs in xfs ext4; do
	for body in 'punch 1M 64K\npwrite 1052672 100' 'punch 1M 64K\nmmap 0 4M\ntouch 1056768 1 4096 write\nmunmap 0' \
		'zero-range 1M 64K\npwrite 1052672 100' 'pwrite 1052672 100\npunch 1M 64K\npwrite 1114112 4096' \
		'punch 1M 64K\npwrite 1044480 4096' \
		'read 2M 1\npwrite 1052672 180000\npunch 1064960 131072\nmmap 0 4M\ntouch 1069056 1 4096 write\nmunmap 0'; do
		printf "# fs: $fs\n# file_size: 4M\nread 64K 20\n$body\nfsync\nfadvise 0 0 dontneed\npread 1M 128K\n" > "$T/pw.ops"
		want=1
		case $fs/$body in
		*/pwrite\ 1052672*|*/punch\ 1M\ 64K\\npwrite\ 1044480*|ext4/zero-range*) want=0 ;;
		esac
		"$RALAB" sim "$T/pw.ops" > /dev/null 2> "$T/pw.err" || note="$note $fs:rc"
		if [ $want = 1 ]; then
			grep -q "^ralab sim: note: 1 write(s) reached into a file's own holes (# holes) or ranges the case punched" "$T/pw.err" || note="$note [$fs $body]:missed"
		else
			! grep -q "reached into" "$T/pw.err" || note="$note [$fs $body]:noted"
		fi
	done
done
if [ -z "$note" ]; then ok "sim: note on writes into punched holes"
else bad "sim: note on writes into punched holes" "$note"; fi
