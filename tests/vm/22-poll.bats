#!/usr/bin/env bats
# Poll queues (module parameter poll_queues, and the poll_queues knob that
# changes them live): queues without an interrupt that blk-mq polls for
# io_uring with IOPOLL (fio --hipri).  Data verified with crc32c on the
# poll queue and off it; a controller reset under polled I/O; two poll
# queues; the knob rewritten under I/O on a mounted file system, refused
# when bad, and raced by a reset and an unbind.  Runs on both kernels.
#
# vm-kernels: both (poll queues and io_uring IOPOLL in the block layer;
# the knob's refusals, set and revert, and its races with a reset, an
# unbind and a lost completion are the driver's own logic: one-kernel)

load lib/common
bats_require_minimum_version 1.5.0

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

teardown() {
	# the file system of the live-change test, whatever became of it
	exec 7<&-
	! mountpoint -q "$SSDT_TMP/pollmnt" || umount "$SSDT_TMP/pollmnt"
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

# poll_write N: write N to the poll_queues knob; prints the error, if any
poll_write() {
	{ echo "$1" >"$ctrl/poll_queues"; } 2>&1
}

# split_is POLL: the controller reads POLL poll queues, the last POLL of
# io_queues: no IRQ on them, one on every other, and the disk is pollable
# iff POLL > 0.
split_is() {
	local i irq
	[ "$(trim "$ctrl/poll_queues")" = "$1" ] || { echo "poll_queues $(trim "$ctrl/poll_queues"), not $1"; return 1; }
	[ "$(trim "$ctrl/io_queues")" = "$nio" ] || { echo "io_queues changed"; return 1; }
	for ((i = 1; i <= nio; i++)); do
		irq=$(trim "$ctrl/queues/q$i/irq")
		if [ "$i" -gt $((nio - $1)) ]; then
			[ "$irq" = -1 ] || { echo "q$i has IRQ $irq"; return 1; }
		else
			[ "$irq" -gt 0 ] || { echo "q$i has no IRQ"; return 1; }
		fi
	done
	[ "$(trim "/sys/block/${disk#/dev/}/queue/io_poll")" = $(($1 > 0)) ] ||
		{ echo "io_poll $(trim "/sys/block/${disk#/dev/}/queue/io_poll")"; return 1; }
}

@test "poll_queues written live: 0, 2, then 1 again on a mounted ext4; the split, the IRQs and io_poll follow; polled I/O goes to the new poll queues; the file reads back" {
	local mnt=$SSDT_TMP/pollmnt sum q p0 irq1
	# 512 MiB of the disk: the raw I/O below stays beyond it
	mkfs.ext4 -q -F "$disk" 131072
	mkdir -p "$mnt"
	mount "$disk" "$mnt"
	dd if=/dev/urandom of="$mnt/f" bs=1M count=4 status=none
	sum=$(md5sum <"$mnt/f")
	# the file stays open across the changes
	exec 7<"$mnt/f"
	# an affinity set by hand survives them
	irq1=$(trim "$ctrl/queues/q1/irq")
	echo 2 >"/proc/irq/$irq1/smp_affinity_list"
	[ -z "$(poll_write 0)" ]
	split_is 0
	# a disk that cannot poll: 6.1 does IOPOLL I/O with interrupts, 6.12
	# refuses it (EOPNOTSUPP); other I/O goes on
	fio_verify "$disk" --ioengine=io_uring --rw=randwrite --bs=4k --offset=900M --size=2M --iodepth=8 \
		--allow_mounted_write=1 >/dev/null
	[ -z "$(poll_write 2)" ]
	split_is 2
	q=$ctrl/queues/q$nio
	p0=$(( $(trim "$q/polled") + $(trim "$ctrl/queues/q$((nio - 1))/polled") ))
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=904M --size=2M --iodepth=8 \
		--allow_mounted_write=1 >/dev/null
	[ $(( $(trim "$q/polled") + $(trim "$ctrl/queues/q$((nio - 1))/polled") - p0 )) -ge 1024 ]
	[ -z "$(poll_write 1)" ]
	split_is 1
	[ "$(trim "/proc/irq/$irq1/smp_affinity_list")" = 2 ]
	exec 7<&-
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ "$(md5sum <"$mnt/f")" = "$sum" ]
	umount "$mnt"
	dmesg_new | grep -q "ssdtune .*: $nio I/O queues: $((nio - 1)) with interrupts, 1 polled"
	dmesg_clean_since_mark "EXT4-fs"
}

# bats test_tags=one-kernel
@test "poll_queues refuses all-polled, above 64 and junk with EINVAL and changes nothing; ssdtune set refuses junk in one line" {
	local v
	for v in "$nio" 65 -1 abc "1 2" ""; do
		[[ $(poll_write "$v") == *"Invalid argument"* ]] || { echo "'$v' was not refused"; false; }
	done
	split_is 1
	run --separate-stderr ssdt set "${ctrl##*/}" poll_queues=x --state-dir "$SSDT_TMP/poll-state"
	[ "$status" -ne 0 ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	split_is 1
}

# bats test_tags=one-kernel
@test "ssdtune set poll_queues=2 saves the old value first: verify holds, revert gives back 1" {
	local st=$SSDT_TMP/poll-set
	rm -rf "$st"
	ssdt set --state-dir "$st" "${ctrl##*/}" poll_queues=2
	split_is 2
	ssdt verify --state-dir "$st"
	ssdt revert --state-dir "$st"
	split_is 1
	[ ! -e "$st/state.json" ]
}

@test "poll_queues rewritten eight times during fio verify with libaio and with io_uring IOPOLL: both verify clean, nothing fails or times out" {
	local a=$SSDT_TMP/pq-a.out b=$SSDT_TMP/pq-b.out pa pb v
	fio_verify "$disk" --ioengine=libaio --rw=randwrite --bs=4k --offset=128M --size=24M --iodepth=16 \
		>"$a" 2>&1 3>&- &
	pa=$!
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=160M --size=24M --iodepth=16 \
		>"$b" 2>&1 3>&- &
	pb=$!
	for v in 0 2 1 0 1 2 0 1; do
		kill -0 "$pa" 2>/dev/null || kill -0 "$pb" 2>/dev/null || break
		[ -z "$(poll_write "$v")" ]
		[ "$(trim "$ctrl/poll_queues")" = "$v" ]
	done
	wait "$pa" || { cat "$a"; false; }
	wait "$pb" || { cat "$b"; false; }
	split_is 1
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

# bats test_tags=one-kernel
@test "poll_queues raced by a controller reset and then by an unbind under I/O: each ends with the controller live or gone, no splat, the module unloads" {
	local out=$SSDT_TMP/pq-race.out fpid
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=192M --size=16M --iodepth=16 \
		>"$out" 2>&1 3>&- &
	fpid=$!
	poll_write 2 &
	nvme reset "/dev/${ctrl##*/}"
	wait $!
	wait "$fpid" || { cat "$out"; false; }
	wait_for 30 ctrl_live
	[[ $(trim "$ctrl/poll_queues") == [12] ]]
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randread --bs=4k --offset=192M --size=4M --iodepth=8 >/dev/null
	# an unbind while a write waits for the drain: the write ends first
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randread --bs=4k --iodepth=16 \
		--time_based --runtime=60 >/dev/null 2>&1 3>&- &
	fpid=$!
	poll_write 0 &
	echo "$(nvme_bdf)" >/sys/bus/pci/drivers/ssdtune/unbind
	wait $! || true
	wait "$fpid" || true
	[ ! -e "$ctrl" ]
	dmesg_clean_since_mark "resetting controller|reset done|[Ee]rror"
	dmesg_no_reports
	module_unload
	# as setup_file left it, for the next test's setup
	insmod "$SSDT_KO" poll_queues=1
	attach
}

# bats test_tags=one-kernel
@test "poll_queues written while a completion is lost: the drain ends within io_timeout (EBUSY, nothing changed) or the write succeeds; the timeout's reset recovers the read, which returns the data written" {
	local hook p=/sys/module/ssdtune/parameters/io_timeout tmo old_p old_tmo rpid out before
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	hook=/sys/kernel/debug/ssdtune/${ctrl##*/}/drop_completions
	tmo=/sys/block/${disk##*/}/queue/io_timeout
	old_p=$(trim "$p")
	old_tmo=$(trim "$tmo")
	echo 2 >"$p"
	echo 1000 >"$tmo"
	before=$(trim "$ctrl/poll_queues")
	head -c 64k /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=64k seek=3000 oflag=direct conv=fsync status=none
	echo 1 >"$hook"
	dd if="$disk" of="$SSDT_TMP/back" bs=64k skip=3000 count=1 iflag=direct status=none &
	rpid=$!
	wait_for 10 hook_fired || true
	out=$(poll_write $((before == 2 ? 0 : 2)) || true)
	echo "write: ${out:-ok}"
	wait "$rpid"
	echo 0 >"$hook"
	echo "$old_p" >"$p"
	echo "$old_tmo" >"$tmo"
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	wait_for 30 ctrl_live
	if [ -n "$out" ]; then
		[[ $out == *"Device or resource busy"* ]]
		[ "$(trim "$ctrl/poll_queues")" = "$before" ]
		dmesg_new | grep -q 'poll_queues: .* did not complete within io_timeout'
	fi
	echo "$before" >"$ctrl/poll_queues"
	split_is "$before"
	fio_verify "$disk" --ioengine=io_uring --hipri --rw=randwrite --bs=4k --offset=256M --size=2M --iodepth=8 >/dev/null
	dmesg_clean_since_mark "dropping completion|timed out|aborting|resetting controller|reset done|did not complete"
}

# hook_fired: the drop_completions hook at $hook has dropped its completion.
hook_fired() {
	local n
	read -r n <"$hook" && [ "$n" = 0 ]
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
