#!/bin/bash
# Boot the test guest in QEMU and return its verdict.
#
#   scripts/qemu-run.sh --kernel BZIMAGE --initrd CPIO [options]
#
#   --scenario NAME     guest scenario (ow.scenario=NAME), default smoke
#   --mem MB            guest memory, default 256
#   --cpus N            default 2
#   --numa N            N fake NUMA nodes (numa=fake=N), default 1
#   --swap MB           a virtio-blk swap disk of MB megabytes (sparse file)
#   --swap-bps BYTES    QEMU block throttling of that disk (a slow device)
#   --data MB           a second virtio-blk disk (after the swap disk) for
#                       a file system the guest makes
#   --keep-data         keep that disk's image after the run (the soak
#                       writes its recording on it, raw)
#   --tools IMG         a read-only virtio-blk disk (serial "tools") with
#                       programs from Debian's archive and their libraries
#                       (make field-tools: fio, sqlite3), which the guest
#                       mounts: on disk, so that they cost the guest's RAM
#                       only the pages they touch, as on a real system
#   --disk IMG          boot a root file system instead of the initramfs:
#                       IMG (ext4, make run GUEST=debian) as /dev/vda, in
#                       QEMU's snapshot mode (IMG is never written), with
#                       its own init (systemd); --initrd then serves only
#                       the KVM probe
#   --tools-bps BYTES   QEMU block throttling of the tools disk (a real
#                       disk's read rate: refaults of what it holds cost
#                       what they would on one, not a host page cache hit)
#   --timeout S         hard limit; QEMU is killed after it, default 120
#   --log FILE          console log, default build/logs/NAME.log
#   --append ARGS       more kernel command line
#   --quiet             console only to the log, not the terminal
#   --progress-fd N     with --quiet: every OOMWATCH_PROGRESS_S (30) s, a
#                       line on fd N: elapsed, limit, the guest's last
#                       test line
#
# Exit status: 0 the guest passed; 1 it reported a failure; 2 it panicked,
# reset or stopped without a verdict; 3 the time limit ran out; 4 the
# console shows a kernel WARNING/BUG/lockdep/hung-task report; 5 set-up
# error.  On anything but 0 the tail of the console log is printed.
#
# Accelerator: KVM only where a probe guest really boots with it (the
# result is cached per host boot); otherwise TCG; scripts/accel.sh says
# why in one line.  OOMWATCH_ACCEL=tcg|kvm forces one.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/progress.sh
. "$top/scripts/progress.sh"
cache=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}
kernel= initrd= scenario=smoke mem=256 cpus=2 numa=1 swap=0 swap_bps=0 data=0
keep_data= tools= tools_bps=0 root_disk=
timeout_s=120 log= append= quiet=0 progress_fd=

die() { echo "qemu-run: error: $*" >&2; exit 5; }

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--scenario) scenario=$2; shift ;;
	--mem) mem=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--numa) numa=$2; shift ;;
	--swap) swap=$2; shift ;;
	--swap-bps) swap_bps=$2; shift ;;
	--data) data=$2; shift ;;
	--keep-data) keep_data=1 ;;
	--tools) tools=$2; shift ;;
	--tools-bps) tools_bps=$2; shift ;;
	--disk) root_disk=$2; shift ;;
	--timeout) timeout_s=$2; shift ;;
	--log) log=$2; shift ;;
	--append) append=$2; shift ;;
	--quiet) quiet=1 ;;
	--progress-fd) progress_fd=$2; shift ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done

[ -r "$kernel" ] || die "kernel '$kernel' not found (make kernel)"
[ -r "$initrd" ] || die "initramfs '$initrd' not found (make image)"
command -v "${OOMWATCH_QEMU:-qemu-system-x86_64}" >/dev/null || die "qemu-system-x86_64 missing (make deps)"
[ -z "$tools" ] || [ -r "$tools" ] || die "tools disk '$tools' not found (make field-tools)"
[ -z "$root_disk" ] || [ -r "$root_disk" ] || die "root disk '$root_disk' not found (make debian-image)"
for n in "$mem" "$cpus" "$numa" "$swap" "$swap_bps" "$data" "$tools_bps" "$timeout_s"; do
	case $n in ''|*[!0-9]*) die "'$n' is not a number" ;; esac
done
log=${log:-$top/build/logs/$scenario.log}
mkdir -p "$(dirname "$log")"

cmdline="console=ttyS0 panic=-1 oops=panic softlockup_panic=0 loglevel=5"
if [ -n "$root_disk" ]; then
	# The scenario's own bound (run-scenario), inside the host's.
	cmdline="$cmdline root=/dev/vda rw ow.scenario=$scenario ow.timeout=$((timeout_s - 30))"
else
	cmdline="$cmdline rdinit=/init ow.scenario=$scenario"
fi
[ "$numa" -gt 1 ] && cmdline="$cmdline numa=fake=$numa"
[ -n "$append" ] && cmdline="$cmdline $append"

# Arguments shared by the probe and the real run.
base_args() {
	echo -display none -no-reboot -nodefaults -serial stdio \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-m "$mem" -smp "$cpus"
}

# shellcheck source=scripts/accel.sh
. "$top/scripts/accel.sh"
pick_accel "$kernel" "$initrd" || exit 5

disk_args=()
boot_args=(-initrd "$initrd")
if [ -n "$root_disk" ]; then
	boot_args=()
	disk_args=(-drive "file=$root_disk,format=raw,if=none,id=root,snapshot=on"
		-device virtio-blk-pci,drive=root,serial=root)
fi
if [ "$swap" -gt 0 ]; then
	disk=$(dirname "$log")/$scenario.swap.img
	rm -f "$disk"
	truncate -s "${swap}M" "$disk"
	throttle=
	[ "$swap_bps" -gt 0 ] && throttle=",throttling.bps-total=$swap_bps"
	disk_args+=(-drive "file=$disk,format=raw,if=none,id=swap,cache=unsafe$throttle"
		-device virtio-blk-pci,drive=swap,serial=swap)
fi
if [ "$data" -gt 0 ]; then
	data_disk=$(dirname "$log")/$scenario.data.img
	rm -f "$data_disk"
	truncate -s "${data}M" "$data_disk"
	disk_args+=(-drive "file=$data_disk,format=raw,if=none,id=data,cache=unsafe"
		-device virtio-blk-pci,drive=data,serial=data)
fi
if [ -n "$tools" ]; then
	throttle=
	[ "$tools_bps" -gt 0 ] && throttle=",throttling.bps-total=$tools_bps"
	disk_args+=(-drive "file=$tools,format=raw,if=none,id=tools,readonly=on$throttle"
		-device virtio-blk-pci,drive=tools,serial=tools)
fi

echo "qemu-run: accelerator $accel_why" >&2
echo "qemu-run: $scenario (${accel%% -cpu*}, ${mem} MB, $cpus CPUs, $numa node(s), swap ${swap} MB, limit ${timeout_s} s) log $log" >&2
: >"$log"
start=$(date +%s.%N)
"$qemu_bin" $(base_args) $accel -kernel "$kernel" "${boot_args[@]}" \
	-append "$cmdline" "${disk_args[@]}" </dev/null >"$log" 2>&1 &
qemu=$!
# Never leave a guest behind, whatever ends us.
trap 'kill -KILL "$qemu" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
follow=
if [ "$quiet" = 0 ]; then
	tail -n +1 -f --pid="$qemu" "$log" &
	follow=$!
fi
# Watch the guest: the time limit, and a guest that halted without a
# verdict (no ACPI: power-off halts, and QEMU would wait forever).
t0=$(date +%s)
deadline=$((t0 + timeout_s))
next_progress=$((t0 + progress_interval))
rc=
while kill -0 "$qemu" 2>/dev/null; do
	if [ -n "$progress_fd" ] && [ "$progress_interval" -gt 0 ] &&
	   [ "$(date +%s)" -ge "$next_progress" ]; then
		last=$(tr -d '\r' <"$log" | grep -E '^(not )?ok [0-9]+ |^# ' | tail -n 1 | cut -c1-70)
		echo "#   $scenario: $(fmt_secs $(( $(date +%s) - t0 ))) of ${timeout_s} s limit${last:+; last: $last}" >&"$progress_fd"
		next_progress=$((next_progress + progress_interval))
	fi
	if [ "$(date +%s)" -ge "$deadline" ]; then
		kill -KILL "$qemu" 2>/dev/null
		rc=124
		break
	fi
	if grep -q 'reboot: \(System halted\|Power down\)' "$log"; then
		sleep 1
		kill -KILL "$qemu" 2>/dev/null
		rc=0
		break
	fi
	sleep 0.2
done
if [ -z "$rc" ]; then
	wait "$qemu"
	rc=$?
else
	wait "$qemu" 2>/dev/null
fi
[ -n "$follow" ] && { sleep 0.3; kill "$follow" 2>/dev/null; wait "$follow" 2>/dev/null; }
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
[ "$swap" -gt 0 ] && rm -f "$disk"
[ "$data" -gt 0 ] && [ -z "$keep_data" ] && rm -f "$data_disk"

fail() {
	echo "qemu-run: $scenario: $1 after ${elapsed%???????} s; console tail:" >&2
	tail -n 25 "$log" | sed 's/^/  | /' >&2
	exit "$2"
}

# A kernel report fails the run whatever the scenario said.  One line is
# exempt: 6.1's workqueue prints "WARNING: workqueue cpumask: online
# intersect > possible intersect" at boot whenever numa=fake splits the
# CPUs oddly (a pr_warn, not a WARN splat: no backtrace, no taint).
report='WARNING:|BUG:|Oops|possible circular locking|possible recursive locking|inconsistent lock state|blocked for more than|soft lockup|hard LOCKUP|Kernel panic'
benign='WARNING: workqueue cpumask: online intersect > possible intersect'
kernel_reports() { grep -E "$report" "$log" | grep -vF "$benign"; }
[ "$rc" = 124 ] && fail "time limit (${timeout_s} s) reached" 3
kernel_reports | head -n 5 | sed 's/^/  ! /' >&2
# The first report with what follows it (its backtrace, where the guest
# shows one): the console tail alone is often later output.
first_report() {
	local at
	at=$(grep -nE "$report" "$log" | grep -vF "$benign" | head -n 1 | cut -d: -f1)
	[ -n "$at" ] && sed -n "${at},$((at + 40))p" "$log" | sed 's/^/  ! | /' >&2
}
# No verdict (a panic ends here too, through panic=-1 and -no-reboot).
[ "$rc" = 0 ] && fail "guest stopped without a verdict (panic or reset)" 2
[ -n "$(kernel_reports)" ] && { first_report; fail "kernel report on the console" 4; }
# QEMU's own errors also exit 1, the code guest-exit 0 gives: a pass
# needs the guest's last word on the console too.
if [ "$rc" = 1 ] && ! grep -q "oomwatch-guest: scenario $scenario exit 0" "$log"; then
	fail "QEMU failed before the guest gave a verdict" 5
fi
case $rc in
1) echo "qemu-run: $scenario: passed in ${elapsed%???????} s" >&2; exit 0 ;;
*)
	if [ $((rc % 2)) = 1 ]; then
		fail "guest reported failure (status $(((rc - 1) / 2)))" 1
	fi
	fail "QEMU exited with status $rc" 2 ;;
esac
