#!/bin/sh
# make check and make check-full: run every suite, keep going past
# failures, then print the summary (scripts/summary.sh): each suite's
# result, where the time went, and as the last line "N passed, M failed".
# Exits non-zero iff a suite failed or did not run.
#
#   scripts/check.sh           make check: both kernels boot, but a file
#                              that tests the driver's or the tool's own
#                              logic runs on the first only, and there is
#                              no subsystem boot (scripts/vm-test.sh
#                              --scope check; Documentation/testing.md)
#   scripts/check.sh --full    make check-full (CI): every VM file on both
#                              kernels, the subsystem boots, the guest's
#                              own DKMS compile
#
# Order: setup, the module and the tool; then the VM boots, and beside
# them the deb suite (the packages the first kernel's boot installs: it
# waits for them), KUnit and the host suite.
#
# Each suite runner writes $BUILD/results/<suite>.tap and exits 0 iff all its
# tests passed; a runner that is missing or cannot run leaves no .tap, and
# the summary counts that suite as DID NOT RUN.  Each step's wall time goes
# to $BUILD/results/times.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
export BUILD
cd "$REPO"

CHECK_SCOPE=check
[ "${1:-}" = --full ] && CHECK_SCOPE=full
export CHECK_SCOPE

# Results of an earlier run must not count for this one.
mkdir -p "$BUILD/results"
rm -f "$BUILD"/results/*.tap "$BUILD"/results/*.tap.partial "$BUILD/results/times" "$BUILD/results/times.vm"
# the run's wall clock starts here (the summary's "wall" line)
date +%s >"$BUILD/results/start"

t0=0
step() {
	echo
	echo "=== check ($CHECK_SCOPE): $1"
	t0=$(date +%s)
}
# done_step NAME: the step's wall time, for the summary.
done_step() {
	echo "$1 $(($(date +%s) - t0))" >>"$BUILD/results/times"
}

# run NAME SCRIPT [ARGS...]: run one step, report (not propagate) failure.
run() {
	name=$1
	shift
	step "$name"
	if [ ! -e "$1" ]; then
		echo "check: $name: $1 does not exist; suite did not run"
		return 0
	fi
	if [ ! -x "$1" ]; then
		echo "check: $name: $1 is not executable; suite did not run"
		return 0
	fi
	rc=0
	"$@" || rc=$?
	[ "$rc" -eq 0 ] || echo "check: $name: exited $rc"
	done_step "$name"
}

step setup
rc=0
BUILD_DIR=$BUILD scripts/setup.sh || rc=$?
[ "$rc" -eq 0 ] || echo "check: setup: exited $rc; running the suites anyway"
done_step setup

run build scripts/build-modules.sh

step tools
if [ -f tools/ssdtune/Makefile ]; then
	rc=0
	make -j"$(nproc 2>/dev/null || echo 2)" -C tools/ssdtune || rc=$?
	[ "$rc" -eq 0 ] || echo "check: tools: make -C tools/ssdtune exited $rc"
else
	echo "check: tools: tools/ssdtune/Makefile does not exist"
fi
done_step tools

# The Debian packages are built once a run, by tests/host/pkg/deb.bats into
# $BUILD/deb, with the module dkms builds from them on this host for each
# kernel in $BUILD/dkms (scripts/dkms-prebuild.sh): tests/vm/89-packages
# installs those in the guest.  Never an earlier run's: without new ones
# that test fails.  It is a suite of its own, written to deb.tap in any
# case: the VM boot that installs the packages waits for that file
# (VM_NEEDS).
rm -rf "$BUILD/deb" "$BUILD/dkms" "$BUILD/results/deb.tap"
SSDT_DEB_BUILD=$BUILD
export SSDT_DEB_BUILD
deb_suite() {
	step deb
	if SSDTUNE=$REPO/tools/ssdtune/ssdtune bats --timing --formatter tap tests/host/pkg/deb.bats \
		>"$BUILD/results/deb.tap.partial"; then
		:
	else
		echo "check: deb: tests/host/pkg/deb.bats failed"
	fi
	cat "$BUILD/results/deb.tap.partial"
	mv "$BUILD/results/deb.tap.partial" "$BUILD/results/deb.tap"
	done_step deb
}

# A VM boot keeps about 1.2 of the 2 cores busy (QEMU's TCG, measured):
# the packages, KUnit's UML kernel and the host suite run beside the
# boots, one after the other, their output in $BUILD/side-steps.log.
# They run as SCHED_IDLE (nice 19 where chrt cannot): the guests' timers
# run on the host's clock, so a guest that waits for the CPU waits in its
# own time too.  At nice 10 the VM files that ran beside them took 1.3 to
# 1.7 times as long as on the other kernel's boot (when measured): a
# niced task still keeps its slice when a QEMU thread wakes, an idle-class
# one does not.
(
	me=$(exec sh -c 'echo $PPID')
	chrt --idle -p 0 "$me" 2>/dev/null || renice -n 19 -p "$me" >/dev/null
	deb_suite
	run kunit scripts/kunit.sh
	# make check-full: the tool's input parsers under ASan and UBSan
	if [ "$CHECK_SCOPE" = full ]; then
		run fuzz scripts/fuzz.sh
	fi
	HOST_TEST_SKIP=deb.bats run host scripts/host-test.sh
) >"$BUILD/side-steps.log" 2>&1 &
side=$!
echo "check: the deb, kunit and host suites run beside the VM boots (output: $BUILD/side-steps.log)"
# make check-full installs the packages of the deb suite in the guests
needs=""
[ "$CHECK_SCOPE" = full ] && needs=$BUILD/results/deb.tap
VM_NEEDS=$needs run vm scripts/vm-test.sh --scope "$CHECK_SCOPE"
wait "$side" || true
step "deb, kunit and host (beside the VM)"
grep -E '^(kunit|host-test|check|deb|fuzz):' "$BUILD/side-steps.log" || true

step summary
exec scripts/summary.sh
