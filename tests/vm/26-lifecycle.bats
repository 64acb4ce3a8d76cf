#!/usr/bin/env bats
# The driver lifecycle under injected faults (Documentation/driver.md,
# "Lifecycle"): probe failing at every step with a reset pending, .shutdown
# under I/O, a lost admin completion, an I/O timeout during unbind, rmmod
# with a sysfs file held open.  After each: nothing hangs, nothing is left
# behind, the module unloads, and the next attach takes I/O with crc32c
# verify clean.  The faults come from the debugfs hooks (kmod/ssdt_debug.c);
# on the debug kernel (make check-debug) KASAN, lockdep and kmemleak watch
# the same paths.
#
# vm-kernels: both (probe, shutdown and unbind through the PCI core)

load lib/common

setup_file() {
	debugfs_mount
	module_load
}

setup() {
	bdf=$(nvme_bdf)
	dmesg_mark
}

teardown() {
	[ -w "$SSDT_DBG/probe_fail_step" ] && echo 0 >"$SSDT_DBG/probe_fail_step"
	[ -w "$SSDT_DBG/probe_reset" ] && echo 0 >"$SSDT_DBG/probe_reset"
	true
}

teardown_file() {
	teardown_stock
}

# completion_lost: the drop_completions hook fired (builtins only:
# wait_for calls it ten times a second).
completion_lost() {
	local n
	read -r n <"$SSDT_DBG/${ctrl##*/}/drop_completions" && [ "$n" = 0 ]
}

reset_done() { dmesg_new | grep -q 'reset done'; }

# back_to_nvme: the controller on nvme again, however the fault left it.
back_to_nvme() { sysfs_bind nvme "$bdf"; }

@test "probe failing at each of its 6 steps, with a reset queued at each step: attach fails, nothing is left, the next attach works" {
	[ -w "$SSDT_DBG/probe_fail_step" ] || err "no debugfs hook $SSDT_DBG/probe_fail_step"
	echo 1 >"$SSDT_DBG/probe_reset"
	for step in 1 2 3 4 5 6; do
		echo "step $step"
		echo "$step" >"$SSDT_DBG/probe_fail_step"
		run ssdt attach "$bdf"
		echo "$output"
		[ "$status" -ne 0 ]
		# the hook fired (it re-arms to 0) at the step asked for
		[ "$(cat "$SSDT_DBG/probe_fail_step")" = 0 ]
		dmesg_new | grep -q "debug: failing probe at step $step "
		[ "$(pci_driver "$bdf")" != ssdtune ]
		no_ssdt_nodes
		back_to_nvme
	done
	echo 0 >"$SSDT_DBG/probe_reset"
	# steps 3 to 6 ran with the controller live and queued a reset each:
	# none may run on the freed controller (KASAN on the debug kernel)
	dmesg_clean_since_mark 'failed with error -5|probe of .* failed'
	attach
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=8 --offset=0 --size=4M
	detach
	module_unload
	module_load
}

@test ".shutdown during fio: I/O in flight completes first, then the controller commits and stops and new I/O fails; remove and unload still work, data written before is intact" {
	attach
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	head -c 1M /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=1M seek=700 oflag=direct conv=fsync status=none
	s0=$(io_counter submitted)
	# the runtime is a bound only: the I/O errors of .shutdown end fio
	# four jobs at QD32: one alone is, now and then, between reaping and
	# submitting with nothing in flight when .shutdown comes
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randwrite \
		--bs=4k --iodepth=32 --numjobs=4 --offset=0 --offset_increment=16M \
		--size=16M --time_based --runtime=60 --group_reporting \
		--output="$SSDT_TMP/shut.fio" >/dev/null 2>&1 3>&- &
	fpid=$!
	# fio's queues are full: I/O is in flight when .shutdown comes
	wait_for 60 io_beyond $((s0 + 256))
	kill -0 "$fpid"
	echo 1 >"$SSDT_DBG/${ctrl##*/}/shutdown"
	for ((i = 0; i < 300; i++)); do kill -0 "$fpid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$fpid" 2>/dev/null; then
		kill "$fpid"
		err "fio still runs 30 s after .shutdown"
	fi
	wait "$fpid" && frc=0 || frc=$?
	tail -n 5 "$SSDT_TMP/shut.fio"
	[ "$frc" -ne 0 ] || grep -Eq 'err= *[1-9]' "$SSDT_TMP/shut.fio"
	dmesg_new | grep -q 'shutdown complete'
	# fio's queue was full: it drained before CC.SHN (stock waits too)
	dmesg_new | grep -E 'shutdown: [0-9]+ requests in flight'
	dmesg_new | grep -Eq 'shutdown: [1-9][0-9]* requests in flight completed first'
	[ "$(trim "$ctrl/state")" = dead ]
	# new I/O gets no data (an error, or 6.6+: a dead disk has no
	# capacity) at once instead of hanging
	rm -f "$SSDT_TMP/after"
	run timeout 10 dd if="$disk" of="$SSDT_TMP/after" bs=4k count=1 iflag=direct status=none
	echo "dd after .shutdown: status $status, $(stat -c %s "$SSDT_TMP/after" 2>/dev/null) bytes"
	[ "$status" -ne 124 ]
	[ "$status" -ne 0 ] || [ ! -s "$SSDT_TMP/after" ]
	# remove() after .shutdown (kexec does this): the unbind frees it all
	echo "$bdf" >/sys/bus/pci/drivers/ssdtune/unbind
	no_ssdt_nodes
	back_to_nvme
	module_unload
	module_load
	dd if="$(nvme_disk)" of="$SSDT_TMP/back" bs=1M skip=700 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	dmesg_clean_since_mark 'I/O error|Buffer I/O error|critical medium error|blk_update_request|operation not supported error'
}

# bats test_tags=one-kernel
@test "a lost admin completion: the reader gets an error after the controller stopped, a reset brings it back, fio verify is clean" {
	attach
	ctrl=$(ssdt_ctrl)
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	# 1 s, the least the driver takes (0 would time out every command);
	# 2 s on the debug kernel, where the reset's commands must not time
	# out by chance
	adm_s=1
	[ -z "${SSDT_VM_SLOW:-}" ] || adm_s=2
	echo "$adm_s" >/sys/module/ssdtune/parameters/admin_timeout
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	run cat "$ctrl/power_state"
	echo "$output"
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	[ "$status" -ne 0 ]
	[ "$(cat "$SSDT_DBG/${ctrl##*/}/drop_admin_completions")" = 0 ]
	dmesg_new | grep -q 'debug: dropping admin completion'
	# the buffer is handed back only once the controller no longer runs
	dmesg_new | grep -q 'timed out: stopping the controller'
	wait_for 30 reset_done
	[ "$(trim "$ctrl/state")" = live ]
	# the cached value is read again and is a power state
	[[ "$(trim "$ctrl/power_state")" =~ ^[0-9]+$ ]]
	fio_verify "$(ssdt_disk)" --rw=randrw --bs=4k --iodepth=16 --offset=128M --size=8M
	dmesg_clean_since_mark 'admin command .* timed out'
}

# bats test_tags=one-kernel
@test "a Format that hangs holds up no counter dump; it fails after format_timeout with the controller stopped, and the reset brings it back" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	idx=${ctrl##*/ssdt}
	old=$(cat /sys/module/ssdtune/parameters/format_timeout)
	# long enough for the dump below to end while the Format waits: a
	# second or two here, several on the debug kernel (a fork there
	# takes about a second)
	fmt_s=8
	[ -z "${SSDT_VM_SLOW:-}" ] || fmt_s=20
	echo "$fmt_s" >/sys/module/ssdtune/parameters/format_timeout
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	python3 "$SSDT_REPO/tests/vm/lib/genl-format.py" "$idx" 1 0 >"$SSDT_TMP/fmt.out" &
	fpid=$!
	# the Format command is in the driver, waiting for the device
	# (a dump before it proves nothing: it used to wait for the whole
	# Format under genl_mutex, and a fixed sleep sometimes missed that)
	wait_for 30 admin_completion_lost
	t0=$(date +%s)
	run timeout 30 "$SSDT_TOOL" --json monitor --stats
	echo "the dump took $(($(date +%s) - t0)) s"
	# the dump came back while the Format still waits
	if ! kill -0 "$fpid"; then
		echo "the Format ended early: $(cat "$SSDT_TMP/fmt.out")"
		dmesg_new | tail -n 20
		false
	fi
	echo "$output" | grep -q '"serial"'
	[ "$status" -eq 0 ]
	wait "$fpid"
	echo "$old" >/sys/module/ssdtune/parameters/format_timeout
	echo "format: $(cat "$SSDT_TMP/fmt.out")"
	[ "$(cat "$SSDT_TMP/fmt.out")" = ETIMEDOUT ]
	dmesg_new | grep -q 'timed out: stopping the controller'
	wait_for 30 reset_done
	[ "$(trim "$ctrl/state")" = live ]
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=8 --offset=64M --size=4M
	dmesg_clean_since_mark 'admin command .* timed out|Format NVM'
}

# bats test_tags=one-kernel
@test "power_state read in a loop sends at most one admin command a second" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	q0=$ctrl/queues/q0/submitted
	before=$(trim "$q0")
	# reads as fast as the shell goes (builtins: no process per read),
	# for at least 4 s and until there are enough reads that one command
	# a read could not pass the bound below (about 170-400 in 5 s under
	# TCG, by load; far fewer on the debug kernel under load, so the
	# loop runs until it has them, up to 120 s)
	n=0 start=$SECONDS el=0
	while [ "$el" -lt 4 ] || [ "$n" -lt $((5 * (el + 2))) ]; do
		[ "$el" -lt 120 ] || break
		read -r ps <"$ctrl/power_state"
		n=$((n + 1))
		el=$((SECONDS - start))
	done
	# el counts whole seconds: the loop ran for less than el + 1
	secs=$((el + 1))
	after=$(trim "$q0")
	echo "admin commands for $n reads in about ${secs}s: $((after - before)) (power state $ps)"
	[ "$n" -ge $((5 * (secs + 1))) ]
	# one a second at most, not one a read
	[ $((after - before)) -le $((secs + 2)) ]
}

@test "an I/O timeout during unbind: the controller is stopped before the request fails, unbind finishes, the module unloads" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	tmo=/sys/block/${disk##*/}/queue/io_timeout
	# the unbind must start before the second expiry (the first sends an
	# Abort; without removal the second resets and the read succeeds),
	# here 4 s after the read, and it starts within a second of it:
	# generous on the debug kernel, where a shell command takes seconds
	ms=2000
	[ -z "${SSDT_VM_SLOW:-}" ] || ms=20000
	echo "$ms" >"$tmo"
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_completions"
	dd if="$disk" of=/dev/null bs=4k skip=9 count=1 iflag=direct status=none 2>"$SSDT_TMP/dd.err" &
	ddpid=$!
	wait_for 10 completion_lost
	start=$(date +%s)
	timeout 60 sh -c "echo $bdf >/sys/bus/pci/drivers/ssdtune/unbind"
	echo "unbind took $(($(date +%s) - start)) s"
	wait "$ddpid" && ddrc=0 || ddrc=$?
	cat "$SSDT_TMP/dd.err"
	[ "$ddrc" -ne 0 ]
	dmesg_new | grep -q 'timed out during removal: stopping the controller'
	no_ssdt_nodes
	back_to_nvme
	module_unload
	module_load
	dmesg_clean_since_mark 'I/O error|Buffer I/O error|blk_update_request'
}

@test "rmmod while a sysfs file of the controller is held open: the read fails cleanly afterwards" {
	attach
	ctrl=$(ssdt_ctrl)
	# fd 5: bats keeps 3 and 4 for itself
	exec 5<"$ctrl/state"
	detach
	module_unload
	refute module_loaded
	run cat <&5
	exec 5<&-
	echo "status $status: $output"
	[ "$status" -ne 0 ] || [ -z "$output" ]
	module_load
	dmesg_clean_since_mark
}

# bats test_tags=one-kernel
@test "io_queue_depth outside 2..4096 is refused at load (65536 used to wrap to 0 in a u16); 4096 works" {
	teardown_stock
	for bad in 65536 4097 1 0 x; do
		run insmod "$SSDT_KO" io_queue_depth=$bad
		echo "io_queue_depth=$bad: status $status $output"
		[ "$status" -ne 0 ]
		refute module_loaded
	done
	insmod "$SSDT_KO" io_queue_depth=4096
	[ "$(cat /sys/module/ssdtune/parameters/io_queue_depth)" = 4096 ]
	attach
	# capped by the controller's CAP.MQES (QEMU: 2048), never wrapped
	depth=$(trim "$(ssdt_ctrl)/queue_depth")
	echo "queue_depth $depth"
	[ "$depth" -gt 1 ]
	[ "$depth" -le 4096 ]
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=64 --offset=96M --size=4M
	teardown_stock
	module_load
	dmesg_clean_since_mark
}
