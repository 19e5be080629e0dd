# thrash: the OOM arbiter's thrash rule ends the classic freeze (#16).
#
# The freeze: the programs' 48 MB of text read 5 times a second, a hog
# that leaves room for half of it and holds its memory; no swap (the
# workload "freeze", lib.sh freeze_programs).  Nothing fails an
# allocation, so neither stock 6.1 nor the arbiter's first rule kills.
#
#  1. control, vm.oom_arbiter=1 with the thrash rule off, the hog held
#     HOLD_OFF s: nobody is killed, and the programs are frozen (their
#     median pass longer than their period, slow passes through all
#     but 5 s of the hold): the workload is the freeze, on this kernel;
#  2. the rule on (vm.oom_arbiter_thrash=1, vm.oom_thrash_timeout_ms
#     TIMEOUT): the node is marked thrashing, a kill is granted no sooner
#     than TIMEOUT and no later than TIMEOUT + 1 s after the first
#     thrashing window began, the hog and only it is killed, through an
#     allocation or a major fault that took the grant, within the same
#     TIMEOUT + 1 s (the freeze's bound, #16); the programs
#     run at their pace again; oomwatch --assert keeps every invariant;
#  3. at once a second freeze, the rule on: judged on its own evidence, a
#     new thrashing_set and the grant a timeout after its window began
#     (the node that went quiet after the first kill must not still be
#     "thrashing": the second run's text read back through the shadow
#     entries of the first once got a kill 6 s into it).
#  4. a true OOM without relief, the rule on: the programs and a hog that
#     grows 64 MB past RAM (the workload "filethrash"), no swap, no
#     dirty pages: the OOM requests take the stock path at once
#     (oom_fallback no_relief, not a wait of the unreclaimable timeout),
#     and the hog is killed within 1 s of the first request.
#  5. a survivable page-cache thrash, the rule on: a file of RAM + 64 MB
#     read with cat over and over for STREAM s (the workload "stream"),
#     no swap: its refaults match what reclaim takes, as in the freeze,
#     but they come through read(), not page faults: no thrashing_set,
#     no grant, nobody killed.
#  6. a big mapped reader, the rule on: the same file read through a
#     shared mapping (ow-mmap-read), in order then at random pages, STREAM
#     s each, no swap, as a database larger than memory reads it (sqlite
#     with mmap_size, LMDB): every page a major fault, refaulting as much
#     as the freeze, but from further away than anything a kill could
#     free: no thrashing_set, no grant, the reader never killed.
#  7. vm.panic_on_oom=1 and vm.oom_kill_allocating_task=1, the rule on, a
#     freeze: a thrash kill is not an OOM: the hog is killed, not the task
#     that took the grant, the kernel does not panic, and its log says the
#     kill was for thrashing.
#  8. a memory cgroup that thrashes inside its own memory.max (the
#     programs of the freeze with 24 MB for their 48 MB), beside global
#     reclaim of about 8 MB a second (a reader of the big file): the
#     cgroup's refaults are not the node's evidence: no thrashing_set, no
#     grant, nobody killed.
#  9. nothing eligible (every task oom_score_adj -1000), the rule on, a
#     freeze held 20 s: each grant is taken, finds no task to kill and is
#     dropped (oom_veto no_victim), with no "System is deadlocked on
#     memory" panic; the hog holds to the end of its hold.  Then no
#     reclaim pass comes (memory is free), and the node is still calm
#     again within 3 s of the hog's end (two windows and a second of
#     slack): a spell ends with the thrashing, not at the next reclaim
#     pass.
#
# OW_ARGS: timeout=MS hold=S hold_off=S stream=S (needs --data > RAM + 64)
#          panic=0 skips part 7 (on a kernel that would panic there, so
#          that part 8 still runs)
. /scenarios/lib.sh
parse_args
timeout=${ARG_timeout:-5000}
hold=${ARG_hold:-60}
hold_off=${ARG_hold_off:-30}
stream=${ARG_stream:-30}
panic=${ARG_panic:-1}
ktap_plan 29

[ -e /proc/sys/vm/oom_arbiter_thrash ]
ok $? "the kernel has the thrash rule (vm.oom_arbiter_thrash)" || {
	ktap_done
	exit 0
}
swap_off
arbiter_set 1 5000 10000 && sysctl_write oom_thrash_timeout_ms "$timeout" &&
	sysctl_write oom_arbiter_thrash 0
ok $? "knobs: vm.oom_arbiter=1, thrash rule off, vm.oom_thrash_timeout_ms=$timeout"
# The rule and the multi-gen LRU refuse each other (EBUSY), both ways.
lru=/sys/kernel/mm/lru_gen/enabled
if [ -w $lru ]; then
	echo y >$lru && ! sysctl_write oom_arbiter_thrash 1 &&
		[ "$(cat /proc/sys/vm/oom_arbiter_thrash)" = 0 ]
	r1=$?
	echo n >$lru && sysctl_write oom_arbiter_thrash 1 && ! echo y 2>/dev/null >$lru &&
		grep -q '^0x0000' $lru
	r2=$?
	sysctl_write oom_arbiter_thrash 0
	[ $r1 -eq 0 ] && [ $r2 -eq 0 ]
	ok $? "the thrash rule refused while lru_gen is enabled, lru_gen refused while the rule is ($r1, $r2)"
else
	ok 0 "multi-gen LRU: # SKIP no $lru"
fi

# One freeze: the programs, then the hog for $1 s, named $2 in the result
# line; the programs run ${3:-3} s after the hog.  Sets HOG, HOG_RC,
# STATS (freeze_stats) and leaves the recording in /tmp/ow.jsonl.
freeze_run() {
	local thr size t0 full end
	start_oomwatch --assert || diag "oomwatch did not attach"
	freeze_programs || return 1
	thr=$FREEZE_PROGRAMS
	size=$(freeze_hog_mb)
	t0=$(now_ms)
	ow-hog -s 4 -H "$1" $size >/tmp/hog.log 2>&1 &
	HOG=$!
	wait $HOG
	HOG_RC=$?
	# The programs' pace after the hog, whatever ended it.
	sleep "${3:-3}"
	kill $thr 2>/dev/null
	wait $thr
	sleep 1
	stop_oomwatch
	STATS=$(freeze_stats /tmp/exec-lat.log "$t0")
	# The passes of the hold alone: a frozen pass is long (0.7 s here,
	# 2.2 s on a lockdep kernel), so the fast passes while the hog grows
	# and in the 3 s after it can outnumber the hold's slow ones (on the
	# lockdep kernel 27 of 41: a median of 2 ms over the whole run).
	# Empty when the hog never held (killed while it grew).
	full=$(hog_ms full /tmp/hog.log)
	end=$(hog_ms end /tmp/hog.log)
	HOLD_P50=
	[ -n "$full" ] && HOLD_P50=$(freeze_stats /tmp/exec-lat.log \
		"$full" "${end:-0}" | sed -n 's/.*exec_p50_ms=\([0-9]*\).*/\1/p')
	echo "# result: scenario=thrash rule=$2 hog_mb=$size hog_rc=$HOG_RC kills=$(count_events /tmp/ow.jsonl mark_victim) $STATS hold_p50_ms=${HOLD_P50:--1} oomwatch_rc=$OW_RC"
}

taker() {	# the task that took the thrash grant: "comm(pid)"
	grep '"type":"oom_thrash_take"' /tmp/ow.jsonl | head -n 1 |
		sed -n 's/.*"take_pid":\([0-9]*\).*"take_comm":"\([^"]*\)".*/\2(\1)/p'
}

stat_of() {	# stat_of KEY: from STATS
	echo "$STATS" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"
}

# 1. The rule off: the freeze goes on for as long as the hog holds.
freeze_run "$hold_off" off
[ "$HOG_RC" -eq 0 ] && [ "$(count_events /tmp/ow.jsonl mark_victim)" -eq 0 ]
ok $? "rule off: nobody killed in ${hold_off} s of holding (hog exit $HOG_RC)"
# Frozen: half their passes during the hold longer than their 200 ms
# period (they run back to back and still fall behind, at a hundred
# times the 2-3 ms a pass takes without the hog), and slow passes for all
# but the first 5 s of the hold.  Measured medians: 0.7 s on one CPU,
# 0.33-0.36 s on two, where kswapd reclaims on the other CPU.
[ "${HOLD_P50:-0}" -ge 200 ] &&
	[ "$(stat_of freeze_ms)" -ge $(((hold_off - 5) * 1000)) ]
ok $? "rule off: the programs froze (median pass during the hold ${HOLD_P50:-?} ms, want >= 200; frozen $(stat_of freeze_ms) ms, want >= $(((hold_off - 5) * 1000)))"
cp /tmp/ow.jsonl /tmp/ow-off.jsonl

# 2. The rule on.
sysctl_write oom_arbiter_thrash 1
ok $? "thrash rule on"
freeze_run "$hold" on
t_set=$(first_ts /tmp/ow.jsonl thrashing_set)
t_grant=$(first_ts /tmp/ow.jsonl oom_thrash_grant)
t_take=$(first_ts /tmp/ow.jsonl oom_thrash_take)
t_kill=$(first_ts /tmp/ow.jsonl mark_victim)
window=$(grep '"type":"thrashing_set"' /tmp/ow.jsonl | head -n 1 |
	sed -n 's/.*"window_ms":\([0-9]*\).*/\1/p')
grep -E '"type":"(thrashing_[a-z]*|oom_thrash_[a-z]*|mark_victim)"' /tmp/ow.jsonl |
	head -n 8 | sed 's/^/# /'
[ -n "$t_set" ]
ok $? "rule on: the node was marked thrashing"
# The first thrashing window began window_ms before its set was traced.
since_start=-1 set_to_kill=-1
[ -n "$t_set" ] && [ -n "$t_grant" ] &&
	since_start=$(($(ms_between "$t_set" "$t_grant") + ${window:-0}))
[ -n "$t_set" ] && [ -n "$t_kill" ] &&
	set_to_kill=$(ms_between "$t_set" "$t_kill")
echo "# result: scenario=thrash rule=on grant_after_window_start_ms=$since_start set_to_kill_ms=$set_to_kill"
[ "$since_start" -ge $((timeout - JIFFY_MS)) ]
ok $? "rule on: the grant came $since_start ms after the first thrashing window began (want >= $timeout - $JIFFY_MS)"
[ -n "$t_take" ] && [ -n "$t_kill" ] && [ "$HOG_RC" -eq 137 ] &&
	[ "$(victim_pids)" = "$HOG " ]
ok $? "rule on: an allocation took the grant and the hog ($HOG), only it, was killed (victims: $(victim_pids), hog exit $HOG_RC)"
# The freeze must end within the timeout + 1 s of the first thrashing
# window: the grant is due at the first window to close after the
# timeout, and the kill at once, by a major fault of the stalled tasks
# if no other allocation comes first.  (With the slow path as the only
# taker, a grant waited 12 ms to 3.5 s: the programs' readahead is NOFS
# and never takes it.)
kill_after_start=-1 grant_to_kill=-1
[ -n "$t_set" ] && [ -n "$t_kill" ] &&
	kill_after_start=$((set_to_kill + ${window:-0}))
[ -n "$t_grant" ] && [ -n "$t_kill" ] &&
	grant_to_kill=$(ms_between "$t_grant" "$t_kill")
echo "# result: scenario=thrash rule=on grant_to_kill_ms=$grant_to_kill kill_after_window_start_ms=$kill_after_start taker=$(taker)"
[ "$kill_after_start" -ge 0 ] && [ "$kill_after_start" -le $((timeout + 1000 * SLOW)) ]
ok $? "rule on: the hog killed $kill_after_start ms after the first thrashing window began (want <= $((timeout + 1000 * SLOW)); grant $since_start ms, kill $grant_to_kill ms after it, taken by $(taker))"
# After the kill the programs keep their period: their last passes.
tail -n 5 /tmp/exec-lat.log | awk '$2 >= 200 { slow++ } END { exit slow > 0 }'
ok $? "rule on: the programs run at their pace again (last 5 passes: $(tail -n 5 /tmp/exec-lat.log | awk '{ printf "%s ", $2 }')ms)"
[ "$OW_RC" -eq 0 ]
ok $? "rule on: oomwatch --assert: every invariant kept (exit $OW_RC)"
grep -i violat /tmp/ow.err | head -n 5 | sed 's/^/# /'

# 3. Again, at once.
freeze_run "$hold" again
t_set=$(first_ts /tmp/ow.jsonl thrashing_set)
t_grant=$(first_ts /tmp/ow.jsonl oom_thrash_grant)
window=$(grep '"type":"thrashing_set"' /tmp/ow.jsonl | head -n 1 |
	sed -n 's/.*"window_ms":\([0-9]*\).*/\1/p')
since_start=-1
t_kill=$(first_ts /tmp/ow.jsonl mark_victim)
kill_after_start=-1
[ -n "$t_set" ] && [ -n "$t_grant" ] &&
	since_start=$(($(ms_between "$t_set" "$t_grant") + ${window:-0}))
[ -n "$t_set" ] && [ -n "$t_kill" ] &&
	kill_after_start=$(($(ms_between "$t_set" "$t_kill") + ${window:-0}))
echo "# result: scenario=thrash rule=again grant_after_window_start_ms=$since_start kill_after_window_start_ms=$kill_after_start taker=$(taker)"
[ -n "$t_set" ] && [ "$since_start" -ge $((timeout - JIFFY_MS)) ] &&
	[ "$kill_after_start" -ge 0 ] &&
	[ "$kill_after_start" -le $((timeout + 1000 * SLOW)) ]
ok $? "again: a new thrashing_set, the grant $since_start ms after its window began (want >= $timeout - $JIFFY_MS), the kill $kill_after_start ms (want <= $((timeout + 1000 * SLOW)))"
[ "$HOG_RC" -eq 137 ] && [ "$OW_RC" -eq 0 ]
ok $? "again: the hog killed (exit $HOG_RC), every invariant kept (exit $OW_RC)"

# 4. A true OOM where nothing can relieve the node: no wait.
start_oomwatch --assert || diag "oomwatch did not attach"
freeze_programs
thr=$FREEZE_PROGRAMS
ow-hog -s 4 $(($(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) + 64)) \
	>/tmp/hog.log 2>&1 &
HOG=$!
wait $HOG
HOG_RC=$?
kill $thr 2>/dev/null
wait $thr
sleep 1
stop_oomwatch
t_req=$(first_ts /tmp/ow.jsonl oom_request)
t_kill=$(first_ts /tmp/ow.jsonl mark_victim)
grep -E '"type":"(oom_request|oom_fallback|oom_grant|mark_victim)"' /tmp/ow.jsonl |
	head -n 6 | sed 's/^/# /'
req_to_kill=-1
[ -n "$t_req" ] && [ -n "$t_kill" ] && req_to_kill=$(ms_between "$t_req" "$t_kill")
echo "# result: scenario=thrash rule=no_relief hog_rc=$HOG_RC request_to_kill_ms=$req_to_kill"
grep '"type":"oom_fallback"' /tmp/ow.jsonl | head -n 1 |
	grep -q '"reason":19,' &&
	! grep -q '"type":"oom_grant"' /tmp/ow.jsonl
ok $? "no relief: the OOM request took the stock path at once (oom_fallback reason 19, no_relief; no grant awaited)"
[ "$HOG_RC" -eq 137 ] && [ "$req_to_kill" -ge 0 ] && [ "$req_to_kill" -le $((1000 * SLOW)) ] &&
	[ "$OW_RC" -eq 0 ]
ok $? "no relief: the hog killed $req_to_kill ms after the first request (want <= $((1000 * SLOW)); hog exit $HOG_RC), every invariant kept (exit $OW_RC)"

# 5. A file larger than memory read over and over: no freeze, no kill.
stream_file
start_oomwatch --assert || diag "oomwatch did not attach"
k0=$(vmstat_get oom_kill) t0=$(now_ms) passes=0
fault_rates_start
while [ $(($(now_ms) - t0)) -lt $((stream * 1000)) ]; do
	cat "$STREAM_FILE" >/dev/null || break
	passes=$((passes + 1))
done
ms=$(($(now_ms) - t0))
rates=$(fault_rates)
sleep 1
stop_oomwatch
kills=$(($(vmstat_get oom_kill) - k0))
echo "# result: scenario=thrash rule=stream stream_mb=$STREAM_MB passes=$passes $rates kills=$kills"
[ "$passes" -ge 2 ]
ok $? "stream: $STREAM_MB MB read $passes times in $ms ms (want 2 or more: every pass after the first refaults)"
[ "$kills" -eq 0 ] && ! grep -qE '"type":"(thrashing_set|oom_thrash_grant)"' /tmp/ow.jsonl &&
	[ "$OW_RC" -eq 0 ]
ok $? "stream: no thrashing_set, no thrash grant, nobody killed ($kills), every invariant kept (exit $OW_RC)"

# 6. The same file through a shared mapping: every page a major fault.
half=$(((stream + 1) / 2))
start_oomwatch --assert || diag "oomwatch did not attach"
k0=$(vmstat_get oom_kill)
fault_rates_start
ow-mmap-read "$STREAM_FILE" "$half" >/tmp/mmr-seq.log 2>&1
seq_rc=$?
ow-mmap-read -r "$STREAM_FILE" "$half" >/tmp/mmr-rand.log 2>&1
rand_rc=$?
rates=$(fault_rates)
sleep 1
stop_oomwatch
kills=$(($(vmstat_get oom_kill) - k0))
echo "# result: scenario=thrash rule=mmap stream_mb=$STREAM_MB seq_rc=$seq_rc rand_rc=$rand_rc $(cat /tmp/mmr-seq.log | tr '\n' ' ')/ $(cat /tmp/mmr-rand.log | tr '\n' ' ') $rates kills=$kills"
grep -E '"type":"(thrashing_[a-z]*|oom_thrash_[a-z]*)"' /tmp/ow.jsonl | head -n 4 | sed 's/^/# /'
[ "$seq_rc" -eq 0 ] && [ "$rand_rc" -eq 0 ] && [ "$kills" -eq 0 ]
ok $? "mmap: the reader of $STREAM_MB MB through a mapping, in order and at random, $half s each, never killed (exit $seq_rc, $rand_rc; kills $kills)"
! grep -qE '"type":"(thrashing_set|oom_thrash_grant)"' /tmp/ow.jsonl && [ "$OW_RC" -eq 0 ]
ok $? "mmap: no thrashing_set, no thrash grant, every invariant kept (exit $OW_RC)"

# 7. panic_on_oom: a thrash kill is not an OOM.
if [ "$panic" = 1 ]; then
	dmesg -c >/dev/null 2>&1
	sysctl_write panic_on_oom 1 && sysctl_write oom_kill_allocating_task 1
	ok $? "vm.panic_on_oom=1, vm.oom_kill_allocating_task=1"
	freeze_run "$hold" panic_on_oom
	sysctl_write panic_on_oom 0
	sysctl_write oom_kill_allocating_task 0
	[ "$HOG_RC" -eq 137 ] && [ "$(victim_pids)" = "$HOG " ] && [ "$OW_RC" -eq 0 ]
	ok $? "panic_on_oom=1: no panic, the hog ($HOG), only it, killed, not the taker $(taker) (victims: $(victim_pids), hog exit $HOG_RC), every invariant kept (exit $OW_RC)"
	dmesg | grep -E 'oom_arbiter: node|Out of memory \(thrashing\)' | head -n 2 | sed 's/^/# /'
	dmesg | grep -q 'oom_arbiter: node [0-9]* thrashing' &&
		dmesg | grep -q 'Out of memory (thrashing): Killed process'
	ok $? "panic_on_oom=1: the kernel log says the kill was for thrashing, and why"
else
	for t in 1 2 3; do ok 0 "panic_on_oom: # SKIP panic=0"; done
fi

# 8. A memory cgroup thrashing inside its own limit, beside global reclaim.
cg=/sys/fs/cgroup
mkdir -p $cg && { grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg; }
echo +memory >$cg/cgroup.subtree_control 2>/dev/null
mkdir -p $cg/ow-thrash && echo 24M >$cg/ow-thrash/memory.max
ok $? "memcg ow-thrash with memory.max 24M"
start_oomwatch --assert || diag "oomwatch did not attach"
k0=$(vmstat_get oom_kill)
echo 1 >/proc/sys/vm/drop_caches
sh -c "echo \$\$ >$cg/ow-thrash/cgroup.procs && exec ow-exec-thrash /mnt/data/text 5 /tmp/exec-cg.log" >/dev/null 2>&1 &
cgthr=$!
# Global reclaim: the big file read 8 MB a second, in a loop.
fault_rates_start
t0=$(now_ms) i=0
while [ $(($(now_ms) - t0)) -lt $((stream * 1000)) ]; do
	dd if="$STREAM_FILE" of=/dev/null bs=1M count=8 skip=$i 2>/dev/null
	i=$(((i + 8) % (STREAM_MB - 8)))
	sleep 1
done
rates=$(fault_rates)
kill $cgthr 2>/dev/null
wait $cgthr
sleep 1
stop_oomwatch
kills=$(($(vmstat_get oom_kill) - k0))
cg_refaults=$(awk '/^workingset_refault_file/ { print $2 }' $cg/ow-thrash/memory.stat)
echo "# result: scenario=thrash rule=memcg cg_refault_file=$cg_refaults passes=$(wc -l </tmp/exec-cg.log) $rates kills=$kills"
grep -E '"type":"(thrashing_[a-z]*|oom_thrash_[a-z]*)"' /tmp/ow.jsonl | head -n 4 | sed 's/^/# /'
[ "${cg_refaults:-0}" -ge $((stream * 1024)) ]
ok $? "memcg: the cgroup thrashed in its own limit ($cg_refaults file refaults in $stream s, want >= $((stream * 1024)): 4 MB a second)"
[ "$kills" -eq 0 ] && ! grep -qE '"type":"(thrashing_set|oom_thrash_grant)"' /tmp/ow.jsonl &&
	[ "$OW_RC" -eq 0 ]
ok $? "memcg: its refaults are not the node's: no thrashing_set, no thrash grant, nobody killed ($kills), every invariant kept (exit $OW_RC)"
rmdir $cg/ow-thrash 2>/dev/null

# 9. Nothing eligible: the grant is dropped, the kernel does not panic.
# The shell's -1000 is inherited by everything the freeze starts.
echo -1000 >/proc/self/oom_score_adj
freeze_run 20 no_victim 6
echo 0 >/proc/self/oom_score_adj
drops=$(grep '"type":"oom_veto"' /tmp/ow.jsonl | grep -c '"reason":20,')
grep -E '"type":"(oom_thrash_[a-z]*|oom_veto)"' /tmp/ow.jsonl | head -n 3 | sed 's/^/# /'
echo "# result: scenario=thrash rule=no_victim hog_rc=$HOG_RC drops=$drops kills=$(count_events /tmp/ow.jsonl mark_victim)"
[ "$drops" -ge 1 ] && [ "$(count_events /tmp/ow.jsonl mark_victim)" -eq 0 ]
ok $? "nothing eligible: $drops thrash grant(s) taken and dropped (oom_veto no_victim), nobody killed, no panic"
[ "$HOG_RC" -eq 0 ] && [ "$OW_RC" -eq 0 ]
ok $? "nothing eligible: the hog held to the end (exit $HOG_RC), every invariant kept (exit $OW_RC)"
# The node thrashed until the hog exited; then no reclaim pass closes a
# window, as memory is free.  The spell must still end: no later than
# two windows (a longer one never thrashes) after the last one closed,
# itself before the hog's end, not at the next reclaim pass, which here
# never comes (the node stayed "thrashing" through the next workload).
last=$(grep -E '"type":"thrashing_(set|clear)"' /tmp/ow.jsonl | tail -n 1)
last_type=$(echo "$last" | sed -n 's/.*"type":"\([a-z_]*\)".*/\1/p')
hog_end=$(sed -n 's/^ow-hog: end_ns \([0-9]*\)$/\1/p' /tmp/hog.log | head -n 1)
after=-1
[ "$last_type" = thrashing_clear ] && [ -n "$hog_end" ] &&
	after=$(ms_between "$hog_end" "$(echo "$last" | sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p')")
echo "$last" | sed 's/^/# /'
echo "# result: scenario=thrash rule=no_victim_end last=${last_type:-none} clear_after_hog_ms=$after"
[ "$last_type" = thrashing_clear ] && [ "$after" -le $((2000 + 1000 * SLOW)) ]
ok $? "nothing eligible: the node was calm again $after ms after the hog's end, with no reclaim since (last: ${last_type:-none}; want a thrashing_clear within $((2000 + 1000 * SLOW)) ms)"
ktap_done
