#!/usr/bin/env bats
# The device matrix of scripts/vm.sh --subsys: controllers of shapes the
# default one lacks.  Each is first on the stock driver, whose view is
# recorded; then on ssdtune, which must serve each namespace of the NVM
# command set as stock does (block size, transfer size, Write Zeroes and
# discard limits, the quirks stock applies) with its data intact, and
# refuse with one line what it does not serve (zoned, metadata, PI)
# while the controller's other namespaces work (Documentation/hardware.md).
#   ssdtm1  8086:5845 (use-intel-id: stock quirks it), MDTS 3 (32 KiB),
#           namespace 1 of 4 KiB blocks
#   ssdtm2  no MDTS, one queue pair on one MSI-X vector, a 16 MiB CMB;
#           namespaces 1 plain, 2 zoned, 3 metadata (8 bytes), 4 PI
#           type 1, 5 of 4 KiB blocks
#   ssdtm3  (QEMU 10 only: make check-full's QEMU 10 matrix boot; its
#           test is tagged qemu10, which run-suite.sh leaves out of a
#           boot without ssdtm3) MQES 31 (queues of 32 entries), no
#           shadow doorbells
# This boot bounces all DMA (swiotlb=force): transfers stop at 256 KiB for
# both drivers.

load ../lib/common

# limits_of SERIAL NSID: stock's limits recorded by setup_file.
limits_of() { cat "$SSDT_TMP/mx-$1-$2"; }

# has_mx3: the QEMU of this boot made ssdtm3 (vm.sh: QEMU 10's mqes and
# dbcs)
has_mx3() { grep -qs '^ssdtm3 *$' /sys/class/nvme/*/serial /sys/class/ssdtune/*/serial; }

# mx SERIAL: attach that controller to ssdtune; sets bdf, ctrl (its
# /sys/class/ssdtune directory) and c (ssdtN).
mx() {
	SSDT_VM_NVME_SERIAL=$1
	bdf=$(nvme_bdf) || return 1
	attach || return 1
	ctrl=$(ssdt_ctrl) || return 1
	c=${ctrl##*/}
}

# same_as_stock SERIAL NSID: ssdtune's disk of NSID has stock's limits
# (segments: at least as many; stock has 127 on 6.1).
same_as_stock() {
	queue_limits "/dev/${c}n$2" >"$SSDT_TMP/mx-ssdt"
	paste -d' ' "$SSDT_TMP/mx-$1-$2" "$SSDT_TMP/mx-ssdt"
	diff <(grep -v '^max_segments=' "$SSDT_TMP/mx-$1-$2") \
		<(grep -v '^max_segments=' "$SSDT_TMP/mx-ssdt")
}

setup_file() {
	require_subsys_boot || return 1
	local s bdf d n
	for s in ssdtm1 ssdtm2 ssdtm3; do
		[ $s != ssdtm3 ] || has_mx3 || continue
		bdf=$(SSDT_VM_NVME_SERIAL=$s nvme_bdf) || return 1
		[ "$(pci_driver "$bdf")" = nvme ] || { echo "$s is not on nvme" >&2; return 1; }
		# a namespace's disk under its controller: nvmeXnY, or under
		# QEMU 10 (CMIC bit 1: native multipath) the hidden path disk
		# nvmeXcZnY, whose limits are the controller's (the head disk
		# stacks them); queue_limits reads /sys/block only
		for d in /sys/bus/pci/devices/"$bdf"/nvme/nvme*/nvme*n*; do
			n=${d##*/}
			queue_limits "/dev/$n" >"$SSDT_TMP/mx-$s-$(trim "$d/nsid")" || return 1
			trim "$d/queue/zoned" >"$SSDT_TMP/mx-$s-$(trim "$d/nsid").zoned"
		done
	done
	module_load
}

teardown() {
	[ -n "${bdf:-}" ] && [ "$(pci_driver "$bdf")" = ssdtune ] && detach
	true
}

teardown_file() {
	module_unload
}

@test "matrix: 8086:5845 gets stock's quirks (identify_cns, no Write Zeroes); MDTS 32 KiB and 4 KiB blocks as stock; data verifies" {
	dmesg_mark
	mx ssdtm1
	[ "$(cat "$ctrl/quirks")" = "identify_cns disable_write_zeroes" ]
	dmesg_new | grep -q "ssdtune $bdf: quirks: identify_cns disable_write_zeroes"
	same_as_stock ssdtm1 1
	grep -qx 'write_zeroes_max_bytes=0' "$SSDT_TMP/mx-ssdt"
	grep -qx 'max_hw_sectors_kb=32' "$SSDT_TMP/mx-ssdt"
	grep -qx 'logical_block_size=4096' "$SSDT_TMP/mx-ssdt"
	# 128 KiB writes split at MDTS; 4 KiB ones at the block size
	fio_verify "/dev/${c}n1" --rw=write --bs=128k --size=8M
	fio_verify "/dev/${c}n1" --rw=randwrite --bs=4k --iodepth=16 --offset=16M --size=4M
	dmesg_clean_since_mark
}

@test "matrix: no MDTS, one queue pair on one vector, a CMB: the NVM namespaces as stock, data verifies; zoned, metadata and PI namespaces refused with a line each" {
	dmesg_mark
	mx ssdtm2
	[ "$(cat "$ctrl/quirks")" = none ]
	[ "$(cat "$ctrl/io_queues")" = 1 ]
	# the zoned namespace is a zoned disk under stock: the matrix is right
	[ "$(cat "$SSDT_TMP/mx-ssdtm2-2.zoned")" = host-managed ]
	dmesg_new | grep -q "namespace 2: the zoned command set (CSI 2) is not supported by ssdtune, skipped"
	dmesg_new | grep -q "namespace 3: format (512-byte blocks, 8 metadata) not supported, skipped"
	dmesg_new | grep -q "namespace 4: format (512-byte blocks, 8 metadata) not supported, skipped"
	[ ! -e "/dev/${c}n2" ] && [ ! -e "/dev/${c}n3" ] && [ ! -e "/dev/${c}n4" ]
	for n in 1 5; do
		same_as_stock ssdtm2 $n
		fio_verify "/dev/${c}n$n" --rw=randwrite --bs=4k --iodepth=16 --size=4M
	done
	grep -qx 'logical_block_size=4096' "$SSDT_TMP/mx-ssdt"
	# without MDTS: what one DMA mapping holds (swiotlb: 256 KiB less
	# the bounce's alignment, 252 here, for both drivers)
	[ "$(sed -n 's/^max_hw_sectors_kb=//p' "$SSDT_TMP/mx-ssdt")" -le 256 ]
	fio_verify "/dev/${c}n1" --rw=write --bs=256k --offset=8M --size=8M
	dmesg_clean_since_mark 'not supported'
}

# bats test_tags=qemu10
@test "matrix: queues of 32 entries (MQES 31) and no shadow doorbells (QEMU 10): depth and limits as stock, 64 I/Os in flight verify" {
	# run-suite.sh leaves this out where vm.sh made no ssdtm3 (QEMU 7.2)
	has_mx3 || { echo "no ssdtm3: this boot's QEMU has neither mqes nor dbcs (vm.sh --subsys --qemu 10)"; false; }
	dmesg_mark
	mx ssdtm3
	[ "$(cat "$ctrl/queue_depth")" = 32 ]
	[ "$(cat "$ctrl/shadow_doorbells")" = unsupported ]
	same_as_stock ssdtm3 1
	# more in flight than a queue holds: blk-mq waits for tags, nothing
	# overruns a submission queue
	fio_verify "/dev/${c}n1" --rw=randwrite --bs=4k --iodepth=64 --size=4M
	fio_verify "/dev/${c}n1" --rw=write --bs=128k --iodepth=48 --offset=16M --size=8M
	dmesg_clean_since_mark
}
