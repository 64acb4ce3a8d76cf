#!/bin/bash
# make demo: the product's story in one VM run (the newest kernel
# scripts/kvers.sh names) with an emulated NVMe on NUMA node 1: stock nvme
# untuned, 'ssdtune attach', 'ssdtune plan --profile latency', 'apply',
# the same jobs again, 'revert' and 'detach'; in DEMO_ROUNDS (5) rounds of
# DEMO_SECS (2) s runs, the arms in turn (guest side:
# scripts/bench/guest/demo.sh).  It ends with the table of the three arms
# (stock, ssdtune defaults, ssdtune tuned: IOPS, p50, p99 and CPU per I/O,
# ratios to stock with intervals and verdicts) and one picture, both made
# by scripts/bench/demo-plot.py; everything stays in $BUILD/demo
# (summary.txt, demo.png, demo.raw, plan.txt).
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/vm-preamble.sh"
vm_preamble demo "${DEMO_KVER:-}"
out=$BUILD/demo
rm -rf "$out"
start=$(date +%s)
echo "demo: booting $kver under QEMU (TCG: under a minute to boot, about four to run)"
scripts/vm.sh --timeout "${VM_TIMEOUT:-900}" "$kver" -- \
	env DEMO_SECS="${DEMO_SECS:-2}" DEMO_ROUNDS="${DEMO_ROUNDS:-5}" scripts/bench/guest/demo.sh
rc=$?
[ "$rc" -eq 0 ] || { echo "demo: the guest failed (exit $rc); what it left is in $out" >&2; exit "$rc"; }
[ -s "$out/demo.raw" ] || { echo "demo: the guest left no $out/demo.raw" >&2; exit 1; }
png=$(scripts/bench/demo-plot.py "$out") || exit 1
printf '\n== the result (kept in %s, %s s with the boot)\n' "$out" "$(($(date +%s) - start))"
cat "$out/summary.txt"
if [ -n "$png" ]; then
	printf '\n== the picture: %s\n' "$png"
else
	printf '\n== no picture (no gnuplot): the table is %s\n' "$out/summary.txt"
fi
