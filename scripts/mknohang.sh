#!/bin/bash
# Pack nohang and the Python it runs on as a cpio layer (mode nohang).
#
#   scripts/mknohang.sh OUT.cpio CONFIG DEB...
#
# DEB are Debian's nohang, python3.11-minimal, libpython3.11-minimal and
# libpython3.11-stdlib packages (the Makefile fetches them).  The layer
# goes after build/initramfs.cpio in the initrd (the kernel unpacks one
# archive after the other), so that only mode nohang pays for Python in
# RAM: initramfs pages are never reclaimed.  It holds python3.11, the
# standard modules nohang's import statements reach and nothing else,
# compiled (sourceless .pyc), the shared libraries of the interpreter and
# of those modules' extensions, /usr/sbin/nohang and CONFIG as
# /etc/nohang/nohang.conf.  An uncompressed newc cpio, as the image.
set -euo pipefail
out=$1
conf=$2
shift 2
# The host's Debian Python (not a pyenv one on PATH) finds the module
# closure and compiles it: the same 3.11, so the same bytecode.
py=/usr/bin/python3
pylib=usr/lib/python3.11
"$py" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
	{ echo "mknohang: $py is not Python 3.11 (make deps: python3)" >&2; exit 1; }
debs=$(mktemp -d)
stage=$(mktemp -d)
trap 'rm -rf "$debs" "$stage"' EXIT
for deb in "$@"; do dpkg-deb -x "$deb" "$debs"; done
[ -x "$debs/usr/bin/python3.11" ] && [ -r "$debs/usr/sbin/nohang" ] ||
	{ echo "mknohang: python3.11 or nohang missing from the packages" >&2; exit 1; }

# The modules nohang imports anywhere (some only for options we leave off:
# logging, threading, shlex, subprocess, random), from its own source.
mods=$(sed -n 's/^ *\(import\|from\) \([a-z_.]*\).*/\2/p' "$debs/usr/sbin/nohang" | sort -u)
# Their closure: the files of every module an interpreter holds once it
# imported them, as seen from a clean one (-I -S: no site, as in the guest).
files=$(env -i "$py" -I -S -W ignore -c '
import sys
for m in sys.argv[1:]:
    __import__(m)
for m in list(sys.modules.values()):
    f = getattr(m, "__file__", None)
    if f and "/lib/python3.11/" in f:
        print(f.split("/lib/python3.11/", 1)[1])
' $mods | sort -u)
for f in $files; do
	[ -e "$debs/$pylib/$f" ] || { echo "mknohang: $pylib/$f not in the packages" >&2; exit 1; }
	install -D -m 0644 "$debs/$pylib/$f" "$stage/$pylib/$f"
done
# The exec prefix's landmark: python looks for it at startup.
mkdir -p "$stage/$pylib/lib-dynload"
# Next to their sources (-b), which go: one copy of each module in RAM.
"$py" -m compileall -q -b -d "/$pylib" "$stage/$pylib" >/dev/null
find "$stage/$pylib" -name '*.py' -delete

install -D -m 0755 "$debs/usr/bin/python3.11" "$stage/usr/bin/python3.11"
ln -s python3.11 "$stage/usr/bin/python3"	# nohang's #! line
install -D -m 0755 "$debs/usr/sbin/nohang" "$stage/usr/sbin/nohang"
install -D -m 0644 "$debs/usr/share/nohang/version" "$stage/usr/share/nohang/version"
install -D -m 0644 "$conf" "$stage/etc/nohang/nohang.conf"

# Shared libraries, resolved on this (Debian bookworm) machine, at the
# paths the loader looks for them.
for obj in "$stage/usr/bin/python3.11" $(find "$stage/$pylib" -name '*.so'); do
	if ldd "$obj" | grep -q 'not found'; then
		echo "mknohang: $obj: $(ldd "$obj" | grep 'not found')" >&2
		exit 1
	fi
	for lib in $(ldd "$obj" | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$stage$lib"
	done
done

chmod 0755 "$stage"
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
echo "mknohang: $out ($(du -k "$out" | cut -f1) kB, $(echo "$files" | wc -l) modules)" >&2
