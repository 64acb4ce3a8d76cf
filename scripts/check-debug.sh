#!/bin/bash
# make check-debug: the lifecycle fault matrix on a debug kernel (KASAN,
# lockdep, kmemleak, fault injection), built once from Debian's
# linux-source-6.1 by scripts/debug-kernel.sh and cached in
# $BUILD/debug-kernel.  One VM boot runs the attach, timeout, lifecycle,
# passthrough and hot-unplug files, then the kmemleak check; a second boot
# runs the door fuzz (100,000 inputs) and kmemleak; a third with the NVMe
# subsystem of vm.sh --subsys runs the namespace rescan tests and
# kmemleak again.  Any KASAN report, lockdep splat or warning
# fails the test that caused it (dmesg checks in each file), and after each
# boot scripts/guest-log-check.py reads the whole guest log: one more
# result per boot, failed by any report but the known kernel ones it
# lists.  Writes
# $BUILD/results/debug.tap, debug-fuzz.tap and debug-subsys.tap (.dmesg
# beside them); the
# last line is "N passed, M failed".
# Not part of make check: under TCG with KASAN the first boot takes 80 to
# 100 minutes (VM_TIMEOUT, default 7200 s a boot).
#   scripts/check-debug.sh [FILE...]   only these bats files, one boot
set -u
# shellcheck source=scripts/tap-counts.sh
. "$(dirname "$0")/tap-counts.sh"
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
make -s -C kmod KVER="$kver" KDIR="$tree" OBJ="$BUILD/kmod-$kver" KCFLAGS=-Werror CONFIG_SSDTUNE_DEBUG=y \
	>"$BUILD/kmod-$kver.log" 2>&1 || die "ssdtune.ko does not build for $kver (see $BUILD/kmod-$kver.log)"
make -s -C tools/ssdtune >/dev/null || die "the tool does not build"

files=(tests/vm/10-attach.bats tests/vm/22-poll.bats tests/vm/23-hmb-apst.bats tests/vm/24-retries.bats
       tests/vm/25-timeout.bats tests/vm/26-lifecycle.bats
       tests/vm/27-faults.bats tests/vm/57-passthrough.bats tests/vm/58-privileges.bats
       tests/vm/debug/failslab.bats tests/vm/90-hotunplug.bats tests/vm/debug/kmemleak.bats)
# scripts/check-debug.sh FILE...: only those (kmemleak.bats last, if wanted)
[ $# -gt 0 ] && files=("$@")
total_pass=0
total_fail=0
rc_all=0

# boot NAME [VM.SH-OPTION...] -- FILE...: one VM boot of the debug kernel
# runs the files; the TAP is kept as $BUILD/results/NAME.tap.
boot() {
	# set by tap_result (tap-counts.sh)
	# shellcheck disable=SC2034
	local name=$1 start rc secs part plan ok notok skipped passed missing failed
	local -a opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	start=$(date +%s)
	scripts/vm.sh --timeout "${VM_TIMEOUT:-7200}" --log "$BUILD/vm/$name.log" "${opts[@]}" \
		"$tree" -- tests/vm/run-suite.sh "$@"
	rc=$?
	secs=$(($(date +%s) - start))
	part=$BUILD/results/vm-$kver.partial-run.tap
	if [ ! -f "$part" ]; then
		echo "check-debug: $name: the suite did not run to the end (vm.sh exit $rc after ${secs}s; see $BUILD/vm/$name.log)"
		total_fail=$((total_fail + 1))
		rc_all=1
		return
	fi
	mv "$part" "$BUILD/results/$name.tap"
	mv "$BUILD/results/vm-$kver.partial-run.dmesg" "$BUILD/results/$name.dmesg" 2>/dev/null
	part=$BUILD/results/$name.tap
	tap_result "$part"
	grep '^not ok ' "$part" | sed "s/^/check-debug: $name: /"
	echo "check-debug: $name: $passed passed, $failed failed in ${secs}s; kernel log in $BUILD/results/$name.dmesg"
	total_pass=$((total_pass + passed))
	total_fail=$((total_fail + failed))
	[ "$rc" -eq 0 ] || rc_all=1
	# the whole guest log, not only what each test looked at: one more
	# result per boot (scripts/guest-log-check.py)
	if python3 scripts/guest-log-check.py "$BUILD/results/$name.dmesg" |
		sed "s/^/check-debug: $name: guest log: /"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
		total_pass=$((total_pass + 1))
	else
		total_fail=$((total_fail + 1))
	fi
}

rm -f "$BUILD/results/debug-subsys.tap" "$BUILD/results/debug-fuzz.tap"
boot debug -- "${files[@]}"
# 100,000 generated inputs at the doors take about 65 minutes under KASAN
# (3903 s with the boot when last measured): a boot of their own, so that each
# stays inside VM_TIMEOUT, with its own kmemleak check
[ $# -eq 0 ] && boot debug-fuzz -- tests/vm/29-doorfuzz.bats tests/vm/debug/kmemleak.bats
# the namespace rescan tests need the subsystem of vm.sh --subsys: a boot
# of their own, with its own kmemleak check (only when no file list); it
# bounces all DMA (swiotlb=force, tests/vm/subsys/30-swiotlb.bats)
[ $# -eq 0 ] && boot debug-subsys --subsys --append swiotlb=force -- tests/vm/subsys/*.bats tests/vm/debug/kmemleak.bats
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$rc_all" -eq 0 ]
