#!/bin/bash
# Pack the guest initramfs.
#
#   scripts/mkimage.sh OUT.cpio BIN...
#   scripts/mkimage.sh --layer OUT.cpio BIN...
#
# BIN are the binaries to put in /bin (oomwatch, workloads, tools), and
# test modules (*.ko), which go to /lib/modules/oomwatch.  A dynamically
# linked BIN brings the libraries ldd finds for it, at the same paths.
# The image holds busybox-static with its applet links, /init, and the
# scenarios; it is an uncompressed newc cpio: decompression costs more
# than the copy under TCG.
#
# --layer packs only the BINs: a cpio to concatenate after the image (the
# kernel unpacks one archive after the other), for what only a few
# scenarios need and the others should not pay for in RAM (stress-ng and
# its 24 MB of libraries: initramfs memory is never reclaimed).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
layer=0
[ "${1:-}" = --layer ] && { layer=1; shift; }
out=$1
shift
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# install_bin BIN: into /bin, with its shared libraries if it has any.
install_bin() {
	local lib
	install -D -m 0755 "$1" "$stage/bin/$(basename "$1")"
	ldd "$1" >/dev/null 2>&1 || return 0
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$stage$lib"
	done
}

pack() {
	mkdir -p "$(dirname "$out")"
	(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "mkimage: $out ($(du -k "$out" | cut -f1) kB)" >&2
}

if [ "$layer" = 1 ]; then
	for bin in "$@"; do install_bin "$bin"; done
	pack
	exit 0
fi

busybox=/bin/busybox
[ -x "$busybox" ] || { echo "mkimage: $busybox missing (make deps: busybox-static)" >&2; exit 1; }
# ldd fails on a static binary: a dynamic busybox would not run in the guest.
if ldd "$busybox" >/dev/null 2>&1; then
	echo "mkimage: $busybox is dynamically linked (install busybox-static)" >&2
	exit 1
fi

mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,root,scenarios}
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
for bin in "$@"; do
	case $bin in
	*.ko) install -D -m 0644 "$bin" "$stage/lib/modules/oomwatch/$(basename "$bin")" ;;
	*) install_bin "$bin" ;;
	esac
done
install -m 0755 "$top/guest-image/init" "$stage/init"
cp "$top"/guest-image/scenarios/*.sh "$stage/scenarios/"
printf '127.0.0.1 localhost\n' >"$stage/etc/hosts"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
pack
