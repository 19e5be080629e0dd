#!/bin/bash
# Build the guest kernel from Debian's linux-source-6.1 in a cache outside
# the checkout.
#
#   scripts/kernel.sh [--stock] [--lockdep] [--print-dir] [--check-series]
#                     [--deb]
#
# --deb also makes the build's Debian packages (the kernel's bindeb-pkg:
# linux-image, its -dbg, linux-headers, linux-libc-dev) into
# linux-<pkgver>/debs-<name>/, once per build key, and prints that
# directory.
#
# Layout under $OOMWATCH_CACHE (default ~/.cache/oomwatch):
#   linux-<pkgver>/src            git repo of the pristine tarball (tag pristine)
#                                 checked out at the series' last patch
#   linux-<pkgver>/src-stock      worktree of the pristine tree (bench)
#   linux-<pkgver>/build-<name>   O= output; .oomwatch-key records what it
#                                 was built from
#   ccache/                       CCACHE_DIR
#
# The series is applied through a private index (git apply --cached), one
# commit per patch, and the tree is moved with `git checkout`, which only
# rewrites files whose content changed: an unchanged series keeps every
# mtime, so make does nothing; a changed patch rebuilds only what it touches.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/progress.sh
. "$top/scripts/progress.sh"
cache=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-$(nproc)}
variant=patched
lockdep=0
print_dir=0
check_series=0
deb=0

for arg in "$@"; do
	case $arg in
	--stock) variant=stock ;;
	--lockdep) lockdep=1 ;;
	--print-dir) print_dir=1 ;;
	--check-series) check_series=1 ;;
	--deb) deb=1 ;;
	*) echo "kernel.sh: unknown argument '$arg'" >&2; exit 2 ;;
	esac
done

say() { [ "$print_dir" = 1 ] || echo "kernel: $*" >&2; }
die() { echo "kernel: error: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing: run 'make deps' (package linux-source-6.1)"
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed: run 'make deps'"
base=$cache/linux-$pkgver
src=$base/src
git_k() { git -C "$src" -c user.name=oomwatch -c user.email=oomwatch@localhost "$@"; }

unpack_pristine() {
	[ -e "$src/.git/refs/tags/pristine" ] && return 0
	say "unpacking $tarball into $src (once per package version, about 1.3 GB)"
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	# A line per 256 MB read (records are 10 KiB).
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1 \
		--checkpoint=25600 --checkpoint-action='echo=unpacking: %T, %d s' \
		2>&1 | sed -u 's/^tar: /kernel: /' >&2
	[ "${PIPESTATUS[0]}" = 0 ] || die "could not unpack $tarball"
	say "recording the pristine tree in git (about 1 min)"
	# Debian's top-level .gitignore ignores everything: force the add.
	git -C "$src.tmp" init -q
	git -C "$src.tmp" add -A -f
	git -C "$src.tmp" -c user.name=oomwatch -c user.email=oomwatch@localhost \
		commit -q -m "linux-source-6.1 $pkgver (pristine)"
	git -C "$src.tmp" tag pristine
	rm -rf "$src"
	mv "$src.tmp" "$src"
}

# Print the commit at the end of the series, one commit per patch on top
# of pristine.  Stops with the patch's name and git's report of the hunk
# that failed.
apply_series() {
	local index parent tree name subject
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	parent=$(git_k rev-parse pristine)
	GIT_INDEX_FILE=$index git_k read-tree "$parent"
	while read -r name; do
		case $name in ''|'#'*) continue ;; esac
		[ -r "$top/patches/$name" ] || die "series names $name, which is not in patches/"
		if ! GIT_INDEX_FILE=$index git_k apply --cached -v \
			"$top/patches/$name" >"$index.log" 2>&1; then
			echo "kernel: error: patch $name does not apply to linux-source-6.1 $pkgver:" >&2
			grep -v '^Checking patch\|^Applied patch\|^Hunk .* succeeded' \
				"$index.log" >&2 || true
			rm -f "$index.log"
			exit 1
		fi
		rm -f "$index.log"
		tree=$(GIT_INDEX_FILE=$index git_k write-tree)
		subject=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' \
			"$top/patches/$name" | head -n 1)
		parent=$(git_k commit-tree "$tree" -p "$parent" -m "${subject:-$name}")
	done <"$top/patches/series"
	echo "$parent"
}

# symbol_exists TREE OPTION_LINE: TREE's Kconfig files define the option.
symbol_exists() {
	local sym
	sym=$(echo "$2" | sed -n 's/^\(# \)\{0,1\}CONFIG_\([A-Za-z0-9_]*\).*/\2/p')
	[ -z "$sym" ] && return 0
	grep -rqs --include='Kconfig*' -x "\(menu\)\{0,1\}config $sym" "$1"
}

make_config() {
	local out=$1 frags=("$top/patches/guest.config") gen want opt
	[ "$lockdep" = 1 ] && frags+=("$top/patches/lockdep.config")
	# A directory of its own: another checkout's kernel.sh may be making
	# its config at the same time.
	gen=$(mktemp -d "$base/config-gen.XXXXXX")
	make -s -C "$2" O="$gen" tinyconfig >/dev/null
	(cd "$2" && KCONFIG_CONFIG=$gen/.config \
		scripts/kconfig/merge_config.sh -m -O "$gen" "$gen/.config" \
		"${frags[@]}" >/dev/null)
	make -s -C "$2" O="$gen" olddefconfig >/dev/null
	# Every option we asked for must have stuck; on the stock tree, except
	# the ones the series adds (their symbol is in no Kconfig there).
	for want in "${frags[@]}"; do
		while read -r opt; do
			[ "$variant" = stock ] && ! symbol_exists "$2" "$opt" && continue
			case $opt in
			CONFIG_*=*) grep -qx "$opt" "$gen/.config" ||
				die "$opt from $(basename "$want") did not stick (check its dependencies)" ;;
			'# CONFIG_'*' is not set')
				grep -qx "$opt" "$gen/.config" ||
				die "'$opt' from $(basename "$want") did not stick" ;;
			esac
		done <"$want"
	done
	mkdir -p "$out"
	# Replace .config only when it changed: kbuild then rebuilds nothing.
	cmp -s "$gen/.config" "$out/.config" || cp "$gen/.config" "$out/.config"
	rm -rf "$gen"
}

checkout_tree() {
	local dir=$1 commit=$2
	if [ "$dir" = "$src" ]; then
		git_k checkout -q -f --detach "$commit"
		return
	fi
	[ -e "$dir/.git" ] || git_k worktree add -q --detach "$dir" "$commit"
	git -C "$dir" checkout -q -f --detach "$commit"
}

name=$variant
[ "$lockdep" = 1 ] && name=$name-lockdep
build=$base/build-$name
if [ "$print_dir" = 1 ]; then
	echo "$build"
	exit 0
fi

mkdir -p "$base"
unpack_pristine
if [ "$variant" = stock ]; then
	commit=$(git_k rev-parse pristine)
	tree_dir=$base/src-stock
else
	commit=$(apply_series)
	tree_dir=$src
fi
[ "$check_series" = 1 ] && { say "series applies cleanly ($commit)"; exit 0; }

checkout_tree "$tree_dir" "$commit"
make_config "$build" "$tree_dir"

# The release names the build (uname -r, /lib/modules, the package):
# 6.1.192-oomwatch for the series, 6.1.192 for stock.  Setting LOCALVERSION,
# even empty, also keeps setlocalversion from adding "+" for the git tree.
# The build number is pinned to the one `make deb` gives bindeb-pkg
# (package revision 1), so that packaging relinks nothing.
case $name in
stock*) localversion=${name#stock} ;;
*) localversion=-oomwatch${name#patched} ;;
esac
export LOCALVERSION=$localversion KBUILD_BUILD_VERSION=1

key=$(printf '%s\n' "$pkgver" "$localversion" "$(git -C "$tree_dir" rev-parse 'HEAD^{tree}')" \
	"$(sha256sum <"$build/.config")" | sha256sum | cut -d' ' -f1)
# bindeb-pkg in the build directory: its debian/rules runs make again
# with KBUILD_BUILD_VERSION=1 (the package revision), which is the build
# number we pin, so nothing is relinked.  The packages land in the build's
# parent; they are moved to debs-<name>/.  gzip, not xz: the -dbg package
# holds the 130 MB vmlinux.
deb_maintainer='oomwatch developers'
deb_email=maintainers@users.noreply.a-seed-0442a34d.example
make_debs() {
	local out=$base/debs-$name t0 debkey="$key $deb_email"
	if [ "$(cat "$out/.oomwatch-key" 2>/dev/null)" = "$debkey" ]; then
		say "$name kernel packages up to date ($out)"
		echo "$out"
		return 0
	fi
	say "packaging the $name kernel (bindeb-pkg, under a minute)"
	t0=$(date +%s)
	rm -rf "$out"
	rm -f "$base"/linux-*.deb "$base"/linux-*.buildinfo "$base"/linux-*.changes
	export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$tree_dir CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_TIMESTAMP='Thu Nov 11 09:29:22 UTC 2004'
	export KBUILD_BUILD_USER=oomwatch KBUILD_BUILD_HOST=guest
	if ! DEBFULLNAME=$deb_maintainer DEBEMAIL=$deb_email KDEB_COMPRESS=gzip make -C "$tree_dir" O="$build" -j"$jobs" \
		CC="ccache gcc" KDEB_PKGVERSION="$(cat "$build/include/config/kernel.release")-1" \
		bindeb-pkg >"$build/deb.log" 2>&1; then
		grep -E 'error|Error|dpkg' "$build/deb.log" | tail -20 >&2
		die "bindeb-pkg failed; full log: $build/deb.log"
	fi
	mkdir -p "$out"
	mv "$base"/linux-*.deb "$out"/
	rm -f "$base"/linux-*.buildinfo "$base"/linux-*.changes
	echo "$debkey" >"$out/.oomwatch-key"
	say "packaged in $(( $(date +%s) - t0 )) s: $(cd "$out" && ls *.deb | tr '\n' ' ')"
	echo "$out"
}

if [ -f "$build/arch/x86/boot/bzImage" ] && [ -f "$build/vmlinux" ] &&
   [ -f "$build/Module.symvers" ] &&
   [ "$(cat "$build/.oomwatch-key" 2>/dev/null)" = "$key" ]; then
	say "$name kernel up to date ($build)"
	[ "$deb" = 1 ] && make_debs
	exit 0
fi

# How many kbuild steps ("  CC      mm/vmscan.o") a full build of this
# config took last time, for a percentage; a cold cache has none yet and
# uses the count of a full guest.config build on 6.1.
steps_file=$cache/kernel-steps-$name
expected=$(cat "$steps_file" 2>/dev/null || echo 1600)
case $expected in ''|*[!0-9]*) expected=1600 ;; esac
full_build=0
[ -f "$build/vmlinux" ] || full_build=1

# A subshell without -e: a progress line must never stop the build.
build_progress() (	# build_progress ELAPSED
	set +e +o pipefail
	done=$(grep -cE '^  [A-Z0-9_]+ +[^ ]' "$build/build.log" 2>/dev/null || true)
	last=$(grep -E '^  (CC|LD|AS|AR|BTF|BTFIDS|OBJCOPY)' "$build/build.log" 2>/dev/null |
		tail -n 1 | awk '{print $1, $2}')
	if [ "$full_build" = 1 ]; then
		say "building $name: $(fmt_secs "$1"), $done of about $expected steps ($((done * 100 / expected))%), now ${last:-starting}"
	else
		say "building $name: $(fmt_secs "$1"), $done steps (incremental), now ${last:-checking dependencies}"
	fi
)

say "building $name kernel in $build (-j$jobs, ccache in $cache/ccache); a line every ${progress_interval} s"
rm -f "$build/.oomwatch-key"
start=$(date +%s)
export CCACHE_DIR=$cache/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_BASEDIR=$tree_dir CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content
export KBUILD_BUILD_TIMESTAMP='Thu Nov 11 09:29:22 UTC 2004'
export KBUILD_BUILD_USER=oomwatch KBUILD_BUILD_HOST=guest
# Not the flags of a make that called us: its -s would silence kbuild's
# step lines, which the progress lines count.
env -u MAKEFLAGS -u MFLAGS make -C "$tree_dir" O="$build" -j"$jobs" \
	CC="ccache gcc" bzImage vmlinux modules >"$build/build.log" 2>&1 &
make_pid=$!
trap 'kill "$make_pid" 2>/dev/null; exit 130' INT TERM
watch_pid "$make_pid" "$progress_interval" build_progress
wait "$make_pid" || {
	grep -E 'error|Error|warning:' "$build/build.log" | head -40 >&2
	die "kernel build failed; full log: $build/build.log"
}
[ "$full_build" = 1 ] &&
	grep -cE '^  [A-Z0-9_]+ +[^ ]' "$build/build.log" >"$steps_file" || true
# A warning in a file the series touches is a bug in our patches.
touched=$(git -C "$tree_dir" diff --name-only pristine HEAD | sed 's/[.]/[.]/g')
if [ -n "$touched" ] &&
   grep -E "($(echo $touched | tr ' ' '|')):[0-9]+:[0-9]+: warning:" \
	"$build/build.log" >&2; then
	die "kernel build warns in files the series touches (see above)"
fi
echo "$key" >"$build/.oomwatch-key"
say "built in $(( $(date +%s) - start )) s"
[ "$deb" = 1 ] && make_debs
exit 0
