# watch: the default of `make run`.  oomwatch prints its live timeline on
# the console while a true OOM plays out with the arbiter on: a hog grows
# past RAM beside an idle bystander; kswapd grants the kill after the
# unreclaimable timeout; oomwatch ends with its summary and checks.
. /scenarios/lib.sh
parse_args
ktap_plan 3
arbiter_set "${ARG_arbiter:-1}" "${ARG_timeout:-5000}" "${ARG_fallback:-15000}"
oomwatch -T --assert 2>&1 &
ow=$!
sleep 2
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
ow-bystander 16 >/dev/null &
by=$!
ow-hog -s 16 $((ram_mb + 64)) >/dev/null 2>&1
hog_rc=$?
sleep 2
kill -INT $ow
wait $ow
ow_rc=$?
[ "$hog_rc" -eq 137 ]
ok $? "the hog was OOM-killed"
kill -0 $by 2>/dev/null
ok $? "the bystander survived"
[ "$ow_rc" -eq 0 ]
ok $? "oomwatch --assert: every invariant kept (exit $ow_rc)"
kill $by 2>/dev/null
ktap_done
