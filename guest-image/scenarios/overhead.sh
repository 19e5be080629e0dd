# overhead: what oomwatch costs a reclaim-heavy workload.  Boot with swap
# (qemu-run.sh --swap 512).
#
# An updater walks more memory than there is, so every pass reclaims and
# swaps (kswapd, direct reclaim, token-less: all stock tracepoints fire).
# Runs alternate without and with oomwatch attached (JSON lines to
# /dev/null, --assert), so drift in the guest hits both sides alike.
# Prints each run, the medians, the slowdown, oomwatch's event rate and
# lost events.
#
# OW_ARGS: runs=N (per side, default 5) pct=P (updater, % of MemAvailable,
#          default 115) passes=N (default 2) max_pct=X (allowed slowdown
#          in tenths of a percent, default 20 = 2.0%)
. /scenarios/lib.sh
parse_args
runs=${ARG_runs:-5}
pct=${ARG_pct:-115}
passes=${ARG_passes:-2}
max_pct=${ARG_max_pct:-20}
ktap_plan 4

swap_on_ok
sysctl_write swap_token 0 && sysctl_write oom_arbiter 0
mb=$(($(mem_available_mb) * pct / 100))
diag "updater $mb MB x $passes passes; $runs runs without and $runs with oomwatch, alternating"

one_run() {	# one_run with|without: prints wall ms
	local t0
	t0=$(now_ms)
	ow-updater $mb $passes >/dev/null 2>&1
	echo $(($(now_ms) - t0))
}

median() {	# median of the numbers on stdin
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2];
		else printf "%d\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

: >/tmp/without; : >/tmp/with
events=0 lost=0 traced_ms=0 ow_fail=0
one_run without >/dev/null	# warm-up: fault the binaries, fill swap once
i=1
while [ $i -le $runs ]; do
	w=$(one_run without)
	echo "$w" >>/tmp/without
	oomwatch -j --assert >/dev/null 2>/tmp/ow.err &
	OW_PID=$!
	wait_for /tmp/ow.err 20 "oomwatch: tracing"
	t=$(one_run with)
	echo "$t" >>/tmp/with
	stop_oomwatch
	[ "$OW_RC" -eq 0 ] || ow_fail=$((ow_fail + 1))
	n=$(sed -n 's/^oomwatch: \([0-9]*\) events, \([0-9]*\) lost, [0-9]* shed$/\1/p' /tmp/ow.err)
	l=$(sed -n 's/^oomwatch: \([0-9]*\) events, \([0-9]*\) lost, [0-9]* shed$/\2/p' /tmp/ow.err)
	events=$((events + ${n:-0})); lost=$((lost + ${l:-1}))
	traced_ms=$((traced_ms + t))
	echo "# result: scenario=overhead run=$i without_ms=$w with_ms=$t events=${n:-?} lost=${l:-?}"
	i=$((i + 1))
done
mw=$(median </tmp/without)
mt=$(median </tmp/with)
# Slowdown in tenths of a percent, and the event rate while traced.
slow=$(((mt - mw) * 1000 / mw))
rate=$((events * 1000 / (traced_ms > 0 ? traced_ms : 1)))
echo "# result: scenario=overhead runs=$runs median_without_ms=$mw median_with_ms=$mt slowdown_pct=$(awk -v s=$slow 'BEGIN { printf "%.1f", s / 10 }') events=$events events_per_s=$rate lost=$lost without=[$(tr '\n' ' ' </tmp/without)] with=[$(tr '\n' ' ' </tmp/with)]"
[ "$events" -gt 0 ]
ok $? "oomwatch saw the reclaim: $events events, $rate per second"
[ "$lost" -eq 0 ] && [ "$ow_fail" -eq 0 ]
ok $? "no event lost ($lost), oomwatch --assert passed in every run ($ow_fail failed)"
[ "$slow" -le "$max_pct" ]
ok $? "median slowdown $(awk -v s=$slow 'BEGIN { printf "%.1f", s / 10 }')% (with $mt ms, without $mw ms) <= $(awk -v s=$max_pct 'BEGIN { printf "%.1f", s / 10 }')%"
ktap_done
