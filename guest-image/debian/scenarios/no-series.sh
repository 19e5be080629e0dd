#!/bin/bash
# The Debian guest booted on stock 6.1 (make stock-kernel: the same tree
# and config, without the series): oomwatch.service must fail once, with
# exit status 3 and oomwatch's one line saying why, and not restart.
set -u
n=0 pass=0 fail=0
t() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $2"
	else
		fail=$((fail + 1)); echo "not ok $n $2"
	fi
}

echo "KTAP version 1"
echo "1..5"
state=$(timeout 120 systemctl is-system-running --wait 2>&1)
echo "# system: $state (kernel $(uname -r))"
# Past RestartSec (5 s): a restart would have happened by now.
sleep 8
[ "$(systemctl is-active oomwatch)" = failed ]
t $? "oomwatch.service failed ($(systemctl is-active oomwatch))"
status=$(systemctl show -p ExecMainStatus --value oomwatch)
[ "$status" = 3 ]
t $? "with exit status 3, a missing tracepoint (ExecMainStatus=$status)"
restarts=$(systemctl show -p NRestarts --value oomwatch)
[ "$restarts" = 0 ]
t $? "and was not restarted (NRestarts=$restarts)"
lines=$(journalctl -q -u oomwatch -o cat -p err 2>/dev/null; journalctl -q -u oomwatch -o cat 2>/dev/null | grep '^oomwatch:')
echo "$lines" | sort -u | sed 's/^/# /'
echo "$lines" | grep -q 'lacks .* tracepoints of the oomwatch kernel series: .*; boot the oomwatch-patched kernel'
t $? "the journal says why in one line"
[ "$state" = degraded ]
t $? "the system is degraded, not stuck (systemctl is-system-running: $state)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
