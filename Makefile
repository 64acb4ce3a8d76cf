# ssdtune top-level Makefile.  See README.md.
#
#   make demo      boot a QEMU VM with an emulated NVMe, attach it to ssdtune,
#                  tune, run fio, print the result (installs what it needs)
#   make check     every test suite; last line "N passed, N failed"
#   make check-debug  the lifecycle fault matrix on a KASAN/lockdep/kmemleak
#                  kernel (built once, cached in build/debug-kernel)
#   make lint      checkpatch --strict, sparse and W=1 on both kernels
#   make bench     long measurements (reports, not tests)
#   make bench-power  power limit sweep (a report, not a test)

BUILD   ?= $(CURDIR)/build
export BUILD

.PHONY: all setup modules tools kunit host-test vm-test check check-debug lint demo bench bench-power clean

all: modules tools

setup:
	@BUILD_DIR=$(BUILD) scripts/setup.sh

# The module, once per kernel that has headers installed (6.1 and 6.12).
modules: setup
	@scripts/build-modules.sh

tools: setup
	@$(MAKE) -C tools/ssdtune

kunit: setup
	@scripts/kunit.sh

host-test: tools
	@scripts/host-test.sh

vm-test: modules tools
	@scripts/vm-test.sh

check: setup
	@scripts/check.sh

check-debug: setup
	@scripts/check-debug.sh

lint: setup
	@scripts/lint.sh

demo: modules tools
	@scripts/demo.sh

bench: modules tools
	@scripts/bench.sh

bench-power: modules tools
	@scripts/bench-power.sh

clean:
	$(MAKE) -C tools/ssdtune clean
	rm -rf $(BUILD)/kmod-* $(BUILD)/lint-* $(BUILD)/results

# Interrupt coalescing sweep (issue 5; a report, not a test).
.PHONY: bench-coalesce
bench-coalesce: modules tools
	@scripts/bench-coalesce.sh
