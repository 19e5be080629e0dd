# Sourced by the build and run scripts: a line of progress on long work.
#
#   watch_pid PID INTERVAL FUNCTION   call FUNCTION ELAPSED every INTERVAL
#                                     seconds while PID runs
#
# Lines, never carriage-return spinners: they stay readable in a CI log.
# OOMWATCH_PROGRESS_S sets the interval (default 30 s; 0: no progress).

progress_interval=${OOMWATCH_PROGRESS_S:-30}
case $progress_interval in ''|*[!0-9]*) progress_interval=30 ;; esac

# fmt_secs S: "7m05s" or "42s".
fmt_secs() {
	if [ "$1" -ge 60 ]; then
		printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds' "$1"
	fi
}

watch_pid() {
	local pid=$1 every=$2 fn=$3 t0 next now
	t0=$(date +%s)
	next=$((t0 + every))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		if [ "$every" -gt 0 ] && [ "$now" -ge "$next" ] &&
		   kill -0 "$pid" 2>/dev/null; then
			"$fn" $((now - t0)) || true
			next=$((now + every))
		fi
	done
}
