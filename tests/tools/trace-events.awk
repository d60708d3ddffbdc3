# trace-events.awk: a tracefs trace as ralab's events (as 'ralab sim
# --trace' prints them: no dev/ino/pfn, sectors from each file's start).
# Shared by record-fio.sh (on this machine) and record-fio-vm.sh (inside
# the VM, under busybox awk).
#
#   awk -v dev=MAJ:MIN -v ext=EXTENTS -f trace-events.awk TRACE
#
# dev: the traced block device; EXTENTS: one line per extent, its first
# and last sector on the device and, for a file of several extents, the
# file's sector where it starts (none: 0, a file of one extent).  Writes
# and requests outside the files (metadata) are left out.
BEGIN { while ((getline l < ext) > 0) { split(l, e, " "); lo[++n] = e[1]; hi[n] = e[2]; rel[n] = e[3] + 0 } }
{ sub(/^.*[0-9]+\.[0-9]+: /, "") }
# Another task's evictions (record-fio.sh reports them): not events.
/^mm_filemap_delete_from_page_cache/ { next }
/^(page_cache_|mm_filemap)/ {
	if (index($0, "dev=" dev " ") == 0 && index($0, "dev " dev " ") == 0) next
	gsub(/dev=[0-9]+:[0-9]+ ino=[0-9a-f]+ /, "")
	gsub(/dev [0-9]+:[0-9]+ ino [0-9a-f]+ pfn=0x[0-9a-f]+ /, "")
	print; next }
/^block_rq_issue:/ {
	split(dev, a, ":"); if ($2 != a[1] "," a[2] || $3 !~ /R/) next
	for (i = 1; i <= n; i++)
		if ($6 >= lo[i] && $6 <= hi[i]) {
			# RWBS flags as ralab prints them: RA (readahead), RS
			# (REQ_SYNC: an O_DIRECT read) or R.
			printf "block_rq_issue: %s %s %d + %s\n",
				($3 ~ /A/ ? "RA" : $3 ~ /S/ ? "RS" : "R"),
				$4, $6 - lo[i] + rel[i], $8
			next
		} }
