# Sourced by tests/run.sh: metrics worked out by hand, JSON against its schema.

# Hand-worked waste figures.  pread of page 0 on a cold file: initial window
# get_init_ra_size(1, 32) = 4 pages [0,4), one used.  pread of page 2: cached,
# no mark (the mark is page 1), no readahead: two used.  Unused 2 (pages 1, 3).
# DONTNEED of everything: those 2 are evicted unread, none left.
printf '# file_size: 1M\npread 0 4096\npread 8192 4096\n' > "$T/w1.ops"
printf '# file_size: 1M\npread 0 4096\npread 8192 4096\nfadvise 0 0 dontneed\n' > "$T/w2.ops"
"$RALAB" sim "$T/w1.ops" > "$T/w1"
"$RALAB" sim "$T/w2.ops" > "$T/w2"
if grep -qx 'ra_pages=4' "$T/w1" && grep -qx 'ra_pages_unused=2' "$T/w1" &&
   grep -qx 'ra_pages_evicted_unused=0' "$T/w1" &&
   grep -qx 'ra_pages_unused=0' "$T/w2" && grep -qx 'ra_pages_evicted_unused=2' "$T/w2" &&
   grep -qx 'request_sizes_kib=16:1' "$T/w1"; then
	ok "waste figures by hand"
else
	bad "waste figures by hand" "$(grep -E 'ra_pages|request' "$T/w1" "$T/w2")"
fi
# An mmap touch uses pages too: touching every page of a 1 MiB mapping
# leaves nothing unused (read-around reads 32 pages around each fault).
printf '# file_size: 1M\nmmap-read 0 1M\n' > "$T/w3.ops"
"$RALAB" sim "$T/w3.ops" | grep -qx 'ra_pages_unused=0' && ok "mmap pages count as used" ||
	bad "mmap pages count as used" "$("$RALAB" sim "$T/w3.ops" | grep ra_pages)"

# ralab dump: the page cache after a run, runs of folios, marks.
printf '# file_size: 1M\nread 4K 1\ndump\nread 4K 1\n' > "$T/d.ops"
"$RALAB" dump "$T/d.ops" > "$T/dump"
# After the first read: 4 order-0 pages; page 1 carries the mark (async 3).
if grep -A4 'at line 3' "$T/dump" | grep -Eq '^ +4096 +8191 +1 +1 +0 +RA +0$'; then
	ok "dump marks"
else
	bad "dump marks" "$(cat "$T/dump")"
fi

# JSON outputs validate against their schemas.
py=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
	skip "json schema" "python3 with jsonschema is not installed (python3-jsonschema)"
else
	"$RALAB" sim --format json --set alloc_fail_ppm=300000 tests/cases/seed003-rand64k/case.ops > "$T/s.json"
	"$RALAB" compare --format json --set alloc_fail_ppm=0,50000 tests/cases/seed001-seq4k/case.ops > "$T/c.json"
	# diff --format json: a recording against the model (match) and
	# against linux-6.9 (differs); exit status as in text.
	zcat tests/cases/ext4-4k/kernel.out.gz > "$T/k.out"
	"$RALAB" sim --trace tests/cases/ext4-4k/case.ops > "$T/m.out"
	"$RALAB" sim --trace --policy linux-6.9 tests/cases/ext4-4k/case.ops > "$T/m69.out"
	"$RALAB" diff --format json "$T/k.out" "$T/m.out" > "$T/d1.json"; r1=$?
	"$RALAB" diff --format json --strict "$T/k.out" "$T/m69.out" > "$T/d2.json"; r2=$?
	if [ $r1 -eq 0 ] && [ $r2 -eq 1 ] &&
	   "$py" - "$T/s.json" docs/schema/sim.schema.json "$T/c.json" docs/schema/compare.schema.json \
		"$T/d1.json" docs/schema/check.schema.json "$T/d2.json" docs/schema/check.schema.json <<'PY' 2> "$T/schema.err"
import json, sys, jsonschema
a = sys.argv[1:]
for doc, schema in zip(a[0::2], a[1::2]):
    jsonschema.validate(json.load(open(doc)), json.load(open(schema)))
assert json.load(open(a[0]))["alloc_failures"] > 0
rows = json.load(open(a[2]))["rows"]
assert [r["settings"] for r in rows] == ["alloc_fail_ppm=0"] * 4 + ["alloc_fail_ppm=50000"] * 4, rows
d1, d2 = json.load(open(a[4])), json.load(open(a[6]))
assert d1["comparisons"][0]["match"] and d1["comparisons"][0]["report"].endswith("MATCH\n")
c = d2["comparisons"][0]
assert not c["match"] and c["readahead_events"] == "DIFFER" and d2["strict"], c
PY
	then ok "json schema"; else bad "json schema" "$(tail -3 "$T/schema.err")"; fi
fi

# The seed-000 page cache: the pattern Jan Kara asked about.  linux-6.18
# (identical to the kernel on this case) cycles through orders 0..6 in
# every 2 MiB; park-2026 holds order 7 after the ramp.
"$RALAB" dump tests/cases/seed000-4k-then-1m/case.ops > "$T/d618"
"$RALAB" dump --policy park-2026 tests/cases/seed000-4k-then-1m/case.ops > "$T/dpark"
if ! awk '$5 == 7' "$T/d618" | grep -q . && [ "$(grep -c '^ ' "$T/d618")" -gt 6000 ] &&
   awk '$5 == 7 && $4 >= 1000' "$T/dpark" | grep -q .; then
	ok "seed000 dump pattern"
else
	bad "seed000 dump pattern" "linux-6.18 $(grep -c '^ ' "$T/d618") runs; park: $(tail -1 "$T/dpark")"
fi

# Time to first use and late readahead, worked out by hand (CPU costs 0).
# pread page 0 (window [0,4) at t=0, page 0 used at once), think 1 ms,
# pread page 2 (used at 1000 us): one folio in each of the buckets 0 and
# [512, 1024) us.
printf '# file_size: 1M\n# cpu_syscall_ns: 0\n# cpu_folio_ns: 0\n# cpu_page_ns: 0\n# cpu_request_ns: 0\nthink 1000\npread 0 4096\npread 8192 4096\n' > "$T/ttu.ops"
"$RALAB" sim "$T/ttu.ops" | grep -qx 'ra_time_to_use_us=0:1 512:1' && ok "time to use by hand" ||
	bad "time to use by hand" "$("$RALAB" sim "$T/ttu.ops" | grep time_to_use)"
# Device latency 100 us, no transfer time: read 1 waits 100 us for its own
# sync window [0,4) (a sync miss); read 2 hits the mark at page 1 at
# t=100 us and starts [4,12), done at 200 us; reads 3 and 4 are cached;
# read 5 (page 4) waits 100 us for readahead started by an earlier call:
# late.  Five folios, each used 100 us after readahead added it.
printf '# file_size: 1M\n# dev_latency_us: 100\n# dev_bandwidth_mb: 0\n# cpu_syscall_ns: 0\n# cpu_folio_ns: 0\n# cpu_page_ns: 0\n# cpu_request_ns: 0\nread 4K 5\n' > "$T/late.ops"
"$RALAB" sim "$T/late.ops" > "$T/late"
if grep -qx 'waits=2' "$T/late" && grep -qx 'late_ra_waits=1' "$T/late" &&
   grep -qx 'wait_us=200.0' "$T/late" && grep -qx 'ra_time_to_use_us=64:5' "$T/late" &&
   grep -qx 'elapsed_us=200.0' "$T/late"; then
	ok "late readahead by hand"
else
	bad "late readahead by hand" "$(grep -E 'wait|elapsed|time_to' "$T/late")"
fi

# The window size along the run: the series in ralab's JSON equals the one
# read off each recorded kernel trace (ra_order size, or ra_unbounded
# nr_to_read when it is not an ra_order's fallback), case by case.
if [ -z "$py" ]; then
	skip "windows vs kernel" "python3 with jsonschema is not installed (python3-jsonschema)"
else
	# Each recorded case with the recording machine's memcpy, as 'ralab
	# check' gives it: the cases grouped by those settings, 100 to a sim
	# (a JSON array); a batch that fails runs case by case, and a case
	# that fails alone is left out (one python for all the headers: a
	# zcat per case was slow).
	"$py" - tests/cases/*/kernel.out.gz > "$T/win.batches" <<'PY'
import gzip, re, sys
groups = {}
for g in sys.argv[1:]:
    d = gzip.open(g).read()
    # (in the summary, after the events: a regex over them all was slow)
    sets = re.findall(rb"^(memcpy_back_m[ai][xn]=[1-9][0-9]*)$", d[d.rfind(b"\ncase="):], re.M)
    key = " ".join(f"--set {s.decode()}" for s in sets)
    groups.setdefault(key, []).append(g[:-len("kernel.out.gz")])
for key, cases in sorted(groups.items()):
    for i in range(0, len(cases), 100):
        print(key + "|" + " ".join(cases[i:i + 100]))
PY
	: > "$T/win.list"
	nb=0
	while IFS='|' read -r sets cases; do
		nb=$((nb + 1))
		# shellcheck disable=SC2086 # words: options and case directories
		if "$RALAB" sim $sets --format json $(printf '%scase.ops ' $cases) < /dev/null > "$T/win.b$nb.json" 2> /dev/null; then
			echo "$T/win.b$nb.json $cases" >> "$T/win.list"
			continue
		fi
		for c in $cases; do
			nb=$((nb + 1))
			# shellcheck disable=SC2086
			"$RALAB" sim $sets --format json "${c}case.ops" < /dev/null > "$T/win.b$nb.json" 2> /dev/null &&
				echo "$T/win.b$nb.json $c" >> "$T/win.list"
		done
	done < "$T/win.batches"
	if "$py" - "$T" > "$T/win.out" 2>&1 <<'PY'
import gzip, json, re, sys
T = sys.argv[1]
n = bad = 0
EVENT = re.compile(rb"\npage_cache_(?:(sync_ra|async_ra)|"
                   rb"ra_order: index=(\d+) order=\d+ size=(\d+)|"
                   rb"ra_unbounded: index=(\d+) nr_to_read=(\d+))([^\n]*)")
runs = []
for line in open(T + "/win.list"):
    f, *cases = line.split()
    doc = json.load(open(f))
    runs += zip(cases, doc if isinstance(doc, list) else [doc])
for c, run in runs:
    name = c.rstrip("/").split("/")[-1]
    assert run["case"] == c + "case.ops", (run["case"], c)
    got = [tuple(w) for w in run["ra_windows"]]
    # Several jobs (job= fields): each job's calls in its order; the jobs
    # interleave by timing, so the series is compared as a multiset.
    want, in_order, jobs = [], {}, False
    # Only the readahead events' lines, their fields by one regex over
    # the whole text (a loop over every line took half a minute; "\n",
    # not "^", lets the regex look for its first word).
    for m in EVENT.finditer(b"\n" + gzip.open(c + "kernel.out.gz").read()):
        sync, oi, osize, ui, un, rest = m.groups()
        job = rest.rsplit(b" job=", 1)[1] if b" job=" in rest else b""
        jobs = jobs or bool(job)
        if sync:
            in_order[job] = False
        elif oi:
            in_order[job] = True
            # A call that submits nothing is no window (size=0: recorded
            # on 6.18.44 after an async hit at index 0, lbs-s203-mixed-x03).
            if int(osize):
                want.append((int(oi), int(osize)))
        elif not in_order.get(job) and int(un):
            want.append((int(ui), int(un)))
    if jobs:
        got, want = sorted(got), sorted(want)
    n += 1
    hist = {}
    for _, pages in want:
        b = str(1 << min(pages.bit_length() - 1, 13))
        hist[b] = hist.get(b, 0) + 1
    if run["ra_window_pages"] != hist:
        bad += 1
        print(name, "histogram differs from", hist)
    if got != want:
        bad += 1
        print(name, "ralab", got[:5], "kernel", want[:5])
print(n, "cases", bad, "differ")
sys.exit(1 if bad or n < 50 else 0)
PY
	then ok "windows vs kernel ($(tail -1 "$T/win.out"))"
	else bad "windows vs kernel" "$(tail -5 "$T/win.out")"; fi
fi

# Names that need escaping stay well-formed in JSON and CSV.
if command -v python3 > /dev/null; then
	q="$T/a,b\"c.ops"
	printf '# file_size: 1M\nread 64K 2\n' > "$q"
	if "$RALAB" sim --format json "$q" > "$T/q.json" &&
	   "$RALAB" sim --format csv "$q" > "$T/q1.csv" &&
	   "$RALAB" compare --format csv "$q" > "$T/q2.csv" 2> /dev/null &&
	   "$RALAB" dump --format json "$q" > "$T/q3.json" &&
	   python3 - "$T" <<'PY'
import csv, json, sys
T = sys.argv[1]
assert json.load(open(T + "/q.json"))["case"].endswith('a,b"c.ops')
assert json.load(open(T + "/q3.json"))["case"].endswith('a,b"c.ops')
for f in ("q1.csv", "q2.csv"):
    rows = list(csv.reader(open(T + "/" + f)))
    assert len({len(r) for r in rows}) == 1 and len(rows) >= 2, rows
    assert 'a,b"c.ops' in rows[1][0], rows[1][0]
PY
	then ok "json and csv escaping"; else bad "json and csv escaping" "$(head -3 "$T/q1.csv" "$T/q2.csv")"; fi
else
	skip "json and csv escaping" "python3 is not installed"
fi
