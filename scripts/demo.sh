#!/bin/bash
# make demo: boot one VM (the newest kernel scripts/kvers.sh names) with an
# emulated NVMe on NUMA node 1, load ssdtune.ko, attach the controller, show
# its sysfs (queues, IRQs), run a short fio 4K random read at QD32 through
# ssdtune and, for comparison, through the stock nvme driver, and the same
# ssdtune bench on each.  Guest side: scripts/bench/guest/demo.sh.  The
# results stay on the host in $BUILD/demo (summary.txt, compare.txt, the
# two bench reports and stock-vs-ssdtune.png, scripts/bench/demo-plot.py); the
# last screen shows them.  DEMO_SECS (default 5) sets each fio run's length.
set -u
# shellcheck source=scripts/vm-preamble.sh
. "$(dirname "$0")/vm-preamble.sh"
vm_preamble demo "${DEMO_KVER:-}"
out=$BUILD/demo
rm -rf "$out"
echo "demo: booting $kver under QEMU (TCG: about a minute to boot, three to run)"
scripts/vm.sh --timeout "${VM_TIMEOUT:-900}" "$kver" -- \
	env DEMO_SECS="${DEMO_SECS:-5}" scripts/bench/guest/demo.sh
rc=$?
[ "$rc" -eq 0 ] || { echo "demo: the guest failed (exit $rc); what it left is in $out" >&2; exit "$rc"; }
for f in summary.txt compare.txt stock/bench.json ssdtune/bench.json; do
	[ -s "$out/$f" ] || { echo "demo: the guest left no $out/$f" >&2; exit 1; }
done
png=$(scripts/bench/demo-plot.py "$out") || exit 1
printf '\n== the result (kept in %s)\n' "$out"
cat "$out/summary.txt"
printf '\n== ssdtune bench compare, stock nvme (A) against ssdtune (B): %s\n' "$out/compare.txt"
cat "$out/compare.txt"
if [ -n "$png" ]; then
	printf '\n== open the picture: %s\n' "$png"
fi
echo "   (the bench reports, with their CSV and PNGs: $out/stock and $out/ssdtune)"
