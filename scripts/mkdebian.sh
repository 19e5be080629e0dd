#!/bin/bash
# The Debian guest's root file system: bookworm with systemd, the
# project's packages installed with dpkg -i as a user would, as an ext4
# image made without loop mounts (mke2fs -d).
#
#   scripts/mkdebian.sh [--variant NAME --extra PKG,PKG...] OUT.img DEB...
#
# --variant NAME --extra PKGS: a second image on top of more packages from
# Debian's archive (the field bench's: make field-image), cached apart as
# NAME-base-KEY.tar and NAME-img-KEY.img, so that the default image (what
# make test boots) neither grows nor is rebuilt.  In a variant, the extra
# packages' daemons (earlyoom, nohang, systemd-oomd) are installed but
# disabled: the scenario starts the one its setting names.
#
# Two layers, each cached in $OOMWATCH_CACHE/debian/:
#   base-KEY.tar   mmdebstrap of bookworm (minbase, systemd as PID 1 and
#                  the programs the guest tests run), from the apt sources
#                  this machine uses; KEY: the package list and sources
#   img-KEY.img    that base with the .debs and guest-image/debian/
#                  installed; KEY: the base, the .debs, those files
# OUT.img is a hard link to (or copy of) the cached image; the guest boots
# it with QEMU's snapshot mode, so it stays pristine.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${OOMWATCH_CACHE:-$HOME/.cache/oomwatch}/debian
sources=${OOMWATCH_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
[ -r "$sources" ] || sources=/etc/apt/sources.list
variant= extra=
while [ $# -gt 0 ]; do
	case $1 in
	--variant) variant=$2; shift 2 ;;
	--extra) extra=$2; shift 2 ;;
	*) break ;;
	esac
done
out=$1
shift
debs=("$@")
# systemd as PID 1 and udev; python3, procps and coreutils for the tests;
# node_exporter serves oomwatch's metrics (its textfile collector);
# libbpf1 is what the oomwatch package needs beyond a minimal system
# (dpkg -i installs no dependencies).
packages=systemd,systemd-sysv,udev,python3,procps,prometheus-node-exporter,libbpf1
size=2G
# The variant's cache names (none for the default image: its names and
# behaviour are what they were before variants).
pre=
if [ -n "$variant" ]; then
	case $variant in *[!a-z0-9]*|'') echo "mkdebian: error: bad variant '$variant'" >&2; exit 1 ;; esac
	[ -n "$extra" ] || { echo "mkdebian: error: --variant needs --extra" >&2; exit 1; }
	pre=$variant-
	packages=$packages,$extra
	size=3G
fi

say() { echo "mkdebian: $*" >&2; }
die() { echo "mkdebian: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot dpkg -i)"
[ ${#debs[@]} -gt 0 ] || die "no .deb given (make deb)"
for d in "${debs[@]}"; do [ -r "$d" ] || die "$d missing (make deb)"; done
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (make deps)"
mkdir -p "$cache"

base_key=$( { echo "$packages"; cat "$sources"; } | sha256sum | cut -c1-16)
base=$cache/${pre}base-$base_key.tar
if [ ! -s "$base" ]; then
	say "building the bookworm base with mmdebstrap (once per package list, about 2 min)"
	t0=$(date +%s)
	mmdebstrap --variant=minbase --format=tar --include="$packages" \
		--aptopt='Acquire::Retries "3"' \
		bookworm "$base.tmp" "$sources" 2>&1 |
		grep -E '^(I: (downloading|extracting|installing|cleaning)|E:|W:)' |
		sed 's/^/mkdebian: /' >&2 || true
	[ -s "$base.tmp" ] || die "mmdebstrap failed"
	mv "$base.tmp" "$base"
	find "$cache" -maxdepth 1 -name "${pre}base-*.tar" ! -name "${pre}base-$base_key.tar" -delete
	say "base built in $(( $(date +%s) - t0 )) s ($(du -h "$base" | cut -f1))"
fi

img_key=$( { echo "$base_key"; sha256sum "${debs[@]}" | cut -d' ' -f1;
	find "$top/guest-image/debian" "$top/build/guest/guest-exit" \
		${variant:+"$top/guest-image/nohang.conf"} -type f |
	sort | xargs sha256sum | cut -d' ' -f1; } | sha256sum | cut -c1-16)
img=$cache/${pre}img-$img_key.img
if [ ! -s "$img" ]; then
	t0=$(date +%s)
	root=$(mktemp -d "$cache/root.XXXXXX")
	trap 'rm -rf "$root"' EXIT
	say "unpacking the base and installing ${#debs[@]} package(s) with dpkg -i"
	tar -C "$root" -xpf "$base" --numeric-owner
	mkdir -p "$root/tmp/debs"
	cp "${debs[@]}" "$root/tmp/debs/"
	# Nothing starts in the chroot: no service of the guest's may run
	# on this machine (deb-systemd-invoke finds no running systemd
	# there either; this is the belt to those braces).
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	chroot "$root" sh -c 'dpkg -i /tmp/debs/*.deb' >"$cache/dpkg.log" 2>&1 ||
		{ tail -n 20 "$cache/dpkg.log" >&2; die "dpkg -i failed"; }
	rm -rf "$root/usr/sbin/policy-rc.d" "$root/tmp/debs"
	# What a user does for node_exporter to serve oomwatch's metrics: the
	# package's example drop-in, as it says.
	install -D -m 644 "$root/usr/share/doc/oomwatch/examples/node-exporter.conf" \
		"$root/etc/systemd/system/oomwatch.service.d/node-exporter.conf"
	# The guest's own: the scenario runner, its unit, the scenarios,
	# guest-exit (the verdict to the host).
	install -D -m 755 "$top/build/guest/guest-exit" "$root/usr/local/sbin/guest-exit"
	install -D -m 755 "$top/guest-image/debian/run-scenario" \
		"$root/usr/local/lib/oomwatch/run-scenario"
	install -D -m 644 "$top/guest-image/debian/oomwatch-scenario.service" \
		"$root/etc/systemd/system/oomwatch-scenario.service"
	cp -r "$top/guest-image/debian/scenarios" "$root/usr/local/lib/oomwatch/"
	echo oomwatch-guest >"$root/etc/hostname"
	# systemd's 50-pid-max.conf raises kernel.pid_max to 4194304; the
	# guest kernel is built on tinyconfig (BASE_SMALL: at most 32768),
	# so systemd-sysctl would fail the boot into "degraded".
	ln -sf /dev/null "$root/etc/sysctl.d/50-pid-max.conf"
	# What would only slow a TCG boot or run in the middle of a test; and
	# the login prompt on the serial console, whose vhangup() would cut
	# the scenario off its terminal.
	systemctl --root="$root" -q enable oomwatch-scenario.service
	systemctl --root="$root" -q mask serial-getty@ttyS0.service
	# A variant's peers: installed, off until a scenario starts one.
	if [ -n "$variant" ]; then
		for u in earlyoom.service nohang.service nohang-desktop.service \
			systemd-oomd.service systemd-oomd.socket; do
			[ -e "$root/lib/systemd/system/$u" ] &&
				systemctl --root="$root" -q disable "$u" 2>/dev/null
		done
		# nohang's PSI mode, as the initramfs bench configures it.
		[ -d "$root/etc/nohang" ] && install -m 644 \
			"$top/guest-image/nohang.conf" "$root/etc/nohang/nohang-psi.conf"
		true
	fi
	systemctl --root="$root" -q mask apt-daily.timer \
		apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
		2>/dev/null || true
	say "making the ext4 image ($size, sparse) with mke2fs -d"
	rm -f "$img.tmp"
	mke2fs -q -t ext4 -L oomwatch -d "$root" "$img.tmp" "$size" >/dev/null ||
		die "mke2fs -d failed"
	mv "$img.tmp" "$img"
	# Older images of this cache: one is enough.
	find "$cache" -maxdepth 1 -name "${pre}img-*.img" ! -name "${pre}img-$img_key.img" -delete
	say "image built in $(( $(date +%s) - t0 )) s"
fi
mkdir -p "$(dirname "$out")"
rm -f "$out"
ln "$img" "$out" 2>/dev/null || cp --sparse=always "$img" "$out"
say "$out: bookworm, $(basename "$img")"
