#!/usr/bin/env bats
# ssdtune plan/apply --isolate, verify, revert and run against the host
# fixtures (fixtures/mktopo.py).  A fixture directory is not cgroupfs (a
# mkdir there makes no cpuset files), so the apply tests take the cgroup
# root away and the partition itself is tested in the VM (45-tune.bats);
# its plan is in the golden files.

load ../helpers

STATE=

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	STATE=$BATS_TEST_TMPDIR/state
}

# 2 sockets with SMT, the NVMe on node 1, without a cgroup v2 root.
topo_no_cgroup() {
	make_topo 2s24c
	rm -rf "$FX/fs/cgroup"
}

@test "apply --isolate moves the default IRQ affinity, host IRQs and workqueues off the I/O cores, and sets PM QoS; revert restores all" {
	topo_no_cgroup
	before=$(fx_values)
	run --separate-stderr ssdt plan --profile latency --isolate --json
	[ "$status" -eq 0 ]
	io=$(json .io_cpus)
	[ "$io" = "25-47,73-95" ]
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# I/O cores 25-47,73-95 out of every mask: bits 25-31, 32-47, 73-95 clear
	[ "$(cat "$PFX/irq/default_smp_affinity")" = "000001ff,ffff0000,01ffffff" ]
	[ "$(cat "$FX/devices/virtual/workqueue/cpumask")" = "000001ff,ffff0000,01ffffff" ]
	[ "$(cat "$FX/devices/virtual/workqueue/writeback/cpumask")" = "000001ff,ffff0000,01ffffff" ]
	[ "$(cat "$PFX/irq/9/smp_affinity_list")" = "0-24,48-72" ]
	# all of IRQ 30's CPUs (30-39) are I/O cores: it goes to the others
	[ "$(cat "$PFX/irq/30/smp_affinity_list")" = "0-24,48-72" ]
	# read-only (kernel-managed or per-CPU): not touched
	[ "$(cat "$PFX/irq/8/smp_affinity_list")" = "0-95" ]
	[ "$(cat "$FX/devices/system/cpu/cpu25/power/pm_qos_resume_latency_us")" = 2 ]
	[ "$(cat "$FX/devices/system/cpu/cpu0/power/pm_qos_resume_latency_us")" = 0 ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	echo 0-95 >"$PFX/irq/9/smp_affinity_list"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[[ "$output" == *"drift  /proc/irq/9/smp_affinity_list: applied 0-24,48-72, now 0-95"* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_values)" = "$before" ]
}

@test "apply --isolate killed after each of the isolation writes, then revert, restores every value" {
	# 58 writes: the last five are the default affinity, IRQs 9 and 30 and
	# the two workqueue masks
	local n
	for n in 55 56 57; do
		topo_no_cgroup
		before=$(fx_values)
		rm -rf "$STATE"
		SSDTUNE_TEST_ABORT_AFTER=$n run ssdt apply --profile iops --isolate --state-dir "$STATE"
		[ "$status" -eq 137 ] || { echo "after $n writes: status $status"; false; }
		[ "$(fx_values)" != "$before" ]
		run --separate-stderr ssdt revert --state-dir "$STATE"
		[ "$status" -eq 0 ] || { echo "after $n writes: $stderr"; false; }
		[ "$(fx_values)" = "$before" ] || { echo "after $n writes: not restored"; false; }
	done
}

@test "latency --isolate then iops without it ends as a fresh iops, and back" {
	topo_no_cgroup
	save_fixture
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE.fresh"
	[ "$status" -eq 0 ]
	fresh_iops=$(fx_values)
	restore_fixture
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE.fresh2"
	[ "$status" -eq 0 ]
	fresh_iso=$(fx_values)
	restore_fixture
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(fx_values)" = "$fresh_iops" ]
	[ "$(cat "$PFX/irq/default_smp_affinity")" = "ffffffff,ffffffff,ffffffff" ]
	run --separate-stderr ssdt apply --profile latency --isolate --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_values)" = "$fresh_iso" ]
}

@test "apply --dry-run --isolate shows the partition's mkdir and cpuset writes, and writes nothing" {
	make_topo 2s24c
	before=$(fx_sum)
	run --separate-stderr ssdt apply --dry-run --profile iops --isolate --partition io.fast
	[ "$status" -eq 0 ]
	[[ "$output" == *"/sys/fs/cgroup/io.fast <- (mkdir)"* ]]
	[[ "$output" == *"/sys/fs/cgroup/io.fast/cpuset.cpus <- 27-47,75-95"* ]]
	[[ "$output" == *"/sys/fs/cgroup/io.fast/cpuset.cpus.partition <- isolated"* ]]
	[[ "$output" != *"cgroup.subtree_control <-"* ]]	# cpuset is on already
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$FX/fs/cgroup/io.fast" ]
}

@test "plan --isolate --json: the partition item has its path, old and new value" {
	make_topo 1s8c
	run --separate-stderr ssdt plan --profile latency --isolate --json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
p = json.load(sys.stdin)
c = {i["path"]: i for i in p["changes"] if i["action"] in ("set", "keep")}
part = c["/sys/fs/cgroup/ssdtune"]
assert part["old"] == "" and part["new"] == "cpus=2-7 partition=isolated", part
ctl = c["/sys/fs/cgroup/cgroup.subtree_control"]
assert ctl["old"] == "-cpuset" and ctl["new"] == "+cpuset", ctl
assert c["/proc/irq/16/smp_affinity_list"]["new"] == "0-1"
'
}

@test "bad isolation input: one line, exit status 2, nothing changed" {
	make_topo 2s24c
	before=$(fx_sum)
	run --separate-stderr ssdt apply --isolate --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--isolate needs the latency, iops or throughput profile"* ]]
	run --separate-stderr ssdt apply --profile iops --partition x --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	run --separate-stderr ssdt apply --profile iops --isolate --partition ../x --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--partition '../x': not a cgroup name"* ]]
	run --separate-stderr ssdt apply --profile iops --isolate --partition user.slice --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"/sys/fs/cgroup/user.slice exists and ssdtune did not create it"* ]]
	run --separate-stderr ssdt apply --profile bogus --isolate --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "run without an applied partition refuses with one line; its options end at the command" {
	make_topo 1s8c
	run --separate-stderr ssdt run --state-dir "$STATE" -- true
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"nothing applied"* ]]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt run --state-dir "$STATE" true --help
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"no cpuset partition applied: 'ssdtune apply --isolate --profile P' makes one (profile iops"* ]]
	run --separate-stderr ssdt run --json true
	[ "$status" -eq 2 ]
	run --separate-stderr ssdt run
	[ "$status" -eq 2 ]
}

@test "apply --boot writes the GRUB drop-in and runs update-grub; verify says it waits for a reboot; revert removes it and runs update-grub" {
	make_topo 2s24c
	grub_host
	run --separate-stderr ssdt apply --profile latency --boot --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	cfg=$ETC_DEFAULT/grub.d/ssdtune.cfg
	cat "$cfg"
	grep -qx 'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT isolcpus=managed_irq,domain,25-47,73-95 nohz_full=25-47,73-95 rcu_nocbs=25-47,73-95 irqaffinity=0-23,48-71"' "$cfg"
	[ "$(cat "$UPDATE_GRUB_LOG")" = update-grub ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pending /etc/default/grub.d/ssdtune.cfg: written, but the running kernel did not boot with isolcpus=managed_irq,domain,25-47,73-95 "*": reboot"* ]]
	[[ "${lines[-1]}" == *"wait (a vector's next interrupt, or a reboot)" ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ ! -e "$cfg" ] && [ -d "$ETC_DEFAULT/grub.d" ]	# grub.d was there before
	[ "$(cat "$UPDATE_GRUB_LOG")" = "update-grub
update-grub" ]
}

@test "apply --boot without update-grub writes nothing for boot and says what to add to the boot loader" {
	make_topo 2s24c
	# a PATH without update-grub (Debian's is in /usr/sbin)
	PATH=/usr/bin:/bin run --separate-stderr ssdt plan --profile iops --boot
	[ "$status" -eq 0 ]
	[[ "$output" == *"/etc/default/grub.d/ssdtune.cfg: skipped: no update-grub (not GRUB as Debian installs it): add to the boot loader's kernel command line: isolcpus=managed_irq,domain,27-47,75-95 "* ]]
	run --separate-stderr ssdt apply --profile balanced --boot
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--boot needs the latency, iops or throughput profile"* ]]
}
