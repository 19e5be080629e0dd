#!/bin/bash
# Pack the guest initramfs.
#
#   scripts/mkimage.sh OUT.cpio BIN...
#
# BIN are the static binaries to put in /bin (oomwatch, workloads, tools),
# and test modules (*.ko), which go to /lib/modules/oomwatch.
# The image holds busybox-static with its applet links, /init, and the
# scenarios; it is an uncompressed newc cpio: decompression costs more
# than the copy under TCG.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

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
	*) install -m 0755 "$bin" "$stage/bin/$(basename "$bin")" ;;
	esac
done
install -m 0755 "$top/guest-image/init" "$stage/init"
cp "$top"/guest-image/scenarios/*.sh "$stage/scenarios/"
printf '127.0.0.1 localhost\n' >"$stage/etc/hosts"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
echo "mkimage: $out ($(du -k "$out" | cut -f1) kB)" >&2
