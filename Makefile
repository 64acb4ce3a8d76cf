# ssdtune top-level Makefile.  See README.md.
#
#   make demo      boot a QEMU VM with an emulated NVMe, attach it to ssdtune,
#                  tune, run fio, print the result (installs what it needs)
#   make check     the README's test command: every suite, both kernels,
#                  a logic-only VM file on one; last line "N passed, N failed"
#   make check-full  make check with every VM file on both kernels, the
#                  packages, the subsystem and many-controller boots:
#                  what CI runs (.ci/run)
#   make check-debug  the lifecycle fault matrix on a KASAN/lockdep/kmemleak
#                  kernel (built once, cached in build/debug-kernel)
#   make check-ansible  the Ansible role against a VM (20 to 40 minutes)
#   make check-dkms  the guest's own DKMS compile of the packages (a VM)
#   make lint      checkpatch --strict, sparse and W=1 on both kernels,
#                  shellcheck over the shell files
#   make bench     long measurements (reports, not tests)
#   make bench-power  power limit sweep (a report, not a test)
#   make bench-stages  where the guest's time per I/O goes, stock vs ssdtune
#   make bench-noisy   I/O under CPU hogs: stock vs ssdtune isolated (a report)
#   make bench-scale   four controllers at once: stock vs ssdtune (a report)
#   make deb       the Debian packages ssdtune and ssdtune-dkms in build/deb
#                  (scripts/deb.sh; lintian-clean; installs nothing)

BUILD   ?= $(CURDIR)/build
export BUILD

.PHONY: all setup modules tools install uninstall deb kunit host-test vm-test check check-full check-debug check-ansible check-dkms lint demo bench bench-power clean

all: modules tools

# The one target (with demo, check, check-debug, lint and the benches) that
# installs packages: the build targets only say what is missing.
setup:
	@BUILD_DIR=$(BUILD) scripts/setup.sh

# The module (a test build) for KVER, else for the 6.1 and 6.12 test
# kernels and the running kernel, those with headers; RELEASE=1: the build
# for a host, without the debugfs test hooks, for KVER or the running
# kernel (scripts/build-modules.sh).
modules:
	@KVER=$(KVER) RELEASE=$(RELEASE) scripts/build-modules.sh

tools:
	@scripts/need.sh tools
	@$(MAKE) -C tools/ssdtune

# make install [DESTDIR=...] [PREFIX=/usr/local] [SRCDIR=/usr/src]
# (scripts/install.sh lists what goes where); make uninstall removes it.
PREFIX  ?= /usr/local
SRCDIR  ?= /usr/src
install: tools
	@DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) SRCDIR=$(SRCDIR) scripts/install.sh install

uninstall:
	@DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) SRCDIR=$(SRCDIR) scripts/install.sh uninstall

# build/deb/ssdtune_<version>_<arch>.deb and ssdtune-dkms_<version>_all.deb,
# built with debhelper (debian/) in a scratch copy of the tree; lintian
# errors fail it.  Like the other build targets it names missing packages
# (scripts/need.sh deb) and installs nothing.
deb:
	@scripts/deb.sh

kunit: setup
	@scripts/kunit.sh

host-test: tools
	@scripts/host-test.sh

vm-test: setup modules tools
	@scripts/vm-test.sh

check: setup
	@scripts/check.sh $(CHECK_ARGS)

# make check with every test: what CI runs (.ci/run)
check-full:
	@$(MAKE) --no-print-directory check CHECK_ARGS=--full

check-debug: setup
	@scripts/check-debug.sh

check-ansible: setup modules tools deb
	@scripts/check-boot.sh ansible 3600 tests/vm/ansible/role.bats

# the guest's own DKMS compile from the packages (5 to 8 minutes under TCG)
check-dkms: setup modules tools deb
	@scripts/check-boot.sh dkms 1800 tests/vm/89-dkms-guest.bats

lint: setup
	@scripts/lint.sh

demo: setup modules tools
	@scripts/demo.sh

bench: setup modules tools
	@scripts/bench/bench.sh

bench-power: setup modules tools
	@scripts/bench/power.sh

# Time per I/O by stage under ftrace, stock vs ssdtune (issue 19; a report).
.PHONY: bench-stages
bench-stages: setup modules tools
	@scripts/bench/stages.sh

# Each profile applied against untuned stock, at its workloads (a report).
.PHONY: bench-profiles
bench-profiles: setup modules tools
	@scripts/bench/profiles.sh

# four controllers at once, stock vs ssdtune (issue 56; a report)
.PHONY: bench-scale
bench-scale: setup modules tools
	@scripts/bench/scale.sh

# I/O under a noisy neighbour, stock vs ssdtune isolated (issue 36; a report).
.PHONY: bench-noisy
bench-noisy: setup modules tools
	@scripts/bench/noisy.sh

clean:
	$(MAKE) -C tools/ssdtune clean
	rm -rf $(BUILD)/kmod-* $(BUILD)/lint-* $(BUILD)/results $(BUILD)/deb

# Interrupt coalescing sweep (issue 5; a report, not a test).
.PHONY: bench-coalesce
bench-coalesce: setup modules tools
	@scripts/bench/coalesce.sh
