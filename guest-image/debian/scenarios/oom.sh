#!/bin/bash
# The Debian guest's OOM test: systemd up, oomwatch.service watching, the
# arbiter on, and a true OOM from a real program (python3 filling memory,
# no swap).  What must hold:
#   the system reaches `running`, oomwatch.service is active;
#   python3 is killed, and the journal holds the kill with its grant and
#   the grant's evidence (journalctl -u oomwatch OOMWATCH_EVENT=kill);
#   the service is still active after it;
#   `systemctl reload` rotates the recording, and `oomwatch --replay
#   --assert` of the rotated file exits 0 and shows the kill;
#   node_exporter serves oomwatch's metrics (the package's example
#   drop-in), and oomwatch_oom_kills_total is the recordings' kills.
set -u
n=0 pass=0 fail=0
t() {	# t STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $2"
	else
		fail=$((fail + 1)); echo "not ok $n $2"
	fi
}
diag() { echo "# $*"; }
rec=/var/log/oomwatch/oomwatch.jsonl

echo "KTAP version 1"
echo "1..11"
state=$(timeout 120 systemctl is-system-running --wait 2>&1)
[ "$state" = running ]
t $? "the system is running (systemctl is-system-running: $state)"
[ "$state" = running ] || systemctl --failed --no-legend | sed 's/^/# failed: /'
diag "boot: $(systemd-analyze time 2>/dev/null | head -n 1)"
diag "installed: $(dpkg-query -W -f='${Package} ${Version}, ' oomwatch 'linux-image-*oomwatch')kernel $(uname -r)"
diag "dpkg -L oomwatch: $(dpkg -L oomwatch | grep -v '/$' | while read -r f; do [ -d "$f" ] || printf '%s ' "$f"; done)"
systemctl is-active -q oomwatch
t $? "oomwatch.service is active"
diag "oomwatch.service: $(systemctl show -p MainPID -p ActiveState -p NRestarts oomwatch | tr '\n' ' ')"

sysctl -q vm.oom_arbiter=1
# The service has its recording open and has written the header.
for _ in $(seq 50); do [ -s "$rec" ] && break; sleep 0.2; done
since=$(date +%s)
# A real program, no swap: bytes objects are written, so they are resident.
python3 -c '
chunks = []
while True:
    chunks.append(b"\x01" * (8 << 20))
' 2>/dev/null
rc=$?
[ "$rc" = 137 ]
t $? "python3 filling memory was killed (exit $rc, want 137: SIGKILL)"

# The kill reaches the journal after oomwatch's reorder window.
entry=
for _ in $(seq 50); do
	entry=$(journalctl -q -u oomwatch --since "@$since" OOMWATCH_EVENT=kill \
		OOMWATCH_VICTIM_COMM=python3 -o export 2>/dev/null)
	[ -n "$entry" ] && break
	sleep 0.2
done
[ -n "$entry" ]
t $? "the journal holds the kill (journalctl -u oomwatch OOMWATCH_EVENT=kill OOMWATCH_VICTIM_COMM=python3)"
field() { echo "$entry" | sed -n "s/^$1=//p" | head -n 1; }
diag "$(field MESSAGE)"
# Its permit: kswapd's grant, with the evidence, or the arbiter's
# fallback to the stock path, which a request the arbiter leaves to stock
# 6.1 takes (a GFP_NOFS one of journald's or jbd2's, say, when the run's
# timing has one enter the OOM killer first).
permit=$(field OOMWATCH_PERMIT)
case $permit in
grant) [ -n "$(field OOMWATCH_GRANT_UNRECLAIMABLE_MS)" ] ;;
fallback) true ;;
*) false ;;
esac && [ -n "$(field OOMWATCH_PERMIT_SEQ)" ] && [ "$(field PRIORITY)" = 4 ]
t $? "the kill entry is a warning with its permit ($permit, seq $(field OOMWATCH_PERMIT_SEQ)) and, for a grant, the evidence (unreclaimable $(field OOMWATCH_GRANT_UNRECLAIMABLE_MS) ms, zones free/min $(field OOMWATCH_GRANT_ZONES))"

sleep 1
systemctl is-active -q oomwatch
t $? "oomwatch.service is still active after the OOM"
pid=$(systemctl show -p MainPID --value oomwatch)
diag "oomwatch.service: $(ps -o rss=,vsz= -p "$pid" | awk '{printf "RSS %d kB, VSZ %d kB", $1, $2}') after the OOM"

systemctl reload oomwatch
for _ in $(seq 50); do [ -s "$rec.1" ] && break; sleep 0.2; done
[ -s "$rec.1" ] && [ -s "$rec" ]
t $? "systemctl reload rotated the recording ($(ls -s "$rec"* 2>/dev/null | tr '\n' ' '))"
out=$(oomwatch --replay "$rec.1" --assert 2>&1)
rc=$?
echo "$out" | grep ' KILL ' | sed 's/^/# /'
[ "$rc" = 0 ]
t $? "oomwatch --replay $rec.1 --assert exits 0 (exit $rc)"
[ "$rc" = 0 ] || echo "$out" | grep -E 'violation|!!' | head -n 5 | sed 's/^/# /'
echo "$out" | grep ' KILL ' | grep -q 'python3'
t $? "the replay shows the kill of python3"

# node_exporter reads the textfile directory at each scrape; oomwatch
# writes it every 15 s (--metrics-interval's default).
kills=$(cat "$rec.1" "$rec" | grep -c '"type":"mark_victim"')
scrape() {
	python3 - <<'PY'
import re, sys, urllib.request
text = urllib.request.urlopen("http://127.0.0.1:9100/metrics", timeout=5).read().decode()
kills = sum(float(m.group(1)) for m in re.finditer(r'^oomwatch_oom_kills_total\{[^}]*\} (\S+)$', text, re.M))
err = re.search(r'^node_textfile_scrape_error (\S+)$', text, re.M)
print(int(kills), err.group(1) if err else "none")
PY
}
got=
for _ in $(seq 40); do
	got=$(scrape 2>/dev/null)
	[ "${got%% *}" = "$kills" ] && break
	sleep 1
done
[ "${got##* }" = 0 ]
t $? "node_exporter serves the textfile directory without error (node_textfile_scrape_error ${got##* })"
[ "${got%% *}" = "$kills" ] && [ "$kills" -ge 1 ]
t $? "node_exporter's oomwatch_oom_kills_total is the recordings' kills (${got%% *}, recorded $kills)"

echo "# $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
