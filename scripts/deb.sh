#!/bin/bash
# make deb: the patched kernel and oomwatch as Debian packages, in
# build/deb/, then lintian's verdict on them.
#
#   scripts/deb.sh [--no-lintian]
#
# The kernel's come from its own bindeb-pkg (scripts/kernel.sh --deb,
# cached per build key).  oomwatch's is built the Debian way: the files
# the package needs are staged in build/deb-src/oomwatch-VERSION/ with
# debian/, and dpkg-buildpackage -b runs there (it writes into the
# parent directory, which must not be the checkout's).  The BPF skeleton
# is the top Makefile's (make deb builds it first).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
lintian=1
[ "${1:-}" = --no-lintian ] && lintian=0
out=build/deb
say() { echo "deb: $*" >&2; }
die() { echo "deb: error: $*" >&2; exit 1; }

[ -r build/oomwatch.skel.h ] || die "build/oomwatch.skel.h missing (run make deb)"
t0=$(date +%s)
mkdir -p "$out"
rm -f "$out"/*.deb

kdir=$(scripts/kernel.sh --deb | tail -n 1)
[ -d "$kdir" ] || die "scripts/kernel.sh --deb printed no directory"
cp "$kdir"/*.deb "$out"/

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
stage=build/deb-src/oomwatch-${version%-*}
say "building oomwatch $version in $stage"
rm -rf build/deb-src
mkdir -p "$stage/bpf" "$stage/build" "$stage/tests/fixtures"
cp -r debian userspace man README.md "$stage"/
cp bpf/oomwatch_records.h "$stage/bpf/"
cp build/oomwatch.skel.h "$stage/build/"
cp tests/fixtures/arbiter_ok.jsonl tests/fixtures/kill_without_grant.jsonl \
	"$stage/tests/fixtures/"
if ! (cd "$stage" && dpkg-buildpackage -b -us -uc) >"$out/oomwatch-build.log" 2>&1; then
	tail -n 30 "$out/oomwatch-build.log" >&2
	die "dpkg-buildpackage failed; full log: $out/oomwatch-build.log"
fi
mv build/deb-src/*.deb "$out"/
say "packages in $out/ ($(( $(date +%s) - t0 )) s):"
(cd "$out" && ls -s --block-size=K ./*.deb | sed 's/^/deb:   /' >&2)

[ "$lintian" = 1 ] || exit 0
# lintian on oomwatch and the kernel image; what it says is in
# build/deb/lintian.txt, the counts here.
rc=0
for deb in "$out"/oomwatch_*.deb "$out"/linux-image-*oomwatch_*.deb; do
	name=$(basename "$deb")
	lintian --no-tag-display-limit --info "$deb" >"$out/lintian-$name.txt" 2>&1 || true
	e=$(grep -c '^E: ' "$out/lintian-$name.txt" || true)
	w=$(grep -c '^W: ' "$out/lintian-$name.txt" || true)
	say "lintian $name: $e errors, $w warnings (build/deb/lintian-$name.txt)"
	case $name in oomwatch_*) [ "$e" = 0 ] || rc=1 ;; esac
done
exit $rc
