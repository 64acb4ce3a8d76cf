#!/bin/sh
# Summarise $BUILD/results/<suite>.tap for every suite make check expects:
# build, kunit, host, and vm-<kver> and vm-subsys-<kver> for each kernel
# scripts/kvers.sh names.
# One line per suite ("suite: P passed, F failed" or "suite: DID NOT RUN",
# failing cases listed under it), then as the last line "N passed, M failed".
# A suite without a .tap file, or whose .tap holds no test, counts as one
# failure; so do tests a plan line promises but the file lacks, and
# skipped tests (a skip proves nothing).  Exits
# non-zero iff M > 0.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
RESULTS=$BUILD/results

suites="build kunit host"
if kvers=$("$REPO/scripts/kvers.sh" 2>/dev/null); then
	for k in $kvers; do
		suites="$suites vm-$k vm-subsys-$k"
	done
else
	# Without the kernel list the vm suites cannot even be named.
	suites="$suites vm"
fi

total_pass=0
total_fail=0
for s in $suites; do
	tap=$RESULTS/$s.tap
	if [ ! -f "$tap" ]; then
		echo "$s: DID NOT RUN"
		total_fail=$((total_fail + 1))
		continue
	fi
	# A skipped test proved nothing: it counts as failed, never as passed.
	skip=$(grep -ci '^ok\b.*# *skip' "$tap" || true)
	pass=$(($(grep -c '^ok\b' "$tap" || true) - skip))
	fail=$(($(grep -c '^not ok\b' "$tap" || true) + skip))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$tap" | head -n 1)
	note=""
	if [ -n "$plan" ] && [ "$plan" -gt $((pass + fail)) ]; then
		note=" ($((plan - pass - fail)) planned tests missing)"
		fail=$((fail + plan - pass - fail))
	fi
	if [ $((pass + fail)) -eq 0 ]; then
		note=" (no tests in $tap)"
		fail=1
	fi
	echo "$s: $pass passed, $fail failed$note"
	grep -i '^not ok\b\|^ok\b.*# *skip' "$tap" | sed 's/^/    /' || true
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
