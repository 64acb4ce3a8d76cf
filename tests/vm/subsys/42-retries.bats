#!/usr/bin/env bats
# Transient and persistent media errors, stock nvme against ssdtune
# (issue 34's retries; Documentation/hardware.md).  scripts/vm.sh
# --subsys puts blkdebug under ssdtm1's namespace (4 KiB blocks): a write
# at LBA 12288, 12544, 12800 or 13056 fails once with EIO, which QEMU
# reports as Write Fault without Do Not Retry; a read at LBA 13312 always
# fails (Unrecovered Read Error).  Each once-rule is spent by the first
# write that reaches it, so each LBA below is written by one test step.

load ../lib/common

setup_file() {
	require_subsys_boot || return 1
	SSDT_VM_NVME_SERIAL=ssdtm1 nvme_bdf >/dev/null
	module_load
}

setup() {
	SSDT_VM_NVME_SERIAL=ssdtm1
	bdf=$(nvme_bdf)
	head -c 4096 /dev/urandom >"$SSDT_TMP/blk.in"
}

teardown() {
	[ -w /sys/module/nvme_core/parameters/max_retries ] &&
		echo 5 >/sys/module/nvme_core/parameters/max_retries
	[ -w /sys/module/ssdtune/parameters/max_retries ] &&
		echo 5 >/sys/module/ssdtune/parameters/max_retries
	[ "$(pci_driver "$bdf")" = ssdtune ] && detach
	true
}

teardown_file() {
	module_unload
}

# write_lba DISK LBA: one direct 4 KiB write of blk.in
write_lba() {
	dd if="$SSDT_TMP/blk.in" of="$1" bs=4096 seek="$2" count=1 oflag=direct conv=notrunc status=none
}

# same_lba DISK LBA: the block reads back as blk.in
same_lba() {
	dd if="$1" of="$SSDT_TMP/blk.out" bs=4096 skip="$2" count=1 iflag=direct status=none
	cmp "$SSDT_TMP/blk.in" "$SSDT_TMP/blk.out"
}

# retries_sum: ssdtune's retries over the controller's I/O queues
retries_sum() { ctrl=$(ssdt_ctrl) && io_counter_v retries && echo "$IO_SUM"; }

@test "a write that fails once (Write Fault, no DNR): without retries both drivers fail it with EIO; with their default 5 both write it, and ssdtune counts one retry" {
	local disk r0 r1
	[ "$(pci_driver "$bdf")" = nvme ]
	disk=$(nvme_disk)
	dmesg_mark
	echo 0 >/sys/module/nvme_core/parameters/max_retries
	refute write_lba "$disk" 12288
	echo 5 >/sys/module/nvme_core/parameters/max_retries
	write_lba "$disk" 12544
	same_lba "$disk" 12544
	dmesg_new | grep -E 'medium error|I/O Error|I/O error' || true
	# one failure was reported: the first write's, not the retried one's
	[ "$(dmesg_new | grep -c "critical medium error, dev ${disk#/dev/}")" -eq 1 ]

	attach
	disk=$(ssdt_disk)
	dmesg_mark
	r0=$(retries_sum)
	echo 0 >/sys/module/ssdtune/parameters/max_retries
	refute write_lba "$disk" 12800
	echo 5 >/sys/module/ssdtune/parameters/max_retries
	write_lba "$disk" 13056
	same_lba "$disk" 13056
	r1=$(retries_sum)
	dmesg_new | grep -E 'medium error|I/O error' || true
	echo "ssdtune retries: $r0 -> $r1"
	[ "$((r1 - r0))" -eq 1 ]
	[ "$(dmesg_new | grep -c "critical medium error, dev ${disk#/dev/}")" -eq 1 ]
	# the data written under ssdtune reads back under stock
	detach
	same_lba "$(nvme_disk)" 13056
}

@test "a read that always fails (Unrecovered Read Error): both drivers retry it and fail it with EIO and a critical medium error; ssdtune counts 5 retries" {
	local disk r0 r1
	[ "$(pci_driver "$bdf")" = nvme ]
	disk=$(nvme_disk)
	dmesg_mark
	refute dd if="$disk" of=/dev/null bs=4096 skip=13312 count=1 iflag=direct status=none
	dmesg_new | grep -q "critical medium error, dev ${disk#/dev/}"

	attach
	disk=$(ssdt_disk)
	dmesg_mark
	r0=$(retries_sum)
	refute dd if="$disk" of=/dev/null bs=4096 skip=13312 count=1 iflag=direct status=none
	r1=$(retries_sum)
	echo "ssdtune retries: $r0 -> $r1"
	[ "$((r1 - r0))" -eq 5 ]
	dmesg_new | grep -q "critical medium error, dev ${disk#/dev/}"
	# the rest of the namespace is fine
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=8 --offset=32M --size=4M
}
