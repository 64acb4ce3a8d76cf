#!/usr/bin/env bats
# Poll queues (module parameter poll_queues): queues without an interrupt
# that blk-mq polls for io_uring with IOPOLL (fio --hipri).  Data verified
# with crc32c on the poll queue and off it; a controller reset under
# polled I/O; two poll queues.  Runs on both kernels.
#
# vm-kernels: both (poll queues and io_uring IOPOLL in the block layer)

load lib/common

setup_file() {
	# first in a boot of the slow debug kernel, nvme may still be probing
	wait_for "$SETTLE_S" nvme_bdf >/dev/null || return 1
	teardown_stock
	require_module || return 1
	insmod "$SSDT_KO" poll_queues=1 || return 1
	attach
}

teardown_file() {
	teardown_stock
}

setup() {
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	nio=$(trim "$ctrl/io_queues")
	pq=$ctrl/queues/q$nio		# the poll queue is the last
	dmesg_mark
}

# pq_beyond N: the poll queue has submitted more than N commands (builtins
# only: wait_for calls it ten times a second).
pq_beyond() {
	local n
	read -r n <"$pq/submitted" && [ "$n" -gt "$1" ]
}

# ctrl_live: the controller's state is live (read anew at every call).
ctrl_live() { [ "$(trim "$ctrl/state")" = live ]; }

@test "poll_queues=1: one queue of io_queues is a poll queue: no IRQ, every online CPU maps to it, the disk is pollable" {
	[ "$(trim /sys/module/ssdtune/parameters/poll_queues)" = 1 ]
	[ "$(trim "$ctrl/poll_queues")" = 1 ]
	[ "$nio" -ge 2 ]
	[ "$(trim "$pq/irq")" = -1 ]
	# every online CPU maps to it
	[[ " $(expand_cpulist "$(trim "$pq/cpus")") " == *" $(expand_cpulist "$(trim /sys/devices/system/cpu/online)") "* ]]
	[ "$(trim "$ctrl/queues/q1/irq")" -gt 0 ]
	[ "$(trim "/sys/block/${disk#/dev/}/queue/io_poll")" = 1 ]
	dmesg | grep -q "ssdtune .*: $nio I/O queues (1 polled)"
}

@test "io_uring with IOPOLL (fio --hipri) goes to the poll queue, reaped by polling with no interrupt; crc32c verify" {
	local sub0 pol0 irq0
	sub0=$(trim "$pq/submitted")
	pol0=$(trim "$pq/polled")
	irq0=$(trim "$pq/interrupts")
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=0 --size=8M --iodepth=16 >/dev/null
	echo "poll queue: submitted $sub0 -> $(trim "$pq/submitted"), polled $pol0 -> $(trim "$pq/polled")"
	[ $(($(trim "$pq/submitted") - sub0)) -ge 4096 ]	# 2048 writes, 2048 verify reads
	[ $(($(trim "$pq/polled") - pol0)) -ge 4096 ]
	[ "$(trim "$pq/interrupts")" = "$irq0" ]
	[ "$(trim "$pq/submitted")" = "$(trim "$pq/completed")" ]
	dmesg_clean_since_mark
}

@test "I/O that is not io_uring IOPOLL never reaches the poll queue (sync I/O with RWF_HIPRI included: the kernel polls only async I/O); it verifies" {
	local sub0
	sub0=$(trim "$pq/submitted")
	# whether I/O is polled is decided per request: a few hundred of
	# each kind show it as well as thousands
	fio_verify "$disk" --ioengine=pvsync2 --hipri --rw=randrw --bs=8k --offset=16M --size=4M >/dev/null
	fio_verify "$disk" --ioengine=io_uring --rw=randwrite --bs=4k --offset=24M --size=4M --iodepth=16 >/dev/null
	fio_verify "$disk" --ioengine=libaio --rw=randwrite --bs=64k --offset=32M --size=8M --iodepth=8 >/dev/null
	[ "$(trim "$pq/submitted")" = "$sub0" ]
	dmesg_clean_since_mark
}

@test "a controller reset under polled I/O: the poll queue comes back, fio verify stays clean" {
	local out=$SSDT_TMP/poll-reset.out fpid sub0
	read -r sub0 <"$pq/submitted"
	# 2048 polled writes and their verify reads: the reset comes as soon
	# as they flow, with seconds of them still to go
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=48M --size=8M --iodepth=16 \
		>"$out" 2>&1 3>&- &
	fpid=$!
	if ! wait_for 60 pq_beyond $((sub0 + 64)) || ! kill -0 "$fpid" 2>/dev/null; then
		cat "$out"
		err "no polled I/O to reset under (fio above)"
	fi
	nvme reset "/dev/${ctrl##*/}"
	wait "$fpid" || { cat "$out"; false; }
	wait_for 30 ctrl_live
	[ "$(trim "$ctrl/poll_queues")" = 1 ]
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randread --bs=4k --offset=48M --size=4M --iodepth=8 >/dev/null
	dmesg_clean_since_mark "resetting controller|reset done"
}

# first_online CPULIST: the first CPU of CPULIST that is online ("" none).
first_online() {
	local c
	for c in $(expand_cpulist "$1"); do
		[ "$c" = 0 ] || [ "$(cat "/sys/devices/system/cpu/cpu$c/online")" = 1 ] || continue
		echo "$c"
		return
	done
}

@test "poll_queues=2 with max_io_queues=1: one interrupt queue, two poll queues splitting the CPUs; polled I/O goes to the poll queue of the CPU it runs on; verify" {
	local q c n=0
	teardown_stock
	insmod "$SSDT_KO" poll_queues=2 max_io_queues=1
	attach
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	[ "$(trim "$ctrl/io_queues")" = 3 ]
	[ "$(trim "$ctrl/poll_queues")" = 2 ]
	[ "$(trim "$ctrl/queues/q1/irq")" -gt 0 ]
	[ "$(trim "$ctrl/queues/q2/irq")" = -1 ]
	[ "$(trim "$ctrl/queues/q3/irq")" = -1 ]
	# the two poll queues split the possible CPUs (6.12 counts CPUs
	# that could be hot-added: a queue may serve only offline ones)
	[ -n "$(trim "$ctrl/queues/q2/cpus")" ]
	[ -n "$(trim "$ctrl/queues/q3/cpus")" ]
	[ "$(trim "$ctrl/queues/q2/cpus")" != "$(trim "$ctrl/queues/q3/cpus")" ]
	for q in "$ctrl"/queues/q2 "$ctrl"/queues/q3; do
		c=$(first_online "$(trim "$q/cpus")")
		[ -n "$c" ] || continue
		s0=$(trim "$q/submitted")
		taskset -c "$c" fio --name=t --filename="$disk" --direct=1 --ioengine=io_uring --hipri \
			--rw=randwrite --bs=4k --size=2M --offset=$((64 + n * 2))M --iodepth=8 \
			--verify=crc32c --do_verify=1 --verify_fatal=1 >"$SSDT_TMP/poll$n.out" ||
			{ cat "$SSDT_TMP/poll$n.out"; false; }
		echo "CPU $c: ${q##*/} submitted $s0 -> $(trim "$q/submitted")"
		[ $(($(trim "$q/submitted") - s0)) -ge 1024 ]	# 512 writes, 512 reads
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
	[ "$(trim "$ctrl/queues/q2/interrupts")" = 0 ]
	[ "$(trim "$ctrl/queues/q3/interrupts")" = 0 ]
	dmesg_clean_since_mark
}
