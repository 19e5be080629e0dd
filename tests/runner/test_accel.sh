#!/bin/bash
# TAP: scripts/accel.sh picks the right accelerator on the three kinds of
# host (no /dev/kvm, a /dev/kvm that does not work, working KVM), says why,
# and caches only what a probe produced.  No real KVM is needed: a file
# stands in for /dev/kvm and a script for QEMU, whose behaviour each case
# sets (FAKE_QEMU=pass|fail|hang|qemu-error).
# shellcheck source=tests/runner/lib.sh
. "$(dirname "$0")/lib.sh"
on_failure() { echo "#   accel='$accel' why='$accel_why' probes=$(probes)"; }

# The fake QEMU counts its runs, then behaves as FAKE_QEMU says: "pass"
# prints the probe guest's verdict and exits 1 as isa-debug-exit makes
# QEMU do; "qemu-error" exits 1 without a guest, as QEMU does when it
# cannot open KVM.
cat >"$work/qemu" <<'QEMU'
#!/bin/bash
echo run >>"$FAKE_QEMU_RUNS"
case $FAKE_QEMU in
pass) echo "oomwatch-guest: scenario probe exit 0"; exit 1 ;;
fail) echo "qemu-system-x86_64: error: failed to set MSR 0x48b"; exit 134 ;;
hang) exec sleep 30 ;;
qemu-error) echo "Could not access KVM kernel module: No such file or directory"; exit 1 ;;
esac
QEMU
chmod +x "$work/qemu"

probes() { [ -f "$FAKE_QEMU_RUNS" ] && wc -l <"$FAKE_QEMU_RUNS" || echo 0; }

# fresh_host: an empty cache, a new probe counter.
fresh_host() {
	cache=$work/cache.$n
	export FAKE_QEMU_RUNS=$work/runs.$n
	rm -f "$FAKE_QEMU_RUNS"
}

export OOMWATCH_QEMU=$work/qemu OOMWATCH_KVM_PROBE_S=2
unset OOMWATCH_ACCEL
# shellcheck source=scripts/accel.sh
OOMWATCH_KVM_DEV=$work/kvm . "$top/scripts/accel.sh"
is_tcg() { [ "${accel%% -cpu*}" = "-accel tcg" ]; }
is_kvm() { [ "${accel%% -cpu*}" = "-accel kvm" ]; }
why_has() { case $accel_why in *"$1"*) return 0 ;; esac; return 1; }
no_stamp() { ! ls "$cache"/kvm-probe* >/dev/null 2>&1; }

# 1. No /dev/kvm: TCG, no probe, nothing cached.
fresh_host; rm -f "$kvm_dev"; FAKE_QEMU=pass
export FAKE_QEMU
pick_accel k i
check "no /dev/kvm: TCG" is_tcg
check "no /dev/kvm: says the device is missing" why_has "does not exist"
check "no /dev/kvm: no probe ran" [ "$(probes)" = 0 ]
check "no /dev/kvm: nothing cached" no_stamp

# 2. /dev/kvm without read/write access: TCG, no probe, nothing cached.
# Root may open any file, so as root the pick runs as nobody (setpriv).
fresh_host; touch "$kvm_dev"; chmod 0444 "$kvm_dev"; chmod 0755 "$work"
pick_unprivileged() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- bash -c \
			'cache=$1; OOMWATCH_KVM_DEV=$2 . "$3"; pick_accel k i; echo "$accel|$accel_why"' \
			- "$cache" "$kvm_dev" "$top/scripts/accel.sh"
	else
		pick_accel k i >/dev/null
		echo "$accel|$accel_why"
	fi
}
out=$(pick_unprivileged)
accel=${out%%|*} accel_why=${out#*|}
check "read-only /dev/kvm: TCG" is_tcg
check "read-only /dev/kvm: says there is no access" why_has "no read/write access"
check "read-only /dev/kvm: no probe ran, nothing cached" eval '[ "$(probes)" = 0 ] && no_stamp'
chmod 0644 "$kvm_dev"

# 3. /dev/kvm exists, QEMU fails with KVM: TCG, the failure cached once.
for mode in fail hang qemu-error; do
	fresh_host; touch "$kvm_dev"; FAKE_QEMU=$mode
	pick_accel k i
	check "broken KVM ($mode): TCG" is_tcg
	check "broken KVM ($mode): says the probe failed" why_has "probe guest"
	check "broken KVM ($mode): one probe ran" [ "$(probes)" = 1 ]
	pick_accel k i
	check "broken KVM ($mode): second pick is TCG from the cache, no new probe" \
		eval 'is_tcg && [ "$(probes)" = 1 ] && why_has cached'
done

# 4. Working KVM: KVM, cached, and the device's removal wins over the cache.
fresh_host; touch "$kvm_dev"; FAKE_QEMU=pass
pick_accel k i
check "working KVM: KVM" is_kvm
check "working KVM: says a probe booted" why_has "booted under KVM"
pick_accel k i
check "working KVM: second pick cached, no new probe" \
	eval 'is_kvm && [ "$(probes)" = 1 ]'
rm -f "$kvm_dev"
pick_accel k i
check "KVM cached but /dev/kvm gone: TCG" is_tcg

# 5. The bug of issue 17: an older runner's stamp "yes" that no probe
# produced is not believed.
fresh_host; touch "$kvm_dev"; FAKE_QEMU=qemu-error
mkdir -p "$cache"
boot_id=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo none)
echo yes >"$cache/kvm-probe-$boot_id"
echo yes >"$cache/kvm-probe-v2-$boot_id"
pick_accel k i
check "a stamp without a probe's reason is ignored: TCG after a probe" \
	eval 'is_tcg && [ "$(probes)" = 1 ]'

# 6. Forced choices and a bad value.
fresh_host; rm -f "$kvm_dev"
OOMWATCH_ACCEL=tcg pick_accel k i
check "OOMWATCH_ACCEL=tcg: TCG, says forced" eval 'is_tcg && why_has forced'
OOMWATCH_ACCEL=kvm pick_accel k i
check "OOMWATCH_ACCEL=kvm: KVM, says forced" eval 'is_kvm && why_has forced'
OOMWATCH_ACCEL=xen pick_accel k i 2>/dev/null
check "OOMWATCH_ACCEL=xen: refused with status 5" [ $? = 5 ]

echo "1..$n"
exit $((failed > 0))
