#!/bin/bash
# make bench-stages (issue 19: where the guest's time per I/O goes; a
# report, not a test): one VM run on the newest kernel from
# scripts/kvers.sh (BENCH_KVER to choose) in which the stock nvme driver
# and ssdtune take turns on the same emulated controller for
# STAGES_ROUNDS (3) rounds.  Each run is a 4K random read at STAGES_QD
# (32) with io_uring, one fio job pinned as make bench pins it, with 2 s
# traced by ftrace's function_graph on that CPU: the time per I/O in the
# syscall, the block layer, each driver's submit and interrupt paths, the
# DMA API and the tick.  Prints the table and keeps it in
# $BUILD/results/stages-KVER.txt (raw runs in .raw).  About 3 minutes.
# Guest side: scripts/bench/guest/stages.sh; the table: stages.py.
# See Documentation/bench.md ("Where the time per I/O goes").
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-stages "${BENCH_KVER:-}"
case ${STAGES_ROUNDS:-3} in
'' | *[!0-9]* | 0) echo "bench-stages: STAGES_ROUNDS must be a positive number, not '$STAGES_ROUNDS'" >&2; exit 1 ;;
esac
case ${STAGES_QD:-32} in
'' | *[!0-9]* | 0) echo "bench-stages: STAGES_QD must be a positive number, not '$STAGES_QD'" >&2; exit 1 ;;
esac
rm -f "$BUILD/results/stages-$kver.txt"
start=$(date +%s)
scripts/vm.sh --timeout "${VM_TIMEOUT:-1200}" "$kver" -- \
	env STAGES_ROUNDS="${STAGES_ROUNDS:-3}" STAGES_QD="${STAGES_QD:-32}" \
	scripts/bench/guest/stages.sh >&2
rc=$?
[ -f "$BUILD/results/stages-$kver.txt" ] || { echo "bench-stages: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/stages-$kver.txt"
echo "make bench-stages: $(($(date +%s) - start)) s with the VM's boot"
exit $rc
