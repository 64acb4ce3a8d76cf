#!/bin/bash
# make bench-profiles (a report, not a test): every profile of the tool
# applied to ssdtune against untuned stock nvme, each at its own workloads
# and on the engines applications use (libaio, psync, io_uring with and
# without IOPOLL).  One VM run on the newest kernel from scripts/kvers.sh
# (PROFILES_KVER to choose); see scripts/bench/guest/profiles.sh for the
# arms, the cells and PROFILES_ROUNDS (5), PROFILES_SECS (3) and
# PROFILES_ARMS.  Prints the table and keeps it in
# $BUILD/results/profiles-KVER.txt (raw runs in .raw).  See
# Documentation/bench.md ("make bench-profiles").
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/../vm-preamble.sh"
vm_preamble bench-profiles "${PROFILES_KVER:-}"
rm -f "$BUILD/results/profiles-$kver.txt"
start=$(date +%s)
env_args=()
for v in PROFILES_ROUNDS PROFILES_SECS PROFILES_ARMS; do
	[ -n "${!v:-}" ] && env_args+=("$v=${!v}")
done
scripts/vm.sh --timeout "${VM_TIMEOUT:-3600}" --log "$BUILD/results/profiles-$kver.vm.log" "$kver" -- \
	env "${env_args[@]}" scripts/bench/guest/profiles.sh >&2
rc=$?
[ -s "$BUILD/results/profiles-$kver.txt" ] || { echo "bench-profiles: no result (vm.sh exit $rc)" >&2; exit 1; }
cat "$BUILD/results/profiles-$kver.txt"
echo "make bench-profiles: $(($(date +%s) - start)) s with the VM's boot"
exit $rc
