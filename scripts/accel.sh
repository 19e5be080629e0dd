# Sourced by qemu-run.sh (and its test): which accelerator a guest gets.
#
#   pick_accel KERNEL INITRD     sets $accel (QEMU arguments) and
#                                $accel_why (one line: which, and why)
#
# Three hosts are common and each must end in the right place:
#   - no /dev/kvm at all (most cloud VMs and CI containers): TCG;
#   - /dev/kvm present but unusable (a VM without nested virtualisation:
#     QEMU aborts with "failed to set MSR", or hangs after the firmware):
#     TCG, found by booting a probe guest;
#   - working KVM: KVM.
# Only a probe that really ran is cached (per host boot, keyed by the boot
# id): the absence of /dev/kvm or of write access is re-checked every time,
# so a device that appears or a permission that changes is seen at once.
#
# Test seams (tests/runner): OOMWATCH_KVM_DEV replaces /dev/kvm,
# OOMWATCH_QEMU the QEMU binary, OOMWATCH_KVM_PROBE_S the probe's limit.
# OOMWATCH_ACCEL=kvm|tcg|auto forces a choice.

kvm_dev=${OOMWATCH_KVM_DEV:-/dev/kvm}
qemu_bin=${OOMWATCH_QEMU:-qemu-system-x86_64}

# kvm_probe KERNEL INITRD: boot the probe scenario under KVM.  Succeeds
# only when the guest's own verdict is on its console: QEMU's own errors
# ("Could not access KVM kernel module") exit with status 1 too, which is
# exactly the status the passing probe guest gives.  Sets $probe_why.
kvm_probe() {
	local out rc limit=${OOMWATCH_KVM_PROBE_S:-20}
	out=$(mktemp)
	# A subshell, so that an abort is not reported on our stderr.
	(timeout --kill-after=2 "$limit" "$qemu_bin" -display none -no-reboot \
		-nodefaults -serial stdio \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -m 128 -smp 1 \
		-accel kvm -cpu host -kernel "$1" -initrd "$2" \
		-append "console=ttyS0 panic=-1 rdinit=/init ow.scenario=probe" \
		</dev/null >"$out" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -q 'oomwatch-guest: scenario probe exit 0' "$out"; then
		rm -f "$out"
		probe_why="a probe guest booted under KVM"
		return 0
	fi
	case $rc in
	124|137) probe_why="a probe guest under KVM did not finish in ${limit} s" ;;
	*) probe_why="a probe guest under KVM failed (QEMU status $rc: $(grep -m1 -v '^$' "$out" | cut -c1-80))" ;;
	esac
	rm -f "$out"
	return 1
}

# kvm_usable KERNEL INITRD: succeeds when KVM works; sets $kvm_why.
kvm_usable() {
	local boot_id stamp verdict
	if [ ! -e "$kvm_dev" ]; then
		kvm_why="$kvm_dev does not exist"
		return 1
	fi
	if [ ! -r "$kvm_dev" ] || [ ! -w "$kvm_dev" ]; then
		kvm_why="no read/write access to $kvm_dev"
		return 1
	fi
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo none)
	# "v2": older runners cached "yes" without having run a probe; their
	# stamps are not read.
	stamp=$cache/kvm-probe-v2-$boot_id
	if [ -f "$stamp" ] && read -r verdict kvm_why <"$stamp" &&
	   [ -n "$kvm_why" ]; then
		kvm_why="$kvm_why (cached for this host boot)"
		case $verdict in
		yes) return 0 ;;
		no) return 1 ;;
		esac
	fi
	mkdir -p "$cache"
	if kvm_probe "$1" "$2"; then verdict=yes; else verdict=no; fi
	echo "$verdict $probe_why" >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
	kvm_why=$probe_why
	[ "$verdict" = yes ]
}

pick_accel() {
	case ${OOMWATCH_ACCEL:-auto} in
	kvm)
		accel="-accel kvm -cpu host"
		accel_why="KVM, forced by OOMWATCH_ACCEL=kvm" ;;
	tcg)
		accel="-accel tcg -cpu max"
		accel_why="TCG, forced by OOMWATCH_ACCEL=tcg" ;;
	auto)
		if kvm_usable "$1" "$2"; then
			accel="-accel kvm -cpu host"
			accel_why="KVM: $kvm_why"
		else
			accel="-accel tcg -cpu max"
			accel_why="TCG (software emulation, slower): $kvm_why"
		fi ;;
	*)
		echo "qemu-run: error: OOMWATCH_ACCEL must be kvm, tcg or auto" >&2
		return 5 ;;
	esac
}
