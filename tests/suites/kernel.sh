# Sourced by tests/run.sh: the recorder against the running kernel.
# Needs root, loop devices, tracefs and the readahead tracepoints; skipped,
# with the reason, where they are missing.

kernel_suite() {
	local why wd=/tmp/ralab-kernel-tests pid n leftovers
	if [ "$(id -u)" != 0 ]; then why="not root"
	elif [ ! -e /dev/loop-control ]; then why="no /dev/loop-control"
	elif ! ls /sys/kernel/tracing/events/readahead >/dev/null 2>&1 &&
	     ! ls /sys/kernel/debug/tracing/events/readahead >/dev/null 2>&1; then
		why="no tracefs with readahead tracepoints (Linux 6.18+, tracefs mounted)"
	elif ! command -v mkfs.xfs >/dev/null; then why="mkfs.xfs missing (xfsprogs)"
	fi
	if [ -n "${why:-}" ]; then
		skip "kernel recorder" "$why"
		return
	fi

	# A recording that differs is recorded once more, and the second must
	# match: the kernel can fail a large folio allocation under memory
	# fragmentation and fall back to smaller orders (about 1 run in 10 of
	# mixed-small.fio here), a state of the machine the model does not have.
	# (ralab check itself records again a run where another task, such as
	# DAMON's kdamond, evicted pages of the case's files.)
	kcheck() {
		retried=""
		"$RALAB" check --strict --workdir "$wd" "$1" > "$T/check" 2>&1 && return 0
		cp "$T/check" "$T/check.first"
		"$RALAB" check --strict --workdir "$wd" "$1" > "$T/check" 2>&1 || return 1
		retried=" (on a second recording)"
		echo "note: $1: the first recording differed, the second matched;" \
		     "first divergence: $(grep -m1 -E '^  - ' "$T/check.first" | sed 's/^ *//')"
	}

	# ralab check on small recorded cases: the model must match the kernel.
	for c in eof-4k-unaligned-size eof-1m-301-pages interleaved-2-streams \
		 rand-64k unaligned-preads ra0-64k msk384-512k ext4-4k-then-1m \
		 mmap-hugepage mmap-partly-cached dontneed-then-reread two-files shuffle-16k \
		 frag-40-sweep-s19-ext4-read-mix5-e100 frag-59-sweep-s39-xfs-stride-pread-e8 \
		 frag-07-sweep-s01-xfs-mmap-read-e128 breaks-ext4-uneven \
		 holes-71-sweep-u21-ext4-file-mix2 holes-75-sweep-v18-ext4-size1234567-mix6 \
		 holes-77-sweep-v30-xfs-size17825792-mix4 populate-read-xfs \
		 mprotect-none-dontneed-xfs mprotect-exec-xfs \
		 holewrite-xfs-touch-write-beside holewrite-ext4-pwrite-beside \
		 punch-written-dirty-edge-fsync-ext4 sendfile-unaligned-xfs \
		 splice-ext4-ra512; do
		if kcheck tests/cases/$c/case.ops; then
			ok "kernel check $c$retried"
		else
			bad "kernel check $c" "$(tail -n 20 "$T/check")"
		fi
	done

	# Where the kernel put the folios in memory decides how bios and
	# requests are cut, and differs from run to run: 1 MiB random preads
	# of order-0 pages at max_sectors_kb 1024 made 217 requests in one
	# recording and 328 in the next (pages together in memory merge, and
	# 128 segments then hold more of them).  The recording lists each
	# folio's pfn (folio_pfns=, one per add event) and the model puts
	# its folios there: every run matches, strictly, whichever it was.
	printf '# file_size: 64M\n# read_ahead_kb: 128\n# max_sectors_kb: 1024\nrand-pread 1M 120 7\n' > "$T/pfns.ops"
	n=0
	for k in 1 2 3; do
		mkdir -p "$T/pfns$k" && cp "$T/pfns.ops" "$T/pfns$k/case.ops"
		if "$RALAB" kernel --trace --workdir "$wd" "$T/pfns$k/case.ops" \
			> "$T/pfns$k/kernel.out" 2> "$T/pfns.err" &&
		   [ "$(grep -c '^mm_filemap_add_to_page_cache' "$T/pfns$k/kernel.out")" -gt 0 ] &&
		   grep -q '^folio_pfns=[1-9]' "$T/pfns$k/kernel.out" &&
		   "$RALAB" check --strict "$T/pfns$k" > "$T/check" 2>&1; then
			n=$((n + 1))
		else
			cp "$T/check" "$T/check.pfns" 2> /dev/null
		fi
	done
	if [ $n = 3 ]; then
		ok "kernel: folios placed where the kernel put them (3 recordings: $(grep -h '^data_reads=' "$T"/pfns?/kernel.out | tr '\n' ' '))"
	else
		bad "kernel: folios placed where the kernel put them" "$n of 3 matched: $(tail -n 12 "$T/pfns.err" "$T/check.pfns" 2> /dev/null)"
	fi

	# Writes beside a file's own holes are recorded (above); one that
	# reaches into a hole, where the filesystem allocates blocks the model
	# does not place, is refused before anything runs.
	printf '# fs: xfs\n# file_size: 4M\n# holes: 1M+64K\nread 64K 4\npwrite 1044480 8192\nread 64K eof\n' > "$T/hole-write.ops"
	expect_rc "kernel: a write into a file's own hole, refused" 2 \
		"$RALAB" kernel --workdir "$wd" "$T/hole-write.ops"
	grep -q "the case writes into a file's own or punched holes" "$T/err" ||
		bad "kernel: a write into a file's own hole: message" "$(head -c 300 "$T/err")"
	[ -s "$T/out" ] && bad "kernel: a write into a file's own hole: output" "$(head -c 200 "$T/out")"
	# So is one into a hole the case punched (or, on XFS, zeroed).
	printf '# fs: xfs\n# file_size: 4M\nread 64K 4\nzero-range 1M 64K\npwrite 1052672 100\nread 64K eof\n' > "$T/punch-write.ops"
	expect_rc "kernel: a write into a zeroed range on XFS, refused" 2 \
		"$RALAB" kernel --workdir "$wd" "$T/punch-write.ops"
	# sendfile(2) goes to /dev/null, which takes all it is given: one
	# that stops short (a socket's full buffer) is refused.
	printf '# file_size: 1M\nsendfile 0 65536 4096\n' > "$T/sendfile-short.ops"
	expect_rc "kernel: a sendfile stopping short, refused" 2 \
		"$RALAB" kernel --workdir "$wd" "$T/sendfile-short.ops"
	grep -q "sendfile that stops after 4096 of 65536 bytes" "$T/err" ||
		bad "kernel: a sendfile stopping short: message" "$(head -c 300 "$T/err")"
	# Truncated and written, its holes fill where the model puts the
	# blocks, not as the layout has them: refused as well.
	printf '# fs: xfs\n# file_size: 4M\n# holes: 1M+64K\ntruncate 0\npwrite 0 8192\nread 64K eof\n' > "$T/hole-trunc.ops"
	expect_rc "kernel: a file with holes truncated and written, refused" 2 \
		"$RALAB" kernel --workdir "$wd" "$T/hole-trunc.ops"

	# The recorder's fallback where the files' inode numbers are too
	# scattered for a tracefs filter (--device-filter forces it): tracefs
	# filters on the device only and the parser keeps the case's inodes.
	# The recording must still match the model, event for event (it does
	# not if the parser drops lines of the case's files: checked by hand).
	devfilter() {
		rm -rf "$T/devfilter" && mkdir "$T/devfilter" &&
		cp "$1" "$T/devfilter/case.ops" &&
		"$RALAB" kernel --device-filter --trace --workdir "$wd" \
			"$T/devfilter/case.ops" > "$T/devfilter/kernel.out" 2> "$T/devfilter.err" &&
		grep -q '^mm_filemap_add_to_page_cache' "$T/devfilter/kernel.out" &&
		"$RALAB" check --strict "$T/devfilter" > "$T/check" 2>&1
	}
	for c in two-files shuffle-16k; do
		if devfilter tests/cases/$c/case.ops || devfilter tests/cases/$c/case.ops; then
			ok "kernel --device-filter $c"
		else
			bad "kernel --device-filter $c" "$(tail -n 5 "$T/devfilter.err" "$T/check")"
		fi
	done

	# A run that truncates and rewrites a file does not leave it for the
	# next case of that size: made anew, it has no unwritten blocks.
	printf '# fs: ext4\n# file_size: 1M\ntruncate 0\nfallocate 0 1M\npwrite 0 4096\n' > "$T/rewrite.ops"
	printf '# fs: ext4\n# file_size: 1M\nread 64K eof\n' > "$T/plain.ops"
	if "$RALAB" kernel --workdir "$wd" "$T/rewrite.ops" > "$T/rewrite.out" 2>&1 &&
	   kcheck "$T/plain.ops"; then
		ok "kernel: a rewritten file is not kept for the next case$retried"
	else
		bad "kernel: a rewritten file is not kept for the next case" \
		    "$(tail -n 5 "$T/rewrite.out" "$T/check")"
	fi

	# A fio job file, strace logs of real programs and an iolog, replayed;
	# a job that waits for another (wait-for: its thread starts when the
	# other's ends); 256 files, the most a case has (the recorder's
	# inode filter).
	zcat tests/traces/sqlite-100mb-query.strace.gz > "$T/sqlite.strace"
	for c in tests/fio/mixed-small.fio tests/fio/concurrent-4x-seq.fio \
		 tests/fio/real/many-files-rand.fio \
		 tests/fio/concurrent-mixed.fio tests/traces/cp-20mb.strace \
		 tests/traces/tar-40-files.strace "$T/sqlite.strace" \
		 tests/traces/fio-randread-16k.iolog3 tests/jobs/wait-for-reread.ops; do
		if kcheck "$c"; then
			ok "kernel check $(basename "$c")$retried"
		else
			bad "kernel check $(basename "$c")" "$(tail -n 20 "$T/check")"
		fi
	done

	# Real programs on files in extents and with holes, on this kernel
	# now: the strace log of 'ralab record' with the layout it noted
	# (FIEMAP) replays as the kernel read the file, event for event
	# (tests/traces/app holds such runs recorded earlier).  Retried once,
	# as kcheck does.  Not ext4 with holes inserted between contiguous
	# data: the kernel decides two ways there (docs/design.md).
	# A program reading through mmap() (tests/tools/mmap-read.c): the
	# page faults 'ralab record' traces are its reads.
	cc -O2 -o "$T/mmap-read" tests/tools/mmap-read.c
	# 'ralab record -p' attached to a program that opened and mapped
	# the file before (--attach: the 'wait' step; a thread of it reads
	# through the mapping, advised MADV_HUGEPAGE in one, with part of the
	# file cached by a pread before in another (its folios given); a
	# descriptor seeked before is read; one in the middle of a sequential
	# read: its readahead state then given).
	# A program writing the file it reads (tests/tools/rw-file.c).
	cc -O2 -o "$T/rw-file" tests/tools/rw-file.c
	# file(1) maps its magic database (package file, in .ci/run).
	local magic=
	if command -v file > /dev/null && [ -f /usr/share/misc/magic.mgc ]; then
		magic="--copy /usr/share/misc/magic.mgc -- file -m @FILE @FILE"
	else
		skip "kernel: file(1) on its magic database, recorded" "file(1) or /usr/share/misc/magic.mgc missing (package file)"
	fi
	# python3 loads a library with dlopen(3) (ld.so maps its segments
	# over its first mapping; libssl3 comes with python3).  Its script
	# must be in the page cache (cached=1: not replayed), or its reads,
	# on another device, would be in the replay but not in the events.
	local dlopen=
	if [ -x /usr/bin/python3 ] && [ -f /usr/lib/x86_64-linux-gnu/libcrypto.so.3 ]; then
		cat tests/tools/dlopen-lib.py > /dev/null
		dlopen="--copy /usr/lib/x86_64-linux-gnu/libcrypto.so.3 -- /usr/bin/python3 -S tests/tools/dlopen-lib.py @FILE"
	else
		skip "kernel: python3 loading libcrypto with dlopen, recorded" "/usr/bin/python3 or /usr/lib/x86_64-linux-gnu/libcrypto.so.3 missing"
	fi
	# python3's own binary run cold from the loop device: what execve()
	# reads and maps of it (its '# ralab exec' line), then its start.
	local pyexec=
	if [ -x /usr/bin/python3 ]; then
		pyexec="--copy $(readlink -f /usr/bin/python3) -- @FILE -S -c pass"
	else
		skip "kernel: python3's own binary run cold, recorded" "/usr/bin/python3 missing"
	fi
	# glibc's ld.so run as the program from a cold copy: placed by its
	# first fault, at its entry.
	local ldso=
	if [ -f /lib64/ld-linux-x86-64.so.2 ] && [ -x /usr/bin/true ]; then
		ldso="--copy /lib64/ld-linux-x86-64.so.2 -- @FILE /usr/bin/true"
	else
		skip "kernel: ld.so run as a program, recorded" "/lib64/ld-linux-x86-64.so.2 or /usr/bin/true missing"
	fi
	# sqlite3 (package sqlite3, in .ci/run) looking rows up by rowid in
	# a database laid out in extents (--copy with --extent-kb: the same
	# bytes, a block apart on the disk).  Its script, its binary, its
	# libraries and what it reads in /etc must be in the page cache, all
	# of them (cached=1: not replayed): read whole and run once first
	# (freshly installed, sqlite3 was not, and the replay read it too).
	local sqlite= sqlite_attach=
	if command -v sqlite3 > /dev/null && [ -x /usr/bin/python3 ]; then
		/usr/bin/python3 tests/tools/make-sqlite-db.py "$T/db.sqlite"
		printf '#!/bin/sh\nexec sqlite3 "$1" "select sum(length(v)) from t where id in (7, 777, 7777, 17000, 50000, 99999);"\n' > "$T/rowid.sh"
		chmod +x "$T/rowid.sh"
		cat "$(command -v sqlite3)" $(ldd "$(command -v sqlite3)" |
			awk '$3 ~ /^\// { print $3 }') > /dev/null
		"$T/rowid.sh" "$T/db.sqlite" > /dev/null
		sqlite="--copy $T/db.sqlite --extent-kb 64 -- $T/rowid.sh @FILE"
		# The same database open in SQLite (python3's module), rows
		# looked up before 'ralab record -p' attaches and after: the
		# folios and the descriptor's readahead state at the attach.
		sqlite_attach="--attach --copy $T/db.sqlite --extent-kb 64 -- /usr/bin/python3 -S tests/tools/attach-sqlite.py @FILE"
	else
		skip "kernel: sqlite3 on a database in extents, recorded" "sqlite3 or /usr/bin/python3 missing (package sqlite3)"
	fi
	for spec in "--extent-kb 16 --size 8 -- cat @FILE" \
		    ${magic:+"$magic"} \
		    ${sqlite:+"$sqlite"} \
		    ${sqlite_attach:+"$sqlite_attach"} \
		    ${dlopen:+"$dlopen"} \
		    ${pyexec:+"$pyexec"} \
		    ${ldso:+"$ldso"} \
		    "--size 16 -- $T/mmap-read @FILE seq touch:0:16M:4K" \
		    "--size 16 -- $T/mmap-read @FILE wtouch:0:1M:4K touch:4M:256K:4K wtouch:8M:64K:16K msync touch:12M:1M:4K" \
		    "--fs ext4 --size 32 -- $T/mmap-read @FILE rand:200:3 pread:0:1M fork:touch:4M:4M:4K" \
		    "--fs ext4 --extent-kb 64 --size 8 -- dd if=@FILE of=/dev/null bs=4k" \
		    "--size 16 -- $T/rw-file @FILE read:4K:40 pwrite:100:300000 write:64K:10 read:16K:100 pwrite:8M:2M dontneed:0:0 seek:0 read:128K:128" \
		    "--fs ext4 --extent-kb 256 --size 16 -- $T/rw-file @FILE write:8K:16 pwrite:3000000:500000 read:64K:40 fsync dontneed:0:0 seek:0 read:128K:128" \
		    "--extent-kb 100 --size 16 -- sha256sum @FILE" \
		    "--rewritten --size 16 -- $T/rw-file @FILE truncate write:100000:30 fsync dontneed:0:0 write:1M:4 seek:0 read:64K:120" \
		    "--rewritten --fs ext4 --size 16 -- $T/rw-file @FILE truncate fallockeep:0:8M write:100000:40 fsync dontneed:0:0 falloc:0:9M seek:0 read:64K:150" \
		    "--rewritten --size 16 -- $T/rw-file @FILE stat read:64K:64 ptruncate:1500000 seek:0 read:64K:30 pwrite:1400000:1000000 fsync dontneed:0:0 ptruncate:3000000 seek:0 read:128K:30" \
		    "--fs ext4 --size 32 --holes 1028K+4K,2M+12K,6M+1M --read-ahead-kb 2048 -- dd if=@FILE of=/dev/null bs=2M" \
		    "--size 8 --insert 64K+64K,1M+12K,3M+4K -- cat @FILE" \
		    "--size 16 --punch 100K+24K,4M+4K --unwritten 8M+1M -- cat @FILE" \
		    "--fs ext4 --size 8 --holes 1M+64K,5M+4K -- dd if=@FILE of=/dev/null bs=256k iflag=direct" \
		    "--attach --size 16 -- $T/mmap-read @FILE thread:wait,touch:0:8M:4K touch:8M:2M:4K" \
		    "--attach --fs ext4 --extent-kb 256 --size 8 -- $T/rw-file @FILE seek:1M wait read:64K:40 pread:0:512K" \
		    "--attach --size 32 -- $T/mmap-read @FILE hugepage thread:wait,touch:0:8M:4K,touch:20M:4M:64K" \
		    "--attach --fs ext4 --size 16 --read-ahead-kb 512 -- $T/mmap-read @FILE pread:2M:3M thread:wait,touch:0:16M:4K" \
		    "--attach --size 16 -- $T/rw-file @FILE read:16K:40 wait read:16K:200"; do
		local try what=${spec##*-- }
		what=${what%% *}
		what=${what##*/}
		for try in 1 2; do
			rm -rf "$T/app"
			# shellcheck disable=SC2086 # the spec is words
			if ! tests/tools/record-app.sh --ralab "$RALAB" ${spec%% -- *} \
				"$T/app" -- ${spec##*-- } > "$T/app.log" 2>&1; then
				echo "record-app.sh failed: $(tail -2 "$T/app.log")" > "$T/app.diff"
				continue
			fi
			"$RALAB" sim --trace "$T/app/app.strace" 2>&1 |
				grep -E '^(page_cache_|mm_filemap|block_rq)' > "$T/app.model"
			diff "$T/app/kernel.events" "$T/app.model" > "$T/app.diff" && break
		done
		if [ -s "$T/app.diff" ]; then
			bad "kernel: $what, ${spec%% -- *}, recorded" "$(head -5 "$T/app.diff")"
		else
			ok "kernel: $what, ${spec%% -- *}, recorded ($(wc -l < "$T/app/kernel.events") events)"
		fi
	done

	leftovers() { # prints what a recorder using $wd left behind
		local l
		for l in /sys/block/loop*/loop/backing_file; do
			[ -r "$l" ] && grep -q "^$wd/" "$l" && echo "loop: $l"
		done
		grep " $wd/" /proc/self/mountinfo | sed 's/^/mount: /'
		ls -d /sys/kernel/tracing/instances/ralab-* 2>/dev/null | sed 's/^/instance: /'
	}

	# SIGINT in the middle of the ops leaves nothing behind, for ralab
	# kernel and for ralab calibrate, which records too.
	sigint_test() { # NAME CMD...
		local name=$1 n
		shift
		"$@" > /dev/null 2> "$T/int.err" &
		pid=$!
		for n in $(seq 200); do
			[ -d /sys/kernel/tracing/instances/ralab-$pid ] && break
			sleep 0.02
		done
		sleep 0.1
		kill -INT $pid
		wait $pid; n=$?
		leftovers > "$T/left"
		if [ $n -ne 130 ]; then bad "$name" "exit $n, want 130: $(cat "$T/int.err")"
		elif [ -s "$T/left" ]; then bad "$name" "left behind: $(cat "$T/left")"
		else ok "$name"; fi
	}
	"$RALAB" kernel --workdir "$wd" tests/cases/seed001-seq4k/case.ops > /dev/null 2>&1
	sigint_test "kernel SIGINT" "$RALAB" kernel --workdir "$wd" tests/cases/seed001-seq4k/case.ops
	sigint_test "calibrate SIGINT" "$RALAB" calibrate --workdir "$wd" \
		tests/cases/seed001-seq4k/case.ops tests/cases/seed001-seq4k/case.ops

	# A SIGKILLed run leaves things; the next run reclaims them.
	"$RALAB" kernel --workdir "$wd" tests/cases/seed001-seq4k/case.ops > /dev/null 2>&1 &
	pid=$!
	for n in $(seq 200); do
		[ -d /sys/kernel/tracing/instances/ralab-$pid ] && break
		sleep 0.02
	done
	kill -KILL $pid; wait $pid 2>/dev/null
	if "$RALAB" kernel --workdir "$wd" tests/cases/eof-1m-301-pages/case.ops > "$T/out" 2>&1 &&
	   grep -q '^data_reads=3$' "$T/out"; then
		leftovers > "$T/left"
		if [ -s "$T/left" ]; then bad "kernel reclaim" "left behind: $(cat "$T/left")"
		else ok "kernel reclaim"; fi
	else
		bad "kernel reclaim" "run after SIGKILL failed: $(cat "$T/out")"
	fi

	# Concurrent jobs run as threads sharing the descriptors.  Two threads
	# reading one descriptor in alternate 512 KiB chunks: the requests,
	# synchronous readahead calls and folios are the model's (how many
	# async calls the threads make depends on timing: 1 to 3 here).  Two
	# processes of a recorded trace (a job each): the model's requests.
	# On a loaded machine the threads can interleave otherwise (once, with
	# a VM running beside: one sync call fewer and eight order-2 folios),
	# so up to five runs, and the first that matches counts (the third
	# failed too, once, with a fuzzer busy on one of the two CPUs).
	kjobs() { grep -E '^(data_reads|sync_ra|folio_orders|syscalls|bytes_read)='; }
	"$RALAB" sim tests/jobs/shared-fd-two-readers.ops > "$T/sj.out" 2> /dev/null # (the note on instant I/O)
	for try in 1 2 3 4 5; do
		"$RALAB" kernel --workdir "$wd" tests/jobs/shared-fd-two-readers.ops > "$T/kj.out" 2> "$T/kj.err"
		[ -s "$T/kj.out" ] && [ "$(kjobs < "$T/kj.out")" = "$(kjobs < "$T/sj.out")" ] && break
	done
	if [ -s "$T/kj.out" ] && [ "$(kjobs < "$T/kj.out")" = "$(kjobs < "$T/sj.out")" ] &&
	   grep -q '^job\.t1\.elapsed_us=' "$T/kj.out" && grep -q '^job\.t2\.elapsed_us=' "$T/kj.out"; then
		ok "kernel concurrent jobs (run $try)"
	else
		bad "kernel concurrent jobs" "$(cat "$T/kj.err"; diff <(kjobs < "$T/kj.out") <(kjobs < "$T/sj.out"))"
	fi
	zcat tests/traces/two-sha256.strace.gz > "$T/two.strace"
	"$RALAB" sim --dump-ops "$T/two.strace" > "$T/two.ops"
	"$RALAB" kernel --workdir "$wd" "$T/two.ops" > "$T/kj.out" 2> "$T/kj.err"
	"$RALAB" sim "$T/two.ops" > "$T/sj.out" 2> /dev/null
	if [ -s "$T/kj.out" ] && [ "$(kjobs < "$T/kj.out")" = "$(kjobs < "$T/sj.out")" ]; then
		ok "kernel trace with two processes"
	else
		bad "kernel trace with two processes" "$(cat "$T/kj.err"; diff <(kjobs < "$T/kj.out") <(kjobs < "$T/sj.out"))"
	fi

	# The recorder thinks as the model does: 'think 5000 8' over 64 reads
	# is 40 ms of thinking (every read: 320 ms; the margin is for a
	# loaded machine, whose reads take longer).
	printf '# file_size: 1M\nthink 5000 8\nread 4K 64\n' > "$T/kt.ops"
	"$RALAB" kernel --workdir "$wd" "$T/kt.ops" > "$T/kt.out" 2> "$T/kt.err"
	t=$(sed -n 's/^ops_seconds=//p' "$T/kt.out")
	awk -v t="$t" 'BEGIN { exit !(t >= 0.035 && t < 0.2) }' &&
		ok "kernel think every EVERY reads" || bad "kernel think every EVERY reads" "ops_seconds=$t $(cat "$T/kt.err")"

	# JSON and CSV of a kernel run: the JSON validates against the schema
	# (kernel object, no time model), and its windows along the run are
	# those of the model; CSV is a header and a value row of equal width.
	c=tests/cases/interleaved-2-streams/case.ops
	"$RALAB" kernel --format json --workdir "$wd" "$c" > "$T/k.json" 2> "$T/k.err" &&
	"$RALAB" sim --format json "$c" > "$T/ks.json" &&
	python3 - "$T/k.json" "$T/ks.json" docs/schema/sim.schema.json <<'PY' > "$T/k.out" 2>&1
import json, sys
k, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
try:
    import jsonschema
    jsonschema.validate(k, json.load(open(sys.argv[3])))
except ImportError:
    pass
assert k["policy"] == "kernel" and "device" not in k and k["kernel"]["release"], k.get("kernel")
assert k["ra_windows"] == s["ra_windows"] and k["ra_window_pages"] == s["ra_window_pages"], (k["ra_windows"][:9], s["ra_windows"][:9])
assert k["device_reads"] == s["device_reads"], (k["device_reads"], s["device_reads"])
kk = k["kernel"]
assert 0 < kk["read_lat_p50_ns"] <= kk["read_lat_p90_ns"] <= kk["read_lat_p99_ns"] <= kk["read_lat_max_ns"] <= kk["ops_ns"] * 1.2, kk
assert (kk["evicted_by_others"] > 0) == ("evicted_by" in kk), kk
PY
	[ $? -eq 0 ] && ok "kernel json" || bad "kernel json" "$(cat "$T/k.err" "$T/k.out" | tail -5)"

	# Pages of the case's file that another process drops from the page
	# cache during the run (DAMON's kdamond on this machine, for memory
	# idle some seconds) are counted and named, apart from the workload's
	# own DONTNEED (dontneed-then-reread: not named as the evictor, though
	# kdamond may be), and the run says its recording is not the
	# workload's alone.
	if command -v fincore > /dev/null && command -v python3 > /dev/null; then
		tests/tools/evict-when-paused.sh "$wd" 4194304 2> "$T/ev.helper" &
		pid=$!
		"$RALAB" kernel --workdir "$wd" tests/recordings/evicted-by-others/case.ops \
			> "$T/ev.out" 2> "$T/ev.err"
		wait $pid
		n=$(sed -n 's/^evicted_by_others=//p' "$T/ev.out")
		# (kdamond may come first: it found those pages idle.)
		by=$(sed -n 's/^evicted_by=//p' "$T/ev.out")
		if [ "${n:-0}" -ge 256 ] && [[ "$by" =~ ^(python3|kdamond|kswapd) ]] &&
		   grep -q "another task ($by) evicted $n page(s)" "$T/ev.err" &&
		   "$RALAB" kernel --workdir "$wd" tests/cases/dontneed-then-reread/case.ops > "$T/ev2.out" 2>&1 &&
		   ! grep -qx "evicted_by=$(basename "$RALAB")" "$T/ev2.out"; then
			ok "kernel: pages evicted by another task"
		else
			bad "kernel: pages evicted by another task" "$(cat "$T/ev.helper" "$T/ev.err"; grep evicted "$T/ev.out" "$T/ev2.out")"
		fi
		# ralab check records such a run again (twice at most).
		tests/tools/evict-when-paused.sh "$wd" 4194304 2> "$T/ev.helper" &
		pid=$!
		"$RALAB" check --strict --workdir "$wd" tests/recordings/evicted-by-others/case.ops \
			> "$T/ev.out" 2> "$T/ev.err"; rc=$?
		wait $pid
		if grep -q 'evicted-by-others/case.ops: recording it again (1 of 2)' "$T/ev.err" &&
		   { [ $rc = 0 ] || grep -q 'recording it again (2 of 2)' "$T/ev.err"; }; then
			ok "check: a run another task disturbed is recorded again"
		else
			bad "check: a run another task disturbed is recorded again" "exit $rc: $(cat "$T/ev.helper" "$T/ev.err" "$T/ev.out" | head)"
		fi
	else
		skip "kernel: pages evicted by another task" "fincore (util-linux) or python3 missing"
	fi
	"$RALAB" kernel --format csv --workdir "$wd" "$c" > "$T/k.csv" 2> "$T/k.err"
	if [ "$(wc -l < "$T/k.csv")" = 2 ] &&
	   [ "$(head -1 "$T/k.csv" | tr -cd , | wc -c)" = "$(tail -1 "$T/k.csv" | tr -cd , | wc -c)" ] &&
	   head -1 "$T/k.csv" | grep -q 'stat_reads'; then ok "kernel csv"
	else bad "kernel csv" "$(cat "$T/k.csv" "$T/k.err" | head -5)"; fi
	expect_rc "kernel bad format" 2 "$RALAB" kernel --format xml "$c"
	"$RALAB" check --format json --workdir "$wd" "$c" tests/cases/ra0-64k/case.ops > "$T/ck.json" 2> "$T/ck.err" &&
	python3 - "$T/ck.json" docs/schema/check.schema.json <<'PY' > "$T/ck.out" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
try:
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[2])))
except ImportError:
    pass
assert d["command"] == "check" and len(d["comparisons"]) == 2, d
assert all(c["match"] for c in d["comparisons"]), d
PY
	[ $? -eq 0 ] && ok "check json" || bad "check json" "$(cat "$T/ck.err" "$T/ck.out" | tail -5)"
	expect_rc "check bad format" 2 "$RALAB" check --format xml "$c"
	# A bad case anywhere is refused before anything is recorded.
	printf 'read 4K 1\nbogus\n' > "$T/bad.ops"
	for cmd in check calibrate; do
		"$RALAB" $cmd --workdir "$wd" "$c" "$T/bad.ops" > "$T/out" 2> "$T/err"; n=$?
		if [ $n -eq 2 ] && [ ! -s "$T/out" ] && grep -q "bad.ops:2: unknown op" "$T/err"; then
			ok "$cmd refuses a bad case first"
		else
			bad "$cmd refuses a bad case first" "exit $n: $(head -3 "$T/out" "$T/err")"
		fi
	done
	"$RALAB" calibrate --format json --workdir "$wd" tests/cases/ra0-64k/case.ops "$c" > "$T/cal.json" 2> "$T/cal.err" &&
	python3 - "$T/cal.json" docs/schema/calibrate.schema.json "$RALAB" <<'PY' > "$T/cal.out" 2>&1
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
try:
    import jsonschema
    jsonschema.validate(d, json.load(open(sys.argv[2])))
except ImportError:
    pass
assert [c["role"] for c in d["cases"]] == ["fit", "check"], d
assert all(c["kernel_s"] > 0 and c["model_s"] > 0 for c in d["cases"]), d
# The CPU costs were measured (a cached read(2) costs something, and
# under 100 us a call here), and the model of each case is ralab sim's
# with the printed settings.
assert 0 < d["cpu_syscall_ns"] < 100000 and 0 < d["cpu_page_ns"] < 100000, d
# The fitted case (read_ahead_kb 0, one read at a time) never has two
# requests in service at once: its contention cannot be fitted.
assert d["contention_fitted"] is False, d
for c in d["cases"]:
    out = subprocess.run([sys.argv[3], "sim", "--set", "device=loop"] +
        [a for k in ("dev_latency_us", "dev_bandwidth_mb", "dev_contention_ns", "cpu_syscall_ns", "cpu_page_ns")
         for a in ("--set", "%s=%d" % (k, d[k]))] + [c["case"]],
        capture_output=True, text=True, check=True).stdout
    us = float(out.split("elapsed_us=")[1].split()[0])
    assert abs(us / 1e6 - c["model_s"]) < 2e-6, (c, us)
PY
	[ $? -eq 0 ] && ok "calibrate json" || bad "calibrate json" "$(cat "$T/cal.err" "$T/cal.out" | tail -5)"
	# Four threads' O_DIRECT reads have requests side by side: the
	# contention is fitted, and the model with it is the printed one.
	"$RALAB" calibrate --runs 1 --format json --workdir "$wd" tests/cases/direct-threads-4/case.ops \
		tests/cases/ra0-64k/case.ops > "$T/cal2.json" 2> "$T/cal2.err" &&
	python3 - "$T/cal2.json" "$RALAB" <<'PY' > "$T/cal2.out" 2>&1
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
assert d["contention_fitted"] is True, d
c = d["cases"][0]
out = subprocess.run([sys.argv[2], "sim", "--set", "device=loop"] +
    [a for k in ("dev_latency_us", "dev_bandwidth_mb", "dev_contention_ns", "cpu_syscall_ns", "cpu_page_ns")
     for a in ("--set", "%s=%d" % (k, d[k]))] + [c["case"]],
    capture_output=True, text=True, check=True).stdout
assert abs(float(out.split("elapsed_us=")[1].split()[0]) / 1e6 - c["model_s"]) < 2e-6, (c, out)
PY
	[ $? -eq 0 ] && ok "calibrate fits the contention of requests side by side" ||
		bad "calibrate fits the contention of requests side by side" "$(cat "$T/cal2.err" "$T/cal2.out" | tail -5)"
	# The file it measured read(2) on is gone.
	if ls "$wd"/cpu-probe.* > /dev/null 2>&1; then
		bad "calibrate removes its probe file" "$(ls "$wd")"
	else
		ok "calibrate removes its probe file"
	fi

	# A case the device cannot do is refused before anything is touched.
	printf '# max_hw_sectors_kb: 2048\n# max_sectors_kb: 2048\nread 1M 1\n' > "$T/hw.ops"
	"$RALAB" kernel --workdir "$wd" "$T/hw.ops" > /dev/null 2> "$T/err"; n=$?
	if [ $n -eq 2 ] && grep -q 'max_hw_sectors_kb 2048' "$T/err"; then ok "kernel refuses hw limit"
	else bad "kernel refuses hw limit" "exit $n: $(cat "$T/err")"; fi

	# --teardown removes the images.
	"$RALAB" kernel --teardown --workdir "$wd" && [ ! -e "$wd" ] &&
		ok "kernel teardown" || bad "kernel teardown" "$wd remains"
}
kernel_suite
