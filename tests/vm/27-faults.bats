#!/usr/bin/env bats
# More of the lifecycle fault matrix (Documentation/driver.md, "Failures"):
# a PCI function reset, a system sleep (debugfs: the driver's PM
# callbacks and D3hot for this device alone) and AER recovery (debugfs:
# the PCI core's sequence of the driver's error handlers) during fio
# verify, a PCI channel that failed for good, a lost admin
# completion while probe sends Identify, unbind while a Format hangs, and
# 64 tasks reading and writing every knob for 10 s under I/O (30 s on the
# debug kernel, where each task gets through a fifth as much).  After each:
# verify is clean, nothing hangs, the module unloads.  Also run on the debug
# kernel by make check-debug.
#
# vm-kernels: both (PCI reset, sleep and AER recovery in the PCI core)

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
	[ -w "$SSDT_DBG/probe_drop_admin_step" ] && echo 0 >"$SSDT_DBG/probe_drop_admin_step"
	true
}

teardown_file() {
	teardown_stock
}

@test "a PCI function reset (sysfs reset) three times during fio verify: nothing times out, the I/O waits and goes on, the knobs stay" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	echo "reset methods: $(cat "/sys/bus/pci/devices/$bdf/reset_method" 2>&1)"
	echo host >"$ctrl/coalesce_mode"
	echo 9 >"$ctrl/coalesce_threshold"
	# each reset under I/O, the next once the I/O went on after it
	(for i in 1 2 3; do io_flows || exit 1; echo 1 >"/sys/bus/pci/devices/$bdf/reset" || exit 1; done) &
	rpid=$!
	verify_while "$rpid" --offset=200M
	wait "$rpid"
	held_through 'a function reset' 3
	[ "$(trim "$ctrl/coalesce_mode")" = host ]
	[ "$(trim "$ctrl/coalesce_threshold")" = 9 ]
	echo off >"$ctrl/coalesce_mode"
	dmesg_clean_since_mark
}

@test "a system sleep of the controller (suspend, D3hot, D0, resume) during fio verify: it shuts down and comes back, the I/O waits and goes on" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	hook=$SSDT_DBG/${ctrl##*/}/sleep
	# 500 ms in D3hot hold fio's whole queue as well as a longer sleep
	(io_flows || exit 1; echo 500 >"$hook" || exit 1; io_flows || exit 1; echo 500 >"$hook") &
	spid=$!
	verify_while "$spid" --offset=300M
	wait "$spid"
	held_through 'system sleep' 2
	# a shutdown notification (CC.SHN) went before the sleep
	dmesg_new | grep -q 'shutdown complete'
	fio_verify "$(ssdt_disk)" --rw=randrw --bs=4k --iodepth=16 --offset=320M --size=4M
	dmesg_clean_since_mark
}

@test "AER recovery of a frozen channel (error_detected, the link reset, slot_reset, resume) twice during fio verify: the I/O is held and goes on, the knobs stay" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	hook=$SSDT_DBG/${ctrl##*/}/aer
	echo host >"$ctrl/coalesce_mode"
	echo 7 >"$ctrl/coalesce_threshold"
	(io_flows || exit 1; echo 1 >"$hook" || exit 1; io_flows || exit 1; echo 1 >"$hook") &
	apid=$!
	verify_while "$apid" --offset=360M
	wait "$apid"
	held_through 'an AER recovery' 2
	[ "$(dmesg_new | grep -c 'PCI channel frozen')" -eq 2 ]
	[ "$(dmesg_new | grep -c 'restarting after the link reset')" -eq 2 ]
	[ "$(trim "$ctrl/coalesce_mode")" = host ]
	[ "$(trim "$ctrl/coalesce_threshold")" = 7 ]
	echo off >"$ctrl/coalesce_mode"
	dmesg_clean_since_mark
}

@test "an I/O timeout while the channel is frozen, before the AER core reaches the driver: no Abort, no reset of its own; the recovery then brings the read back with its data" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	tmo=/sys/block/${disk#/dev/}/queue/io_timeout
	old_tmo=$(cat "$tmo")
	head -c 65536 /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=64k seek=6000 oflag=direct conv=fsync status=none
	echo 1000 >"$tmo"
	# the hook freezes the channel and runs the handlers 5 s later
	echo 4 >"$SSDT_DBG/${ctrl##*/}/aer" &
	hpid=$!
	frozen() { dmesg_new | grep -q 'debug: channel frozen'; }
	wait_for 10 frozen
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_completions"
	dd if="$disk" of="$SSDT_TMP/back" bs=64k skip=6000 count=1 iflag=direct status=none
	wait "$hpid"
	echo "$old_tmo" >"$tmo"
	dmesg_new
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	dmesg_new | grep -q 'dropping completion'
	dmesg_new | grep -q 'PCI channel frozen'
	# the timeout waited for the recovery, which reset the controller
	refute grep -Eq 'timed out, aborting|still outstanding|controller (gone|fatal)' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

@test "an AER error that left the channel working: nothing halts, fio verify goes on" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	(io_flows || exit 1; echo 2 >"$SSDT_DBG/${ctrl##*/}/aer") &
	apid=$!
	verify_while "$apid" --offset=380M
	wait "$apid"
	refute grep -q 'halted for' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

@test "a PCI channel failed for good during fio: nothing waits, in flight or after, and no data comes back; detach and unload work" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	# the runtime is a bound only: fio is stopped below
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=16 --offset=400M --size=64M --time_based --runtime=120 \
		--output="$SSDT_TMP/perm.fio" >/dev/null 2>&1 3>&- &
	fpid=$!
	io_flows
	kill -0 "$fpid"
	echo 3 >"$SSDT_DBG/${ctrl##*/}/aer"
	dmesg_new | grep -q 'PCI channel failed for good'
	[ "$(trim "$ctrl/state")" = dead ]
	# what was in flight ended: fio stops when told, at once (6.1: it
	# stopped on its errors already), nothing sits in D state
	kill -INT "$fpid" 2>/dev/null || true
	for ((i = 0; i < 150; i++)); do kill -0 "$fpid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$fpid" 2>/dev/null; then
		ps -eo stat=,pid=,wchan:32=,comm= | awk '$1 ~ /^D/'
		false
	fi
	wait "$fpid" || true
	tail -n 8 "$SSDT_TMP/perm.fio"
	# a new read brings no data, and at once (124 would be timeout's)
	run timeout 20 dd if="$disk" of="$SSDT_TMP/perm.dd" bs=4k count=1 iflag=direct
	echo "dd: $status: $output; size now $(cat "/sys/block/${disk#/dev/}/size" 2>&1)"
	[ "$status" -ne 124 ]
	[ ! -s "$SSDT_TMP/perm.dd" ]
	teardown_stock
	module_load
	dmesg_clean_since_mark 'PCI channel failed|I/O error|Buffer I/O|dead|operation not supported|critical'
}

# The restart after a function reset fails (its Identify Controller lost,
# as QEMU 10 once lost it after an FLR): the controller is declared dead
# out of the pause, so what the pause held must fail, at once, and none of
# it may be left waiting.
# bats test_tags=one-kernel
@test "a restart that fails after a function reset (Identify lost) during fio: the controller is dead, fio ends with errors at once, nothing waits; detach and unload work" {
	local adm_s=2 old
	[ -z "${SSDT_VM_SLOW:-}" ] || adm_s=4
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	fio --name=t --filename="$disk" --direct=1 --ioengine=libaio --rw=randwrite \
		--bs=4k --iodepth=32 --offset=440M --size=32M --time_based --runtime=120 \
		--output="$SSDT_TMP/restart.fio" >/dev/null 2>&1 3>&- &
	fpid=$!
	io_flows
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	echo "$adm_s" >/sys/module/ssdtune/parameters/admin_timeout
	# halted with fio's queue in flight; the restart's first command is lost
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	echo 1 >"/sys/bus/pci/devices/$bdf/reset"
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	dmesg_new | grep -E 'halted for|reset failed|dropping admin' || true
	dmesg_new | grep -q 'reset failed'
	[ "$(trim "$ctrl/state")" = dead ]
	# fio's I/O fails: it stops on its own errors within seconds
	for ((i = 0; i < 300; i++)); do kill -0 "$fpid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$fpid" 2>/dev/null; then
		ps -eo stat=,pid=,wchan:32=,comm= | awk '$1 ~ /^[DS]/ && $4 == "fio"'
		cat "/sys/kernel/debug/block/${disk#/dev/}"/hctx*/busy 2>/dev/null || true
		kill -INT "$fpid" 2>/dev/null || true
		err "fio still runs 30 s after the controller died"
	fi
	run wait "$fpid"
	[ "$status" -ne 0 ]
	tail -n 4 "$SSDT_TMP/restart.fio"
	run timeout 20 dd if="$disk" of=/dev/null bs=4k count=1 iflag=direct
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
	teardown_stock
	module_load
	dmesg_clean_since_mark 'admin command .* timed out|reset failed|I/O error|Buffer I/O|dead|critical'
}

# Firmware activation (debugfs fw_act: CSTS.PP reads set for N ms, as
# after the "firmware activation starting" notice; QEMU never sets it).
# bats test_tags=one-kernel
@test "firmware activation during fio verify: the I/O is held while CSTS.PP is set, nothing times out, then it goes on; the slot log names the revision" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	tmo=/sys/block/${disk#/dev/}/queue/io_timeout
	old_tmo=$(cat "$tmo")
	echo 1000 >"$tmo"	# a held request must not be aborted
	# the activation must outlast the two counter reads a second apart,
	# which take seconds on the debug kernel
	act_ms=3000
	[ -z "${SSDT_VM_SLOW:-}" ] || act_ms=10000
	(io_flows || exit 1; echo "$act_ms" >"$SSDT_DBG/${ctrl##*/}/fw_act" || exit 1
	 wait_for 10 grep -q resetting "$ctrl/state" || exit 1
	 a=$(io_sum); sleep 1; b=$(io_sum)
	 echo "# held: submitted $a then $b, state $(trim "$ctrl/state")" >&3
	 [ "$a" = "$b" ] || exit 1
	 wait_for 60 grep -q live "$ctrl/state") &
	fpid=$!
	verify_while "$fpid" --offset=480M --size=4M
	wait "$fpid"
	echo "$old_tmo" >"$tmo"
	dmesg_new | grep -E 'firmware activation' || true
	dmesg_new | grep -q 'firmware activation: I/O held'
	dmesg_new | grep -Eq 'firmware activation done: slot [1-7], revision [^ ]+'
	refute grep -Eq 'timed out|resetting controller|I/O error' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_clean_since_mark
}

# bats test_tags=one-kernel
@test "firmware activation that outlasts admin_timeout (no MTFA): the controller is reset and the I/O goes on" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	echo 1 >/sys/module/ssdtune/parameters/admin_timeout
	(io_flows || exit 1; echo 4000 >"$SSDT_DBG/${ctrl##*/}/fw_act") &
	fpid=$!
	verify_while "$fpid" --offset=500M --size=4M
	wait "$fpid"
	reset_seen() { [ "$(resets_done)" -ge 1 ]; }
	wait_for 30 reset_seen
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	dmesg_new | grep -q 'firmware activation did not end within 1000 ms: resetting controller'
	[ "$(trim "$ctrl/state")" = live ]
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=520M --size=4M
	dmesg_clean_since_mark 'did not end|resetting controller'
}

# bats test_tags=one-kernel
@test "an admin command that times out during a firmware activation: the hold ends, the controller is reset and the I/O goes on (it waited for good before)" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	# the hold's limit is admin_timeout (QEMU reports no MTFA), read
	# when it starts: 60 s, far beyond the activation
	echo 8000 >"$SSDT_DBG/${ctrl##*/}/fw_act"
	wait_for 10 grep -q resetting "$ctrl/state"
	echo 1 >/sys/module/ssdtune/parameters/admin_timeout
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	run nvme smart-log "/dev/${ctrl##*/}"
	echo "$output"
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	[ "$status" -ne 0 ]
	run timeout 60 dd if="$disk" of=/dev/null bs=4k count=1 iflag=direct
	[ "$status" -eq 0 ]
	dmesg_new | grep -q 'an admin command timed out during the firmware activation: resetting controller'
	reset_seen() { [ "$(resets_done)" -ge 1 ]; }
	wait_for 30 reset_seen
	[ "$(trim "$ctrl/state")" = live ]
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=16 --offset=520M --size=4M
	dmesg_clean_since_mark 'timed out|resetting controller|dropping admin completion'
}

# bats test_tags=one-kernel
@test "short firmware activations, each followed at once by an unbind: the slot log is read before the admin queue goes; nothing hangs, no splat (KASAN under make check-debug)" {
	local i
	for i in 1 2 3; do
		setup_attached
		ctrl=$(ssdt_ctrl)
		echo 300 >"$SSDT_DBG/${ctrl##*/}/fw_act"
		teardown_stock
	done
	dmesg_clean_since_mark
}

# bats test_tags=one-kernel
@test "a reset brings the controller back with a smaller MDTS (new firmware): it stays live, the disk takes the new limit, 1 MiB writes verify" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	q=/sys/block/${disk#/dev/}/queue
	before=$(cat "$q/max_hw_sectors_kb")
	echo "max_hw_sectors_kb before: $before"
	[ "$before" -gt 128 ]
	# 2^5 pages of 4 KiB a command
	echo 5 >"$SSDT_DBG/mdts"
	run nvme reset "/dev/${ctrl##*/}"
	echo 0 >"$SSDT_DBG/mdts"
	[ "$status" -eq 0 ]
	wait_for 30 grep -qx 128 "$q/max_hw_sectors_kb"
	[ "$(trim "$ctrl/state")" = live ]
	dmesg_new | grep -q 'after the reset the controller takes at most 131072 bytes a command'
	fio_verify "$disk" --rw=write --bs=1m --iodepth=4 --offset=540M --size=8M
	# the limit of the device as it now is: passthrough beyond it is refused
	run nvme io-passthru "$disk" --opcode=2 --namespace-id=1 --data-len=262144 \
		--read --cdw10=0 --cdw12=511
	[ "$status" -ne 0 ]
	# a fresh attach reads the device's own MDTS again
	teardown_stock
	setup_attached
	[ "$(cat "/sys/block/$(basename "$(ssdt_disk)")/queue/max_hw_sectors_kb")" = "$before" ]
	dmesg_clean_since_mark 'takes at most|at most 128 KiB'
}

# attach_losing_admin STEP: attach (run: $status, $output) from a fresh
# module load, with one admin completion lost from probe step STEP on and
# admin_timeout cut to 1 s (the least the driver takes: 0 would time out
# every command; 2 s on the debug kernel, where the rest of probe's
# commands must not time out by chance).
attach_losing_admin() {
	local adm_s=1 old
	[ -z "${SSDT_VM_SLOW:-}" ] || adm_s=2
	teardown_stock
	module_load
	old=$(cat /sys/module/ssdtune/parameters/admin_timeout)
	echo "$adm_s" >/sys/module/ssdtune/parameters/admin_timeout
	echo "$1" >"$SSDT_DBG/probe_drop_admin_step"
	run timeout 120 "$SSDT_TOOL" attach "$bdf"
	echo "attach: status $status: $output"
	echo "$old" >/sys/module/ssdtune/parameters/admin_timeout
	[ "$(cat "$SSDT_DBG/probe_drop_admin_step")" = 0 ] || err "step $1 never came"
	dmesg_new | grep -q 'debug: dropping admin completion' || err "no admin completion was lost"
}

# bats test_tags=one-kernel
@test "a lost admin completion while probe sends Identify Controller: attach fails after admin_timeout with the controller stopped; the next attach works" {
	attach_losing_admin 2
	[ "$status" -ne 0 ]
	dmesg_new | grep -q 'timed out: stopping the controller'
	[ "$(pci_driver "$bdf")" != ssdtune ]
	no_ssdt_nodes
	sysfs_bind nvme "$bdf"
	attach
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=8M --size=4M
	dmesg_clean_since_mark 'admin command .* timed out|failed with error|probe of .* failed'
}

# bats test_tags=one-kernel
@test "a lost admin completion during the namespace scan at attach: the reset brings the controller back or attach fails cleanly; nothing hangs" {
	attach_losing_admin 5
	echo "# attach with Identify Namespace lost: exit $status" >&3
	[ "$status" -ne 124 ]
	if [ "$status" -eq 0 ]; then
		wait_for 30 ssdt_disk
		[ "$(trim "$(ssdt_ctrl)/state")" = live ]
	else
		no_ssdt_nodes
		sysfs_bind nvme "$bdf"
		attach
	fi
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=12M --size=4M
	dmesg_clean_since_mark 'admin command .* timed out|failed with error|probe of .* failed'
}

# bats test_tags=one-kernel
@test "unbind while a Format hangs: the unbind waits for format_timeout, the Format fails, the module unloads" {
	setup_attached
	ctrl=$(ssdt_ctrl)
	old=$(cat /sys/module/ssdtune/parameters/format_timeout)
	# long enough for the unbind to start while it waits (debug kernel: slow)
	fmt_s=6
	[ -z "${SSDT_VM_SLOW:-}" ] || fmt_s=40
	echo "$fmt_s" >/sys/module/ssdtune/parameters/format_timeout
	echo 1 >"$SSDT_DBG/${ctrl##*/}/drop_admin_completions"
	python3 "$SSDT_REPO/tests/vm/lib/genl-format.py" "${ctrl##*/ssdt}" 1 0 >"$SSDT_TMP/fmt.out" 2>&1 &
	fpid=$!
	# the Format is on the device (its completion was lost) before the unbind
	if ! wait_for 60 admin_completion_lost || ! kill -0 "$fpid"; then
		echo "the Format is not pending: $(cat "$SSDT_TMP/fmt.out")"
		dmesg_new | tail -n 20
		false
	fi
	start=$(date +%s)
	timeout 60 sh -c "echo $bdf >/sys/bus/pci/drivers/ssdtune/unbind"
	secs=$(($(date +%s) - start))
	echo "# unbind took $secs s" >&3
	wait "$fpid" || true
	echo "$old" >/sys/module/ssdtune/parameters/format_timeout
	echo "format: $(cat "$SSDT_TMP/fmt.out")"
	[ "$(cat "$SSDT_TMP/fmt.out")" = ETIMEDOUT ]
	dmesg_new | grep -q 'timed out: stopping the controller'
	# the unbind waited for the Format to end, not the other way round
	[ "$secs" -ge 2 ]
	no_ssdt_nodes
	sysfs_bind nvme "$bdf"
	module_unload
	module_load
	dmesg_clean_since_mark 'admin command .* timed out|Format NVM'
}

# knob_storm SECS WHO: read every file of the controller, or (WHO=w)
# write a random value, valid or not, to a random knob, for SECS seconds.
# Prints how many operations succeeded.
knob_storm() {
	local end=$((SECONDS + $1)) who=$2 ok=0 f v line
	local C=$ctrl
	local files=("$C"/* "$C"/queues/q*/*)
	local profiles=(off latency balanced iops adaptive bogus)
	local modes=(off host auto hw -1)
	# builtins only (read, echo, SECONDS): a fork costs a second on the
	# debug kernel, and the driver is what should be busy here
	while [ "$SECONDS" -lt "$end" ]; do
		if [ "$who" = r ]; then
			f=${files[RANDOM % ${#files[@]}]}
			[ -f "$f" ] && [ -r "$f" ] && read -r line <"$f" 2>/dev/null && ok=$((ok + 1))
			continue
		fi
		# one write in 40 moves poll queues: a drain and a reset each
		case $((RANDOM % 40 ? RANDOM % 6 : 6)) in
		0) f=coalesce_profile v=${profiles[RANDOM % 6]} ;;
		1) f=coalesce_mode v=${modes[RANDOM % 5]} ;;
		2) f=coalesce_threshold v=$((RANDOM % 300)) ;;
		3) f=coalesce_time_us v=$((RANDOM % 5000)) ;;
		4) f=power_limit_mw v=$((RANDOM % 2 * (20000 + RANDOM % 20000))) ;;
		5) f=power_limit_mode v=${modes[RANDOM % 5]} ;;
		*) f=poll_queues v=$((RANDOM % 3)) ;;
		esac
		{ echo "$v" >"$C/$f"; } 2>/dev/null && ok=$((ok + 1))
	done
	echo "$ok"
}

# 10 s: the 64 tasks made about 1000 reads and 1100 writes in 30 s under
# TCG, so in 10 s each still reads and writes about ten times, concurrent
# with all the others and with fio (about 4 in 5 random writes are valid).
# bats test_tags=one-kernel
@test "64 tasks read every file and write every knob for 10 s (30 s on the debug kernel) during fio verify: no splat, every file still answers, the module unloads" {
	local secs=10
	[ -z "${SSDT_VM_SLOW:-}" ] || secs=30
	setup_attached
	ctrl=$(ssdt_ctrl)
	pids=()
	for ((i = 0; i < 32; i++)); do
		knob_storm "$secs" r >"$SSDT_TMP/storm.r$i" &
		pids+=($!)
		knob_storm "$secs" w >"$SSDT_TMP/storm.w$i" &
		pids+=($!)
	done
	verify_while "${pids[0]}" --offset=400M
	# every task ends within 60 s (polled with kill -0: a timeout and a
	# tail for each of the 64 cost seconds of forks)
	end=$((SECONDS + 60))
	for p in "${pids[@]}"; do
		while kill -0 "$p" 2>/dev/null; do
			[ "$SECONDS" -lt "$end" ] || err "storm task $p still runs"
			sleep 0.2
		done
	done
	reads=$(cat "$SSDT_TMP"/storm.r* | awk '{ s += $1 } END { print s }')
	writes=$(cat "$SSDT_TMP"/storm.w* | awk '{ s += $1 } END { print s }')
	echo "# reads $reads, accepted writes $writes" >&3
	# about one write in 40 moved poll queues (a drain and a reset each)
	moves=$(dmesg_new | grep -c 'I/O queues: .* polled' || true)
	echo "# poll_queues changes: $moves" >&3
	[ "$moves" -ge 1 ]
	for ((i = 0; i < 32; i++)); do
		read -r r <"$SSDT_TMP/storm.r$i"
		read -r w <"$SSDT_TMP/storm.w$i"
		[ "$r" -gt 0 ]
		[ "$w" -gt 0 ]
	done
	for f in coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile power_limit_mw power_limit_mode poll_queues state; do
		cat "$ctrl/$f" >/dev/null
	done
	[ "$(trim "$ctrl/state")" = live ]
	echo off >"$ctrl/coalesce_mode"
	echo 0 >"$ctrl/power_limit_mw"
	echo auto >"$ctrl/power_limit_mode"
	teardown_stock
	module_load
	dmesg_clean_since_mark
}
