#!/usr/bin/env bats
# Four controllers on ssdtune at once, two per node (the boot of
# scripts/vm.sh --many: serials ssdt01 and ssdt11 on node 1, ssdt12 and
# ssdt13 on node 0): one attach and one detach for all of them, fio
# verify on all at once, every profile applied, verified and reverted
# exactly, a configuration file that selects all four (attach, apply and
# verify --config), status and metrics of all four, and a timeout, a function
# reset and an unbind on one controller while the other three keep
# serving and verify clean.
#
# In make check on the last kernel, in make check-full on each
# (scripts/vm-test.sh: the many boot).

bats_require_minimum_version 1.5.0

load ../lib/common

STATE=$SSDT_TMP/many-state

# bdf_of SERIAL: the PCI address of the controller with that serial.
bdf_of() { SSDT_VM_NVME_SERIAL=$1 nvme_bdf; }

# ctrl_of SERIAL, disk_of SERIAL: its /sys/class/ssdtune/ssdtN and
# /dev/ssdtNn1 while ssdtune drives it.
ctrl_of() { SSDT_VM_NVME_SERIAL=$1 ssdt_ctrl; }
disk_of() { SSDT_VM_NVME_SERIAL=$1 ssdt_disk; }

# all_bdfs: the four PCI addresses, in the order of SSDT_VM_MANY.
all_bdfs() {
	local s
	for s in $SSDT_VM_MANY; do bdf_of "$s" || return 1; done
}

# fio_disks OFFSET DISK...: one fio run, a job per disk, all at once:
# random 4K writes then a crc32c read-back of each disk's 8 MiB at OFFSET.
fio_disks() {
	local off=$1 d n=0 args=() out=$SSDT_TMP/fio-many.$$.out rc
	shift
	for d; do
		args+=(--name="d$n" --filename="$d")
		n=$((n + 1))
	done
	timeout 300 fio --direct=1 --ioengine=libaio --rw=randwrite --bs=4k \
		--iodepth=16 --size=8M --offset="$off" --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --verify_dump=0 \
		--output="$out" "${args[@]}"
	rc=$?
	grep -E 'err=|verify' "$out" || true
	[ "$rc" -eq 0 ] || { cat "$out"; err "fio exited $rc"; return 1; }
	refute grep -Eq 'err= *[1-9]|verify: bad|crc32c: verify failed|bad magic' "$out"
}

# verify_disks_while PID DISK...: fio_disks runs, one after the other, while
# process PID lives (at least one, at most 20).
verify_disks_while() {
	local pid=$1 runs=0
	shift
	while :; do
		fio_disks $((64 + 8 * (runs % 8)))M "$@" || return 1
		runs=$((runs + 1))
		kill -0 "$pid" 2>/dev/null || break
		[ "$runs" -lt 20 ] || break
	done
	echo "# fio verify runs over ${#@} disks: $runs" >&3
}

# others DISKVAR: the disks of the controllers but the first (ssdt01),
# into the array DISKVAR.
others() {
	local -n out=$1
	local s
	out=()
	for s in ${SSDT_VM_MANY#* }; do out+=("$(disk_of "$s")") || return 1; done
}

# no_resets_but BDF: no controller other than BDF was halted or reset
# since dmesg_mark.
no_resets_but() {
	local l
	l=$(dmesg_new | grep -E 'ssdtune [0-9a-f:.]+: (halted for|reset done|.*timed out)' | grep -v "ssdtune $1:" || true)
	[ -z "$l" ] || { echo "$l"; err "another controller than $1 was reset"; return 1; }
}

# snapshot: every queue vector's affinity and every knob of the four
# controllers, a line each (what revert must bring back byte for byte).
snapshot() {
	local s c q irq raw f
	for s in $SSDT_VM_MANY; do
		c=$(ctrl_of "$s") || return 1
		for f in coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile \
			 power_limit_mw power_limit_mode poll_queues; do
			printf '%s %s %s\n' "$s" "$f" "$(cat "$c/$f")"
		done
		while read -r q irq; do
			raw=""
			IFS= read -r -d '' raw <"/proc/irq/$irq/smp_affinity_list" || true
			printf '%s %s irq %s %q\n' "$s" "$q" "$irq" "$raw"
		done < <(SSDT_VM_NVME_SERIAL=$s ssdt_queue_irqs)
	done
}

setup_file() {
	[ -n "${SSDT_VM_MANY:-}" ] || err "this file needs the VM of scripts/vm.sh --many" || return 1
	udevadm settle -t "$SETTLE_S"
	module_load || return 1
	# the addresses, while nvme can still tell each serial
	all_bdfs >"$SSDT_TMP/many.bdfs" || return 1
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}

teardown() {
	revert_state "$STATE"
}

teardown_file() {
	local b rc=0
	for b in $(cat "$SSDT_TMP/many.bdfs"); do
		sysfs_bind nvme "$b" || rc=1
	done
	module_unload || rc=1
	return $rc
}

@test "attach hands all four controllers to ssdtune in one command, two on each node" {
	mapfile -t bdfs <"$SSDT_TMP/many.bdfs"
	[ "${#bdfs[@]}" -eq 4 ]
	run --separate-stderr ssdt attach "${bdfs[@]}"
	printf '%s\n' "$output"
	[ "$status" -eq 0 ] || { echo "attach: $stderr"; false; }
	[ "${#lines[@]}" -eq 4 ]
	for i in 0 1 2 3; do
		[[ "${lines[$i]}" == "attached ${bdfs[$i]} as ssdt"*": /dev/ssdt"*n1 ]]
		[ "$(pci_driver "${bdfs[$i]}")" = ssdtune ]
	done
	udevadm settle -t "$SETTLE_S"
	nodes=""
	for s in $SSDT_VM_MANY; do
		wait_for 30 disk_of "$s" >/dev/null
		nodes="$nodes $(trim "$(ctrl_of "$s")/numa_node")"
	done
	echo "nodes:$nodes"
	[ "$nodes" = " 1 1 0 0" ]
}

@test "fio verify on all four at once: every controller's queues carry I/O, no error" {
	disks=()
	for s in $SSDT_VM_MANY; do disks+=("$(disk_of "$s")"); done
	declare -A before
	for s in $SSDT_VM_MANY; do
		ctrl=$(ctrl_of "$s") io_counter_v completed
		before[$s]=$IO_SUM
	done
	dmesg_mark
	fio_disks 0 "${disks[@]}"
	for s in $SSDT_VM_MANY; do
		ctrl=$(ctrl_of "$s") io_counter_v completed
		echo "$s: $((IO_SUM - ${before[$s]})) completions"
		# 8 MiB of 4K writes and as many reads
		[ $((IO_SUM - ${before[$s]})) -ge 4096 ]
	done
	dmesg_clean_since_mark
}

@test "apply, verify and revert of every profile over the four controllers: each revert exact" {
	before=$(snapshot)
	for p in latency iops throughput balanced; do
		echo "== $p"
		run --separate-stderr ssdt apply --profile "$p" --state-dir "$STATE" --json
		[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
		# every controller is in the applied state
		for b in $(cat "$SSDT_TMP/many.bdfs"); do
			grep -q "$b" "$STATE/state.json" || { echo "$b not in the applied state"; false; }
		done
		# it changed something on every controller
		applied=$(snapshot)
		for s in $SSDT_VM_MANY; do
			[ "$(grep "^$s " <<<"$applied")" != "$(grep "^$s " <<<"$before")" ] ||
				{ echo "$p changed nothing on $s"; false; }
		done
		run --separate-stderr ssdt verify --state-dir "$STATE"
		printf '%s\n' "$output" | tail -3
		[ "$status" -eq 0 ] || { echo "verify ($p): $stderr"; false; }
		cp "$STATE/state.json" "$SSDT_TMP/many-state.$p.json"
		run --separate-stderr ssdt revert --state-dir "$STATE"
		[ "$status" -eq 0 ] || { echo "revert ($p): $stderr"; false; }
		[ ! -e "$STATE/state.json" ]
		after=$(snapshot)
		[ "$after" = "$before" ] || { diff <(echo "$before") <(echo "$after"); false; }
	done
}

@test "status and metrics show all four controllers" {
	run --separate-stderr ssdt status --json
	[ "$status" -eq 0 ] || { echo "status: $stderr"; false; }
	printf '%s' "$output" | json_schema_ok status
	for b in $(cat "$SSDT_TMP/many.bdfs"); do
		[ "$(py "[c['driver'] for c in v['controllers'] if c['pci_address'] == '$b']")" = "['ssdtune']" ]
	done
	run --separate-stderr ssdt metrics
	[ "$status" -eq 0 ] || { echo "metrics: $stderr"; false; }
	n=$(printf '%s\n' "$output" | sed -n 's/^ssdtune_controller_info{.*controller="\(ssdt[0-9]*\)".*/\1/p' | sort -u | wc -l)
	echo "controllers in ssdtune_controller_info: $n"
	[ "$n" -eq 4 ]
}

@test "a lost completion times out on one controller while the other three keep serving: its read returns the data, theirs verify clean" {
	a=$(bdf_of ssdt01)
	ctrl=$(ctrl_of ssdt01)
	disk=$(disk_of ssdt01)
	others disks
	hook=/sys/kernel/debug/ssdtune/${ctrl##*/}/drop_completions
	tmo=/sys/block/${disk##*/}/queue/io_timeout
	old=$(cat "$tmo")
	echo 1000 >"$tmo"
	head -c 64k /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$disk" bs=64k seek=1000 oflag=direct conv=fsync status=none
	dmesg_mark
	echo 1 >"$hook"
	dd if="$disk" of="$SSDT_TMP/back" bs=64k skip=1000 count=1 iflag=direct status=none &
	rpid=$!
	verify_disks_while "$rpid" "${disks[@]}"
	wait "$rpid"
	echo "$old" >"$tmo"
	dmesg_new | grep -E 'dropping|timed out|reset done'
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	dmesg_new | grep -q "ssdtune $a: .*reset done"
	no_resets_but "$a"
	[ "$(trim "$ctrl/state")" = live ]
	fio_disks 128M "$disk"
}

@test "a function reset of one controller under I/O while the other three keep serving: all four verify clean" {
	a=$(bdf_of ssdt01)
	ctrl=$(ctrl_of ssdt01)
	others disks
	dmesg_mark
	(for i in 1 2; do io_flows || exit 1; echo 1 >"/sys/bus/pci/devices/$a/reset" || exit 1; done) &
	rpid=$!
	verify_disks_while "$rpid" "$(disk_of ssdt01)" "${disks[@]}"
	wait "$rpid"
	held_through 'a function reset' 2
	no_resets_but "$a"
}

@test "an unbind of one controller while the other three keep serving: they verify clean, and it comes back on a bind" {
	a=$(bdf_of ssdt01)
	others disks
	dmesg_mark
	# once the others' I/O is in flight
	(ctrl=$(ctrl_of ssdt11) io_flows && echo "$a" >/sys/bus/pci/drivers/ssdtune/unbind) &
	upid=$!
	verify_disks_while "$upid" "${disks[@]}"
	wait "$upid"
	[ "$(pci_driver "$a")" = none ]
	no_resets_but "$a"
	echo "$a" >/sys/bus/pci/drivers/ssdtune/bind
	[ "$(pci_driver "$a")" = ssdtune ]
	wait_for 30 disk_of ssdt01 >/dev/null
	udevadm settle -t "$SETTLE_S"
	fio_disks 0 "$(disk_of ssdt01)" "${disks[@]}"
	dmesg_clean_since_mark
}

@test "a configuration of the four serials: attach --config takes them all from nvme, apply --config tunes them all, verify --config holds, revert restores" {
	mapfile -t bdfs <"$SSDT_TMP/many.bdfs"
	conf=$SSDT_TMP/many.conf
	{
		for s in $SSDT_VM_MANY; do echo "controller = serial:$s"; done
		echo "profile = iops"
	} >"$conf"
	for b in "${bdfs[@]}"; do sysfs_bind nvme "$b"; done
	run --separate-stderr ssdt attach --config "$conf" --json
	[ "$status" -eq 0 ] || { echo "attach --config: $stderr"; false; }
	[ "$(py 'sorted(a["status"] for a in v["attached"])')" = "['attached', 'attached', 'attached', 'attached']" ]
	for b in "${bdfs[@]}"; do [ "$(pci_driver "$b")" = ssdtune ]; done
	for s in $SSDT_VM_MANY; do wait_for 30 disk_of "$s" >/dev/null; done
	udevadm settle -t "$SETTLE_S"
	before=$(snapshot)
	run --separate-stderr ssdt apply --config "$conf" --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "apply --config: $stderr"; false; }
	for b in "${bdfs[@]}"; do grep -q "$b" "$STATE/state.json"; done
	run --separate-stderr ssdt verify --config "$conf" --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "verify --config: $stderr"; false; }
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "revert: $stderr"; false; }
	[ "$(snapshot)" = "$before" ]
}

@test "detach gives all four back to nvme in one command" {
	mapfile -t bdfs <"$SSDT_TMP/many.bdfs"
	run --separate-stderr ssdt detach "${bdfs[@]}"
	printf '%s\n' "$output"
	[ "$status" -eq 0 ] || { echo "detach: $stderr"; false; }
	[ "${#lines[@]}" -eq 4 ]
	for i in 0 1 2 3; do
		[[ "${lines[$i]}" == "detached ${bdfs[$i]} from ssdt"*": bound to nvme" ]]
	done
	for s in $SSDT_VM_MANY; do
		SSDT_VM_NVME_SERIAL=$s wait_for 30 nvme_disk >/dev/null
	done
	udevadm settle -t "$SETTLE_S"
	no_ssdt_nodes
}
