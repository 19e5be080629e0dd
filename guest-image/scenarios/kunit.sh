# kunit: the kernel ran the oom_arbiter KUnit suite at boot; re-emit its
# results from the kernel log, one KTAP line per case.
. /scenarios/lib.sh
dmesg | sed 's/^\[[ 0-9.]*\] //' >/tmp/kunit.log
cases=$(sed -n '/# Subtest: oom_arbiter/,/ok [0-9]* oom_arbiter/p' /tmp/kunit.log |
	grep -E '^ +(not )?ok [0-9]+ ')
n=$(echo "$cases" | grep -c ok)
ktap_plan $((n + 1))
grep -qE '^ok [0-9]+ oom_arbiter' /tmp/kunit.log
ok $? "kunit: suite oom_arbiter ran and passed ($n cases)"
echo "$cases" | sed 's/^ *//' | while read -r line; do
	case $line in
	"not ok "*) rest=${line#not ok }; res="not ok" ;;
	*) rest=${line#ok }; res=ok ;;
	esac
	echo "$res $((${rest%% *} + 1)) kunit: oom_arbiter: ${rest#* }"
done
# The loop ran in a subshell: count failures again for the verdict.
! echo "$cases" | grep -q 'not ok' && grep -qE '^ok [0-9]+ oom_arbiter' /tmp/kunit.log
