#!/bin/bash
# TAP: the guest scenarios' trace helpers (guest-image/scenarios/lib.sh),
# on hand-made recordings: after_victim_exit, which judges the second
# wave of an OOM storm, and stale_verdicts, which judges kswapd's
# verdicts.  Each recording is the smallest trace that shows one case.
# shellcheck source=tests/runner/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=guest-image/scenarios/lib.sh
. "$top/guest-image/scenarios/lib.sh"

# ev SEQ MS TYPE FIELDS [PID]: one JSON line of trace format 1, traced
# in task PID (1).
ev() {
	printf '{"v":1,"seq":%d,"ts_ns":%d000000,"cpu":0,"pid":%d,"tgid":%d,"comm":"t","type":"%s",%s}\n' \
		"$1" "$2" "${5:-1}" "${5:-1}" "$3" "$4"
}
request() { ev "$1" "$2" oom_request "\"request_pid\":$3,\"nid\":0"; }
veto() { ev "$1" "$2" oom_veto "\"request_pid\":$3,\"nid\":0"; }
grant() { ev "$1" "$2" oom_grant "\"grant_pid\":$3,\"nid\":0"; }
defer() { ev "$1" "$2" oom_defer "\"request_pid\":$3,\"nid\":0"; }
# victim SEQ MS VICTIM KILLER
victim() { ev "$1" "$2" mark_victim "\"victim_pid\":$3" "$4"; }
task_exit() { ev "$1" "$2" task_exit "\"exit_pid\":$3,\"exit_tgid\":$3"; }

# A storm: 10 and 11 wait, 10 is granted and kills 99; 12 asks after the
# kill (after the victim's memory was freed, before its exit event), and
# waits 5 s for the next verdict; 11 ends 40 ms after the exit.
{
	request 1 1000 10
	request 2 1010 11
	grant 3 2000 10
	request 4 2001 11
	victim 5 2002 99 10
	request 6 2050 12
	task_exit 7 2100 99
	veto 8 2140 11
	veto 9 7100 12
} >"$work/late.jsonl"
set -- $(after_victim_exit "$work/late.jsonl")
check "a request after the kill waits 5 s: all waiters 2, slowest 5000 ms, 0 open" \
	[ "$1 $2 $3" = "2 5000 0" ]
check "of those made before the kill: 1, ended 40 ms after the exit, 0 open" \
	[ "$4 $5 $6" = "1 40 0" ]

# A request made before the kill that never ends: open, and judged.  (The
# grant ended 11's first wait: it wakes every waiter; 11 asks again.)
{
	request 1 1000 10
	request 2 1010 11
	grant 3 2000 10
	request 4 2001 11
	victim 5 2002 99 10
	task_exit 6 2100 99
} >"$work/open.jsonl"
set -- $(after_victim_exit "$work/open.jsonl")
check "a request waiting through the exit that never ends is open before the kill" \
	[ "$1 $3 $4 $6" = "1 1 1 1" ]

# The exit of a task nobody killed opens no wait.
{
	request 1 1000 10
	task_exit 2 1100 50
	veto 3 3000 10
} >"$work/plain.jsonl"
check "an ordinary exit is no victim's: nothing waits" \
	[ "$(after_victim_exit "$work/plain.jsonl")" = "0 0 0 0 0 0" ]

# A grant on any node ends every waiter.
{
	request 1 1000 10
	victim 2 1100 99 20
	task_exit 3 1200 99
	grant 4 1500 10
} >"$work/grant.jsonl"
check "a grant after the exit ends the waiter: 300 ms" \
	[ "$(after_victim_exit "$work/grant.jsonl")" = "1 300 0 1 300 0" ]

# kswapd's verdicts name a request still waiting on their node.
{
	request 1 1000 10
	defer 2 1100 10
	grant 3 1200 10
	victim 4 1300 99 10
	defer 5 1400 10
	grant 6 1500 11
} >"$work/verdicts.jsonl"
check "a defer naming a request that ended in a kill, and a grant to none: 2 stale of 4" \
	[ "$(stale_verdicts "$work/verdicts.jsonl")" = "4 2" ]

echo "1..$n"
[ "$failed" -eq 0 ]
