#!/bin/bash
# field: the field bench's scenario (scripts/field.sh boots it).  Real
# programs from Debian's packages on the Debian guest, under one setting
# of one peer, and one "# result:" line per workload and run.
#
# ow.args= on the kernel command line (comma-separated key=value):
#   mode=SETTING  stock | mglru-MS | earlyoom | nohang | oomd-PCT-SEC |
#                 arbiter | thrash-MS  (apply_setting says what each is)
#   w=W+W...      workloads, run in this order in every run (below)
#   runs=N        runs (default 1)
#   hold=S        freeze: how long the hog holds its memory (default 60)
#   shold=S       survivable: how long each runs (default 30)
#   slow=MS       freeze: a probe pass slower than this, and than 4 x its
#                 own median before the hog, is frozen (default 1000)
#   seed=N
#
# The data (make field-data; scripts/field.sh data) is a read-only disk,
# serial "tools", mounted on /mnt/field: www/ (the HTTP server's files),
# text.txt, fio.dat (1.5 x RAM), db.sqlite (1.25 x RAM), sort.txt
# (1.25 x RAM).  The blank disk (serial "data") is the scratch space: sort's
# temporary files.  Every workload process runs in a scope of its own in
# field.slice (systemd-run --scope), the cgroups systemd-oomd acts on.
#
# Workloads:
#   freeze-http   freeze: python3 -m http.server serving www/ to a python3
#                 client (a request every 250 ms: the probe), beside a
#                 shell loop of perl and a coreutils pipeline (a pass a
#                 second); after a warm-up, a python3 hog writes a
#                 bytearray of MemAvailable - WS/2 (WS: what the programs
#                 added to Cached + AnonPages in the warm-up, from a
#                 dropped cache) and holds it HOLD s.  With a swap
#                 disk (FIELD_SWAP), the hog also fills the swap: the
#                 full-swap freeze.
#                 freeze-http-PCT: the same with room for PCT% of WS.
#   freeze-text   the same programs and hog, with room for half of what
#                 they map (MWS: what they added to Mapped in the
#                 warm-up: their text, libraries and interpreters), not
#                 of WS: the served files (read(), most of WS) get no
#                 room at all, the programs' text half of its own.  The
#                 classic freeze: text faulted back as soon as it is
#                 evicted.  freeze-text-PCT: room for PCT% of MWS.
#                 Both: freeze_ms, the first frozen pass's start to the
#                 last frozen pass's end (a pass still hanging at the end
#                 counts to the end), capped at 300 s; freeze_end_ms:
#                 that last end, from the hog's start (0: no freeze).
#   fio-mmap      fio, mmap engine, 4 kB random reads over fio.dat
#   fio-read      fio, psync engine (buffered), 4 kB random reads, fio.dat
#   sqlite        sqlite3 full scans of db.sqlite, no mmap
#   sqlite-mmap   the same with PRAGMA mmap_size of the whole file
#   sort          GNU sort of sort.txt, temporary files on the scratch disk
#   sort-big      the same sort with a buffer of 85% of RAM (sort -S 85%):
#                 a program that fits, using most of memory itself, as
#                 stock serves it, meant to bring a peer that kills on
#                 free memory alone to its threshold.  It reads at the data disk's rate: at 20 MB/s
#                 the buffer is full after about 45 s (SHOLD >= 60)
#   gzip          gzip -9 of sort.txt to /dev/null
#   memcg-thrash  fio mmap random reads of 256 MB of fio.dat in a scope
#                 with MemoryMax=64M: a thrash inside its own limit
#   xz            xz -6 -T2 of sort.txt to a pipe
#   make          GNU make -j2 of a real C tree: Linux 6.1 (Debian's
#                 linux-source-6.1, linux/ on the data disk, read-only),
#                 out of tree on the scratch disk; tinyconfig and `make
#                 prepare` once per guest, untimed; each run then builds
#                 mm/ and kernel/ from nothing for SHOLD s
#   stress-vm     stress-ng vm (2 x 45% of RAM, kept), mmap and page-in:
#                 survivable with swap only (FIELD_SWAP)
#   stress-swap   stress-ng vm writing 120% of MemAvailable over and over:
#                 the 2004 yum update, slow on swap but going on, as stock
#                 serves it (with swap only; wl_stress_swap)
#   swap-cold     python3 with a heap of RAM plus 95% of the swap, only its
#                 last tenth in use for shold s after an untimed fill:
#                 swap over 90% used by a program that does not thrash
#                 (with swap only; wl_swap_cold)
#   stress-hold   stress-ng vm, one worker keeping all of MemAvailable but
#                 6% of RAM and writing it over and over: a program that
#                 fits and holds most of memory itself (a database's
#                 cache, a JVM's heap), as stock serves it; MemAvailable
#                 stays under earlyoom's 10% while it runs
#   hold-stream   stress-hold's program beside md5sum of fio.dat (a backup
#                 job's read): the page cache turns over in the 6% left
#                 (wl_hold_stream)
# Survivable workloads run SHOLD s each (timeout(1) ends them: that is no
# loss); lost=1 when one of its processes died of a signal otherwise, or
# anything was killed (the kernel's or a peer's kill) while it ran.
#
# Result keys: scenario mode run group(freeze|survivable) lost died
# kills(kernel oom_kill) peer_kills(earlyoom, nohang, systemd-oomd in the
# journal) wall_ms avail_min_mb (the lowest MemAvailable, sampled every
# second) avail_samples (how many: about 0.85 a second, far fewer when a
# freeze stalled the sampler); freeze: freeze_ms freeze_end_ms hog_mb ws_mb
# probe_p50_ms probe_max_ms probe_base_ms probe_errors psi_full_max,
# refault_file_mb and majfault_k (/proc/vmstat's workingset_refault_file
# and pgmajfault over the hold), on the patched kernel th_* (what the
# thrash rule saw: thrash_keys); survivable: exit (of the workload's
# program), psi_full_max and on the patched kernel th_* (over the run),
# and its progress where it has one.
set -u
n=0 pass=0 fail=0
t() { n=$((n + 1)); if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $n - $2"; else fail=$((fail + 1)); echo "not ok $n - $2"; fi; }
diag() { echo "# $*"; }
# Every line says how many CPUs the guest had: the runs before the guest
# config had ACPI had one, whatever QEMU was given.
CPUS=$(getconf _NPROCESSORS_ONLN)
result() { echo "# result: $* cpus=$CPUS"; }
now_ms() { date +%s%3N; }

args=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ow\.args=//p' | tr ',' '\n')
arg() { echo "$args" | sed -n "s/^$1=//p" | tail -n 1; }
mode=$(arg mode); mode=${mode:-stock}
wls=$(arg w | tr '+' ' '); wls=${wls:-freeze-http}
runs=$(arg runs); runs=${runs:-1}
hold=$(arg hold); hold=${hold:-60}
shold=$(arg shold); shold=${shold:-30}
slow=$(arg slow); slow=${slow:-1000}
seed=$(arg seed); seed=${seed:-1}
F=/mnt/field S=/mnt/data
CAP_MS=300000

echo "KTAP version 1"
echo "1..$((3 + runs * $(echo $wls | wc -w)))"
state=$(timeout 180 systemctl is-system-running --wait 2>&1)
# degraded: on stock 6.1, oomwatch.service finds no series and fails (its
# preflight); the bench runs all the same, the failed units are listed.
case $state in running|degraded) true ;; *) false ;; esac
t $? "the system is up ($state)"
[ "$state" = running ] || systemctl --failed --no-legend | sed 's/^/# failed: /'

# The disks, by their QEMU serial.
dev_of() {
	local b
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && echo "/dev/${b##*/}" && return 0
	done
	return 1
}
mount_disks() {
	local d
	mkdir -p $F $S
	d=$(dev_of tools) || return 1
	mountpoint -q $F || mount -o ro,noload "$d" $F || return 1
	d=$(dev_of data) || return 1
	mountpoint -q $S || { mkfs.ext4 -q -F "$d" && mount "$d" $S; } || return 1
	[ -d $F/www ] && [ -s $F/fio.dat ]
}
# The swap disk (scripts/field.sh's FIELD_SWAP), if there is one: on.
swap_on() {
	local d
	d=$(dev_of swap) || return 0
	grep -q "^$d " /proc/swaps || { mkswap "$d" >/dev/null && swapon "$d"; }
}
# meminfo_mb KEY: a /proc/meminfo value in MB.
meminfo_mb() { awk -v k="$1:" '$1 == k { print int($2 / 1024) }' /proc/meminfo; }
mount_disks && swap_on
t $? "the field data ($(du -sm $F 2>/dev/null | cut -f1) MB on $F) and the scratch disk are mounted; swap $(meminfo_mb SwapTotal) MB"
# The nodes and their CPUs: an allocation tries its CPU's node first.
for d in /sys/devices/system/node/node[0-9]*; do
	diag "node ${d##*node}: $(awk '$3 == "MemTotal:" { print int($4 / 1024) }' $d/meminfo) MB, CPUs $(cat $d/cpulist)"
done

# field.slice: the workloads' slice in every setting; systemd-oomd's
# settings put ManagedOOMMemoryPressure on it.
slice_conf() {
	mkdir -p /run/systemd/system
	printf '[Slice]\nMemoryAccounting=yes\n%s\n' "$1" >/run/systemd/system/field.slice
	systemctl daemon-reload
}

# apply_setting SETTING: one column of the bench.
#   stock         nothing (stock 6.1: scripts/field.sh boots it)
#   mglru-MS      multi-gen LRU on, min_ttl_ms=MS (stock 6.1)
#   earlyoom      Debian's earlyoom.service, its defaults (stock 6.1)
#   nohang        nohang in its PSI mode (the initramfs bench's config,
#                 /etc/nohang/nohang-psi.conf) as a transient service
#   oomd          systemd-oomd at Debian's shipped defaults, as a login
#                 session gets them: user@.service's drop-in (50%) on
#                 field.slice; the shipped oomd.conf.d (20 s) and
#                 -.slice's ManagedOOMSwap=kill left as they are
#   oomd-PCT-SEC  systemd-oomd, field.slice ManagedOOMMemoryPressure=kill
#                 at PCT% for SEC s (oomd.conf's
#                 DefaultMemoryPressureDurationSec: systemd 252 has no
#                 per-unit duration)
#   arbiter       vm.oom_arbiter=1 (the patched kernel)
#   thrash-MS     the arbiter and its thrash rule, oom_thrash_timeout_ms=MS
apply_setting() {
	local v
	slice_conf ""
	if [ -e /proc/sys/vm/oom_arbiter ]; then
		sysctl -q vm.oom_arbiter=0 vm.swap_token=0 2>/dev/null
		[ -e /proc/sys/vm/oom_arbiter_thrash ] && sysctl -q vm.oom_arbiter_thrash=0
	fi
	case $1 in
	stock) ;;
	mglru-*)
		v=${1#mglru-}
		echo y >/sys/kernel/mm/lru_gen/enabled &&
		echo "$v" >/sys/kernel/mm/lru_gen/min_ttl_ms ;;
	earlyoom)
		systemctl start earlyoom && sleep 2 && systemctl is-active -q earlyoom ;;
	nohang)
		[ -r /etc/nohang/nohang-psi.conf ] &&
		systemd-run -q --unit=nohang-psi /usr/sbin/nohang --monitor \
			--config /etc/nohang/nohang-psi.conf &&
		for _ in $(seq 90); do
			journalctl -q -u nohang-psi | grep -q 'Monitoring has started' && return 0
			sleep 1
		done; return 1 ;;
	oomd)
		slice_conf "$(sed -n 's/^\(ManagedOOMMemoryPressure[A-Za-z]*=.*\)/\1/p' \
			/usr/lib/systemd/system/user@.service.d/10-oomd-user-service-defaults.conf)"
		grep -q ManagedOOMMemoryPressureLimit /run/systemd/system/field.slice &&
		systemctl start systemd-oomd && sleep 2 &&
		systemctl is-active -q systemd-oomd ;;
	oomd-*-*)
		v=${1#oomd-}
		mkdir -p /run/systemd/oomd.conf.d
		printf '[OOM]\nDefaultMemoryPressureDurationSec=%ss\n' "${v#*-}" \
			>/run/systemd/oomd.conf.d/field.conf
		# With swap, systemd-oomd's other trigger too: swap used over
		# SwapUsedLimit (oomd.conf, 90%).
		slice_conf "ManagedOOMMemoryPressure=kill
ManagedOOMMemoryPressureLimit=${v%-*}%
$([ "$(meminfo_mb SwapTotal)" -gt 0 ] && echo ManagedOOMSwap=kill)"
		systemctl start systemd-oomd && sleep 2 &&
		systemctl is-active -q systemd-oomd ;;
	arbiter)
		sysctl -q vm.oom_arbiter=1 ;;
	thrash-*)
		sysctl -q vm.oom_arbiter=1 vm.oom_arbiter_thrash=1 \
			vm.oom_thrash_timeout_ms="${1#thrash-}" ;;
	*) diag "unknown setting '$1'"; return 2 ;;
	esac
}
apply_setting "$mode"
t $? "setting $mode ($(uname -r), $(meminfo_mb MemTotal) MB)"

vmstat_get() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# Page cache and anonymous memory, kB.
used_kb() { awk '/^(Cached|AnonPages):/ { n += $2 } END { print n }' /proc/meminfo; }
mapped_kb() { awk '/^Mapped:/ { print $2 }' /proc/meminfo; }
# Kills user-space peers logged since $1 (s since the epoch).
peer_kill_lines() {
	journalctl -q --since "@$1" -u earlyoom -u nohang-psi -u systemd-oomd 2>/dev/null |
		grep -E 'sending SIG|Killed /|corrective action'
}
peer_kills() { peer_kill_lines "$1" | grep -c .; }
# scope NAME CMD... &: CMD in a scope of field.slice; only in the
# background (it execs: $! is CMD itself, systemd-run --scope execs too).
scope() {
	local name=$1; shift
	exec systemd-run -q --scope --slice=field.slice --unit="field-$name-$$-$RANDOM" \
		-p MemoryAccounting=yes "$@"
}
# reap ROLE PID: its exit status; ROLE into DIED when a signal ended it
# (timeout(1)'s own end, 124, is not one).
reap() {
	local rc
	wait "$2"; rc=$?
	[ $rc -gt 128 ] && DIED="$DIED$1,"
	return $rc
}
# avail_log LOG: MemAvailable (MB) every second into LOG, until killed;
# the lowest is the run's avail_min_mb (what earlyoom judges).
avail_log() {
	while :; do
		meminfo_mb MemAvailable >>"$1"
		sleep 1
	done
}
psi_full_max() {
	[ -r /proc/pressure/memory ] || return 0
	while :; do
		sed -n 's/^full avg10=\([0-9.]*\) .*/\1/p' /proc/pressure/memory >>"$1"
		sleep 2
	done
}

# node_log FILE: every second, each node's "NID FILE_KB ANON_KB REFAULTS"
# (its meminfo's FilePages and AnonPages, its vmstat's
# workingset_refault_file), for node_keys.
node_log() {
	local d
	while :; do
		for d in /sys/devices/system/node/node[0-9]*; do
			echo "${d##*node} $(awk '$3 == "FilePages:" { f = $4 }
				$3 == "AnonPages:" { a = $4 } END { print f, a }' $d/meminfo) $(awk '$1 == "workingset_refault_file" { print $2 }' $d/vmstat)"
		done >>"$1"
		sleep 1
	done
}
# node_keys FILE: per node, NID:VALUE comma-separated, in MB:
#   node_file_min_mb  its fewest file pages
#   node_anon_max_mb  its most anonymous pages
#   node_refault_mb   its file refaults (pages that came back) in all
# Where the freeze squeezed the page cache, and where it thrashed.
node_keys() {
	awk '{ n = $1; if (!(n in fmin) || $2 < fmin[n]) fmin[n] = $2
		if ($3 > amax[n]) amax[n] = $3
		if (!(n in r0)) r0[n] = $4; r1[n] = $4; if (n > top) top = n }
	END {
		if (!NR) { print "node_file_min_mb=- node_anon_max_mb=- node_refault_mb=-"; exit }
		for (n = 0; n <= top; n++) {
			f = f sep n ":" int(fmin[n] / 1024); a = a sep n ":" int(amax[n] / 1024)
			r = r sep n ":" int((r1[n] - r0[n]) / 256); sep = ","
		}
		print "node_file_min_mb=" f " node_anon_max_mb=" a " node_refault_mb=" r
	}' "$1"
}

# The probe's passes: "END_MS LAT_MS OK" lines, "S START_MS" before each.
probe_client() {
	cat >/tmp/probe.py <<'PY'
import random, sys, time, urllib.request
port, nfiles, period, seed, out = sys.argv[1:]
random.seed(int(seed))
f = open(out, "a", buffering=1)
while True:
    t = time.time()
    f.write("S %d\n" % (t * 1000))
    ok = 1
    try:
        urllib.request.urlopen("http://127.0.0.1:%s/f%d" % (port, random.randrange(int(nfiles))), timeout=600).read()
    except Exception:
        ok = 0
        time.sleep(0.2)
    e = time.time()
    f.write("%d %d %d\n" % (e * 1000, (e - t) * 1000, ok))
    time.sleep(max(0.0, float(period) - (e - t)))
PY
}
shell_loop() {	# shell_loop LOG: perl and a coreutils pipeline, a pass a second
	local t0 t1
	while :; do
		t0=$(now_ms)
		echo "S $t0" >>"$1"
		perl -ne '$n++ if /ab/; END { print "$n\n" }' $F/text.txt >/dev/null
		tr a-z A-Z <$F/text.txt | sort | md5sum >/dev/null
		t1=$(now_ms)
		echo "$t1 $((t1 - t0)) 1" >>"$1"
		sleep 1
	done
}

# freeze_stats LOG T0 T1: the passes of LOG from T0 to T1, as result keys.
freeze_stats() {
	awk -v t0="$2" -v t1="$3" -v slow="$slow" -v cap=$CAP_MS '
		$1 == "S" { if ($2 >= t0) open = $2; next }
		$1 < t0 - 30000 { next }
		$1 < t0 { b[++nb] = $2; next }
		{ open = ""; n++; lat[n] = $2; end[n] = $1; if (!$3) err++ }
		function sorted(a, k,   i, j, x) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		}
		END {
			sorted(b, nb); base = nb ? b[int((nb + 1) / 2)] : 0
			thr = 4 * base > slow ? 4 * base : slow
			for (i = 1; i <= n; i++) if (lat[i] > thr) {
				if (first == "" || end[i] - lat[i] < first) first = end[i] - lat[i]
				if (end[i] > last) last = end[i]
				if (lat[i] > max) max = lat[i]
			}
			# A pass still hanging when the run ended: frozen to the end.
			if (open != "" && t1 - open > thr) {
				if (first == "" || open < first) first = open
				last = t1; if (t1 - open > max) max = t1 - open
			}
			f = first == "" ? 0 : last - first
			if (f > cap) f = cap
			e = first == "" ? 0 : last - t0
			for (i = 1; i <= n; i++) { c[i] = lat[i]; if (lat[i] > max) max = lat[i] }
			sorted(c, n)
			printf "freeze_ms=%d end_ms=%d base_ms=%d p50_ms=%d max_ms=%d passes=%d errors=%d\n",
				f, e, base, n ? c[int((n + 1) / 2)] : 0, max, n, err
		}' "$1"
}

# thrash_keys T0_MS T1_MS: what the thrash rule saw from T0 to T1 (ms
# since the epoch), as result keys, from oomwatch.service's recording
# (the patched kernel; nothing on stock, where the service fails):
#   th_spells      thrashing spells (thrashing_set) begun in [T0, T1]
#   th_set_ms      the first spell's start (the set's window start), from T0
#   th_longest_ms  the longest spell (one still open at T1 counts to T1)
#   th_total_ms    all spells together
#   th_ends        how each spell in [T0, T1] ended: the calm window of
#                  its thrashing_clear, WINDOW_MS:NEAR:RECLAIMED (pages;
#                  a thrashing node's window thrashes while NEAR >
#                  RECLAIMED / 4, both >= 512 a second, WINDOW_MS <=
#                  2000; the spell ends at the second calm window in a
#                  row, or at once at one over 2000 ms),
#                  comma-separated, the first 20; "-" for none
#   th_grant_ms    the first oom_thrash_grant, from T0
#   th_grant_set_ms  the start of the spell that grant came in
#   kill_ms        the first OOM kill (mark_victim), from T0; kill_by, the
#                  permit it came from: the last oom_grant (grant),
#                  oom_thrash_take (thrash) or oom_fallback (fallback)
#                  before it, "-" for none; victim, its comm
#   th_nodes       each node's spells in [T0, T1] (one begun before T0
#                  counts from T0): NID:SPELLS:FIRST_SET_MS:LONGEST_MS,
#                  comma-separated ("-": none); on two nodes, whose
#                  spell came first
#   th_grants      each oom_thrash_grant in [T0, T1], the first 10:
#                  NID:MS:FATE, FATE "take" (a task took it: the kill),
#                  "clear" (its node calmed first: dropped) or "open"
#                  (neither by T1); "-" for none
# -1: none.  The recording is flushed every poll (100 ms): a second's
# wait is enough.
thrash_keys() {
	local rec=/var/log/oomwatch/oomwatch.jsonl
	[ -r $rec ] || return 0
	sleep 1
	python3 - "$1" "$2" $rec* <<'PY'
import json, sys, time
t0, t1 = int(sys.argv[1]), int(sys.argv[2])
# Oldest first: FILE.N ... FILE.1, FILE.
files = sorted(sys.argv[3:], key=lambda p: -int(p.rsplit(".", 1)[1]) if p[-1].isdigit() else 0)
# CLOCK_MONOTONIC (ts_ns) to ms since the epoch, relative to T0.
off = time.time() * 1000 - time.clock_gettime(time.CLOCK_MONOTONIC) * 1000 - t0
end = t1 - t0
spells, open_, ends = [], {}, []
nodes = {}      # nid: [spells, first set, longest]
grants = []     # [nid, ms, fate]
grant = grant_set = kill = -1
victim = by = "-"
permits = {"oom_grant": "grant", "oom_thrash_take": "thrash", "oom_fallback": "fallback"}
last_permit = "-"
for p in files:
    for line in open(p, errors="replace"):
        if '"thrash' not in line and '"oom_' not in line and '"mark_victim"' not in line:
            continue
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if "ts_ns" not in e:
            continue
        ms = e["ts_ns"] / 1e6 + off
        if ms < -60000 or ms > end:
            continue
        k, nid = e.get("type"), e.get("nid", 0)
        if k == "thrashing_set":
            open_[nid] = ms - e.get("window_ms", 0)
        elif k == "thrashing_clear" and nid in open_:
            spells.append((open_[nid], ms, nid))
            del open_[nid]
            for g in grants:
                if g[0] == nid and g[2] == "open":
                    g[2] = "clear"
            if ms >= 0 and len(ends) < 20:
                ends.append("%d:%d:%d" % (e.get("window_ms", 0),
                            e.get("near", 0), e.get("reclaimed", 0)))
        elif k == "oom_thrash_grant" and ms >= 0:
            if grant < 0:
                grant, grant_set = ms, open_.get(nid, -1)
            grants.append([nid, ms, "open"])
        elif k in permits:
            last_permit = permits[k]
            if k == "oom_thrash_take":
                for g in grants:
                    if g[0] == nid and g[2] == "open":
                        g[2] = "take"
        elif k == "mark_victim" and ms >= 0 and kill < 0:
            kill, victim, by = ms, e.get("victim_comm", "-"), last_permit
spells += [(s, end, nid) for nid, s in open_.items()]
spells = [(max(s, 0), t, nid) for s, t, nid in spells if t >= 0]
spells.sort()
for s, t, nid in spells:
    n = nodes.setdefault(nid, [0, s, 0])
    n[0] += 1
    n[2] = max(n[2], t - s)
print("th_spells=%d th_set_ms=%d th_longest_ms=%d th_total_ms=%d th_ends=%s "
      "th_grant_ms=%d th_grant_set_ms=%d kill_ms=%d kill_by=%s victim=%s "
      "th_nodes=%s th_grants=%s" % (
      len(spells), spells[0][0] if spells else -1,
      max((t - s for s, t, _ in spells), default=-1),
      sum(t - s for s, t, _ in spells) if spells else -1,
      ",".join(ends) or "-",
      grant, grant_set, kill, by, victim.replace(" ", "_") or "-",
      ",".join("%d:%d:%d:%d" % (nid, n[0], n[1], n[2])
               for nid, n in sorted(nodes.items())) or "-",
      ",".join("%d:%d:%s" % (g[0], g[1], g[2]) for g in grants[:10]) or "-"))
PY
}

# The freeze (see the header): wl_freeze_http [ROOM_PCT [ws|mapped]].
# Sets EXTRA, DIED.
wl_freeze_http() {
	local room=${1:-50} basis=${2:-ws} srv cli sh hog psi t0 t1 ws mws cgws u0 m0
	local size nfiles cg c rf0 mf0 nl
	nfiles=$(ls $F/www | wc -l)
	u0=$(used_kb) m0=$(mapped_kb)
	rm -f /tmp/http.log /tmp/shell.log /tmp/psi.log /tmp/hog.log /tmp/node.log
	probe_client
	scope server python3 -m http.server 8000 --bind 127.0.0.1 \
		--directory $F/www >/dev/null 2>&1 &
	srv=$!
	sleep 3
	scope probe python3 /tmp/probe.py 8000 "$nfiles" 0.25 "$seed$run" /tmp/http.log &
	cli=$!
	scope shell bash -c "$(declare -f now_ms shell_loop); F=$F; shell_loop /tmp/shell.log" &
	sh=$!
	# The warm-up: the programs' working set into memory, their medians.
	# WS: what they added to the page cache and anonymous memory since
	# the cache was dropped (their text and libraries too, which their
	# cgroups are not charged for when another process read them first);
	# their cgroups' memory.current is reported beside it.
	sleep 20
	ws=$(( ($(used_kb) - u0) >> 10 ))
	mws=$(( ($(mapped_kb) - m0) >> 10 ))
	cgws=0
	for cg in /sys/fs/cgroup/field.slice/field-*.scope; do
		c=$(cat "$cg/memory.current" 2>/dev/null) && cgws=$((cgws + c))
	done
	cgws=$((cgws >> 20))
	if [ "$basis" = mapped ]; then
		size=$(( $(meminfo_mb MemAvailable) - mws * room / 100 ))
	else
		size=$(( $(meminfo_mb MemAvailable) - ws * room / 100 ))
	fi
	# With swap, the full-swap freeze: the hog fills the swap as well.
	size=$(( size + $(meminfo_mb SwapFree) ))
	psi_full_max /tmp/psi.log &
	psi=$!
	node_log /tmp/node.log &
	nl=$!
	rf0=$(vmstat_get workingset_refault_file) mf0=$(vmstat_get pgmajfault)
	t0=$(now_ms)
	scope hog python3 -c '
import sys, time
n = int(sys.argv[1]) << 20
b = bytearray(n)
for i in range(0, n, 4096):
    b[i] = 1
print("full", flush=True)
time.sleep(int(sys.argv[2]))
' "$size" "$hold" >/tmp/hog.log 2>&1 &
	hog=$!
	reap hog $hog
	# What hung in the freeze gets up to 20 s to answer.
	for _ in $(seq 20); do
		[ "$(tail -n 1 /tmp/http.log | cut -d' ' -f1)" != S ] &&
			[ "$(tail -n 1 /tmp/shell.log | cut -d' ' -f1)" != S ] && break
		sleep 1
	done
	t1=$(now_ms)
	kill $psi $nl 2>/dev/null
	# Still alive: ended by us (SIGTERM, not counted); dead already: a
	# peer's victim.
	local dead=
	kill -0 $srv 2>/dev/null || dead="${dead}server,"
	kill -0 $cli 2>/dev/null || dead="${dead}probe,"
	kill -0 $sh 2>/dev/null || dead="${dead}shell,"
	kill $srv $cli $sh 2>/dev/null
	wait $srv $cli $sh 2>/dev/null
	DIED="$DIED$dead"
	set -- $(freeze_stats /tmp/http.log "$t0" "$t1")
	local hs="$*"
	set -- $(freeze_stats /tmp/shell.log "$t0" "$t1")
	local ss="$*"
	local fh fs
	fh=$(echo "$hs" | sed -n 's/.*freeze_ms=\([0-9]*\).*/\1/p')
	fs=$(echo "$ss" | sed -n 's/.*freeze_ms=\([0-9]*\).*/\1/p')
	local eh es
	eh=$(echo "$hs" | sed -n 's/.*end_ms=\([0-9]*\).*/\1/p')
	es=$(echo "$ss" | sed -n 's/.*end_ms=\([0-9]*\).*/\1/p')
	EXTRA="freeze_ms=$(( fh > fs ? fh : fs )) freeze_end_ms=$(( eh > es ? eh : es )) hog_mb=$size ws_mb=$ws mapped_ws_mb=$mws ws_cg_mb=$cgws room_pct=$room room_of=$basis hold_s=$hold"
	EXTRA="$EXTRA $(echo "$hs" | sed 's/\([a-z0-9_]*\)=/probe_\1=/g') $(echo "$ss" | sed 's/\([a-z0-9_]*\)=/shell_\1=/g')"
	EXTRA="$EXTRA psi_full_max=$(sort -n /tmp/psi.log | tail -n 1)"
	EXTRA="$EXTRA refault_file_mb=$(( ($(vmstat_get workingset_refault_file) - rf0) >> 8 ))"
	EXTRA="$EXTRA majfault_k=$(( ($(vmstat_get pgmajfault) - mf0) / 1000 ))"
	EXTRA="$EXTRA $(thrash_keys "$t0" "$t1") $(node_keys /tmp/node.log)"
	GROUP=freeze
}

# surv ROLE CMD...: CMD in a scope for shold s (SURV_LIMIT s when set);
# EXTRA, DIED.
surv() {
	local role=$1 rc
	shift
	scope "$role" timeout "${SURV_LIMIT:-$shold}" "$@" >/tmp/surv.log 2>&1 &
	reap "$role" $!
	rc=$?
	EXTRA="exit=$rc"
	GROUP=survivable
	return 0
}
fio_run() {	# fio_run ROLE ENGINE SIZE [scope properties...]
	local role=$1 engine=$2 size=$3
	shift 3
	scope "$role" "$@" timeout $((shold + 30)) fio --name="$role" --filename=$F/fio.dat --readonly \
		--ioengine="$engine" --rw=randread --bs=4k --size="$size" \
		--time_based --runtime="$shold" --output-format=terse \
		>/tmp/fio.log 2>&1 &
	reap "$role" $!
	EXTRA="exit=$? read_iops=$(awk -F';' 'NR == 1 { print $8 }' /tmp/fio.log)"
	GROUP=survivable
}
wl_fio_mmap() { fio_run fio-mmap mmap "$(stat -c %s $F/fio.dat)"; }
wl_fio_read() { fio_run fio-read psync "$(stat -c %s $F/fio.dat)"; }
wl_memcg_thrash() {
	fio_run memcg-thrash mmap 256m -p MemoryMax=64M
	EXTRA="$EXTRA memory_max_mb=64"
}
sqlite_run() {	# sqlite_run ROLE MMAP_BYTES: full scans for shold s
	local role=$1 mm=$2
	: >/tmp/sqlite.n
	scope "$role" timeout "$shold" bash -c '
		n=0
		while :; do
			sqlite3 "file:'$F'/db.sqlite?immutable=1" \
				"PRAGMA mmap_size='"$mm"'; SELECT sum(length(b)) FROM t;" >/dev/null || exit $?
			n=$((n + 1)); echo $n >/tmp/sqlite.n
		done' &
	reap "$role" $!
	EXTRA="exit=$? scans=$(cat /tmp/sqlite.n) db_mb=$(( $(stat -c %s $F/db.sqlite) >> 20 )) mmap_size=$mm"
	GROUP=survivable
}
wl_sqlite() { sqlite_run sqlite 0; }
wl_sqlite_mmap() { sqlite_run sqlite-mmap "$(stat -c %s $F/db.sqlite)"; }
wl_sort() {
	rm -rf $S/sort && mkdir -p $S/sort
	surv sort env TMPDIR=$S/sort sort -o $S/sort/out $F/sort.txt
	EXTRA="$EXTRA input_mb=$(( $(stat -c %s $F/sort.txt) >> 20 )) tmp_mb=$(du -sm $S/sort | cut -f1)"
	rm -rf $S/sort
}
wl_sort_big() {
	rm -rf $S/sort && mkdir -p $S/sort
	surv sort-big env TMPDIR=$S/sort sort -S 85% -o $S/sort/out $F/sort.txt
	EXTRA="$EXTRA buffer_pct=85"
	rm -rf $S/sort
}
wl_gzip() {
	surv gzip sh -c "gzip -9 <$F/sort.txt | wc -c >/tmp/gzip.n"
}
wl_make() {
	local o=$S/kbuild
	if [ ! -e $o/.prepared ]; then
		mkdir -p $o
		{ make -s -C $F/linux O=$o tinyconfig &&
		  make -s -C $F/linux O=$o -j2 prepare; } >/tmp/make-prep.log 2>&1 ||
			{ diag "make: tinyconfig/prepare failed:"; tail -n 5 /tmp/make-prep.log | sed 's/^/#   /'; return 1; }
		touch $o/.prepared
	fi
	rm -rf $o/mm $o/kernel
	surv make make -C $F/linux O=$o -j2 -k mm/ kernel/
	EXTRA="$EXTRA objects=$(find $o/mm $o/kernel -name '*.o' 2>/dev/null | wc -l)"
}
wl_xz() {
	surv xz sh -c "xz -6 -T2 <$F/sort.txt | wc -c >/tmp/xz.n"
}
# stress-ng's vm (2 workers, 45% of RAM each, kept), mmap and page-in
# stressors: about RAM in anonymous memory, survivable with swap (with
# none it is a true OOM, no survivable run: FIELD_SWAP in scripts/field.sh).
# --vm-bytes is what all the vm workers hold together: stress-ng divides
# it among them (stress-vm.c; its manual says per worker).  Before
# this was known the workload asked for 45% of RAM in all (vm_mb then
# said 90%, what it meant to hold).
wl_stress_vm() {
	local mb
	mb=$(( $(meminfo_mb MemTotal) * 90 / 100 ))
	surv stress-vm stress-ng --vm 2 --vm-bytes "${mb}M" --vm-keep --page-in \
		--mmap 1 --mmap-bytes 64M --timeout "${shold}s" --metrics-brief
	EXTRA="$EXTRA vm_mb=$mb vm_bytes_total=1"
}

# holder_mb: MemAvailable less 6% of MemTotal, what stress-hold's holder
# takes (the room the rest of the system keeps).
holder_mb() { echo $(( $(meminfo_mb MemAvailable) - $(meminfo_mb MemTotal) * 6 / 100 )); }
# bogo_ops LOG: the vm stressor's bogo ops in stress-ng's --metrics-brief
# ("stress-ng: metrc: [PID] vm N ...").
bogo_ops() { awk '$4 == "vm" { print $5; exit }' "$1"; }
# sectors_read DEV: the sectors DEV has read since boot.
sectors_read() { awk '{ print $3 }' "/sys/block/${1#/dev/}/stat"; }

# stress-ng's vm stressor holding MemAvailable less 6% of MemTotal (the
# room the rest of the system keeps), kept and rewritten for shold s.
# --oomable: a killed worker is not restarted (any kill loses the run
# anyway, from the kernel's count or the peer's journal).
wl_stress_hold() {
	local mb
	mb=$(holder_mb)
	surv stress-hold stress-ng --vm 1 --vm-bytes "${mb}M" --vm-keep --oomable \
		--timeout "${shold}s" --metrics-brief
	EXTRA="$EXTRA vm_mb=$mb room_pct=6 bogo_ops=$(bogo_ops /tmp/surv.log)"
}

# hold-stream: stress-hold's program and, beside it, a backup job's read:
# md5sum of fio.dat (1.5 x RAM, read once, never again in the run), both
# for shold s.  The stream's page cache has the 6% of RAM the holder
# leaves, and at the data disk's rate it turns over every few seconds:
# pages never used twice, nothing refaulting, reclaim easy.  Stock serves
# it; what a trigger on the age of the oldest pages (MGLRU's min_ttl_ms)
# costs.  Result: the holder's bogo_ops and vm_exit, read_mb (the data
# disk's reads over the run: the stream's progress).
wl_hold_stream() {
	local mb vm disk r0
	mb=$(holder_mb)
	disk=$(dev_of tools) || return 1
	r0=$(sectors_read "$disk")
	scope hold-stream-vm stress-ng --vm 1 --vm-bytes "${mb}M" --vm-keep --oomable \
		--timeout "${shold}s" --metrics-brief >/tmp/hold-vm.log 2>&1 &
	vm=$!
	surv hold-stream md5sum $F/fio.dat
	reap hold-stream-vm $vm
	EXTRA="$EXTRA vm_exit=$? vm_mb=$mb room_pct=6"
	EXTRA="$EXTRA bogo_ops=$(bogo_ops /tmp/hold-vm.log)"
	EXTRA="$EXTRA read_mb=$(( ($(sectors_read "$disk") - r0) >> 11 ))"
}

# swap-cold: a python3 program with a large heap it hardly uses (a JVM's
# or a browser's idle memory): it writes a bytearray of MemAvailable
# less 6% of RAM plus 95% of the swap once, then rewrites only its last
# tenth, a byte a page, for shold s, and exits 0.  Its cold pages go to
# swap and stay there: the swap near 95% used with nothing refaulting,
# and stock serves it (RAM and swap hold it).  What systemd-oomd's
# ManagedOOMSwap (memory and swap each over 90% used: kill the largest
# user of swap) costs.  With swap only.  The fill is not timed (under TCG it
# takes about a minute: the swap-out); timeout(1) gives it 300 s.
# Result: fill_ms, passes over the hot tenth, swap_used_max_mb over them.
wl_swap_cold() {
	local mb swap
	swap=$(meminfo_mb SwapTotal)
	[ "$swap" -gt 0 ] || { diag "swap-cold: no swap"; return 1; }
	mb=$(( $(holder_mb) + swap * 95 / 100 ))
	rm -f /tmp/swap-cold.out
	SURV_LIMIT=$((shold + 300)) surv swap-cold python3 -c '
import sys, time
n, hold, out = int(sys.argv[1]) << 20, float(sys.argv[2]), sys.argv[3]

def swap_used_mb():
    kb = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":")
            kb[k] = int(v.split()[0])
    return (kb["SwapTotal"] - kb["SwapFree"]) >> 10

t0 = time.monotonic()
b = bytearray(n)
for i in range(0, n, 4096):
    b[i] = 1
t1 = time.monotonic()
passes, peak = 0, 0
while time.monotonic() - t1 < hold:
    for i in range(n - n // 10, n, 4096):
        b[i] = (b[i] + 1) & 255
    passes += 1
    peak = max(peak, swap_used_mb())
    with open(out, "w") as f:
        f.write("%d %d %d\n" % ((t1 - t0) * 1000, passes, peak))
' "$mb" "$shold" /tmp/swap-cold.out
	EXTRA="$EXTRA heap_mb=$mb swap_total_mb=$swap"
	[ -r /tmp/swap-cold.out ] &&
		EXTRA="$EXTRA $(awk '{ print "fill_ms=" $1, "passes=" $2, "swap_used_max_mb=" $3 }' /tmp/swap-cold.out)"
	return 0
}

# stress-swap: the 2004 yum update as a Debian program: stress-ng's vm
# stressor writing 120% of MemAvailable (at most MemAvailable plus 70% of
# the swap) over and over, front to back (write64).  It walks more than
# RAM: it thrashes on swap and goes on, slowly, as stock serves it; what
# a trigger on page age (MGLRU's min_ttl_ms) or on pressure costs.  With
# swap only.  Progress: the stressor's bogo ops.
wl_stress_swap() {
	local mb avail swap
	swap=$(meminfo_mb SwapTotal)
	[ "$swap" -gt 0 ] || { diag "stress-swap: no swap"; return 1; }
	avail=$(meminfo_mb MemAvailable)
	mb=$(( avail * 120 / 100 ))
	[ "$mb" -gt $(( avail + swap * 70 / 100 )) ] && mb=$(( avail + swap * 70 / 100 ))
	surv stress-swap stress-ng --vm 1 --vm-bytes "${mb}M" --vm-keep --vm-method write64 \
		--oomable --timeout "${shold}s" --metrics-brief
	EXTRA="$EXTRA vm_mb=$mb bogo_ops=$(bogo_ops /tmp/surv.log)"
}

for run in $(seq "$runs"); do
	for w in $wls; do
		fn=wl_${w//-/_} fa=
		# freeze-http-PCT, freeze-text[-PCT]: the freeze with room for
		# PCT% of the WS, of what the programs map.
		case $w in
		freeze-http-[0-9]*) fn=wl_freeze_http fa=${w#freeze-http-} ;;
		freeze-text) fn=wl_freeze_http fa="50 mapped" ;;
		freeze-text-[0-9]*) fn=wl_freeze_http fa="${w#freeze-text-} mapped" ;;
		esac
		if ! declare -F "$fn" >/dev/null; then
			t 1 "$w: no such workload"; continue
		fi
		sync; echo 3 >/proc/sys/vm/drop_caches
		DIED= EXTRA= GROUP=
		k0=$(vmstat_get oom_kill)
		since=$(date +%s)
		rm -f /tmp/avail.log /tmp/psi-run.log
		avail_log /tmp/avail.log &
		al=$!
		psi_full_max /tmp/psi-run.log &
		pl=$!
		w0=$(now_ms)
		$fn $fa
		rc=$?
		wall=$(( $(now_ms) - w0 ))
		kill $al $pl 2>/dev/null
		wait $al $pl 2>/dev/null
		# avail_samples: a sampler stalled by a freeze takes far fewer than
		# its usual 0.85 a second, and may miss the lowest MemAvailable.
		EXTRA="$EXTRA avail_min_mb=$(sort -n /tmp/avail.log | head -n 1) avail_samples=$(wc -l </tmp/avail.log)"
		# The freeze has its own, over the hold.  A survivable run's
		# thrashing spells are how near the thrash rule came to a
		# false kill.
		[ "$GROUP" = survivable ] &&
			EXTRA="$EXTRA psi_full_max=$(sort -n /tmp/psi-run.log | tail -n 1) $(thrash_keys "$w0" "$((w0 + wall))")"
		sleep 1
		kills=$(( $(vmstat_get oom_kill) - k0 ))
		pk=$(peer_kills "$since")
		# Which rule of the peer fired (systemd-oomd names it: memory
		# pressure or swap used), as the peer logged it.
		[ "$pk" -gt 0 ] && peer_kill_lines "$since" | cut -c1-300 | sed 's/^/# peer: /'
		# The freeze's hog is the right victim: only another is a loss.
		# A survivable run loses with any kill at all: stress-ng
		# restarts a killed worker, and a kill may take a daemon.
		lost=0; [ -n "${DIED//hog,/}" ] && lost=1
		[ "$GROUP" = survivable ] && [ $((kills + pk)) -gt 0 ] && lost=1
		result "scenario=$w mode=$mode run=$run seed=$seed group=$GROUP lost=$lost died=${DIED%,} kills=$kills peer_kills=$pk wall_ms=$wall $EXTRA"
		[ $rc = 0 ] && [ -n "$GROUP" ]
		t $? "$w run $run: $GROUP, lost $lost${DIED:+ (${DIED%,})}, $(echo "$EXTRA" | cut -d' ' -f1) in $((wall / 1000)) s"
		# A peer's victim's scope may be left failed: out of the way.
		systemctl reset-failed 'field-*' 2>/dev/null
	done
done
echo "# $pass passed, $fail failed"
[ "$fail" = 0 ]
