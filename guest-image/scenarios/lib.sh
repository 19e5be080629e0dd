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
