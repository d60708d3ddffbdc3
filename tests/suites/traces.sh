# Sourced by tests/run.sh: strace logs and fio iologs.

while IFS='|' read -r file line text; do
	case "$file" in ''|'#'*) continue ;; esac
	f=tests/traces/errors/$file
	"$RALAB" sim "$f" > "$T/out" 2> "$T/err"; rc=$?
	msg=$(head -n 1 "$T/err")
	if [ "$line" = 0 ]; then want="$f: "; else want="$f:$line: "; fi
	if [ $rc -ne 2 ] || [ -s "$T/out" ]; then bad "trace error $file" "exit $rc"
	elif [ "${msg#"$want"}" = "$msg" ]; then bad "trace error $file" "'$msg' does not start with '$want'"
	elif [ "${msg#*"$text"}" = "$msg" ]; then bad "trace error $file" "'$msg' lacks '$text'"
	else ok "trace error $file"; fi
done < tests/traces/errors/expected.txt

# strace logs of real programs on this machine: cp of a 20 MB file
# (copy_file_range, read through a 16-page pipe), tar of 40 files, sqlite3
# queries on a 100 MiB database (4 KiB preads).
zcat tests/traces/sqlite-100mb-query.strace.gz > "$T/sqlite.strace"
for t in tests/traces/cp-20mb.strace tests/traces/tar-40-files.strace "$T/sqlite.strace"; do
	n=$(basename "$t")
	if "$RALAB" compare --format csv --policy linux-6.18 --policy ctx-2013-off "$t" > "$T/cmp" 2> "$T/err" &&
	   [ "$(wc -l < "$T/cmp")" = 3 ]; then
		ok "strace $n"
	else
		bad "strace $n" "$(cat "$T/err" "$T/cmp" | head -5)"
	fi
done
"$RALAB" sim --dump-ops tests/traces/tar-40-files.strace > "$T/tar.ops"
# 40 data files, relative to the directory tar opened; not the directory.
[ "$(grep -c '^# f.* = tardir/f[0-9]*\.dat' "$T/tar.ops")" = 40 ] && ! grep -q '= tardir (' "$T/tar.ops" &&
	ok "strace tar files" || bad "strace tar files" "$(head -12 "$T/tar.ops")"
"$RALAB" sim --dump-ops tests/traces/cp-20mb.strace > "$T/cp.ops"
grep -qx 'fadvise 0 0 sequential' "$T/cp.ops" && [ "$(grep -c '^pread [0-9]* 65536$' "$T/cp.ops")" = 305 ] &&
	ok "strace cp copy_file_range" || bad "strace cp copy_file_range" "$(grep -c pread "$T/cp.ops") preads"

# iologs: version 2 and 3 of one fio run are the same workload.
"$RALAB" sim tests/traces/fio-randread-16k.iolog2 | grep -v '^case=' > "$T/i2"
"$RALAB" sim tests/traces/fio-randread-16k.iolog3 | grep -v '^case=' > "$T/i3"
if cmp -s "$T/i2" "$T/i3" && grep -qx 'syscalls=512' "$T/i2"; then ok "iolog v2 v3"
else bad "iolog v2 v3" "$(diff "$T/i2" "$T/i3" | head -5)"; fi
"$RALAB" compare --policy linux-6.18 --policy park-2026 tests/traces/fio-randread-16k.iolog3 > /dev/null &&
	ok "iolog compare" || bad "iolog compare" "failed"

# ralab record: strace a real program and replay it.
if command -v strace > /dev/null; then
	head -c 3000000 /dev/urandom > "$T/data.bin"
	if "$RALAB" record -o "$T/rec.strace" -- cat "$T/data.bin" > /dev/null 2> "$T/err" &&
	   "$RALAB" sim "$T/rec.strace" > "$T/out" && grep -qx 'bytes_read=3000000' "$T/out"; then
		ok "record and replay"
	else
		bad "record and replay" "$(cat "$T/err") $(grep bytes_read "$T/out")"
	fi
else
	skip "record and replay" "strace is not installed"
fi
