#!/usr/bin/env bats
# Real AER recovery on the normal kernels: an error injected with the
# kernel's aer_inject module at the Root Port above the test controller
# (QEMU's NVMe has no AER capability of its own; its Root Port has, and
# the guest's AER driver owns it).  The PCI core then calls ssdtune's
# error handlers for the devices below that port: for a fatal error
# error_detected (frozen), the link reset, slot_reset and resume; for a
# non-fatal one error_detected (normal) and resume.  Not in make
# check-debug: the debug kernel has no AER (27-faults drives the same
# handlers there through the driver's aer hook).
#
# vm-kernels: both (the kernel's AER driver)

load lib/common

setup_file() {
	modprobe aer_inject || return 1
	module_load
}

setup() {
	bdf=$(nvme_bdf)
	# the Root Port the controller sits below
	rp=$(readlink -f "/sys/bus/pci/devices/$bdf")
	rp=${rp%/*}
	rp=${rp##*/}
	dmesg_mark
}

teardown_file() {
	teardown_stock
}

# AER's own report lines (they say "error")
AER_LINES='pcieport|AER|PCIe Bus Error|error status/mask|DLP|Poisoned TLP|aer_inject|Injecting errors'

@test "the test controller's Root Port reports errors through the guest's AER driver" {
	echo "controller $bdf below Root Port $rp"
	dmesg | grep -q "pcieport $rp: AER: enabled"
	[ -c /dev/aer_inject ]
}

@test "a fatal error (Data Link Protocol) at the Root Port during fio verify: the controller halts, the link is reset, slot_reset and resume bring it back; the I/O waits and goes on" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	echo host >"$ctrl/coalesce_mode"
	(io_flows || exit 1; python3 "$SSDT_REPO/tests/vm/lib/aer-inject.py" "$rp" 0x10) &
	apid=$!
	verify_while "$apid" --offset=420M
	wait "$apid"
	dmesg_new | grep -E 'AER|PCI channel|link reset|halted|reset done' || true
	dmesg_new | grep -Eq 'Uncorrect(ed|able) \(Fatal\) error'
	held_through 'an AER recovery' 1
	dmesg_new | grep -q 'PCI channel frozen'
	dmesg_new | grep -q 'restarting after the link reset'
	dmesg_new | grep -qi 'device recovery successful'
	[ "$(trim "$ctrl/coalesce_mode")" = host ]
	echo off >"$ctrl/coalesce_mode"
	fio_verify "$(ssdt_disk)" --rw=randrw --bs=4k --iodepth=16 --offset=440M --size=4M
	dmesg_clean_since_mark "$AER_LINES"
}

@test "a non-fatal error (Poisoned TLP) at the Root Port: the channel stays up, nothing halts, fio verify goes on" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	(io_flows || exit 1; python3 "$SSDT_REPO/tests/vm/lib/aer-inject.py" "$rp" 0x1000) &
	apid=$!
	verify_while "$apid" --offset=450M
	wait "$apid"
	dmesg_new | grep -E 'AER|halted' || true
	dmesg_new | grep -Eq 'Uncorrect(ed|able) \(Non-Fatal\) error'
	refute grep -q 'halted for' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark "$AER_LINES"
}
