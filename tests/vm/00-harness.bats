#!/usr/bin/env bats
# The harness itself, on the stock nvme driver: the guest has the emulated
# NVMe where the tests expect it, fio verify works, the host answers QMP
# requests, and the stock driver's vectors are kernel-managed (the contrast
# for 40-irq.bats).  Needs no ssdtune.
#
# vm-kernels: both (the stock driver, QMP and managed vectors of each
# kernel)

load lib/common

@test "the emulated NVMe is found by class 0x010802 and serial ssdt01, on NUMA node 1, bound to nvme" {
	bdf=$(nvme_bdf)
	echo "bdf=$bdf"
	read -r cls <"/sys/bus/pci/devices/$bdf/class"
	read -r node <"/sys/bus/pci/devices/$bdf/numa_node"
	[ "$cls" = 0x010802 ]
	[ "$node" = 1 ]
	[ "$(pci_driver "$bdf")" = nvme ]
	[ "$(node_cpus 1)" = "2 3" ]
}

@test "stock nvme: 4K random write with crc32c verify passes (harness baseline)" {
	# its own region: ssdtune's verify at 0 (20-integrity) must not find this data
	job_4k_randwrite "$(nvme_disk)" 960M
}

@test "the host answers a QMP request from the guest (query-status)" {
	run vm_request ping 30
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok running" ]
}

@test "contrast: the stock nvme driver's I/O queue vectors refuse a smp_affinity_list write" {
	irqs=$(nvme_io_irqs)
	[ -n "$irqs" ]
	read -r online </sys/devices/system/cpu/online
	online=$(expand_cpulist "$online")
	for i in $irqs; do
		read -r before <"/proc/irq/$i/smp_affinity_list"
		# any online CPU other than the current one
		for c in $online; do
			[ "$c" != "$before" ] && break
		done
		# The write is the shell's own (a process per vector costs ~0.1 s
		# under TCG); its error message goes to $output.
		status=0
		echo "$c" 2>"$SSDT_TMP/affinity.err" >"/proc/irq/$i/smp_affinity_list" || status=1
		output=""
		read -r output <"$SSDT_TMP/affinity.err" || true
		echo "irq $i: $before -> $c: status $status: $output"
		[ "$status" -ne 0 ]
		# EIO before 6.12, EPERM after ("write error: Input/output error")
		[[ $output =~ I/O\ error|Input/output\ error|Operation\ not\ permitted ]]
		read -r after <"/proc/irq/$i/smp_affinity_list"
		[ "$after" = "$before" ]
	done
}

@test "the guest runs /usr, /etc and the repository from the cached second 9p export, and \$BUILD is still the shared read-write mount" {
	# scripts/vm-guest-cache.sh; a boot with VM_GUEST_CACHE=0 has none
	local d m
	if [ "${SSDT_VM_GUEST_CACHE:-1}" = 0 ]; then
		refute grep -q ' ssdt-cache ' /proc/mounts
		return 0
	fi
	# 6.12 shows cache=0xf, 6.1 just "loose"
	grep '^ssdtroot ' /proc/mounts
	grep -Eq '^ssdtroot /run/ssdt-root/root 9p .*(cache=|,loose)' /proc/mounts
	for d in /usr /etc "$SSDT_REPO"; do
		m=$(awk -v d="$d" '$2 == d && $1 == "ssdt-cache" { print $4 }' /proc/mounts | tail -n 1)
		echo "$d: $m"
		[[ $m == *lowerdir=*/run/ssdt-root/root$d* ]]
	done
	m=$(awk -v d="$SSDT_BUILD" '$2 == d { print $3 }' /proc/mounts | tail -n 1)
	echo "$SSDT_BUILD: $m"
	[ "$m" = 9p ]
	touch "$SSDT_BUILD/vm/.guest-cache-probe" && rm "$SSDT_BUILD/vm/.guest-cache-probe"
}
