# Shared by the VM tools (sourced): unpack a
# kernel and copy the modules a VM needs into its initramfs.

# vm_kernel_unpack KERNEL DIR: KERNEL is a Debian kernel package apt can
# fetch, or a comma-separated list of .deb files (Ubuntu splits image and
# modules); unpacks into DIR, runs depmod, sets vm_kv to the release.
vm_kernel_unpack() {
	local pkg=$1 dir=$2 d debs
	case $pkg in
	*.deb*)	IFS=, read -ra debs <<< "$pkg"
		for d in "${debs[@]}"; do dpkg-deb -x "$d" "$dir"; done ;;
	*)	mkdir -p "$dir.dl"
		(cd "$dir.dl" && apt-get download -q "$pkg" >/dev/null)
		dpkg-deb -x "$dir.dl"/*.deb "$dir" ;;
	esac
	vm_kv=$(ls "$dir/lib/modules")
	/usr/sbin/depmod -b "$dir" "$vm_kv"
}

# vm_kernel_modules DIR MODSDIR MODULE...: the modules MODULE... need, in
# load order, decompressed into MODSDIR as NN-name.ko (numbered for the
# init's glob); those built in print "builtin" and are skipped.
vm_kernel_modules() {
	local dir=$1 mods=$2 i=10 f m
	shift 2
	for f in $(/usr/sbin/modprobe -d "$dir" -S "$vm_kv" --show-depends \
			-a "$@" | awk '$1 == "insmod" { print $2 }'); do
		m=$mods/$i-$(basename "${f%%.ko*}").ko
		case $f in
		*.xz) xz -dc "$f" > "$m" ;;
		*.zst) zstd -qdc "$f" > "$m" ;;
		*) cp "$f" "$m" ;;
		esac
		i=$((i + 1))
	done
}

# vm_root ROOT: the initramfs skeleton, with busybox.
vm_root() {
	mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev" "$1/mnt" "$1/tmp" "$1/mods"
	cp /bin/busybox "$1/bin/busybox"
}

# vm_copy_bin ROOT BIN...: BIN... and the libraries they link into ROOT
# (binaries in ROOT/bin).
vm_copy_bin() {
	local root=$1 b l
	shift
	for b in "$@"; do
		cp "$b" "$root/bin/"
		for l in $(ldd "$b" | grep -o '/[^ ]*'); do
			mkdir -p "$root$(dirname "$l")"; cp -L "$l" "$root$l"
		done
	done
}

# vm_ralab_cases KERNEL DIR TOP NAME CASEDIR...: a VM that runs ralab on
# recorded cases: KERNEL unpacked into DIR/k, the root DIR/r with TOP's
# build/ralab, mkfs.xfs, mkfs.ext4, the modules for XFS, NVMe and loop
# devices, and each CASEDIR's case.ops as /cases/NAME/case.ops.  NAME (the
# calling tool) prefixes errors, which exit 2.
vm_ralab_cases() {
	local pkg=$1 w=$2 top=$3 name=$4 c
	shift 4
	[ -x "$top/build/ralab" ] || { echo "$name: build ralab first (make)" >&2; exit 2; }
	mkdir -p "$w/k"
	vm_root "$w/r"
	for c in "$@"; do
		[ -f "$c/case.ops" ] || { echo "$name: $c: no case.ops" >&2; exit 2; }
		mkdir -p "$w/r/cases/$(basename "$c")"
		cp "$c/case.ops" "$w/r/cases/$(basename "$c")/"
	done
	vm_kernel_unpack "$pkg" "$w/k"
	vm_copy_bin "$w/r" "$top/build/ralab" /usr/sbin/mkfs.xfs /sbin/mkfs.ext4
	vm_kernel_modules "$w/k" "$w/r/mods" crc32c-intel xfs nvme loop
}

# vm_init_prologue: the start of the VM's /init (busybox, /proc, /sys,
# /dev, tracefs, the modules, the NVMe disk's XFS on /mnt, or a line
# "@@@ MOUNT FAILED" on the console).
vm_init_prologue() {
	cat <<'EOI'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mount -t tracefs none /sys/kernel/tracing
for m in /mods/*.ko; do insmod $m; done
i=0; while [ ! -e /dev/nvme0n1 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
mount -t xfs /dev/nvme0n1 /mnt || echo "@@@ MOUNT FAILED"
EOI
}

# vm_boot DIR TIMEOUT NAME: pack DIR/r (with its init) into an initramfs,
# boot DIR/k's kernel from it under qemu (TCG single-threaded: with MTTCG
# the text patching of tracepoints and kprobes died in a stray int3;
# 2 vCPUs, 3000 MB) with an 8 GiB emulated NVMe disk holding XFS, and keep
# the console in DIR/console.  Fails if the disk did not mount.
vm_boot() {
	local w=$1 t=$2 name=$3
	chmod +x "$w/r/init"
	(cd "$w/r" && find . | cpio -o -H newc 2>/dev/null) > "$w/initrd"
	truncate -s 8G "$w/disk.img"
	mkfs.xfs -q -f "$w/disk.img"
	timeout "$t" qemu-system-x86_64 -accel tcg,thread=single -cpu max \
		-smp 2 -m 3000 -nographic -no-reboot \
		-kernel "$w/k/boot/vmlinuz-$vm_kv" -initrd "$w/initrd" \
		-append "console=ttyS0 loglevel=4 panic=-1" \
		-drive "file=$w/disk.img,if=none,id=d0,format=raw,cache=writeback" \
		-device nvme,drive=d0,serial=ralab0 < /dev/null |
		tr -d '\r' > "$w/console"
	if grep -q '@@@ MOUNT FAILED' "$w/console"; then
		echo "$name: XFS did not mount" >&2
		return 1
	fi
}

# vm_init_nvme_trace EVENT...: /init lines after vm_init_prologue that set
# the NVMe disk's read_ahead_kb 128 and max_sectors_kb 512 (in that order:
# writing max_sectors_kb re-derives read_ahead_kb) and enable EVENT...
# (SYSTEM/NAME) in a tracefs instance $T of 64 MiB per CPU.
vm_init_nvme_trace() {
	local e
	cat <<'EOI'
q=/sys/block/nvme0n1/queue
echo 512 > $q/max_sectors_kb; echo 128 > $q/read_ahead_kb
T=/sys/kernel/tracing/instances/ralab
mkdir $T
echo 65536 > $T/buffer_size_kb
EOI
	for e in "$@"; do echo "echo 1 > \$T/events/$e/enable"; done
}
