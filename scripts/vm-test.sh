#!/bin/bash
# The VM bats suite (tests/vm/) on every kernel scripts/kvers.sh names: one
# VM boot per kernel (scripts/vm.sh) runs tests/vm/run-suite.sh, which writes
# $BUILD/results/vm-KVER.tap.  Exits non-zero if any test failed, or if a
# kernel's suite did not run to the end (then there is no vm-KVER.tap; the
# partial output is in vm-KVER.tap.partial and the VM's output in
# $BUILD/vm/vm-test-KVER.log).
#
#   scripts/vm-test.sh [KVER...]        default: every kernel from kvers.sh
#   VM_TIMEOUT=SECS                      per-kernel VM timeout (default 2700)
set -u
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
for k in $kvers; do
	tap=$BUILD/results/vm-$k.tap
	rm -f "$tap" "$tap.partial"
	start=$(date +%s)
	scripts/vm.sh --timeout "${VM_TIMEOUT:-2700}" --log "$BUILD/vm/vm-test-$k.log" \
		"$k" -- tests/vm/run-suite.sh
	rc=$?
	secs=$(($(date +%s) - start))
	if [ ! -f "$tap" ]; then
		summary="${summary}vm-test: $k: the suite did not run to the end (vm.sh exit $rc after ${secs}s; see $BUILD/vm/vm-test-$k.log)
"
		fail=1
		continue
	fi
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tap" | head -1)
	ok=$(grep -c '^ok ' "$tap")
	notok=$(grep -c '^not ok ' "$tap")
	skipped=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$tap")
	passed=$((ok - skipped))
	line="vm-test: $k: $passed passed, $notok failed, $skipped skipped of $plan in ${secs}s"
	if [ "$notok" -ne 0 ] || [ "$skipped" -ne 0 ] || [ $((ok + notok)) -ne "${plan:-0}" ] ||
	   [ "${plan:-0}" -eq 0 ] || [ "$rc" -ne 0 ]; then
		fail=1
		[ $((ok + notok)) -ne "${plan:-0}" ] && line="$line (only $((ok + notok)) results for a plan of ${plan:-0})"
		[ "$rc" -ne 0 ] && line="$line (exit $rc)"
		grep '^not ok ' "$tap" | sed "s/^/vm-test: $k: /" >&2
	fi
	summary="$summary$line
"
done
printf '%s' "$summary"
exit $fail
