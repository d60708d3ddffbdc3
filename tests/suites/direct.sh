# Sourced by tests/run.sh: examples/direct-cache, a userspace cache over
# O_DIRECT reads driven by the public ralab_ra_*() API, against the
# kernel's own recordings: the same readahead calls and the same folios,
# and the right data.

DC="$B/examples/direct-cache"
hdr() { sed -n "s/^# $1: //p" "$2"; }
if [ ! -x "$DC" ]; then
	bad "direct-cache" "$DC was not built"
else
	for c in eof-1m-301-pages eof-4k-unaligned-size msk128-1m ra4096-4k \
		 unaligned-5000 sweep-s09-xfs-read sweep-v32-xfs-size65537-mix1; do
		d=tests/cases/$c
		size=$(hdr file_size "$d/case.ops" | tr -d ' ')
		case $size in
		*M) size=$(( ${size%M} << 20 )) ;;
		*K) size=$(( ${size%K} << 10 )) ;;
		esac
		ra=$(hdr read_ahead_kb "$d/case.ops"); msk=$(hdr max_sectors_kb "$d/case.ops")
		bs=$(grep -v '^#' "$d/case.ops" | awk '{print $2}')
		case $bs in
		*M) bs=$(( ${bs%M} << 20 )) ;;
		*K) bs=$(( ${bs%K} << 10 )) ;;
		esac
		head -c "$size" /dev/urandom > "$T/dc.bin"
		if "$DC" --ra-kb "${ra:-128}" --msk-kb "${msk:-512}" --out "$T/dc.out" \
			"$T/dc.bin" "$bs" > "$T/dc.txt" 2> "$T/dc.err" &&
		   cmp -s "$T/dc.bin" "$T/dc.out" &&
		   cmp -s <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.txt") \
			  <(zcat "$d/kernel.out.gz" | grep -E '^(page_cache_|mm_filemap)'); then
			ok "direct-cache = kernel: $c"
		else
			bad "direct-cache = kernel: $c" "$(cat "$T/dc.err"; diff <(grep -E '^(page_cache_|mm_filemap)' "$T/dc.txt") \
				<(zcat "$d/kernel.out.gz" | grep -E '^(page_cache_|mm_filemap)') | head -5)"
		fi
	done
	expect_rc "direct-cache bad option" 2 "$DC" --max-order 99 /dev/null 4096
	expect_rc "direct-cache unknown policy" 2 "$DC" --policy linux-0.01 "$T/dc.bin" 4096
fi
