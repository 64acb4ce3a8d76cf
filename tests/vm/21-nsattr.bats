#!/usr/bin/env bats
# What Identify Namespace says of a namespace, followed at a rescan
# (kmod/ssdt_ns.c, kmod/ssdt_ns_rules.h): a write-protected namespace
# (NSATTR bit 0) is a read-only disk, as stock nvme makes it, so a write
# fails at once instead of one command at a time on the drive.  QEMU has
# no namespace write protection: the debugfs hook ns_write_protect makes
# Identify Namespace read as protected.  A namespace formatted to another
# block size elsewhere is tested with two controllers sharing it
# (tests/vm/subsys/58-rescan.bats); the rules in KUnit
# (kmod/tests/ssdt_ns_rules_test.c).
#
# vm-kernels: both (set_disk_ro and the block layer's refusal of a write)

load lib/common

setup_file() {
	debugfs_mount
	setup_attached
}

setup() {
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	ro=/sys/block/${disk#/dev/}/ro
	dmesg_mark
}

teardown() {
	# the module may be unloaded by then (the attach test)
	[ ! -e "$SSDT_DBG/ns_write_protect" ] || echo 0 >"$SSDT_DBG/ns_write_protect"
}

teardown_file() {
	teardown_stock
}

@test "write protection (NSATTR bit 0) at a rescan: the disk turns read-only, a write fails at once, reads go on; lifted, the disk takes verified writes again" {
	head -c 65536 /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=64k seek=9000 oflag=direct conv=fsync status=none
	[ "$(cat "$ro")" = 0 ]
	s0=$(io_sum)
	echo 1 >"$SSDT_DBG/ns_write_protect"
	nvme ns-rescan "/dev/${ctrl##*/}"
	[ "$(cat "$ro")" = 1 ]
	dmesg_new | grep -q "namespace 1: write protection on"
	run dd if=/dev/zero of="$disk" bs=4k count=1 seek=9000 oflag=direct status=none
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* || "$output" == *"Read-only"* ]]
	# the block layer refused it: nothing went to the controller
	[ "$(io_sum)" = "$s0" ]
	dd if="$disk" of="$SSDT_TMP/back" bs=64k skip=9000 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	# the disk is the same one: only its read-only flag changed
	! dmesg_new | grep -q 'removing'
	echo 0 >"$SSDT_DBG/ns_write_protect"
	nvme ns-rescan "/dev/${ctrl##*/}"
	[ "$(cat "$ro")" = 0 ]
	dmesg_new | grep -q "namespace 1: write protection off"
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=8 --offset=560M --size=4M
	dmesg_clean_since_mark
}

@test "a namespace write-protected when the controller is attached comes up read-only" {
	teardown_stock
	module_load
	echo 1 >"$SSDT_DBG/ns_write_protect"
	setup_attached
	disk=$(ssdt_disk)
	[ "$(cat "/sys/block/${disk#/dev/}/ro")" = 1 ]
	run dd if=/dev/zero of="$disk" bs=4k count=1 oflag=direct status=none
	[ "$status" -ne 0 ]
	echo 0 >"$SSDT_DBG/ns_write_protect"
	teardown_stock
	setup_attached
	disk=$(ssdt_disk)
	[ "$(cat "/sys/block/${disk#/dev/}/ro")" = 0 ]
	dmesg_clean_since_mark
}
