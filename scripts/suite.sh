#!/bin/bash
# The long runs: every scenario under every mode (make matrix), and the
# benchmarks against stock 6.1, MGLRU, earlyoom and nohang (make bench).
#
#   scripts/suite.sh matrix      results/matrix.md
#   scripts/suite.sh bench       results/bench/bench.md and one SVG per
#                                workload
#
# Each step boots one guest on the `workload` scenario with one mode and
# one guest shape; its "# result:" lines are collected into runs.txt next
# to the tables, which build/ow-report makes.  Progress and an estimate of
# the time left go to stderr after every step.  A guest that fails or
# runs out of time is reported and counted, and the suite goes on: its
# runs are missing from the table, and the exit status is non-zero.
#
# Environment: REPEAT (runs per cell; matrix default 1, bench default 5),
# SEED, MODES (a subset, space-separated), OUT (results directory),
# ONLY (a subset of the workloads, e.g. "transient overhead"; the other
# workloads' lines are kept from the last runs file).  The tracing
# overhead is measured on update ("overhead"; "overhead-null" with the
# JSON lines to /dev/null) and on transient
# ("overhead-transient"); what the series costs with every knob off,
# stock 6.1 against the patched kernel in mode off, on update and oom
# ("offcost").
#
# The survivable group (fio's mmap engine over 1.5 and 3 x RAM, sqlite3
# over a database of 1.25 x RAM through mmap_size, a memory cgroup that
# thrashes in its own limit, a file larger than RAM read with cat) runs
# stock 6.1 against the thrash rule; fio and sqlite3 come from the tools
# disk (make field-tools).
#
# token2004 (the swap token's kill of 2004) has a row of its own under
# the modes that tell its remedies apart: stock, token-never (the 2004
# kernel), token (Morton's bypass), token-aging (reclaim-side aging),
# arbiter-never (Tosatti's arbiter alone) and all.
#
# The field bench (real programs on the Debian guest, every peer at
# several settings: scripts/field.sh) is the row "field": after the
# others, into OUT/field (results/bench/field); ONLY=field runs it alone.
#
# Mode nohang (a PSI-based user-space killer, in the freeze row after
# earlyoom) runs, like earlyoom, on the stock kernel in the bench, and
# boots build/initramfs-nohang.cpio: the image with Python and nohang
# (build/nohang.cpio) on top, which no other mode pays for in RAM.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=build
what=${1:-}
seed=${SEED:-1}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
date=$(date -u +%Y-%m-%d)
patched=$B/kernel/bzImage
stock=$(scripts/kernel.sh --stock --print-dir)/arch/x86/boot/bzImage

# Guest shapes: NAME QEMU-OPTIONS
shape_opts() {
	case $1 in
	swap) echo "--swap 512" ;;
	slowswap) echo "--swap 512 --swap-bps 2000000" ;;
	noswap) echo "--data 128" ;;
	field) echo "--data 1600 --tools $B/field-tools.img" ;;
	fullswap) echo "--swap 64 --data 128" ;;
	numa) echo "--numa 2" ;;
	esac
}

steps=()	# "KERNEL MODE SHAPE WORKLOADS EXTRA-ARGS"
T2004_MODES="stock token-never token token-aging arbiter-never all"
# The classic freeze (#16): the peers and the arbiter with and without
# its thrash rule; the hog holds 180 s (FREEZE_HOLD).  Without swap, and
# with a 64 MB swap that idle memory fills first (freeze-fullswap).
FREEZE_MODES="stock mglru earlyoom nohang arbiter thrash"
# Survivable programs from Debian's archive and the cases the thrash rule
# must not take for a freeze: stock 6.1 against the rule at its default
# (10 s), no swap, each for SURVIVE_HOLD s (default 30).
SURVIVE_MODES="stock thrash"

# step KERNEL MODE SHAPE WORKLOADS [EXTRA]: plan one guest with the
# workloads ONLY asks for ('+'-separated); none of them, no guest.
step() {
	local w keep=
	for w in ${4//+/ }; do
		wanted "$w" && keep="$keep+$w"
	done
	[ -n "$keep" ] && steps+=("$1 $2 $3 ${keep#+} ${5:--}")
}

# within_modes LIST: the modes of LIST, within MODES when that is set.
within_modes() {
	local m
	for m in $1; do
		[ -z "${MODES:-}" ] || echo " $MODES " | grep -q " $m " && echo "$m"
	done
}

token2004_modes() {
	within_modes "$T2004_MODES"
}

plan_matrix() {
	local m
	runs=${REPEAT:-1}
	out=${OUT:-results}
	for m in ${MODES:-stock token-never token arbiter all}; do
		step "$patched" $m swap update+storm+forkstorm+memcg
		step "$patched" $m noswap oom+filethrash
		step "$patched" $m slowswap transient
		step "$patched" $m numa numa-spill+numa-bound
	done
	for m in $(token2004_modes); do
		step "$patched" $m swap token2004
	done
	for m in $(within_modes "$FREEZE_MODES"); do
		step "$patched" $m noswap freeze "hold=${FREEZE_HOLD:-180}"
		step "$patched" $m fullswap freeze-fullswap "hold=${FREEZE_HOLD:-180}"
	done
}

plan_bench() {
	local m k w
	runs=${REPEAT:-5}
	out=${OUT:-results/bench}
	for w in "swap update" "noswap oom" "slowswap transient"; do
		for m in ${MODES:-stock mglru earlyoom token arbiter all}; do
			case $m in stock|mglru|earlyoom|nohang) k=$stock ;; *) k=$patched ;; esac
			step "$k" $m $w
		done
	done
	for m in $(token2004_modes); do
		case $m in stock) k=$stock ;; *) k=$patched ;; esac
		step "$k" $m swap token2004
	done
	for m in $(within_modes "$FREEZE_MODES"); do
		case $m in stock|mglru|earlyoom|nohang) k=$stock ;; *) k=$patched ;; esac
		step "$k" $m noswap freeze "hold=${FREEZE_HOLD:-180}"
		step "$k" $m fullswap freeze-fullswap "hold=${FREEZE_HOLD:-180}"
	done
	for m in $(within_modes "$SURVIVE_MODES"); do
		case $m in stock|mglru) k=$stock ;; *) k=$patched ;; esac
		step "$k" $m field fio-mmap-rand+fio-mmap-seq+sqlite-mmap \
			"hold=${SURVIVE_HOLD:-30}"
		step "$k" $m field memcg-thrash+stream "hold=${SURVIVE_HOLD:-30}"
	done
	# (4) tracing overhead: the update and transient workloads in mode
	# all, every other run without oomwatch.
	wanted overhead && steps+=("$patched all swap update ow=alt,name=overhead")
	# The same, with oomwatch's JSON lines to /dev/null instead of the
	# guest's tmpfs: what tracing costs without what recording costs.
	wanted overhead-null &&
		steps+=("$patched all swap update ow=alt,name=overhead-null,owout=null")
	wanted overhead-transient &&
		steps+=("$patched all slowswap transient ow=alt,name=overhead-transient")
	# (5) what the series costs with every knob off: stock 6.1 against
	# the patched kernel in mode off, neither traced.
	for w in "swap update" "noswap oom"; do
		wanted offcost || continue
		steps+=("$stock stock $w ow=0,name=offcost-${w#* }")
		steps+=("$patched off $w ow=0,name=offcost-${w#* }")
	done
}

wanted() {	# wanted WORKLOAD: in ONLY, or ONLY unset
	[ -z "${ONLY:-}" ] || echo " $ONLY " | grep -q " $1 "
}

for n in "${REPEAT:-1}" "$seed"; do
	case $n in ''|*[!0-9]*) echo "suite: REPEAT and SEED must be numbers ('$n')" >&2; exit 2 ;; esac
done
[ "${REPEAT:-1}" -gt 0 ] || { echo "suite: REPEAT must be at least 1" >&2; exit 2; }
case $what in
matrix) plan_matrix ;;
bench) plan_bench ;;
*) echo "usage: scripts/suite.sh matrix|bench" >&2; exit 2 ;;
esac
[ -r "$patched" ] || { echo "suite: $patched missing (make image)" >&2; exit 1; }
[ "$what" = matrix ] || [ -r "$stock" ] ||
	{ echo "suite: $stock missing (make stock-kernel)" >&2; exit 1; }
[ -x $B/ow-report ] || { echo "suite: $B/ow-report missing (make $what)" >&2; exit 1; }

# The field bench: a row of its own, its own guests (scripts/field.sh).
field=0
[ "$what" = bench ] && wanted field && field=1
run_field() {
	echo "suite: the field bench (scripts/field.sh)" >&2
	OUT=$out/field scripts/field.sh run
}
if [ $field = 1 ] && [ ${#steps[@]} = 0 ]; then
	run_field
	exit $?
fi

mkdir -p "$out" $B/logs/$what
# Copies: a `make image` or a kernel build while the suite runs must not
# change its guests.
image=$B/logs/$what/initramfs.cpio
cp $B/initramfs.cpio "$image"
patched_copy=$B/logs/$what/bzImage
cp -L "$patched" "$patched_copy"
nohang_image=$B/logs/$what/initramfs-nohang.cpio
if printf '%s\n' "${steps[@]}" | grep -q '^[^ ]* nohang '; then
	[ -r $B/initramfs-nohang.cpio ] ||
		{ echo "suite: $B/initramfs-nohang.cpio missing (make nohang-image)" >&2; exit 1; }
	# It is the image with nohang on top: an older one runs old scenarios.
	[ $B/initramfs-nohang.cpio -nt $B/initramfs.cpio ] ||
		{ echo "suite: $B/initramfs-nohang.cpio is older than $B/initramfs.cpio (make nohang-image)" >&2; exit 1; }
	cp $B/initramfs-nohang.cpio "$nohang_image"
fi
runs_file=$out/${what}-runs.txt
: >"$runs_file.new"
if [ -n "${ONLY:-}" ] && [ -r "$runs_file" ]; then
	for w in $(sed -n 's/.*scenario=\([^ ]*\) .*/\1/p' "$runs_file" | sort -u); do
		wanted "$w" || grep " *scenario=$w " "$runs_file" >>"$runs_file.new"
	done
fi
total=${#steps[@]}
failed=0
t_start=$(date +%s)
i=0
for step in "${steps[@]}"; do
	read -r kernel mode shape wl extra <<<"$step"
	[ "$kernel" = "$patched" ] && kernel=$patched_copy
	i=$((i + 1))
	args="w=$wl,mode=$mode,runs=$runs,seed=$seed"
	[ "$extra" = - ] || args="$args,$extra"
	# Bench steps with the overhead runs do twice the runs.
	case $extra in *ow=alt*) args="${args/runs=$runs/runs=$((runs * 2))}" ;; esac
	log=$B/logs/$what/$i-$mode-$shape.log
	initrd=$image
	[ "$mode" = nohang ] && initrd=$nohang_image
	elapsed=$(( $(date +%s) - t_start ))
	eta=
	[ $i -gt 1 ] && eta=", about $(( elapsed * (total - i + 1) / (i - 1) / 60 )) min left"
	printf 'suite: [%d/%d] %s kernel, mode %s, shape %s: %s (%d min in%s)\n' \
		"$i" "$total" "$([ "$kernel" = "$stock" ] && echo stock || echo patched)" \
		"$mode" "$shape" "${wl//+/ }" $((elapsed / 60)) "$eta" >&2
	# shellcheck disable=SC2046
	scripts/qemu-run.sh --quiet --kernel "$kernel" --initrd "$initrd" \
		--scenario workload --mem 256 --timeout $((300 + runs * 240)) \
		--log "$log" $(shape_opts "$shape") --append "ow.args=$args" \
		2>"$log.runner"
	rc=$?
	tr -d '\r' <"$log" | sed -n 's/^# result: //p' >>"$runs_file.new"
	tr -d '\r' <"$log" | grep '^not ok' | sed 's/^/suite:   /' >&2
	if [ $rc -ne 0 ]; then
		failed=$((failed + 1))
		echo "suite:   guest exit $rc; $log" >&2
		tail -n 5 "$log.runner" | sed 's/^/suite:   /' >&2
	fi
done
mv "$runs_file.new" "$runs_file"

title="$what, $runs run(s) per cell, seed $seed, TCG guest 256 MB / 2 CPUs"
if [ "$what" = matrix ]; then
	$B/ow-report matrix --title "$title" --commit "$commit" --date "$date" \
		--order stock,token-never,token,token-aging,arbiter-never,arbiter,all \
		"$runs_file" >"$out/matrix.md"
	echo "suite: wrote $out/matrix.md" >&2
else
	# Ratios to stock; the overhead runs' are to the same mode without
	# oomwatch.
	metrics=kills,spurious,wall_ms,alloc_ms,set_to_kill_ms,probe_max_ms,probe_p99_ms,swap_io_mb
	grep -v 'scenario=overhead[- ]' "$runs_file" >"$out/.workloads.txt"
	grep 'scenario=overhead[- ]' "$runs_file" >"$out/.overhead.txt"
	# Either part may be missing (ONLY=overhead into a new OUT).
	{
		if [ -s "$out/.workloads.txt" ]; then
			$B/ow-report bench --out-dir "$out" --baseline stock --title "$title" \
				--commit "$commit" --date "$date" \
				--order stock,off,mglru,earlyoom,nohang,token-never,token,token-aging,arbiter-never,arbiter,all,thrash \
				--metrics "$metrics" "$out/.workloads.txt"
		fi &&
		if [ -s "$out/.overhead.txt" ]; then
			$B/ow-report bench --out-dir "$out" --baseline all \
				--order all,all+oomwatch \
				--metrics "$metrics,events,ow_rss_kb,ow_lck_kb,ow_cpu_ms,ow_wakeups,ow_bpf_ms,ow_cost_pct" \
				"$out/.overhead.txt"
		fi
	} >"$out/bench.md"
	rm -f "$out/.workloads.txt" "$out/.overhead.txt"
	echo "suite: wrote $out/bench.md and $(ls "$out"/*.svg | wc -l) plot(s)" >&2
fi
echo "suite: $total guest(s), $failed failed, $(( ($(date +%s) - t_start) / 60 )) min" >&2
if [ $field = 1 ]; then
	run_field || failed=$((failed + 1))
fi
[ $failed -eq 0 ]
