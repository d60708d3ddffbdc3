# Sourced by tests/run.sh: memcheck over a few runs that touch every part
# (eviction, mmap, jobs, fio and strace front-ends, failing allocations).
# Not under ASan.

valgrind_test() {
	local c
	if [ -n "${RALAB_SANITIZED:-}" ]; then
		return
	fi
	if ! command -v valgrind > /dev/null; then
		skip "valgrind" "valgrind is not installed"
		return
	fi
	zcat tests/traces/app/mmap-fork-xfs/app.strace.gz > "$T/vg-faults.strace"
	zcat tests/traces/app/sendfile-splice-python-ext4/app.strace.gz > "$T/vg-splice.strace"
	for c in tests/cases/dontneed-then-reread/case.ops tests/cases/mmap-hugepage/case.ops \
		 tests/jobs/race-patch01.ops tests/fio/mixed-small.fio \
		 tests/traces/tar-40-files.strace "$T/vg-faults.strace" \
		 tests/alloc/patch03-fallback.ops tests/cases/write-s2-w01-ext4-ra1024-msk256-x1024/case.ops \
		 tests/traces/calls-writes.strace tests/cases/trunc-s1-t05-xfs-ra1024-msk1280/case.ops \
		 tests/cases/trunc-holes-twice-xfs/case.ops tests/cases/splice-pipes-xfs/case.ops \
		 "$T/vg-splice.strace" tests/fio/real/splice-direct-256k.fio; do
		if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
			"$RALAB" sim --trace "$c" > /dev/null 2> "$T/vg"; then
			ok "valgrind $(basename "$c")"
		else
			bad "valgrind $(basename "$c")" "$(head -20 "$T/vg")"
		fi
	done
	# --sync: memcheck cannot see io_uring write into the folios.
	truncate -s 16M "$T/vg.bin"
	if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
		"$B/examples/direct-cache" --sync "$T/vg.bin" rand:64K:200:99 read:4K:300 \
		fadvise:0:1M:dontneed pread:0:4096 stride:8M:16K:-16K:100 > /dev/null 2> "$T/vg"; then
		ok "valgrind direct-cache"
	else
		bad "valgrind direct-cache" "$(head -20 "$T/vg")"
	fi
	# ralab record's page-fault recorder (root: a tracefs instance, a
	# reader thread, the merge into the log).
	if [ "$(id -u)" = 0 ] && command -v strace > /dev/null &&
	   [ -d /sys/kernel/tracing/events/exceptions/page_fault_user ]; then
		cc -O2 -o "$T/vg-mmap-read" tests/tools/mmap-read.c
		if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
			"$RALAB" record -o "$T/vg-rec.strace" -- "$T/vg-mmap-read" "$T/vg.bin" touch:0:1M:4K \
			> /dev/null 2> "$T/vg" && grep -q '# ralab fault ' "$T/vg-rec.strace"; then
			ok "valgrind record (page faults)"
		else
			bad "valgrind record (page faults)" "$(head -20 "$T/vg")"
		fi
	else
		skip "valgrind record (page faults)" "needs root, strace and the exceptions:page_fault_user tracepoint"
	fi
}
valgrind_test
