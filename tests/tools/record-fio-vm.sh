#!/usr/bin/env bash
# Run fio job files under an older Debian kernel in a VM and record their
# page-cache and block events in ralab's format (as record-fio.sh does on
# the running kernel), to check ralab's models of older kernels.
#
#   tests/tools/record-fio-vm.sh KERNEL OUTDIR JOB.fio...
#
# KERNEL is a Debian kernel image package this machine's apt can fetch,
# e.g. linux-image-6.1.0-57-cloud-amd64-unsigned (6.1.192) or
# linux-image-6.12.117+deb12-cloud-amd64-unsigned, or a comma-separated
# list of .deb files holding a kernel and its modules (Ubuntu splits them:
# linux-image-unsigned-6.8.0-31-generic_*.deb,linux-modules-6.8.0-31-...,
# from archive.ubuntu.com's pool/main/l/linux/); OUTDIR gets
# NAME.events.gz for each JOB.fio; fio's bandwidth and the files' extents
# are printed.
#
# Needs root, apt (network), fio, gcc, qemu-system-x86, busybox-static,
# cpio, kmod, xfsprogs, xz-utils and zstd.  The kernel runs under qemu (TCG:
# nested KVM failed on the machine this was written on), from an initramfs
# holding busybox, fio with its libraries, the xfs modules and a small
# FIEMAP/evict helper; the disk is an emulated NVMe device over a sparse
# image, XFS, read_ahead_kb 128 and max_sectors_kb 512 (written in that
# order).  Nothing is installed on this machine's /boot; everything lives
# in a temporary directory removed on exit.  Those kernels have no
# readahead tracepoints: only filemap:mm_filemap_add_to_page_cache and
# block:block_rq_issue are recorded.  Times under TCG are the emulator's.
set -euo pipefail
pkg=${1:?usage: record-fio-vm.sh KERNEL OUTDIR JOB.fio...}
out=$(realpath -m "${2:?usage: record-fio-vm.sh KERNEL OUTDIR JOB.fio...}")
shift 2
[ $# -gt 0 ] || { echo "record-fio-vm.sh: no job file" >&2; exit 2; }
w=$(mktemp -d /tmp/ralab-vm.XXXXXX)
trap 'rm -rf "$w"' EXIT
mkdir -p "$out" "$w/k" "$w/r/jobs"
cp "$@" "$w/r/jobs/"

. "$(dirname "$0")/vm-kernel.sh"
vm_kernel_unpack "$pkg" "$w/k"

# The FIEMAP/evict helper: "fiemap FILE" prints the first extent's first
# and last sector and the number of extents; "fiemap -d FILE" evicts.
cat > "$w/fiemap.c" <<'EOC'
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	struct fiemap *fm;
	int fd = open(argv[argc - 1], O_RDONLY);

	if (fd < 0)
		return 1;
	if (argc == 3) {
		fsync(fd);
		return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	fm = calloc(1, sizeof(*fm) + 8 * sizeof(struct fiemap_extent));
	fm->fm_length = ~0ULL;
	fm->fm_extent_count = 8;
	fm->fm_flags = FIEMAP_FLAG_SYNC;
	if (!fm || ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
		return 1;
	printf("%llu %llu %u\n",
	       (unsigned long long)(fm->fm_extents[0].fe_physical >> 9),
	       (unsigned long long)((fm->fm_extents[0].fe_physical +
				     fm->fm_extents[0].fe_length) >> 9) - 1,
	       fm->fm_mapped_extents);
	return 0;
}
EOC
r=$w/r
vm_root "$r"
gcc -O2 -static -o "$r/bin/fiemap" "$w/fiemap.c"
cp "$(dirname "$0")/trace-events.awk" "$r/bin/"
vm_copy_bin "$r" /usr/bin/fio
vm_kernel_modules "$w/k" "$r/mods" crc32c-intel xfs nvme
{ vm_init_prologue; vm_init_nvme_trace filemap/mm_filemap_add_to_page_cache \
	block/block_rq_issue; cat <<'EOI'; } > "$r/init"
dev=$(cat /sys/block/nvme0n1/dev)
for job in /jobs/*.fio; do
	n=$(basename $job .fio)
	mkdir -p /mnt/w/$n; cd /mnt/w/$n
	fio --create_only=1 --output=/dev/null $job
	sync
	: > /tmp/ext
	for f in $(find . -maxdepth 1 -type f | sort); do
		fiemap -d $f; fiemap $f >> /tmp/ext
	done
	echo > $T/trace
	echo 1 > $T/tracing_on
	fio --output=/tmp/fio.out $job
	echo 0 > $T/tracing_on
	echo "@@@ BEGIN $n $(uname -r) $(grep -o 'READ: bw=[^ ]*' /tmp/fio.out) ext: $(tr '\n' ' ' < /tmp/ext)"
	awk -v dev=$dev -v ext=/tmp/ext -f /bin/trace-events.awk $T/trace
	echo "@@@ END $n"
	cd /; rm -rf /mnt/w/$n
done
umount /mnt
poweroff -f
EOI
vm_boot "$w" 3600 record-fio-vm.sh
awk -v d="$w" '
# (The first line follows the escape sequences of the firmware.)
/@@@ BEGIN/ { sub(/^.*@@@ BEGIN/, "@@@ BEGIN")
	f = d "/" $3 ".events"; print > (d "/" $3 ".info"); next }
/^@@@ END/ { close(f); f = ""; next }
f != "" && /^(mm_filemap|block_rq)/ { print > f }' "$w/console"
for f in "$w"/*.events; do
	n=$(basename "$f" .events)
	sed 's/.*ext: //' "$w/$n.info" |
		awk '{ for (i = 3; i <= NF; i += 3) if ($i != 1) exit 1 }' ||
		echo "record-fio-vm.sh: $n: a file of more than one extent" >&2
	gzip -9n < "$f" > "$out/$n.events.gz"
	echo "record-fio-vm.sh: $(wc -l < "$f") events: $(sed 's/^@@@ BEGIN //' "$w/$n.info")"
done
