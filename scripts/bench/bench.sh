#!/bin/bash
# make bench (issue 19's table; a report, not a test): one VM run on the
# newest kernel from scripts/kvers.sh (BENCH_KVER to choose) in which the
# stock nvme driver and ssdtune take turns on the same emulated controller:
# stock defaults, ssdtune defaults, ssdtune with coalesce_profile
# BENCH_PROFILE (default adaptive; empty: none), and both drivers with one
# poll queue under io_uring IOPOLL.  4K random read at BENCH_QDS (default
# "1 8 32 128"), one fio job pinned to the controller's node (BENCH_PIN=0:
# not pinned), io_uring (BENCH_ENGINE=libaio for the interrupt arms),
# BENCH_ROUNDS (9) rounds of BENCH_SECS (5) s runs after a BENCH_WARM (3) s
# warm-up per binding.  BENCH_QUICK=1: 5 rounds of 2 s runs, 1 s warm-ups
# (the same table in a few minutes; any BENCH_* set wins).  A cost pass
# with QEMU's trace events follows the rounds, at BENCH_COST_QDS (default
# "1 32"; BENCH_COST=0: none).  BENCH_ARMS="nvme ssdtune": those arms
# alone (the defaults' parity in three times the rounds).  Prints the
# table and keeps it in $BUILD/results/bench-KVER.txt (raw runs in .raw,
# the guest's console in .vm.log).
# Guest side: scripts/bench/guest/bench.sh; the table: benchtable.py.
# See Documentation/bench.md ("make bench").
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench "${BENCH_KVER:-}"
rounds=9 secs=5 warm=3
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	rounds=5 secs=2 warm=1
fi
rm -f "$BUILD/results/bench-$kver.txt"
start=$(date +%s)
# the guest's console (what the kernel logs at KERN_ERR or worse) kept:
# a guest that ends in the cost pass says why
scripts/vm.sh --timeout "${VM_TIMEOUT:-3600}" --log "$BUILD/results/bench-$kver.vm.log" "$kver" -- \
	env BENCH_QDS="${BENCH_QDS:-1 8 32 128}" BENCH_ROUNDS="${BENCH_ROUNDS:-$rounds}" \
	BENCH_PROFILE="${BENCH_PROFILE-adaptive}" BENCH_PIN="${BENCH_PIN:-1}" \
	BENCH_WARM="${BENCH_WARM:-$warm}" BENCH_SECS="${BENCH_SECS:-$secs}" \
	BENCH_ENGINE="${BENCH_ENGINE:-io_uring}" BENCH_COST="${BENCH_COST:-1}" \
	BENCH_COST_SECS="${BENCH_COST_SECS:-3}" BENCH_COST_QDS="${BENCH_COST_QDS:-1 32}" \
	BENCH_ARMS="${BENCH_ARMS:-}" \
	scripts/bench/guest/bench.sh >&2
rc=$?
[ -s "$BUILD/results/bench-$kver.txt" ] || { echo "bench: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/bench-$kver.txt"
echo "make bench: $(($(date +%s) - start)) s with the VM's boot"
exit $rc
