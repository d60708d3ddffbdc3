# Sourced by tests/run.sh: the HTML report in headless Chromium.

report_test() {
	local chromium=""
	for c in chromium chromium-browser; do
		command -v "$c" >/dev/null && { chromium=$c; break; }
	done
	"$RALAB" report --html "$T/r.html" --policy linux-6.18 --policy park-2026 \
		tests/cases/seed001-seq4k/case.ops tests/cases/mmap-hugepage/case.ops > "$T/rout" 2>&1 ||
		{ bad "report html" "ralab report failed: $(cat "$T/rout")"; return; }
	# Self-contained: no external resource of any kind.
	if grep -Eq '(src|href)="(https?:)?//' "$T/r.html"; then
		bad "report self-contained" "external reference"
	else
		ok "report self-contained"
	fi
	[ "$(grep -c '<svg class="chart"' "$T/r.html")" = 8 ] && ok "report has 8 charts" ||
		bad "report has 8 charts" "$(grep -c '<svg class="chart"' "$T/r.html")"
	if [ -z "$chromium" ]; then
		skip "report in chromium" "chromium is not installed"
		return
	fi
	rm -rf "$T/chr"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$T/chr" --enable-logging=stderr --v=0 \
		--virtual-time-budget=3000 --dump-dom "file://$T/r.html" > "$T/dom" 2> "$T/chr.err"
	if grep -Eiq 'CONSOLE|Uncaught' "$T/chr.err"; then
		bad "report in chromium" "console: $(grep -Ei 'CONSOLE|Uncaught' "$T/chr.err" | head -3)"
	elif grep -q 'data-charts="8" data-empty="0"' "$T/dom"; then
		ok "report in chromium"
	else
		bad "report in chromium" "page did not report 8 non-empty charts: $(grep -o 'id="status"[^<]*' "$T/dom")"
	fi
}
report_test
# --set, as for sim: the page changes with read_ahead_kb; a bad value is
# an error before any file is written.
"$RALAB" report --html "$T/ra128.html" --policy linux-6.18 tests/cases/seed001-seq4k/case.ops &&
"$RALAB" report --html "$T/ra512.html" --policy linux-6.18 --set read_ahead_kb=512 tests/cases/seed001-seq4k/case.ops &&
	! cmp -s "$T/ra128.html" "$T/ra512.html" && ok "report --set" || bad "report --set" "same page"
expect_rc "report bad --set" 2 "$RALAB" report --html "$T/bad.html" --set read_ahead_kb=x tests/cases/seed001-seq4k/case.ops
[ ! -e "$T/bad.html" ] && ok "report bad --set writes nothing" || bad "report bad --set writes nothing" "file written"
