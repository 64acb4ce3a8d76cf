#!/bin/bash
# Guest side of scripts/demo.sh (runs under scripts/vm.sh).  Everything it
# measures goes to $SSDT_BUILD/demo, the host's build/demo, which outlives
# the guest: summary.txt, stock/ and ssdtune/ (ssdtune bench reports:
# bench.txt, .json, .csv and PNGs) and compare.txt (bench compare).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
SECS=${DEMO_SECS:-5}
OUT=$SSDT_BUILD/demo
say() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

say "guest: $(uname -r), $(nproc) CPUs; NUMA: node 0 CPUs $(trim /sys/devices/system/node/node0/cpulist), node 1 CPUs $(trim /sys/devices/system/node/node1/cpulist)"
bdf=$(nvme_bdf) || die "no test NVMe controller"
rm -rf "$OUT" && mkdir -p "$OUT" || die "cannot make $OUT"
echo "NVMe controller $bdf (serial $SSDT_VM_NVME_SERIAL) on NUMA node $(trim /sys/bus/pci/devices/$bdf/numa_node), driver $(pci_driver "$bdf")"

say "ssdtune topology (storage part)"
ssdt topology 2>&1 | sed -n '/^Storage/,/^cpuidle/p' | sed '$d'

say "stock nvme: fio 4K random read, QD32, ${SECS}s on $(nvme_disk)"
stock=$(measure nvme "$(nvme_disk)" "$bdf" 32 1 "$SECS") || die "fio on nvme failed"
echo "$stock"

# bench_on DRIVER DISK: ssdtune bench, 4k random read at QD1 and QD32, into
# $OUT/DRIVER
bench_on() {
	say "ssdtune bench on $2 ($1): 4k random read, QD1 and QD32, 3 rounds of ${SECS}s"
	ssdt bench "$2" --bs 4k --qd 1,32 --rounds 3 --runtime "$SECS" \
		--out "$OUT/$1" >"$SSDT_TMP/demo-bench-$1.log" 2>&1 ||
		{ cat "$SSDT_TMP/demo-bench-$1.log"; die "ssdtune bench on $1 failed"; }
	grep '^bench: ' "$SSDT_TMP/demo-bench-$1.log"
}
bench_on stock "$(nvme_disk)"

say "load ssdtune.ko and attach $bdf"
module_load || die "cannot load the module"
echo "+ ssdtune attach $bdf"
ssdt attach "$bdf" || die "attach failed"
wait_for 30 ssdt_disk >/dev/null || die "no /dev/ssdt*n1"
udevadm settle -t 30
c=$(ssdt_ctrl)
disk=$(ssdt_disk)
say "sysfs: $c"
for f in model serial firmware numa_node pci_address; do
	[ -r "$c/$f" ] && printf '  %-12s %s\n' "$f" "$(cat "$c/$f")"
done
printf '  %-5s %-5s %-6s %-18s %-10s\n' queue irq cpus "irq affinity(eff)" submitted
while read -r q irq; do
	printf '  %-5s %-5s %-6s %-18s %-10s\n' "$q" "$irq" "$(trim "$c/queues/$q/cpus")" \
		"$(trim /proc/irq/$irq/smp_affinity_list)($(trim /proc/irq/$irq/effective_affinity_list))" \
		"$(trim "$c/queues/$q/submitted")"
done < <(ssdt_queue_irqs)

say "ssdtune: fio 4K random read, QD32, ${SECS}s on $disk"
mine=$(measure ssdtune "$disk" "$bdf" 32 1 "$SECS") || die "fio on ssdtune failed"
echo "$mine"

say "queues after the run"
printf '  %-5s %-10s %-10s %-10s\n' queue submitted completed interrupts
while read -r q irq; do
	printf '  %-5s %-10s %-10s %-10s\n' "$q" "$(trim "$c/queues/$q/submitted")" \
		"$(trim "$c/queues/$q/completed")" "$(trim "$c/queues/$q/interrupts")"
done < <(ssdt_queue_irqs)

bench_on ssdtune "$disk"
ssdt bench compare "$OUT/stock/bench.json" "$OUT/ssdtune/bench.json" >"$OUT/compare.txt" 2>&1 ||
	{ cat "$OUT/compare.txt"; die "ssdtune bench compare failed"; }

say "detach and unload"
echo "+ ssdtune detach $bdf"
ssdt detach "$bdf" || die "detach failed"
module_unload || die "rmmod failed"
echo "controller back on $(pci_driver "$bdf"): $(nvme_disk)"

# summary.txt: the side-by-side table scripts/demo.sh shows last
{
	echo "4K random read, QD32, 1 job, ${SECS}s each, emulated NVMe under TCG ($(uname -r))"
	printf '  %-8s %10s %12s %12s %10s\n' driver IOPS "mean clat" "p99 clat" "irq/IO"
	for line in "$stock" "$mine"; do
		set -- $line
		iops=${4#iops=} mean=${5#mean_us=} p99=${6#p99_us=} ipi=${7#irq_per_io=}
		printf '  %-8s %10s %10s us %10s us %10s\n' "$1" "$iops" "$mean" "$p99" "$ipi"
	done
	echo "  (TCG emulation: absolute numbers say little; the same device and job for both drivers)"
} >"$OUT/summary.txt"
say "done: the results are in $OUT"
