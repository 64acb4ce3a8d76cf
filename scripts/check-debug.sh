#!/bin/bash
# make check-debug: the lifecycle fault matrix on a debug kernel (KASAN,
# lockdep, kmemleak, fault injection), built once from Debian's
# linux-source-6.1 by scripts/debug-kernel.sh and cached in
# $BUILD/debug-kernel.  One VM boot runs the attach, timeout, lifecycle and
# hot-unplug files, then the kmemleak check; any KASAN report, lockdep splat
# or warning fails the test that caused it (dmesg checks in each file).
# Writes $BUILD/results/debug.tap; the last line is "N passed, M failed".
# Not part of make check: under TCG with KASAN it takes 80 minutes.
#   scripts/check-debug.sh [FILE...]   only these bats files
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
export BUILD
cd "$REPO" || exit 1
mkdir -p "$BUILD/results" "$BUILD/vm"
tap=$BUILD/results/debug.tap
rm -f "$tap"

die() { echo "check-debug: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

BUILD_DIR=$BUILD scripts/setup.sh || die "setup failed"
tree=$(scripts/debug-kernel.sh) || die "no debug kernel"
kver=$(cat "$tree/include/config/kernel.release") || die "$tree has no kernel.release"
make -s -C kmod KVER="$kver" KDIR="$tree" OBJ="$BUILD/kmod-$kver" KCFLAGS=-Werror \
	>"$BUILD/kmod-$kver.log" 2>&1 || die "ssdtune.ko does not build for $kver (see $BUILD/kmod-$kver.log)"
make -s -C tools/ssdtune >/dev/null || die "the tool does not build"

files=(tests/vm/10-attach.bats tests/vm/25-timeout.bats tests/vm/26-lifecycle.bats tests/vm/27-faults.bats
       tests/vm/57-passthrough.bats
       tests/vm/debug/failslab.bats tests/vm/90-hotunplug.bats tests/vm/debug/kmemleak.bats)
# scripts/check-debug.sh FILE...: only those (kmemleak.bats last, if wanted)
[ $# -gt 0 ] && files=("$@")
start=$(date +%s)
scripts/vm.sh --timeout "${VM_TIMEOUT:-5400}" --log "$BUILD/vm/check-debug.log" \
	"$tree" -- tests/vm/run-suite.sh "${files[@]}"
rc=$?
secs=$(($(date +%s) - start))
part=$BUILD/results/vm-$kver.partial-run.tap
[ -f "$part" ] || die "the suite did not run to the end (vm.sh exit $rc after ${secs}s; see $BUILD/vm/check-debug.log)"
cp "$part" "$tap"
cp "$BUILD/results/vm-$kver.partial-run.dmesg" "$BUILD/results/debug.dmesg" 2>/dev/null
plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tap" | head -1)
ok=$(grep -c '^ok ' "$tap")
notok=$(grep -c '^not ok ' "$tap")
skipped=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$tap")
passed=$((ok - skipped))
# a skip proves nothing; a test the plan promised but never reported failed
missing=$((${plan:-0} - ok - notok))
[ "$missing" -gt 0 ] || missing=0
[ "${plan:-0}" -gt 0 ] || missing=1
failed=$((notok + skipped + missing))
grep '^not ok ' "$tap" | sed 's/^/check-debug: /'
echo "check-debug: $kver: ${secs}s; kernel log in $BUILD/results/debug.dmesg"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$rc" -eq 0 ]
