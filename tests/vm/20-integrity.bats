#!/usr/bin/env bats
# Data integrity through /dev/ssdtNn1: fio crc32c verify over the I/O shapes
# that exercise the PRP and queue paths, discard, write zeroes and flush.

load lib/common

setup_file() {
	dmesg_mark
}

setup() {
	setup_attached
}

teardown_file() {
	teardown_stock
}

@test "4K random write QD32 reads back with crc32c verify" {
	job_4k_randwrite "$(ssdt_disk)"
}

@test "128K sequential write reads back with crc32c verify" {
	job_128k_seqwrite "$(ssdt_disk)"
}

@test "70/30 random read/write at QD1 verifies with crc32c" {
	job_randrw_qd1 "$(ssdt_disk)"
}

@test "70/30 random read/write at QD32 verifies with crc32c" {
	job_randrw_qd32 "$(ssdt_disk)"
}

@test "block sizes 512B to 1M mixed (bssplit) verify with crc32c" {
	job_bssplit "$(ssdt_disk)"
}

# /sys/block/X/stat fields: 12 discard I/Os, 16 flush I/Os
stat_field() { awk -v f="$2" '{ print $f }' "/sys/block/$(basename "$1")/stat"; }

@test "discard (blkdiscard, Dataset Management) of a range and of the whole disk completes without error" {
	disk=$(ssdt_disk)
	q=/sys/block/$(basename "$disk")/queue
	echo "discard_max_bytes=$(cat "$q/discard_max_bytes") discard_granularity=$(cat "$q/discard_granularity")"
	[ "$(cat "$q/discard_max_bytes")" -gt 0 ]
	d0=$(stat_field "$disk" 12)
	blkdiscard -o 1M -l 8M "$disk"
	blkdiscard "$disk"
	d1=$(stat_field "$disk" 12)
	echo "discard I/Os $d0 -> $d1"
	[ "$d1" -gt "$d0" ]
	# the disk still reads and writes afterwards
	fio_verify "$disk" --rw=write --bs=64k --iodepth=4 --offset=0 --size=4M
}

@test "write zeroes (blkdiscard -z) turns a written range into zeroes" {
	disk=$(ssdt_disk)
	head -c 8M /dev/urandom >"$SSDT_TMP/rand"
	dd if="$SSDT_TMP/rand" of="$disk" bs=1M seek=400 oflag=direct conv=fsync status=none
	cmp <(dd if="$disk" bs=1M skip=400 count=8 iflag=direct status=none) "$SSDT_TMP/rand"
	blkdiscard -z -o $((400 * 1048576)) -l $((8 * 1048576)) "$disk"
	cmp <(dd if="$disk" bs=1M skip=400 count=8 iflag=direct status=none) <(head -c 8M /dev/zero)
}

@test "flush: the disk advertises a write-back cache and fio fsync=1 sends flushes that complete" {
	disk=$(ssdt_disk)
	wc=$(cat "/sys/block/$(basename "$disk")/queue/write_cache")
	echo "write_cache=$wc"
	[ "$wc" = "write back" ]
	f0=$(stat_field "$disk" 16)
	run_fio "$disk" --rw=write --bs=4k --iodepth=1 --offset=480M --size=1M --fsync=1
	f1=$(stat_field "$disk" 16)
	echo "flush I/Os $f0 -> $f1"
	# fio issues an fsync after each 4K write but the last: 255
	[ $((f1 - f0)) -ge 250 ]
}

@test "shadow doorbells are on (QEMU sets OACS bit 8); with shadow_doorbells=0 the MMIO doorbells carry verified I/O too" {
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = on ]
	detach
	module_unload
	insmod "$SSDT_KO" shadow_doorbells=0
	attach
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = off ]
	job_4k_randwrite "$(ssdt_disk)"
	job_bssplit "$(ssdt_disk)"
	detach
	module_unload
	module_load
	attach
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = on ]
}

@test "no kernel warnings or errors during the data-integrity tests" {
	dmesg_clean_since_mark
}
