# oom-true: a true OOM.  No swap; a hog grows past all of RAM while an idle
# bystander holds a little.  With the arbiter on, the hog and never the
# bystander must be killed, no sooner than the unreclaimable timeout after
# the node became unreclaimable and no later than timeout + 1 s, and
# oomwatch --assert must find every invariant kept.
#
# OW_ARGS: arbiter=1|0 runs=N timeout=MS fallback=MS
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
runs=${ARG_runs:-1}
timeout=${ARG_timeout:-5000}
fallback=${ARG_fallback:-15000}
per_run=4
[ "$arbiter" = 1 ] || per_run=2
ktap_plan $((runs * per_run + 1))

arbiter_set "$arbiter" "$timeout" "$fallback"
ok $? "knobs: vm.oom_arbiter=$arbiter timeout ${timeout} ms fallback ${fallback} ms"
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)

run=1
while [ $run -le $runs ]; do
	start_oomwatch --assert $ARG_flags
	ow-bystander 16 >/dev/null &
	by=$!
	sleep 0.5
	ow-hog -s 8 $((ram_mb + 64)) >/tmp/hog.log 2>&1 &
	hog=$!
	wait $hog
	hog_rc=$?
	sleep 1
	stop_oomwatch
	end_bystander $by
	by_alive=$?
	victims=$(victim_pids)
	# Set to kill, as the kernel measured the unreclaimable period: the
	# grant's unreclaimable_ms ends at the timeout's clear; add the time
	# from that clear to the kill.  (The period may have begun before
	# this recording did.)
	t_kill=$(first_ts /tmp/ow.jsonl mark_victim)
	grant=$(grep '"type":"oom_grant"' /tmp/ow.jsonl | head -n 1)
	unrecl=$(echo "$grant" | sed -n 's/.*"unreclaimable_ms":\([0-9]*\).*/\1/p')
	t_grant=$(echo "$grant" | sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p')
	t_clear=$(grep '"type":"unreclaimable_clear".*"reason_name":"timeout"' /tmp/ow.jsonl |
		sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p' |
		awk -v g="${t_grant:-0}" '$1 <= g { c = $1 } END { print c }')
	lat=-1
	if [ -n "$unrecl" ] && [ -n "$t_clear" ] && [ -n "$t_kill" ]; then
		lat=$((unrecl + $(ms_between "$t_clear" "$t_kill")))
	elif [ -n "$t_kill" ] && [ -n "$(first_ts /tmp/ow.jsonl unreclaimable_set)" ]; then
		lat=$(ms_between "$(first_ts /tmp/ow.jsonl unreclaimable_set)" "$t_kill")
	fi
	echo "# result: scenario=oom-true arbiter=$arbiter run=$run hog_rc=$hog_rc victims=[$victims] set_to_kill_ms=$lat requests=$(count_events /tmp/ow.jsonl oom_request) grants=$(count_events /tmp/ow.jsonl oom_grant) fallbacks=$(count_events /tmp/ow.jsonl oom_fallback) oomwatch_rc=$OW_RC"
	[ "$hog_rc" -eq 137 ] && [ "$by_alive" -eq 0 ] && [ "$victims" = "$hog " ]
	ok $? "run $run: the hog ($hog) was killed, only it (victims: $victims), bystander alive"
	[ "$OW_RC" -eq 0 ]
	ok $? "run $run: oomwatch --assert: every invariant kept (exit $OW_RC)"
	if [ "$arbiter" = 1 ]; then
		[ "$lat" -ge "$timeout" ] && [ "$lat" -le $((timeout + 1000)) ]
		ok $? "run $run: unreclaimable to kill ${lat} ms, within [$timeout, $((timeout + 1000))]"
		[ "$(count_events /tmp/ow.jsonl oom_grant)" -ge 1 ]
		ok $? "run $run: the kill was granted by kswapd (oom_grant)"
	fi
	grep -E '"type":"(oom_grant|mark_victim|oom_fallback)"' /tmp/ow.jsonl | head -n 3 | sed 's/^/# /'
	grep -i violat /tmp/ow.err | head -n 5 | sed 's/^/# /'
	# ow.args=...,dump=1: the whole recording on the console, for fixtures.
	[ -n "$ARG_dump" ] && sed "s/^/# rec $run: /" /tmp/ow.jsonl
	run=$((run + 1))
done
ktap_done
