# smoke: the patched kernel boots, has BTF, and oomwatch sees an OOM kill.
#
# Guest: no swap.  A bystander holds 8 MB; a hog grows past all of RAM and
# must be OOM-killed.  oomwatch (JSON lines) must report oom:mark_victim
# for the hog, and the bystander must survive.
. /scenarios/lib.sh
ktap_plan 7

awk -v t="$OW_INIT_UPTIME" 'BEGIN { exit !(t <= 5.0) }'
ok $? "boot: /init reached in ${OW_INIT_UPTIME} s (limit 5 s)"

test -s /sys/kernel/btf/vmlinux
ok $? "boot: /sys/kernel/btf/vmlinux present"

start_oomwatch
ok $? "oomwatch: attached"

ow-bystander 8 >/tmp/bystander.log &
BY=$!
ram_mb=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
ow-hog $((ram_mb + 64)) >/tmp/hog.log 2>&1 &
HOG=$!
wait $HOG
hog_rc=$?
diag "hog pid $HOG exited with status $hog_rc"
[ "$hog_rc" -eq 137 ]
ok $? "workload: hog ($((ram_mb + 64)) MB > ${ram_mb} MB RAM) OOM-killed"

sleep 1
stop_oomwatch
grep '"type":"mark_victim"' /tmp/ow.jsonl | grep -q "\"victim_pid\":$HOG[,}]"
ok $? "oomwatch: mark_victim reported for the hog (pid $HOG)"
grep '"type":"mark_victim"' /tmp/ow.jsonl | head -3 | sed 's/^/# /'

kill -0 $BY 2>/dev/null
ok $? "workload: bystander (pid $BY) survived"

[ "$OW_RC" -eq 0 ] && ! grep -q '"type":"lost"' /tmp/ow.jsonl
ok $? "oomwatch: clean exit ($OW_RC), no lost events"
tail -n 5 /tmp/ow.err | sed 's/^/# /'
kill $BY 2>/dev/null
ktap_done
