#!/usr/bin/env bats
# ssdtune apply --isolate and ssdtune run on the 2-node guest (NVMe on
# node 1, CPUs 2-3: one interrupt core, one I/O core): a real cgroup v2
# cpuset partition of the I/O core, the default IRQ affinity, host IRQs
# and workqueue masks off it; a task started with 'ssdtune run' runs only
# there while the rest stays off; revert (after a kill mid-apply, too)
# restores every value and removes the partition.

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
# not the controller's own vectors, which every profile steers).  One
# python process: a fork per file costs ~50-100 ms under TCG.
isolation_values() {
	local skip=""
	[ "${1:-}" != host ] || skip=$(ssdt_queue_irqs | awk '{ print $2 }' | tr '\n' ' ')
	python3 - "$skip" <<'PY'
import glob, os, sys
skip = set(sys.argv[1].split())
files = ["/proc/irq/default_smp_affinity"]
files += sorted(f for f in glob.glob("/proc/irq/*/smp_affinity_list")
                if f.split("/")[3] not in skip)
files += ["/sys/devices/virtual/workqueue/cpumask",
          "/sys/devices/virtual/workqueue/writeback/cpumask",
          "/sys/fs/cgroup/cgroup.subtree_control"]
files += sorted(glob.glob("/sys/devices/system/cpu/cpu*/power/pm_qos_resume_latency_us"))
for f in files:
    if os.path.exists(f):
        print(f, open(f).read().strip())
for d in sorted(glob.glob("/sys/fs/cgroup/*/")):
    print("cgroup", d)
PY
}

# allowed PID: the CPUs task PID may run on
allowed() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"; }

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
	[ "$(cat /sys/fs/cgroup/ssdtune/cpuset.cpus.partition)" = isolated ]
	[ "$(cat /sys/fs/cgroup/ssdtune/cpuset.cpus.effective)" = "$io" ]
	for c in $(expand_cpulist "$io"); do
		# neither this shell nor the unbound workqueues may use an I/O core
		[[ ",$(expand_cpulist "$(allowed $$)" | tr ' ' ,)," != *",$c,"* ]] ||
			{ echo "the test's shell may run on I/O core $c: $(allowed $$)"; false; }
		python3 - "$c" <<'PY'
import sys
c = int(sys.argv[1])
for f in ("/sys/devices/virtual/workqueue/cpumask",
          "/sys/devices/virtual/workqueue/writeback/cpumask",
          "/proc/irq/default_smp_affinity"):
    mask = int(open(f).read().strip().replace(",", ""), 16)
    assert not mask & (1 << c), "%s still has I/O core %d" % (f, c)
PY
	done
	# a task started with ssdtune run: only the I/O cores, and it runs there
	run --separate-stderr ssdt run --state-dir "$STATE" -- sh -c \
		'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup; awk "{ print \$39 }" /proc/self/stat'
	echo "$output"
	[ "$status" -eq 0 ] || { echo "run: $stderr"; false; }
	[ "$(echo "$output" | sed -n 1p | awk '{ print $2 }')" = "$io" ]
	[ "$(echo "$output" | sed -n 2p)" = "0::/ssdtune" ]
	[[ " $(expand_cpulist "$io") " == *" $(echo "$output" | sed -n 3p) "* ]]
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
	[ "$(allowed "$pid")" = "$(cat /sys/devices/system/cpu/online)" ]
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
