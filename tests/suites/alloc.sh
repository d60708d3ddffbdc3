# Sourced by tests/run.sh: memory pressure (alloc_fail_*), the fallback
# paths of page_cache_ra_order.

# 6.18 with every large allocation failing, against a hand derivation
# (the expected lines are in the case's comment).
A=tests/alloc/seq-64k-all-fail.ops
"$RALAB" sim --trace "$A" > "$T/af"
want='page_cache_ra_order: index=0 order=0 size=4 async_size=3
page_cache_ra_order: index=4 order=2 size=8 async_size=8
page_cache_ra_unbounded: index=4 nr_to_read=8 lookahead_size=8
page_cache_ra_order: index=12 order=4 size=4 async_size=4
page_cache_ra_unbounded: index=12 nr_to_read=4 lookahead_size=4
page_cache_ra_order: index=16 order=4 size=8 async_size=8'
got=$(grep -E '^page_cache_ra_(order|unbounded):' "$T/af" | sed 's/ ra_pages=[0-9]*//')
sums=$(grep -E '^(data_reads|sync_ra|async_ra|alloc_failures|folio_orders|request_sizes_kib)=' "$T/af" | tr '\n' ' ')
if [ "$got" = "$want" ] &&
   [ "$sums" = "data_reads=3 sync_ra=1 async_ra=3 alloc_failures=2 folio_orders=0:16 request_sizes_kib=16:2 32:1 " ]; then
	ok "alloc failure: 6.18 falls back to order 0 for the rest of the window"
else
	bad "alloc failure: 6.18 fallback" "$(printf '%s\n--\n%s' "$got" "$sums")"
fi

# kara-2024/03: the fallback after a failed allocation reads the rest of
# the window (6.9: the whole window again, from where it stopped).
P=tests/alloc/patch03-fallback.ops
"$RALAB" sim --trace --policy linux-6.9 "$P" > "$T/p69"
"$RALAB" sim --trace --policy linux-6.9+kara-2024/03 "$P" > "$T/p03"
first_fb() { grep '^page_cache_' "$1" | grep -m1 -A1 '^page_cache_ra_order: index=28 ' | sed -n 2p; }
if [ "$(first_fb "$T/p69")" = "page_cache_ra_unbounded: index=32 nr_to_read=32 lookahead_size=32" ] &&
   [ "$(first_fb "$T/p03")" = "page_cache_ra_unbounded: index=32 nr_to_read=28 lookahead_size=32" ] &&
   grep -q '^page_cache_async_ra: index=32 ' "$T/p69" && ! grep -q '^page_cache_async_ra: index=32 ' "$T/p03"; then
	ok "alloc failure: kara-2024/03 shortens the fallback, 6.9 reads past the window and marks twice"
else
	bad "alloc failure: kara-2024/03" "6.9: $(first_fb "$T/p69"); 03: $(first_fb "$T/p03")"
fi

# The draw is deterministic for a seed, and the seed matters.
F=tests/cases/seed001-seq4k/case.ops
S="--set alloc_fail_ppm=20000"
"$RALAB" sim --trace $S "$F" > "$T/d1" 2>&1
"$RALAB" sim --trace $S "$F" > "$T/d2" 2>&1
"$RALAB" sim $S --set alloc_fail_seed=7 "$F" > "$T/d3" 2>&1
n1=$(sed -n 's/^alloc_failures=//p' "$T/d1"); n3=$(sed -n 's/^alloc_failures=//p' "$T/d3")
if cmp -s "$T/d1" "$T/d2" && [ "${n1:-0}" -gt 0 ] && [ "${n3:-0}" -gt 0 ] &&
   ! cmp -s <(grep -v '^alloc_failures=' "$T/d3" | grep -E '^(folio_orders|data_reads)=') \
	     <(grep -E '^(folio_orders|data_reads)=' "$T/d1"); then
	ok "alloc failure: same seed, same run; another seed, another run"
else
	bad "alloc failure determinism" "failures $n1 / $n3, or runs differ for one seed"
fi

# Off by default: no alloc_failures line, and nothing changes.
"$RALAB" sim tests/cases/seed001-seq4k/case.ops > "$T/n0"
"$RALAB" sim --set alloc_fail_ppm=0 tests/cases/seed001-seq4k/case.ops > "$T/n1"
if cmp -s "$T/n0" "$T/n1" && ! grep -q alloc_failures "$T/n0"; then
	ok "alloc failure: off by default"
else
	bad "alloc failure: off by default" "output differs or mentions alloc_failures"
fi

# Seed 001 under memory pressure (docs/seeds.md): with 5% of large
# allocations failing, 6.9 falls below the device's bandwidth and the
# series does not; with none failing they are level.
F1=tests/fio/seed001-kara-2024.fio
tp() { "$RALAB" sim --set device=loop "$@" "$F1" | sed -n 's/^throughput_mb_s=//p'; }
a0=$(tp --policy linux-6.9); b0=$(tp --policy linux-6.9+kara-2024)
a5=$(tp --set alloc_fail_ppm=50000 --policy linux-6.9); b5=$(tp --set alloc_fail_ppm=50000 --policy linux-6.9+kara-2024)
if awk -v a0="$a0" -v b0="$b0" -v a5="$a5" -v b5="$b5" 'BEGIN {
	exit !(b0 / a0 < 1.001 && b5 / a5 > 1.05 && b5 / b0 > 0.999) }'; then
	ok "seed001 under memory pressure: 6.9 $a5, series $b5 MB/s (none failing: $a0, $b0)"
else
	bad "seed001 under memory pressure" "6.9 $a0 -> $a5, series $b0 -> $b5 MB/s"
fi
