#!/bin/bash
# make bench-noisy (issue 36; a report, not a test): what CPU isolation
# buys an I/O workload under a noisy neighbour.  One VM run on the newest
# kernel from scripts/kvers.sh (NOISY_KVER to choose), with NOISY_NODE_CPUS
# (default 1: a 2-vCPU guest, one CPU per node, so that the guest never has
# more busy vCPUs than the host's two cores; 2: the usual 4-vCPU guest)
# CPUs per node.  The stock nvme driver untuned and ssdtune under 'apply
# --profile latency --isolate' take turns on the same emulated controller,
# with and without CPU hogs; see scripts/bench/guest/noisy.sh for the
# arms and NOISY_* settings (NOISY_ROUNDS 7, NOISY_SECS 5, NOISY_QDS
# "1 8", NOISY_HOGS one per CPU).  Prints the table and keeps it in
# $BUILD/results/noisy-KVER.txt (raw runs in .raw).  See
# Documentation/bench.md ("make bench-noisy").
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-noisy "${NOISY_KVER:-}"
rm -f "$BUILD/results/noisy-$kver.txt"
start=$(date +%s)
env_args=()
for v in NOISY_ROUNDS NOISY_SECS NOISY_WARM NOISY_QDS NOISY_HOGS; do
	[ -n "${!v:-}" ] && env_args+=("$v=${!v}")
done
scripts/vm.sh --timeout "${VM_TIMEOUT:-2400}" --node-cpus "${NOISY_NODE_CPUS:-1}" "$kver" -- \
	env "${env_args[@]}" scripts/bench/guest/noisy.sh >&2
rc=$?
[ -f "$BUILD/results/noisy-$kver.txt" ] || { echo "bench-noisy: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/noisy-$kver.txt"
echo "make bench-noisy: $(($(date +%s) - start)) s with the VM's boot"
exit $rc
