#!/usr/bin/env bats
# Surprise removal under a Format: QMP device_del of the test controller
# (serial ssdt01) while a Format hangs on it and fio waits behind the
# Format's freeze.  LAST in the subsystem boot of scripts/vm.sh --subsys
# (58-rescan uses the subsystem's controllers, not this one): the
# controller is gone afterwards.  tests/vm/90-hotunplug.bats is the same
# removal under I/O alone, in the main boot.
#
# QEMU's device_del is the attention button of the PCIe slot: the guest's
# pciehp removes the driver (ssdt_remove) with the device still answering,
# then powers the slot off, and only then does QEMU delete the device.

load ../lib/common

@test "hot-unplug (QMP device_del) while a Format hangs and fio waits behind it: the Format times out during removal, fio ends with errors, no task hangs, the module unloads" {
	setup_attached
	bdf=$(nvme_bdf)
	disk=$(ssdt_disk)
	ctrl=$(ssdt_ctrl)
	# the removal waits for the Format to time out: long enough for the
	# unplug (pciehp waits 5 s after the attention button) to start
	# while it waits, so the timeout comes during removal, when no reset
	# may follow it (debug kernel: slow).  The removal starts some 6-8 s
	# after the Format is sent (the QMP round trip, pciehp's 5 s): 20 s
	# leaves twice that again for a loaded host, and the test waits out
	# every second of it.
	fmt_s=20
	[ -z "${SSDT_VM_SLOW:-}" ] || fmt_s=40
	echo "$fmt_s" >/sys/module/ssdtune/parameters/format_timeout
	dmesg_mark
	io0=$(io_sum)
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randrw \
		--bs=4k --iodepth=16 --size=64M --time_based --runtime=300 \
		--output="$SSDT_TMP/unplug-fmt.fio" >/dev/null 2>&1 3>&- &
	fiopid=$!
	# fio is doing I/O (it takes a second or two to start under TCG)
	# before the Format freezes the disk
	wait_for 30 io_beyond "$io0"
	kill -0 "$fiopid"
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	python3 "$SSDT_REPO/tests/vm/lib/genl-format.py" "${ctrl##*/ssdt}" 1 0 >"$SSDT_TMP/fmt.out" 2>&1 3>&- &
	fmtpid=$!
	# the Format is on the device (its completion was lost) before the unplug
	if ! wait_for 60 admin_completion_lost || ! kill -0 "$fmtpid"; then
		echo "the Format is not pending: $(cat "$SSDT_TMP/fmt.out")"
		dmesg_new | tail -n 20
		false
	fi
	# the removal waits for the Format's timeout first (40 s on the slow
	# debug kernel, where 120 s for the whole unplug was too little)
	unplug_s=240
	[ -z "${SSDT_VM_SLOW:-}" ] || unplug_s=400
	if ! vm_request unplug "$unplug_s"; then
		dmesg | tail -n 20
		ps -eo stat=,pid=,wchan:32=,comm= | awk '$1 ~ /^D/'
		false
	fi
	# the Format has its answer: it timed out with the controller stopped
	wait_for 30 test ! -d "/proc/$fmtpid"
	wait "$fmtpid" || true
	echo "format: $(cat "$SSDT_TMP/fmt.out")"
	[ "$(cat "$SSDT_TMP/fmt.out")" = ETIMEDOUT ]
	dmesg_new | grep -q 'timed out: stopping the controller'
	# no reset during removal: what the stopped controller's queues held
	# (fio's I/O, let in when the Format thawed the disk) fails instead of
	# waiting for one, else deleting the disk waits for ever
	dmesg_new | grep -q 'stopped during removal: failing outstanding I/O'
	# fio stops by itself long before its 300 s, with an error
	fio_ends_failing "$fiopid" "$SSDT_TMP/unplug-fmt.fio"
	# the device and its disk are gone, nothing waits
	[ ! -e "/sys/bus/pci/devices/$bdf" ]
	wait_for 10 no_ssdt_nodes
	dstate=$(ps -eo stat=,pid=,comm= | awk '$1 ~ /^D/')
	[ -z "$dstate" ] || { echo "tasks in D state: $dstate"; false; }
	dmesg_no_reports
	module_unload
	refute module_loaded
}
