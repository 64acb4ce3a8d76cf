#!/usr/bin/env bats
# Load, attach, identity and queue sysfs, bad input, detach, unload.
#
# vm-kernels: both (PCI binding, the block layer and the class device)

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
	# No wait needed: the driver has no ID table, and insmod returns after
	# any probe its init started (synchronous, or async and waited for by
	# do_init_module()), so a bind it made is visible now.
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
	read -r size <"$SSDT_TMP/stock.size"
	[ "$(blockdev --getsize64 "$disk")" -eq "$size" ]
	refute nvme_disk
}

@test "controller sysfs shows model, serial, firmware, numa_node 1, pci_address and the warning temperature" {
	setup_attached
	c=$(ssdt_ctrl)
	for f in model serial firmware numa_node pci_address; do
		read -r v <"$c/$f" || true
		echo "$f=$v"
	done
	read -r model <"$SSDT_TMP/stock.model"
	read -r firmware <"$SSDT_TMP/stock.firmware"
	[ "$(trim "$c/serial")" = "$SSDT_VM_NVME_SERIAL" ]
	[ "$(trim "$c/pci_address")" = "$(nvme_bdf)" ]
	[ "$(trim "$c/numa_node")" = 1 ]
	[ "$(trim "$c/model")" = "$model" ]
	[ "$(trim "$c/firmware")" = "$firmware" ]
	# Identify WCTEMP: QEMU reports 343 K
	[ "$(trim "$c/temperature_warn_mc")" = 69850 ]
}

# Every file of the class device and its queues has its What: line in
# Documentation/ABI/testing/sysfs-class-ssdtune (queues as qK); the
# driver core's own (uevent, subsystem, power/, device) and the disks'
# (ssdtNnM/, the block layer's) are not ours.  Builtins only: a process
# per file costs ~0.3 s under TCG.
# bats test_tags=one-kernel
@test "every sysfs file of ssdtN and queues/qK is documented in Documentation/ABI/testing" {
	setup_attached
	c=$(ssdt_ctrl)
	declare -A doc=()
	while read -r w p; do
		[ "$w" = What: ] && doc[$p]=1
	done <"$SSDT_REPO/Documentation/ABI/testing/sysfs-class-ssdtune"
	n=0 missing=""
	while IFS= read -r f; do
		rel=${f#"$c"/}
		case $rel in
		uevent | subsystem | device | power | power/* | ssdt*n*) continue ;;
		esac
		[[ $rel =~ ^queues/q[0-9]+(/.*)?$ ]] && rel=queues/qK${BASH_REMATCH[1]}
		n=$((n + 1))
		[ -n "${doc[/sys/class/ssdtune/ssdtN/$rel]:-}" ] || missing="$missing $rel"
	done < <(find "$c/" -mindepth 1 \( -type f -o -type l \) | sort -u)
	echo "files: $n; undocumented:${missing:- none}"
	[ "$n" -ge 30 ]
	[ -z "$missing" ]
}

@test "every queue exposes irq, cpus and counters; every CPU maps to a queue; I/O moves the counters" {
	setup_attached
	c=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	nq=0 mapped="" sub0=0 comp0=0 int0=0
	# Builtin reads only: a process per file costs ~0.1 s under TCG.
	interrupts=$'\n'
	while IFS= read -r l; do interrupts+="$l"$'\n'; done </proc/interrupts
	for q in "$c"/queues/q*; do
		for f in irq cpus submitted completed interrupts; do
			[ -r "$q/$f" ] || { echo "missing $q/$f"; false; }
		done
		read -r irq <"$q/irq"
		read -r cpus <"$q/cpus" || true
		read -r sub <"$q/submitted"
		read -r comp <"$q/completed"
		read -r int <"$q/interrupts"
		echo "${q##*/}: irq=$irq cpus=$cpus submitted=$sub completed=$comp interrupts=$int"
		[[ $irq =~ ^[0-9]+$ ]]
		[[ $interrupts =~ $'\n'\ *$irq: ]] || { echo "irq $irq is not in /proc/interrupts"; false; }
		mapped="$mapped $(expand_cpulist "$cpus")"
		# q0 also holds the Asynchronous Event Requests the driver keeps
		# posted (they complete only when the controller has an event):
		# the counts below are the I/O queues'
		[ "${q##*/}" = q0 ] && { nq=$((nq + 1)); continue; }
		sub0=$((sub0 + sub))
		comp0=$((comp0 + comp))
		int0=$((int0 + int))
		nq=$((nq + 1))
	done
	[ "$nq" -ge 1 ]
	read -r online </sys/devices/system/cpu/online
	for cpu in $(expand_cpulist "$online"); do
		[[ " $mapped " == *" $cpu "* ]] || { echo "CPU $cpu is not in any queue's cpus"; false; }
	done
	run_fio "$disk" --rw=randread --bs=4k --iodepth=8 --size=8M --io_size=4M >/dev/null
	sub1=0 comp1=0 int1=0
	for q in "$c"/queues/q[1-9]*; do
		read -r sub <"$q/submitted"
		read -r comp <"$q/completed"
		read -r int <"$q/interrupts"
		sub1=$((sub1 + sub))
		comp1=$((comp1 + comp))
		int1=$((int1 + int))
	done
	echo "submitted $sub0 -> $sub1, completed $comp0 -> $comp1, interrupts $int0 -> $int1"
	# 4 MiB of 4K reads is 1024 commands
	[ $((sub1 - sub0)) -ge 1024 ]
	[ $((comp1 - comp0)) -ge 1024 ]
	[ "$sub1" -eq "$comp1" ]
	[ $((int1 - int0)) -ge 1 ]
}

# bats test_tags=one-kernel
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

# bats test_tags=one-kernel
@test "attach of a PCI device that is not an NVMe controller is refused with one line and changes nothing" {
	setup_attached
	# the guest's AHCI controller (class 0x0106xx)
	other=""
	for d in /sys/bus/pci/devices/*; do
		read -r cls <"$d/class"
		case $cls in 0x0106*) other=${d##*/}; break ;; esac
	done
	[ -n "$other" ]
	drv=$(pci_driver "$other")
	run ssdt attach "$other"
	echo "$other ($drv): $output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$(pci_driver "$other")" = "$drv" ]
	read -r override <"/sys/bus/pci/devices/$other/driver_override"
	[ "$override" = "(null)" ]
}

@test "detach gives the controller back to nvme and removes /dev/ssdtNn1" {
	setup_attached
	bdf=$(nvme_bdf)
	detach
	[ "$(pci_driver "$bdf")" = nvme ]
	nvme_disk
	no_ssdt_nodes
}

# After the detach test, which leaves the controller on nvme: from the
# attached state this test cost an extra detach and attach (~5 s each
# under TCG).
# bats test_tags=one-kernel
@test "attach --dry-run of a controller on nvme changes nothing" {
	module_load
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	run ssdt attach --dry-run "$bdf"
	echo "$output"
	[ "$status" -eq 0 ]
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
