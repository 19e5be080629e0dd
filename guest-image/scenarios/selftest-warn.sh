# selftest-warn: the console carries a kernel warning; although the
# scenario passes, the host must fail the run.
. /scenarios/lib.sh
ktap_plan 1
echo "WARNING: CPU: 0 PID: 1 at mm/oomwatch-selftest.c:1 fake" >/dev/kmsg
ok 0 "a warning was written to the console"
ktap_done
