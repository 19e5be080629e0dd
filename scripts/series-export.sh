#!/bin/bash
# Write patches/ back from a kernel tree in which the series was edited:
# one commit per patch on top of the tag "pristine", in series order, as
# kernel.sh lays it out (e.g. a `git worktree` of the cached tree, changed
# with fixup commits and `git rebase -i --autosquash pristine`).
#
#   scripts/series-export.sh TREE [MSGDIR]
#
# Each patch keeps its author, date and message from patches/, unless
# MSGDIR holds NNNN.msg (a full new commit message, subject first) for
# patch number NNNN.  The files keep their names in patches/series.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: scripts/series-export.sh TREE [MSGDIR]}
msgdir=${2:-}
die() { echo "series-export: error: $*" >&2; exit 1; }

mapfile -t names < <(grep -v '^\s*\(#\|$\)' "$top/patches/series")
mapfile -t commits < <(git -C "$tree" rev-list --reverse pristine..HEAD)
[ ${#commits[@]} -eq ${#names[@]} ] ||
	die "$tree has ${#commits[@]} commits on pristine, the series ${#names[@]} patches"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
parent=$(git -C "$tree" rev-parse pristine)
for i in "${!names[@]}"; do
	name=${names[$i]}
	num=$(printf '%04d' $((i + 1)))
	git mailinfo "$work/body" "$work/patch" <"$top/patches/$name" >"$work/info"
	if [ -n "$msgdir" ] && [ -r "$msgdir/$num.msg" ]; then
		cp "$msgdir/$num.msg" "$work/msg"
	else
		{ sed -n 's/^Subject: //p' "$work/info"; echo; cat "$work/body"; } >"$work/msg"
	fi
	tree_id=$(git -C "$tree" rev-parse "${commits[$i]}^{tree}")
	parent=$(GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$work/info") \
		GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$work/info") \
		GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$work/info") \
		GIT_COMMITTER_NAME=oomwatch GIT_COMMITTER_EMAIL=oomwatch@localhost \
		git -C "$tree" commit-tree "$tree_id" -p "$parent" -F "$work/msg")
done
git -C "$tree" format-patch -q --no-signature -o "$work/out" pristine.."$parent"
i=0
for f in "$work/out"/*.patch; do
	cp "$f" "$top/patches/${names[$i]}"
	i=$((i + 1))
done
echo "series-export: wrote ${#names[@]} patches from $tree" >&2
