#!/bin/bash
# make test: host unit tests, the series' checkpatch run, then the guest
# tests.  One line per test ("ok N - ..." / "not ok N - ..."), and a last
# line "N passed, N failed"; exit status non-zero on any failure.
#
# REPEAT=N runs the guest tests N times (labels get "#K"): a test that
# fails once in N is a failure.  SEED=S seeds the scenarios that draw
# random sizes.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=build
pass=0 fail=0 n=0
t_suite=$(date +%s)
# shellcheck source=scripts/progress.sh
. "$top/scripts/progress.sh"

result() {	# result STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		pass=$((pass + 1)); echo "ok $n - $2"
	else
		fail=$((fail + 1)); echo "not ok $n - $2"
	fi
}

# Host unit tests: fold their own totals into ours.
echo "# host unit tests (about a minute) ..." >&2
unit_out=$(make -s -C tests/unit check 2>&1)
unit_rc=$?
echo "$unit_out" | grep -E '^(not )?ok ' | sed 's/^/    # unit: /' | tail -n 3
totals=$(echo "$unit_out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
if [ -n "$totals" ]; then
	up=${totals%% passed*}; uf=${totals#*, }; uf=${uf%% failed}
	pass=$((pass + up)); fail=$((fail + uf)); n=$((n + up + uf))
	echo "# host unit tests: $totals"
fi
[ "$unit_rc" -eq 0 ] && [ -n "$totals" ]
result $? "host unit tests ran and passed"
[ "$unit_rc" -eq 0 ] || echo "$unit_out" | grep -E '^not ok|rror' | head -20 | sed 's/^/    # /'

# Recordings taken in the guest replay on the host to the live verdict:
# the live oomwatch --assert exited 0 on each of them.
for rec in tests/fixtures/guest_*.jsonl; do
	[ -e "$rec" ] || continue
	out=$(tests/unit/build/oomwatch-host --replay "$rec" --assert 2>&1)
	rc=$?
	kills=$(echo "$out" | grep -c ' KILL ')
	[ "$rc" -eq 0 ] && [ "$kills" -ge 1 ]
	result $? "replay $(basename "$rec"): invariants kept as live (exit $rc), $kills kill(s)"
done

if grep -qv '^\s*\(#\|$\)' patches/series 2>/dev/null; then
	echo "# checkpatch.pl on the series ..." >&2
	scripts/checkpatch-series.sh >"$B/checkpatch.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || tail -n 20 "$B/checkpatch.log" | sed 's/^/    # /'
	result $rc "kernel series: applies, checkpatch.pl clean"
fi

# Guest runs: LABEL SCENARIO MEM TIMEOUT EXPECTED_STATUS [qemu-run options]
# Expected status: 0 pass, 2 panic, 3 time limit, 4 kernel report.
guest() {
	local label=$1 scenario=$2 mem=$3 limit=$4 want=$5 log rc t0
	shift 5
	# A guest that must hit its limit keeps it.
	[ "$want" -eq 3 ] || limit=$((limit * limit_scale))
	[ "$repeat" -gt 1 ] && label="$label#$rep"
	log=$B/logs/test-$label.log
	t0=$(date +%s)
	guest_i=$((guest_i + 1))
	last=$(cat "$log.secs" 2>/dev/null)
	echo "# guest [$guest_i/$guest_total] $label (limit $limit s${last:+, took $last s last time}), $(fmt_secs $((t0 - t_suite))) into make test" >&2
	scripts/qemu-run.sh --quiet --progress-fd 3 --kernel $B/kernel/bzImage \
		--initrd $B/initramfs.cpio --scenario "$scenario" --mem "$mem" \
		--timeout "$limit" --log "$log" "$@" 2>"$log.runner" 3>&2
	rc=$?
	echo $(( $(date +%s) - t0 )) >"$log.secs"
	# The guest's own KTAP results, one line each.
	tr -d '\r' <"$log" | grep -E '^(not )?ok [0-9]+ ' >"$log.ktap"
	while read -r line; do
		case $line in
		"not ok "*) line=${line#not ok }; result 1 "$label: ${line#* }" ;;
		*) line=${line#ok }; result 0 "$label: ${line#* }" ;;
		esac
	done <"$log.ktap"
	tr -d '\r' <"$log" | grep '^# result:' >>"$B/results.txt"
	[ "$rc" -eq "$want" ]
	result $? "$label: run ended with status $rc (want $want) in $(( $(date +%s) - t0 )) s"
	[ "$rc" -eq "$want" ] || sed 's/^/    # /' "$log.runner"
}

# The metrics guest prints its live --metrics file and its recording:
# replayed here with --metrics, the recording must give the same file, and
# Prometheus' own parser (python3-prometheus-client) must take it.
metrics_replay() {
	local label=$1 log dir rc
	[ "$repeat" -gt 1 ] && label="$label#$rep"
	log=$B/logs/test-$label.log
	dir=$B/logs/$label.metrics
	mkdir -p "$dir"
	tr -d '\r' <"$log" | sed -n 's/^# metrics-live: //p' >"$dir/live.prom"
	tr -d '\r' <"$log" | sed -n 's/^# metrics-rec: //p' >"$dir/rec.jsonl"
	tests/unit/build/oomwatch-host --replay "$dir/rec.jsonl" -s \
		--metrics "$dir/host.prom" >/dev/null 2>"$dir/host.err" &&
		cmp "$dir/live.prom" "$dir/host.prom" >>"$dir/host.err" 2>&1 &&
		/usr/bin/python3 tests/unit/check_metrics.py --doc man/oomwatch.8 \
		--doc docs/metrics.md "$dir/live.prom" 2>>"$dir/host.err"
	rc=$?
	result $rc "$label: the guest's recording replayed here writes its live --metrics, byte for byte; Prometheus' parser takes it"
	[ $rc -eq 0 ] || head -n 5 "$dir/host.err" | sed 's/^/    # /'
}

repeat=${REPEAT:-1}
# A lockdep kernel (make test LOCKDEP=1) runs the guests about twice as
# long under TCG (oom-storm: 287 s of its 300, 136 s on the plain kernel):
# it gets twice the limits.
limit_scale=1
grep -qs '^CONFIG_PROVE_LOCKING=y' \
	"$(dirname "$(readlink -f $B/kernel/vmlinux)")/.config" && limit_scale=2
seed=${SEED:-1}
case $repeat in ''|0|*[!0-9]*) echo "run.sh: REPEAT must be a positive number" >&2; exit 2 ;; esac
mkdir -p "$B/logs"
: >"$B/results.txt"
# For "[3/21]": the guest lines below, counted in this file.
guest_total=$(( $(grep -c '^guest [a-z]' "$0") * repeat ))
guest_i=0
rep=1
while [ "$rep" -le "$repeat" ]; do
	[ "$repeat" -gt 1 ] && echo "# guest tests, repetition $rep of $repeat (seed $seed)" >&2
guest smoke smoke 256 180 0
guest sysctl sysctl 256 240 0 --swap 512
guest kunit kunit 128 60 0
guest token-never token 256 400 0 --swap 512 --append ow.args=mode=never
guest token-default token 256 400 0 --swap 512 --append ow.args=mode=default
guest token-off token 256 400 0 --swap 512 --append ow.args=mode=off
guest token2004-never token2004 256 300 0 --swap 512 --append ow.args=mode=never,assert=1
guest token2004-fix token2004 256 300 0 --swap 512 --append ow.args=mode=fix
guest oom-true oom-true 256 240 0 --append ow.args=arbiter=1,runs=2
guest metrics metrics 256 240 0
metrics_replay metrics
# The Debian guest (make deb, scripts/mkdebian.sh): systemd, the packages
# installed with dpkg -i, oomwatch.service; a true OOM from python3.
guest debian-oom oom 512 300 0 --disk $B/debian.img
guest relief relief 256 120 0
guest oom-storm oom-storm 256 300 0 --append ow.args=arbiter=1
guest oom-storm-fallback oom-storm 256 300 0 --append ow.args=arbiter=1,fallback=1000
# oomwatch stopped through the storm's first 20 s: context shed, none lost.
guest oom-storm-stall oom-storm 256 300 0 --append ow.args=arbiter=1,fallback=1000,stall=20
guest semantics semantics 256 180 0 --append ow.args=arbiter=1
guest semantics-stock semantics 256 180 0 --append ow.args=arbiter=0
guest numa numa 256 240 0 --numa 2 --append ow.args=arbiter=1
guest numa-stock numa 256 240 0 --numa 2 --append ow.args=arbiter=0
guest numa-thrash numa-thrash 256 300 0 --numa 2 --data 128 --append ow.args=timeout=5000,hold=40
guest transient transient 256 300 0 --swap 512 --swap-bps 2000000 --append ow.args=arbiter=1,runs=2
guest memcg-kselftest memcg-kselftest 512 420 0 --swap 512 --data 256 --append ow.args=arbiter=1
guest memcg-kselftest-stock memcg-kselftest 512 420 0 --swap 512 --data 256 --append ow.args=arbiter=0
guest tracefs tracefs 256 300 0 --swap 512
guest forkstorm-filethrash workload 256 420 0 --swap 512 --data 128 --append ow.args=w=forkstorm+filethrash,mode=all,seed=$seed
guest thrash thrash 256 480 0 --data 512 --append ow.args=timeout=5000,hold=60,hold_off=30,stream=30
# The runner's failure paths: each must be caught inside its limit.
guest selftest-panic selftest-panic 128 60 2
guest selftest-hang selftest-hang 128 15 3
guest selftest-noexit probe 128 15 3 --append ow.noexit=1
guest selftest-warn selftest-warn 128 60 4
	rep=$((rep + 1))
	seed=$((seed + 1))
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
