# Sourced by tests/run.sh: fio job files.

# Input errors: FILE:LINE: message, exit 2, nothing on stdout.
while IFS='|' read -r file line text; do
	case "$file" in ''|'#'*) continue ;; esac
	f=tests/fio/errors/$file
	"$RALAB" sim "$f" > "$T/out" 2> "$T/err"; rc=$?
	msg=$(head -n 1 "$T/err")
	if [ $rc -ne 2 ] || [ -s "$T/out" ]; then bad "fio error $file" "exit $rc"
	elif [ "${msg#"$f:$line: "}" = "$msg" ]; then bad "fio error $file" "'$msg' does not start with '$f:$line: '"
	elif [ "${msg#*"$text"}" = "$msg" ]; then bad "fio error $file" "'$msg' lacks '$text'"
	else ok "fio error $file"; fi
done < tests/fio/errors/expected.txt

# Seed 001's job file runs unchanged.  fio's default fadvise_hint makes it
# POSIX_FADV_SEQUENTIAL (ra_pages 64): 10 GiB in 40967 requests, mostly
# order-6 folios; without the hint it is the 4 KiB case recorded on the
# kernel (tests/cases/seed001-seq4k), scaled to 10 GiB.
"$RALAB" sim --dump-ops tests/fio/seed001-kara-2024.fio > "$T/ops"
if grep -qx 'fadvise 0 10737418240 sequential' "$T/ops" && grep -qx 'read 4096 2621440' "$T/ops"; then
	ok "fio seed001 understood"
else
	bad "fio seed001 understood" "$(cat "$T/ops")"
fi
"$RALAB" compare --policy linux-6.9 --policy linux-6.18 tests/fio/seed001-kara-2024.fio > "$T/cmp" &&
	[ "$(grep -c 'seed001-kara-2024.fio' "$T/cmp")" = 2 ] && ok "fio compare" || bad "fio compare" "$(cat "$T/cmp")"
# The seed-002 table's nine jobs all run.
n=0
for f in tests/fio/seed002-*.fio; do
	"$RALAB" sim "$f" > /dev/null && n=$((n + 1))
done
[ $n = 9 ] && ok "fio seed002 jobs" || bad "fio seed002 jobs" "$n of 9 ran"
# A job file and its --dump-ops text are the same workload.
"$RALAB" sim --dump-ops tests/fio/mixed-small.fio > "$T/mixed.ops"
"$RALAB" sim tests/fio/mixed-small.fio | grep -v '^case=' > "$T/a"
"$RALAB" sim "$T/mixed.ops" | grep -v '^case=' > "$T/b"
cmp -s "$T/a" "$T/b" && ok "fio dump-ops equivalent" || bad "fio dump-ops equivalent" "$(diff "$T/a" "$T/b" | head)"

# fadvise_hint takes fio's values: 0 (none), 1 (as the workload), or an
# advice given whatever the workload.
printf '[job]\nrw=read\nsize=1m\nfadvise_hint=random\n' > "$T/fh.fio"
printf '[job]\nrw=read\nsize=1m\nfadvise_hint=0\n' > "$T/fh0.fio"
if "$RALAB" sim --dump-ops "$T/fh.fio" | grep -q '^fadvise 0 1048576 random$' &&
   ! "$RALAB" sim --dump-ops "$T/fh0.fio" | grep -q '^fadvise 0 1048576'; then
	ok "fio fadvise_hint values"
else
	bad "fio fadvise_hint values" "$("$RALAB" sim --dump-ops "$T/fh.fio" | grep fadvise)"
fi
