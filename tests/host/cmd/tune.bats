#!/usr/bin/env bats
# ssdtune plan, apply, verify, revert against the host fixtures
# (fixtures/mktopo.py) mounted over /sys, /proc/irq and /proc/interrupts.
# Golden plans: golden/plan-FIXTURE-PROFILE.txt, and with --isolate
# golden/plan-FIXTURE-PROFILE-isolate.txt (golden/regen.sh).

load ../helpers

GOLDEN=$BATS_TEST_DIRNAME/../golden
STATE=

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	STATE=$BATS_TEST_TMPDIR/state
}

# queue_dirs: 4n128c's ssdt0 gets queues/qK/{irq,cpus} (K 0-8: vector K,
# each I/O queue submitted to from the CPU its vector is on)
queue_dirs() {
	local k q=$FX/class/ssdtune/ssdt0/queues
	for k in 0 1 2 3 4 5 6 7 8; do
		mkdir -p "$q/q$k"
		echo $((300 + k)) >"$q/q$k/irq"
		if [ "$k" = 0 ]; then echo >"$q/q$k/cpus"; else cp "$PFX/irq/$((300 + k))/smp_affinity_list" "$q/q$k/cpus"; fi
	done
}

py() {
	printf '%s' "$output" | python3 -c "import json,sys; v=json.load(sys.stdin); print($1)"
}

# golden FIXTURE: every profile's plan equals its golden file.  The
# fixture is replayed as a recorded host (--root), as a user replays one.
golden() {
	local prof
	make_topo "$1"
	export SSDTUNE_STATE_DIR=$BATS_TEST_TMPDIR/default-state
	for prof in latency iops throughput balanced; do
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile "$prof"
		[ "$status" -eq 0 ] || { echo "$prof: status $status: $stderr"; return 1; }
		diff -u "$GOLDEN/plan-$1-$prof.txt" <(printf '%s\n' "$output" |
			grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance') || { echo "$1 $prof differs"; return 1; }
		[ "$prof" != balanced ] || continue
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile "$prof" --isolate
		[ "$status" -eq 0 ] || { echo "$prof --isolate: status $status: $stderr"; return 1; }
		diff -u "$GOLDEN/plan-$1-$prof-isolate.txt" <(printf '%s\n' "$output" |
			grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance') || { echo "$1 $prof --isolate differs"; return 1; }
	done
}

# fire IRQ: its count in /proc/interrupts grows by one (on the first CPU).
fire() {
	python3 - "$PFX/interrupts" "$1" <<'PY'
import re, sys
path, irq = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
for i, l in enumerate(lines):
    m = re.match(r"( *%s: +)(\d+)" % irq, l)
    if m:
        lines[i] = m.group(1) + str(int(m.group(2)) + 1) + l[m.end():]
open(path, "w").write("\n".join(lines))
PY
}

# What the kernel does once a vector fires: its effective affinity becomes
# one CPU of the requested mask.
follow_effective() {
	local d a
	for d in "$PFX"/irq/[0-9]*; do
		[ -e "$d/smp_affinity_list" ] || continue
		a=$(cat "$d/smp_affinity_list")
		printf '%s\n' "${a%%[,-]*}" >"$d/effective_affinity_list"
	done
}

# A plan a person reads: what is set alike on many CPUs, or skipped alike
# for many vectors, is one line; --verbose and --json keep every item.
@test "plan groups settings made alike per CPU and skipped vectors; --verbose and --json list each" {
	make_topo 2s24c
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 0 ]
	grouped=$output
	[ "$(printf '%s\n' "$grouped" | grep -cE '/cpu[0-9]+/|/policy[0-9]+/|/proc/irq/2(0[1-9]|1[0-6])/' || true)" -eq 0 ]
	[[ "$grouped" == *"/sys/devices/system/cpu/cpuN/cpuidle/state2/disable on CPUs 24-47,72-95: 0 -> 1  (C1E: exit latency 10 us > 2 us (latency profile))"* ]]
	[[ "$grouped" == *"/sys/devices/system/cpu/cpufreq/policyN/scaling_governor on CPUs 24-47,72-95: performance already  (no frequency scaling (latency profile))"* ]]
	[[ "$grouped" == *"/sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us on CPUs 25-47,73-95: 0 -> 2  ("* ]]
	[[ "$grouped" == *"/proc/irq/N/smp_affinity_list on 16 vectors of 0000:81:00.0 (1-16, IRQs 201-216): skipped: not steerable, not moved: "* ]]
	# a line that stands alone keeps its own name
	[[ "$grouped" == *"/proc/irq/200/smp_affinity_list: 0-95 -> 24,72  (nvme0q0 (0000:81:00.0 vector 0): "* ]]
	[ "$(printf '%s\n' "$grouped" | wc -l)" -le 30 ]
	[ "$(printf '%s\n' "$grouped" | tail -n 1)" = "147 to change, 51 already set, 16 skipped" ]
	run --separate-stderr ssdt plan --profile latency --verbose
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '/cpuidle/state2/disable: 0 -> 1')" -eq 48 ]
	[ "$(printf '%s\n' "$output" | grep -c 'smp_affinity_list: skipped: ')" -eq 16 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -ge 200 ]
	run --separate-stderr ssdt plan --profile latency --json
	[ "$(py 'len([c for c in v["changes"] if c["action"] != "note"])')" -eq $((147 + 51 + 16)) ]
}

@test "golden plans: one socket, 8 cores, no SMT (4 profiles, 3 isolated)" {
	golden 1s8c
}

@test "golden plans: two sockets with SMT, NVMe on node 1 (4 profiles, 3 isolated)" {
	golden 2s24c
}

@test "golden plans: four nodes, NVMe on ssdtune (node 1) and nvme (node 3) (4 profiles, 3 isolated)" {
	golden 4n128c
}

@test "golden plans: VM without cpufreq and cpuidle (4 profiles, 3 isolated)" {
	golden vm
}

@test "plan puts interrupt cores on the device's node, apart from the I/O cores, siblings together" {
	make_topo 2s24c
	run --separate-stderr ssdt plan --profile latency --json
	[ "$status" -eq 0 ]
	[ "$(py 'v["devices"][0]["numa_node"]')" = 1 ]
	[ "$(py 'v["devices"][0]["irq_cpus"]')" = "24,72" ]
	[ "$(py 'v["devices"][0]["io_cpus"]')" = "25-47,73-95" ]
	[ "$(py '[c["new"] for c in v["changes"] if c.get("path") == "/proc/irq/200/smp_affinity_list"][0]')" = "24,72" ]
}

@test "plan --json lists the same changes as the text plan --verbose" {
	make_topo 4n128c
	run --separate-stderr ssdt plan --profile iops --verbose
	[ "$status" -eq 0 ]
	text=$(printf '%s\n' "$output" | grep -E '^/[^ ]*: .* -> ' | sed 's/  (.*//')
	run --separate-stderr ssdt plan --profile iops --json
	[ "$status" -eq 0 ]
	json=$(py '"\n".join("%s: %s -> %s" % (c["path"], c["old"], c["new"]) for c in v["changes"] if c["action"] == "set")')
	[ -n "$text" ]
	[ "$text" = "$json" ]
}

@test "plan reports kernel-managed vectors as not steerable and apply leaves them alone" {
	make_topo 2s24c
	run --separate-stderr ssdt plan --profile latency --json
	[ "$(py 'sum(1 for c in v["changes"] if c["action"] == "skip" and "not steerable" in c["reason"])')" = 16 ]
	[ "$(py 'v["devices"][0]["managed_vectors"]')" = 16 ]
	before=$(cat "$PFX"/irq/20[1-9]/smp_affinity_list "$PFX"/irq/21*/smp_affinity_list | md5sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$PFX"/irq/20[1-9]/smp_affinity_list "$PFX"/irq/21*/smp_affinity_list | md5sum)" = "$before" ]
	[ "$(cat "$PFX/irq/200/smp_affinity_list")" = "24,72" ]
	! grep -q '"/proc/irq/201/' "$STATE/state.json"
}

@test "plan on a VM reports cpufreq, cpuidle and turbo as skipped: not present" {
	make_topo vm
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 0 ]
	[[ "$output" == *"/sys/devices/system/cpu/cpuidle: skipped: not present"* ]]
	[[ "$output" == *"/sys/devices/system/cpu/cpufreq: skipped: not present"* ]]
	[[ "$output" == *"skipped: not present: turbo skipped"* ]]
}

@test "irqbalance outside systemd: the plan says how to run it, keeping the boot-isolated CPUs banned" {
	make_topo 4n128c
	cp /bin/sleep "$BATS_TEST_TMPDIR/irqbalance"
	"$BATS_TEST_TMPDIR/irqbalance" 30 3>&- &
	FAKE_PID=$!
	wait_comm "$FAKE_PID" irqbalance
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 0 ]
	line=$(printf '%s\n' "$output" | grep '^note: irqbalance')
	[[ "$line" == *"is not systemd's irqbalance.service, so ssdtune cannot restart it"* ]]
	[[ "$line" == *"--banirq=300 --banirq=301"* ]]
	# the I/O cores and isolcpus/nohz_full (60-63,124-127), which the
	# variable takes over from irqbalance's own ban
	[[ "$line" == *"IRQBALANCE_BANNED_CPULIST=17-31,49-63,81-95,113-127"* ]]
	[[ "$output" != *"irqbalance.service.d"* ]]
}

@test "irqbalance.service: apply writes a drop-in that bans the vectors and the I/O cores and restarts it; verify checks it; revert removes it and restarts it" {
	make_topo 2s24c
	irqbalance_unit_start
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" 0000:81:00.0
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	conf=$SYSTEMD_ETC/irqbalance.service.d/ssdtune.conf
	cat "$conf"
	grep -qx 'Environment=IRQBALANCE_BANNED_CPULIST=25-47,73-95' "$conf"
	grep -qx 'ExecStart=' "$conf"
	grep -q "^ExecStart=$BATS_TEST_TMPDIR/irqbalance --foreground \$IRQBALANCE_ARGS --banirq=200 --banirq=201 .*--banirq=216\$" "$conf"
	[ "$(cat "$SYSTEMCTL_LOG")" = "daemon-reload
try-restart irqbalance.service" ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     /etc/systemd/system/irqbalance.service.d/ssdtune.conf = (as written)"* ]]
	echo "# edited" >>"$conf"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[[ "$output" == *"drift  /etc/systemd/system/irqbalance.service.d/ssdtune.conf: changed since apply"* ]]
	: >"$SYSTEMCTL_LOG"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ ! -e "$conf" ]
	[ ! -e "$SYSTEMD_ETC/irqbalance.service.d" ]
	[ "$(cat "$SYSTEMCTL_LOG")" = "daemon-reload
try-restart irqbalance.service" ]
}

@test "tuned and power-profiles-daemon running: the plan says they may undo it" {
	make_topo 1s8c
	cp /bin/sleep "$BATS_TEST_TMPDIR/tuned"
	cp /bin/sleep "$BATS_TEST_TMPDIR/power-profiles-daemon"
	"$BATS_TEST_TMPDIR/tuned" 30 3>&- &
	FAKE_PID=$!
	"$BATS_TEST_TMPDIR/power-profiles-daemon" 30 3>&- &
	local ppd=$!
	wait_comm "$FAKE_PID" tuned
	wait_comm "$ppd" power-profiles-daemon
	run --separate-stderr ssdt plan --profile latency
	kill "$ppd"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: tuned runs (profile "*"): it sets governors, EPP, C-states and IRQ affinity of its own and may undo this plan"* ]]
	[[ "$output" == *"note: power-profiles-daemon runs (profile "*"): it sets EPP and turbo of its own"* ]]
}

@test "irqbalance.service: apply --dry-run shows the drop-in and the restart, and does neither" {
	make_topo 2s24c
	irqbalance_unit_start
	run --separate-stderr ssdt apply --dry-run --profile iops 0000:81:00.0
	[ "$status" -eq 0 ]
	[[ "$output" == *"/etc/systemd/system/irqbalance.service.d <- (mkdir)"* ]]
	[[ "$output" == *"/etc/systemd/system/irqbalance.service.d/ssdtune.conf <- # Written by 'ssdtune apply' (profile iops)"* ]]
	[[ "$output" == *"systemctl <- try-restart irqbalance.service"* ]]
	[ ! -e "$SYSTEMD_ETC/irqbalance.service.d" ]
	[ ! -s "$SYSTEMCTL_LOG" ]
}

@test "plan DEVICE plans only that device, by PCI address or ssdtN" {
	make_topo 4n128c
	run --separate-stderr ssdt plan --json ssdt0
	[ "$status" -eq 0 ]
	[ "$(py '[d["pci_address"] for d in v["devices"]]')" = "['0000:41:00.0']" ]
	run --separate-stderr ssdt plan --json c1:00.0
	[ "$status" -eq 0 ]
	[ "$(py '[d["pci_address"] for d in v["devices"]]')" = "['0000:c1:00.0']" ]
}

@test "unknown profile, unknown device, bad flag: non-zero exit and one line" {
	make_topo 4n128c
	run --separate-stderr ssdt plan --profile fast
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"unknown profile 'fast'"* ]]
	run --separate-stderr ssdt apply --profile fast --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	run --separate-stderr ssdt plan 0000:99:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"unknown device '0000:99:00.0'"* ]]
	run --separate-stderr ssdt apply --state-dir "$STATE" nvme9
	[ "$status" -eq 1 ]
	assert_one_error_line
	run --separate-stderr ssdt plan --bogus
	[ "$status" -eq 2 ]
	assert_one_error_line
	run --separate-stderr ssdt plan --dry-run
	[ "$status" -eq 2 ]
	assert_one_error_line
	run --separate-stderr ssdt verify --profile latency
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ ! -e "$STATE" ]
}

@test "apply --dry-run prints every write and writes nothing, not even state" {
	make_topo 4n128c
	before=$(fx_sum)
	run --separate-stderr ssdt plan --profile latency --verbose
	want=$(printf '%s\n' "$output" | grep -c ' -> ')
	run --separate-stderr ssdt apply --dry-run --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c ' <- ')" -eq "$want" ]
	[[ "$output" == *"/proc/irq/300/smp_affinity_list <- 16,80"* ]]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE" ]
}

@test "apply then revert leaves the fixture tree byte-identical" {
	local fx prof
	for fx in 4n128c 2s24c 1s8c; do
		for prof in latency balanced; do
			make_topo "$fx"
			before=$(fx_sum)
			run --separate-stderr ssdt apply --profile "$prof" --state-dir "$STATE"
			[ "$status" -eq 0 ] || { echo "$fx $prof apply: $stderr"; return 1; }
			[ "$(fx_sum)" != "$before" ]
			run --separate-stderr ssdt revert --state-dir "$STATE"
			[ "$status" -eq 0 ] || { echo "$fx $prof revert: $stderr"; return 1; }
			[ "$(fx_sum)" = "$before" ] || { echo "$fx $prof: tree differs"; return 1; }
			[ ! -e "$STATE/state.json" ]
		done
	done
}

@test "apply writes what the plan says and saves the originals first" {
	make_topo 4n128c
	queue_dirs
	# queue 5 is submitted to from CPUs 80 (an interrupt core, where its
	# vector is now) and 81 (an I/O core)
	echo 80-81 >"$FX/class/ssdtune/ssdt0/queues/q5/cpus"
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	# the admin vector on the interrupt cores; an I/O queue's on its own
	# CPUs, those of the I/O cores first, read when apply writes it
	# (after poll_queues)
	[ "$(cat "$PFX/irq/300/smp_affinity_list")" = "16,80" ]
	[ "$(cat "$PFX/irq/305/smp_affinity_list")" = "81" ]
	[ "$(cat "$PFX/irq/306/smp_affinity_list")" = "84" ]
	[ "$(cat "$FX/devices/system/cpu/cpu17/cpuidle/state2/disable")" = 1 ]
	[ "$(cat "$FX/devices/system/cpu/cpu15/cpuidle/state2/disable")" = 0 ]
	[ "$(cat "$FX/devices/system/cpu/cpufreq/policy16/scaling_governor")" = performance ]
	[ "$(cat "$FX/class/ssdtune/ssdt0/coalesce_profile")" = off ]
	[ "$(cat "$FX/class/ssdtune/ssdt0/power_limit_mw")" = 0 ]
	output=$(cat "$STATE/state.json")
	[ "$(py '[e["old"] for e in v["entries"] if e["key"] == "irq 0000:41:00.0 vector 5"]')" = "['80\\n']" ]
	[ "$(py '[e["old"] for e in v["entries"] if e["path"].endswith("ssdt0/power_limit_mw")]')" = "['8000\\n']" ]
}

@test "the state file names PCI functions by pci_address; one an earlier version wrote (\"bdf\") still verifies and reverts" {
	make_topo 4n128c
	before=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	grep -q '"pci_address":"0000:41:00.0"' "$STATE/state.json"
	run ! grep -q '"bdf"' "$STATE/state.json"
	sed -i 's/"pci_address":/"bdf":/' "$STATE/state.json"
	run --separate-stderr ssdt --json verify --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(py 'v["drifted"]')" = 0 ]
	[ "$(py 'len([c for c in v["checks"] if c["key"].startswith("irq 0000:41:00.0 vector")])')" -gt 0 ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(fx_sum)" = "$before" ]
}

@test "hand-set coalescing (profile reads custom) is left alone, so revert never has to write 'custom'" {
	make_topo 4n128c
	echo custom >"$FX/class/ssdtune/ssdt0/coalesce_profile"
	run --separate-stderr ssdt plan --profile latency
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"coalesce_profile"*"left alone"* ]]
	before=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$FX/class/ssdtune/ssdt0/coalesce_profile")" = custom ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
}

@test "APST: latency turns it off and revert restores it; other profiles keep it; a drive without APST is left out" {
	make_topo 4n128c
	apst=$FX/class/ssdtune/ssdt0/apst_max_latency_us
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 0 ]
	[[ $output == *"apst_max_latency_us: 100000 -> 0  (ssdt0: APST off"* ]]
	for prof in iops throughput balanced; do
		run --separate-stderr ssdt plan --profile "$prof"
		[ "$status" -eq 0 ]
		[[ $output == *"apst_max_latency_us: 100000 already"* ]] ||
			{ echo "$prof: $output"; false; }
	done
	before=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(cat "$apst")" = 0 ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	echo 5000 >"$apst"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -ne 0 ]
	echo 0 >"$apst"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(cat "$apst")" = 100000 ]
	[ "$(fx_sum)" = "$before" ]
	# without APST: skipped, never written
	echo unsupported >"$apst"
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 0 ]
	[[ $output == *"the drive has no APST (or refused it): nothing to plan"* ]]
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE.2"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(cat "$apst")" = unsupported ]
}

@test "a profile switch leaves no residue: A then B ends as a fresh B, for every pair (2 sockets, SMT)" {
	local a b
	declare -A fresh
	make_topo 2s24c
	save_fixture
	orig=$(fx_values)
	for b in latency iops throughput balanced; do
		restore_fixture
		run --separate-stderr ssdt apply --profile "$b" --state-dir "$STATE.$b"
		[ "$status" -eq 0 ]
		fresh[$b]=$(fx_values)
	done
	for a in latency iops throughput balanced; do
		for b in latency iops throughput balanced; do
			[ "$a" != "$b" ] || continue
			restore_fixture
			rm -rf "$STATE"
			run --separate-stderr ssdt apply --profile "$a" --state-dir "$STATE"
			[ "$status" -eq 0 ]
			run --separate-stderr ssdt apply --profile "$b" --state-dir "$STATE"
			[ "$status" -eq 0 ] || { echo "$a then $b: $stderr"; false; }
			[ "$(fx_values)" = "${fresh[$b]}" ] || { echo "$a then $b is not a fresh $b"; false; }
			run --separate-stderr ssdt revert --state-dir "$STATE"
			[ "$status" -eq 0 ]
			[ "$(fx_values)" = "$orig" ] || { echo "$a then $b, reverted, is not the original"; false; }
		done
	done
}

@test "apply --dry-run of another profile shows the restores of the one applied" {
	make_topo 1s8c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	after=$(fx_sum)
	run --separate-stderr ssdt apply --dry-run --profile balanced --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/sys/devices/system/cpu/cpu1/cpuidle/state2/disable <- 0"* ]]
	[[ "$output" == *"would restore "*" values the profile before set and balanced does not"* ]]
	[ "$(fx_sum)" = "$after" ]
}

@test "a scheduler is saved by its active name and revert writes that name back" {
	make_topo 2s24c
	q=$FX/devices/pci0000:80/0000:80:01.0/0000:81:00.0/nvme/nvme0/nvme0n1/queue
	echo "[mq-deadline] none kyber" >"$q/scheduler"
	run --separate-stderr ssdt plan --profile iops --verbose
	[[ "$output" == *"/sys/block/nvme0n1/queue/scheduler: mq-deadline -> none  (nvme0n1: no I/O scheduler"* ]]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$q/scheduler")" = none ]
	grep -q '"old":"mq-deadline\\n"' "$STATE/state.json"
	# what the kernel would show now
	echo "mq-deadline [none] kyber" >"$q/scheduler"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[[ "$output" == *"ok     /sys/block/nvme0n1/queue/scheduler = none"* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$q/scheduler")" = mq-deadline ]
}

@test "apply is idempotent: a second run writes nothing and keeps the originals" {
	make_topo 4n128c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	saved=$(cat "$STATE/state.json")
	after=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "changed 0, "* ]]
	[ "$(cat "$STATE/state.json")" = "$saved" ]
	[ "$(fx_sum)" = "$after" ]
}

@test "apply killed midway (after 5 writes), then revert, restores the tree" {
	make_topo 4n128c
	queue_dirs
	before=$(fx_sum)
	SSDTUNE_TEST_ABORT_AFTER=5 run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 137 ]
	[ "$(fx_sum)" != "$before" ]
	# the admin vector, then the controller's four knobs: the disk's
	# queue is not reached
	[ "$(cat "$PFX/irq/300/smp_affinity_list")" = "16,80" ]
	[ "$(cat "$FX/class/ssdtune/ssdt0/apst_max_latency_us")" = 0 ]
	[ "$(cat "$FX/block/ssdt0n1/queue/nomerges")" = 0 ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == "restored 5 of "* ]]
	[ "$(fx_sum)" = "$before" ]
}

@test "revert finds interrupt vectors by PCI address and index after their IRQ numbers changed" {
	make_topo 4n128c
	before=$(cat "$PFX"/irq/30[0-8]/smp_affinity_list | md5sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	# a rebind: the same vectors come back as IRQs 500-508
	dev=$FX/devices/pci0000:40/0000:40:01.1/0000:41:00.0
	for k in $(seq 0 8); do
		mv "$PFX/irq/$((300 + k))" "$PFX/irq/$((500 + k))"
		mv "$dev/msi_irqs/$((300 + k))" "$dev/msi_irqs/$((500 + k))"
	done
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$PFX"/irq/50[0-8]/smp_affinity_list | md5sum)" = "$before" ]
}

@test "revert finds vectors by MSI-X entry when a rebind numbers them in another order" {
	make_topo 4n128c
	for k in $(seq 0 8); do before[k]=$(cat "$PFX/irq/$((300 + k))/smp_affinity_list"); done
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	# a rebind: entry k comes back as IRQ 508 - k (by rank they would swap)
	dev=$FX/devices/pci0000:40/0000:40:01.1/0000:41:00.0
	for k in $(seq 0 8); do
		mv "$PFX/irq/$((300 + k))" "$PFX/irq/t$k"
		mv "$dev/msi_irqs/$((300 + k))" "$dev/msi_irqs/t$k"
		sed -i "s/^ *$((300 + k)):/ $((508 - k)):/" "$PFX/interrupts"
	done
	for k in $(seq 0 8); do
		mv "$PFX/irq/t$k" "$PFX/irq/$((508 - k))"
		mv "$dev/msi_irqs/t$k" "$dev/msi_irqs/$((508 - k))"
	done
	run --separate-stderr ssdt --json topology
	[ "$(py 'v["storage"][0]["irqs"][0]["irq"]')" = 508 ]
	[ "$(py 'v["storage"][0]["irqs"][0]["msix_entry"]')" = 0 ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	for k in $(seq 0 8); do
		[ "$(cat "$PFX/irq/$((508 - k))/smp_affinity_list")" = "${before[k]}" ]
	done
}

@test "verify holds after apply once vectors fire, and reports a manual change as drift" {
	make_topo 4n128c
	queue_dirs
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	follow_effective
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "all 208 applied settings hold (profile latency)" ]]
	# the same file of many CPUs holding one value is one line
	[[ "$output" == *"ok     /sys/devices/system/cpu/cpufreq/policyN/scaling_governor on CPUs 16-31,48-63,80-95,112-127 = performance"* ]]
	[ "${#lines[@]}" -lt 40 ]
	run --separate-stderr ssdt verify --verbose --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 209 ]
	[[ "$output" == *"ok     /sys/devices/system/cpu/cpufreq/policy20/scaling_governor = performance"* ]]
	echo powersave >"$FX/devices/system/cpu/cpufreq/policy20/scaling_governor"
	echo 20 >"$PFX/irq/303/smp_affinity_list"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 2 of 208 applied settings drifted" ]
	[[ "$output" == *"drift  /sys/devices/system/cpu/cpufreq/policy20/scaling_governor: applied performance, now powersave"* ]]
	[[ "$output" == *"drift  /proc/irq/303/smp_affinity_list: applied 24, now 20"* ]]
	# the drifted CPU leaves its group
	[[ "$output" == *"ok     /sys/devices/system/cpu/cpufreq/policyN/scaling_governor on CPUs 16-19,21-31,48-63,80-95,112-127 = performance"* ]]
	run --separate-stderr ssdt verify --json --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[ "$(py 'v["drifted"]')" = 2 ]
}

@test "verify checks effective affinity, not only the requested mask" {
	make_topo 4n128c
	queue_dirs
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	follow_effective
	echo 24 >"$PFX/irq/302/effective_affinity_list"
	fire 302
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[[ "$output" == *"drift  /proc/irq/302/smp_affinity_list: effective affinity 24 is outside the applied 20"* ]]
}

@test "verify right after apply calls a vector move that waits for its next interrupt pending, not drift" {
	make_topo 4n128c
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pending /proc/irq/302/smp_affinity_list: effective affinity "*" moves into 16,80 at the vector's next interrupt (none since apply)"* ]]
	[[ "${lines[-1]}" == "all "*" applied settings hold (profile iops); "*" vector moves wait for the vector's next interrupt" ]]
	# once it fires and the kernel still has it elsewhere, it is drift
	fire 302
	run --separate-stderr ssdt verify --json --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[ "$(py 'v["drifted"]')" = 1 ]
	eff=$(cat "$PFX/irq/302/effective_affinity_list")
	[ "$(py '[c["drift"] for c in v["checks"] if not c["holds"]][0]')" = "effective affinity $eff is outside the applied 16,80 (x86 moves a vector at its next interrupt)" ]
}

@test "after a reboot (a new boot id) verify says not applied since boot and revert restores only with --force" {
	make_topo 1s8c
	before=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	grep -q "\"boot_id\":\"$(cat /proc/sys/kernel/random/boot_id)\"" "$STATE/state.json"
	sed -i 's/"boot_id":"[^"]*"/"boot_id":"00000000-0000-0000-0000-000000000000"/' "$STATE/state.json"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: not applied since boot: the state in $STATE was saved before the last reboot (boot 00000000-0000-0000-0000-000000000000, now "* ]]
	after=$(fx_sum)
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"saved values would be restored (above); 'ssdtune revert --force' restores them" ]]
	[[ "$output" == *"/sys/devices/system/cpu/cpu1/cpuidle/state2/disable <- 0"* ]]
	[ "$(fx_sum)" = "$after" ]
	[ -e "$STATE/state.json" ]
	run --separate-stderr ssdt revert --force --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "latency plans one poll queue for an ssdtune controller without one and leaves that queue's vector alone; other profiles leave it" {
	make_topo 4n128c
	queue_dirs
	q=$FX/class/ssdtune/ssdt0/queues
	run --separate-stderr ssdt plan --profile latency --verbose
	[ "$status" -eq 0 ]
	[[ "$output" == *"/sys/class/ssdtune/ssdt0/poll_queues: 0 -> 1  (ssdt0: one of its 8 I/O queues polled"* ]]
	[[ "$output" == *"/proc/irq/308/smp_affinity_list: skipped: ssdt0q8 (0000:41:00.0 vector 8): its queue becomes a poll queue (poll_queues): left alone"* ]]
	# the others stay on the CPUs that submit to their queues
	[[ "$output" == *"/proc/irq/307/smp_affinity_list: 88 already  (ssdt0q7 (0000:41:00.0 vector 7): on the CPUs that submit to its queue"* ]]
	# applied: queue 8 polls and has no vector; the next plan keeps it so
	echo 1 >"$FX/class/ssdtune/ssdt0/poll_queues"
	echo -1 >"$q/q8/irq"
	run --separate-stderr ssdt plan --profile latency
	[[ "$output" == *"/sys/class/ssdtune/ssdt0/poll_queues: 1 already  (ssdt0: 1 poll queues"* ]]
	[[ "$output" == *"/proc/irq/308/smp_affinity_list: skipped: 0000:41:00.0 vector 8: serves no queue"* ]]
	run --separate-stderr ssdt plan --profile iops
	[[ "$output" != *"poll_queues"* ]]
}

@test "--isolate on a device node with one CPU: that CPU does interrupts and I/O and is isolated; the other node's CPUs stay the host's" {
	make_topo vm3
	run --separate-stderr ssdt plan --profile latency --isolate
	[ "$status" -eq 0 ]
	[[ "$output" == *"node 1 has one core: interrupts and I/O share it"* ]]
	[[ "$output" != *"leave no CPU for the rest of the host"* ]]
	[[ "$output" == *"/proc/irq/default_smp_affinity: 00000007 -> 00000003"* ]]
	run --separate-stderr ssdt plan --profile latency --isolate --json
	[ "$(py 'v["io_cpus"] + "|" + v["irq_cpus"] + "|" + v["housekeeping_cpus"]')" = "2|2|0-1" ]
}

@test "revert --force restores everything else when a saved device is gone, and names what it skipped" {
	make_topo 4n128c
	queue_dirs
	cpu_sum() { (cd "$FX/devices/system/cpu" && find . -type f | LC_ALL=C sort | xargs md5sum) | md5sum; }
	before=$(cpu_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cpu_sum)" != "$before" ]
	dev=$FX/devices/pci0000:40/0000:40:01.1/0000:41:00.0
	mv "$dev/msi_irqs" "$BATS_TEST_TMPDIR/msi_irqs"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"saved values could not be restored (state kept in $STATE); first: irq 0000:41:00.0 vector "*": gone (device or vector not found)" ]]
	run --separate-stderr ssdt revert --force --json --state-dir "$STATE"
	[ "$status" -eq 0 ]
	# the vectors of its 8 queues with interrupts (the ninth polls now)
	[ "$(py 'len(v["skipped"])')" = 8 ]
	[ "$(py 'v["skipped"][0]')" = "irq 0000:41:00.0 vector 7" ]
	[ ! -e "$STATE/state.json" ]
	# the CPU settings (C-states, governors) are restored all the same
	[ "$(cpu_sum)" = "$before" ]
}

@test "a damaged state file: revert refuses in one line; revert --force restores every entry still whole, keeps the file aside and exits 1 naming what was lost" {
	make_topo 4n128c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	applied=$(fx_sum)
	# cut short in the middle of an entry line, as a full disk might
	head -n 40 "$STATE/state.json" >"$BATS_TEST_TMPDIR/cut"
	printf '  {"key":"irq 0000:41:00.0 vec' >>"$BATS_TEST_TMPDIR/cut"
	cp "$BATS_TEST_TMPDIR/cut" "$STATE/state.json"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"malformed (not an ssdtune state file); 'ssdtune revert --force' restores the values it can still read" ]]
	[ "$(fx_sum)" = "$applied" ]
	run --separate-stderr ssdt revert --force --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$output" == *"state.json is damaged: 39 saved values still read whole, 2 entries unreadable"* ]]
	[[ "$stderr" == *"2 entries of the damaged state could not be read: restore them by hand (the file is kept as $STATE/state.json.damaged)" ]]
	# the first entry, IRQ 300's affinity, is back
	[ "$(cat "$PFX/irq/300/smp_affinity_list")" = 16-31,80-95 ]
	[ ! -e "$STATE/state.json" ]
	cmp "$BATS_TEST_TMPDIR/cut" "$STATE/state.json.damaged"
	# a junk line in the middle of an otherwise whole file: all else
	# comes back, the JSON report says what was lost
	rm -f "$STATE/state.json.damaged"
	# (what the cut lost stays applied: that is the state to come back to)
	mid=$(fx_sum)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	line=$(grep -n '"key":"[^"]*coalesce_profile"' "$STATE/state.json" | cut -d: -f1)
	[ -n "$line" ]
	sed -i "${line}s/.*/  {\"key\": junk},/" "$STATE/state.json"
	run --separate-stderr ssdt revert --force --json --state-dir "$STATE"
	[ "$status" -eq 1 ]
	[ "$(py 'str(v["damaged"]) + " " + str(v["lost"])')" = "True 1" ]
	# everything but the junked entry (the coalescing profile) restored
	[ "$(cat "$FX/class/ssdtune/ssdt0/coalesce_profile")" = off ]
	echo balanced >"$FX/class/ssdtune/ssdt0/coalesce_profile"
	[ "$(fx_sum)" = "$mid" ]
}

@test "verify without an applied plan fails with one line; revert then has nothing to do and exits 0" {
	make_topo 1s8c
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"nothing applied"* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "nothing to revert: nothing applied: no $STATE/state.json" ]
	# and writes nothing: the state dir is not even created
	[ ! -e "$STATE/state.json" ]
}

@test "apply refuses while another run holds the state lock" {
	make_topo 1s8c
	mkdir -p "$STATE"
	before=$(fx_sum)
	hold_lock "$STATE/lock"
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"held by another ssdtune run (apply, revert, attach or detach)"* ]]
	[ "$(fx_sum)" = "$before" ]
}

@test "revert removes the state but never the lock file another run may wait on" {
	make_topo 1s8c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	ino=$(stat -c %i "$STATE/lock")
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ ! -e "$STATE/state.json" ]
	[ "$(stat -c %i "$STATE/lock")" = "$ino" ]
}

@test "revert --dry-run prints the restores and keeps the state" {
	make_topo 1s8c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	after=$(fx_sum)
	run --separate-stderr ssdt revert --dry-run --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/proc/irq/120/smp_affinity_list <- 0-7\n"* ]]
	[ "$(fx_sum)" = "$after" ]
	[ -e "$STATE/state.json" ]
}

@test "a malformed file stops plan with one line naming it" {
	make_topo 1s8c
	echo fast >"$FX/devices/system/cpu/cpu0/cpuidle/state2/latency"
	run --separate-stderr ssdt plan --profile latency
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: /sys/devices/system/cpu/cpu0/cpuidle/state2/latency: malformed (expected an integer, got 'fast')" ]
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ ! -e "$STATE/state.json" ]
}

@test "a malformed state file stops verify and revert with one line naming it, changing nothing" {
	make_topo 1s8c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	after=$(fx_sum)
	echo '{"entries": 5}' >"$STATE/state.json"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: $STATE/state.json: malformed (not an ssdtune state file); 'ssdtune revert --force' restores the values it can still read" ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: $STATE/state.json: malformed (not an ssdtune state file)" ]
	[ "$(fx_sum)" = "$after" ]
}

@test "a state file whose isolate, io_cores or vector has the wrong type is malformed: revert refuses, changing nothing" {
	make_topo 1s8c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	after=$(fx_sum)
	cp "$STATE/state.json" "$BATS_TEST_TMPDIR/good.json"
	for edit in 's/"isolate": *false/"isolate": "no"/' 's/"io_cores": *[0-9]*/"io_cores": "all"/'; do
		sed "$edit" "$BATS_TEST_TMPDIR/good.json" >"$STATE/state.json"
		! cmp -s "$STATE/state.json" "$BATS_TEST_TMPDIR/good.json" || { echo "no change: $edit"; false; }
		run --separate-stderr ssdt revert --state-dir "$STATE"
		[ "$status" -eq 1 ]
		assert_one_error_line
		[ "$stderr" = "ssdtune: $STATE/state.json: malformed (isolate must be true or false, io_cores a count); 'ssdtune revert --force' restores the values it can still read" ]
		[ "$(fx_sum)" = "$after" ]
	done
	python3 - "$BATS_TEST_TMPDIR/good.json" "$STATE/state.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["entries"][0]["vector"] = "3"
s["entries"][0]["pci_address"] = "0000:41:00.0"
json.dump(s, open(sys.argv[2], "w"))
PY
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ $stderr == "ssdtune: $STATE/state.json: malformed entry 0"* ]]
	[ "$(fx_sum)" = "$after" ]
}

@test "plan takes any name of a controller: its PCI address, ssdtN, nvmeN, /dev/nvmeN, a namespace" {
	make_topo 4n128c
	run --separate-stderr ssdt --json plan 0000:c1:00.0
	[ "$status" -eq 0 ]
	want=$(py '[d["pci_address"] for d in v["devices"]]')
	[ "$want" = "['0000:c1:00.0']" ]
	for n in nvme1 /dev/nvme1 /dev/nvme1n1 nvme1n1; do
		run --separate-stderr ssdt --json plan "$n"
		[ "$status" -eq 0 ] || { echo "$n: $stderr"; false; }
		[ "$(py '[d["pci_address"] for d in v["devices"]]')" = "$want" ]
	done
	for n in ssdt0 /dev/ssdt0 /dev/ssdt0n1; do
		run --separate-stderr ssdt --json plan "$n"
		[ "$status" -eq 0 ] || { echo "$n: $stderr"; false; }
		[ "$(py '[d["pci_address"] for d in v["devices"]]')" = "['0000:41:00.0']" ]
	done
	run --separate-stderr ssdt plan sda
	[ "$status" -ne 0 ]
	assert_one_error_line
	[[ "$stderr" == *"'sda' names no controller: give a PCI address"* ]]
}

# ssdtune status: the verdict first, in a few lines (issue 37).
@test "status: nothing applied, then the profile and its verdict, the controllers and drop-ins in 5 lines; drift exits 3" {
	make_topo 4n128c
	run --separate-stderr ssdt status --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "tuning:      none applied ('ssdtune plan' shows what apply would do)" ]
	[ "${lines[1]}" = "controllers: 0000:41:00.0 ssdt0 on ssdtune" ]
	[ "${lines[2]}" = "               coalescing host (profile balanced), power limit hw at 8000 mW" ]
	[[ "${lines[3]}" == "             0000:c1:00.0 "*" on nvme" ]]
	[ "${lines[4]}" = "drop-ins:    irqbalance none, boot (GRUB) none" ]
	[ "${#lines[@]}" -eq 5 ]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt status --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "tuning:      profile iops, all "*" settings hold"* ]]
	# a vector moved by hand: drift, exit 3, the same few lines
	irq=$(ls "$(ls -d "$FX"/devices/pci*/*/0000:41:00.0)/msi_irqs" | sort -n | sed -n 2p)
	echo 0 >"$PFX/irq/$irq/smp_affinity_list"
	run --separate-stderr ssdt status --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[[ "${lines[0]}" == "tuning:      profile iops, 1 of "*" settings drifted ('ssdtune verify' lists them)" ]]
	[ "${#lines[@]}" -eq 5 ]
	run --separate-stderr ssdt --json status --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[ "$(json .status)" = drift ]
	[ "$(json .drifted)" = 1 ]
}
