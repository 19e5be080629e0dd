# KTAP helpers for guest scenarios (sourced).
#
#   ktap_plan N; ok COND_STATUS "description"; ktap_done
# A scenario ends with `ktap_done`, which prints the totals and returns
# non-zero when anything failed.
OW_PASS=0
OW_FAIL=0
OW_N=0

ktap_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

# ok STATUS DESCRIPTION: STATUS 0 is a pass.
ok() {
	OW_N=$((OW_N + 1))
	if [ "$1" -eq 0 ]; then
		OW_PASS=$((OW_PASS + 1))
		echo "ok $OW_N $2"
	else
		OW_FAIL=$((OW_FAIL + 1))
		echo "not ok $OW_N $2"
	fi
}

diag() { echo "# $*"; }

ktap_done() {
	echo "# $OW_PASS passed, $OW_FAIL failed"
	[ "$OW_FAIL" -eq 0 ]
}

# Wait up to $2 seconds (tenths resolution) for file $1 to contain $3.
wait_for() {
	local i=0
	while [ $i -lt $(($2 * 10)) ]; do
		grep -q "$3" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Start oomwatch in the background writing JSON lines to $1; wait until
# it has attached.  Sets OW_PID.
start_oomwatch() {
	oomwatch -j "$@" >/tmp/ow.jsonl 2>/tmp/ow.err &
	OW_PID=$!
	wait_for /tmp/ow.err 20 "oomwatch: tracing"
}

stop_oomwatch() {
	kill -INT "$OW_PID" 2>/dev/null
	wait "$OW_PID"
	OW_RC=$?
}

# Parse OW_ARGS ("key=value ...") into ARG_key variables.
parse_args() {
	local kv
	for kv in $OW_ARGS; do
		case $kv in
		*=*) eval "ARG_${kv%%=*}=\"${kv#*=}\"" ;;
		esac
	done
}

# disk_by_serial NAME: the virtio disk qemu-run gave that serial (swap,
# data), e.g. /dev/vdb.
disk_by_serial() {
	local s
	for s in /sys/block/vd*/serial; do
		[ "$(cat "$s" 2>/dev/null)" = "$1" ] || continue
		s=${s%/serial}
		echo "/dev/${s##*/}"
		return 0
	done
	return 1
}

# Turn the swap disk into swap, if there is one.
swap_on() {
	local d
	d=$(disk_by_serial swap) || return 1
	grep -q "^$d " /proc/swaps && return 0
	mkswap "$d" >/dev/null && swapon "$d"
}

swap_off() {
	swapoff -a 2>/dev/null
}

# mount_data DIR: an ext2 file system on the data disk, mounted at DIR.
mount_data() {
	local d
	grep -q " $1 " /proc/mounts && return 0
	d=$(disk_by_serial data) || return 1
	mkdir -p "$1" && mke2fs -q "$d" >/dev/null 2>&1 && mount "$d" "$1"
}

# Sample swap in use (kB) every half second into $1 until stopped.
swap_sampler_start() {
	(while :; do
		awk '/^SwapTotal/ { t = $2 } /^SwapFree/ { f = $2 }
		     END { print t - f }' /proc/meminfo
		sleep 0.5
	done) >"$1" &
	SAMPLER=$!
}

swap_sampler_stop() {
	kill "$SAMPLER" 2>/dev/null
	wait "$SAMPLER" 2>/dev/null
	sort -n "$1" | tail -n 1
}

mem_available_mb() {
	awk '/^MemAvailable/ { print int($2 / 1024) }' /proc/meminfo
}

# Count the JSON lines of one event type in an oomwatch recording.
count_events() {
	grep -c "\"type\":\"$2\"" "$1"
}

# sysctl_write NAME VALUE: 0 when the kernel took it.
sysctl_write() {
	echo "$2" 2>/dev/null >"/proc/sys/vm/$1"
}

# The ts_ns of the first event of type $2 in recording $1 (empty if none).
first_ts() {
	grep "\"type\":\"$2\"" "$1" | head -n 1 |
		sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p'
}

# Milliseconds between two ts_ns values.
ms_between() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) / 1000000 }'
}

# Arbiter knobs: arbiter_set ON TIMEOUT_MS FALLBACK_MS
arbiter_set() {
	sysctl_write oom_arbiter "$1" &&
	sysctl_write oom_unreclaimable_timeout_ms "$2" &&
	sysctl_write oom_arbiter_fallback_ms "$3"
}

# Milliseconds since boot (busybox date has no %N; /proc/uptime has 10 ms).
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# wait_event TYPE FIELD VALUE SECS: wait until /tmp/ow.jsonl holds an event
# of TYPE whose FIELD is VALUE (oomwatch orders events in a short window
# before it writes them).
wait_event() {
	wait_for /tmp/ow.jsonl "$4" "\"type\":\"$1\".*\"$2\":$3[,}]"
}

# count_with TYPE FIELD VALUE: events of TYPE in /tmp/ow.jsonl whose FIELD
# is VALUE.
count_with() {
	grep "\"type\":\"$1\"" /tmp/ow.jsonl | grep -c "\"$2\":$3[,}]"
}

# The pids oom:mark_victim named in /tmp/ow.jsonl, in order, each followed
# by a space.
victim_pids() {
	grep '"type":"mark_victim"' /tmp/ow.jsonl |
		sed -n 's/.*"victim_pid":\([0-9]*\).*/\1/p' | tr '\n' ' '
}

# end_bystander PID: was it still alive (0) or not (1)?  Ends it either way.
end_bystander() {
	local alive
	kill -0 "$1" 2>/dev/null
	alive=$?
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return $alive
}

# Is this our patched kernel (its sysctls), or stock 6.1?
patched_kernel() {
	[ -e /proc/sys/vm/oom_arbiter ] && [ -e /proc/sys/vm/swap_token ]
}

# mode_apply MODE: set the kernel (and user space) up for one column of
# the matrix and the benchmarks.
#   stock        every knob off (on the patched kernel: its defaults)
#   token-never  swap token on, bypass never: the 2004 configuration
#   token        swap token on, bypass at priority 0: the 2004 fix
#   arbiter      the OOM arbiter alone
#   all          token with bypass, and the arbiter
#   token-aging  token on, bypass never, reclaim-side aging: the third
#                remedy on its own
#   arbiter-never  the arbiter with the token of 2004 (bypass never):
#                Tosatti's remedy on its own
#   mglru        multi-gen LRU on, thrashing prevention min_ttl_ms=1000
#   earlyoom     earlyoom running with its default settings
# Returns non-zero, with a diagnostic, when this kernel cannot do MODE.
mode_apply() {
	local token=0 bypass=0 arbiter=0 aging=0
	case $1 in
	stock|mglru|earlyoom) ;;
	token-never) token=1 bypass=-1 ;;
	token) token=1 ;;
	token-aging) token=1 bypass=-1 aging=1 ;;
	arbiter) arbiter=1 ;;
	arbiter-never) token=1 bypass=-1 arbiter=1 ;;
	all) token=1 arbiter=1 ;;
	*) diag "mode_apply: unknown mode '$1'"; return 2 ;;
	esac
	if patched_kernel; then
		sysctl_write swap_token 0 && sysctl_write oom_arbiter $arbiter &&
		sysctl_write swap_token_bypass_priority $bypass &&
		sysctl_write swap_token_reclaim_aging $aging || return 1
	elif [ $token = 1 ] || [ $arbiter = 1 ]; then
		diag "mode $1 needs the patched kernel"
		return 1
	fi
	case $1 in
	mglru)
		echo y >/sys/kernel/mm/lru_gen/enabled &&
		echo 1000 >/sys/kernel/mm/lru_gen/min_ttl_ms ;;
	earlyoom)
		earlyoom >/tmp/earlyoom.log 2>&1 &
		EARLYOOM_PID=$!
		wait_for /tmp/earlyoom.log 20 "mem total" ;;
	*)
		[ $token = 0 ] || sysctl_write swap_token 1 ;;
	esac
}

# broken_invariants FILE: the invariants an `oomwatch -j` recording's
# summary (its last line) counts violations of, comma-separated.
broken_invariants() {
	tail -n 1 "$1" | sed -n 's/.*"violations":{\([^}]*\)}.*/\1/p' |
		tr ',' '\n' | sed -n 's/^"\([a-z_]*\)":[1-9][0-9]*$/\1/p' |
		tr '\n' ',' | sed 's/,$//'
}

# Processes earlyoom has signalled so far.
earlyoom_kills() {
	[ -r /tmp/earlyoom.log ] || { echo 0; return; }
	sed -n 's/.*sending SIG[A-Z]* to process \([0-9]*\).*/\1/p' \
		/tmp/earlyoom.log | sort -u | wc -l
}

# vmstat_get NAME: a /proc/vmstat counter.
vmstat_get() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

swap_free_mb() {
	awk '/^SwapFree/ { print int($2 / 1024) }' /proc/meminfo
}

# vm_swap_kb PID: how much of the process is in swap (empty once gone).
vm_swap_kb() {
	awk '/^VmSwap/ { print $2 }' /proc/$1/status 2>/dev/null
}

# swap_on_ok: swap on, as one KTAP line that says how much.
swap_on_ok() {
	swap_on
	ok $? "swap on /dev/vda ($(awk '/^SwapTotal/ { print int($2 / 1024) }' /proc/meminfo) MB)"
}

# result KEY=VALUE...: one machine-readable line for make matrix/bench.
result() {
	echo "# result: $*"
}

# after_victim_exit [FILE]: the requests still waiting when an OOM victim
# exited, and how long after that exit each one ended (a veto or fallback
# naming it, or a grant on any node: it wakes every waiter).  Prints
# "WAITING MAX_MS UNRESOLVED": how many waited at an exit, the slowest
# of them in ms, and how many never ended in the recording.
after_victim_exit() {
	awk '
	function num(f,   m) {
		if (!match($0, "\"" f "\":[0-9]+"))
			return -1
		return substr($0, RSTART + length(f) + 3, RLENGTH - length(f) - 3) + 0
	}
	function ended(p,   d) {
		if (p in since) {
			d = (ts - since[p]) / 1000000
			if (d > max)
				max = d
			delete since[p]
		}
		delete open[p]
	}
	{ ts = num("ts_ns") }
	/"type":"oom_request"/ { open[num("request_pid")] = 1; next }
	/"type":"oom_veto"|"type":"oom_fallback"/ { ended(num("request_pid")); next }
	/"type":"oom_grant"/ { for (p in open) ended(p); next }
	/"type":"mark_victim"/ { victim[num("victim_pid")] = 1; next }
	/"type":"task_exit"/ {
		p = num("exit_pid")
		if (p in victim) {
			for (q in open)
				if (!(q in since)) {
					since[q] = ts
					waiting++
				}
		}
		ended(p)
	}
	END {
		for (p in since)
			unresolved++
		printf "%d %d %d\n", waiting, max, unresolved
	}' "${1:-/tmp/ow.jsonl}"
}
