#!/usr/bin/env bats
# Power limiting (issue 6) on QEMU's emulated NVMe, where feature 0x02 is not
# changeable and PS0 is the only state (25.00 W): the knobs, rejected writes,
# the host-side throttle under a saturating load, and data integrity while
# the limit changes.
#
# vm-kernels: one (the driver's energy model and throttle: its own logic, no
# kernel interface beyond 20-integrity's data path)

load lib/common
load lib/power

setup_file() {
	dmesg_mark
	setup_attached
}

setup() {
	C=$(ssdt_ctrl)
}

teardown_file() {
	teardown_stock
}

# Every fork costs ~0.1 s under TCG, and these tests read and write the
# knobs some hundred times: the helpers use builtins only.

# kset KNOB VALUE: write a knob of $C (pw_set looks the controller up anew
# each time, which takes three forks).
kset() {
	echo "$2" >"$C/$1" || err "writing '$2' to $C/$1 failed"
}

# kget KNOB: the knob's first line, whole, in $v.
kget() {
	v=""
	IFS= read -r v <"$C/$1" || [ -n "$v" ] || err "cannot read $C/$1"
}

# knob_is KNOB VALUE: the knob reads VALUE.
knob_is() {
	kget "$1" || return 1
	[ "$v" = "$2" ] || err "$1 is '$v', not '$2'"
}

# expect_errno KNOB VALUE MESSAGE: writing VALUE fails with MESSAGE (strerror).
expect_errno() {
	local out="" f=$SSDT_TMP/expect_errno.err
	if { printf '%s\n' "$2" >"$C/$1"; } 2>"$f"; then
		err "writing '$2' to $1 succeeded"
		return 1
	fi
	read -r out <"$f" || true
	[[ $out == *"$3"* ]] || { err "writing '$2' to $1: '$out', expected '$3'"; return 1; }
}

# knobs: the writable state in one line
knobs() {
	local k out=""
	for k in power_limit_mw power_limit_mode power_limit_active energy_model; do
		kget "$k" || return 1
		out="$out|$v"
	done
	echo "${out#|}"
}

@test "power knobs read back; auto means host on QEMU; counters and temperature are numbers" {
	kset power_limit_mw 0
	knob_is power_limit_active off
	grep -qx 'not-changeable 1' "$C/power_caps"
	grep -q '^ps0 operational max_w=25.000 ' "$C/power_states"
	knob_is power_state 0
	for m in hw host auto; do
		kset power_limit_mode $m
		knob_is power_limit_mode $m
	done
	kset energy_model "$PW_VM_MODEL"
	knob_is energy_model "$PW_VM_MODEL"
	kset energy_model "read_nj=123456"
	kget energy_model
	[[ $v == *" read_nj=123456 "* ]]
	kset energy_model "$PW_VM_MODEL"
	kset power_limit_mw 20000
	knob_is power_limit_mw 20000
	knob_is power_limit_active host
	kset power_limit_mode host
	knob_is power_limit_active host
	kset power_limit_mw 0
	knob_is power_limit_active off
	kset power_limit_mode auto
	for f in throttle_events throttled_us power_estimate_mw; do
		kget "$f"
		[[ $v =~ ^[0-9]+$ ]]
	done
	# idle: the estimate is the model's idle power plus next to nothing
	kget power_estimate_mw
	est=$v
	echo "idle estimate $est mW"
	[ "$est" -ge "$PW_VM_IDLE" ]
	[ "$est" -lt $((PW_VM_IDLE + 100)) ]
	kget temperature_mc
	t=$v
	echo "temperature $t mC"
	[[ $t =~ ^-?[0-9]+$ ]] && [ "$t" -gt -40000 ] && [ "$t" -lt 150000 ]
}

# Reads change nothing (issue 15, defect 8).  A read of power_estimate_mw
# less than 100 ms after the last one that folded gets that fold's value:
# before, every read folded, and a fast reader lost the energy of its
# short intervals (their weight rounds to 0).  energy_uj is computed, not
# stored, by a read: idle power over the time plus the model's price of
# each command.
@test "power reads change nothing: a storm of power_estimate_mw reads gets one value per 100 ms; energy_uj prices idle time and commands" {
	disk=$(ssdt_disk)
	kset power_limit_mw 0
	kset power_limit_mode auto
	kset energy_model "$PW_VM_MODEL"
	# idle: 1000 mW for dt us is dt uJ
	read -r e0 <"$C/energy_uj"
	t0=${EPOCHREALTIME/./}
	pw_sleep 1
	read -r e1 <"$C/energy_uj"
	t1=${EPOCHREALTIME/./}
	echo "idle: energy_uj +$((e1 - e0)) in $((t1 - t0)) us"
	[ $(((e1 - e0) * 100)) -ge $(((t1 - t0) * 90)) ]
	[ $(((e1 - e0) * 100)) -le $(((t1 - t0) * 110)) ]
	fio --name=s --filename="$disk" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=8 --size=256M --time_based --runtime=30 --randrepeat=0 \
		--output-format=json --output="$SSDT_TMP/storm.json" &
	pid=$!
	pw_wait_io "$C"
	pw_sleep 0.5
	read -r e0 <"$C/energy_uj"
	t0=${EPOCHREALTIME/./}
	pw_submitted "$C"
	n0=$PW_SUBMITTED
	# reads for 2 s, as fast as bash reads a file
	changes=0 prev= reads=0 t=$t0
	while [ $((t - t0)) -lt 2000000 ]; do
		read -r v <"$C/power_estimate_mw"
		[ "$v" = "$prev" ] || changes=$((changes + 1))
		prev=$v reads=$((reads + 1)) t=${EPOCHREALTIME/./}
	done
	pw_sleep 0.3
	read -r est <"$C/power_estimate_mw"
	read -r e1 <"$C/energy_uj"
	t1=${EPOCHREALTIME/./}
	pw_submitted "$C"
	n1=$PW_SUBMITTED
	kill -0 "$pid" || { echo "fio ended before the reads did"; false; }
	kill "$pid"
	wait "$pid" || true
	echo "$reads reads in $(((t - t0) / 1000)) ms: $changes values (at most $(((t - t0) / 100000 + 2)))"
	# more reads than values allowed, or the count below proves nothing
	# (a busy host gets about 10 reads a second through, an idle one 50)
	[ "$reads" -gt $(((t - t0) / 100000 + 2)) ]
	[ "$changes" -le $(((t - t0) / 100000 + 2)) ]
	# each of the n commands submitted costs 200000 nJ: 200 uJ
	n=$((n1 - n0))
	want=$((t1 - t0 + n * 200))
	mw=$(((e1 - e0) * 1000 / (t1 - t0)))
	echo "under fio: energy_uj +$((e1 - e0)) in $((t1 - t0)) us with $n commands (model: $want); mean $mw mW, estimate $est mW"
	[ "$n" -gt 100 ]
	[ $(((e1 - e0) * 100)) -ge $((want * 95)) ]
	[ $(((e1 - e0) * 100)) -le $((want * 105)) ]
	# the estimate after the storm is the power of the I/O, not idle's
	[ $((est * 2)) -ge "$mw" ]
	[ "$est" -le $((mw * 2)) ]
	[ "$est" -gt $((PW_VM_IDLE + 100)) ]
}

@test "invalid power writes fail with a clear errno and change nothing" {
	kset power_limit_mw 0
	kset power_limit_mode auto
	kset energy_model "$PW_VM_MODEL"
	before=$(knobs)
	for v in abc -1 12x "" 1000001 " 5" "5 5" 0x10 4294967296; do
		expect_errno power_limit_mw "$v" "Invalid argument"
	done
	for v in off fast hostx HOST "host host" ""; do
		expect_errno power_limit_mode "$v" "Invalid argument"
	done
	for v in bogus=1 idle_mw=abc idle_mw=1000001 idle_mw "read_nj=1 x=2" ""; do
		expect_errno energy_model "$v" "Invalid argument"
	done
	[ "$(knobs)" = "$before" ]
	# hw: no operational state at or under 10 W (PS0 is 25 W)
	kset power_limit_mode hw
	before=$(knobs)
	expect_errno power_limit_mw 10000 "Numerical result out of range"
	# PS0 fits 30 W, but QEMU does not let feature 0x02 change
	expect_errno power_limit_mw 30000 "Operation not supported"
	[ "$(knobs)" = "$before" ]
	# host: a limit at or under the idle power cannot be met
	kset power_limit_mode host
	before=$(knobs)
	expect_errno power_limit_mw "$PW_VM_IDLE" "Numerical result out of range"
	kset power_limit_mw 3000
	before=$(knobs)
	expect_errno energy_model "idle_mw=3000" "Numerical result out of range"
	[ "$(knobs)" = "$before" ]
	# CAP_SYS_ADMIN: root without it is refused
	run setpriv --bounding-set -sys_admin bash -c "echo 5000 >$C/power_limit_mw"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"Operation not permitted"* ]]
	[ "$(knobs)" = "$before" ]
	kset power_limit_mw 0
	kset power_limit_mode auto
}

# A limit at 20% of the unthrottled dynamic power: under half of it, so it
# stays binding even when the shared host slows the guest by 2x between
# runs (measured here: neighbouring unthrottled runs of 4817 vs 7243 and
# 11724 vs 6251 IOPS).  A limit above what the guest can do at that moment
# would not be a saturating load, and its estimate would say nothing about
# the throttle.  That IOPS fall with the limit compares runs, so it is
# measured by make bench-power (its "IOPS fall with the limit" line), not
# asserted here: this test asserts what the throttle does.
@test "host limit under saturating 4K random read: requests are delayed, the estimate is within 5% of the limit; limit 0 delays nothing" {
	disk=$(ssdt_disk)
	load="--rw=randread --bs=4k --iodepth=16 --numjobs=2 --size=512M"
	kset power_limit_mw 0
	kset power_limit_mode auto
	kset energy_model "$PW_VM_MODEL"
	pw_burst "$PW_VM_BURST_US"
	kget throttle_events
	ev0=$v
	l=$(pw_run free "$disk" 3 $load)
	echo "$l"
	dyn=$(($(pw_field "$l" est_mw) - PW_VM_IDLE))
	[ "$dyn" -gt 300 ] || { echo "unthrottled dynamic power only $dyn mW"; false; }
	for pct in 20 0; do
		lim=$((pct ? PW_VM_IDLE + dyn * pct / 100 : 0))
		kset power_limit_mw $lim
		kget throttle_events
		e0=$v
		l=$(pw_run "lim$pct" "$disk" 3 $load)
		kget throttle_events
		ev=$v
		echo "limit $lim mW: $l, $((ev - e0)) delayed"
		if [ "$pct" = 0 ]; then
			# 0 lifts the limit at once: nothing is delayed any more
			knob_is power_limit_active off
			[ "$ev" = "$e0" ] ||
				{ echo "requests were still delayed with limit 0"; false; }
			continue
		fi
		knob_is power_limit_active host
		[ "$ev" -gt "$e0" ] ||
			{ echo "nothing was delayed under $lim mW: not a saturating load"; false; }
		est=$(pw_field "$l" est_mw)
		[ $((est * 100)) -le $((lim * 105)) ] || { echo "estimate $est mW is over $lim mW + 5%"; false; }
		[ $((est * 100)) -ge $((lim * 95)) ] || { echo "estimate $est mW is under $lim mW - 5%"; false; }
	done
	kset power_limit_mw 0
	pw_burst 400
	kget throttle_events
	ev=$v
	kget throttled_us
	echo "throttle_events $ev0 -> $ev, throttled_us $v"
	[ "$v" -gt 0 ]
}

@test "fio crc32c verify passes while the limit changes 200 times" {
	disk=$(ssdt_disk)
	kset power_limit_mode auto
	kset energy_model "$PW_VM_MODEL"
	limits=(0 1500 3000 1200 2000)
	# fio must outlive the 200 writes below: they took more than 3 s on
	# 6.12 while fio verified 16M there (2800 IOPS), so 48M (24576 I/Os
	# with the verify, about 9 s at that rate, longer on 6.1)
	fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=16 --offset=0 \
		--size=48M >"$SSDT_TMP/pv.out" 2>&1 &
	pid=$!
	pw_wait_io "$C"
	n=0
	for ((i = 0; i < 200; i++)); do
		echo "${limits[i % 5]}" >"$C/power_limit_mw" && n=$((n + 1))
	done
	alive=0
	kill -0 "$pid" 2>/dev/null && alive=1
	rc=0
	wait "$pid" || rc=$?
	kset power_limit_mw 0
	cat "$SSDT_TMP/pv.out"
	echo "changes $n, fio still running after them: $alive, fio rc $rc"
	[ "$n" -eq 200 ]
	[ "$alive" -eq 1 ]
	[ "$rc" -eq 0 ]
}

@test "no kernel warnings or errors during the power tests" {
	dmesg_clean_since_mark
}
