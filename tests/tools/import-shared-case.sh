#!/usr/bin/env bash
# Convert a case recorded on the kernel in the shared format (case.ops,
# summary.txt, events.txt.gz with absolute block sectors) into a test
# fixture: tests/cases/NAME/{case.ops,kernel.out.gz}, where kernel.out is
# in ralab's own output format (events, then key=value lines) and block
# sectors count from the file's first sector.
#
# The file's first sector is derived from the first request: its sector
# minus the byte offset of the first folio of its batch / 512 (the test
# files are single-extent).
set -euo pipefail
src=${1:?usage: import-shared-case.sh SHARED_CASE_DIR [DEST_NAME]}
name=${2:-$(basename "$src")}
dst=$(dirname "$0")/../cases/$name
mkdir -p "$dst"
cp "$src/case.ops" "$dst/case.ops"
{
	zcat "$src/events.txt.gz" | awk '
		/^mm_filemap_add_to_page_cache:/ {
			if (!have) { o = $2; sub("ofs=", "", o); first = o; have = 1 }
			print; next
		}
		/^block_rq_issue:/ {
			if (base == "") base = $4 - first / 512
			$4 = $4 - base
			have = 0
			print; next
		}
		{ print }'
	sed -n 's/^\(.*\)$/\1/p' "$src/summary.txt" | tr ' ' '\n' | grep -E '^(data_reads|meta_reads|sync_ra|async_ra|ra_order|ra_unbounded|kernel|stat_reads|stat_sectors)=' || true
	printf 'folio_orders=%s\n' "$(sed -n 's/^folio_orders=//p' "$src/summary.txt" | sed 's/ *$//')"
} | gzip -n -9 > "$dst/kernel.out.gz"
echo "imported $name"
