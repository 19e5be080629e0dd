#!/bin/bash
# Make the guest's tools disk: programs from Debian's archive, installed
# on this machine by `make deps`, with every library they load, on an
# ext2 image the guest mounts read-only at /mnt/tools (qemu-run --tools).
#
#   scripts/mktools.sh OUT.img BIN...
#
# Each BIN is run through its own copy of the dynamic loader, so that the
# guest's busybox userland needs no /lib: /mnt/tools/run/NAME is a wrapper
# that execs "ld.so --library-path /mnt/tools/lib /mnt/tools/bin/NAME".
# On a disk rather than in the initramfs: fio alone loads 80 MB of
# libraries, which a 256 MB guest would otherwise hold in RAM whole.
set -euo pipefail
out=${1:?usage: scripts/mktools.sh OUT.img BIN...}
shift
[ $# -gt 0 ] || { echo "mktools: no programs given" >&2; exit 2; }
die() { echo "mktools: error: $*" >&2; exit 1; }
command -v mke2fs >/dev/null || die "mke2fs missing (e2fsprogs)"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/bin" "$dir/lib" "$dir/run"
loader=
for bin in "$@"; do
	[ -x "$bin" ] || die "$bin missing (make deps)"
	name=$(basename "$bin")
	cp -L "$bin" "$dir/bin/$name"
	# "libfoo.so.1 => /lib/x86_64-linux-gnu/libfoo.so.1 (0x...)", and
	# the loader itself as "/lib64/ld-linux-x86-64.so.2 (0x...)".
	while read -r lib; do
		cp -Ln "$lib" "$dir/lib/" 2>/dev/null || true
	done < <(ldd "$bin" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p')
	ld=$(ldd "$bin" | sed -n 's/^[[:space:]]*\(\/[^ ]*ld-linux[^ ]*\) .*/\1/p')
	[ -n "$ld" ] || die "$bin: no dynamic loader in ldd's list"
	loader=$(basename "$ld")
	cp -Ln "$ld" "$dir/lib/$loader" 2>/dev/null || true
	printf '#!/bin/sh\nexec /mnt/tools/lib/%s --library-path /mnt/tools/lib --argv0 %s /mnt/tools/bin/%s "$@"\n' \
		"$loader" "$name" "$name" >"$dir/run/$name"
	chmod +x "$dir/run/$name"
done
kb=$(du -sk "$dir" | cut -f1)
rm -f "$out.tmp"
mke2fs -q -t ext2 -L tools -d "$dir" "$out.tmp" $((kb * 5 / 4 + 4096))k \
	>/dev/null ||
	die "mke2fs failed"
mv "$out.tmp" "$out"
echo "mktools: $out ($(( kb / 1024 )) MB: $*)" >&2
