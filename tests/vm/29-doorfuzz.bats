#!/usr/bin/env bats
# Generated input at the driver's doors (tests/vm/lib/doorfuzz.py): the NVMe
# ioctls on /dev/ssdtN and the disk, the generic netlink family, and every
# knob from several writers at once, while fio verify runs; then netlink
# input while the controller detaches and attaches.  Pass: no kernel
# report (KASAN, lockdep, WARNING, BUG, hung task), verify clean, no
# refused knob write changed its knob, no input reset the controller but
# those meant to (NVME_IOCTL_RESET, I/O passthrough with a 1 or 100 ms
# timeout, a poll_queues write; the kernel log after every ioctl and
# netlink input), and the controller still detaches, attaches and unloads.  SSDT_FUZZ_COUNT inputs (default 2000; on the
# debug kernel of make check-debug 100000), seed SSDT_FUZZ_SEED (default:
# 4242 in make check, the clock in check-full and check-debug); each
# input is logged before it is sent to $SSDT_RESULTS/doorfuzz-SEED.log,
# and a failure prints the command that replays it.
#
# vm-kernels: one (the ioctls and netlink are the kernel's, but the
# fuzzer finds the driver's mistakes: a smoke run on one kernel in make
# check, both in check-full; the long run is check-debug's, under KASAN,
# lockdep and kmemleak)

load lib/common

FUZZ=$SSDT_REPO/tests/vm/lib/doorfuzz.py

setup_file() {
	setup_attached
	# make check, the gate CI runs, replays one seed (its first 2000
	# inputs passed on both kernels); check-full and check-debug, run by
	# hand, draw a new one from the clock
	SEED=4242
	[ "${SSDT_VM_SCOPE:-check}" = check ] && [ -z "${SSDT_VM_SLOW:-}" ] || SEED=$(date +%s)
	SEED=${SSDT_FUZZ_SEED:-$SEED}
	COUNT=2000
	[ -z "${SSDT_VM_SLOW:-}" ] || COUNT=100000	# the debug kernel
	COUNT=${SSDT_FUZZ_COUNT:-$COUNT}
	export SEED COUNT
	# the knobs as attach left them, put back at the end
	c=$(ssdt_ctrl)
	: >"$SSDT_TMP/fuzz-knobs"
	for k in $(sed -n 's/^SSDTUNE_KNOB(\([a-z_]*\),.*/\1/p' "$SSDT_REPO/include/uapi/linux/ssdtune_knobs.h"); do
		[ -e "$c/$k" ] && echo "$k $(cat "$c/$k")" >>"$SSDT_TMP/fuzz-knobs"
	done
	return 0
}

teardown_file() {
	teardown_stock
}

replay() {
	echo "replay the run: SSDT_FUZZ_SEED=$SEED SSDT_FUZZ_COUNT=$COUNT scripts/vm.sh $SSDT_VM_KVER --" \
		"tests/vm/run-suite.sh tests/vm/29-doorfuzz.bats"
	echo "replay one input I (the last lines of $SSDT_RESULTS/doorfuzz-$SEED.log) in the guest:" \
		"tests/vm/lib/doorfuzz.py --seed $SEED --only I CTRL_DEV NS_DEV /sys/class/ssdtune/ssdtN"
}

@test "generated ioctls, netlink requests and knob writes during fio verify: no kernel report, verify clean, refused writes change nothing, no reset but where meant; the controller detaches and attaches" {
	local c disk fz rc=0 k v runs=0
	c=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	dmesg_mark
	python3 "$FUZZ" --seed "$SEED" --count "$COUNT" --log "$SSDT_RESULTS/doorfuzz-$SEED.log" \
		"${disk%n1}" "$disk" "$c" >"$SSDT_TMP/fuzz.out" 2>&1 &
	fz=$!
	# fio verify, 8 MiB at a time, below the last 64 MiB (the fuzzer's),
	# for as long as the fuzzer runs
	while kill -0 "$fz" 2>/dev/null; do
		fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=16 \
			--offset=$(((runs % 100) * 8))M --size=8M >"$SSDT_TMP/fuzz-fio.out" 2>&1 ||
			{ cat "$SSDT_TMP/fuzz-fio.out"; kill "$fz"; replay; false; }
		runs=$((runs + 1))
	done
	wait "$fz" || rc=$?
	sed "s/^/# /" "$SSDT_TMP/fuzz.out" >&3
	echo "# fio verify runs: $runs" >&3
	[ "$rc" -eq 0 ] || { replay; false; }
	dmesg_no_reports || { replay; false; }
	# what the fuzz wrote, put back; the controller still works
	while read -r k v; do
		echo "$v" >"$c/$k" || echo "cannot put back $k=$v"
	done <"$SSDT_TMP/fuzz-knobs"
	[ "$(trim "$c/state")" = live ]
	detach
	attach
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=600M --size=8M
}

@test "generated netlink requests while the controller detaches and attaches: no kernel report; the module unloads" {
	local c pid rc=0 n=0
	c=$(ssdt_ctrl)
	dmesg_mark
	(for _ in 1 2 3; do detach && attach || exit 1; done) &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 50 ]; do
		python3 "$FUZZ" --seed "$SEED-$n" --count 200 --doors netlink --no-reset-check \
			/dev/null /dev/null "$c" >/dev/null || rc=$?
		[ "$rc" -eq 0 ] || break
		n=$((n + 1))
	done
	wait "$pid"
	echo "# $n netlink runs of 200 inputs" >&3
	[ "$rc" -eq 0 ] || { echo "seed $SEED-$n"; false; }
	dmesg_no_reports
	detach
	module_unload
}
