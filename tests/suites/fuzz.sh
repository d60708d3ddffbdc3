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
	mkdir -p "$T/corpus"
	if build/fuzz/fuzz_ops -max_total_time=15 -seed=1 "$T/corpus" fuzz/corpus \
		> "$T/fuzz" 2>&1; then
		ok "fuzz smoke"
	else
		bad "fuzz smoke" "$(grep -E 'ERROR|SUMMARY' "$T/fuzz" | head -5)"
	fi
}
fuzz_smoke
