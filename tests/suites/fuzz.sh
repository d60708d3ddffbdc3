# Sourced by tests/run.sh: a short libFuzzer run of the .ops parser (the
# long run is 'make fuzz' then build/fuzz/fuzz_ops -max_total_time=600).

fuzz_smoke() {
	if [ -n "${RALAB_SANITIZED:-}" ]; then
		return # the fuzzer has its own sanitizers; once is enough
	fi
	if ! command -v clang >/dev/null; then
		skip "fuzz smoke" "clang is not installed"
		return
	fi
	if ! make -s fuzz > "$T/fuzzbuild" 2>&1; then
		if grep -q 'fuzzer' "$T/fuzzbuild"; then
			skip "fuzz smoke" "clang has no libFuzzer runtime (libclang-rt-14-dev)"
		else
			bad "fuzz build" "$(tail -5 "$T/fuzzbuild")"
		fi
		return
	fi
	# Four seconds each: the corpus, then a few hundred (fio) to some
	# thousands (.ops) of mutated inputs (the long runs are 'make fuzz''s).
	for t in ops fio fiocmd strace iolog rawlog api; do
		mkdir -p "$T/corpus-$t"
		if build/fuzz/fuzz_$t -max_total_time=4 -seed=1 "$T/corpus-$t" fuzz/corpus \
			> "$T/fuzz" 2>&1; then
			ok "fuzz smoke $t"
		else
			bad "fuzz smoke $t" "$(grep -E 'ERROR|SUMMARY|Assertion' "$T/fuzz" | head -5)"
		fi
	done
}
fuzz_smoke
