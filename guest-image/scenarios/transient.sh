# transient: pressure that passes, on a slow swap disk.  Boot with swap on
# a throttled disk (qemu-run.sh --swap 512 --swap-bps 2000000).
#
# A burst allocator grows past free RAM quickly (optionally holds its
# memory for hold=S seconds, re-touching it) and exits; an idle bystander
# holds a little.  RAM + swap exceed
# the demand by far: every kill here is spurious.  Reclaim finds pages
# only as fast as the disk writes them, so direct reclaim sees rounds
# without progress.  With the arbiter on, nothing may be killed; with it
# off, the kills are counted.
#
# OW_ARGS: arbiter=1|0 runs=N burst_pct=P (of MemAvailable, default 115)
#          hold=S step=MB
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
runs=${ARG_runs:-1}
burst_pct=${ARG_burst_pct:-115}
ktap_plan $((runs + 2))

swap_on_ok
# A hung-task report fails the run; its stack, printed at KERN_INFO,
# must reach the console to say where it waited.  The OOM killer's task
# list would be the only other KERN_INFO flood: off.  The bound is the
# disk's, not 30 s: on two CPUs the burst fills the swap queue while
# kswapd writes on the other CPU, and an exec once waited over 30 s in
# folio_wait_writeback() for its own swapped-out text, behind up to
# 230 MB queued at 2 MB/s (115 s).  An arbiter wait (TASK_KILLABLE,
# which the detector counts) ends at its 15 s fallback, far inside it.
echo 7 >/proc/sys/kernel/printk
echo 120 >/proc/sys/kernel/hung_task_timeout_secs
sysctl_write oom_dump_tasks 0
arbiter_set "$arbiter" "${ARG_timeout:-5000}" "${ARG_fallback:-15000}"
ok $? "knobs: vm.oom_arbiter=$arbiter"

total_kills=0 spurious_runs=0 walls=
run=1
while [ $run -le $runs ]; do
	avail=$(mem_available_mb)
	burst=$((avail * burst_pct / 100))
	start_oomwatch --assert $ARG_flags
	ow-bystander 8 >/dev/null &
	by=$!
	swap_sampler_start /tmp/swap.samples
	t0=$(now_ms)
	ow-hog -s ${ARG_step:-8} -H ${ARG_hold:-0} $burst >/tmp/burst.log 2>&1
	burst_rc=$?
	wall=$(($(now_ms) - t0))
	swap_kb=$(swap_sampler_stop /tmp/swap.samples)
	sleep 1
	stop_oomwatch
	end_bystander $by
	by_alive=$?
	kills=$(count_events /tmp/ow.jsonl mark_victim)
	total_kills=$((total_kills + kills))
	[ "$kills" -gt 0 ] && spurious_runs=$((spurious_runs + 1))
	walls="$walls $wall"
	echo "# result: scenario=transient arbiter=$arbiter run=$run burst_mb=$burst kills=$kills burst_rc=$burst_rc wall_ms=$wall swap_peak_mb=$((swap_kb / 1024)) requests=$(count_events /tmp/ow.jsonl oom_request) grants=$(count_events /tmp/ow.jsonl oom_grant) vetoes=$(count_events /tmp/ow.jsonl oom_veto) fallbacks=$(count_events /tmp/ow.jsonl oom_fallback) unreclaimable=$(count_events /tmp/ow.jsonl unreclaimable_set) oomwatch_rc=$OW_RC"
	if [ "$arbiter" = 1 ]; then
		[ "$kills" -eq 0 ] && [ "$burst_rc" -eq 0 ] && [ "$by_alive" -eq 0 ] &&
			[ "$OW_RC" -eq 0 ]
		ok $? "run $run: no kill, the burst of $burst MB completed in $wall ms, bystander alive, invariants kept"
	else
		# Stock: kills are what is measured, not a failure.
		[ "$OW_RC" -eq 0 ]
		ok $? "run $run: stock, $kills kill(s) (burst exit $burst_rc), invariants kept"
	fi
	# Let the swap drain a little before the next burst.
	sleep 1
	run=$((run + 1))
done
echo "# result: scenario=transient arbiter=$arbiter runs=$runs kills=$total_kills runs_with_kills=$spurious_runs wall_ms=[$walls ]"
diag "$total_kills kill(s) in $runs run(s), $spurious_runs run(s) with a kill"
ktap_done
