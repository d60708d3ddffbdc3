#!/usr/bin/env bash
# Record the reads fio itself issues for a job file, in order, without
# touching a device: fio runs it with ioengine=null and writes an iolog per
# job section (write_iolog); the reads are kept as "JOB FILE OFFSET LENGTH"
# lines, JOB being the section, FILE the file's name as fio made it, the
# writes (rw, randrw) as "JOB FILE OFFSET LENGTH w" and the syncs
# (fsync=, fdatasync=) as "JOB FILE 0 0 s".
#
#   tests/tools/record-fio-reads.sh JOB.fio OUT.reads [MAX]
#
# MAX keeps only the first MAX reads of each job (time_based jobs).
#
# FIO_FILES=fresh or existing (in the environment) runs the jobs on their
# own engines over real files in the temporary directory, laid out by
# the run itself (fresh) or first by fio --create_only=1 (existing): where
# a later job lays a file out again, larger, fio's reads depend on that
# (ralab's --set fio_files=).
#
# tests/unit/test_fio_rand.c checks that ralab's reading of JOB.fio makes
# the same reads in the same order (fio's random generator, reproduced in
# src/workload/fio_rand.c).  Needs fio (3.33 for the fixtures).
set -euo pipefail
job=$(realpath "${1:?usage: record-fio-reads.sh JOB.fio OUT.reads}")
out=$(realpath -m "${2:?usage: record-fio-reads.sh JOB.fio OUT.reads}")
max=${3:-0}
w=$(mktemp -d /tmp/ralab-fio-reads.XXXXXX)
trap 'rm -rf "$w"' EXIT
cd "$w"
# Every section but [global] logs to a file of its own; the engine is
# null, but for jobs on an asynchronous engine (libaio, posixaio, vsync,
# io_uring), which run on it in this temporary directory: fio ends each
# of their passes at size bytes queued, which the null engine at iodepth
# 1, completing inline, does not.
keep=0
grep -Eq '^ioengine=(libaio|posixaio|io_uring|vsync)' "$job" && keep=1
files=${FIO_FILES:-}
case "$files" in
''|fresh|existing) ;;
*) echo "record-fio-reads.sh: FIO_FILES must be fresh or existing" >&2; exit 2 ;;
esac
[ -n "$files" ] && keep=1
awk -v keep=$keep '/^\[/ { print; if ($0 != "[global]") { n = substr($0, 2, length($0) - 2); print "write_iolog=" n ".iolog" } next }
     /^ioengine=/ && !keep { next } { print }' "$job" > job.fio
if [ $keep = 0 ]; then
	sed -i '0,/^\[global\]/s//[global]\nioengine=null/' job.fio
	grep -q '^ioengine=null' job.fio || sed -i '1i [global]\nioengine=null' job.fio
fi
if [ "$files" = existing ]; then
	fio --create_only=1 --output=/dev/null job.fio
	rm -f ./*.iolog
fi
fio --output=/dev/null job.fio
: > "$out"
for l in *.iolog; do
	n=${l%.iolog}
	awk -v n="$n" -v max="$max" '
		($3 == "read" || $3 == "write") && (max == 0 || k++ < max) {
			f = $2; sub(".*/", "", f); print n, f, $4, $5 ($3 == "write" ? " w" : "") }
		$3 == "sync" || $3 == "datasync" { f = $2; sub(".*/", "", f); print n, f, 0, 0, "s" }' "$l" >> "$out"
done
