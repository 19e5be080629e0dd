# oomwatch: the one entry point.
#
#   make run      install what is missing, build everything, boot the guest
#                 on the default scenario under oomwatch
#   make test     host unit tests + guest tests; last line "N passed, N failed"
#   make check    host unit tests and the markdown link check (about a minute)
#   make matrix   every scenario under every mode: results/matrix.md
#   make bench    stock 6.1, MGLRU, earlyoom and our modes: results/bench/
#   make deb      the patched kernel and oomwatch as Debian packages: build/deb/
#   make soak     stress-ng memory stressors for SOAK_S seconds, all on
#   make help     every target and variable
#
# The kernel tree and its builds live in $(OOMWATCH_CACHE), never here.

OOMWATCH_CACHE ?= $(HOME)/.cache/oomwatch
export OOMWATCH_CACHE
LOCKDEP ?= 0
# GUEST=debian: make run boots the Debian guest (systemd, the .debs)
GUEST ?= initramfs
SCENARIO ?= watch
MEM ?= 256
CPUS ?= 2
APPEND ?=
SWAP ?= 0
SWAP_BPS ?= 0
NUMA ?= 1
# REPEAT: runs per test / matrix cell / bench cell (defaults 1, 1, 5).
REPEAT ?=
SEED ?= 1
SOAK_S ?= 600
# Small enough that the larger rounds pass RAM + swap: the soak must reach
# the arbiter's kill path, not only reclaim.
SOAK_SWAP ?= 256
export REPEAT SEED

B := build
CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
CFLAGS_USER := -O2 -g -Wall -Wextra -Werror -std=gnu11
CFLAGS_GUEST := -O2 -Wall -Wextra -Werror -static

KERNEL_FLAGS := $(if $(filter 1,$(LOCKDEP)),--lockdep)
BZIMAGE := $(B)/kernel/bzImage
VMLINUX := $(B)/kernel/vmlinux
KERNEL_ID := $(B)/kernel/id

# Debian packages the build needs (make deps).
DEB_PACKAGES := linux-source-6.1 gcc make clang llvm libbpf-dev bpftool \
	libelf-dev zlib1g-dev dwarves bc bison flex libssl-dev cpio \
	qemu-system-x86 busybox-static ccache xz-utils git kmod \
	libclang-rt-14-dev python3 python3-ply python3-git stress-ng \
	fio sqlite3 e2fsprogs \
	rsync fakeroot dpkg-dev debhelper libsystemd-dev pkg-config lintian \
	mmdebstrap python3-prometheus-client openssl

include userspace/sources.mk
USERSPACE_SRCS := $(OW_USERSPACE_SRCS)
WORKLOADS := $(B)/guest/ow-hog $(B)/guest/ow-bystander $(B)/guest/ow-updater \
	$(B)/guest/ow-probe $(B)/guest/ow-forkstorm $(B)/guest/ow-exec-thrash \
	$(B)/guest/ow-watchdog $(B)/guest/ow-reclaim $(B)/guest/ow-mmap-read \
	$(B)/guest/guest-exit
# Third-party programs in the image: earlyoom (bench), and the kernel
# tree's own memcg selftest.  stress-ng goes in a separate layer.
GUEST_EXTRA := $(B)/guest/earlyoom $(B)/guest/test_memcontrol
DEB_CACHE := $(OOMWATCH_CACHE)/debs
# nohang (bench mode nohang) and the Python it runs on: a layer of its
# own, $(B)/nohang.cpio, so that the default image does not carry Python.
NOHANG_DEBS := nohang python3.11-minimal libpython3.11-minimal \
	libpython3.11-stdlib
# Test modules, loaded only in the guest (tests/kmod).
KMODS := $(B)/guest/ow_alloc.ko

.PHONY: all deps kernel stock-kernel oomwatch image nohang-image field-tools \
	run test deb debian-image field-image \
	check checkpatch check-configs matrix bench soak clean help

all: oomwatch image

help:
	@sed -n '2,13p' Makefile | sed 's/^# \{0,1\}//'
	@echo "targets: deps kernel oomwatch image nohang-image field-tools run test check"
	@echo "         deb debian-image field-image checkpatch check-configs matrix"
	@echo "         bench soak stock-kernel clean"
	@echo "variables: OOMWATCH_CACHE=$(OOMWATCH_CACHE) LOCKDEP=0|1"
	@echo "           REPEAT=N SEED=$(SEED) (make test, matrix, bench)"
	@echo "           SOAK_S=$(SOAK_S) SOAK_SWAP=$(SOAK_SWAP) (make soak)"
	@echo "           SCENARIO=$(SCENARIO) MEM=$(MEM) CPUS=$(CPUS) APPEND='ow.args=k=v,...'"
	@echo "           SWAP=MB SWAP_BPS=bytes/s NUMA=nodes GUEST=initramfs|debian (make run)"
	@echo "           KERNEL=stock (make run GUEST=debian: boot stock 6.1)"
	@echo "           ONLY=field SETTINGS='...' FIELD_W=a+b FIELD_MEM='1024 4096' FIELD_NUMA='1 2'"
	@echo "           HOLD=S SHOLD=S APPEND=1 (make bench: the field bench, scripts/field.sh)"

# Idempotent and quiet when everything is there; as non-root it prints the
# exact command instead.
deps:
	@scripts/deps.sh $(DEB_PACKAGES)

# Always asks kernel.sh, which does nothing when the cached build matches
# the package version, the series and the config.
kernel: deps
	@scripts/kernel.sh $(KERNEL_FLAGS)
	@mkdir -p $(B)/kernel
	@d=$$(scripts/kernel.sh --print-dir $(KERNEL_FLAGS)); \
	for f in arch/x86/boot/bzImage vmlinux; do \
		ln -sfn $$d/$$f $(B)/kernel/$$(basename $$f); done; \
	cmp -s $$d/.oomwatch-key $(KERNEL_ID) || cp $$d/.oomwatch-key $(KERNEL_ID)

# Which kernel build the symlinks point at: rewritten only when that
# changes (LOCKDEP=1 and back, a new series), so that what is built against
# the kernel is rebuilt then, even when the other build is older.
$(BZIMAGE) $(VMLINUX) $(KERNEL_ID): | kernel

$(B)/vmlinux.h: $(VMLINUX) $(KERNEL_ID)
	@mkdir -p $(B)
	$(BPFTOOL) btf dump file $(VMLINUX) format c > $@.tmp && mv $@.tmp $@

$(B)/oomwatch.bpf.o: bpf/oomwatch.bpf.c bpf/oomwatch_records.h $(B)/vmlinux.h
	$(CLANG) -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_x86 \
		-I$(B) -Ibpf -c $< -o $@

$(B)/oomwatch.skel.h: $(B)/oomwatch.bpf.o
	$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# Static: the guest has no libc of its own.
$(B)/guest/oomwatch: $(USERSPACE_SRCS) userspace/*.h bpf/oomwatch_records.h \
		$(B)/oomwatch.skel.h
	@mkdir -p $(B)/guest
	$(CC) $(CFLAGS_USER) -static -I$(B) -Ibpf -Iuserspace \
		$(USERSPACE_SRCS) -lbpf -lelf -lz -o $@

oomwatch: kernel $(B)/guest/oomwatch

$(B)/guest/guest-exit: guest-image/tools/guest-exit.c
	@mkdir -p $(B)/guest
	$(CC) $(CFLAGS_GUEST) $< -o $@

$(B)/guest/ow-%: guest-image/workloads/%.c
	@mkdir -p $(B)/guest
	$(CC) $(CFLAGS_GUEST) $< -o $@

# Built out of tree against the cached kernel build, in a copy under
# $(B) so that the checkout stays clean.  From scratch every time: kbuild's
# own dependency files name the headers of the kernel build it last used,
# so after LOCKDEP=1 and back it kept the other kernel's object and the
# module would not load ("invalid module format").
$(B)/guest/%.ko: tests/kmod/%.c tests/kmod/Kbuild $(VMLINUX) $(KERNEL_ID)
	@rm -rf $(B)/kmod
	@mkdir -p $(B)/kmod $(B)/guest
	cp tests/kmod/Kbuild tests/kmod/*.c $(B)/kmod/
	$(MAKE) -s -C $$(scripts/kernel.sh --print-dir $(KERNEL_FLAGS)) \
		M=$(CURDIR)/$(B)/kmod modules
	cp $(B)/kmod/$*.ko $@

# earlyoom from Debian's archive, unpacked, never installed: its package
# would start a daemon on this machine.
$(B)/guest/earlyoom:
	@mkdir -p $(B)/guest $(DEB_CACHE)
	@cd $(DEB_CACHE) && { ls earlyoom_*.deb >/dev/null 2>&1 || \
		apt-get download earlyoom 2>/dev/null || \
		{ apt-get update -qq && apt-get download earlyoom; }; }
	@rm -rf $(B)/earlyoom && dpkg-deb -x \
		$$(ls $(DEB_CACHE)/earlyoom_*.deb | tail -n 1) $(B)/earlyoom
	cp $(B)/earlyoom/usr/bin/earlyoom $@

# tools/testing/selftests/cgroup/test_memcontrol of the cached tree, with
# the flags of its own Makefile: no -O2, which would delete the stores
# into its malloc()ed-then-freed buffers, and with them the test.
$(B)/guest/test_memcontrol: $(KERNEL_ID) tests/kselftest/linebuf.c
	@mkdir -p $(B)/guest && rm -f $@
	@d=$$(scripts/kernel.sh --print-dir $(KERNEL_FLAGS))/source/tools/testing/selftests; \
	echo "  CC      test_memcontrol (from $$(readlink -f $$d/../../..))"; \
	$(CC) -static -pthread -w -I$$d $$d/cgroup/test_memcontrol.c \
		$$d/cgroup/cgroup_util.c tests/kselftest/linebuf.c -o $@ 2>&1 | grep -v -e getaddrinfo -e "in function" || true; \
	test -x $@

$(B)/initramfs.cpio: $(B)/guest/oomwatch $(WORKLOADS) $(KMODS) $(GUEST_EXTRA) \
		guest-image/init guest-image/scenarios/*.sh scripts/mkimage.sh
	scripts/mkimage.sh $@ $(B)/guest/oomwatch $(WORKLOADS) $(KMODS) $(GUEST_EXTRA)

# The image with stress-ng and its libraries on top, for the soak.
$(B)/initramfs-stress.cpio: $(B)/initramfs.cpio scripts/mkimage.sh
	scripts/mkimage.sh --layer $(B)/stress-layer.cpio /usr/bin/stress-ng
	cat $(B)/initramfs.cpio $(B)/stress-layer.cpio >$@.tmp && mv $@.tmp $@

image: oomwatch $(B)/initramfs.cpio

# Programs from Debian's archive for the survivable bench (fio, sqlite3),
# with their libraries, on a disk the guest mounts (qemu-run --tools).
$(B)/field-tools.img: scripts/mktools.sh | deps
	@mkdir -p $(B)
	scripts/mktools.sh $@ /usr/bin/fio /usr/bin/sqlite3 >/dev/null

field-tools: $(B)/field-tools.img

# nohang and Python from Debian's archive, unpacked, never installed (its
# package would start a daemon on this machine).  All four are fetched
# together when one is missing, so that the interpreter and its standard
# library come from one Python version.
$(B)/nohang.cpio: guest-image/nohang.conf scripts/mknohang.sh
	@mkdir -p $(DEB_CACHE)
	@cd $(DEB_CACHE) && for p in $(NOHANG_DEBS); do \
		ls $${p}_*.deb >/dev/null 2>&1 || { \
		apt-get download $(NOHANG_DEBS) 2>/dev/null || \
		{ apt-get update -qq && apt-get download $(NOHANG_DEBS); } || \
		exit 1; break; }; done
	scripts/mknohang.sh $@ guest-image/nohang.conf \
		$(foreach p,$(NOHANG_DEBS),$$(ls $(DEB_CACHE)/$(p)_*.deb | sort -V | tail -n 1))

# The image with the nohang layer on top (mode nohang), as the initrd.
$(B)/initramfs-nohang.cpio: $(B)/initramfs.cpio $(B)/nohang.cpio
	cat $^ >$@.tmp && mv $@.tmp $@

nohang-image: image $(B)/initramfs-nohang.cpio

# Host tool: result lines to markdown tables and SVG plots.
$(B)/ow-report: userspace/report.c userspace/report_main.c userspace/report.h \
		userspace/xml.c userspace/xml.h
	@mkdir -p $(B)
	$(CC) $(CFLAGS_USER) -Iuserspace userspace/report.c \
		userspace/report_main.c userspace/xml.c -o $@

# The patched kernel (bindeb-pkg) and oomwatch (debian/, dpkg-buildpackage)
# as Debian packages in build/deb/, and lintian's counts.
deb: kernel $(B)/oomwatch.skel.h
	@scripts/deb.sh

# The unpatched kernel, same tree and config (make bench).
stock-kernel: deps
	@scripts/kernel.sh --stock

matrix: nohang-image $(B)/ow-report
	@scripts/suite.sh matrix

# The field bench's row (scripts/field.sh) needs the Debian field image;
# only when it runs: ONLY unset, or naming field.
FIELD_WANTED := $(if $(ONLY),$(filter field,$(ONLY)),field)
bench: nohang-image field-tools stock-kernel $(B)/ow-report \
		$(if $(FIELD_WANTED),field-image)
	@scripts/suite.sh bench

soak: image $(B)/initramfs-stress.cpio
	scripts/qemu-run.sh --kernel $(BZIMAGE) --initrd $(B)/initramfs-stress.cpio \
		--scenario soak --mem 512 --cpus $(CPUS) --swap $(SOAK_SWAP) \
		--data 64 --keep-data \
		--timeout $$(( $(SOAK_S) + 240 )) \
		--append "ow.args=seconds=$(SOAK_S),seed=$(SEED)"

# The Debian guest: bookworm with systemd, the packages of make deb
# installed with dpkg -i (scripts/mkdebian.sh; cached in OOMWATCH_CACHE).
DEBIAN_IMG := $(B)/debian.img
debian-image: deb image
	@scripts/mkdebian.sh $(DEBIAN_IMG) $$(ls $(B)/deb/oomwatch_*_amd64.deb \
		$(B)/deb/linux-image-*-oomwatch_*_amd64.deb | grep -v -- -dbg_)

# The field bench's guest: that image with the programs of the field
# workloads and the peers (installed, disabled), as a variant of its own
# (build/debian-field.img; the default image does not grow).  gcc to
# libc6-dev: the make workload (a Linux tinyconfig build).
FIELD_PACKAGES := fio,sqlite3,stress-ng,earlyoom,systemd-oomd,nohang,perl,xz-utils
FIELD_PACKAGES := $(FIELD_PACKAGES),gcc,make,flex,bison,bc,libelf-dev,libc6-dev
FIELD_IMG := $(B)/debian-field.img
field-image: deb image
	@scripts/mkdebian.sh --variant field --extra $(FIELD_PACKAGES) $(FIELD_IMG) \
		$$(ls $(B)/deb/oomwatch_*_amd64.deb \
		$(B)/deb/linux-image-*-oomwatch_*_amd64.deb | grep -v -- -dbg_)

ifeq ($(GUEST),debian)
# Its own defaults, unless given: scenario oom, 512 MB (systemd).
# KERNEL=stock boots it on stock 6.1 (make stock-kernel; scenario
# no-series).
run: debian-image $(if $(filter stock,$(KERNEL)),stock-kernel)
	scripts/qemu-run.sh --initrd $(B)/initramfs.cpio \
		--kernel $(if $(filter stock,$(KERNEL)),$$(scripts/kernel.sh --stock --print-dir)/arch/x86/boot/bzImage,$(BZIMAGE)) \
		--disk $(DEBIAN_IMG) --timeout 420 \
		--scenario $(if $(filter command line,$(origin SCENARIO)),$(SCENARIO),oom) \
		--mem $(if $(filter command line,$(origin MEM)),$(MEM),512) \
		--cpus $(CPUS) --swap $(SWAP) --numa $(NUMA) --append "$(APPEND)"
else ifeq ($(GUEST),initramfs)
run: image
	scripts/qemu-run.sh --kernel $(BZIMAGE) --initrd $(B)/initramfs.cpio \
		--scenario $(SCENARIO) --mem $(MEM) --cpus $(CPUS) \
		--swap $(SWAP) --swap-bps $(SWAP_BPS) --numa $(NUMA) \
		--append "$(APPEND)"
else
run:
	@echo "make run: GUEST must be initramfs (the default) or debian" >&2; exit 2
endif

check: deps
	@$(MAKE) -s -C tests/unit check

checkpatch: deps
	@scripts/checkpatch-series.sh

# Every patch builds with SWAP, NUMA, MEMCG, CPUSETS, LRU_GEN, SYSCTL off
# (objects only, 44 min on 2 cores with a warm ccache): not in make test.
check-configs: deps
	@scripts/check-configs.sh

test: image debian-image
	@tests/run.sh

clean:
	rm -rf $(B)
	@$(MAKE) -s -C tests/unit clean 2>/dev/null || true
