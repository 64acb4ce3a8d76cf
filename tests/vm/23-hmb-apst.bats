#!/usr/bin/env bats
# What a real drive asks of its host that QEMU's controller does not
# (Documentation/hardware.md): a Host Memory Buffer and APST.
#
# Host Memory Buffer: a DRAM-less drive asks for host memory (HMPRE,
# HMMIN); ssdtune allocates it within max_host_mem_size_mb, gives it with
# Set Features 0Dh, and frees it only once the controller has let go of
# it.  QEMU asks for none (HMPRE 0) and refuses the feature, so the
# debugfs files hmb_hmpre and hmb_hmmin (debug builds) stand in for a
# drive's Identify fields, and hmb_held_bytes counts the driver's chunks:
# the path through allocation, the refusal, the freeing and a reset runs
# here; the sizing and the chunking have KUnit tests
# (kmod/tests/ssdt_hmb_test.c).
#
# APST: the knob apst_max_latency_us.  QEMU reports APSTA 0: the knob
# reads "unsupported" and refuses writes; the debugfs file apst_apsta
# makes the driver try, and QEMU's refusal of Set Features 0Ch must leave
# the controller working.  The table has KUnit tests
# (kmod/tests/ssdt_apst_test.c).  What a drive that takes either does is
# in hardware.md's checklist.
#
# vm-kernels: one (the driver's own allocation, APST and bring-up logic;
# the DMA API under it is the same on both kernels, and the swiotlb boot
# bounces the rest)

load lib/common
bats_require_minimum_version 1.5.0

setup_file() {
	debugfs_mount
	module_load
}

setup() {
	[ -w "$SSDT_DBG/hmb_hmpre" ] || err "no debugfs hook $SSDT_DBG/hmb_hmpre"
	dmesg_mark
}

teardown() {
	echo 0 >"$SSDT_DBG/hmb_hmpre"
	echo 0 >"$SSDT_DBG/hmb_hmmin"
	echo N >"$SSDT_DBG/apst_apsta"
}

teardown_file() {
	teardown_stock
}

held() { cat "$SSDT_DBG/hmb_held_bytes"; }

@test "QEMU asks for no buffer (HMPRE 0): hmb_bytes is 0, nothing is allocated, nothing is logged" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	[ "$(cat "$ctrl/hmb_bytes")" = 0 ]
	[ "$(held)" = 0 ]
	! dmesg_new | grep -q 'host memory buffer'
}

@test "a controller asking for 4 MiB that refuses Set Features 0Dh: the buffer is allocated, refused and freed; I/O verifies; a reset and a detach leave nothing held" {
	teardown_stock
	module_load
	# HMPRE 4 MiB, HMMIN 1 MiB, in 4 KiB units, as Identify gives them
	echo 1024 >"$SSDT_DBG/hmb_hmpre"
	echo 256 >"$SSDT_DBG/hmb_hmmin"
	attach
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	dmesg_new | grep -q 'host memory buffer: the controller refused 4096 KiB (status 0x[0-9a-f]*): freed, going on without'
	[ "$(cat "$ctrl/hmb_bytes")" = 0 ]
	[ "$(held)" = 0 ]
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	# a reset runs the same bring-up: allocated, refused, freed again
	dmesg_mark
	nvme reset "/dev/${ctrl##*/}"
	wait_for 30 grep -qx live "$ctrl/state"
	[ "$(dmesg_new | grep -c 'host memory buffer: the controller refused 4096 KiB')" = 1 ]
	[ "$(held)" = 0 ]
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	detach
	[ "$(held)" = 0 ]
}

@test "a minimum above max_host_mem_size_mb: no buffer, one line, nothing allocated; the controller works" {
	teardown_stock
	insmod "$SSDT_KO" max_host_mem_size_mb=1
	[ "$(cat /sys/module/ssdtune/parameters/max_host_mem_size_mb)" = 1 ]
	# HMMIN 2 MiB against a 1 MiB limit
	echo 1024 >"$SSDT_DBG/hmb_hmpre"
	echo 512 >"$SSDT_DBG/hmb_hmmin"
	attach
	ctrl=$(ssdt_ctrl)
	[ "$(dmesg_new | grep -c 'host memory buffer: none, the controller.s minimum 2048 KiB is above max_host_mem_size_mb=1')" = 1 ]
	! dmesg_new | grep -q 'host memory buffer: the controller refused'
	[ "$(cat "$ctrl/hmb_bytes")" = 0 ]
	[ "$(held)" = 0 ]
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=4 --size=4M
	teardown_stock
	module_load
}

@test "APST on QEMU (APSTA 0): apst_max_latency_us reads unsupported, a number is refused with EOPNOTSUPP, junk with EINVAL; ssdtune set says so in one line" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	[ "$(cat "$ctrl/apst_max_latency_us")" = unsupported ]
	run bash -c "echo 0 >'$ctrl/apst_max_latency_us'"
	[[ $output == *"Operation not supported"* ]]
	run bash -c "echo 100000001 >'$ctrl/apst_max_latency_us'"
	[[ $output == *"Invalid argument"* ]]
	run bash -c "echo 10ms >'$ctrl/apst_max_latency_us'"
	[[ $output == *"Invalid argument"* ]]
	[ "$(cat "$ctrl/apst_max_latency_us")" = unsupported ]
	run --separate-stderr ssdt set "${ctrl##*/}" apst_max_latency_us=0 --state-dir "$SSDT_TMP/apst-state"
	echo "$stderr"
	[ "$status" -ne 0 ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	[[ $stderr == *"Operation not supported"* ]]
	[ "$(cat "$ctrl/apst_max_latency_us")" = unsupported ]
	! dmesg_new | grep -q 'APST'
}

@test "APST forced on (debug apst_apsta) where the controller refuses Set Features 0Ch: one line, the knob reads unsupported, I/O verifies, a reset keeps it so" {
	teardown_stock
	module_load
	echo Y >"$SSDT_DBG/apst_apsta"
	attach
	ctrl=$(ssdt_ctrl)
	dmesg_new | grep -q 'APST: the controller refused Set Features 0Ch (status 0x[0-9a-f]*): left as the drive has it'
	[ "$(cat "$ctrl/apst_max_latency_us")" = unsupported ]
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=8 --size=4M
	dmesg_mark
	nvme reset "/dev/${ctrl##*/}"
	wait_for 30 grep -qx live "$ctrl/state"
	! dmesg_new | grep -q 'APST'
	[ "$(cat "$ctrl/apst_max_latency_us")" = unsupported ]
}
