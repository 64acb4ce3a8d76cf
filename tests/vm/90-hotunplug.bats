#!/usr/bin/env bats
# Surprise removal: QMP device_del of the NVMe while fio runs on ssdtune.
# LAST in the suite: the controller is gone afterwards.
#
# vm-kernels: both (PCIe hotplug)

load lib/common

# ios_past DISK N: more than N reads and writes have completed on DISK
ios_past() {
	local r w x
	read -r r x x x w x <"/sys/block/${1#/dev/}/stat" || return 1
	[ $((r + w)) -gt "$2" ]
}

# the hung-task period as the test found it, however the test ended
teardown() {
	[ -z "${ht0:-}" ] || echo "$ht0" >"$ht"
	true
}

@test "hot-unplug (QMP device_del) during fio: fio ends with errors, no task hangs, the module unloads" {
	setup_attached
	bdf=$(nvme_bdf)
	disk=$(ssdt_disk)
	# report hung tasks after 10 s instead of 120 s (the debug kernel has
	# no hung-task detector: the D-state check below still runs)
	ht=/proc/sys/kernel/hung_task_timeout_secs
	ht0=""
	[ ! -w "$ht" ] || { read -r ht0 <"$ht"; echo 10 >"$ht"; }
	dmesg_mark
	read -r r x x x w x <"/sys/block/${disk#/dev/}/stat"
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randrw \
		--bs=4k --iodepth=32 --size=256M --time_based --runtime=120 \
		--output="$SSDT_TMP/unplug.fio" >/dev/null 2>&1 3>&- &
	fpid=$!
	# Unplug once fio's I/O flows (a queue depth of it done), not after a
	# fixed 3 s.  The unplug itself gives the driver's remove 5 s more of it
	# (pciehp's attention button delay).
	wait_for 30 ios_past "$disk" $((r + w + 32)) ||
		{ echo "fio completed no I/O on $disk in 30 s"; false; }
	kill -0 "$fpid"
	if ! vm_request unplug 150; then
		# what the guest was doing (a CI run once saw no DEVICE_DELETED
		# although the driver had shut the controller down)
		dmesg | tail -n 15
		ps -eo stat=,pid=,wchan:32=,comm= | awk '$1 ~ /^D/'
		ls /sys/bus/pci/devices/ 2>&1 | tr '\n' ' '
		cat /sys/bus/pci/slots/*/power 2>&1
		false
	fi
	# fio must stop by itself long before its 120 s, with an error
	fio_ends_failing "$fpid" "$SSDT_TMP/unplug.fio"
	# the device and its disk are gone
	[ ! -e "/sys/bus/pci/devices/$bdf" ]
	wait_for 10 no_ssdt_nodes
	# Nothing may wait on the gone device now: a 2 s hung-task period from
	# here (a write wakes the detector), and two of its checks to report a
	# task that has not run since the last (10 s were for the unplug itself,
	# when fio's tasks wait out pciehp's 5 s button delay).  Without the
	# detector the D-state check still comes after the same 5 s.
	[ -z "$ht0" ] || echo 2 >"$ht"
	sleep 5
	dstate=$(ps -eo stat=,pid=,comm= | awk '$1 ~ /^D/')
	[ -z "$dstate" ] || { echo "tasks in D state: $dstate"; false; }
	dmesg_new
	refute grep -Eq 'blocked for more than|hung_task|Oops|BUG' <(dmesg_new)
	# the unload below may take seconds under TCG: the usual period again
	[ -z "$ht0" ] || echo "$ht0" >"$ht"
	module_unload
	refute module_loaded
}
