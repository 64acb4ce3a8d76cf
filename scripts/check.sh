#!/bin/sh
# make check: run every test suite, keep going past failures, then print
# the summary (scripts/summary.sh), whose last line is "N passed, M failed".
# Exits non-zero iff a suite failed or did not run.
#
# Each suite runner writes $BUILD/results/<suite>.tap and exits 0 iff all its
# tests passed; a runner that is missing or cannot run leaves no .tap, and
# the summary counts that suite as DID NOT RUN.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
export BUILD
cd "$REPO"

# Results of an earlier run must not count for this one.
mkdir -p "$BUILD/results"
rm -f "$BUILD"/results/*.tap

step() {
	echo
	echo "=== check: $1"
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
}

step setup
rc=0
BUILD_DIR=$BUILD scripts/setup.sh || rc=$?
[ "$rc" -eq 0 ] || echo "check: setup: exited $rc; running the suites anyway"

run build scripts/build-modules.sh

step tools
if [ -f tools/ssdtune/Makefile ]; then
	rc=0
	make -C tools/ssdtune || rc=$?
	[ "$rc" -eq 0 ] || echo "check: tools: make -C tools/ssdtune exited $rc"
else
	echo "check: tools: tools/ssdtune/Makefile does not exist"
fi

# The Debian packages, for tests/vm/89-packages.bats (installed in the
# guest); never an earlier run's: without new ones that test fails.
step deb
rm -rf "$BUILD/deb"
rc=0
scripts/deb.sh >"$BUILD/deb.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || echo "check: deb: scripts/deb.sh exited $rc (see $BUILD/deb.log); the package test in the VM will fail"

run kunit scripts/kunit.sh
run host scripts/host-test.sh
run vm scripts/vm-test.sh

step summary
exec scripts/summary.sh
