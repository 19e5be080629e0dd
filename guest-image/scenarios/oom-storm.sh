# oom-storm: 32 tasks allocate into a true OOM at once.  With the arbiter
# on, exactly one task is killed per episode; the kills with it off are
# reported beside it.  With the arbiter on, the requests still waiting
# when a victim exits end within 1 s of that exit: the victim's memory
# wakes them, they do not sleep out their fallback.
#
# With fallback=MS under the unreclaimable timeout, every request falls
# back to the stock path before a grant could come: each task then kills
# for itself, maybe more than once, and each of its kills must follow a
# fallback of its own (oomwatch --assert).
#
# metrics=SECONDS adds --metrics, written every SECONDS, to what --cost
# measures.
#
# stall=SECONDS stops oomwatch (SIGSTOP) before the tasks start and lets
# it go on SECONDS later: the storm's records pile up unread, in a ring
# of 256k (--ring-size; 1400 records) that they overflow: with the
# default 2M a stopped oomwatch saw 3400 to 5000 events in the whole
# run, shedding none.  The ring must then shed context records rather
# than lose any (oomwatch.bpf.c, RB_SHED_BYTES): a sixth line wants none
# lost and some shed, and every other line holds as when oomwatch keeps
# up.
#
# OW_ARGS: arbiter=1|0 tasks=N timeout=MS fallback=MS metrics=SECONDS
# stall=SECONDS
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
tasks=${ARG_tasks:-32}
ktap_plan $((5 + (${ARG_stall:-0} > 0)))
arbiter_set "$arbiter" "${ARG_timeout:-5000}" "${ARG_fallback:-15000}"
ok $? "knobs: vm.oom_arbiter=$arbiter"
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
each=$(( (ram_mb + ${ARG_over:-16}) / tasks ))
start_oomwatch --assert --cost $ARG_flags ${ARG_stall:+--ring-size 256k} \
	${ARG_metrics:+--metrics /tmp/ow.prom --metrics-interval $ARG_metrics}
[ "${ARG_stall:-0}" -gt 0 ] && kill -STOP "$OW_PID"
i=0
pids=
while [ $i -lt $tasks ]; do
	ow-hog -s 1 -H 600 $each >/dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
if [ "${ARG_stall:-0}" -gt 0 ]; then
	sleep "$ARG_stall"
	kill -CONT "$OW_PID"
fi
# The tasks hold their memory until killed: wait until the kills stop
# (no new one for 12 s, more than two unreclaimable timeouts), at most
# ${ARG_limit:-90} s, then end the survivors.
last=0 quiet=0 waited=0
while [ $quiet -lt 12 ] && [ $waited -lt ${ARG_limit:-90} ]; do
	sleep 1
	waited=$((waited + 1))
	n=$(count_events /tmp/ow.jsonl mark_victim)
	if [ "$n" != "$last" ]; then last=$n; quiet=0; else quiet=$((quiet + 1)); fi
done
killed=0
for p in $pids; do
	kill -0 $p 2>/dev/null || killed=$((killed + 1))
done
kill $pids 2>/dev/null
wait $pids 2>/dev/null
sleep 1
stop_oomwatch
kills=$(count_events /tmp/ow.jsonl mark_victim)
grants=$(count_events /tmp/ow.jsonl oom_grant)
echo "# result: scenario=oom-storm arbiter=$arbiter tasks=$tasks each_mb=$each kills=$kills killed_tasks=$killed grants=$grants requests=$(count_events /tmp/ow.jsonl oom_request) oomwatch_rc=$OW_RC"
if [ "$arbiter" = 1 ]; then
	# One kill per grant: never two victims for one episode.  A
	# request past the bound may fall back to the stock path and kill
	# on its own: those kills follow an oom_fallback.
	fallbacks=$(count_events /tmp/ow.jsonl oom_fallback)
	# A task on the stock path kills for itself, and may kill again:
	# the kernel traces a fallback before each of its kills.  How
	# often that happened: kills by a task that had killed before.
	again=$(grep '"type":"mark_victim"' /tmp/ow.jsonl |
		sed -n 's/.*"cpu":[0-9]*,"pid":\([0-9]*\),.*/\1/p' |
		sort | uniq -c | awk '$1 > 1 { n += $1 - 1 } END { print n + 0 }')
	echo "# result: scenario=oom-storm arbiter=$arbiter fallbacks=$fallbacks repeat_kills=$again"
	[ "$kills" -ge 1 ] && [ "$kills" -le $((grants + fallbacks)) ]
	ok $? "one kill per episode: $kills kills for $grants grants and $fallbacks fallbacks ($again by a task that had killed before), $tasks tasks"
else
	[ "$kills" -ge 1 ]
	ok $? "stock: $kills kills among $tasks tasks"
fi
if [ "$arbiter" = 1 ]; then
	set -- $(after_victim_exit)
	echo "# result: scenario=oom-storm arbiter=$arbiter waiting_at_exit=$1 max_after_exit_ms=$2 unresolved=$3 waiting_before_kill=$4 max_before_kill_ms=$5 unresolved_before_kill=$6"
	# Judged on the requests made before the kill: one made after
	# the victim's memory was freed may rightly wait on (see
	# after_victim_exit); all of them are in the result line.  With
	# the fallback bound under the unreclaimable timeout every
	# request leaves by its fallback within that bound, often before
	# any victim has exited: there may be no second wave (one stall
	# run saw none of 5 kills and 20 fallbacks), so only its waits
	# are judged.  Under the default bound the wave must be there.
	wave=1
	[ "${ARG_fallback:-15000}" -lt "${ARG_timeout:-5000}" ] && wave=0
	[ "$4" -ge "$wave" ] && [ "$5" -le 1000 ] && [ "$6" -eq 0 ]
	ok $? "second wave: $4 request(s) made before a kill and waiting at its victim's exit ended at most $5 ms after it (bound 1000, want >= $wave of them), $6 never ($1 waiting in all, slowest $2 ms)"
else
	ok 0 "second wave # SKIP arbiter off: nobody waits"
fi
if [ "$arbiter" = 1 ]; then
	set -- $(stale_verdicts)
	[ "$1" -ge 1 ] && [ "$2" -eq 0 ]
	ok $? "kswapd's $1 verdicts (grants and defers) each named a request still waiting on its node ($2 did not)"
else
	ok 0 "verdicts name waiting requests # SKIP arbiter off: no verdicts"
fi
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch --assert: every invariant kept (exit $OW_RC)"
grep -i violat /tmp/ow.err | head -n 5 | sed 's/^/# /'
# How much the storm asked of the ring buffer and of oomwatch.
grep -E '^oomwatch: cost: [0-9]' /tmp/ow.err | sed 's/^/# /'
if [ "${ARG_stall:-0}" -gt 0 ]; then
	set -- $(sed -n 's/^oomwatch: \([0-9]*\) events, \([0-9]*\) lost, \([0-9]*\) shed$/\1 \2 \3/p' /tmp/ow.err)
	echo "# result: scenario=oom-storm stall_s=$ARG_stall events=${1:-?} lost=${2:-?} shed=${3:-?}"
	[ "${2:-1}" -eq 0 ] && [ "${3:-0}" -gt 0 ]
	ok $? "oomwatch stopped for the first $ARG_stall s: ${3:-?} context records shed, ${2:-?} lost, ${1:-?} events kept"
fi
ktap_done
