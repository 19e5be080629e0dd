# token2004: the swap token's spurious OOM kill of 2004, in its own shape.
#
# A survivable workload (demand about 135% of MemAvailable against RAM and
# 512 MB of swap) in which the token holder ends up as the only memory
# reclaim could take:
#  - an "updater" maps 55% of MemAvailable and walks it over and over,
#    pausing 200 ms between passes (with 20 ms every page stays young and
#    stock 6.1 itself kills it in 1 run of 5: pause=20);
#  - it is stopped, and a transient hog of 85% pushes it into swap and
#    exits; continued, the updater faults its pages back and takes the
#    token on one of those faults;
#  - once resident it keeps walking without faulting: as in 2.6.9 it keeps
#    the token for as long as nobody else asks for it (the shell waits,
#    oomwatch is locked in memory, nothing samples);
#  - then a locked allocator grows to 80% of MemAvailable.
# Every kill is spurious: swap stays mostly free.  A run in which another
# process held the token at any time between the allocator's start and
# the kill (or its end) is not this story (this shell can, faulting its
# own pages back from swap): it is said and repeated, at most twice.
#
# OW_ARGS: mode=never|fix|aging|arbiter|off runs=N
#   never    token on, bypass never (-1): the 2004 configuration
#   fix      token on, bypass at priority 0 (Morton's fix)
#   aging    token on, bypass never, vm.swap_token_reclaim_aging=1
#   arbiter  token on, bypass never, vm.oom_arbiter=1 (Tosatti's remedy)
#   off      token off: stock 6.1
# Prints "# result: ..." lines.  fix, aging and off assert no kill and
# every invariant kept; never asserts the holder's kill only with assert=1
# (make test), and always that the replayed recording breaks token_yields
# exactly when a kill happened; arbiter only reports.
. /scenarios/lib.sh
parse_args
mode=${ARG_mode:-never}
runs=${ARG_runs:-1}
ktap_plan $((runs * 4 + 1))

swap_on_ok

token=1 bypass=-1 aging=0 arbiter=0
case $mode in
never) ;;
fix) bypass=0 ;;
aging) aging=1 ;;
arbiter) arbiter=1 ;;
off) token=0 bypass=0 ;;
*) echo "# unknown mode $mode"; exit 2 ;;
esac
sysctl_write page-cluster 0
sysctl_write swap_token $token && sysctl_write swap_token_bypass_priority $bypass &&
	sysctl_write swap_token_reclaim_aging $aging &&
	arbiter_set $arbiter 5000 10000 || diag "cannot set the sysctls"

avail=$(mem_available_mb)
upd_mb=$((avail * ${ARG_upd_pct:-55} / 100))
push_mb=$((avail * ${ARG_push_pct:-85} / 100))
lock_mb=$((avail * ${ARG_lock_pct:-80} / 100))
diag "mode $mode: MemAvailable $avail MB, updater $upd_mb MB, push $push_mb MB, locked allocator $lock_mb MB"

# The allocator runs from a ramfs copy (pinned_copy): started from the
# tmpfs initramfs it would fault its own text back from swap, challenge
# for the token and take it from the idle holder: not the 2004 shape,
# where the allocator never faulted.
HOG=$(pinned_copy ow-hog)
diag "the allocator runs as $HOG"

# token_holder_at NS: the tgid the recording says held the token at
# ts_ns NS (its last grab or release up to then), empty when nobody did.
token_holder_at() {
	awk -v at="$1" "$JSON_NUM"'
		(t = num("ts_ns")) < 0 { next }
		t > at { exit }
		/"type":"swap_token_release"/ { h = "" }
		/"type":"swap_token_grab"/ && num("token_tgid") >= 0 { h = num("token_tgid") }
		END { print h }' /tmp/ow.jsonl
}

run=1
attempt=0
total_kills=0
holder_kills=0
while [ $run -le $runs ]; do
	attempt=$((attempt + 1))
	start_oomwatch $ARG_flags
	ow-updater $upd_mb 1000000 ${ARG_pause:-200} >/dev/null 2>&1 &
	upd=$!
	sleep 3
	kill -STOP $upd
	ow-hog -s 16 $push_mb >/dev/null 2>&1
	pushed=$(vm_swap_kb $upd)
	kill -CONT $upd
	# It faults its pages back in, taking the token on one of them.
	[ "$token" = 1 ] &&
		wait_for /tmp/ow.jsonl 60 "swap_token_grab.*\"token_tgid\":$upd,"
	took=$?
	i=0
	while [ $i -lt 60 ] && [ "$(vm_swap_kb $upd)" -gt 1024 ]; do
		sleep 1
		i=$((i + 1))
	done
	resident_swap=$(vm_swap_kb $upd)
	sleep 2
	# The 2004 shape needs the holder unchallenged from the allocator's
	# start to its end or the kill.  This shell, swapped out by the push,
	# faults its pages (and busybox text: shmem swap-ins contend) back
	# with every command it runs, and would take the token from the idle
	# holder: so it runs none between here and the allocator's end.  The
	# allocator prints its start and end (CLOCK_MONOTONIC, the
	# recording's ts_ns), and the run is judged afterwards from the
	# recording.  A run that still is not the story is repeated, at most
	# twice.
	$HOG -l -s 4 -d 50 $lock_mb >/tmp/alloc.log 2>&1
	alloc_rc=$?
	start_ns=$(sed -n 's/^ow-hog: start_ns //p' /tmp/alloc.log)
	end_ns=$(sed -n 's/^ow-hog: end_ns //p' /tmp/alloc.log)
	swap_free=$(swap_free_mb)
	upd_swap=$(vm_swap_kb $upd)
	kill -0 $upd 2>/dev/null
	upd_alive=$?
	kill -9 $upd 2>/dev/null
	wait $upd 2>/dev/null
	sleep 1
	stop_oomwatch
	kills=$(count_events /tmp/ow.jsonl mark_victim)
	hk=$(count_with mark_victim victim_pid $upd)
	wall_s=$(awk -v s="${start_ns:-0}" -v e="${end_ns:-0}" \
		'BEGIN { print (e > s ? int((e - s) / 1e9 + 0.5) : "?") }')
	holder=$(token_holder_at "${start_ns:-0}")
	# Times the holder lost the token between the allocator's start and
	# its end or the first kill (an exit is the kill itself).
	lost=$(awk -v s="${start_ns:-0}" -v e="${end_ns:-0}" -v u="$upd" "$JSON_NUM"'
		(t = num("ts_ns")) < 0 || t <= s { next }
		e > 0 && t > e { exit }
		/"type":"mark_victim"/ { exit }
		/"type":"swap_token_release"/ && num("token_tgid") == u &&
		    !index($0, "\"reason_name\":\"exit\"") { n++ }
		END { print n + 0 }' /tmp/ow.jsonl)
	# With reclaim-side aging, losing the idle holder's token to
	# reclaim is the remedy under test, not a broken precondition.
	[ "$aging" = 1 ] && lost=0
	if [ "$token" = 1 ] && [ $attempt -le 2 ] &&
		{ [ "$took" -ne 0 ] || [ "$holder" != "$upd" ] || [ "$lost" -gt 0 ]; }; then
		diag "run $run attempt $attempt: not the 2004 shape (updater $upd took the token: $([ "$took" -eq 0 ] && echo yes || echo no), holder at the allocator's start ${holder:-nobody}, lost it $lost time(s) during the allocation, $kills kill(s)): repeated"
		grep -E '"type":"swap_token_(grab|release)"' /tmp/ow.jsonl |
			sed 's/"v":[0-9]*,//; s/,"cpu":[0-9]*//' | sed 's/^/# /'
		sleep 2
		continue
	fi
	if [ "$token" = 1 ]; then
		[ "$took" -eq 0 ] && [ "$holder" = "$upd" ] && [ "$lost" -eq 0 ]
		ok $? "run $run: the updater ($upd, $((${pushed:-0} / 1024)) MB in swap) took the token, held it when the allocator started (holder ${holder:-nobody}) and kept it to the end or the kill (lost $lost times; attempt $attempt)"
	else
		ok 0 "run $run: the updater ($upd, $((${pushed:-0} / 1024)) MB in swap) # SKIP token off"
	fi
	bypassed=$(count_events /tmp/ow.jsonl swap_token_bypass)
	requests=$(count_events /tmp/ow.jsonl oom_request)
	releases=$(grep '"type":"swap_token_release"' /tmp/ow.jsonl | grep -c "\"token_tgid\":$upd,")
	# Who held the token when: every grab and release of the run.
	grep -E '"type":"swap_token_(grab|release)"' /tmp/ow.jsonl |
		sed 's/"v":[0-9]*,//; s/"seq":[0-9]*,//; s/,"cpu":[0-9]*//' |
		sed 's/^/# /'
	# The recording, replayed: token_yields is the invariant of 2004.
	oomwatch --replay /tmp/ow.jsonl --assert >/tmp/replay.out 2>&1
	replay_rc=$?
	ty=$(grep -c "token_yields:" /tmp/replay.out)
	grep "token_yields:" /tmp/replay.out | head -n 2 | sed 's/^/# replay: /'
	total_kills=$((total_kills + kills))
	holder_kills=$((holder_kills + hk))
	result "scenario=token2004 mode=$mode run=$run kills=$kills holder_kills=$hk swap_free_mb=$swap_free alloc_rc=$alloc_rc wall_s=$wall_s bypass=$bypassed requests=$requests holder_releases=$releases upd_swap_kb_before=${resident_swap:-?} upd_swap_kb_after=${upd_swap:-gone} replay_rc=$replay_rc token_yields=$ty"
	grep '"type":"mark_victim"' /tmp/ow.jsonl | head -n 2 | sed 's/^/# /'
	grep -o '"type":"[a-z_]*"' /tmp/ow.jsonl | sort | uniq -c | sed 's/^/# /'
	case $mode in
	never)
		# The 2004 bug: the holder is killed while swap is mostly free.
		[ "$hk" -ge 1 ] && [ "$swap_free" -ge 256 ]
		st=$?
		msg="run $run: the OOM killer killed the token holder ($hk kill(s)) with $swap_free MB of swap free"
		if [ "${ARG_assert:-0}" = 1 ]; then
			ok $st "$msg"
		else
			ok 0 "$msg # SKIP reported, not asserted (assert=1 asserts)"
		fi
		# A kill with the token honoured at every priority is the
		# token's doing: the checker must say so, and only then.
		if [ "$kills" -ge 1 ]; then
			[ "$replay_rc" -eq 2 ] && [ "$ty" -ge 1 ]
		else
			[ "$replay_rc" -eq 0 ]
		fi
		ok $? "run $run: oomwatch --replay --assert: token_yields broken $ty time(s) for $kills kill(s) (exit $replay_rc)" ;;
	arbiter)
		# Tosatti's remedy alone: whatever it does is reported.
		ok 0 "run $run: $kills kill(s), $hk of the holder, $swap_free MB of swap free # SKIP reported, not asserted"
		ok 0 "run $run: oomwatch --replay --assert exit $replay_rc, token_yields broken $ty time(s) # SKIP reported, not asserted" ;;
	*)
		[ "$replay_rc" -eq 0 ]
		ok $? "run $run: oomwatch --replay --assert finds every invariant kept (exit $replay_rc, token_yields $ty)"
		[ "$kills" -eq 0 ] && [ "$alloc_rc" -eq 0 ]
		ok $? "run $run: no kill ($kills), the allocator completed ($alloc_rc)" ;;
	esac
	[ "$upd_alive" -eq 0 ] || [ "$hk" -ge 1 ]
	ok $? "run $run: the updater lived to the end of the run or was the victim"
	run=$((run + 1))
	attempt=0
done
result "scenario=token2004 mode=$mode runs=$runs kills=$total_kills holder_kills=$holder_kills"
ktap_done
