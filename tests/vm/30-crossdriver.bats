#!/usr/bin/env bats
# The on-disk format is the device's, not the driver's: data written through
# one driver reads back identically through the other.
#
# vm-kernels: both (data shared with each kernel's stock nvme)

load lib/common

setup() {
	module_load
}

teardown_file() {
	teardown_stock
}

# put_pattern DISK MIB_OFFSET: write 8 MiB of fresh random data there
put_pattern() {
	head -c 8M /dev/urandom >"$SSDT_TMP/pattern"
	dd if="$SSDT_TMP/pattern" of="$1" bs=1M seek="$2" oflag=direct conv=fsync status=none
}

# check_pattern DISK MIB_OFFSET
check_pattern() {
	cmp <(dd if="$1" bs=1M skip="$2" count=8 iflag=direct status=none) "$SSDT_TMP/pattern"
}

@test "a pattern written through ssdtune reads back identically through nvme after detach" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = ssdtune ] || attach
	disk=$(ssdt_disk)
	put_pattern "$disk" 600
	check_pattern "$disk" 600
	detach
	[ "$(pci_driver "$bdf")" = nvme ]
	check_pattern "$(nvme_disk)" 600
}

@test "a pattern written through nvme reads back identically through ssdtune after attach" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	put_pattern "$(nvme_disk)" 700
	attach
	[ "$(pci_driver "$bdf")" = ssdtune ]
	check_pattern "$(ssdt_disk)" 700
}
