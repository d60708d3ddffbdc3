# Sourced by tests/run.sh: exactness, every recorded kernel case.

# ralab sim --trace must reproduce the kernel's readahead events in order,
# its folio orders and its data reads; cases without a 'nonstrict' file
# must also reproduce every folio and every request, in order.  'ralab
# check DIR' does it (and gives the model the breaks the recording says
# the filesystem made by itself, breaks_at=).
ncases=0
for d in tests/cases/*/; do
	name=$(basename "$d")
	[ -f "$d/case.ops" ] && [ -f "$d/kernel.out.gz" ] || continue
	ncases=$((ncases + 1))
	strict=--strict
	[ -f "$d/nonstrict" ] && strict=
	if "$RALAB" check $strict "$d" > "$T/diff" 2>&1; then
		ok "case $name"
	else
		bad "case $name" "$(cat "$T/diff")"
	fi
done
# The fixtures must be there: a missing directory must not pass vacuously.
[ $ncases -ge 4286 ] || bad "recorded cases" "only $ncases kernel cases in tests/cases (want 4286)"
# A recording during which another process dropped the file from the page
# cache (tests/tools/evict-when-paused.sh; on this machine DAMON's kdamond
# does it to memory idle for some seconds): the kernel read the pages
# again, the model cannot, and ralab check says why.
"$RALAB" check tests/recordings/evicted-by-others > "$T/out" 2> "$T/err"; rc=$?
if [ $rc = 1 ] && grep -q '^data_reads: DIFFER (kernel: 6; ralab: 3)' "$T/out" &&
   grep -q "evicted-by-others: during the recording another task (python3) evicted 384 page(s)" "$T/err"; then
	ok "check: a recording with pages evicted by another task says so"
else
	bad "check: a recording with pages evicted by another task says so" "exit $rc: $(cat "$T/out" "$T/err" | head -20)"
fi

