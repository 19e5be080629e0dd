#!/bin/bash
# make deps: install the Debian packages named on the command line that
# are missing.  Quiet when everything is there; as non-root it prints the
# exact command instead.  apt's own output is long and, with -qq, silent
# for minutes: a line per 25 packages downloaded, unpacked and set up
# instead, and apt's errors in full.
set -uo pipefail

missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: as root run: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
t0=$(date +%s)
echo "deps: ${#missing[@]} package(s) missing: ${missing[*]}" >&2
echo "deps: apt-get update" >&2
apt-get update -qq || { echo "deps: error: apt-get update failed" >&2; exit 1; }
total=$(apt-get install -s "${missing[@]}" 2>/dev/null | grep -c '^Inst ')
echo "deps: installing ${total} package(s) with their dependencies" >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y \
	-o Dpkg::Use-Pty=0 "${missing[@]}" 2>&1 |
	awk -v n="$total" '
	function say(what, k) {
		if (k % 25 == 0 || k == n) {
			printf "deps: %s %d of %d\n", what, k, n
			fflush()
		}
	}
	/^Get:/ { say("downloaded", ++g) }
	/^Unpacking / { say("unpacked", ++u) }
	/^Setting up / { say("set up", ++s) }
	/^(E|W): / { print; fflush() }' >&2
rc=${PIPESTATUS[0]}
if [ "$rc" != 0 ]; then
	echo "deps: error: apt-get install failed (status $rc)" >&2
	exit 1
fi
echo "deps: done in $(( $(date +%s) - t0 )) s" >&2
