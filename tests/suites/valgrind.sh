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
	for c in tests/cases/dontneed-then-reread/case.ops tests/cases/mmap-hugepage/case.ops \
		 tests/jobs/race-patch01.ops tests/fio/mixed-small.fio \
		 tests/traces/tar-40-files.strace tests/alloc/patch03-fallback.ops; do
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
}
valgrind_test
