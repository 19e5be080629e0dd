#!/bin/bash
# Check the kernel series: it applies to the pristine tree (kernel.sh
# --check-series) and scripts/checkpatch.pl reports no error and no
# warning on any patch.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# spdxcheck.py needs Debian's python3 (ply, git), not a PATH-first other one.
export PATH=/usr/bin:$PATH
"$top/scripts/kernel.sh" --check-series || exit 1
pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}/linux-$pkgver/src
status=0
while read -r name; do
	case $name in ''|'#'*) continue ;; esac
	out=$(cd "$src" && ./scripts/checkpatch.pl \
		--ignore FILE_PATH_CHANGES,GIT_COMMIT_ID -q "$top/patches/$name" 2>&1)
	if [ -n "$out" ]; then
		echo "checkpatch: $name:"
		echo "$out"
		status=1
	else
		echo "checkpatch: $name: clean"
	fi
done <"$top/patches/series"
exit $status
