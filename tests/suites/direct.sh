# Sourced by tests/run.sh: examples/direct-cache, a userspace cache over
# O_DIRECT reads driven by the public ralab_ra_*() API, against the
# kernel's own recordings.  Every recorded case made only of read, pread,
# seek, rand-pread, stride-pread, fadvise and readahead ops, on a file of
# at most 64 MiB, runs through it (the file is sparse: the decisions do
# not depend on the data); its readahead calls and the folios it adds
# must be the kernel's, in order, and every read's data the file's.

DC="$B/examples/direct-cache"
# dc_cases CASE...: for each case that direct-cache can run, one line
# "DIR SIZE READ_AHEAD_KB MAX_SECTORS_KB BLOCK_SIZE OP...": the header in
# bytes (a field not given: -), its ops as direct-cache OPs.  Left out: a
# file above 64 MiB (the file is sparse, the decisions do not depend on
# the data, but it is made for each case), a case whose outcome the time
# model decides (a device: a DONTNEED while readahead I/O is in flight
# depends on this engine's own timing), and an op with no counterpart.
# One awk for all cases: a process per header field made this suite slow.
dc_cases() {
	awk '
	function bytes(v) {
		gsub(/ /, "", v)
		if (v ~ /G$/) return substr(v, 1, length(v) - 1) * 1073741824
		if (v ~ /M$/) return substr(v, 1, length(v) - 1) * 1048576
		if (v ~ /K$/) return substr(v, 1, length(v) - 1) * 1024
		return v
	}
	function hdr(line) { sub(/^# [a-z_]+: */, "", line); gsub(/ /, "", line); return line }
	function flush() {
		if (file == "") return
		if (size == "") size = 512 * 1048576
		if (size + 0 <= 64 * 1048576 && !dev && !bad && ops != "")
			print dir, size, ra, msk, bsz, ops
	}
	FNR == 1 {
		flush(); file = FILENAME; dir = file; sub(/case\.ops$/, "", dir)
		size = ""; ra = "-"; msk = "-"; bsz = "-"; dev = 0; bad = 0; ops = ""
	}
	/^# file_size:/ { size = bytes(hdr($0)); next }
	/^# read_ahead_kb:/ { ra = hdr($0); next }
	/^# max_sectors_kb:/ { msk = hdr($0); next }
	/^# block_size:/ { bsz = bytes(hdr($0)); next }
	/^# device:/ { dev = 1; next }
	/^#/ || !NF { next }
	$1 == "read" || $1 == "pread" || $1 == "seek" || $1 == "fadvise" ||
	$1 == "readahead" { o = $1; for (i = 2; i <= NF; i++) o = o ":" $i; ops = ops " " o; next }
	$1 == "stride-pread" { ops = ops " stride:" $2 ":" $3 ":" $4 ":" $5; next }
	$1 == "rand-pread" { ops = ops " rand:" $2 ":" $3 ":" (NF >= 4 ? $4 : "88172645463325252"); next }
	{ bad = 1 }
	END { flush() }' "$@"
}
if [ ! -x "$DC" ]; then
	bad "direct-cache" "$DC was not built"
else
	n=0; nlbs=0; failed=""
	dc_cases tests/cases/*/case.ops > "$T/dc.cases"
	while read -r d size ra msk bsz ops; do
		[ "$ra" = - ] && ra=128
		[ "$msk" = - ] && msk=512
		[ "$bsz" = - ] && bsz=
		rm -f "$T/dc.bin"; truncate -s "$size" "$T/dc.bin"
		# shellcheck disable=SC2086
		if "$DC" --ra-kb "$ra" --msk-kb "$msk" \
			--block-size "${bsz:-4096}" "$T/dc.bin" $ops \
			< /dev/null > "$T/dc.txt" 2> "$T/dc.err" &&
		   cmp -s <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.txt") \
			  <(zcat "$d/kernel.out.gz" | grep -E '^(page_cache_|mm_filemap)'); then
			n=$((n + 1))
			# Large block sizes: ralab_ra_params.min_order.
			[ -z "$bsz" ] || nlbs=$((nlbs + 1))
		else
			failed="$failed $(basename "$d")"
			[ -s "$T/dc.err" ] && failed="$failed ($(head -1 "$T/dc.err"))"
		fi
	done < "$T/dc.cases"
	engine=$(sed -n 's/^engine=//p' "$T/dc.txt")
	if [ -z "$failed" ] && [ $n -ge 100 ] && [ $nlbs -ge 8 ]; then
		ok "direct-cache = kernel on $n recorded cases, $nlbs of them with blocks of 8 to 64 KiB (engine $engine)"
	else
		bad "direct-cache = kernel" "$n matched ($nlbs with large blocks); differ:$failed"
	fi
	# The data: a file of random bytes, read whole and in pieces, with
	# asynchronous reads (io_uring, when built with liburing) and with
	# synchronous ones; the decisions must not depend on which.
	head -c 3000000 /dev/urandom > "$T/dc.rnd"
	dc_mix=(read:300000:eof rand:64K:40:7 stride:2M:4K:-12K:100
		fadvise:0:1M:dontneed read:4K:10)
	if "$DC" "$T/dc.rnd" "${dc_mix[@]}" > "$T/dc.a" 2> "$T/dc.err" &&
	   "$DC" --sync "$T/dc.rnd" "${dc_mix[@]}" > "$T/dc.s" 2>> "$T/dc.err" &&
	   cmp -s <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.a") \
		  <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.s"); then
		ok "direct-cache data ($(sed -n 's/^engine=//p' "$T/dc.a"), waits $(sed -n 's/^waits=//p' "$T/dc.a"); pread)"
	else
		bad "direct-cache data" "$(cat "$T/dc.err")"
	fi
	expect_rc "direct-cache bad option" 2 "$DC" --max-order 99 /dev/null 4096
	expect_rc "direct-cache bad op" 2 "$DC" "$T/dc.rnd" read:0:eof
	expect_rc "direct-cache unknown policy" 2 "$DC" --policy linux-0.01 "$T/dc.rnd" 4096
fi
