# KTAP helpers for guest scenarios (sourced).
#
#   ktap_plan N; ok COND_STATUS "description"; ktap_done
# A scenario ends with `ktap_done`, which prints the totals and returns
# non-zero when anything failed.
OW_PASS=0
OW_FAIL=0
OW_N=0
# SLOW: what a latency bound is multiplied by.  1, or 3 on a kernel with
# lockdep (/proc/lockdep): there every lock operation is checked, under
# TCG a few times slower again, and a run of `make test LOCKDEP=1` is for
# the locking; the latencies are judged on the kernel that ships.
SLOW=1
[ -e /proc/lockdep ] && SLOW=3
# JIFFY_MS: how far a time the kernel kept in jiffies may read short
# against the trace's nanoseconds: a jiffy at each end, as the checker's
# OW_JIFFY_TOLERANCE_MS.  A thrash grant claims its timeout in jiffies
# from its spell's first window; that window's start, taken from the
# set's ts_ns less its window_ms, is off by up to a jiffy either way
# (measured once on two CPUs: a 5000 ms timeout, 4996 ms in the trace).
JIFFY_MS=20

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

# Start oomwatch in the background writing JSON lines to /tmp/ow.jsonl
# (or $OW_OUT); wait until it has attached.  Sets OW_PID.
start_oomwatch() {
	oomwatch -j "$@" >"${OW_OUT:-/tmp/ow.jsonl}" 2>/tmp/ow.err &
	OW_PID=$!
	wait_for /tmp/ow.err 20 "oomwatch: tracing"
}

# Stop it; OW_RC is its exit status.  When that is not 0, what it said
# (a broken invariant names its rule and events) goes to the log: the
# recording stays in the guest, and a failure that happens once in many
# runs must be readable from the one log there is.  When it is 0, its
# count of events, lost and shed goes there.
stop_oomwatch() {
	kill -INT "$OW_PID" 2>/dev/null
	wait "$OW_PID"
	OW_RC=$?
	if [ "$OW_RC" -eq 0 ]; then
		# How much it saw, lost and shed (oomwatch.bpf.c, RB_SHED_BYTES)
		grep -E '^oomwatch: [0-9]+ events' /tmp/ow.err | sed 's/^/# /'
	else
		grep -v 'oomwatch: tracing' /tmp/ow.err | head -n 20 | sed 's/^/# oomwatch: /'
	fi
	return 0
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

# tools_mount: the tools disk (qemu-run --tools, make field-tools) at
# /mnt/tools, read-only, its programs (fio, sqlite3) on PATH.
tools_mount() {
	local d
	grep -q " /mnt/tools " /proc/mounts && return 0
	d=$(disk_by_serial tools) ||
		{ diag "no tools disk (qemu-run --tools build/field-tools.img)"; return 1; }
	mkdir -p /mnt/tools && mount -o ro "$d" /mnt/tools || return 1
	PATH=/mnt/tools/run:$PATH
	export PATH
}

# The stream workload's file (workload stream, scenario thrash): RAM +
# 64 MB on the data disk, written once; its page cache dropped, so that
# the first pass reads it all.  Sets STREAM_FILE and STREAM_MB.
stream_file() {
	local mnt=/mnt/data
	STREAM_MB=$(($(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) + 64))
	STREAM_FILE=$mnt/big
	mount_data $mnt || { diag "stream needs a data disk (--data > RAM)"; return 1; }
	if [ ! -e "$STREAM_FILE" ]; then
		dd if=/dev/zero of="$STREAM_FILE" bs=1M count=$STREAM_MB 2>/dev/null && sync ||
			{ diag "stream: cannot write $STREAM_MB MB to the data disk"; return 1; }
	fi
	echo 1 >/proc/sys/vm/drop_caches
}

# fault_rates_start, then fault_rates: major faults and file refaults a
# second in between (/proc/vmstat): how much of a page-cache thrash the
# tasks fault back in, and how much is read() through the cache.
fault_rates_start() {
	FR_T0=$(now_ms)
	FR_MAJ0=$(vmstat_get pgmajfault)
	FR_REF0=$(vmstat_get workingset_refault_file)
}

fault_rates() {
	local ms=$(($(now_ms) - FR_T0))
	[ $ms -gt 0 ] || ms=1
	echo "majfault_per_s=$((($(vmstat_get pgmajfault) - FR_MAJ0) * 1000 / ms))" \
		"refault_file_per_s=$((($(vmstat_get workingset_refault_file) - FR_REF0) * 1000 / ms))"
}

# The classic freeze's programs (workload freeze, scenario thrash): 48 MB
# of text on the data disk, mapped executable and read 5 times a second
# by ow-exec-thrash, each pass logged to /tmp/exec-lat.log.  Sets
# FREEZE_PROGRAMS to its pid.
freeze_programs() {
	local mnt=/mnt/data
	if [ ! -e $mnt/text ]; then
		mount_data $mnt || { diag "the freeze needs a data disk (--data)"; return 1; }
		dd if=/dev/urandom of=$mnt/text bs=1M count=48 2>/dev/null && sync
	fi
	echo 1 >/proc/sys/vm/drop_caches
	ow-exec-thrash $mnt/text 5 /tmp/exec-lat.log >/tmp/exec.log 2>&1 &
	FREEZE_PROGRAMS=$!
	sleep 2
}

# The classic freeze's hog, in MB: MemAvailable counts the programs' 48 MB
# as available, and only half of it must fit beside the hog.
freeze_hog_mb() {
	echo $(($(mem_available_mb) - 24))
}

# hog_ms KEY LOG: ow-hog's "ow-hog: KEY_ns N" line in LOG (start, full:
# the hold began, end), in ms of uptime (CLOCK_MONOTONIC, as now_ms);
# empty when it is not there.
hog_ms() {
	sed -n "s/^ow-hog: $1_ns \([0-9]*\)\$/\1/p" "$2" | head -n 1 |
		awk '{ printf "%d\n", $1 / 1000000 }'
}

# freeze_stats LOG T0 [T1]: the programs' passes ("END_MS PASS_MS" lines
# of ow-exec-thrash) that ended after T0 (and before T1, ms of uptime), as
# result keys:
#   freeze_ms       first slow pass (longer than the 200 ms period: the
#                   programs fall behind) began to the last slow pass's
#                   end: how long the programs were frozen (0: never).
#                   Twice the period until two CPUs came to the guest,
#                   where a frozen pass takes 0.33-0.47 s, not 0.7 s.
#   exec_p50_ms exec_max_ms exec_passes   over the whole run
#   exec_lat        per second since T0, the slowest pass that ended in
#                   it ('-': none ended): the latency over time
freeze_stats() {
	sort -n "$1" | awk -v t0="$2" -v t1="${3:-0}" '
		$1 < t0 || (t1 > 0 && $1 > t1) { next }
		{
			n++; lat[n] = $2
			if ($2 > max) max = $2
			if ($2 > 200) {
				if (first == "") first = $1 - $2
				last = $1
			}
			s = int(($1 - t0) / 1000)
			if (!(s in sec) || $2 > sec[s]) sec[s] = $2
			if (s > smax) smax = s
		}
		END {
			# a median by selection: n is a few hundred
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (lat[j] < lat[i]) { t = lat[i]; lat[i] = lat[j]; lat[j] = t }
			p50 = n ? lat[int((n + 1) / 2)] : 0
			series = ""
			for (i = 0; i <= smax; i++)
				series = series (i ? "," : "") (i in sec ? sec[i] : "-")
			printf "freeze_ms=%d exec_passes=%d exec_p50_ms=%d exec_max_ms=%d exec_lat=%s\n",
				first == "" ? 0 : last - first, n, p50, max, series
		}'
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
#   off          the same, named apart: the patched kernel with nothing
#                on, next to stock 6.1 in one table (the bench's offcost)
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
#   nohang       nohang 0.2 (Debian's, Python) in its PSI mode, configured
#                like systemd-oomd's defaults (guest-image/nohang.conf);
#                needs build/nohang.cpio in the initrd
#   thrash       the OOM arbiter with its thrash rule (vm.oom_arbiter_thrash)
#   all-thrash   all, and the thrash rule
# Returns non-zero, with a diagnostic, when this kernel cannot do MODE.
mode_apply() {
	local token=0 bypass=0 arbiter=0 aging=0 thrash=0
	case $1 in
	stock|off|mglru|earlyoom|nohang) ;;
	token-never) token=1 bypass=-1 ;;
	token) token=1 ;;
	token-aging) token=1 bypass=-1 aging=1 ;;
	arbiter) arbiter=1 ;;
	arbiter-never) token=1 bypass=-1 arbiter=1 ;;
	all) token=1 arbiter=1 ;;
	thrash) arbiter=1 thrash=1 ;;
	all-thrash) token=1 arbiter=1 thrash=1 ;;
	*) diag "mode_apply: unknown mode '$1'"; return 2 ;;
	esac
	if patched_kernel; then
		sysctl_write swap_token 0 && sysctl_write oom_arbiter $arbiter &&
		sysctl_write swap_token_bypass_priority $bypass &&
		sysctl_write swap_token_reclaim_aging $aging || return 1
		# The thrash rule came with a later patch than the rest.
		if [ -e /proc/sys/vm/oom_arbiter_thrash ]; then
			sysctl_write oom_arbiter_thrash $thrash || return 1
		elif [ $thrash = 1 ]; then
			diag "mode $1 needs vm.oom_arbiter_thrash (patch 0006)"
			return 1
		fi
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
	nohang)
		# Python and nohang come as a layer of their own: the default
		# image does not hold them.
		[ -x /usr/bin/python3.11 ] && [ -r /usr/sbin/nohang ] || {
			diag "mode nohang needs build/nohang.cpio in the initrd"
			return 1
		}
		# -S: no site (not in the layer); -u: each line in the log at
		# once, the kill counted by earlyoom_kills among them.
		/usr/bin/python3.11 -S -u /usr/sbin/nohang \
			-c /etc/nohang/nohang.conf --monitor >/tmp/nohang.log 2>&1 &
		# Python's start (and compiling nohang) is slow under TCG.
		wait_for /tmp/nohang.log 60 "Monitoring has started" || {
			diag "nohang did not start: $(tail -n 3 /tmp/nohang.log)"
			return 1
		} ;;
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

# Processes a user-space killer (earlyoom, nohang) has signalled so far
# (the name is workload.sh's, from when earlyoom was the only one).
earlyoom_kills() {
	{
		[ -r /tmp/earlyoom.log ] && sed -n \
			's/.*sending SIG[A-Z]* to process \([0-9]*\).*/e\1/p' \
			/tmp/earlyoom.log
		# nohang logs its victim ("  PID:  N, name: ...") before the
		# signal, and "OK; total response time" once it went out.
		[ -r /tmp/nohang.log ] && awk '
			/^  PID: / { pid = $2 + 0 }
			/^OK; total response time/ { print "n" pid }' /tmp/nohang.log
	} | sort -u | wc -l
}

# vmstat_get NAME: a /proc/vmstat counter.
vmstat_get() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

swap_free_kb() {
	awk '/^SwapFree/ { print $2 }' /proc/meminfo
}

swap_free_mb() {
	echo $(( $(swap_free_kb) / 1024 ))
}

swap_total_kb() {
	awk '/^SwapTotal/ { print $2 }' /proc/meminfo
}

# fill_swap: fills swap with idle anonymous memory until less than 1/64
# of it is free (the arbiter counts under 1/32 as full), RAM left as it
# was.  Fillers (ow-hog -i: touches its memory once, then holds it
# without touching it again) of what swap has free plus 1 MB, in a
# memory cgroup of their own (FILL_CG), whose memory.reclaim then
# writes them out to swap, where they stay: reclaim of that cgroup only,
# with no memory pressure outside it, so no OOM.  (Pushing the filler
# out with locked memory instead, the first way tried, had unpatched 6.1
# OOM-kill it with swap still free in 2 runs of 4; MADV_PAGEOUT needs
# CONFIG_ADVISE_SYSCALLS, which the guest kernel has not.)  At most 4
# fillers.  FILL_PIDS: the fillers, for the caller to end (then rmdir
# FILL_CG).  Fails with no swap, no memory cgroup, or when swap is not
# full after 4 fillers.
FILL_CG=/sys/fs/cgroup/ow-fill
fill_swap() {
	local total goal mb n=0 k
	FILL_PIDS=
	total=$(swap_total_kb)
	[ "${total:-0}" -gt 0 ] || return 1
	goal=$((total / 64))
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir -p $FILL_CG && [ -w $FILL_CG/memory.reclaim ] || return 1
	while [ "$(swap_free_kb)" -gt $goal ]; do
		[ $n -lt 4 ] || return 1
		mb=$(( $(swap_free_kb) / 1024 + 1 ))
		fill_hog "$mb MB" $mb -i -H 100000 -s 16 || return 1
		FILL_PIDS="$FILL_PIDS $GROWN_PID"
		n=$((n + 1))
		# A partial reclaim fails with EAGAIN: ask again, a few times.
		k=0
		while [ $k -lt 8 ] && [ "$(swap_free_kb)" -gt $goal ]; do
			echo "${mb}M" >$FILL_CG/memory.reclaim 2>/dev/null
			k=$((k + 1))
		done
	done
	diag "fill_swap: $n filler(s): swap $(swap_free_kb) kB free, MemAvailable $(mem_available_mb) MB"
}

# fill_hog WORDS MB [OPTIONS]: an ow-hog of MB in FILL_CG, in the
# background, once it has printed "ow-hog: WORDS" (GROWN_PID); fails if
# it dies first.
fill_hog() {
	local words=$1 mb=$2
	shift 2
	sh -c "echo \$\$ >$FILL_CG/cgroup.procs && exec ow-hog $* $mb" \
		>/tmp/grown.log 2>&1 &
	GROWN_PID=$!
	until grep -q "^ow-hog: $words" /tmp/grown.log; do
		kill -0 $GROWN_PID 2>/dev/null || return 1
		sleep 0.1
	done
}

# pinned_copy PROG: a copy of PROG on a ramfs (/mnt/exec), printed; PROG
# itself when that fails.  The initramfs is tmpfs, whose pages go to swap
# like any others: a program started from it once memory is tight faults
# its text back in, and a shmem swap-in asks for the swap token.  ramfs
# pages never leave memory, so a copy there starts without a major fault.
pinned_copy() {
	local src
	src=$(command -v "$1") || { echo "$1"; return; }
	mkdir -p /mnt/exec
	grep -q " /mnt/exec ramfs " /proc/mounts ||
		mount -t ramfs ramfs /mnt/exec 2>/dev/null
	if grep -q " /mnt/exec ramfs " /proc/mounts &&
		cp "$src" "/mnt/exec/${src##*/}" 2>/dev/null; then
		echo "/mnt/exec/${src##*/}"
	else
		echo "$1"
	fi
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

# JSON_NUM: an awk function for the programs below, put in front of
# each: num(F), the number in field F of the JSON line at hand, -1 when
# the line has none.
JSON_NUM='
function num(f) {
	if (!match($0, "\"" f "\":[0-9]+"))
		return -1
	return substr($0, RSTART + length(f) + 3, RLENGTH - length(f) - 3) + 0
}'

# stale_verdicts [FILE]: kswapd's verdicts (oom_grant, oom_defer) that
# name a request not waiting on that node when they were traced: one
# never made, or one that had already ended (its veto or fallback, or a
# kill by it).  The kernel names the oldest request still waiting; a
# count above 0 is a stale name.  Prints "VERDICTS STALE".
stale_verdicts() {
	awk "$JSON_NUM"'
	function judge(p, n) {
		if (p == 0)
			return
		verdicts++
		if (!(p in open) || open[p] != n)
			stale++
	}
	/"type":"oom_request"/ { open[num("request_pid")] = num("nid"); next }
	/"type":"oom_veto"|"type":"oom_fallback"/ { delete open[num("request_pid")]; next }
	/"type":"mark_victim"/ { delete open[num("pid")]; next }
	/"type":"oom_grant"/ { judge(num("grant_pid"), num("nid")); next }
	/"type":"oom_defer"/ { judge(num("request_pid"), num("nid")); next }
	END { printf "%d %d\n", verdicts, stale }' "${1:-/tmp/ow.jsonl}"
}

# after_victim_exit [FILE]: the requests still waiting when an OOM victim
# exited, and how long after that exit each one ended (a veto or fallback
# naming it, or a grant on any node: it wakes every waiter).  Prints
# "WAITING MAX_MS UNRESOLVED PREKILL PREKILL_MAX_MS PREKILL_UNRESOLVED":
# how many waited at an exit, the slowest of them in ms, how many never
# ended in the recording; then the same three for the requests made
# before the victim's kill.  Only the second three are a rule: the kernel
# frees the victim's memory and wakes the waiters in exit_mm(), before
# the exit event (sched_process_exit), so a request made between the free
# and the exit event was never woken, finds the freed memory taken by
# those who were, and rightly waits for the next verdict (seen: 5749 ms,
# oom-storm with oomwatch stopped 20 s).  A request made before the kill
# was waiting before the free, and the free must end it.
after_victim_exit() {
	awk "$JSON_NUM"'
	function ended(p,   d) {
		if (p in since) {
			d = (ts - since[p]) / 1000000
			if (d > max)
				max = d
			if ((p in pre) && d > premax)
				premax = d
			delete since[p]
			delete pre[p]
		}
		delete open[p]
	}
	{ ts = num("ts_ns"); seq = num("seq") }
	/"type":"oom_request"/ { open[num("request_pid")] = seq; next }
	/"type":"oom_veto"|"type":"oom_fallback"/ { ended(num("request_pid")); next }
	/"type":"oom_grant"/ { for (p in open) ended(p); next }
	/"type":"mark_victim"/ { killed[num("victim_pid")] = seq; next }
	/"type":"task_exit"/ {
		p = num("exit_pid")
		if (p in killed) {
			for (q in open)
				if (!(q in since)) {
					since[q] = ts
					waiting++
					if (open[q] < killed[p]) {
						pre[q] = 1
						prekill++
					}
				}
		}
		ended(p)
	}
	END {
		for (p in since) {
			unresolved++
			if (p in pre)
				preopen++
		}
		printf "%d %d %d %d %d %d\n", waiting, max, unresolved,
		       prekill, premax, preopen
	}' "${1:-/tmp/ow.jsonl}"
}
