#!/usr/bin/env bats
# The timeout ladder (Documentation/driver.md): a completion the driver never
# sees must end in missed-interrupt poll -> Abort -> controller reset ->
# requeue, and the I/O must still succeed with the right data.  The debugfs
# hook drop_completions makes the driver discard the next N completions it
# reaps, so the commands stay "outstanding" from blk-mq's point of view.
# QEMU's NVMe answers every Abort "not aborted", so each lost command ends in
# a reset here.  io_timeout is cut to 1 s for the test (2 s on the debug
# kernel), well above the slowest I/O here under TCG (blk-mq rounds its
# timer up to a whole second anyway), and restored after.
#
# vm-kernels: both (the block layer's timeout and requeue)

load lib/common

setup_file() {
	setup_attached
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}

setup() {
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	hook=/sys/kernel/debug/ssdtune/${ctrl##*/}/drop_completions
	tmo=/sys/block/${disk##*/}/queue/io_timeout
	[ -w "$hook" ] || err "no debugfs hook at $hook"
	old_tmo=$(cat "$tmo")
	tmo_ms=1000
	[ -z "${SSDT_VM_SLOW:-}" ] || tmo_ms=2000
	echo "$tmo_ms" >"$tmo"
	dmesg_mark
}

teardown() {
	echo 0 >"$hook"
	echo "$old_tmo" >"$tmo"
}

teardown_file() {
	teardown_stock
}

# resets: how many "reset done" lines the driver logged since dmesg_mark.
resets() { dmesg_new | grep -c 'reset done' || true; }

@test "a lost read completion: abort, reset, requeue, and the read returns the data written" {
	head -c 64k /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=64k seek=1000 oflag=direct conv=fsync status=none
	echo 1 >"$hook"
	start=$(date +%s%N)
	dd if="$disk" of="$SSDT_TMP/back" bs=64k skip=1000 count=1 iflag=direct status=none
	ms=$((($(date +%s%N) - start) / 1000000))
	dmesg_new
	echo "read took ${ms} ms"
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	[ "$(cat "$hook")" = 0 ]
	dmesg_new | grep -q 'dropping completion'
	dmesg_new | grep -q 'timed out, aborting'
	dmesg_new | grep -q 'still outstanding, resetting controller'
	[ "$(resets)" -ge 1 ]
	[ "$(trim "$ctrl/shadow_doorbells")" = on ]
	# one timeout to abort, one more to reset: at least two io_timeouts
	[ "$ms" -ge $((2 * tmo_ms)) ]
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

@test "a passthrough read whose completion is lost: the reset fails it with EINTR and it is not sent again (stock marks passthrough fail-fast)" {
	head -c 4096 /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=4k seek=20000 oflag=direct conv=fsync status=none
	s0=$(io_sum)
	echo 1 >"$hook"
	run nvme io-passthru "$disk" --opcode=2 --namespace-id=1 --data-len=4096 \
		--read --cdw10=$((20000 * 8)) --cdw12=7 --timeout="$tmo_ms"
	echo "$output"
	s1=$(io_sum)
	echo "I/O commands submitted: $s0 -> $s1"
	dmesg_new
	[ "$status" -ne 0 ]
	[[ "$output" == *"Interrupted system call"* ]]
	dmesg_new | grep -q 'still outstanding, resetting controller'
	# once to the controller: a Reservation or vendor command must not run twice
	[ $((s1 - s0)) -eq 1 ]
	# a block read lost the same way is sent again and returns the data
	echo 1 >"$hook"
	dd if="$disk" of="$SSDT_TMP/back" bs=4k skip=20000 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

@test "lost completions during a QD32 random write: fio crc32c verify still passes" {
	echo 3 >"$hook"
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=32 --offset=512M --size=8M
	dmesg_new | grep -E 'dropping|aborting|reset'
	[ "$(cat "$hook")" = 0 ]
	[ "$(resets)" -ge 1 ]
	[ "$(trim "$ctrl/state")" = live ]
	# no request was failed: the block layer logged no I/O error
	refute grep -q 'I/O error' <(dmesg_new)
	dmesg_clean_since_mark
}

# bats test_tags=one-kernel
@test "at most ACL + 1 Aborts at once: with their completions lost, 8 timed-out writes get 4 (QEMU's ACL is 3), the rest wait; the reset brings all back, data verifies" {
	adm=/sys/kernel/debug/ssdtune/${ctrl##*/}/drop_admin_completions
	# the 4 Aborts' completions are lost (nothing else goes to the admin
	# queue meanwhile; the reset's own commands must get through): they
	# stay outstanding until the reset
	echo 4 >"$adm"
	echo 8 >"$hook"
	fio_verify "$disk" --rw=write --bs=4k --iodepth=8 --offset=600M --size=32k
	echo 0 >"$adm"
	dmesg_new | grep -E 'dropping|aborting|Abort limit|reset'
	[ "$(dmesg_new | grep -c 'timed out, aborting')" -le 4 ]
	dmesg_new | grep -q 'the Abort limit is reached, waiting'
	[ "$(resets)" -ge 1 ]
	[ "$(trim "$ctrl/state")" = live ]
	refute grep -q 'I/O error' <(dmesg_new)
}

# The admin queue's missed-interrupt poll: its timeout reaps by hand before
# it gives up on the controller (real drives and QEMU 10 after an FLR
# have lost one).
# bats test_tags=one-kernel
@test "a lost admin interrupt: nvme id-ctrl answers after admin_timeout, reaped by hand; no reset, the controller stays live" {
	local old adm_s=2
	[ -z "${SSDT_VM_SLOW:-}" ] || adm_s=4
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	echo "$adm_s" >/sys/module/ssdtune/parameters/admin_timeout
	echo 1 >"/sys/kernel/debug/ssdtune/${ctrl##*/}/skip_admin_irqs"
	run nvme id-ctrl "/dev/${ctrl##*/}"
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	[ "$status" -eq 0 ]
	[[ $output == *"sn "*ssdt01* ]]
	[ "$(cat "/sys/kernel/debug/ssdtune/${ctrl##*/}/skip_admin_irqs")" = 0 ]
	dmesg_new | grep -q 'admin command 0x6 completed without an interrupt'
	refute grep -q 'stopping the controller' <(dmesg_new)
	[ "$(resets_done)" -eq 0 ]
	refute grep -q 'resetting controller' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
}

# bats test_tags=one-kernel
@test "after the resets every queue still takes I/O, shadow doorbells are set up again and the per-queue counters balance" {
	# a reset forgets the Doorbell Buffer Config: the driver sends it again
	[ "$(trim "$ctrl/shadow_doorbells")" = on ]
	fio_verify "$disk" --rw=randrw --bs=4k --iodepth=16 --numjobs=4 --offset=600M --offset_increment=4M --size=2M --group_reporting
	for q in "$ctrl"/queues/q*; do
		[ "$(basename "$q")" = q0 ] && continue
		s=$(trim "$q/submitted")
		c=$(($(trim "$q/completed") + $(trim "$q/polled")))
		echo "${q##*/}: submitted $s reaped $c"
		# every reaped entry answers one submitted command (a dropped one
		# too); commands cancelled by a reset were never reaped
		[ "$s" -gt 0 ]
		[ "$c" -le "$s" ]
	done
}
