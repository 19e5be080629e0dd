#!/bin/bash
# The field bench (make bench ONLY=field): real programs from Debian's
# packages on the Debian guest (build/debian-field.img), each peer at
# several settings, the same workloads and runs under every setting.
#
#   scripts/field.sh data RAM_MB OUT.img   the data disk for a guest of
#                                          RAM_MB (cached)
#   scripts/field.sh run                   the bench: OUT/field-runs.txt,
#                                          OUT/field.md, OUT/field.svg
#
# One guest per setting and guest size; inside it, RUNS runs of every
# workload in turn (guest-image/debian/scenarios/field.sh says what each
# is and measures).  Its "# result:" lines are collected into
# OUT/field-runs.txt, each with the guest's shape and the commit and date
# added, which build/ow-report field makes a table and a scatter of.
#
# Environment (defaults in brackets):
#   SETTINGS   [stock mglru-100 mglru-1000 mglru-5000 earlyoom nohang
#              oomd oomd-60-30 oomd-20-5 arbiter thrash-2000 thrash-5000
#              thrash-10000]
#   FIELD_W    workloads, '+'-separated [freeze-text+freeze-http+
#              fio-mmap+fio-read+sqlite+sqlite-mmap+sort+sort-big+
#              stress-hold+hold-stream+gzip+xz+make+memcg-thrash, and
#              stress-vm, stress-swap and swap-cold when FIELD_SWAP is
#              set]
#   FIELD_MEM  guest sizes in MB, space-separated [1024 4096]
#   FIELD_NUMA fake NUMA nodes, space-separated [1 2]
#   FIELD_SWAP swap disk sizes in MB, space-separated; 0 for none [0]
#              (with swap, the freeze's hog fills it: the full-swap freeze)
#   FIELD_DISK_BPS  read rate of the data disk, bytes/s (qemu-run
#              --tools-bps) [20000000; 0: unthrottled, an image in the
#              host's page cache, which hardly ever freezes under TCG]
#   REPEAT     runs per cell [5]
#   HOLD       the freeze's hog holds its memory this long, s [300]
#   SHOLD      each survivable workload runs this long, s [60]
#   SEED       [1]
#   OUT        [results/bench/field]
#   APPEND=1   keep the runs already in OUT/field-runs.txt and add these
#              (runs accumulate over sessions; each line has its commit)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=build
cache=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}/field

die() { echo "field: error: $*" >&2; exit 1; }

# The thrash rule's runs from before a change of its decision are shown
# as settings of their own, not pooled with the rule as it is now: the
# lines of these commits (the series up to f8b8e72, whose spell ended at
# its first calm window; 0006 has had the dip since) become
# "thrash-N-nodip".  The recorded lines are left as they are.
# And on more than one node, the lines from before c1c7a78, whose thrash
# grant only an allocation preferring its node could take, become
# "thrash-N-prefnode" (one node: the same decisions, nothing changes).
NODIP_COMMITS='6e615af|1f00797|58b912f|ba04b77|f439b2c|00507af|e542552'
PREFNODE_COMMITS='2887b6f'
superseded() {
	sed -E -e "/ commit=($NODIP_COMMITS)( |\$)/s/ mode=(thrash-[0-9]+) / mode=\1-nodip /" \
		-e "/ nodes=([2-9]|[1-9][0-9]+) .*commit=($PREFNODE_COMMITS)( |\$)/s/ mode=(thrash-[0-9]+) / mode=\1-prefnode /"
}

# data RAM_MB OUT: fio.dat 1.5 x RAM, db.sqlite and sort.txt 1.25 x RAM,
# www/ (96 files of 1 MB: the HTTP server's) and text.txt (1 MB: the
# shell loop's), from a keyed stream (openssl aes-128-ctr): the same
# bytes on every machine; linux/, Debian's linux-source-6.1 (the make
# workload's C tree).  An ext4 image (mke2fs -d), cached per RAM size and
# linux-source version.
data() {
	local ram=$1 out=$2 img dir i rows src=/usr/src/linux-source-6.1.tar.xz ver
	case $ram in ''|*[!0-9]*) die "data: RAM_MB '$ram' is not a number" ;; esac
	[ -r $src ] || die "$src missing: run 'make deps' (package linux-source-6.1)"
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		die "linux-source-6.1 is not installed: run 'make deps'"
	img=$cache/data-$ram-v2-$ver.img
	if [ ! -s "$img" ]; then
		mkdir -p "$cache"
		dir=$(mktemp -d "$cache/data.XXXXXX")
		trap 'rm -rf "$dir"' EXIT
		echo "field: making the data disk for $ram MB guests" >&2
		stream() { openssl enc -aes-128-ctr -nosalt -pbkdf2 -pass "pass:$1" </dev/zero 2>/dev/null; }
		mkdir "$dir/www"
		for i in $(seq 0 95); do stream "www$i" | head -c 1M >"$dir/www/f$i"; done
		stream text | base64 -w 72 | head -c 1M >"$dir/text.txt"
		stream fio | head -c $((ram * 3 / 2))M >"$dir/fio.dat"
		stream sort | base64 -w 64 | head -c $((ram * 5 / 4))M >"$dir/sort.txt"
		# Rows of 1000 random bytes (sqlite's own PRNG: the database is
		# not byte-identical across runs, its size and shape are).
		rows=$((ram * 5 / 4 * 1024 * 1024 / 1040))
		sqlite3 "$dir/db.sqlite" "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
			CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB);
			WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $rows)
			INSERT INTO t SELECT i, randomblob(1000) FROM c;" >/dev/null ||
			die "sqlite3 failed"
		mkdir "$dir/linux"
		tar -xJf $src -C "$dir/linux" --strip-components=1 || die "$src: tar failed"
		mke2fs -q -t ext4 -L field -d "$dir" "$img.tmp" >/dev/null \
			"$(( $(du -sm "$dir" | cut -f1) * 11 / 10 + 64 ))M" || die "mke2fs -d failed"
		mv "$img.tmp" "$img"
		rm -rf "$dir"
		trap - EXIT
	fi
	mkdir -p "$(dirname "$out")"
	rm -f "$out"
	ln "$img" "$out" 2>/dev/null || cp --sparse=always "$img" "$out"
}

# workloads_for W SWAP_MB: W, with the swap workloads (stress-vm,
# stress-swap, swap-cold) added when there is swap and FIELD_W was not
# given, and taken out when there is none (about RAM or more in
# anonymous memory: without swap a true OOM, not survivable work).
workloads_for() {
	local w=$1 sw
	if [ "$2" -gt 0 ]; then
		[ -z "${FIELD_W:-}" ] && w=$w+stress-vm+stress-swap+swap-cold
	else
		for sw in stress-vm stress-swap swap-cold; do
			case +$w+ in *+$sw+*)
				echo "field: no swap: $sw left out" >&2
				w=$(echo "+$w+" | sed "s/+$sw+/+/g; s/^+//; s/+\$//") ;;
			esac
		done
	fi
	echo "$w"
}

kernel_of() {	# the kernel a setting runs on
	case $1 in
	arbiter|thrash-*) echo "$patched" ;;
	*) echo "$stock" ;;
	esac
}

run() {
	local settings w mems numas runs hold shold seed out commit date
	settings=${SETTINGS:-stock mglru-100 mglru-1000 mglru-5000 earlyoom nohang oomd oomd-60-30 oomd-20-5 arbiter thrash-2000 thrash-5000 thrash-10000}
	w=${FIELD_W:-freeze-text+freeze-http+fio-mmap+fio-read+sqlite+sqlite-mmap+sort+sort-big+stress-hold+hold-stream+gzip+xz+make+memcg-thrash}
	mems=${FIELD_MEM:-1024 4096}
	numas=${FIELD_NUMA:-1 2}
	swaps=${FIELD_SWAP:-0}
	bps=${FIELD_DISK_BPS:-20000000}
	runs=${REPEAT:-5} hold=${HOLD:-300} shold=${SHOLD:-60} seed=${SEED:-1}
	out=${OUT:-results/bench/field}
	for n in $runs $hold $shold $seed $mems $numas $swaps $bps; do
		case $n in ''|*[!0-9]*) die "'$n' is not a number" ;; esac
	done
	commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	# Dirty: code that differs from the commit.  results/ does not
	# count: a campaign of several runs (APPEND=1) commits its results
	# between them, or not.
	git diff --quiet HEAD -- . ':(exclude)results' 2>/dev/null ||
		commit="$commit+dirty"
	date=$(date -u +%Y-%m-%d)
	patched=$B/kernel/bzImage
	stock=$(scripts/kernel.sh --stock --print-dir)/arch/x86/boot/bzImage
	[ -r $B/debian-field.img ] || die "$B/debian-field.img missing (make field-image)"
	[ -x $B/ow-report ] || die "$B/ow-report missing"
	[ -r $B/initramfs.cpio ] || die "$B/initramfs.cpio missing (make image)"
	mkdir -p "$out" $B/logs/field
	# Copies: a build while the bench runs must not change its guests.
	for k in patched stock; do
		if [ -r "${!k}" ]; then
			cp -L "${!k}" "$B/logs/field/bzImage-$k"
		else
			echo "field: no $k kernel (${!k}): its settings are skipped" >&2
		fi
	done
	local runs_file=$out/field-runs.txt
	: >"$runs_file.new"
	[ "${APPEND:-0}" = 1 ] && [ -r "$runs_file" ] && cat "$runs_file" >>"$runs_file.new"
	local nw total i=0 failed=0 t_start mem numa swap ws s k kname log rc per guest_t
	total=$(( $(echo $settings | wc -w) * $(echo $mems | wc -w) * $(echo $numas | wc -w) * $(echo $swaps | wc -w) ))
	t_start=$(date +%s)
	for mem in $mems; do
		data "$mem" "$B/field-data-$mem.img"
		for numa in $numas; do
		for swap in $swaps; do
			ws=$(workloads_for "$w" "$swap")
			[ -n "$ws" ] || die "FIELD_W=$w: nothing left to run without swap"
			# A run: the freeze (a warm-up, the hog's fill and hold,
			# the wait for what hung) and every other workload for
			# SHOLD s, each with a cache drop and start-up; the boot
			# once; make's tinyconfig and prepare, once per guest,
			# untimed: 15 min.
			nw=$(echo "${ws//+/ }" | wc -w)
			per=$(( (hold + 150) + (nw - 1) * (shold + 60) ))
			guest_t=$(( 300 + runs * per + ($(echo "+$ws+" | grep -c '+make+') * 900) ))
			for s in $settings; do
				i=$((i + 1))
				k=$(kernel_of "$s")
				kname=$([ "$k" = "$patched" ] && echo patched || echo stock)
				[ -r "$B/logs/field/bzImage-$kname" ] || { failed=$((failed + 1)); continue; }
				log=$B/logs/field/$i-$s-$mem-$numa-$swap.log
				elapsed=$(( $(date +%s) - t_start ))
				eta=
				[ $i -gt 1 ] && eta=", about $(( elapsed * (total - i + 1) / (i - 1) / 60 )) min left"
				printf 'field: [%d/%d] %s (%s kernel), %d MB, %d node(s), swap %d MB: %s, %d run(s) (%d min in%s)\n' \
					$i $total "$s" $kname "$mem" "$numa" "$swap" "${ws//+/ }" "$runs" \
					$((elapsed / 60)) "$eta" >&2
				scripts/qemu-run.sh --quiet --kernel "$B/logs/field/bzImage-$kname" \
					--initrd $B/initramfs.cpio --disk $B/debian-field.img \
					--tools "$B/field-data-$mem.img" --tools-bps "$bps" \
					--data $((mem * 2 + 1024)) --swap "$swap" \
					--mem "$mem" --cpus 2 --numa "$numa" --scenario field \
					--timeout "$guest_t" --log "$log" \
					--append "ow.args=mode=$s,w=$ws,runs=$runs,hold=$hold,shold=$shold,seed=$seed" \
					2>"$log.runner"
				rc=$?
				tr -d '\r' <"$log" | sed -n 's/^# result: //p' |
					sed "s/\$/ mem_mb=$mem nodes=$numa swap_mb=$swap disk_bps=$bps kernel=$kname commit=$commit date=$date/" \
					>>"$runs_file.new"
				tr -d '\r' <"$log" | grep '^not ok' | sed 's/^/field:   /' >&2
				if [ $rc -ne 0 ]; then
					failed=$((failed + 1))
					echo "field:   guest exit $rc; $log" >&2
					tail -n 5 "$log.runner" | sed 's/^/field:   /' >&2
				fi
			done
		done
		done
	done
	mv "$runs_file.new" "$runs_file"
	local minutes=$(( ($(date +%s) - t_start) / 60 ))
	superseded <"$runs_file" |
		$B/ow-report field --out-dir "$out" --commit "$commit" --date "$date" \
		--title "field bench: $runs run(s) per cell$([ "${APPEND:-0}" = 1 ] && echo " added to the earlier runs"), hold $hold s, survivable $shold s each, $minutes min, TCG, -smp 2 (each shape says how many CPUs the guest brought up)" \
		--order "${settings// /,}" - >"$out/field.md" ||
		die "ow-report field failed"
	echo "field: wrote $out/field.md and $out/field.svg; $total guest(s), $failed failed, $minutes min" >&2
	[ $failed -eq 0 ]
}

case ${1:-} in
data) [ $# = 3 ] || die "usage: scripts/field.sh data RAM_MB OUT.img"; data "$2" "$3" ;;
run) run ;;
*) echo "usage: scripts/field.sh data RAM_MB OUT.img | run" >&2; exit 2 ;;
esac
