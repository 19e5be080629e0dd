#!/bin/bash
# TAP: scripts/qemu-run.sh's disks.  With --disk the root file system is
# the first virtio disk (/dev/vda), in snapshot mode, and no initramfs is
# booted; --swap, --data and --tools come after it, each once.  Without
# --disk the initramfs boots and the swap disk is the first.  A script
# stands in for QEMU (OOMWATCH_QEMU): it writes its arguments down and
# ends as a passing guest does.
# shellcheck source=tests/runner/lib.sh
. "$(dirname "$0")/lib.sh"
on_failure() { echo "#   drives: $(drives | tr '\n' ' ')"; }

cat >"$work/qemu" <<'QEMU'
#!/bin/bash
printf '%s\n' "$@" >"$FAKE_QEMU_ARGS"
scenario=$(printf '%s\n' "$@" | sed -n 's/.*ow\.scenario=\([^ ]*\).*/\1/p' | head -n 1)
echo "oomwatch-guest: scenario $scenario exit 0"
exit 1
QEMU
chmod +x "$work/qemu"
touch "$work/bzImage" "$work/initrd" "$work/root.img" "$work/tools.img"
export OOMWATCH_QEMU=$work/qemu OOMWATCH_ACCEL=tcg OOMWATCH_CACHE=$work/cache
export FAKE_QEMU_ARGS=$work/args

# The drive ids in the order QEMU got them.
drives() { grep '^file=' "$FAKE_QEMU_ARGS" | sed 's/.*,id=\([a-z]*\).*/\1/'; }
has_arg() { grep -qx -- "$1" "$FAKE_QEMU_ARGS"; }
lacks_arg() { ! has_arg "$1"; }

run() {	# run QEMU-RUN-OPTIONS...
	rm -f "$FAKE_QEMU_ARGS"
	"$top/scripts/qemu-run.sh" --quiet --kernel "$work/bzImage" \
		--initrd "$work/initrd" --log "$work/guest.log" --timeout 30 "$@" \
		2>"$work/runner.log"
}

run --disk "$work/root.img" --scenario oom --swap 16 --data 16 \
	--tools "$work/tools.img"
rc=$?
check "--disk with --swap, --data, --tools: the run passes" [ "$rc" = 0 ]
check "--disk with --swap, --data, --tools: root, swap, data, tools, in that order" \
	[ "$(drives | tr '\n' ' ')" = "root swap data tools " ]
check "--disk: the root disk in snapshot mode" \
	grep -q "^file=$work/root.img,.*snapshot=on" "$FAKE_QEMU_ARGS"
check "--disk: no initramfs booted" lacks_arg -initrd
check "--disk: root=/dev/vda on the command line" \
	grep -q 'root=/dev/vda rw ow.scenario=oom' "$FAKE_QEMU_ARGS"

run --disk "$work/root.img" --scenario oom --tools "$work/tools.img" \
	--tools-bps 50000000
check "--tools-bps: the tools disk throttled, read-only" \
	grep -q "^file=$work/tools.img,.*readonly=on,throttling.bps-total=50000000" \
	"$FAKE_QEMU_ARGS"
run --disk "$work/root.img" --scenario oom --tools "$work/tools.img" \
	--tools-bps 5x
rc=$?
check "--tools-bps not a number: refused (status 5)" [ "$rc" = 5 ]

run --scenario smoke --swap 16
rc=$?
check "initramfs with --swap: the run passes" [ "$rc" = 0 ]
check "initramfs with --swap: the initramfs boots, the swap disk first" \
	has_arg -initrd
check "initramfs with --swap: one drive, the swap disk" \
	[ "$(drives | tr '\n' ' ')" = "swap " ]

echo "1..$n"
[ "$failed" = 0 ]
