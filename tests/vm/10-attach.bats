#!/usr/bin/env bats
# Load, attach, identity and queue sysfs, bad input, detach, unload.

load lib/common

setup_file() {
	# What the stock driver reports, to compare with ssdtune's identity files.
	local d
	bdf=$(nvme_bdf) || return 1
	for d in /sys/bus/pci/devices/"$bdf"/nvme/nvme*; do
		trim "$d/model" >"$SSDT_TMP/stock.model"
		trim "$d/firmware_rev" >"$SSDT_TMP/stock.firmware"
	done
	blockdev --getsize64 "$(nvme_disk)" >"$SSDT_TMP/stock.size"
}

teardown_file() {
	teardown_stock
}

@test "ssdtune.ko loads without taking the controller from nvme" {
	bdf=$(nvme_bdf)
	module_load
	module_loaded
	sleep 1
	[ "$(pci_driver "$bdf")" = nvme ]
	nvme_disk
	no_ssdt_nodes
}

@test "attach moves the controller from nvme to ssdtune and creates /dev/ssdtNn1" {
	module_load
	bdf=$(nvme_bdf)
	attach
	[ "$(pci_driver "$bdf")" = ssdtune ]
	disk=$(ssdt_disk)
	echo "disk=$disk"
	[ "$(blockdev --getsize64 "$disk")" -eq "$(cat "$SSDT_TMP/stock.size")" ]
	refute nvme_disk
}

@test "controller sysfs shows model, serial, firmware, numa_node 1, pci_address and the warning temperature" {
	setup_attached
	c=$(ssdt_ctrl)
	for f in model serial firmware numa_node pci_address; do
		echo "$f=$(cat "$c/$f")"
	done
	[ "$(trim "$c/serial")" = "$SSDT_VM_NVME_SERIAL" ]
	[ "$(trim "$c/pci_address")" = "$(nvme_bdf)" ]
	[ "$(trim "$c/numa_node")" = 1 ]
	[ "$(trim "$c/model")" = "$(cat "$SSDT_TMP/stock.model")" ]
	[ "$(trim "$c/firmware")" = "$(cat "$SSDT_TMP/stock.firmware")" ]
	# Identify WCTEMP: QEMU reports 343 K
	[ "$(trim "$c/temperature_warn_mc")" = 69850 ]
}

@test "every queue exposes irq, cpus and counters; every CPU maps to a queue; I/O moves the counters" {
	setup_attached
	c=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	nq=0 mapped="" sub0=0 comp0=0 int0=0
	for q in "$c"/queues/q*; do
		for f in irq cpus submitted completed interrupts; do
			[ -r "$q/$f" ] || { echo "missing $q/$f"; false; }
		done
		irq=$(trim "$q/irq")
		echo "$(basename "$q"): irq=$irq cpus=$(cat "$q/cpus") submitted=$(cat "$q/submitted") completed=$(cat "$q/completed") interrupts=$(cat "$q/interrupts")"
		[[ $irq =~ ^[0-9]+$ ]]
		grep -q "^ *$irq:" /proc/interrupts
		mapped="$mapped $(expand_cpulist "$(trim "$q/cpus")")"
		# q0 also holds the Asynchronous Event Requests the driver keeps
		# posted (they complete only when the controller has an event):
		# the counts below are the I/O queues'
		[ "${q##*/}" = q0 ] && { nq=$((nq + 1)); continue; }
		sub0=$((sub0 + $(trim "$q/submitted")))
		comp0=$((comp0 + $(trim "$q/completed")))
		int0=$((int0 + $(trim "$q/interrupts")))
		nq=$((nq + 1))
	done
	[ "$nq" -ge 1 ]
	for cpu in $(expand_cpulist "$(cat /sys/devices/system/cpu/online)"); do
		[[ " $mapped " == *" $cpu "* ]] || { echo "CPU $cpu is not in any queue's cpus"; false; }
	done
	run_fio "$disk" --rw=randread --bs=4k --iodepth=8 --size=8M --io_size=4M >/dev/null
	sub1=0 comp1=0 int1=0
	for q in "$c"/queues/q[1-9]*; do
		sub1=$((sub1 + $(trim "$q/submitted")))
		comp1=$((comp1 + $(trim "$q/completed")))
		int1=$((int1 + $(trim "$q/interrupts")))
	done
	echo "submitted $sub0 -> $sub1, completed $comp0 -> $comp1, interrupts $int0 -> $int1"
	# 4 MiB of 4K reads is 1024 commands
	[ $((sub1 - sub0)) -ge 1024 ]
	[ $((comp1 - comp0)) -ge 1024 ]
	[ "$sub1" -eq "$comp1" ]
	[ $((int1 - int0)) -ge 1 ]
}

@test "attach --dry-run of a controller on nvme changes nothing" {
	setup_attached
	detach
	bdf=$(nvme_bdf)
	run ssdt attach --dry-run "$bdf"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(pci_driver "$bdf")" = nvme ]
	nvme_disk
	no_ssdt_nodes
}

@test "attach of a PCI address that does not exist is refused with one line and changes nothing" {
	setup_attached
	bdf=$(nvme_bdf)
	run ssdt attach 0000:7f:1f.7
	echo "$output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(pci_driver "$bdf")" = ssdtune ]
	ssdt_disk
}

@test "attach of a PCI device that is not an NVMe controller is refused with one line and changes nothing" {
	setup_attached
	# the guest's AHCI controller (class 0x0106xx)
	other=""
	for d in /sys/bus/pci/devices/*; do
		case $(cat "$d/class") in 0x0106*) other=$(basename "$d"); break ;; esac
	done
	[ -n "$other" ]
	drv=$(pci_driver "$other")
	run ssdt attach "$other"
	echo "$other ($drv): $output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(pci_driver "$other")" = "$drv" ]
	[ "$(cat "/sys/bus/pci/devices/$other/driver_override")" = "(null)" ]
}

@test "detach gives the controller back to nvme and removes /dev/ssdtNn1" {
	setup_attached
	bdf=$(nvme_bdf)
	detach
	[ "$(pci_driver "$bdf")" = nvme ]
	nvme_disk
	no_ssdt_nodes
}

@test "ssdtune.ko unloads after detach and leaves no vectors behind" {
	module_load
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	module_unload
	refute module_loaded
	refute grep ssdt /proc/interrupts
}
