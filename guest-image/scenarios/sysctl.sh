# sysctl: the series' knobs (token, arbiter, thrash rule) have their documented defaults, reject
# out-of-range values with EINVAL keeping the old value, refuse to mix the
# swap token with the multi-gen LRU, and the token never outlives its
# holder (released on exit and on timeout, checked through tracefs).
. /scenarios/lib.sh
ktap_plan 28
T=/sys/kernel/tracing

check_default() {	# NAME VALUE
	[ "$(cat /proc/sys/vm/$1 2>/dev/null)" = "$2" ]
	ok $? "vm.$1 defaults to $2"
}

# reject NAME BAD...: every write fails and the value stays.
reject() {
	local name=$1 old bad status=0
	shift
	old=$(cat /proc/sys/vm/$name)
	for bad in "$@"; do
		if sysctl_write "$name" "$bad"; then
			diag "vm.$name accepted '$bad'"
			status=1
		fi
		[ "$(cat /proc/sys/vm/$name)" = "$old" ] || status=1
	done
	ok $status "vm.$name rejects $* and keeps $old"
}

check_default swap_token 0
check_default swap_token_bypass_priority 0
check_default swap_token_timeout_ms 300000
check_default swap_token_reclaim_aging 0
check_default oom_arbiter 0
check_default oom_unreclaimable_timeout_ms 5000
check_default oom_arbiter_fallback_ms 10000
check_default oom_arbiter_thrash 0
check_default oom_thrash_timeout_ms 10000
reject swap_token 2 -1 abc
reject swap_token_bypass_priority -2 13 x
reject swap_token_timeout_ms 99 3600001 -5
reject swap_token_reclaim_aging 2 -1 yes
reject oom_arbiter 2 -1 on
reject oom_unreclaimable_timeout_ms -1 600001 5s
reject oom_arbiter_fallback_ms 99 600001 -7
reject oom_arbiter_thrash 2 -1 on
reject oom_thrash_timeout_ms -1 600001 10s

# In range: taken.
sysctl_write oom_arbiter_thrash 1 && sysctl_write oom_arbiter_thrash 0 &&
	sysctl_write oom_thrash_timeout_ms 0 && sysctl_write oom_thrash_timeout_ms 10000
ok $? "vm.oom_arbiter_thrash takes 1 and 0, vm.oom_thrash_timeout_ms 0 and 10000"

# In range: taken.
sysctl_write swap_token_bypass_priority -1 &&
	[ "$(cat /proc/sys/vm/swap_token_bypass_priority)" = -1 ] &&
	sysctl_write swap_token_bypass_priority 0
ok $? "vm.swap_token_bypass_priority takes -1 (never) and 0"

# The token and the multi-gen LRU refuse each other.
sysctl_write swap_token 1 && ! echo y 2>/dev/null >/sys/kernel/mm/lru_gen/enabled
ok $? "lru_gen cannot be enabled while vm.swap_token=1"
sysctl_write swap_token 0 && echo y >/sys/kernel/mm/lru_gen/enabled &&
	! sysctl_write swap_token 1 && [ "$(cat /proc/sys/vm/swap_token)" = 0 ]
ok $? "vm.swap_token=1 refused (EBUSY) while lru_gen is enabled"
echo n >/sys/kernel/mm/lru_gen/enabled

# The holder's life: grab on swap-in, release on timeout and on exit.
swap_on
# Only the token's moves: per-pass events could overwrite them.
echo 1 >$T/events/oomwatch/swap_token_grab/enable
echo 1 >$T/events/oomwatch/swap_token_release/enable
echo >$T/trace
sysctl_write swap_token 1
sysctl_write swap_token_timeout_ms 1000
avail=$(mem_available_mb)
ow-updater $((avail * 70 / 100)) 1000 >/tmp/upd.log 2>&1 &
upd=$!
ow-hog -s 4 -H 600 $((avail * 40 / 100)) >/tmp/hog.log 2>&1 &
hog=$!
wait_for $T/trace 60 "swap_token_grab"
ok $? "a thrashing process takes the token (swap_token_grab)"
wait_for $T/trace 30 "swap_token_release.*reason=expired"
ok $? "the holder loses it after vm.swap_token_timeout_ms (reason=expired)"
# A fresh holder with a long timeout; killing it must release the token.
sysctl_write swap_token_timeout_ms 300000
echo >$T/trace
# The first holder after the clear that is not this shell or init: the
# shell's own short-lived children (grep, sleep) fault from swap too and
# often take the token before the updater or the hog; they exit by
# themselves.  The updater or the hog is killed; any other holder must
# be gone within 5 s.  (Taking the first grab, a make test run killed
# this shell, pid 65, as "the holder".)
holder= i=0
while [ $i -lt 300 ] && [ -z "$holder" ]; do
	holder=$(grep -o 'swap_token_grab: tgid=[0-9]*' $T/trace | cut -d= -f2 |
		grep -vxE "$$|1" | head -n 1)
	[ -n "$holder" ] || sleep 0.1
	i=$((i + 1))
done
diag "holder: ${holder:-none in 30 s} (updater $upd, hog $hog, this shell $$)"
case " $upd $hog " in
*" $holder "*) kill -9 "$holder" && wait "$holder" 2>/dev/null ;;	# no zombie
esac
i=0
while [ -n "$holder" ] && [ -d /proc/$holder ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
[ -n "$holder" ] && [ ! -d /proc/$holder ] &&
	grep -q "swap_token_release: tgid=$holder .*reason=exit" $T/trace
ok $? "the holder's exit releases the token (reason=exit, tgid ${holder:-none})"
kill -9 $upd $hog 2>/dev/null
wait $upd $hog 2>/dev/null
sysctl_write swap_token 0
# The token's last move must be a release: nobody holds it any more.
last=$(grep -o 'swap_token_[a-z]*' $T/trace | tail -n 1)
[ "$last" = swap_token_release ]
ok $? "the token's last move is a release ($last): no dangling holder"
grep swap_token_ $T/trace | head -n 8 | sed 's/^/# /'

# Who judges an idle holder.  As in 2.6.9 only a process that asks for
# the token (a major fault) may take it from a holder that stopped
# faulting: a release "idle" then comes with the challenger's grab naming
# the holder as prev_tgid.  With vm.swap_token_reclaim_aging reclaim takes
# it by itself, nobody asking: a release "idle" without such a grab.
# idle_holder AGING: a thrashing updater and hog contend for the token;
# the one that takes it is stopped (idle from then on) and the other
# killed; a locked allocator (no swap-in) grows to 90% of MemAvailable at
# 10 MB/s and memory.reclaim asks for 64 MB three times, 3 s apart.
# Sets HOLDER, RELEASED (its releases "idle") and CHALLENGED (grabs that
# took it from it as idle).
idle_holder() {
	local i=0 other
	sysctl_write swap_token_reclaim_aging "$1" && sysctl_write swap_token 1
	echo >$T/trace
	ow-updater $((avail * 70 / 100)) 1000 >/tmp/upd.log 2>&1 &
	upd=$!
	ow-hog -s 4 -H 600 $((avail * 40 / 100)) >/tmp/hog.log 2>&1 &
	hog=$!
	HOLDER=
	while [ $i -lt 600 ]; do
		HOLDER=$(grep -o 'swap_token_grab: tgid=[0-9]*' $T/trace | tail -n 1 | cut -d= -f2)
		[ "$HOLDER" = $upd ] || [ "$HOLDER" = $hog ] && break
		sleep 0.1
		i=$((i + 1))
	done
	other=$hog
	[ "$HOLDER" = $hog ] && other=$upd
	kill -STOP "$HOLDER" 2>/dev/null
	kill -9 $other 2>/dev/null
	wait $other 2>/dev/null
	sleep 1
	echo >$T/trace
	$LOCK_HOG -l -s 2 -d 200 -H 5 $((avail * 90 / 100)) >/tmp/lock.log 2>&1 &
	lock=$!
	# Reclaim passes for sure, three times 3 s apart (an idle check
	# needs two, an interval apart): memory.reclaim runs shrink_node()
	# like any reclaim.  Nobody else may fault meanwhile, or a
	# challenger could judge the holder first: the shell, swapped out,
	# faults its pages back with every command it runs.  So one locked
	# program, started from ramfs, drives the passes and the wait after
	# them, while the shell waits for it.
	$RECLAIM -n 3 -i 3000 -w 6000 $CG/memory.reclaim 64M >/tmp/reclaim.log 2>&1
	kill -9 $upd $hog $lock 2>/dev/null
	wait $upd $hog $lock 2>/dev/null
	sysctl_write swap_token 0
	RELEASED=$(grep -c "swap_token_release: tgid=$HOLDER .*reason=idle" $T/trace)
	CHALLENGED=$(grep -c "swap_token_grab: .*prev_tgid=$HOLDER reason=idle" $T/trace)
	grep swap_token_ $T/trace | head -n 4 | sed 's/^/# /'
}
CG=/sys/fs/cgroup
mkdir -p $CG && { grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG; }
LOCK_HOG=$(pinned_copy ow-hog)
RECLAIM=$(pinned_copy ow-reclaim)
idle_holder 0
[ -n "$HOLDER" ] && [ "$RELEASED" -eq "$CHALLENGED" ]
ok $? "aging off: an idle holder ($HOLDER) loses the token only to a challenger (released idle $RELEASED, taken by a grab $CHALLENGED)"
# A challenger's fault may still come first (the shell's commands between
# the stop and the allocator): that round shows nothing either way, so
# up to 3 rounds, judged on the first that was not a challenge.
round=1
while :; do
	idle_holder 1
	[ "$RELEASED" -ge 1 ] && [ "$RELEASED" -eq "$CHALLENGED" ] &&
		[ $round -lt 3 ] || break
	diag "round $round: a challenger took the token first; again"
	round=$((round + 1))
done
[ -n "$HOLDER" ] && [ "$RELEASED" -ge 1 ] && [ "$CHALLENGED" -lt "$RELEASED" ]
ok $? "aging on: reclaim takes the token from the idle holder ($HOLDER) with nobody asking (released idle $RELEASED, taken by a grab $CHALLENGED; round $round)"
sysctl_write swap_token_reclaim_aging 0
echo 0 >$T/events/oomwatch/enable
ktap_done
