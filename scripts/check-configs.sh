#!/bin/bash
# make check-configs: every patch of the series, alone on top of the ones
# before it, builds in the configurations a distribution and the 0-day bot
# use: the guest config, and the guest config with each of SWAP, NUMA,
# MEMCG, CPUSETS, LRU_GEN and SYSCTL off.  For each, mm/ and kernel/fork.o
# (every object the series touches) are built at each patch; a build
# error, or a warning in a file the series touches, fails it.  Prints one
# TAP line per configuration and patch, and "N passed, N failed".
#
#   scripts/check-configs.sh [CONFIG...]    (default: all seven)
#
# Uses the cached pristine tree of kernel.sh (a worktree of it) and
# ccache; objects only, no vmlinux link.  49 checks; 44 min on 2 cores
# with a warm ccache and a guest running beside it (2026-12-06).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}
jobs=${JOBS:-$(nproc)}
die() { echo "check-configs: error: $*" >&2; exit 1; }

pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed: run 'make deps'"
base=$cache/linux-$pkgver
src=$base/src
tree=$base/src-configs
[ -e "$src/.git/refs/tags/pristine" ] ||
	die "no pristine tree in $src: run 'make kernel' first"

# The series as commits on pristine, from kernel.sh (no build).
"$top/scripts/kernel.sh" --check-series >/dev/null ||
	die "the series does not apply"
mapfile -t names < <(grep -v '^\s*\(#\|$\)' "$top/patches/series")
[ -e "$tree/.git" ] || git -C "$src" worktree add -q --detach "$tree" pristine ||
	die "cannot make the worktree $tree"

# Commit the series into the worktree, one commit per patch.
git -C "$tree" checkout -q -f --detach pristine
commits=()
for name in "${names[@]}"; do
	git -C "$tree" apply --index "$top/patches/$name" ||
		die "$name does not apply"
	git -C "$tree" -c user.name=oomwatch -c user.email=oomwatch@localhost \
		commit -q -m "$name" || die "cannot commit $name"
	commits+=("$(git -C "$tree" rev-parse HEAD)")
done

# config_of NAME: the fragment that turns NAME's option off.
config_of() {
	case $1 in
	guest) ;;
	sysctl) printf '# CONFIG_PROC_SYSCTL is not set\n# CONFIG_SYSCTL is not set\n' ;;
	swap|numa|memcg|cpusets|lru_gen)
		echo "# CONFIG_$(echo "$1" | tr a-z A-Z) is not set" ;;
	*) return 1 ;;
	esac
}

pass=0 fail=0 n=0
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		pass=$((pass + 1)); echo "ok $n - $2"
	else
		fail=$((fail + 1)); echo "not ok $n - $2"
	fi
}

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(guest swap numa memcg cpusets lru_gen sysctl)
export CCACHE_DIR=$cache/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1 CCACHE_COMPILERCHECK=content

for cfg in "${configs[@]}"; do
	frag=$(mktemp)
	config_of "$cfg" >"$frag" || die "unknown configuration '$cfg'"
	out=$base/build-config-$cfg
	mkdir -p "$out"
	git -C "$tree" checkout -q -f --detach "${commits[-1]}"
	make -s -C "$tree" O="$out" tinyconfig >/dev/null 2>&1
	(cd "$tree" && KCONFIG_CONFIG=$out/.config \
		scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"$top/patches/guest.config" "$frag" >/dev/null 2>&1)
	make -s -C "$tree" O="$out" olddefconfig >/dev/null 2>&1
	# What we turned off must be off.
	ok=0
	while read -r line; do
		sym=$(echo "$line" | sed -n 's/^# CONFIG_\([A-Z0-9_]*\) is not set$/\1/p')
		[ -n "$sym" ] || continue
		grep -q "^CONFIG_$sym=" "$out/.config" && ok=1 &&
			echo "    # $cfg: CONFIG_$sym is still set (selected by another option)"
	done <"$frag"
	rm -f "$frag"
	result $ok "$cfg: the configuration has what it turns off turned off"
	[ $ok -eq 0 ] || continue
	echo "# $cfg: make prepare ..." >&2
	make -C "$tree" O="$out" -j"$jobs" CC="ccache gcc" prepare \
		>"$out/prepare.log" 2>&1 ||
		{ result 1 "$cfg: make prepare (see $out/prepare.log)"; continue; }
	for i in "${!commits[@]}"; do
		name=${names[$i]}
		git -C "$tree" checkout -q -f --detach "${commits[$i]}"
		touched=$(git -C "$tree" diff --name-only pristine HEAD |
			sed 's/[.]/[.]/g' | tr '\n' '|')
		t0=$(date +%s)
		echo "# $cfg: $name ..." >&2
		make -C "$tree" O="$out" -j"$jobs" CC="ccache gcc" mm/ kernel/fork.o \
			>"$out/build-$((i + 1)).log" 2>&1
		rc=$?
		warn=$(grep -E "(${touched%|}):[0-9]+:[0-9]+: (warning|error):" \
			"$out/build-$((i + 1)).log" | head -n 5)
		[ $rc -eq 0 ] && [ -z "$warn" ]
		r=$?
		result $r "$cfg: $name builds (mm/, kernel/fork.o; $(( $(date +%s) - t0 )) s)"
		[ $r -eq 0 ] || { echo "$warn" | sed 's/^/    # /';
			grep -E 'error|Error' "$out/build-$((i + 1)).log" | head -n 5 | sed 's/^/    # /'; }
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
