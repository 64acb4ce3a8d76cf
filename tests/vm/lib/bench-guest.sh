#!/bin/bash
# Guest side of scripts/bench.sh (runs under scripts/vm.sh): alternate the
# stock nvme driver and ssdtune on the same emulated controller, ROUNDS
# times each, for 4K random read at QD1/QD32 x numjobs 1/4; record IOPS,
# mean and p99 completion latency, interrupts per I/O; print the table with
# the median ssdtune/nvme ratio per point.  Rounds alternate which driver
# runs first.  Writes
# $SSDT_RESULTS/bench-$(uname -r).txt (table) and .raw (one line per run).
set -u
cd "$(dirname "$0")/../../.."
. tests/vm/lib/common.bash
. tests/vm/lib/measure.bash
ROUNDS=${BENCH_ROUNDS:-5}
SECS=${BENCH_SECS:-5}
POINTS=${BENCH_POINTS:-"1:1 32:1 1:4 32:4"}
kver=$(uname -r)
raw=$SSDT_RESULTS/bench-$kver.raw
out=$SSDT_RESULTS/bench-$kver.txt
die() { echo "bench: $*" >&2; exit 1; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
module_load || die "cannot load ssdtune.ko"
: >"$raw.part"
for r in $(seq 1 "$ROUNDS"); do
	# Odd rounds run nvme first, even rounds ssdtune first, so a drift of
	# the host over a round does not favour one driver.
	order="nvme ssdtune"
	[ $((r % 2)) = 0 ] && order="ssdtune nvme"
	for drv in $order; do
		if [ "$drv" = nvme ]; then
			[ "$(pci_driver "$bdf")" = nvme ] || detach || die "detach failed"
			dev=$(nvme_disk)
		else
			[ "$(pci_driver "$bdf")" = ssdtune ] || attach || die "attach failed"
			dev=$(ssdt_disk)
		fi
		for p in $POINTS; do
			line=$(measure "$drv" "$dev" "$bdf" "${p%:*}" "${p#*:}" "$SECS") ||
				die "fio failed: $drv $p"
			echo "round=$r $line" | tee -a "$raw.part" >&2
		done
	done
done
[ "$(pci_driver "$bdf")" = nvme ] || detach
module_unload
mv "$raw.part" "$raw"
python3 tests/vm/lib/benchtable.py "$raw" "$kver" "$SECS" | tee "$out"
