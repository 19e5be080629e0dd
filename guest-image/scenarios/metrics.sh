# metrics: oomwatch --metrics gives the same numbers live and from a
# replay of the live run's recording.  A true OOM as in oom-true (no swap,
# a hog past all of RAM, the arbiter on) is traced live with --record and
# --metrics, rewritten every second; the recording is then replayed here
# with --metrics, and the two files must be the same, byte for byte (the
# exposition has no timestamps, and every number in it comes from the
# events).  The live file and the recording are printed on the console
# ("# metrics-live: ", "# metrics-rec: "), for tests/run.sh to replay the
# recording on the host and parse both with Prometheus' parser.
#
# OW_ARGS: timeout=MS fallback=MS
. /scenarios/lib.sh
parse_args
timeout=${ARG_timeout:-5000}
live=/tmp/live.prom
rec=/tmp/rec.jsonl
ktap_plan 6

arbiter_set 1 "$timeout" "${ARG_fallback:-15000}"
ok $? "knobs: vm.oom_arbiter=1 timeout ${timeout} ms"
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)

start_oomwatch --assert --record "$rec" --metrics "$live" --metrics-interval 1
grep -q '^oomwatch_events_total [0-9]*$' "$live"
ok $? "--metrics: written when tracing starts"
ow-hog -s 8 $((ram_mb + 64)) >/tmp/hog.log 2>&1 &
hog=$!
wait $hog
hog_rc=$?
# Rewritten while running: the kill shows before oomwatch ends.
wait_for "$live" 5 '^oomwatch_oom_kills_total{constraint="global"} [1-9]'
ok $? "--metrics: rewritten while tracing, the kill in it (hog exit $hog_rc)"
sleep 1
stop_oomwatch
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch --assert: every invariant kept (exit $OW_RC)"

oomwatch --replay "$rec" -s --metrics /tmp/replay.prom >/dev/null 2>/tmp/replay.err
rc=$?
[ $rc -eq 0 ] && cmp -s "$live" /tmp/replay.prom
ok $? "--replay of the recording: the live run's metrics, byte for byte (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' /tmp/replay.err
diff "$live" /tmp/replay.prom | head -n 20 | sed 's/^/# diff: /'

kills=$(count_events /tmp/ow.jsonl mark_victim)
requests=$(count_events /tmp/ow.jsonl oom_request)
m_kills=$(sed -n 's/^oomwatch_oom_kills_total{constraint="global"} //p' "$live")
m_requests=$(awk '/^oomwatch_oom_requests_total/ { n += $2 } END { print n + 0 }' "$live")
[ "$kills" -ge 1 ] && [ "$m_kills" = "$kills" ] && [ "$m_requests" = "$requests" ]
ok $? "--metrics counts what -j shows: $m_kills of $kills kills, $m_requests of $requests requests"

echo "# result: scenario=metrics kills=$kills requests=$requests events=$(sed -n 's/^oomwatch_events_total //p' "$live") oomwatch_rc=$OW_RC"
sed 's/^/# metrics-live: /' "$live"
sed 's/^/# metrics-rec: /' "$rec"
ktap_done
