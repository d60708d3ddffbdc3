# Sourced by tests/run.sh: exactness, every recorded kernel case.

# ralab sim --trace must reproduce the kernel's readahead events in order,
# its folio orders and its data reads; cases without a 'nonstrict' file
# must also reproduce every folio and every request, in order.  'ralab
# check DIR' does it (and gives the model the breaks the recording says
# the filesystem made by itself, breaks_at=).
# The cases are checked 100 at a time, one 'ralab check' for each batch
# (a process per case made up most of this suite's time under the
# sanitizers); a batch that is not all MATCH is checked again case by
# case, so that each case that differs is named with its own report.
check_one() { # STRICT DIR
	local name=${2%/}
	name=${name##*/}
	# shellcheck disable=SC2086
	if "$RALAB" check $1 "$2" > "$T/diff" 2>&1; then
		ok "case $name"
	else
		bad "case $name" "$(cat "$T/diff")"
	fi
}
check_batch() { # STRICT DIR...
	local strict=$1 d n
	shift
	[ $# -gt 0 ] || return 0
	# shellcheck disable=SC2086
	if "$RALAB" check $strict "$@" > "$T/batch" 2> /dev/null &&
	   [ "$(grep -c '^MATCH$' "$T/batch")" = $# ] &&
	   [ "$(grep '^== ' "$T/batch")" = "$(printf '== %s\n' "$@")" ]; then
		for d; do
			n=${d%/}
			ok "case ${n##*/}"
		done
	else
		for d; do check_one "$strict" "$d"; done
	fi
}
ncases=0 strict=() loose=()
for d in tests/cases/*/; do
	[ -f "$d/case.ops" ] && [ -f "$d/kernel.out.gz" ] || continue
	ncases=$((ncases + 1))
	# An 'ignore' file: readahead event fields the kernel's timing
	# decides in this case ("FIELD: why" lines), left out of the
	# comparison; everything else strict.
	if [ -f "$d/ignore" ]; then
		check_one "--strict $(sed 's/:.*//; s/^/--ignore /' "$d/ignore" | tr '\n' ' ')" "$d"
		continue
	fi
	# Without a 'nonstrict' file, every folio and request too.
	if [ -f "$d/nonstrict" ]; then loose+=("$d"); else strict+=("$d"); fi
	if [ ${#strict[@]} -ge 100 ]; then
		check_batch --strict "${strict[@]}"
		strict=()
	fi
	if [ ${#loose[@]} -ge 100 ]; then
		check_batch "" "${loose[@]}"
		loose=()
	fi
done
check_batch --strict "${strict[@]}"
check_batch "" "${loose[@]}"
# The fixtures must be there: a missing directory must not pass vacuously.
[ $ncases -ge 11421 ] || bad "recorded cases" "only $ncases kernel cases in tests/cases (want 11421)"
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

# Two DONTNEEDs back to back after write(2): the kernel kept the folios
# still under the writeback the first one started.  On the ideal device
# writeback ends at once and the second drops them: the case differs
# there, and ralab check says that a device that takes time may match.
mkdir -p "$T/wb-ideal"
grep -v '^# device:' tests/cases/dontneed-writeback-b2b-write-xfs/case.ops > "$T/wb-ideal/case.ops"
cp tests/cases/dontneed-writeback-b2b-write-xfs/kernel.out.gz "$T/wb-ideal/"
"$RALAB" check "$T/wb-ideal" > "$T/out" 2> "$T/err"; rc=$?
if [ $rc = 1 ] && grep -q '^data_reads: DIFFER (kernel: 5; ralab: 4)' "$T/out" &&
   grep -q "DONTNEED met readahead I/O or writeback still in flight" "$T/err" &&
   "$RALAB" check --strict tests/cases/dontneed-writeback-b2b-write-xfs > "$T/out" 2>&1; then
	ok "check: DONTNEED meeting writeback matches on the loop device, not on the ideal one (with a note)"
else
	bad "check: DONTNEED meeting writeback matches on the loop device, not on the ideal one (with a note)" "exit $rc: $(cat "$T/out" "$T/err" | head -20)"
fi
