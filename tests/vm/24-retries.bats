#!/usr/bin/env bats
# What a real drive's errors meet (Documentation/hardware.md): a command
# that fails with a status the controller allows to retry is sent again,
# as the stock nvme driver does; one with Do Not Retry, one past
# max_retries and a passthrough command are not; a late or repeated
# completion of an earlier use of a tag is dropped, and so is a second
# completion of the same use, on the I/O and the admin queues; quirks by
# PCI ID.
# QEMU's controller fails nothing by itself: the debugfs hooks
# fail_completions (the next N I/O completions carry fail_status) and
# stale_completions (the next N completions are first replayed as late
# ones of the tag's previous use), dup_completions (delivered twice) and
# stale_admin_completions (an admin completion replayed after the next
# command took its slot) stand in for the drive.  The rules
# themselves (DNR, CRD delays, the generation in the command id, the
# quirk table) have KUnit tests (kmod/tests/ssdt_rules_test.c).
#
# vm-kernels: one (the driver's retry, command id and quirk logic; the
# requeue it uses is the block layer's, tested on both kernels by
# 25-timeout)

load lib/common

# A region no other file writes (they keep below 600 MiB and to 960 MiB+).
OFF_MB=880

setup_file() {
	debugfs_mount
	setup_attached
	# udev's blkid reads the fresh disk: its readahead fails fast, not
	# retried, so no hook may meet it
	udevadm settle -t 30
}

setup() {
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	dbg=$SSDT_DBG/${ctrl##*/}
	[ -w "$dbg/fail_completions" ] || err "no debugfs hook at $dbg/fail_completions"
	old_retries=$(cat /sys/module/ssdtune/parameters/max_retries)
	dmesg_mark
}

teardown() {
	echo 0 >"$dbg/fail_completions"
	echo 0 >"$dbg/stale_completions"
	echo 0 >"$dbg/dup_completions"
	echo 0 >"$dbg/stale_admin_completions"
	echo 0x280 >"$dbg/fail_status"
	echo "$old_retries" >/sys/module/ssdtune/parameters/max_retries
}

teardown_file() {
	teardown_stock
}

# queue_sum NAME: NAME summed over the I/O queues (io_counter_v's).
queue_sum() { io_counter_v "$1" && echo "$IO_SUM"; }

# write_at MB: 64 KiB of fresh random data, one direct write at MB MiB
# (one request), into $SSDT_TMP/ret.in; fails as the write fails.
write_at() {
	head -c 65536 /dev/urandom >"$SSDT_TMP/ret.in"
	dd if="$SSDT_TMP/ret.in" of="$disk" bs=64k seek=$(($1 * 16)) count=1 \
		oflag=direct status=none
}

# read_back MB: what write_at wrote reads back.
read_back() {
	dd if="$disk" of="$SSDT_TMP/ret.out" bs=64k skip=$(($1 * 16)) count=1 \
		iflag=direct status=none
	cmp "$SSDT_TMP/ret.in" "$SSDT_TMP/ret.out"
}

@test "a transient error (Write Fault, no Do Not Retry) three times over: the write is sent again and lands; queues count 3 retries; no I/O error is logged" {
	r0=$(queue_sum retries)
	echo 0x280 >"$dbg/fail_status"
	echo 3 >"$dbg/fail_completions"
	write_at $OFF_MB
	# the hook fired on this write: nothing else was in flight
	[ "$(cat "$dbg/fail_completions")" = 0 ]
	read_back $OFF_MB
	r1=$(queue_sum retries)
	echo "retries: $r0 -> $r1"
	[ $((r1 - r0)) -eq 3 ]
	dmesg_clean_since_mark
}

@test "a read that fails once is sent again and returns the data" {
	write_at $((OFF_MB + 1))
	r0=$(queue_sum retries)
	echo 0x281 >"$dbg/fail_status"	# Unrecovered Read Error
	echo 1 >"$dbg/fail_completions"
	read_back $((OFF_MB + 1))
	[ $(($(queue_sum retries) - r0)) -eq 1 ]
	dmesg_clean_since_mark
}

@test "Do Not Retry: the write fails at once and is not sent again" {
	r0=$(queue_sum retries)
	echo 0x4280 >"$dbg/fail_status"
	echo 1 >"$dbg/fail_completions"
	run write_at $((OFF_MB + 2))
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$(queue_sum retries)" = "$r0" ]
	# a media error status: the block layer's ENODATA, logged as such
	dmesg_new | grep -q 'critical medium error, dev ssdt'
	# the next write is fine
	write_at $((OFF_MB + 2))
	read_back $((OFF_MB + 2))
}

@test "max_retries bounds it: with 2, three failures in a row fail the write after 2 retries; with 0 none is retried" {
	echo 2 >/sys/module/ssdtune/parameters/max_retries
	r0=$(queue_sum retries)
	echo 3 >"$dbg/fail_completions"
	run write_at $((OFF_MB + 3))
	[ "$status" -ne 0 ]
	[ "$(cat "$dbg/fail_completions")" = 0 ]
	[ $(($(queue_sum retries) - r0)) -eq 2 ]
	echo 0 >/sys/module/ssdtune/parameters/max_retries
	echo 1 >"$dbg/fail_completions"
	run write_at $((OFF_MB + 3))
	[ "$status" -ne 0 ]
	[ $(($(queue_sum retries) - r0)) -eq 2 ]
}

@test "passthrough is never retried: nvme write gets the controller's status at once" {
	local lbs slba
	read -r lbs <"/sys/block/${disk#/dev/}/queue/logical_block_size"
	slba=$(((OFF_MB + 4) * 1048576 / lbs))
	head -c "$lbs" /dev/urandom >"$SSDT_TMP/ret.pt"
	r0=$(queue_sum retries)
	echo 1 >"$dbg/fail_completions"
	run nvme write "$disk" --start-block=$slba --block-count=0 \
		--data-size="$lbs" --data="$SSDT_TMP/ret.pt"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *WRITE_FAULT* || $output == *"Write Fault"* ]]
	[ "$(queue_sum retries)" = "$r0" ]
}

# dropped_during_verify HOOK OFF_MB LINE: 50 completions through the
# debugfs HOOK during fio verify at OFF_MB MiB; all 50 dropped and
# counted in the queues' stale_completions, LINE (a pattern) logged.
dropped_during_verify() {
	local s0 s1
	s0=$(queue_sum stale_completions)
	echo 50 >"$dbg/$1"
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=16 \
		--offset="$2"M --size=8M
	[ "$(cat "$dbg/$1")" = 0 ]
	s1=$(queue_sum stale_completions)
	echo "dropped completions: $s0 -> $s1"
	[ $((s1 - s0)) -eq 50 ]
	dmesg_new | grep -q "$3"
	dmesg_clean_since_mark
}

@test "50 completions replayed as late ones of the tag's previous use during fio verify are dropped and counted; the data verifies" {
	dropped_during_verify stale_completions $((OFF_MB + 8)) 'stale completion .* dropped'
}

@test "50 I/O completions delivered twice during fio verify: each second one is dropped and counted; the data verifies" {
	dropped_during_verify dup_completions $((OFF_MB + 24)) 'second completion .* dropped'
}

# admin_pt ARGS...: one admin command through tests/vm/lib/nvme_pt.py on
# the controller's /dev/ssdtN ('ok STATUS RESULT').
admin_pt() { python3 -B tests/vm/lib/nvme_pt.py "/dev/${ctrl##*/}" admin "$@"; }

@test "an admin completion handed back late, after the next command was posted in its slot: dropped by its generation; the next command gets its own answer" {
	# Get Features Temperature Threshold: its answer without the hook
	want=$(admin_pt 0x0a cdw10=4)
	echo "get features 04h: $want"
	[[ "$want" == "ok 0 result "* ]]
	[ "$want" != "ok 0 result 0" ]
	for i in 1 2 3; do
		# Identify (result 0), then the same Get Features with the
		# Identify's completion handed back while it holds the slot
		[[ "$(admin_pt 0x06 cdw10=1 len=4096)" == "ok 0 "* ]]
		echo 1 >"$dbg/stale_admin_completions"
		got=$(admin_pt 0x0a cdw10=4)
		echo "with the late Identify completion: $got"
		[ "$(cat "$dbg/stale_admin_completions")" = 0 ]
		[ "$got" = "$want" ]
	done
	[ "$(dmesg_new | grep -c 'admin completion .* of no command in flight: dropped')" -eq 3 ]
	# every slot still frees once: more commands than the 31 slots
	for i in $(seq 40); do echo "/dev/${ctrl##*/} admin 0x0a cdw10=4"; done >"$SSDT_TMP/adm"
	python3 -B -c '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("nvme_pt", "tests/vm/lib/nvme_pt.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
for line in open(sys.argv[1]):
    m.main(["nvme_pt.py"] + line.split())
' "$SSDT_TMP/adm" >"$SSDT_TMP/adm.out"
	[ "$(grep -cx "$want" "$SSDT_TMP/adm.out")" -eq 40 ]
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark 'of no command in flight'
}

@test "quirks: none for QEMU's 1b36:0010; quirks=1b36:0010:0x200 disables Write Zeroes as stock's quirk does for 8086:5845; a bad value refuses the load with one line" {
	bdf=$(nvme_bdf)
	[ "$(cat "$ctrl/quirks")" = none ]
	[ "$(cat "/sys/block/${disk#/dev/}/queue/write_zeroes_max_bytes")" -gt 0 ]
	teardown_stock
	dmesg_mark
	run insmod "$SSDT_KO" quirks=1b36:0010:0x4
	[ "$status" -ne 0 ]
	[ "$(dmesg_new | grep -c 'ssdtune: quirks=1b36:0010:0x4: want VID:DID:MASK')" = 1 ]
	! module_loaded
	insmod "$SSDT_KO" quirks=1b36:0010:0x200
	attach
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	[ "$(cat "$ctrl/quirks")" = disable_write_zeroes ]
	[ "$(cat "/sys/block/${disk#/dev/}/queue/write_zeroes_max_bytes")" = 0 ]
	dmesg_new | grep -q "ssdtune $bdf: quirks: disable_write_zeroes"
	# blkdiscard -z falls back to writing zeroes itself
	head -c 65536 /dev/urandom | dd of="$disk" bs=64k seek=$(((OFF_MB + 20) * 16)) oflag=direct status=none
	blkdiscard -z -o $(((OFF_MB + 20) * 1048576)) -l 65536 "$disk"
	cmp <(dd if="$disk" bs=64k skip=$(((OFF_MB + 20) * 16)) count=1 iflag=direct status=none) \
		<(head -c 65536 /dev/zero)
	teardown_stock
	setup_attached
}
