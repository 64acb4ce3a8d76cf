#!/bin/bash
# Guest side of scripts/bench.sh (runs under scripts/vm.sh): alternate the
# stock nvme driver and ssdtune on the same emulated controller, ROUNDS
# times each, for 4K random read at QD1/QD32 x numjobs 1/4; record IOPS,
# mean and p99 completion latency, interrupts per I/O; print the table with
# the median ssdtune/nvme ratio per point.  Each driver's runs follow a
# rebind and a BENCH_WARM (3) s warm-up.  Writes
# $SSDT_RESULTS/bench-$(uname -r).txt (table) and .raw (one line per run).
set -u
cd "$(dirname "$0")/../../.."
. tests/vm/lib/common.bash
. tests/vm/lib/measure.bash
ROUNDS=${BENCH_ROUNDS:-5}
WARM=${BENCH_WARM:-3}
SECS=${BENCH_SECS:-5}
POINTS=${BENCH_POINTS:-"1:1 32:1 1:4 32:4"}
kver=$(uname -r)
raw=$SSDT_RESULTS/bench-$kver.raw
out=$SSDT_RESULTS/bench-$kver.txt
die() { echo "bench: $*" >&2; exit 1; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
module_load || die "cannot load ssdtune.ko"
: >"$raw.part"
# Every driver's runs start right after a rebind and a discarded warm-up:
# the runs just after a switch came out 10-20% slower than the driver
# that had stayed bound (measured: in each of 5 rounds, whichever driver
# ran second in the round lost at QD32 x 4 jobs), so no driver may be
# measured without a switch before it.  Start on ssdtune so that round 1's
# nvme runs follow a switch too.
attach || die "attach failed"
warm() {
	fio --name=warm --filename="$1" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=32 --numjobs=4 --size=512M --time_based \
		--runtime="$WARM" --output=/dev/null || die "warm-up fio failed on $1"
}
for r in $(seq 1 "$ROUNDS"); do
	for drv in nvme ssdtune; do
		if [ "$drv" = nvme ]; then
			detach || die "detach failed"
			dev=$(nvme_disk)
		else
			attach || die "attach failed"
			dev=$(ssdt_disk)
		fi
		warm "$dev"
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
