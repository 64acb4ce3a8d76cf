#!/usr/bin/env bats
# The harness itself, on the stock nvme driver: the guest has the emulated
# NVMe where the tests expect it, fio verify works, the host answers QMP
# requests, and the stock driver's vectors are kernel-managed (the contrast
# for 40-irq.bats).  Needs no ssdtune.

load lib/common

@test "the emulated NVMe is found by class 0x010802 and serial ssdt01, on NUMA node 1, bound to nvme" {
	bdf=$(nvme_bdf)
	echo "bdf=$bdf"
	[ "$(cat "/sys/bus/pci/devices/$bdf/class")" = 0x010802 ]
	[ "$(cat "/sys/bus/pci/devices/$bdf/numa_node")" = 1 ]
	[ "$(pci_driver "$bdf")" = nvme ]
	[ "$(node_cpus 1)" = "2 3" ]
}

@test "stock nvme: 4K random write with crc32c verify passes (harness baseline)" {
	job_4k_randwrite "$(nvme_disk)"
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
	for i in $irqs; do
		before=$(cat "/proc/irq/$i/smp_affinity_list")
		# any online CPU other than the current one
		for c in $(expand_cpulist "$(cat /sys/devices/system/cpu/online)"); do
			[ "$c" != "$before" ] && break
		done
		run sh -c "echo $c > /proc/irq/$i/smp_affinity_list"
		echo "irq $i: $before -> $c: status $status: $output"
		[ "$status" -ne 0 ]
		# EIO before 6.12, EPERM after (dash says "I/O error")
		[[ $output =~ I/O\ error|Input/output\ error|Operation\ not\ permitted ]]
		[ "$(cat "/proc/irq/$i/smp_affinity_list")" = "$before" ]
	done
}
