# numa-thrash: the thrash rule on a machine of two nodes.  Boot with two
# nodes (qemu-run.sh --numa 2) and a data disk (--data 128), no swap.
#
# A node thrashes with the pages of tasks that do not prefer it.  Every
# task here runs on node 0's CPUs (taskset), so each allocation tries
# node 0 first.  A hog bound to node 0 leaves it between its min and low
# watermarks; the freeze's programs (48 MB of text read 5 times a
# second, ow-exec-thrash) get their page cache from node 1 (the fast
# path skips node 0) and from node 0's last pages above its min (the
# slow path), which kswapd takes back; a second hog, bound to node 1,
# leaves room there for half of it.  Node 1 thrashes first, node 0 a
# second or two later (measured without the fix: 10.1 and 11.4 s in).
#
#  1. a node is marked thrashing and granted the kill a timeout later;
#  2. the first grant is the first one taken, by a task on node 0's CPUs
#     whatever node it is on, and a hog killed within the timeout + 1 s
#     of that node's first thrashing window: an allocation that would
#     take its pages from the node takes its grant (on stock placement,
#     the local node's zones first: none of node 0's has free pages
#     above its low watermark).  With the grant left to allocations that
#     prefer its node, node 1's waited, untaken, until node 0's own came
#     (6.3 s after node 1's first window: a fail);
#  3. one hog, and only it, is killed; the programs run at their pace
#     again; oomwatch --assert keeps every invariant.
#
# OW_ARGS: timeout=MS hold=S
. /scenarios/lib.sh
parse_args
timeout=${ARG_timeout:-5000}
hold=${ARG_hold:-60}
ktap_plan 8

node_kb() {	# node_kb NODE KEY: a value of the node's meminfo, in kB
	awk -v k="$2:" '$3 == k { print $4 }' /sys/devices/system/node/node$1/meminfo
}

# The node's low watermark, in kB: its zones' together.
node_low_kb() {
	awk -v n="$1" '$1 == "Node" { on = ($2 == n ",") }
		on && $1 == "low" { s += $2 } END { print s * 4 }' /proc/zoneinfo
}

cpus0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
[ -d /sys/devices/system/node/node1 ] && [ -n "$cpus0" ]
ok $? "two NUMA nodes, node 0 with CPUs ${cpus0:-none} (node 1: $(cat /sys/devices/system/node/node1/cpulist 2>/dev/null); online: $(cat /sys/devices/system/cpu/online))" || {
	ktap_done
	exit 0
}
swap_off
arbiter_set 1 5000 10000 && sysctl_write oom_thrash_timeout_ms "$timeout" &&
	sysctl_write oom_arbiter_thrash 1
ok $? "knobs: vm.oom_arbiter=1, vm.oom_arbiter_thrash=1, vm.oom_thrash_timeout_ms=$timeout"
# This shell and all it starts: on node 0's CPUs.
taskset -p -c "$cpus0" $$ >/dev/null
ok $? "tasks pinned to node 0's CPUs ($cpus0)"

start_oomwatch --assert || diag "oomwatch did not attach"
mount_data /mnt/data || diag "the freeze needs a data disk (--data)"
[ -e /mnt/data/text ] ||
	{ dd if=/dev/urandom of=/mnt/data/text bs=1M count=48 2>/dev/null && sync; }
echo 3 >/proc/sys/vm/drop_caches
# Node 0: free memory to halfway between its min and low watermarks.
low0=$(node_low_kb 0)
a_mb=$(( ($(node_kb 0 MemFree) - low0 * 9 / 10) >> 10 ))
ow-hog -n 0 -b -s 4 -H "$hold" "$a_mb" >/tmp/hog0.log 2>&1 &
hog0=$!
wait_for /tmp/hog0.log 60 "ow-hog: full_ns"
diag "node 0: hog of $a_mb MB bound to it; free $(($(node_kb 0 MemFree) >> 10)) MB, low watermark $((low0 >> 10)) MB, file $(($(node_kb 0 FilePages) >> 10)) MB"
ow-exec-thrash /mnt/data/text 5 /tmp/exec-lat.log >/tmp/exec.log 2>&1 &
thr=$!
sleep 3
# Node 1: room for half the programs' 48 MB beside the hog.
b_mb=$(( ($(node_kb 1 MemFree) + $(node_kb 1 FilePages)) / 1024 - 24 ))
diag "node 1: free $(($(node_kb 1 MemFree) >> 10)) MB, file $(($(node_kb 1 FilePages) >> 10)) MB; hog of $b_mb MB bound to it"
t0=$(now_ms)
ow-hog -n 1 -b -s 4 -H "$hold" "$b_mb" >/tmp/hog1.log 2>&1 &
hog1=$!
wait $hog1
rc1=$?
wait $hog0
rc0=$?
sleep 3
kill $thr 2>/dev/null
wait $thr
sleep 1
stop_oomwatch
STATS=$(freeze_stats /tmp/exec-lat.log "$t0")
grep -E '"type":"(thrashing_[a-z]*|oom_thrash_[a-z]*|mark_victim)"' /tmp/ow.jsonl |
	head -n 10 | sed 's/^/# /'

# The first grant, its node's first thrashing window, the first take.
grant=$(grep '"type":"oom_thrash_grant"' /tmp/ow.jsonl | head -n 1)
g_nid=$(echo "$grant" | sed -n 's/.*"nid":\([0-9-]*\).*/\1/p')
t_grant=$(echo "$grant" | sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p')
set=$(grep '"type":"thrashing_set"' /tmp/ow.jsonl | grep -E "\"nid\":${g_nid:-x}[,}]" | head -n 1)
t_set=$(echo "$set" | sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p')
window=$(echo "$set" | sed -n 's/.*"window_ms":\([0-9]*\).*/\1/p')
first_set=$(grep -m1 '"type":"thrashing_set"' /tmp/ow.jsonl | sed -n 's/.*"nid":\([0-9-]*\).*/\1/p')
take=$(grep -m1 '"type":"oom_thrash_take"' /tmp/ow.jsonl)
take_nid=$(echo "$take" | sed -n 's/.*"nid":\([0-9-]*\).*/\1/p')
take_comm=$(echo "$take" | sed -n 's/.*"take_comm":"\([^"]*\)".*/\1/p')
t_kill=$(first_ts /tmp/ow.jsonl mark_victim)
since_start=-1 kill_after_start=-1
[ -n "$t_set" ] && [ -n "$t_grant" ] &&
	since_start=$(($(ms_between "$t_set" "$t_grant") + ${window:-0}))
[ -n "$t_set" ] && [ -n "$t_kill" ] &&
	kill_after_start=$(($(ms_between "$t_set" "$t_kill") + ${window:-0}))
victims=$(victim_pids)
echo "# result: scenario=numa-thrash hog0_mb=$a_mb hog1_mb=$b_mb hog0_rc=$rc0 hog1_rc=$rc1 node0_set=$(count_with thrashing_set nid 0) node1_set=$(count_with thrashing_set nid 1) first_set_nid=${first_set:--} grant_nid=${g_nid:--} grant_after_window_start_ms=$since_start kill_after_window_start_ms=$kill_after_start take_nid=${take_nid:--} taker=${take_comm:--} victims=[$victims] $STATS"

[ -n "$t_set" ] && [ "$since_start" -ge $((timeout - JIFFY_MS)) ]
ok $? "node ${g_nid:-none} marked thrashing (node ${first_set:-none} first), and granted the kill $since_start ms after its first thrashing window began (want >= $timeout - $JIFFY_MS)"
[ -n "$g_nid" ] && [ "$take_nid" = "$g_nid" ] && [ "$kill_after_start" -ge 0 ] &&
	[ "$kill_after_start" -le $((timeout + 1000 * SLOW)) ]
ok $? "the first grant (node ${g_nid:-none}) taken first (by ${take_comm:-nobody} on node 0's CPUs, node ${take_nid:-none}) and a kill $kill_after_start ms after that node's first thrashing window began (want <= $((timeout + 1000 * SLOW)))"
{ [ "$victims" = "$hog0 " ] && [ "$rc0" -eq 137 ]; } ||
	{ [ "$victims" = "$hog1 " ] && [ "$rc1" -eq 137 ]; }
ok $? "one hog killed, only it (victims: ${victims:-none}; hogs $hog0 exit $rc0, $hog1 exit $rc1)"
tail -n 5 /tmp/exec-lat.log | awk '$2 >= 200 { slow++ } END { exit slow > 0 }'
ok $? "the programs run at their pace again (last 5 passes: $(tail -n 5 /tmp/exec-lat.log | awk '{ printf "%s ", $2 }')ms)"
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch --assert: every invariant kept (exit $OW_RC)"
grep -i violat /tmp/ow.err 2>/dev/null | head -n 5 | sed 's/^/# /'
ktap_done
