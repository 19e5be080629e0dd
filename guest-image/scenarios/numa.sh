# numa: the arbiter decides per node.  Boot with two nodes
# (qemu-run.sh --numa 2), no swap.
#
#  1. spill: a hog that prefers node 0 grows past node 0 but not past the
#     machine.  Its allocations spill to node 1: memory on another node is
#     no reason to kill, so no request and no kill, and the hog completes.
#  2. bound: a hog bound to node 1 (MPOL_BIND) grows past node 1 while
#     node 0 stays free.  Node 1's kswapd decides its request; the bound
#     hog, and only it, is killed (or the request falls back), node 0 is
#     never found unreclaimable, and an unbound bystander lives.
#  3. cpuset: the same, but confined by cpuset.mems (cgroup v2) instead of
#     a mempolicy: an OOM of CONSTRAINT_CPUSET.  Resolved on node 1, and
#     the victim is the one stock 6.1 chooses (numa-stock runs it with the
#     arbiter off): the hog, not the unconfined bystander whose memory
#     also lies on node 1.
#
# OW_ARGS: arbiter=1|0 timeout=MS fallback=MS
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
timeout=${ARG_timeout:-5000}
fallback=${ARG_fallback:-15000}
ktap_plan 15

node_mb() {	# node_mb NODE MemTotal|MemFree
	awk -v k="$2:" '$3 == k { print int($4 / 1024) }' \
		/sys/devices/system/node/node$1/meminfo
}

[ -d /sys/devices/system/node/node1 ] && ! [ -d /sys/devices/system/node/node2 ]
ok $? "two NUMA nodes: node 0 $(node_mb 0 MemTotal) MB, node 1 $(node_mb 1 MemTotal) MB"
arbiter_set "$arbiter" "$timeout" "$fallback"
ok $? "knobs: vm.oom_arbiter=$arbiter timeout ${timeout} ms fallback ${fallback} ms"

# 1. Spill from node 0 to node 1.
start_oomwatch --assert $ARG_flags
free0=$(node_mb 0 MemFree)
free1=$(node_mb 1 MemFree)
spill_mb=$((free0 + free1 / 3))
diag "spill: node 0 free $free0 MB, node 1 free $free1 MB; hog prefers node 0, grows to $spill_mb MB"
ow-hog -n 0 -s 8 -H 3 $spill_mb >/tmp/spill.log 2>&1 &
hog=$!
wait_for /tmp/spill.log 120 "ow-hog: $spill_mb MB"
low1=$(node_mb 1 MemFree)
wait $hog
hog_rc=$?
sleep 1
stop_oomwatch
kills=$(count_events /tmp/ow.jsonl mark_victim)
reqs=$(count_events /tmp/ow.jsonl oom_request)
echo "# result: scenario=numa arbiter=$arbiter case=spill hog_rc=$hog_rc kills=$kills requests=$reqs node1_used_mb=$((free1 - low1)) node0_unreclaimable=$(count_with unreclaimable_set nid 0)"
[ "$hog_rc" -eq 0 ]
ok $? "spill: the hog preferring node 0 completed (exit $hog_rc)"
[ "$kills" -eq 0 ] && [ "$reqs" -eq 0 ]
ok $? "spill: no kill ($kills), no OOM request ($reqs)"
[ $((free1 - low1)) -ge $((free1 / 6)) ]
ok $? "spill: node 1 gave $((free1 - low1)) MB of it"
[ "$OW_RC" -eq 0 ]
ok $? "spill: oomwatch --assert: invariants kept (exit $OW_RC)"

# 2. An allocation bound to node 1, which runs out.
start_oomwatch --assert $ARG_flags
ow-bystander 16 >/dev/null &
by=$!
sleep 0.5
bound_mb=$(($(node_mb 1 MemTotal) + 32))
diag "bound: hog bound to node 1, grows to $bound_mb MB; node 0 free $(node_mb 0 MemFree) MB"
ow-hog -n 1 -b -s 8 $bound_mb >/tmp/bound.log 2>&1 &
hog=$!
wait $hog
hog_rc=$?
sleep 1
stop_oomwatch
end_bystander $by
by_alive=$?
victims=$(victim_pids)
req1=$(count_with oom_request nid 1)
req0=$(count_with oom_request nid 0)
resolved1=$(($(count_with oom_grant nid 1) + $(count_with oom_fallback nid 1)))
unrecl0=$(count_with unreclaimable_set nid 0)
grep -E '"type":"(oom_[a-z]*|mark_victim|unreclaimable_[a-z]*)"' /tmp/ow.jsonl |
	sed 's/"v":[0-9]*,//; s/,"cpu":[0-9]*//; s/"tgid":[0-9]*,//' | head -n 20 | sed 's/^/# /'
echo "# result: scenario=numa arbiter=$arbiter case=bound hog_rc=$hog_rc victims=[$victims] requests_node1=$req1 requests_node0=$req0 grants_or_fallbacks_node1=$resolved1 node0_unreclaimable=$unrecl0 constraint=$(grep -m1 '"type":"mark_victim"' /tmp/ow.jsonl | sed -n 's/.*"constraint_name":"\([a-z]*\)".*/\1/p')"
[ "$hog_rc" -eq 137 ] && [ "$victims" = "$hog " ] && [ "$by_alive" -eq 0 ]
ok $? "bound: the bound hog ($hog) was killed, only it (victims: $victims), bystander alive"
if [ "$arbiter" = 1 ]; then
	[ "$req1" -ge 1 ] && [ "$req0" -eq 0 ] && [ "$resolved1" -ge 1 ]
	ok $? "bound: requests on node 1 only ($req1, node 0: $req0), resolved there by grant or fallback ($resolved1)"
else
	[ "$req1" -eq 0 ] && [ "$req0" -eq 0 ]
	ok $? "bound: no arbiter request with the arbiter off"
fi
[ "$unrecl0" -eq 0 ]
ok $? "bound: node 0 never found unreclaimable ($unrecl0)"
[ "$OW_RC" -eq 0 ]
ok $? "bound: oomwatch --assert: invariants kept (exit $OW_RC)"
free0=$(node_mb 0 MemFree)
[ "$free0" -gt 32 ]
ok $? "bound: node 0 kept its memory ($free0 MB free)"

# 3. A task confined to node 1 by its cpuset, which runs out.
cg=/sys/fs/cgroup
if echo +cpuset >$cg/cgroup.subtree_control 2>/dev/null &&
	mkdir -p $cg/node1 && echo 1 >$cg/node1/cpuset.mems; then
	start_oomwatch --assert $ARG_flags
	ow-bystander 16 >/dev/null &
	by=$!
	sleep 0.5
	cs_mb=$(($(node_mb 1 MemTotal) + 32))
	diag "cpuset: hog in cpuset.mems=1 ($(cat $cg/node1/cpuset.mems.effective)), grows to $cs_mb MB; node 0 free $(node_mb 0 MemFree) MB"
	sh -c "echo \$\$ >$cg/node1/cgroup.procs && exec ow-hog -s 8 $cs_mb" \
		>/tmp/cpuset.log 2>&1 &
	hog=$!
	wait $hog
	hog_rc=$?
	sleep 1
	stop_oomwatch
	end_bystander $by
	by_alive=$?
	victims=$(victim_pids)
	req1=$(count_with oom_request nid 1)
	req0=$(count_with oom_request nid 0)
	resolved1=$(($(count_with oom_grant nid 1) + $(count_with oom_fallback nid 1)))
	constraint=$(grep -m1 '"type":"mark_victim"' /tmp/ow.jsonl | sed -n 's/.*"constraint_name":"\([a-z]*\)".*/\1/p')
	echo "# result: scenario=numa arbiter=$arbiter case=cpuset hog_rc=$hog_rc victims=[$victims] requests_node1=$req1 requests_node0=$req0 grants_or_fallbacks_node1=$resolved1 constraint=$constraint"
	dmesg | grep "oom-kill:constraint=" | tail -n 1 | sed "s/^/# /"
	[ "$hog_rc" -eq 137 ] && [ "$victims" = "$hog " ] && [ "$by_alive" -eq 0 ] &&
		dmesg | grep "oom-kill:constraint=CONSTRAINT_CPUSET" | grep -q "pid=$hog," &&
		[ "$constraint" = nodemask ]
	ok $? "cpuset: the confined hog ($hog) was killed as CONSTRAINT_CPUSET (oomwatch: ${constraint:-none}, want nodemask), only it (victims: $victims), bystander alive"
	if [ "$arbiter" = 1 ]; then
		[ "$req1" -ge 1 ] && [ "$req0" -eq 0 ] && [ "$resolved1" -ge 1 ]
		ok $? "cpuset: requests on node 1 only ($req1, node 0: $req0), resolved there by grant or fallback ($resolved1)"
	else
		[ "$req1" -eq 0 ] && [ "$req0" -eq 0 ]
		ok $? "cpuset: no arbiter request with the arbiter off"
	fi
	[ "$OW_RC" -eq 0 ]
	ok $? "cpuset: oomwatch --assert: invariants kept (exit $OW_RC)"
	free0=$(node_mb 0 MemFree)
	[ "$free0" -gt 32 ]
	ok $? "cpuset: node 0 kept its memory ($free0 MB free)"
else
	for t in killed requests invariants node0; do
		ok 0 "cpuset: $t # SKIP no cpuset controller (CONFIG_CPUSETS)"
	done
fi
ktap_done
