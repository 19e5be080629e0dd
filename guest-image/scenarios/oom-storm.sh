# oom-storm: 32 tasks allocate into a true OOM at once.  With the arbiter
# on, exactly one task is killed per episode; the kills with it off are
# reported beside it.
#
# OW_ARGS: arbiter=1|0 tasks=N
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
tasks=${ARG_tasks:-32}
ktap_plan 3
arbiter_set "$arbiter" "${ARG_timeout:-5000}" "${ARG_fallback:-15000}"
ok $? "knobs: vm.oom_arbiter=$arbiter"
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
each=$(( (ram_mb + 96) / tasks ))
start_oomwatch --assert $ARG_flags
i=0
pids=
while [ $i -lt $tasks ]; do
	ow-hog -s 1 -H 4 $each >/dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
killed=0
for p in $pids; do
	wait $p
	[ $? -eq 137 ] && killed=$((killed + 1))
done
sleep 1
stop_oomwatch
kills=$(count_events /tmp/ow.jsonl mark_victim)
grants=$(count_events /tmp/ow.jsonl oom_grant)
echo "# result: scenario=oom-storm arbiter=$arbiter tasks=$tasks each_mb=$each kills=$kills killed_tasks=$killed grants=$grants requests=$(count_events /tmp/ow.jsonl oom_request) oomwatch_rc=$OW_RC"
if [ "$arbiter" = 1 ]; then
	# One kill per grant: never two victims for one episode.
	[ "$kills" -ge 1 ] && [ "$kills" -eq "$grants" ]
	ok $? "one kill per episode: $kills kills for $grants grants, $tasks tasks"
else
	[ "$kills" -ge 1 ]
	ok $? "stock: $kills kills among $tasks tasks"
fi
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch --assert: every invariant kept (exit $OW_RC)"
grep -i violat /tmp/ow.err | head -n 5 | sed 's/^/# /'
ktap_done
