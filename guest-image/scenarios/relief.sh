# relief: memory freed by an ordinary exit ends a request's wait at once.
#
# No swap; a bystander holds 64 MB, locked, and exits by itself 8 s after
# it started (ow-bystander -x, nothing else to run: the node is full, and
# the shell that runs this test may itself be waiting on a request); a
# hog grows past RAM at once.  The hog's allocation waits on an OOM
# request (the node unreclaimable, the arbiter on, its timeout 20 s).
# The bystander's exit is not an OOM victim's, so nothing tells the
# arbiter that memory came back, and kswapd, which gave up on the node,
# sleeps until its timer.  A waiter checks on every 250 ms slice (that no
# grant is up in) whether
# its allocation would succeed now: the request must end in a retry
# (oom_veto above_min) within 1 s of the bystander's exit, not at
# kswapd's timer (20 s) or the fallback bound (40 s).  The hog is killed
# in the end, as in oom-true.
#
# OW_ARGS: timeout=MS fallback=MS
. /scenarios/lib.sh
parse_args
timeout=${ARG_timeout:-20000}
fallback=${ARG_fallback:-40000}
ktap_plan 5

swap_off
arbiter_set 1 "$timeout" "$fallback"
ok $? "knobs: vm.oom_arbiter=1 timeout ${timeout} ms fallback ${fallback} ms"
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)

start_oomwatch --assert
ow-bystander -x 8000 64 >/tmp/by.log 2>&1 &
by=$!
sleep 0.5
ow-hog -s 8 $((ram_mb + 64)) >/tmp/hog.log 2>&1 &
hog=$!
wait_event oom_request request_pid "$hog" 60
waited=$?
wait $by
wait $hog
hog_rc=$?
sleep 1
stop_oomwatch
t_by=$(sed -n 's/^ow-bystander: exit_ns \([0-9]*\)$/\1/p' /tmp/by.log)
[ $waited -eq 0 ] && [ -n "$t_by" ]
ok $? "the hog's allocation became an OOM request, the bystander exited by itself"
# The hog's request that was waiting when the bystander exited, and what
# ended it.
verdict=$(awk -v pid="$hog" -v by="${t_by:-0}" '
	function num(k,   s) {
		if (!match($0, "\"" k "\":[0-9]+")) return -1
		s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); return s + 0
	}
	num("request_pid") != pid { next }
	/"type":"oom_request"/ && num("ts_ns") <= by { t = num("ts_ns"); next }
	t && /"type":"oom_(veto|fallback)"/ && num("ts_ns") >= by {
		printf "%.0f %.0f %s\n", t, num("ts_ns"), ($0 ~ /oom_veto/ ? "veto" : "fallback") ":" num("reason")
		exit
	}' /tmp/ow.jsonl)
set -- $verdict
t_req=${1:-0} t_end=${2:-0} how=${3:-none}
after_ms=-1
[ "$t_end" -gt 0 ] && after_ms=$(ms_between "${t_by:-0}" "$t_end")
grep -E '"type":"(oom_[a-z]*|mark_victim|unreclaimable_[a-z]*)"' /tmp/ow.jsonl |
	head -n 12 | cut -c 1-260 | sed 's/^/# /'
echo "# result: scenario=relief by_exit_to_verdict_ms=$after_ms verdict=$how hog_rc=$hog_rc oomwatch_rc=$OW_RC"
[ "$how" = "veto:5" ]
ok $? "the request ended in a retry (oom_veto reason 5, above_min; got $how)"
[ "$after_ms" -ge 0 ] && [ "$after_ms" -le $((1000 * SLOW)) ]
ok $? "it ended $after_ms ms after the bystander's exit (want <= $((1000 * SLOW)); kswapd's timer ends it near $timeout ms after the node gave up)"
[ "$hog_rc" -eq 137 ] && [ "$OW_RC" -eq 0 ]
ok $? "the hog killed in the end (exit $hog_rc), every invariant kept (exit $OW_RC)"
ktap_done
