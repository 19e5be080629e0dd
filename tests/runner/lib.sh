# shellcheck shell=bash
# What the runner's shell tests share: $top, a scratch $work removed at
# exit, and check(), one TAP line per case.  A test may define
# on_failure() to print "#" lines that say why a case failed.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0

check() {	# check DESCRIPTION CONDITION...
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		declare -F on_failure >/dev/null && on_failure
		failed=$((failed + 1))
	fi
}
