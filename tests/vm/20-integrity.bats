#!/usr/bin/env bats
# Data integrity through /dev/ssdtNn1: fio crc32c verify over the I/O shapes
# that exercise the PRP and queue paths, discard (merged ranges under XFS
# included), write zeroes and flush.
#
# vm-kernels: both (the data path through each kernel's block layer)

load lib/common

setup_file() {
	local bdf d
	dmesg_mark
	# The stock driver's queue limits, read while nvme still has the
	# controller from the file before: the comparison below then needs no
	# detach and attach of its own (it falls back to them without this).
	rm -f "$SSDT_TMP/lim.nvme"
	if bdf=$(nvme_bdf) && [ "$(pci_driver "$bdf")" = nvme ] && d=$(nvme_disk); then
		queue_limits "$d" >"$SSDT_TMP/lim.nvme" || rm -f "$SSDT_TMP/lim.nvme"
	fi
	return 0
}

setup() {
	setup_attached
}

teardown_file() {
	# the huge pages of the 4 MiB test, if it stopped early
	echo 0 >/proc/sys/vm/nr_hugepages
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

@test "queue limits are the stock driver's on the same controller (DMA alignment, DMRSL, WZSL/MDTS, transfer size); segments at least as many" {
	if [ ! -s "$SSDT_TMP/lim.nvme" ]; then
		detach
		queue_limits "$(nvme_disk)" >"$SSDT_TMP/lim.nvme"
		setup_attached
	fi
	queue_limits "$(ssdt_disk)" >"$SSDT_TMP/lim.ssdt"
	paste -d' ' "$SSDT_TMP/lim.nvme" "$SSDT_TMP/lim.ssdt"
	# stock has 127 segments on 6.1 and 128 on 6.12; ssdtune 128 on both
	[ "$(sed -n 's/^max_segments=//p' "$SSDT_TMP/lim.ssdt")" -ge \
		"$(sed -n 's/^max_segments=//p' "$SSDT_TMP/lim.nvme")" ]
	diff <(grep -v '^max_segments=' "$SSDT_TMP/lim.nvme") \
		<(grep -v '^max_segments=' "$SSDT_TMP/lim.ssdt")
}

# /sys/block/X/stat fields (1-based): 1 read I/Os, 3 read sectors, 5
# write I/Os, 7 write sectors, 12 discard I/Os, 13 discard merges, 16
# flush I/Os (I/Os are requests after any split).  Builtins only.
stat_field() {
	local -a f
	read -r -a f <"/sys/block/${1##*/}/stat" || return 1
	echo "${f[$2 - 1]}"
}

# req_sectors DISK: "COMMANDS SECTORS" the disk has completed (reads and
# writes)
req_sectors() {
	echo "$(($(stat_field "$1" 1) + $(stat_field "$1" 5))) $(($(stat_field "$1" 3) + $(stat_field "$1" 7)))"
}

@test "transfers past 512 KiB (MDTS 4 MiB, stock's limit): 4 MiB I/O from huge pages goes out as single commands over two chained PRP list pages and verifies with crc32c" {
	local disk n q before after c s
	disk=$(ssdt_disk)
	n=${disk#/dev/}
	q=/sys/block/$n/queue
	[ "$(trim "$q/max_hw_sectors_kb")" = 4096 ]
	# the block layer's default cap (1280 KiB) up to the hardware's
	echo 4096 >"$q/max_sectors_kb"
	# huge pages: a buffer of physically contiguous memory, so a request
	# is not cut at 128 segments of one 4 KiB page each
	echo 24 >/proc/sys/vm/nr_hugepages
	[ "$(trim /proc/sys/vm/nr_hugepages)" -ge 16 ]
	before=$(req_sectors "$disk")
	# page-aligned 4 MiB: 1024 PRP entries, PRP1 and two list pages (511
	# and a chain, 512); 4 bytes into a page, 4 MiB less a page: PRP1
	# partial, 1023 in the lists.  (4 MiB 4 bytes in, 1025 entries and
	# three list pages, is KUnit's: QEMU 7.2 fails a PRP transfer of more
	# than 1024 pages, the stock driver's too with sgl_threshold=0.)
	fio_verify "$disk" --rw=write --bs=4m --iodepth=2 --iomem=shmhuge --offset=512M --size=32M
	fio_verify "$disk" --rw=write --bs=4092k --iodepth=2 --iomem=shmhuge --iomem_align=4 --offset=544M --size=32736k
	after=$(req_sectors "$disk")
	c=$((${after% *} - ${before% *}))
	s=$((${after#* } - ${before#* }))
	echo "# $c commands, $s sectors: $((s / c)) sectors a command" >&3
	# 32 writes and 32 reads of 8192 sectors (a few smaller ones allowed)
	[ "$c" -gt 0 ]
	[ $((s / c)) -gt 4096 ]
	echo 0 >/proc/sys/vm/nr_hugepages
}

@test "O_DIRECT buffers 4 bytes past a page boundary (dma_alignment 3, as stock) verify with crc32c: 4K, 8K and 512K, the last past 128 pages" {
	disk=$(ssdt_disk)
	[ "$(trim "/sys/block/${disk#/dev/}/queue/dma_alignment")" = 3 ]
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=16 --iomem_align=4 --offset=448M --size=8M
	fio_verify "$disk" --rw=randwrite --bs=8k --iodepth=8 --iomem_align=4 --offset=456M --size=8M
	# 32 commands of 512K, each over 129 pages, build the PRP lists that
	# cross a page; more of the same proves nothing more
	fio_verify "$disk" --rw=write --bs=512k --iodepth=4 --iomem_align=4 --offset=464M --size=16M
	# an address off the dword the PRP rules require is refused, not sent
	refute run_fio "$disk" --rw=read --bs=4k --iomem_align=2 --offset=448M --size=64k
}

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

# XFS's online discard sends a log checkpoint's freed extents as chained
# bios under one plug: with max_discard_segments 256 (as stock) the block
# layer merges them into one request, sent as one Dataset Management of
# many ranges.  A range that pointed elsewhere would deallocate kept data:
# the files that stay must read back the same from the device.
@test "XFS online discard of every other file: discards merge into multi-range DSMs (discard merges counted); the kept files read back intact, xfs_repair clean" {
	disk=$(ssdt_disk)
	q=/sys/block/$(basename "$disk")/queue
	[ "$(cat "$q/max_discard_segments")" = 256 ]
	mkfs.xfs -q -f -K "$disk"
	mnt=$SSDT_TMP/dsm
	mkdir -p "$mnt"
	mount -o discard "$disk" "$mnt"
	fio --name=f --directory="$mnt" --nrfiles=64 --filesize=64k --bs=64k \
		--rw=write --fsync_on_close=1 --output=/dev/null
	sync
	(cd "$mnt" && sha256sum f.0.*[13579] >"$SSDT_TMP/kept.sha")
	m0=$(stat_field "$disk" 13)
	d0=$(stat_field "$disk" 12)
	(cd "$mnt" && rm -f f.0.*[02468])
	sync
	m1=$(stat_field "$disk" 13)
	d1=$(stat_field "$disk" 12)
	echo "# discard requests $d0 -> $d1, discard merges $m0 -> $m1" >&3
	umount "$mnt"
	[ "$d1" -gt "$d0" ]
	[ "$m1" -gt "$m0" ]
	echo 3 >/proc/sys/vm/drop_caches
	xfs_repair -n "$disk"
	mount -o ro "$disk" "$mnt"
	(cd "$mnt" && sha256sum -c --quiet "$SSDT_TMP/kept.sha")
	umount "$mnt"
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
	# each flush is an fsync of the image on the host: 128 are plenty
	run_fio "$disk" --rw=write --bs=4k --iodepth=1 --offset=480M --size=512k --fsync=1
	f1=$(stat_field "$disk" 16)
	echo "flush I/Os $f0 -> $f1"
	# fio issues an fsync after each 4K write but the last: 127
	[ $((f1 - f0)) -ge 122 ]
}

# bats test_tags=one-kernel
@test "shadow doorbells are on (QEMU sets OACS bit 8); with shadow_doorbells=0 the MMIO doorbells carry verified I/O too" {
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = on ]
	detach
	module_unload
	insmod "$SSDT_KO" shadow_doorbells=0
	attach
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = off ]
	# The shapes of job_4k_randwrite and job_bssplit, smaller and in a
	# region of their own: the same job on the same region writes what
	# the first tests left there (fio's seeds are fixed), so a write that
	# never reached the disk could still verify.
	disk=$(ssdt_disk)
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=32 --offset=544M --size=8M
	fio_verify "$disk" --rw=randwrite --iodepth=16 --offset=560M --size=16M \
		--bssplit=512/10:4k/25:8k/10:16k/15:64k/15:256k/15:1m/10
	detach
	module_unload
	module_load
	attach
	[ "$(trim "$(ssdt_ctrl)/shadow_doorbells")" = on ]
}

# kprobe counters (kprobe_profile): calls of a module function, no tracing
T=/sys/kernel/tracing
kp_add() {
	[ -e "$T/kprobe_events" ] || mount -t tracefs nodev "$T" || return 1
	echo "-:ssdtt/$1" >>"$T/kprobe_events" 2>/dev/null || true
	echo "p:ssdtt/$1 $1" >>"$T/kprobe_events" || { err "cannot put a kprobe on $1"; return 1; }
	echo 1 >"$T/events/ssdtt/$1/enable"
}
kp_hits() { awk -v e="$1" '$1 == e { print $2 }' "$T/kprobe_profile"; }
kp_del() {
	echo 0 >"$T/events/ssdtt/$1/enable" 2>/dev/null || true
	echo "-:ssdtt/$1" >>"$T/kprobe_events" 2>/dev/null || true
}
# all_submitted: commands submitted on the I/O queues (q0 is the admin queue)
all_submitted() { cat "$(ssdt_ctrl)"/queues/q[1-9]*/submitted | awk '{ n += $1 } END { print n }'; }

# batch_job OFFSET: 2048 writes and 2048 verify reads at OFFSET.  io_uring
# submits a batch in a plug; blk-mq hands a plug to ->queue_rqs.  Each run
# has a region of its own, so a run cannot verify what the other wrote.
batch_job() {
	fio_verify "$(ssdt_disk)" --ioengine=io_uring --rw=randwrite --bs=4k --offset="$1" --size=8M \
		--iodepth=32 --iodepth_batch_submit=16 --iodepth_batch_complete_min=8 >/dev/null
}

@test "a plug's requests go through ->queue_rqs, one run per queue; with a host power limit they are handed back to ->queue_rq; crc32c verify both ways" {
	local c0 q0 s0 calls rqs subs C nm
	C=$(ssdt_ctrl)
	# no merging in the plug: one command per fio I/O
	nm=/sys/block/$(basename "$(ssdt_disk)")/queue/nomerges
	echo 2 >"$nm"
	kp_add ssdt_queue_rqs
	kp_add ssdt_queue_rq
	c0=$(kp_hits ssdt_queue_rqs) q0=$(kp_hits ssdt_queue_rq) s0=$(all_submitted)
	batch_job 576M
	calls=$(($(kp_hits ssdt_queue_rqs) - c0)) rqs=$(($(kp_hits ssdt_queue_rq) - q0))
	subs=$(($(all_submitted) - s0))
	echo "no limit: queue_rqs calls $calls, queue_rq calls $rqs, commands $subs"
	# 2048 writes and 2048 verify reads, in batches of up to 16 (at
	# least 256 plugs)
	[ "$subs" -ge 4096 ]
	[ "$calls" -ge 100 ]
	# most commands came through ->queue_rqs, not one by one
	[ "$rqs" -lt $((subs / 2)) ]

	# a host power limit far above the load: every request is gated in
	# ->queue_rq, so ->queue_rqs takes none and hands every one back
	echo host >"$C/power_limit_mode"
	echo 20000 >"$C/power_limit_mw"
	[ "$(trim "$C/power_limit_active")" = host ]
	c0=$(kp_hits ssdt_queue_rqs) q0=$(kp_hits ssdt_queue_rq) s0=$(all_submitted)
	batch_job 584M
	calls=$(($(kp_hits ssdt_queue_rqs) - c0)) rqs=$(($(kp_hits ssdt_queue_rq) - q0))
	subs=$(($(all_submitted) - s0))
	echo 0 >"$C/power_limit_mw"
	echo auto >"$C/power_limit_mode"
	kp_del ssdt_queue_rqs
	kp_del ssdt_queue_rq
	echo 0 >"$nm"
	echo "host limit: queue_rqs calls $calls, queue_rq calls $rqs, commands $subs"
	[ "$subs" -ge 4096 ]
	[ "$calls" -ge 100 ]
	[ "$rqs" -ge "$subs" ]
	[ "$(trim "$C/power_limit_active")" = off ]
}

@test "no kernel warnings or errors during the data-integrity tests" {
	dmesg_clean_since_mark
}
