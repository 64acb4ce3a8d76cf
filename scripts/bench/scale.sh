#!/bin/bash
# make bench-scale (a report, not a test): four controllers at once, two
# per node (scripts/vm.sh --many), stock nvme against ssdtune with its
# defaults and with 'apply --profile iops' and 'latency', through the
# tool's multi-device bench ('ssdtune bench --devices ... --scale').  One
# VM run on the newest kernel from scripts/kvers.sh (SCALE_KVER to
# choose), one vCPU per node (vm.sh --node-cpus 1: no more busy vCPUs than
# the host's two cores); see scripts/bench/guest/scale.sh for the arms,
# SCALE_ROUNDS (5), SCALE_SECS (4), SCALE_QD (32) and SCALE_ARMS.  Prints
# the table and keeps it in $BUILD/results/scale-KVER.txt (raw lines in
# .raw, the last round's reports under scale-KVER.d/).  See
# Documentation/bench.md ("make bench-scale").
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-scale "${SCALE_KVER:-}"
rm -f "$BUILD/results/scale-$kver.txt"
start=$(date +%s)
env_args=()
for v in SCALE_ROUNDS SCALE_SECS SCALE_QD SCALE_ARMS; do
	[ -n "${!v:-}" ] && env_args+=("$v=${!v}")
done
scripts/vm.sh --many --node-cpus 1 --timeout "${VM_TIMEOUT:-3600}" \
	--log "$BUILD/results/scale-$kver.vm.log" "$kver" -- \
	env "${env_args[@]}" scripts/bench/guest/scale.sh >&2
rc=$?
[ -s "$BUILD/results/scale-$kver.txt" ] || { echo "bench-scale: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/scale-$kver.txt"
echo "make bench-scale: $(($(date +%s) - start)) s with the VM's boot"
exit $rc
