#!/bin/bash
# make bench-power (issue 6's benchmark; a report, not a test): one VM run on
# the newest kernel from scripts/kvers.sh (BENCH_KVER to choose) sweeping
# the power limit (BENCH_LIMITS, mW, 0 = none) for 4K random read, 4K
# random write and 128K sequential read, BENCH_SECS (default 4) seconds per
# point.  Prints the table, keeps it in $BUILD/results/bench-power-KVER.txt
# and plots it to bench-power-KVER.png.  Guest side:
# scripts/bench/guest/power.sh.
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-power "${BENCH_KVER:-}"
command -v gnuplot >/dev/null || { echo "bench-power: gnuplot is not installed" >&2; exit 1; }
res=$BUILD/results/bench-power-$kver
rm -f "$res.txt" "$res.dat" "$res.png"
scripts/vm.sh --timeout "${VM_TIMEOUT:-1800}" "$kver" -- \
	env BENCH_SECS="${BENCH_SECS:-4}" ${BENCH_LIMITS:+BENCH_LIMITS="$BENCH_LIMITS"} \
	scripts/bench/guest/power.sh >&2
rc=$?
[ -f "$res.txt" ] || { echo "bench-power: no result (vm.sh exit $rc)" >&2; exit 1; }
# The unlimited point (0) is drawn at the right edge, past the largest limit.
gnuplot <<GP || { echo "bench-power: gnuplot failed" >&2; exit 1; }
set terminal pngcairo size 1400,450
set output "$res.png"
stats "$res.dat" using 2 nooutput
edge = STATS_max * 1.25
x(l) = l == 0 ? edge : l
set multiplot layout 1,3 title "ssdtune host power limit, $kver (rightmost point: no limit)"
set xlabel "power limit (mW)"
set key top left
set ylabel "IOPS"
plot for [w in "randread4k randwrite4k seqread128k"] "$res.dat" using (strcol(1) eq w ? x(\$2) : 1/0):3 with linespoints title w
set ylabel "MB/s"
plot for [w in "randread4k randwrite4k seqread128k"] "$res.dat" using (strcol(1) eq w ? x(\$2) : 1/0):4 with linespoints title w
set ylabel "p99 latency (us)"
set logscale y
plot for [w in "randread4k randwrite4k seqread128k"] "$res.dat" using (strcol(1) eq w ? x(\$2) : 1/0):5 with linespoints title w
unset multiplot
GP
cat "$res.txt"
echo "plot: $res.png"
exit $rc
