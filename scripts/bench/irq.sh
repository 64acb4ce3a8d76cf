#!/bin/bash
# IRQ layout benchmark (issue 3; a report, not a test): in the 2-node guest,
# 4K random read IOPS at QD32 from one node-1 I/O core with the
# controller's vectors on that core versus on a separate node-1 interrupt
# core; median of BENCH_ROUNDS (default 3) alternating runs of BENCH_SECS
# (default 5) seconds, as a ratio.  Kernel: BENCH_KVER or the newest.
# Guest side: scripts/bench/guest/irq.sh.
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-irq "${BENCH_KVER:-}"
rm -f "$BUILD/results/bench-irq-$kver.txt"
scripts/vm.sh --timeout "${VM_TIMEOUT:-1200}" "$kver" -- \
	env BENCH_ROUNDS="${BENCH_ROUNDS:-3}" BENCH_SECS="${BENCH_SECS:-5}" \
	scripts/bench/guest/irq.sh >&2
rc=$?
[ -f "$BUILD/results/bench-irq-$kver.txt" ] || { echo "bench-irq: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/bench-irq-$kver.txt"
exit $rc
