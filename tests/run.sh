#!/usr/bin/env bash
# The test suite.  Usage: tests/run.sh BUILD_DIR
#   BUILD_DIR/ralab and BUILD_DIR/tests/* must be built (make check does).
# Each test prints "ok NAME", "FAIL NAME: why" or "skip NAME: why"; the last
# line is "N passed, N failed, N skipped".  RALAB_TEST_JOBS=N runs N suites
# at a time (default: the number of CPUs).
set -u
cd "$(dirname "$0")/.."
B=${1:?usage: tests/run.sh BUILD_DIR}
RALAB=$B/ralab
T=$(mktemp -d /tmp/ralab-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
# Each suite has a directory in $T; one may open its own to other users
# (traces.sh runs a program as nobody), so $T lets them through.
chmod o+x "$T"
pass=0 fail=0 skip=0

ok()   { pass=$((pass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok $1"; return 0; }
bad()  { fail=$((fail + 1)); echo "FAIL $1: $2"; }
skip() { skip=$((skip + 1)); echo "skip $1: $2"; }
expect_rc() { # NAME WANT_RC CMD...
	local name=$1 want=$2; shift 2
	"$@" > "$T/out" 2> "$T/err"; local rc=$?
	if [ $rc -eq "$want" ]; then ok "$name"
	else bad "$name" "exit $rc, want $want: $(head -c 300 "$T/err")"; fi
}

# --- unit tests -----------------------------------------------------------
for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	if out=$("$t" 2>&1); then ok "$(basename "$t")"
	else bad "$(basename "$t")" "$out"; fi
done

# --- suites: tests/suites/*.sh --------------------------------------------
# Each suite is sourced in a subshell of its own, with a $T of its own and
# its own counts.  kernel.sh records on the running kernel: it runs alone,
# first, so that no other test loads the machine while it records.  The
# others run side by side, RALAB_TEST_JOBS at a time; their output is
# printed in name order when all are done, so that it does not depend on
# which finished first.
run_suite() { # SUITE: output in $T/NAME.log, counts in $T/NAME.counts
	local name
	name=$(basename "$1" .sh)
	(
		SECONDS=0
		T=$T/$name
		mkdir -p "$T"
		pass=0 fail=0 skip=0
		# shellcheck disable=SC1090
		. "$1"
		echo "$pass $fail $skip $SECONDS" > "$T.counts"
	) > "$T/$name.log" 2>&1
}
jobs_max=${RALAB_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
suites=()
for s in tests/suites/*.sh; do
	[ -f "$s" ] && suites+=("$s")
done
[ -f tests/suites/kernel.sh ] && run_suite tests/suites/kernel.sh
# The longest suites first (fuzz.sh's half minute of fuzzing, the
# policies' comparisons), so that none of them is left to run alone at
# the end; then the rest in name order.
order=()
for s in tests/suites/fuzz.sh tests/suites/variants.sh "${suites[@]}"; do
	[ -f "$s" ] && [[ " ${order[*]} " != *" $s "* ]] && order+=("$s")
done
running=0
for s in "${order[@]}"; do
	[ "$s" = tests/suites/kernel.sh ] && continue
	if [ $running -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_suite "$s" &
	running=$((running + 1))
done
wait
for s in "${suites[@]}"; do
	name=$(basename "$s" .sh)
	cat "$T/$name.log"
	if read -r p f k secs 2> /dev/null < "$T/$name.counts"; then
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
		[ -z "${VERBOSE:-}" ] || echo "suite $name: $secs s"
	else
		bad "suite $name" "ended before its last test"
	fi
done

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
