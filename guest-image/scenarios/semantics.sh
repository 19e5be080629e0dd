# semantics: the stock OOM semantics the arbiter must keep.
#
# With vm.oom_arbiter=1 (or 0, to see stock beside it):
#  - contexts the stock OOM killer never kills for (a costly order,
#    __GFP_RETRY_MAYFAIL, __GFP_THISNODE) fail under exhaustion without an
#    arbiter request and without a kill;
#  - a plain GFP_KERNEL and a __GFP_NOFAIL allocation under the same
#    exhaustion do reach the OOM path (a request with the arbiter on) and
#    succeed; the exhaustion is a ballast the test module hands to the OOM
#    killer through an OOM notifier, so nobody has to die for it;
#  - GFP_NOFS, and GFP_KERNEL inside memalloc_nofs_save(), never wait on
#    the arbiter: they may hold filesystem locks, and out_of_memory()
#    kills nobody for them (stock: it returns at once);
#  - a request killed while it waits reaches out_of_memory(), which gives
#    a dying task the reserves, and exits at once;
#  - a request waiting when the system freezes (suspend) stops waiting
#    and lets itself be frozen: the freeze succeeds;
#  - an order-2 allocation in a zone with free pages at order 0 only
#    resolves (through out_of_memory(), as stock) within the fallback
#    bound plus 1 s: free order-0 pages must not send it back to retry
#    for ever;
#  - a memcg over its memory.max is killed by the memcg OOM killer at once,
#    never through the arbiter;
#  - sysrq-f kills at once, never through the arbiter.
# The exhaustion comes from tests/kmod/ow_alloc.ko (/proc/ow_alloc).
#
# OW_ARGS: arbiter=1|0 timeout=MS fallback=MS
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
timeout=${ARG_timeout:-5000}
fallback=${ARG_fallback:-15000}
ktap_plan 26

arbiter_set "$arbiter" "$timeout" "$fallback"
ok $? "knobs: vm.oom_arbiter=$arbiter timeout ${timeout} ms fallback ${fallback} ms"
insmod /lib/modules/oomwatch/ow_alloc.ko && [ -w /proc/ow_alloc ]
ok $? "test module ow_alloc loaded"

# alloc_case LABEL "ORDER FLAGS": one test allocation from its own task.
# Sets CASE_RC (0 allocated, 1 failed), CASE_PID, CASE_MS, CASE_OOM
# (ballast pages out_of_memory() took: it ran, in any task) and
# CASE_OOM_SELF (those taken in the test task's own out_of_memory()).
alloc_case() {
	local t0
	t0=$(now_ms)
	(echo "$2" >/proc/ow_alloc) 2>/dev/null &
	CASE_PID=$!
	wait $CASE_PID
	CASE_RC=$?
	CASE_MS=$(($(now_ms) - t0))
	CASE_LOG=$(dmesg | grep "ow_alloc: pid $CASE_PID order " | tail -n 1)
	echo "# $CASE_LOG"
	# Pages of ballast out_of_memory() took through the OOM notifier.
	CASE_OOM=$(echo "$CASE_LOG" | sed -n 's/.*, \([0-9]*\) given to the OOM killer.*/\1/p')
	# ... of which in an out_of_memory() this task ran itself.
	CASE_OOM_SELF=$(echo "$CASE_LOG" | sed -n 's/.*, \([0-9]*\) in this task.s own OOM.*/\1/p')
	# ... and those the module's release_after=MS deadline gave back.
	CASE_DEADLINE=$(echo "$CASE_LOG" | sed -n 's/.*, \([0-9]*\) released by the deadline.*/\1/p')
	echo "# result: scenario=semantics arbiter=$arbiter case=$1 allocated=$([ $CASE_RC -eq 0 ] && echo yes || echo no) ms=$CASE_MS"
}

# alloc_case_waiting LABEL "ORDER FLAGS" EVENT: alloc_case for a case
# that needs its allocation still waiting when EVENT ("its SIGKILL", "the
# freeze") comes.  That is a precondition, not the property under test:
# the drain exhausts the node only as far as reclaim lets it, and reclaim
# sometimes finds a few hundred pages after all (shrunk slab; seen once in
# five make test runs: served by reclaim in 272 ms), and a node left
# unreclaimable past the timeout by such a case has its grant ready, so
# the next request is permitted at once.  Either way the allocation
# returns before EVENT and the case says nothing about a waiter.  Up to 3
# attempts, 1 s apart; an arbiter that never waits fails all three.
alloc_case_waiting() {
	local attempt=1

	while :; do
		alloc_case "$1" "$2"
		dmesg | grep -q "ow_alloc: pid $CASE_PID: returned before $3" ||
			return 0
		echo "# setup: attempt $attempt of 3: the allocation returned before $3 ($CASE_MS ms, ${CASE_OOM:-?} pages to the OOM killer): no waiter to test"
		[ $attempt -ge 3 ] && return 1
		attempt=$((attempt + 1))
		sleep 1
	done
}

start_oomwatch $ARG_flags
ok $? "oomwatch attached"

# Contexts the OOM killer leaves alone.  Each may fail or, when reclaim
# finds something after all, succeed; what must not happen is a request
# or a kill.
for c in "costly:4 drain" "retry_mayfail:0 drain,retry_mayfail" \
	 "thisnode:0 drain,thisnode"; do
	label=${c%%:*}
	alloc_case "$label" "${c#*:}"
	reqs=$(count_with oom_request request_pid $CASE_PID)
	kills=$(count_events /tmp/ow.jsonl mark_victim)
	[ "$reqs" -eq 0 ] && [ "$kills" -eq 0 ] && [ "${CASE_OOM_SELF:-1}" -eq 0 ]
	ok $? "$label: no OOM request ($reqs), out_of_memory() not called by it (${CASE_OOM_SELF:-?}), no kill ($kills); allocation $([ $CASE_RC -eq 0 ] && echo succeeded || echo failed) in $CASE_MS ms"
done

# Killed while it waits: out_of_memory() gives it the reserves, it exits.
# Nothing in user space can watch the waiter and kill it then (every fork
# stalls on the exhaustion, and a stalled helper becomes a requester that
# takes the episode's grant), so the module's own timer sends the SIGKILL
# 500 ms into the allocation: long after reclaim gave up, well before
# the 5 s timeout.  It comes first of the OOM cases, while the node has
# only just become unreclaimable: later, the timeout may have run out
# long before a request comes, and the grant would not keep it waiting.  The request must have waited (an oom_fallback
# "dying", 11, with waited_ms > 0: one traced at once would say 0) and
# the allocation must return within 100 ms of the signal.
if [ "$arbiter" = 1 ]; then
	alloc_case_waiting killed "0 drain,kill_after=500" "its SIGKILL"
	wait_event oom_fallback request_pid $CASE_PID 5
	kill_log=$(dmesg | grep "ow_alloc: pid $CASE_PID: returned" | tail -n 1)
	oom_log=$(dmesg | grep "ow_alloc: pid $CASE_PID: out_of_memory()" | tail -n 1)
	echo "# $oom_log"
	echo "# $kill_log"
	after_us=$(echo "$kill_log" | sed -n 's/.*returned \([0-9]*\) us after its SIGKILL.*/\1/p')
	oom_us=$(echo "$oom_log" | sed -n 's/.*out_of_memory() \(-*[0-9]*\) us after its SIGKILL.*/\1/p')
	fb=$(grep '"type":"oom_fallback"' /tmp/ow.jsonl | grep "\"request_pid\":$CASE_PID[,}]" |
		sed -n 's/.*"reason":\([0-9]*\).*"waited_ms":\([0-9]*\).*/\1:\2/p' | head -n 1)
	reason=${fb%%:*}
	waited=${fb#*:}
	echo "# result: scenario=semantics arbiter=$arbiter case=killed-waiting rc=$CASE_RC oom_us=${oom_us:-none} after_us=${after_us:-none} fallback=${fb:-none}"
	[ -n "$after_us" ] && [ "$after_us" -le $((100000 * SLOW)) ]
	ok $? "killed while waiting: the allocation returned ${after_us:-never} us after SIGKILL (want <= $((100000 * SLOW))), the task exited ($CASE_RC)"
	# 11: OOM_ARB_DYING (docs/trace-format.md, verdict reasons)
	[ "$reason" = 11 ] && [ "${waited:-0}" -gt 0 ]
	ok $? "killed while waiting: its request fell back as dying after waiting (reason ${reason:-none} want 11, waited ${waited:-?} ms want > 0)"
else
	ok 0 "killed while waiting # SKIP arbiter off: no wait to kill"
	ok 0 "killed while waiting: fallback reason # SKIP arbiter off"
fi

# Frozen while it waits: a suspend must not fail on an arbiter waiter.
# The module starts a suspend to idle 300 ms (SLOW times) into the allocation, with
# /sys/power/pm_test=freezer: every task frozen for a second, then thawed,
# no device touched.  A TASK_KILLABLE sleeper ignores the freezer's fake
# signal, so a waiter that does not look would make the freeze fail after
# pm_freeze_timeout (2 s here; the node has only just become
# unreclaimable, so no grant ends the wait before that).  The waiter must
# stop waiting (oom_fallback "freezing", 15), get its memory the stock
# way and return to user space to be frozen.
if [ -w /sys/power/pm_test ]; then
	echo freezer >/sys/power/pm_test && echo 2000 >/sys/power/pm_freeze_timeout &&
		echo 1 >/sys/module/suspend/parameters/pm_test_delay
	# A first suspend, memory plentiful: it allocates the suspend
	# console (pm_prepare_console(): a VT and its /dev/vcs* nodes, made
	# by kdevtmpfs).  Under the exhaustion those allocations would be
	# requests of their own, and the freeze would not begin until they
	# were resolved (seen: 4.8 s, ended by a grant the waiter took).
	echo freeze >/sys/power/state
	if [ "$arbiter" = 1 ]; then
		alloc_case_waiting frozen "0 drain,freeze_after=$((300 * SLOW))" "the freeze"
	else
		alloc_case frozen "0 drain,freeze_after=$((300 * SLOW))"
	fi
	i=0
	while [ "$arbiter" = 1 ] && [ $i -lt 30 ] &&
		! dmesg | grep -q "freeze: pm_suspend returned"; do
		sleep 0.5
		i=$((i + 1))
	done
	echo none >/sys/power/pm_test
	pm_line=$(dmesg | grep "freeze: pm_suspend returned" | tail -n 1)
	ret_line=$(dmesg | grep "ow_alloc: pid $CASE_PID: returned .*freeze" | tail -n 1)
	echo "# $pm_line"
	echo "# $ret_line"
	pm_rc=$(echo "$pm_line" | sed -n 's/.*pm_suspend returned \(-*[0-9]*\) .*/\1/p')
	[ "$arbiter" = 1 ] && wait_event oom_fallback request_pid $CASE_PID 5
	fb=$(grep '"type":"oom_fallback"' /tmp/ow.jsonl | grep "\"request_pid\":$CASE_PID[,}]" |
		sed -n 's/.*"reason":\([0-9]*\).*"waited_ms":\([0-9]*\).*/\1:\2/p' | head -n 1)
	echo "# result: scenario=semantics arbiter=$arbiter case=frozen-waiting rc=$CASE_RC pm_suspend=${pm_rc:-none} fallback=${fb:-none}"
	if [ "$arbiter" = 1 ]; then
		[ "$pm_rc" = 0 ] && [ "$CASE_RC" -eq 0 ]
		ok $? "frozen while waiting: the freeze succeeded (pm_suspend ${pm_rc:-never returned}), the allocation succeeded ($CASE_RC, $CASE_MS ms)"
		# 15: OOM_ARB_FREEZING (docs/trace-format.md, verdict reasons)
		after_ms=$(echo "$ret_line" | sed -n 's/.*returned \([0-9]*\) ms after the freeze began.*/\1/p')
		[ "${fb%%:*}" = 15 ] && [ "${fb#*:}" -gt 0 ] && [ -n "$after_ms" ] &&
			[ "$after_ms" -le 1000 ]
		ok $? "frozen while waiting: its request fell back as freezing after waiting (reason:waited_ms ${fb:-none}, want 15:>0), the allocation returned ${after_ms:-?} ms after the freeze began (want <= 1000)"
	else
		# Stock does not wait: the allocation is served by the OOM
		# path before the freeze is due (the module cancels it then).
		[ "$CASE_RC" -eq 0 ] && [ "$CASE_MS" -lt $((300 * SLOW)) ] && [ -z "$pm_rc" ]
		ok $? "frozen while waiting: stock does not wait, the allocation succeeded in $CASE_MS ms (want < $((300 * SLOW))), before the freeze was due (pm_suspend ${pm_rc:-not run})"
		ok 0 "frozen while waiting: fallback reason # SKIP arbiter off: no wait"
	fi
else
	ok 0 "frozen while waiting # SKIP no /sys/power/pm_test (CONFIG_PM_DEBUG, CONFIG_SUSPEND)"
	ok 0 "frozen while waiting: fallback reason # SKIP no pm_test"
fi

# Contexts that do go to the OOM path: the ballast is what it frees.
for c in "kernel:0 drain" "nofail:0 drain,nofail"; do
	label=${c%%:*}
	alloc_case "$label" "${c#*:}"
	[ "$arbiter" = 1 ] && wait_event oom_request request_pid $CASE_PID 5
	sleep 1		# let the episode's other waiters settle
	reqs=$(count_with oom_request request_pid $CASE_PID)
	kills=$(count_events /tmp/ow.jsonl mark_victim)
	[ "$CASE_RC" -eq 0 ] && [ "${CASE_OOM:-0}" -gt 0 ]
	ok $? "$label: out_of_memory() ran (took ${CASE_OOM:-0} ballast pages), the allocation succeeded ($CASE_MS ms)"
	if [ "$arbiter" = 1 ]; then
		[ "$reqs" -ge 1 ]
		ok $? "$label: it went through the arbiter ($reqs request(s) from pid $CASE_PID)"
	else
		[ "$reqs" -eq 0 ]
		ok $? "$label: no arbiter request with the arbiter off"
	fi
	[ "$kills" -eq 0 ]
	ok $? "$label: nobody killed: the OOM notifier's ballast was enough ($kills kills)"
done

# !__GFP_FS: the stock path at once, never a wait on the arbiter.
for c in "gfp_nofs:0 drain,gfp_nofs" "nofs_scope:0 drain,nofs_scope"; do
	label=${c%%:*}
	alloc_case "$label" "${c#*:}"
	# oomwatch writes events in order, a moment later
	[ "$arbiter" = 1 ] && wait_event oom_fallback request_pid $CASE_PID 5
	sleep 1
	reqs=$(count_with oom_request request_pid $CASE_PID)
	# With the arbiter on, the request is traced and ends at once in a
	# fallback "nofs" (13) that waited 0 ms; off, nothing is traced.
	fb=$(grep '"type":"oom_fallback"' /tmp/ow.jsonl | grep "\"request_pid\":$CASE_PID[,}]" |
		sed -n 's/.*"reason":\([0-9]*\).*"waited_ms":\([0-9]*\).*/\1:\2/p' | tr '\n' ' ')
	want=; [ "$arbiter" = 1 ] && want="13:0 "
	[ "$CASE_RC" -eq 0 ] && [ "$fb" = "$want" ] && [ "$CASE_MS" -lt 3000 ] &&
		[ "${CASE_OOM:-0}" -gt 0 ]
	ok $? "$label: no wait on the arbiter ($reqs request(s), fallback reason:waited_ms '${fb% }', want '${want% }'), out_of_memory() ran (${CASE_OOM:-0} ballast pages), allocated in $CASE_MS ms"
done

# Fragmented: an order-2 allocation (not costly, so stock OOM-kills for
# it) in a zone whose free memory is order-0 pages, each with its buddy
# held by the module's unmovable ballast, in blocks compaction cannot
# fill.  kswapd sees the zone above its min watermark; the request must
# not be sent back to retry on pages it cannot use, each retry a new
# wait with a new clock, for ever (#13 item 1): it must resolve within
# the fallback bound (3 s here) plus 1 s.  The module gives the ballast
# back after 20 s whatever happens, so a failure ends ("released by the
# deadline").  What the case cannot hold is the fragmentation itself:
# the kernel frees blocks of orders 1-3 all the time (measured: 1 to 14
# of them back within a millisecond of draining every one, with kswapd
# idle), and the allocation then takes one; the module drains them
# every jiffy meanwhile and logs what was free, and the line below says
# whether out_of_memory() resolved it or a block did.
frag_fallback=3000
[ "$arbiter" = 1 ] && arbiter_set 1 "$timeout" $frag_fallback
c0=$(vmstat_get compact_stall) s0=$(vmstat_get compact_success)
alloc_case fragmented "2 frag,release_after=20000"
echo "# $(dmesg | grep "ow_alloc: pid $CASE_PID: fragmented" | tail -n 1)"
echo "# compaction during the case: $(($(vmstat_get compact_stall) - c0)) stalls, $(($(vmstat_get compact_success) - s0)) successes"
[ "$arbiter" = 1 ] && arbiter_set 1 "$timeout" "$fallback"
echo "# fragmented: resolved by $([ "${CASE_OOM:-0}" -gt 0 ] && echo "out_of_memory() (${CASE_OOM} ballast pages)" || echo "a free block (no OOM)")"
[ "$CASE_RC" -eq 0 ] && [ "${CASE_DEADLINE:-1}" -eq 0 ] &&
	[ "$CASE_MS" -le $((frag_fallback + 1000)) ]
ok $? "fragmented order 2: allocated ($CASE_RC) in $CASE_MS ms (want <= $((frag_fallback + 1000))), not by the test's deadline (${CASE_DEADLINE:-?} pages)"

# memcg OOM: the memcg OOM killer, never the arbiter.
cg=/sys/fs/cgroup
mkdir -p $cg && { grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg; } &&
	echo +memory >$cg/cgroup.subtree_control && mkdir -p $cg/ow-test &&
	echo 32M >$cg/ow-test/memory.max
ok $? "memcg ow-test with memory.max 32M"
t0=$(now_ms)
sh -c "echo \$\$ >$cg/ow-test/cgroup.procs && exec ow-hog -s 4 64" >/tmp/memcg.log 2>&1 &
memcg_hog=$!
wait $memcg_hog
memcg_rc=$?
ms=$(($(now_ms) - t0))
wait_event mark_victim victim_pid $memcg_hog 5
# The hog's own requests: a global request of another task meanwhile
# (memory still short after the cases before, on a slow kernel) is not
# the memcg OOM's.
reqs=$(count_with oom_request request_pid $memcg_hog)
victim=$(count_with mark_victim victim_pid $memcg_hog)
echo "# result: scenario=semantics arbiter=$arbiter case=memcg hog_rc=$memcg_rc ms=$ms requests=$reqs"
[ "$memcg_rc" -eq 137 ] && [ "$victim" -ge 1 ]
ok $? "memcg: the hog over memory.max was killed ($memcg_rc) in $ms ms"
[ "$reqs" -eq 0 ]
ok $? "memcg: no arbiter request ($reqs)"
oom_kills=$(awk '/^oom_kill / { print $2 }' $cg/ow-test/memory.events)
[ "${oom_kills:-0}" -ge 1 ]
ok $? "memcg: memory.events counts the kill (oom_kill ${oom_kills:-0})"
rmdir $cg/ow-test 2>/dev/null

# sysrq-f: a forced OOM kill, at once.
ow-hog -H 120 48 >/tmp/sysrq.log 2>&1 &
victim_pid=$!
wait_for /tmp/sysrq.log 30 "ow-hog: 48 MB"
t0=$(now_ms)
echo f >/proc/sysrq-trigger
wait $victim_pid
sysrq_rc=$?
ms=$(($(now_ms) - t0))
wait_event mark_victim victim_pid $victim_pid 5
# The killer is the sysrq worker: any request of its own would mean the
# forced kill went through the arbiter.
killer=$(grep '"type":"mark_victim"' /tmp/ow.jsonl |
	grep "\"victim_pid\":$victim_pid," | head -n 1 |
	sed -n 's/.*"pid":\([0-9]*\),.*"type".*/\1/p')
reqs=$(count_with oom_request request_pid "${killer:-0}")
echo "# result: scenario=semantics arbiter=$arbiter case=sysrq-f hog_rc=$sysrq_rc ms=$ms requests=$reqs"
[ "$sysrq_rc" -eq 137 ] && [ "$(count_with mark_victim victim_pid $victim_pid)" -ge 1 ]
ok $? "sysrq-f: the biggest task ($victim_pid) was killed ($sysrq_rc) in $ms ms"
[ "$reqs" -eq 0 ] && [ "$ms" -lt 3000 ]
ok $? "sysrq-f: no arbiter request by its killer (${killer:-?}: $reqs), no wait"

stop_oomwatch
grep -E '"type":"(oom_[a-z]*|mark_victim)"' /tmp/ow.jsonl |
	sed 's/"v":1,//; s/,"cpu":[0-9]*//; s/"tgid":[0-9]*,//' | sed 's/^/# /'
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch: no lost event, no set-up error (exit $OW_RC)"
grep -o '"type":"[a-z_]*"' /tmp/ow.jsonl | sort | uniq -c | sed 's/^/# /'
ktap_done
