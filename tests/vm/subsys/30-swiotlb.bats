#!/usr/bin/env bats
# DMA through bounce buffers (issue 15, defect 6): the subsystem boot of
# scripts/vm-test.sh and check-debug.sh appends swiotlb=force, so every
# streaming DMA mapping in the guest is bounced, as in a confidential guest
# or with iommu=soft.  Two things must hold for an NVMe driver there:
#   - transfers no larger than the bounce limit (dma_max_mapping_size(),
#     256 KiB for swiotlb): a larger one fails to map;
#   - a buffer keeps its offset within the NVMe page when bounced
#     (dma_set_min_align_mask): PRP entries after the first must start on
#     a page, so a bounce that moved a buffer's offset would misplace data.
# The test controller (serial ssdt01) is used; the subsystem's stay as
# they are.

load ../lib/common

setup_file() {
	dmesg_mark
}

teardown_file() {
	teardown_stock
}

@test "swiotlb=force is in force: the guest bounces every streaming DMA" {
	grep -qw 'swiotlb=force' /proc/cmdline
	dmesg | grep -q 'software IO TLB'
}

@test "ssdtune's disk caps a transfer at the bounce limit, as the stock driver does on the same controller" {
	local stock ours
	teardown_stock
	# first in the boot: the stock driver's namespace scan (asynchronous)
	# may not have made the disk yet, on the debug kernel at least
	wait_for 60 nvme_disk >/dev/null
	stock=$(trim "/sys/block/$(basename "$(nvme_disk)")/queue/max_hw_sectors_kb")
	setup_attached
	ours=$(trim "/sys/block/$(basename "$(ssdt_disk)")/queue/max_hw_sectors_kb")
	echo "max_hw_sectors_kb: nvme $stock, ssdtune $ours"
	[ "$ours" -le 256 ]
	[ "$ours" -le "$stock" ]
}

@test "fio crc32c verify through bounce buffers: 512 B to 1 MiB (bssplit), 4K random QD32" {
	setup_attached
	job_bssplit "$(ssdt_disk)"
	job_4k_randwrite "$(ssdt_disk)"
}

@test "buffers 4 bytes past a page boundary (dma_alignment 3) keep their offset through the bounce: fio verify, 4K to 64K" {
	setup_attached
	# iomem_align=4: every fio buffer starts 4 bytes into a page (the
	# dword PRP1 may carry), so each I/O spans a page boundary at an
	# offset a bounce must keep
	fio_verify "$(ssdt_disk)" --rw=randwrite --bsrange=4k-64k --iodepth=16 \
		--offset=128M --size=16M --iomem_align=4
	fio_verify "$(ssdt_disk)" --rw=randrw --bs=8k --iodepth=8 --iomem_align=4 \
		--offset=160M --size=8M
	dmesg_clean_since_mark
}
