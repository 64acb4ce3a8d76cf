#!/bin/bash
# make bench (issue 2's benchmark; a report, not a test): one VM run on the
# newest kernel from scripts/kvers.sh (BENCH_KVER to choose) alternating the
# stock nvme driver and ssdtune on the same emulated controller,
# BENCH_ROUNDS (default 9) rounds each, the order alternating, every
# driver's runs after a rebind and a BENCH_WARM (3) s warm-up, 4K random
# read at QD1 and QD32 with numjobs 1 and 4, BENCH_SECS (default 5)
# seconds per run, fio pinned alike for both (BENCH_PIN=0: not pinned);
# each ssdtune point also with coalesce_profile BENCH_PROFILE (default
# adaptive; empty: not).  See Documentation/vm-harness.md.  Prints the table
# and keeps it in $BUILD/results/bench-KVER.txt (raw runs in .raw).
# Guest side: tests/vm/lib/bench-guest.sh.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-$(pwd)/build}
export BUILD
kver=${BENCH_KVER:-$(scripts/kvers.sh | tail -n 1)}
[ -n "$kver" ] || { echo "bench: no kernel (run: make setup)" >&2; exit 1; }
[ -f "$BUILD/kmod-$kver/ssdtune.ko" ] ||
	{ echo "bench: $BUILD/kmod-$kver/ssdtune.ko is missing (run: make modules)" >&2; exit 1; }
[ -x tools/ssdtune/ssdtune ] ||
	{ echo "bench: tools/ssdtune/ssdtune is missing (run: make tools)" >&2; exit 1; }
rm -f "$BUILD/results/bench-$kver.txt"
scripts/vm.sh --timeout "${VM_TIMEOUT:-2400}" "$kver" -- \
	env ${BENCH_POINTS:+BENCH_POINTS="$BENCH_POINTS"} BENCH_ROUNDS="${BENCH_ROUNDS:-9}" BENCH_PROFILE="${BENCH_PROFILE-adaptive}" BENCH_PIN="${BENCH_PIN:-1}" BENCH_WARM="${BENCH_WARM:-3}" BENCH_SECS="${BENCH_SECS:-5}" \
	tests/vm/lib/bench-guest.sh >&2
rc=$?
[ -f "$BUILD/results/bench-$kver.txt" ] || { echo "bench: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/bench-$kver.txt"
exit $rc
