#!/bin/bash
# make bench-coalesce (issue 5's benchmark; a report, not a test): one VM
# run on the newest kernel from scripts/kvers.sh (BENCH_KVER to choose):
# every coalescing profile and a (threshold, time) grid in host mode, at
# QD 1/4/32/128, 4K random read and write, BENCH_SECS (default 3) s each,
# BENCH_ROUNDS (default 5: the fewest that give an interval for the
# targets' verdicts) rounds with the settings side by side in each.
# Prints the table (medians, ratios to off per round, issue 5's targets), keeps it in $BUILD/results/bench-coalesce-KVER.txt
# (raw runs in .raw) and plots bench-coalesce-KVER.png with gnuplot.
# Knobs: BENCH_QDS, BENCH_RWS, BENCH_PROFILES, BENCH_GRID ("THR:US ...";
# empty for none).
# Guest side: scripts/bench/guest/coalesce.sh.
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-coalesce "${BENCH_KVER:-}"
res=$BUILD/results/bench-coalesce-$kver
rm -f "$res.raw" "$res.txt" "$res.png"
scripts/vm.sh --timeout "${VM_TIMEOUT:-3600}" "$kver" -- \
	env BENCH_SECS="${BENCH_SECS:-3}" BENCH_ROUNDS="${BENCH_ROUNDS:-5}" ${BENCH_QDS:+BENCH_QDS="$BENCH_QDS"} \
	${BENCH_RWS:+BENCH_RWS="$BENCH_RWS"} \
	${BENCH_PROFILES:+BENCH_PROFILES="$BENCH_PROFILES"} \
	${BENCH_GRID+BENCH_GRID="$BENCH_GRID"} \
	scripts/bench/guest/coalesce.sh >&2
rc=$?
[ -f "$res.raw" ] || { echo "bench-coalesce: no result (vm.sh exit $rc)" >&2; exit 1; }
python3 scripts/bench/coalesce-table.py "$res.raw" "$kver" "${BENCH_SECS:-3}" "$res.dat" | tee "$res.txt"
if command -v gnuplot >/dev/null; then
	gnuplot -e "dat='$res.dat'; out='$res.png'; n=$(grep -c '^"' "$res.dat")" scripts/bench/coalesce.gp &&
		echo "plot: $res.png"
else
	echo "bench-coalesce: gnuplot not installed, no plot" >&2
fi
exit $rc
