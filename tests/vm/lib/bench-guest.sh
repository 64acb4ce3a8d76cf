#!/bin/bash
# Guest side of scripts/bench.sh (runs under scripts/vm.sh): alternate the
# stock nvme driver and ssdtune on the same emulated controller, ROUNDS
# times each, for 4K random read at QD1/QD32 x numjobs 1/4; record IOPS,
# mean and p99 completion latency, interrupts per I/O; print the table with
# the median ssdtune/nvme ratio per point.  Each driver's runs follow a
# rebind and a BENCH_WARM (3) s warm-up; the order of the two drivers
# alternates from round to round; fio is pinned the same way for both
# (BENCH_PIN=0 to let the scheduler place it).  With BENCH_PROFILE=P
# (default adaptive; empty for none) each ssdtune point runs twice back to
# back, as loaded (coalesce_profile off) and with coalesce_profile P, the
# order alternating by round; that arm is labelled ssdtune+P.  Before the
# first round the whole fio region is read once (it warms the host's page
# cache under the image file, which made round 1 slow for both drivers).
# Writes $SSDT_RESULTS/bench-$(uname -r).txt (table) and .raw (one line
# per run).
set -u
cd "$(dirname "$0")/../../.."
. tests/vm/lib/common.bash
. tests/vm/lib/measure.bash
ROUNDS=${BENCH_ROUNDS:-9}
WARM=${BENCH_WARM:-3}
SECS=${BENCH_SECS:-5}
POINTS=${BENCH_POINTS:-"1:1 32:1 1:4 32:4"}
PROFILE=${BENCH_PROFILE-adaptive}
case $PROFILE in
"" | latency | balanced | iops | adaptive) ;;
*) echo "bench: BENCH_PROFILE must be latency, balanced, iops, adaptive or empty, not '$PROFILE'" >&2; exit 1 ;;
esac
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
# measured without a switch before it.  The order alternates (odd rounds
# nvme first, even rounds ssdtune first) so that what is left of an order
# effect falls on both drivers; a driver already bound is rebound through
# the other one.
warm() {
	fio --name=warm --filename="$1" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=32 --numjobs=4 --size=512M --time_based \
		--runtime="$WARM" --output=/dev/null || die "warm-up fio failed on $1"
}
# switch_to DRIVER: rebind the controller to DRIVER, through the other
# driver when it is bound already; sets dev to its disk.
switch_to() {
	if [ "$1" = nvme ]; then
		if [ "$(pci_driver "$bdf")" = nvme ]; then attach || die "attach failed"; fi
		detach || die "detach failed"
		dev=$(nvme_disk)
	else
		if [ "$(pci_driver "$bdf")" = ssdtune ]; then detach || die "detach failed"; fi
		attach || die "attach failed"
		dev=$(ssdt_disk)
	fi
}
# Pinning: one job on the first CPU of the controller's node (its queue's
# vector sits there under both drivers), several jobs one per online CPU,
# so that both drivers are measured with the same placement.
cpus1="" cpusn=""
if [ "${BENCH_PIN:-1}" = 1 ]; then
	cpus1=$(expand_cpulist "$(cat "/sys/bus/pci/devices/$bdf/local_cpulist")" | awk '{print $1}')
	cpusn=$(cat /sys/devices/system/cpu/online)
fi
# profile P: set the attached controller's coalesce_profile.
profile() {
	local c
	c=$(ssdt_ctrl) || die "no ssdtune controller"
	echo "$1" >"$c/coalesce_profile" || die "cannot write coalesce_profile $1"
	[ "$(trim "$c/coalesce_profile")" = "$1" ] || die "coalesce_profile is not $1 after writing it"
}
# run_point R LABEL QD JOBS: one measured run, appended to the raw file.
run_point() {
	local cpus=$cpusn line
	[ "$4" -eq 1 ] && cpus=$cpus1
	line=$(measure "$2" "$dev" "$bdf" "$3" "$4" "$SECS" "$cpus") ||
		die "fio failed: $2 $3:$4"
	echo "round=$1 $line" | tee -a "$raw.part" >&2
}
[ "$(pci_driver "$bdf")" = nvme ] || detach || die "detach failed"
dd if="$(nvme_disk)" of=/dev/null bs=1M count=512 iflag=direct status=none ||
	die "cannot read the fio region once before round 1"
for r in $(seq 1 "$ROUNDS"); do
	order="nvme ssdtune"
	[ $((r % 2)) -eq 0 ] && order="ssdtune nvme"
	for drv in $order; do
		switch_to "$drv"
		warm "$dev"
		for p in $POINTS; do
			qd=${p%:*} jobs=${p#*:}
			if [ "$drv" = nvme ] || [ -z "$PROFILE" ]; then
				run_point "$r" "$drv" "$qd" "$jobs"
				continue
			fi
			prof="off $PROFILE"
			[ $((r % 2)) -eq 0 ] && prof="$PROFILE off"
			for pr in $prof; do
				profile "$pr"
				lab=ssdtune
				[ "$pr" = off ] || lab=ssdtune+$pr
				run_point "$r" "$lab" "$qd" "$jobs"
			done
			profile off
		done
	done
done
[ "$(pci_driver "$bdf")" = nvme ] || detach
module_unload
mv "$raw.part" "$raw"
python3 tests/vm/lib/benchtable.py "$raw" "$kver" "$SECS" "${cpus1:+pinned: 1 job on CPU $cpus1, more on CPUs $cpusn}" | tee "$out"
