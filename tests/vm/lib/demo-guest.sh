#!/bin/bash
# Guest side of scripts/demo.sh (runs under scripts/vm.sh).
set -u
cd "$(dirname "$0")/../../.."
. tests/vm/lib/common.bash
. tests/vm/lib/measure.bash
SECS=${DEMO_SECS:-5}
say() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

say "guest: $(uname -r), $(nproc) CPUs; NUMA: node 0 CPUs $(trim /sys/devices/system/node/node0/cpulist), node 1 CPUs $(trim /sys/devices/system/node/node1/cpulist)"
bdf=$(nvme_bdf) || die "no test NVMe controller"
echo "NVMe controller $bdf (serial $SSDT_VM_NVME_SERIAL) on NUMA node $(trim /sys/bus/pci/devices/$bdf/numa_node), driver $(pci_driver "$bdf")"

say "ssdtune topology (storage part)"
ssdt topology 2>&1 | sed -n '/^Storage/,/^cpuidle/p' | sed '$d'

say "stock nvme: fio 4K random read, QD32, ${SECS}s on $(nvme_disk)"
stock=$(measure nvme "$(nvme_disk)" "$bdf" 32 1 "$SECS") || die "fio on nvme failed"
echo "$stock"

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

say "ssdtune bench on $disk: 4k random read, QD1 and QD32, 3 rounds of ${SECS}s"
ssdt bench "$disk" --bs 4k --qd 1,32 --rounds 3 --runtime "$SECS" \
	--out "$SSDT_TMP/demo-bench" >"$SSDT_TMP/demo-bench.log" 2>&1 ||
	{ cat "$SSDT_TMP/demo-bench.log"; die "ssdtune bench failed"; }
grep '^bench: ' "$SSDT_TMP/demo-bench.log"

say "detach and unload"
echo "+ ssdtune detach $bdf"
ssdt detach "$bdf" || die "detach failed"
module_unload || die "rmmod failed"
echo "controller back on $(pci_driver "$bdf"): $(nvme_disk)"

say "summary: 4K random read, QD32, 1 job, ${SECS}s each, emulated NVMe under TCG"
printf '  %-8s %10s %12s %12s %10s\n' driver IOPS "mean clat" "p99 clat" "irq/IO"
for line in "$stock" "$mine"; do
	set -- $line
	iops=${4#iops=} mean=${5#mean_us=} p99=${6#p99_us=} ipi=${7#irq_per_io=}
	printf '  %-8s %10s %10s us %10s us %10s\n' "$1" "$iops" "$mean" "$p99" "$ipi"
done
echo "  (TCG emulation: absolute numbers say little; the same device and job for both drivers)"

say "ssdtune bench table ($SSDT_TMP/demo-bench/bench.txt; JSON, CSV and PNGs beside it)"
cat "$SSDT_TMP/demo-bench/bench.txt"
