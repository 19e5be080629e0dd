# soak: stress-ng's memory stressors, drawn at random, for a set time with
# everything on (swap token with bypass, the OOM arbiter), under
# `oomwatch --assert`.  Needs the image with the stress-ng layer
# (make soak).
#
# OW_ARGS: seconds=S seed=N
# Passes when the time is up with: every round ended inside its bound,
# oomwatch found no invariant broken and lost no event, the kernel printed
# no warning (the host runner fails the run on one), and the guest still
# answers: a fresh process allocates and exits.
. /scenarios/lib.sh
parse_args

# ow_digest FILE: the decisions of a recording, with the last swap token
# pass before each, on the console: enough to see why a rule broke
# without the thousands of reclaim events in between.
ow_digest() {
	diag "digest of $1 ($(wc -l <"$1") events):"
	awk '/"type":"swap_token_(kept|bypass)"/ { pass = $0; next }
	     /"type":"(unreclaimable_set|unreclaimable_clear|oom_grant|oom_fallback|mark_victim|swap_token_grab|swap_token_release)"/ {
		if (pass != "") print pass
		pass = ""
		print
	     }' "$1" | cut -c1-240 | sed 's/^/# /' | tail -n 200
}

seconds=${ARG_seconds:-600}
seed=${ARG_seed:-1}
ktap_plan 6
RANDOM=$seed

command -v stress-ng >/dev/null
ok $? "stress-ng $(stress-ng --version 2>/dev/null | awk '{ print $3 }') in the image" ||
	{ ktap_done; exit 1; }
swap_on
mode_apply all
ok $? "swap $(swap_free_mb) MB, mode all: swap token with bypass, OOM arbiter"

# The summary on stdout; a recording in tmpfs (a few MB for 10 minutes)
# so that a broken invariant can be told apart from a wrong rule.
oomwatch -s --assert --record /tmp/ow.rec >/tmp/ow.summary 2>/tmp/ow.err &
OW_PID=$!
wait_for /tmp/ow.err 20 "oomwatch: tracing" || diag "oomwatch did not attach"
ow-bystander 16 >/dev/null &

STRESSORS="vm bigheap brk malloc mmap stack mremap"
nstress=$(echo $STRESSORS | wc -w)
ram=$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)
end=$(( $(now_ms) / 1000 + seconds ))
rounds=0 late=0 k0=$(vmstat_get oom_kill)
while [ $(( $(now_ms) / 1000 )) -lt $end ]; do
	s=$(echo $STRESSORS | cut -d' ' -f$((RANDOM % nstress + 1)))
	workers=$((RANDOM % 4 + 1))
	# Between one and three times RAM in all, split among the workers:
	# mostly swapping, and past RAM + swap now and then (true OOMs).
	mb=$(( (ram + RANDOM % (ram * 2)) / workers ))
	t=$((RANDOM % 30 + 15))
	left=$(( end - $(now_ms) / 1000 ))
	[ $t -gt $left ] && t=$left
	[ $t -ge 5 ] || break
	case $s in
	vm|mmap|malloc|mremap) opt="--$s-bytes ${mb}m" ;;
	*) opt= ;;
	esac
	rounds=$((rounds + 1))
	diag "round $rounds: $workers x $s $opt for $t s (oom kills so far $(( $(vmstat_get oom_kill) - k0 )))"
	t0=$(now_ms)
	# stress-ng's own bound, and ours around it: a round may overrun by
	# the time its workers take to die, not by minutes.  Killed workers
	# are respawned (no --oomable): the pressure lasts the whole round.
	timeout $((t + 60)) stress-ng --$s $workers $opt --timeout ${t}s -q \
		>/tmp/stress.log 2>&1
	if [ $(( $(now_ms) - t0 )) -ge $(( (t + 60) * 1000 )) ]; then
		late=$((late + 1))
		diag "round $rounds overran its bound of $((t + 60)) s"
	fi
done
kills=$(( $(vmstat_get oom_kill) - k0 ))
[ $rounds -gt 0 ] && [ $late -eq 0 ]
ok $? "$rounds rounds in $seconds s, $kills OOM kill(s), $late over their bound"

kill -INT $OW_PID
wait $OW_PID
ow_rc=$?
grep -iE "events|lost|violat|kill" /tmp/ow.summary | head -n 12 | sed 's/^/# oomwatch: /'
tail -n 3 /tmp/ow.err | sed 's/^/# oomwatch: /'
[ $ow_rc -eq 0 ]
ok $? "oomwatch --assert: no invariant broken, no event lost (exit $ow_rc)" ||
	ow_digest /tmp/ow.rec

# Every kill the kernel counted must have reached oomwatch.  mark_victim
# may exceed oom_kill (a victim already exiting is marked, not counted),
# never the other way round.
marked=$(awk '$1 == "mark_victim" { print $2 }' /tmp/ow.summary)
marked=${marked:-0}
[ "$marked" -ge "$kills" ]
ok $? "oomwatch saw every kill: $marked mark_victim event(s), $kills in /proc/vmstat"

# The recording goes out raw on the data disk: the host reads it back
# with `tr -d '\0' <build/logs/soak.data.img` and can replay it.
if rec_disk=$(disk_by_serial data); then
	cat /tmp/ow.rec >"$rec_disk" && sync
	diag "recording: $(wc -l </tmp/ow.rec) events on the data disk"
fi

ow-hog -s 8 16 >/tmp/alive.log 2>&1
ok $? "the guest answers: a new process allocated 16 MB and exited"
result "scenario=soak mode=all seconds=$seconds seed=$seed rounds=$rounds kills=$kills marked=$marked late=$late oomwatch_rc=$ow_rc"
ktap_done
