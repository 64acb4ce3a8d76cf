#!/usr/bin/env bats
# ssdtune apply --isolate and ssdtune run on the 2-node guest (NVMe on
# node 1, CPUs 2-3: one interrupt core, one I/O core): a real cgroup v2
# cpuset partition of the I/O core, the default IRQ affinity, host IRQs
# and workqueue masks off it; a task started with 'ssdtune run' runs only
# there while the rest stays off; revert (after a kill mid-apply, too)
# restores every value and removes the partition.
#
# vm-kernels: both (cgroup v2 cpusets and isolation)

bats_require_minimum_version 1.5.0

load lib/common

STATE=$SSDT_TMP/isolate-state

setup_file() {
	setup_attached
}

teardown() {
	revert_state "$STATE"
}

teardown_file() {
	teardown_stock
}


# Every value isolation touches, as the host has it now (with "host":
# not the controller's own vectors, which every profile steers).  Shell
# builtins only: a fork per file costs ~50-100 ms under TCG, and a python
# start (what this was) seconds.  Each file holds one line.
isolation_values() {
	local skip=" " q irq f v d
	if [ "${1:-}" = host ]; then
		while read -r q irq; do skip+="$irq "; done < <(ssdt_queue_irqs)
	fi
	for f in /proc/irq/default_smp_affinity /proc/irq/*/smp_affinity_list \
		/sys/devices/virtual/workqueue/cpumask \
		/sys/devices/virtual/workqueue/writeback/cpumask \
		/sys/fs/cgroup/cgroup.subtree_control \
		/sys/devices/system/cpu/cpu*/power/pm_qos_resume_latency_us; do
		[ -e "$f" ] || continue
		if [[ $f == /proc/irq/*/smp_affinity_list ]]; then
			irq=${f#/proc/irq/}
			[[ $skip == *" ${irq%%/*} "* ]] && continue
		fi
		# an empty file (cgroup.subtree_control with no controller
		# enabled) is a value; a file that does not open is an error
		v=""
		{ read -r v || true; } <"$f" || { echo "cannot read $f" >&2; return 1; }
		echo "$f $v"
	done
	for d in /sys/fs/cgroup/*/; do
		[ -d "$d" ] && echo "cgroup $d"
	done
	return 0
}

# mask_has MASK CPU: the CPU mask MASK (hex, in comma-separated 32-bit
# groups, the last one CPUs 0-31) has CPU
mask_has() {
	local k
	local -a groups
	IFS=, read -ra groups <<<"$1"
	k=$((${#groups[@]} - 1 - $2 / 32))
	[ "$k" -ge 0 ] && (((0x${groups[k]} >> ($2 % 32)) & 1))
}

# allowed PID: the CPUs task PID may run on (builtins: an awk costs ~0.1 s
# under TCG)
allowed() {
	local k v
	while read -r k v; do
		[ "$k" = Cpus_allowed_list: ] && { echo "$v"; return 0; }
	done <"/proc/$1/status"
	return 1
}

@test "the guest has cgroup v2 with the cpuset controller" {
	[ -e /sys/fs/cgroup/cgroup.controllers ]
	grep -qw cpuset /sys/fs/cgroup/cgroup.controllers
}

@test "apply --isolate: an isolated partition of the I/O core; 'ssdtune run' tasks run only there, others and unbound workqueues stay off; revert restores all" {
	bdf=$(nvme_bdf)
	before=$(isolation_values)
	run --separate-stderr ssdt plan --profile latency --isolate --json "$bdf"
	[ "$status" -eq 0 ]
	io=$(py 'v["io_cpus"]')
	echo "I/O cores $io"
	[ -n "$io" ]
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE" "$bdf"
	echo "$output" | grep -v "^/proc/irq/[0-9]*/smp.*already" | tail -20
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	read -r partition </sys/fs/cgroup/ssdtune/cpuset.cpus.partition
	read -r effective </sys/fs/cgroup/ssdtune/cpuset.cpus.effective
	[ "$partition" = isolated ]
	[ "$effective" = "$io" ]
	mine=$(allowed $$)
	for c in $(expand_cpulist "$io"); do
		# neither this shell nor the unbound workqueues may use an I/O core
		[[ " $(expand_cpulist "$mine") " != *" $c "* ]] ||
			{ echo "the test's shell may run on I/O core $c: $mine"; false; }
		for f in /sys/devices/virtual/workqueue/cpumask \
			/sys/devices/virtual/workqueue/writeback/cpumask \
			/proc/irq/default_smp_affinity; do
			read -r mask <"$f"
			[[ $mask =~ ^[0-9a-f]+(,[0-9a-f]+)*$ ]] || { echo "$f: not a CPU mask: $mask"; false; }
			if mask_has "$mask" "$c"; then
				echo "$f still has I/O core $c: $mask"
				false
			fi
		done
	done
	# a task started with ssdtune run: only the I/O cores, and it runs there
	run --separate-stderr ssdt run --state-dir "$STATE" -- sh -c \
		'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup; awk "{ print \$39 }" /proc/self/stat'
	echo "$output"
	[ "$status" -eq 0 ] || { echo "run: $stderr"; false; }
	read -r _ ran_allowed <<<"${lines[0]}"
	[ "$ran_allowed" = "$io" ]
	[ "${lines[1]}" = "0::/ssdtune" ]
	[[ " $(expand_cpulist "$io") " == *" ${lines[2]} "* ]]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	echo "$output" | grep -v "^ok" || true
	[ "$status" -eq 0 ]

	# a workload still in the partition: revert refuses, --force moves it
	"$SSDT_TOOL" run --state-dir "$STATE" -- sleep 30 &
	pid=$!
	wait_for 5 grep -qx "$pid" /sys/fs/cgroup/ssdtune/cgroup.procs
	run --separate-stderr ssdt revert --state-dir "$STATE"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"/sys/fs/cgroup/ssdtune: tasks still run in it"* ]]
	[ -d /sys/fs/cgroup/ssdtune ]
	run --separate-stderr ssdt revert --force --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "revert --force: $stderr"; false; }
	[ ! -e /sys/fs/cgroup/ssdtune ]
	read -r online </sys/devices/system/cpu/online
	[ "$(allowed "$pid")" = "$online" ]
	kill "$pid"
	wait "$pid" || true
	after=$(isolation_values)
	diff <(echo "$before") <(echo "$after")
}

@test "apply --isolate killed before and after the partition write, then revert, restores every value" {
	bdf=$(nvme_bdf)
	before=$(isolation_values)
	# the writes apply makes (the kill hook counts them): the plan's
	# changes but the host IRQs the kernel refuses (managed, on 6.1)
	run --separate-stderr ssdt apply --json --profile iops --isolate --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ]
	n=$(py 'sum(1 for c in v["changes"] if c["action"] == "set") - v["refused_irqs"]')
	echo "$n writes"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(isolation_values)" = "$before" ]
	for k in $((n - 2)) $((n - 1)) "$n"; do
		rm -rf "$STATE"
		SSDTUNE_TEST_ABORT_AFTER=$k run ssdt apply --profile iops --isolate --state-dir "$STATE" "$bdf"
		[ "$status" -eq 137 ] || { echo "after $k writes: status $status"; false; }
		run --separate-stderr ssdt revert --state-dir "$STATE"
		[ "$status" -eq 0 ] || { echo "after $k writes: revert: $stderr"; false; }
		[ "$(isolation_values)" = "$before" ] ||
			{ echo "after $k writes:"; diff <(echo "$before") <(isolation_values); false; }
	done
}

@test "latency --isolate then iops without it: the partition and the moved values go, the iops settings stay" {
	bdf=$(nvme_bdf)
	before=$(isolation_values host)
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ]
	[ -d /sys/fs/cgroup/ssdtune ]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ ! -e /sys/fs/cgroup/ssdtune ]
	[ "$(isolation_values host)" = "$before" ] ||
		{ diff <(echo "$before") <(isolation_values host); false; }
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
}
