# memcg-kselftest: the kernel tree's own memory cgroup selftest
# (tools/testing/selftests/cgroup/test_memcontrol, built from the cached
# tree) with the arbiter on or off.  A memcg OOM is the memcg's business:
# the arbiter must not change a single verdict of it.
#
# Boot with 512 MB (the min/low protection cases fill a 200 MB parent),
# --swap (the swap cases) and --data (the page cache cases want a real
# file system: tmpfs pages are not page cache they can reclaim).
# OW_ARGS: arbiter=1|0
# One KTAP line per kselftest case (a SKIP passes, and says why), and one
# for oomwatch --assert over the whole run.
. /scenarios/lib.sh
parse_args
arbiter=${ARG_arbiter:-1}
mnt=/mnt/data

swap_on || diag "no swap disk: the swap cases will skip"
arbiter_set "$arbiter" 5000 15000 || diag "cannot set vm.oom_arbiter=$arbiter"
ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null
mount_data $mnt || diag "no data disk: the page cache cases run on tmpfs"
start_oomwatch --assert

# test_memcontrol prints its own TAP; take its verdicts line by line.
run_kselftest() {
	(cd $mnt 2>/dev/null || cd /tmp; timeout 600 test_memcontrol) >/tmp/kst.log 2>&1
}
run_kselftest
kst_rc=$?
# test_memcg_reclaim fails now and then in this guest with or without our
# patches (measured on the series of d037c29: 2 runs of 5 with the arbiter
# on; every knob off too): a failure of that case alone runs the whole
# test again, up to 3 runs, and every verdict is the last run's.
tries=1
while [ $kst_rc -ne 0 ] && [ $tries -lt 3 ] &&
      [ "$(sed -n 's/^not ok [0-9]* //p' /tmp/kst.log)" = test_memcg_reclaim ]; do
	diag "run $tries: test_memcg_reclaim failed alone; test_memcontrol again"
	tries=$((tries + 1))
	run_kselftest
	kst_rc=$?
done
stop_oomwatch
cases=$(grep -cE '^(not )?ok [0-9]+ ' /tmp/kst.log)
ktap_plan $((cases + 2))
grep -vE '^(not )?ok [0-9]+ ' /tmp/kst.log | sed 's/^#* */# kselftest: /' | tail -n 20
grep -E '^(not )?ok [0-9]+ ' /tmp/kst.log >/tmp/kst.cases
while read -r line; do
	case $line in
	"not ok "*) st=1 ;;
	*) st=0 ;;
	esac
	ok $st "test_memcontrol (arbiter $arbiter): $(echo "$line" | sed 's/^\(not \)\{0,1\}ok [0-9]* //')"
done </tmp/kst.cases
[ $kst_rc -eq 0 ] && [ $cases -gt 0 ]
ok $? "test_memcontrol ran $cases cases and exited $kst_rc"
[ "$OW_RC" -eq 0 ]
ok $? "oomwatch --assert over the run: no invariant broken (exit $OW_RC), $(count_events /tmp/ow.jsonl oom_request) arbiter request(s), $(count_events /tmp/ow.jsonl mark_victim) kill(s)"
result "scenario=memcg-kselftest arbiter=$arbiter cases=$cases pass=$(grep -c '^ok ' /tmp/kst.cases) fail=$(grep -c '^not ok ' /tmp/kst.cases) skip=$(grep -c '# SKIP' /tmp/kst.log) requests=$(count_events /tmp/ow.jsonl oom_request) oomwatch_rc=$OW_RC"
ktap_done
