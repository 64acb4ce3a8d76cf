#!/bin/bash
# The VM bats suite (tests/vm/) on every kernel scripts/kvers.sh names: one
# VM boot per kernel (scripts/vm.sh) runs tests/vm/run-suite.sh, which writes
# $BUILD/results/vm-KVER.tap; then a second, short boot with the NVMe
# subsystem of vm.sh --subsys and swiotlb=force runs tests/vm/subsys/ into
# vm-subsys-KVER.tap.
# Exits non-zero if any test failed, or if a suite did not run to the end
# (then there is no .tap; the partial output is in NAME.tap.partial and the
# VM's output in $BUILD/vm/NAME.log).
#
#   scripts/vm-test.sh [KVER...]        default: every kernel from kvers.sh
#   VM_TIMEOUT=SECS                      per-kernel VM timeout (default 3600)
#   VM_SUBSYS_TIMEOUT=SECS               the subsystem boot's (default 900)
set -u
. "$(dirname "$0")/tap-counts.sh"
cd "$(dirname "$0")/.."
BUILD=${BUILD:-$(pwd)/build}
export BUILD
mkdir -p "$BUILD/results" "$BUILD/vm"

if [ $# -gt 0 ]; then
	kvers=$*
else
	kvers=$(scripts/kvers.sh) || exit 1
fi

fail=0
summary=""

# suite NAME KVER SECS [VM.SH-OPTION...]: one VM boot runs
# tests/vm/run-suite.sh, which writes $BUILD/results/NAME.tap.
suite() {
	local name=$1 k=$2 secs=$3 tap rc start plan ok notok skipped passed line
	shift 3
	tap=$BUILD/results/$name.tap
	rm -f "$tap" "$tap.partial"
	start=$(date +%s)
	scripts/vm.sh --timeout "$secs" --log "$BUILD/vm/$name.log" "$@" \
		"$k" -- tests/vm/run-suite.sh
	rc=$?
	secs=$(($(date +%s) - start))
	if [ ! -f "$tap" ]; then
		summary="${summary}vm-test: $name: the suite did not run to the end (vm.sh exit $rc after ${secs}s; see $BUILD/vm/$name.log)
"
		fail=1
		return
	fi
	tap_counts "$tap"
	passed=$((ok - skipped))
	line="vm-test: $name: $passed passed, $notok failed, $skipped skipped of $plan in ${secs}s"
	if [ "$notok" -ne 0 ] || [ "$skipped" -ne 0 ] || [ $((ok + notok)) -ne "${plan:-0}" ] ||
	   [ "${plan:-0}" -eq 0 ] || [ "$rc" -ne 0 ]; then
		fail=1
		[ $((ok + notok)) -ne "${plan:-0}" ] && line="$line (only $((ok + notok)) results for a plan of ${plan:-0})"
		[ "$rc" -ne 0 ] && line="$line (exit $rc)"
		grep '^not ok ' "$tap" | sed "s/^/vm-test: $name: /" >&2
	fi
	summary="$summary$line
"
}

for k in $kvers; do
	suite "vm-$k" "$k" "${VM_TIMEOUT:-3600}"
	# the namespace rescan tests need a topology of their own; that boot
	# also bounces all DMA (tests/vm/subsys/30-swiotlb.bats)
	suite "vm-subsys-$k" "$k" "${VM_SUBSYS_TIMEOUT:-900}" --subsys --append swiotlb=force
done
printf '%s' "$summary"
exit $fail
