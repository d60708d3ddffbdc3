# Sourced by tests/run.sh: examples/direct-cache, a userspace cache over
# O_DIRECT reads driven by the public ralab_ra_*() API, against the
# kernel's own recordings.  Every recorded case made only of read, pread,
# seek, rand-pread, stride-pread, fadvise and readahead ops, on a file of
# at most 64 MiB, runs through it (the file is sparse: the decisions do
# not depend on the data); its readahead calls and the folios it adds
# must be the kernel's, in order, and every read's data the file's.

DC="$B/examples/direct-cache"
hdr() { sed -n "s/^# $1: //p" "$2" | tr -d ' '; }
tobytes() {
	case $1 in
	*G) echo $(( ${1%G} << 30 )) ;;
	*M) echo $(( ${1%M} << 20 )) ;;
	*K) echo $(( ${1%K} << 10 )) ;;
	*) echo "$1" ;;
	esac
}
# case.ops ops -> direct-cache OPs, or nothing if an op has no counterpart.
dc_ops() {
	grep -v '^#' "$1" | awk '
		$1 == "read" || $1 == "pread" || $1 == "seek" || $1 == "fadvise" ||
		$1 == "readahead" { s = $1; for (i = 2; i <= NF; i++) s = s ":" $i; print s; next }
		$1 == "stride-pread" { print "stride:" $2 ":" $3 ":" $4 ":" $5; next }
		$1 == "rand-pread" { print "rand:" $2 ":" $3 ":" (NF >= 4 ? $4 : "88172645463325252"); next }
		NF { bad = 1 }
		END { if (bad) print "UNSUPPORTED" }'
}
if [ ! -x "$DC" ]; then
	bad "direct-cache" "$DC was not built"
else
	n=0; nlbs=0; failed=""
	for d in tests/cases/*/; do
		c=$d/case.ops
		size=$(tobytes "$(hdr file_size "$c")")
		[ -n "$size" ] || size=$((512 << 20))
		[ "$size" -le $((64 << 20)) ] || continue
		# Cases whose outcome the time model decides (a DONTNEED while
		# readahead I/O is in flight) depend on this engine's own timing.
		[ -z "$(hdr device "$c")" ] || continue
		ops=$(dc_ops "$c")
		[ -n "$ops" ] && ! grep -q UNSUPPORTED <<< "$ops" || continue
		ra=$(hdr read_ahead_kb "$c"); msk=$(hdr max_sectors_kb "$c")
		bsz=$(tobytes "$(hdr block_size "$c")")
		rm -f "$T/dc.bin"; truncate -s "$size" "$T/dc.bin"
		# shellcheck disable=SC2086
		if "$DC" --ra-kb "${ra:-128}" --msk-kb "${msk:-512}" \
			--block-size "${bsz:-4096}" "$T/dc.bin" $ops \
			> "$T/dc.txt" 2> "$T/dc.err" &&
		   cmp -s <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.txt") \
			  <(zcat "$d/kernel.out.gz" | grep -E '^(page_cache_|mm_filemap)'); then
			n=$((n + 1))
			# Large block sizes: ralab_ra_params.min_order.
			[ -z "$bsz" ] || nlbs=$((nlbs + 1))
		else
			failed="$failed $(basename "$d")"
			[ -s "$T/dc.err" ] && failed="$failed ($(head -1 "$T/dc.err"))"
		fi
	done
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
