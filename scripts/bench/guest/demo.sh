#!/bin/bash
# Guest side of scripts/demo.sh (runs under scripts/vm.sh): the product's
# story on one emulated NVMe.  Each round, in an order reversed every
# other round, three arms run the same three jobs:
#   stock     the stock nvme driver, untuned
#   defaults  'ssdtune attach', nothing else
#   tuned     'ssdtune apply --profile latency' on the attached controller
#             ('ssdtune revert' after it)
# The jobs, 4K random reads, one fio job each, DEMO_SECS (2) s after a 1 s
# ramp: QD1 io_uring (with IOPOLL under the tuned arm, whose plan gives the
# controller a poll queue; untuned, no driver polls), QD1 libaio, and QD32
# io_uring.  stock and defaults run on the first CPU of the controller's
# node, tuned on the first I/O core of its plan.  DEMO_ROUNDS (5) rounds:
# five give the median of the per-round ratios an interval.  The first
# round shows each step (attach, the plan, apply, revert, detach).
# Everything goes to $SSDT_BUILD/demo, the host's build/demo: demo.raw
# (one line per run), plan.txt and steps.txt; scripts/bench/demo-plot.py
# makes the table and the picture on the host.
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
SECS=${DEMO_SECS:-2}
ROUNDS=${DEMO_ROUNDS:-5}
OUT=$SSDT_BUILD/demo
STATE=$SSDT_TMP/demo-state
say() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }
# show: the first round's steps are printed, the others only run
show() { [ "$ROUND" = 1 ]; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
rm -rf "$OUT" && mkdir -p "$OUT" || die "cannot make $OUT"
require_module || die "ssdtune.ko is not built for $(uname -r)"
say "guest: $(uname -r), $(nproc) CPUs; NUMA: node 0 CPUs $(trim /sys/devices/system/node/node0/cpulist), node 1 CPUs $(trim /sys/devices/system/node/node1/cpulist)"
echo "NVMe controller $bdf (serial $SSDT_VM_NVME_SERIAL) on NUMA node $(trim "/sys/bus/pci/devices/$bdf/numa_node"), driver $(pci_driver "$bdf")"
pin0=$(expand_cpulist "$(cat "/sys/bus/pci/devices/$bdf/local_cpulist")" | awk '{print $1}')

# jobs ARM PIN: the three jobs, into demo.raw
jobs() {
	local arm=$1 pin=$2 poll=io_uring line j qd engine
	[ "$arm" = tuned ] && poll=io_uring-hipri
	for j in "qd1-io_uring 1 $poll" "qd1-libaio 1 libaio" "qd32-io_uring 32 io_uring"; do
		read -r name qd engine <<<"$j"
		line=$(measure "$arm" "$dev" "$bdf" "$qd" 1 "$SECS" "$pin" "$engine") ||
			die "fio failed: $arm $name"
		echo "round=$ROUND arm=$arm job=$name engine=$engine pin=$pin $line" >>"$OUT/demo.raw"
		show && printf '   %-14s %-15s %7s IOPS\n' "$name" "($engine)" "$(sed 's/.* iops=\([0-9]*\).*/\1/' <<<"$line")"
	done
	return 0
}

arm_stock() {
	show && say "stock nvme, untuned: $(nvme_disk)"
	bench_bind "$bdf" nvme 0 || die "cannot bind $bdf to nvme"
	bench_warm "$dev" 1 || die "warm-up failed"
	jobs stock "$pin0"
}

arm_tuned() {
	local io pin
	show && { say "ssdtune plan --profile latency $bdf"; cat "$OUT/plan.txt"; }
	show && say "ssdtune apply --profile latency $bdf"
	rm -rf "$STATE"
	"$SSDT_TOOL" apply --profile latency --state-dir "$STATE" "$bdf" >"$SSDT_TMP/apply.out" 2>&1 ||
		die "apply failed: $(tail -n 3 "$SSDT_TMP/apply.out")"
	show && tail -n 1 "$SSDT_TMP/apply.out"
	io=$("$SSDT_TOOL" plan --profile latency --json "$bdf" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["io_cpus"])') ||
		die "cannot read the plan's I/O cores"
	pin=$(expand_cpulist "$io" | awk '{print $1}')
	show && echo "   fio on CPU $pin, the plan's first I/O core"
	jobs tuned "$pin"
	show && say "ssdtune revert"
	"$SSDT_TOOL" revert --state-dir "$STATE" >"$SSDT_TMP/revert.out" 2>&1 ||
		die "revert failed: $(tail -n 3 "$SSDT_TMP/revert.out")"
	show && tail -n 1 "$SSDT_TMP/revert.out"
	return 0
}

# ssdtune: attached with its defaults, then the tuned arm (or the other
# way round on even rounds)
arm_ssdtune() {
	show && say "ssdtune attach $bdf"
	bench_bind "$bdf" ssdtune 0 || die "cannot attach $bdf to ssdtune"
	show && echo "   $(ssdt_ctrl): disk $dev"
	if [ "$ROUND" = 1 ]; then
		"$SSDT_TOOL" plan --profile latency "$bdf" >"$OUT/plan.txt" 2>&1 ||
			die "plan failed: $(tail -n 3 "$OUT/plan.txt")"
	fi
	bench_warm "$dev" 1 || die "warm-up failed"
	if [ $((ROUND % 2)) = 1 ]; then
		show && say "ssdtune with its defaults"
		jobs defaults "$pin0"
		arm_tuned
	else
		arm_tuned
		jobs defaults "$pin0"
	fi
}

: >"$OUT/demo.raw"
t0=$(date +%s)
for ROUND in $(seq 1 "$ROUNDS"); do
	if [ $((ROUND % 2)) = 1 ]; then
		arm_stock
		arm_ssdtune
	else
		arm_ssdtune
		arm_stock
	fi
	[ "$ROUND" = 1 ] && say "rounds 2-$ROUNDS, the same arms in turn"
	echo "   round $ROUND of $ROUNDS done after $(($(date +%s) - t0)) s"
done
say "ssdtune detach $bdf"
[ "$(pci_driver "$bdf")" = ssdtune ] || bench_bind "$bdf" ssdtune 0 || die "cannot attach $bdf"
"$SSDT_TOOL" detach "$bdf" || die "detach failed"
module_unload || die "rmmod failed"
echo "   controller back on $(pci_driver "$bdf"): $(nvme_disk)"
echo "4K random read, 1 fio job, ${SECS}s runs, $ROUNDS rounds in $(($(date +%s) - t0)) s, emulated NVMe under TCG ($(uname -r)); stock and defaults on CPU $pin0" >"$OUT/about.txt"
