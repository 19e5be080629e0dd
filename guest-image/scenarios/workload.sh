# workload: the scenarios of `make matrix` and `make bench`, each measured
# the same way under every mode.  docs/scenarios.md is the catalogue.
#
# OW_ARGS: w=NAME[+NAME...] mode=MODE runs=N seed=S ow=auto|0|alt
#   w      update transient oom storm memcg numa-spill numa-bound forkstorm
#          filethrash freeze freeze-fullswap stream token2004
#          fio-mmap-rand fio-mmap-seq sqlite-mmap (these three need the
#          tools disk: qemu-run --tools) memcg-thrash (several,
#          '+'-separated, run one after the other)
#   hold   freeze, freeze-fullswap: how long the hog holds its memory, in
#          s (default 180);
#          stream: how long the file is read over and over (default 60);
#          fio-*, sqlite-mmap, memcg-thrash: how long they run
#          (default 30)
#   watchdog  a run still going after this many s (default 600) has the
#          kernel dump its blocked tasks and memory (sysrq w, m) on the
#          console, once, and goes on (ow-watchdog, mlocked): a hang is
#          then diagnosed from the log instead of only timing out
#   events 1: print each run's decision events (requests, thrashing and
#          unreclaimable transitions, grants, stock fallbacks, victims;
#          oomwatch's JSON lines) on the console, to read a run's story
#   mode   see mode_apply in lib.sh
#   name   the scenario's name in the results (default: the workload's)
#   ow     auto: under `oomwatch --assert` when the kernel has our
#          tracepoints; 0: never; alt: every other run without it (the
#          tracing overhead), reported as mode=<mode>+oomwatch / <mode>
#   owout  null: oomwatch's JSON lines go to /dev/null, not to a file in
#          the guest's tmpfs (whose pages a short guest must reclaim in
#          oomwatch's own writes); its verdict still counts (--assert)
#
# One "# result:" line per run with the same keys for every workload:
#   kills          OOM kills (kernel oom_kill counter) + earlyoom's kills
#   spurious       kills in a run whose demand fit in MemAvailable + free
#                  swap at its start (0 when it did not fit)
#   demand_mb capacity_mb   that comparison
#   died           which of the workload's processes died of a signal
#   wall_ms        until the workload's processes were all done
#   set_to_kill_ms first unreclaimable_set to first kill (oomwatch)
#   thrash_to_kill_ms  first thrashing_set to first kill (oomwatch)
#   probe_max_ms probe_p99_ms   a locked 10 ms sleeper's worst lateness
#   swap_io_mb     pswpin + pswpout during the run
#   assert         oomwatch --assert verdict: ok, fail or na
#   broken         the invariants oomwatch found broken (when any)
#   ow_rss_kb ow_lck_kb ow_hwm_kb   oomwatch's resident, locked and peak
#                  resident memory at the end of the run
#   ow_cpu_ms ow_wakeups ow_bpf_ms ow_bpf_runs ow_cost_pct   (ow=alt)
#                  what tracing cost, from oomwatch --cost: its CPU time
#                  and wakeups, the kernel's time in its BPF programs,
#                  both times in % of one CPU
# KTAP: one test per run, "the run completed inside its bound, and
# oomwatch found no invariant broken": the matrix records outcomes, the
# verdict on them is the table's.  One exception: in the modes that
# configure the token of 2004 (bypass never: token-never, arbiter-never)
# a broken token_yields is the outcome being measured, not a failure of
# the run; any other invariant broken still fails it.
. /scenarios/lib.sh
parse_args
mode=${ARG_mode:-stock}
runs=${ARG_runs:-1}
seed=${ARG_seed:-1}
ow=${ARG_ow:-auto}
workloads=$(echo "${ARG_w:-update}" | tr '+' ' ')
nwl=$(echo $workloads | wc -w)
ktap_plan $((nwl * runs + 1))

mode_apply "$mode"
ok $? "mode $mode ($(patched_kernel && echo patched || echo stock) kernel)"
[ "$ow" = auto ] && { patched_kernel && ow=1 || ow=0; }
RAM_MB=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
# Reproducible sizes: every draw comes from SEED.
RANDOM=$seed

# reap ROLE PID: wait for it; note ROLE in DIED when a signal ended it.
reap() {
	local rc
	wait "$2"
	rc=$?
	[ $rc -gt 128 ] && DIED="$DIED$1,"
	return $rc
}

# ---- the workloads: each sets DEMAND_MB, may set CAP_MB and EXTRA ----

# The 2004 "yum update": an updater walking more than RAM, a second
# allocator with locked memory, an idle bystander of a realistic size.
wl_update() {
	local avail upd lock by alloc
	avail=$(mem_available_mb)
	upd=$((avail * 120 / 100))
	lock=$((avail * 30 / 100))
	DEMAND_MB=$((upd + lock + 24))
	ow-bystander 24 >/dev/null &
	by=$!
	ow-updater $upd 2 >/tmp/upd.log 2>&1 &
	upd=$!
	wait_for /tmp/upd.log 60 "pass 1 "
	ow-hog -l -s 4 -d 50 -H 3 $lock >/tmp/alloc.log 2>&1 &
	alloc=$!
	reap allocator $alloc
	reap updater $upd
	end_bystander $by || DIED="${DIED}bystander,"
	return 0
}

# A burst of anonymous memory, 110% of RAM, on a slow swap disk:
# survivable, but reclaim waits on writeback.  Sized from MemTotal, not
# MemAvailable, which swings by tens of MB from run to run after swap-in:
# every run must push the same amount through the slow disk.
wl_transient() {
	local burst by
	burst=$((RAM_MB * 110 / 100))
	DEMAND_MB=$((burst + 8))
	ow-bystander 8 >/dev/null &
	by=$!
	ow-hog -s 8 $burst >/tmp/burst.log 2>&1 &
	reap burst $!
	end_bystander $by || DIED="${DIED}bystander,"
	return 0
}

# A true OOM: a hog grows past RAM (and swap, if any).
wl_oom() {
	local size by
	size=$((RAM_MB + $(swap_free_mb) + 64))
	DEMAND_MB=$((size + 16))
	ow-bystander 16 >/dev/null &
	by=$!
	sleep 0.5
	ow-hog -s 8 $size >/tmp/hog.log 2>&1 &
	reap hog $!
	end_bystander $by || DIED="${DIED}bystander,"
	return 0
}

# 32 allocators at once, 110% of MemAvailable between them: 32 direct
# reclaimers racing for the same pages.
wl_storm() {
	local each i pids=
	each=$(($(mem_available_mb) * 110 / 100 / 32))
	[ $each -ge 2 ] || each=2
	DEMAND_MB=$((each * 32))
	i=0
	while [ $i -lt 32 ]; do
		ow-hog -s 1 -H 2 $each >/dev/null 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	for i in $pids; do reap storm $i; done
	EXTRA="each_mb=$each"
	return 0
}

# A memory cgroup over its limit (64M, no swap): the memcg OOM killer's
# business, never the arbiter's.
wl_memcg() {
	local cg=/sys/fs/cgroup
	echo +memory >$cg/cgroup.subtree_control 2>/dev/null
	mkdir -p $cg/wl && echo 64M >$cg/wl/memory.max &&
		{ echo 0 >$cg/wl/memory.swap.max 2>/dev/null; true; } ||
		{ diag "memcg: cannot set up $cg/wl"; return 1; }
	DEMAND_MB=96
	CAP_MB=64
	sh -c "echo \$\$ >$cg/wl/cgroup.procs && exec ow-hog -s 4 96" \
		>/tmp/memcg.log 2>&1 &
	reap memcg-hog $!
	EXTRA="memcg_oom_kill=$(awk '/^oom_kill / { print $2 }' $cg/wl/memory.events)"
	rmdir $cg/wl 2>/dev/null
	return 0
}

node_free_mb() {
	awk '/MemFree/ { print int($4 / 1024) }' \
		/sys/devices/system/node/node$1/meminfo
}

# Two nodes: a hog preferring node 0 grows past it; node 1 has room.
wl_numa_spill() {
	local size
	[ -d /sys/devices/system/node/node1 ] || { diag "needs NUMA=2"; return 1; }
	size=$(($(node_free_mb 0) + 40))
	DEMAND_MB=$size
	ow-hog -n 0 -s 8 -H 2 $size >/tmp/spill.log 2>&1 &
	reap spill-hog $!
	return 0
}

# Two nodes: a hog bound to node 1 grows past it; node 0 stays free.
wl_numa_bound() {
	local size by
	[ -d /sys/devices/system/node/node1 ] || { diag "needs NUMA=2"; return 1; }
	size=$(($(node_free_mb 1) + 32))
	DEMAND_MB=$size
	CAP_MB=$(node_free_mb 1)
	ow-bystander 8 >/dev/null &
	by=$!
	ow-hog -n 1 -b -s 8 $size >/tmp/bound.log 2>&1 &
	reap bound-hog $!
	end_bystander $by || DIED="${DIED}bystander,"
	return 0
}

# 48 short-lived children appearing at once, 4-8 MB each (from SEED).
wl_forkstorm() {
	local out
	DEMAND_MB=$((48 * 8))
	ow-forkstorm -H 2 -S $RANDOM 48 8 >/tmp/fork.log 2>&1 &
	reap forkstorm $!
	out=$(cat /tmp/fork.log)
	EXTRA="children_killed=$(echo "$out" | sed -n 's/.* killed=\([0-9]*\).*/\1/p')"
	[ "${EXTRA#*=}" != "0" ] && [ -n "${EXTRA#*=}" ] && DIED="${DIED}child,"
	return 0
}

# Clean file pages mapped executable (48 MB, read back 5 times a second)
# while anonymous memory grows past RAM with no swap: the page cache of
# the "programs" is all reclaim has left, and it thrashes before the kill.
wl_filethrash() {
	local mnt=/mnt/data thr size
	if [ ! -e $mnt/text ]; then
		mount_data $mnt || { diag "filethrash needs a data disk (--data)"; return 1; }
		dd if=/dev/urandom of=$mnt/text bs=1M count=48 2>/dev/null && sync
	fi
	echo 1 >/proc/sys/vm/drop_caches
	ow-exec-thrash $mnt/text 5 >/tmp/exec.log 2>&1 &
	thr=$!
	sleep 1
	size=$((RAM_MB + 64))
	DEMAND_MB=$((size + 48))
	ow-hog -s 4 $size >/tmp/hog.log 2>&1 &
	reap hog $!
	kill $thr 2>/dev/null
	reap exec-thrash $thr
	EXTRA=$(sed -n 's/^exec-thrash: passes=\([0-9]*\) slowest_ms=\([0-9]*\).*/exec_passes=\1 exec_slowest_ms=\2/p' /tmp/exec.log)
	return 0
}

# The classic freeze (#16): the running programs' text (48 MB of clean
# file pages mapped executable, read 5 times a second) and a hog that
# grows until only half of that text fits beside it, then holds its
# memory, re-touching it, for HOLD seconds.  No swap.  Nothing fails an
# allocation: reclaim always finds the programs' pages, which come
# straight back, and stock 6.1 lets that last as long as the hog holds.
# Survivable in the OOM sense (DEMAND fits), so a kill is "spurious" by
# the table's arithmetic; whether ending the freeze with one is right is
# what the freeze_ms column weighs.
wl_freeze() {
	local thr size t0 psi
	freeze_programs || return 1
	thr=$FREEZE_PROGRAMS
	size=$(freeze_hog_mb)
	DEMAND_MB=$((size + 24))
	: >/tmp/psi.log
	psi_watch /tmp/psi.log &
	psi=$!
	t0=$(now_ms)
	fault_rates_start
	ow-hog -s 4 -H "${ARG_hold:-180}" $size >/tmp/hog.log 2>&1 &
	reap hog $!
	kill $psi $thr 2>/dev/null
	reap exec-thrash $thr
	EXTRA="hog_mb=$size $(freeze_stats /tmp/exec-lat.log "$t0") $(fault_rates)"
	psi=$(sort -n /tmp/psi.log | tail -n 1)
	[ -n "$psi" ] && EXTRA="$EXTRA psi_full_max=$psi"
	return 0
}

# The classic freeze with its swap full (#16): idle memory fills swap
# first (fill_swap: its own cgroup's memory.reclaim writes it out; the
# guest has a small swap disk), so that reclaim can take only the
# programs' text again, as with no swap at all.  The fillers stay for
# the run; the demand is judged against what is left once swap is full
# (CAP_MB): the freeze itself still fits.
wl_freeze_fullswap() {
	local rc fill
	if ! fill_swap; then
		diag "freeze-fullswap: swap did not fill (swap $(swap_free_kb) kB free)"
		kill $FILL_PIDS 2>/dev/null
		return 1
	fi
	fill="fill_mb=$(( ($(swap_total_kb) - $(swap_free_kb)) / 1024 )) swap_free_kb=$(swap_free_kb)"
	CAP_MB=$(( $(mem_available_mb) + $(swap_free_mb) ))
	wl_freeze
	rc=$?
	EXTRA="$EXTRA $fill"
	kill $FILL_PIDS 2>/dev/null
	wait $FILL_PIDS 2>/dev/null
	rmdir $FILL_CG 2>/dev/null
	return $rc
}

# psi_watch FILE: the memory pressure PSI-based killers act on (the
# "full avg10" of /proc/pressure/memory, in %), every 2 s until killed.
psi_watch() {
	[ -r /proc/pressure/memory ] || return 0
	while :; do
		sed -n 's/^full avg10=\([0-9.]*\) .*/\1/p' /proc/pressure/memory >>"$1"
		sleep 2
	done
}

# A survivable page-cache thrash the thrash rule must not mistake for a
# freeze: a file larger than RAM read from start to end over and over
# (a backup, a full scan), for HOLD seconds, no swap.  Every page it
# reads was evicted with a shadow entry on its last pass, so the file
# refaults match what reclaim takes, as in the freeze; but nobody waits
# on a fault and nothing needs memory: any kill is spurious.
wl_stream() {
	local end rd passes=0
	stream_file || return 1
	DEMAND_MB=0
	fault_rates_start
	end=$(($(now_ms) + ${ARG_hold:-60} * 1000))
	while [ "$(now_ms)" -lt $end ]; do
		cat "$STREAM_FILE" >/dev/null &
		rd=$!
		reap reader $rd
		passes=$((passes + 1))
	done
	EXTRA="stream_mb=$STREAM_MB stream_passes=$passes $(fault_rates)"
	return 0
}

# Survivable programs from Debian's archive (the tools disk, make
# field-tools), no swap, each for hold s (default 30): stock 6.1 serves
# them without a kill, so every kill is spurious (DEMAND_MB 0).
#
# fio's mmap engine, 4 kB reads of a file larger than RAM, as a database
# or an index larger than memory reads it: fio-mmap-rand at random pages
# of 1.5 x RAM, the page cache full of the file first and without fio's
# MADV_RANDOM hint (as a program that never calls madvise(): every fault
# reads a readaround window), fio-mmap-seq in order through 3 x RAM,
# pass after pass.  fio lays the file out on the data disk on its first
# run in a guest.
wl_fio() {	# wl_fio RW SIZE_IN_TENTHS_OF_RAM
	local mnt=/mnt/data size rd
	tools_mount && mount_data $mnt || return 1
	size=$((RAM_MB * $2 / 10))
	DEMAND_MB=0
	[ -e "$mnt/fio.$size" ] || fio --name=layout --rw=write --bs=1M \
		--size=${size}M --filename="$mnt/fio.$size" >/dev/null 2>&1
	echo 1 >/proc/sys/vm/drop_caches
	[ "$1" = randread ] && cat "$mnt/fio.$size" >/dev/null
	fault_rates_start
	fio --name=field --ioengine=mmap --rw="$1" --bs=4k --size=${size}M \
		--fadvise_hint=0 --filename="$mnt/fio.$size" --time_based \
		--runtime="${ARG_hold:-30}" \
		--output-format=terse --output=/tmp/fio.out >/dev/null 2>&1 &
	rd=$!
	reap fio $rd
	# Terse format 3: field 6 is the KiB read, 8 the read IOPS.
	EXTRA="file_mb=$size fio_read_mb=$(awk -F';' '{ print int($6 / 1024) }' \
		/tmp/fio.out 2>/dev/null) fio_iops=$(awk -F';' '{ print $8 }' \
		/tmp/fio.out 2>/dev/null) $(fault_rates)"
	return 0
}

wl_fio_mmap_rand() { wl_fio randread 15; }
wl_fio_mmap_seq() { wl_fio read 30; }

# sqlite3 scanning a database of 1.25 x RAM (one 3 kB row a 4 kB page)
# through its memory map (PRAGMA mmap_size), scan after scan: made once
# per guest on the data disk.
wl_sqlite_mmap() {
	local mnt=/mnt/data db rows end rd scans=0
	tools_mount && mount_data $mnt || return 1
	db=$mnt/field.db
	rows=$((RAM_MB * 5 / 4 * 256))
	DEMAND_MB=0
	if [ ! -e $db ]; then
		sqlite3 $db "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
			CREATE TABLE t(a INTEGER PRIMARY KEY, b BLOB);
			WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1
			FROM c LIMIT $rows) INSERT INTO t SELECT x,
			randomblob(3000) FROM c;" >/dev/null 2>&1 ||
			{ diag "sqlite3 could not make $db"; rm -f $db; return 1; }
	fi
	echo 1 >/proc/sys/vm/drop_caches
	fault_rates_start
	end=$(($(now_ms) + ${ARG_hold:-30} * 1000))
	while [ "$(now_ms)" -lt $end ]; do
		sqlite3 $db "PRAGMA mmap_size=8000000000;
			SELECT count(*), sum(length(b)) FROM t;" >/dev/null 2>&1 &
		rd=$!
		reap sqlite3 $rd || break
		scans=$((scans + 1))
	done
	EXTRA="db_mb=$(( $(stat -c %s $db) >> 20 )) sqlite_scans=$scans $(fault_rates)"
	return 0
}

# A container thrashing inside its own limit beside unrelated global
# reclaim: the freeze's programs (48 MB of text, ow-exec-thrash) in a
# memory cgroup of 24 MB, and a reader of a file of RAM + 64 MB taking
# 8 MB a second of page cache at the root, for hold s.  The cgroup's
# refaults are its own: no global kill.
wl_memcg_thrash() {
	local cg=/sys/fs/cgroup mnt=/mnt/data thr end i=0
	stream_file || return 1
	if [ ! -e $mnt/text ]; then
		dd if=/dev/urandom of=$mnt/text bs=1M count=48 2>/dev/null && sync
	fi
	mkdir -p $cg && { grep -q " $cg cgroup2 " /proc/mounts ||
		mount -t cgroup2 none $cg; } &&
	echo +memory >$cg/cgroup.subtree_control &&
	mkdir -p $cg/wl-thrash && echo 24M >$cg/wl-thrash/memory.max || return 1
	DEMAND_MB=0
	echo 1 >/proc/sys/vm/drop_caches
	sh -c "echo \$\$ >$cg/wl-thrash/cgroup.procs && exec ow-exec-thrash $mnt/text 5 /tmp/exec-cg.log" \
		>/dev/null 2>&1 &
	thr=$!
	fault_rates_start
	end=$(($(now_ms) + ${ARG_hold:-30} * 1000))
	while [ "$(now_ms)" -lt $end ]; do
		dd if="$STREAM_FILE" of=/dev/null bs=1M count=8 skip=$i 2>/dev/null
		i=$(((i + 8) % (STREAM_MB - 8)))
		sleep 1
	done
	EXTRA="cg_refault_file=$(awk '/^workingset_refault_file/ { print $2 }' \
		$cg/wl-thrash/memory.stat) $(fault_rates)"
	kill $thr 2>/dev/null
	reap programs $thr
	rmdir $cg/wl-thrash 2>/dev/null
	return 0
}

# The swap token's kill of 2004, in the shape token2004.sh describes: an
# updater (55% of MemAvailable, walking it every 200 ms) is pushed into
# swap by a transient hog while stopped, faults itself back and so holds
# the token, and stays resident without faulting; then a locked
# allocator grows to 80% of MemAvailable.  Survivable (swap stays mostly
# free): every kill is spurious.
wl_token2004() {
	local avail upd push lock i t0
	avail=$(mem_available_mb)
	upd=$((avail * 55 / 100))
	push=$((avail * 85 / 100))
	lock=$((avail * 80 / 100))
	DEMAND_MB=$((upd + lock))
	sysctl_write page-cluster 0
	ow-updater $upd 1000000 200 >/dev/null 2>&1 &
	upd=$!
	sleep 3
	kill -STOP $upd
	ow-hog -s 16 $push >/dev/null 2>&1
	kill -CONT $upd
	i=0
	while [ $i -lt 60 ] && [ "$(vm_swap_kb $upd)" -gt 1024 ]; do
		sleep 1
		i=$((i + 1))
	done
	sleep 2
	t0=$(now_ms)
	ow-hog -l -s 4 -d 50 $lock >/tmp/alloc.log 2>&1 &
	reap allocator $!
	EXTRA="alloc_ms=$(($(now_ms) - t0)) swap_free_end_mb=$(swap_free_mb)"
	# The updater walks forever: a signal is its death only if it came
	# before ours.
	if kill -0 $upd 2>/dev/null; then
		kill -9 $upd
		wait $upd 2>/dev/null
	else
		reap updater $upd
	fi
	sysctl_write page-cluster 3
	return 0
}

# ---- one measured run ----

# probe_field KEY: from the probe's line.
probe_field() {
	sed -n "s/.* $1=\([0-9.]*\).*/\1/p" /tmp/probe.out 2>/dev/null
}

# ow_cost_keys FILE: oomwatch --cost's line in FILE as result keys:
# ow_cpu_ms (its user + system time), ow_wakeups (its context switches),
# ow_bpf_ms and ow_bpf_runs (the kernel's time in its programs) and
# ow_cost_pct (both times, in % of one CPU over the traced time).
ow_cost_keys() {
	sed -n 's/^oomwatch: cost: .*; user space \([0-9.]*\) ms .*, \([0-9.]*\)% of a CPU, \([0-9]*\) wakeups; bpf \([0-9.]*\) ms in \([0-9]*\) runs .*, \([0-9.]*\)% of a CPU;.*/\1 \2 \3 \4 \5 \6/p' "$1" |
		awk '{ printf "ow_cpu_ms=%s ow_wakeups=%s ow_bpf_ms=%s ow_bpf_runs=%s ow_cost_pct=%.3f\n", $1, $3, $4, $5, $2 + $6 }'
}

run_one() {	# run_one WORKLOAD RUN WITH_OOMWATCH
	local w=$1 run=$2 with=$3 k0 s0 e0 t0 t1 probe rc kills spurious capacity watchdog
	local lat= tset tkill events assert=na label=$mode name=${ARG_name:-$1}
	local broken= verdict attached
	DIED= EXTRA= DEMAND_MB=0 CAP_MB=
	k0=$(vmstat_get oom_kill)
	s0=$(($(vmstat_get pswpin) + $(vmstat_get pswpout)))
	e0=$(earlyoom_kills)
	capacity=$(($(mem_available_mb) + $(swap_free_mb)))
	# First of all, mlocked: a run once hung as oomwatch started.
	ow-watchdog "${ARG_watchdog:-600}" "$w run $run" &
	watchdog=$!
	if [ "$with" = 1 ]; then
		# The overhead runs measure what tracing costs directly too.
		if [ "$ow" = alt ]; then
			: >/tmp/ow.jsonl
			[ "${ARG_owout:-}" = null ] && OW_OUT=/dev/null
			start_oomwatch --assert --cost
			attached=$?
			OW_OUT=
		else
			start_oomwatch --assert
			attached=$?
		fi
		[ $attached -eq 0 ] || diag "oomwatch did not attach"
		[ "$ow" = alt ] && label=$mode+oomwatch
	fi
	ow-probe /tmp/probe.out &
	probe=$!
	t0=$(now_ms)
	"wl_$(echo "$w" | tr '-' '_')"
	rc=$?
	t1=$(now_ms)
	kill $watchdog 2>/dev/null
	kill $probe 2>/dev/null
	wait $probe
	if [ "$with" = 1 ]; then
		sleep 1
		# What oomwatch holds of the guest's memory, locked or not.
		EXTRA="$EXTRA $(awk '/^Vm(RSS|Lck|HWM):/ {
			printf "ow_%s_kb=%d ", tolower(substr($1, 3, 3)), $2 }' \
			/proc/$OW_PID/status 2>/dev/null)"
		stop_oomwatch
		[ "$OW_RC" = 0 ] && assert=ok || assert=fail
		broken=$(broken_invariants /tmp/ow.jsonl)
		[ -n "$broken" ] && EXTRA="$EXTRA broken=$broken"
		tset=$(first_ts /tmp/ow.jsonl unreclaimable_set)
		tkill=$(first_ts /tmp/ow.jsonl mark_victim)
		[ -n "$tset" ] && [ -n "$tkill" ] &&
			lat="set_to_kill_ms=$(ms_between "$tset" "$tkill") "
		# The thrash rule's: the node marked thrashing to the kill.
		tset=$(first_ts /tmp/ow.jsonl thrashing_set)
		[ -n "$tset" ] && [ -n "$tkill" ] &&
			lat="${lat}thrash_to_kill_ms=$(ms_between "$tset" "$tkill") "
		# What the tracing cost is paid for: oomwatch's own count.
		events=$(sed -n 's/^oomwatch: \([0-9]*\) events,.*/\1/p' \
			/tmp/ow.err | tail -n 1)
		[ -n "$events" ] && EXTRA="events=$events $EXTRA"
		EXTRA="$EXTRA $(ow_cost_keys /tmp/ow.err)"
		[ "${ARG_events:-0}" = 1 ] && grep -E \
			'"type":"(oom_[a-z_]*|thrashing_[a-z]*|unreclaimable_[a-z]*|mark_victim)"' \
			/tmp/ow.jsonl | head -n 200 | sed 's/^/# event: /'
	fi
	[ -n "$CAP_MB" ] && capacity=$CAP_MB
	kills=$(( $(vmstat_get oom_kill) - k0 + $(earlyoom_kills) - e0 ))
	spurious=0
	[ "$DEMAND_MB" -le "$capacity" ] && spurious=$kills
	result "scenario=$name mode=$label run=$run seed=$seed kills=$kills" \
		"spurious=$spurious demand_mb=$DEMAND_MB capacity_mb=$capacity" \
		"died=[${DIED%,}] wall_ms=$((t1 - t0)) ${lat}probe_max_ms=$(probe_field max_ms)" \
		"probe_p99_ms=$(probe_field p99_ms)" \
		"swap_io_mb=$(( ($(vmstat_get pswpin) + $(vmstat_get pswpout) - s0) * 4 / 1024 ))" \
		"assert=$assert $EXTRA"
	# A kill is an outcome, not a failure: only a workload that could not
	# be set up (rc 1) or a broken invariant fails the run.
	verdict=$assert
	case $mode:$broken in
	token-never:token_yields|arbiter-never:token_yields)
		verdict="token_yields broken, the 2004 configuration's outcome" ;;
	esac
	[ "$verdict" != fail ] && [ $rc -eq 0 ]
	ok $? "$w run $run ($label): $kills kill(s), $((t1 - t0)) ms, oomwatch $verdict"
	# Let swap-in and the page cache settle before the next run.
	sleep 2
}

for w in $workloads; do
	command -v "wl_$(echo "$w" | tr '-' '_')" >/dev/null && continue
	diag "unknown workload '$w' (see the header of workload.sh)"
	exit 2
done
for w in $workloads; do
	# Swap where the workload's story has it (and the guest a swap disk);
	# none for the true OOMs, memcg and NUMA cases.
	case $w in
	update|transient|storm|forkstorm|token2004)
		swap_on || diag "no swap disk: $w may not survive" ;;
	freeze-fullswap)
		swap_on || diag "no swap disk: $w is the freeze without swap" ;;
	*) swap_off ;;
	esac
	run=1
	while [ $run -le $runs ]; do
		with=$ow
		[ "$ow" = alt ] && with=$((run % 2))
		run_one "$w" "$run" "$with"
		run=$((run + 1))
	done
done
[ -n "$EARLYOOM_PID" ] && kill "$EARLYOOM_PID" 2>/dev/null
ktap_done
