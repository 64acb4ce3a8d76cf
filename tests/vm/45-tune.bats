#!/usr/bin/env bats
# ssdtune plan/apply/verify/revert on the 2-node guest (NVMe on node 1,
# CPUs 2-3): with the controller on ssdtune, apply steers every queue
# vector onto node 1's interrupt core, verify passes once the vectors have
# fired (x86 moves a vector at its next interrupt), a manual change is
# drift, revert restores the original affinities byte for byte.  On the
# stock nvme driver the I/O vectors are kernel-managed: plan says so and
# apply leaves them alone.

bats_require_minimum_version 1.5.0

load lib/common

STATE=$SSDT_TMP/tune-state

setup_file() {
	setup_attached
}

teardown() {
	# never leave a tuned guest to the next test or suite
	[ -e "$STATE/state.json" ] && "$SSDT_TOOL" revert --state-dir "$STATE" >/dev/null 2>&1
	rm -rf "$STATE"
	return 0
}

teardown_file() {
	teardown_stock
}


# queue_cpu Q: first CPU that submits to queue Q
queue_cpu() {
	local c l
	c=$(ssdt_ctrl) || return 1
	l=$(trim "$c/queues/$1/cpus") || l=""
	l=$(expand_cpulist "$l")
	echo "${l%% *}"
}

# fire_all: make every queue vector fire: direct reads from a CPU of each
# I/O queue, and an admin command (the health log behind temperature_mc,
# cached for 1 s) for q0.
fire_all() {
	local q irq cpu c
	c=$(ssdt_ctrl) || return 1
	while read -r q irq; do
		if [ "$q" = q0 ]; then
			cat "$c/temperature_mc" >/dev/null
			sleep 1.1
			cat "$c/temperature_mc" >/dev/null
			continue
		fi
		cpu=$(queue_cpu "$q")
		[ -n "$cpu" ] || continue
		taskset -c "$cpu" dd if="$(ssdt_disk)" of=/dev/null bs=4k count=8 \
			iflag=direct status=none || return 1
	done < <(ssdt_queue_irqs)
}

# affinities: "IRQ smp_affinity_list-bytes" for every queue vector (md5 of
# the raw file, so a trailing newline counts)
affinities() {
	local q irq
	while read -r q irq; do
		echo "$q $irq $(md5sum <"/proc/irq/$irq/smp_affinity_list")"
	done < <(ssdt_queue_irqs)
}

@test "plan on ssdtune: interrupt core on node 1, apart from the I/O core, every vector steerable" {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	echo "$output" | head -40
	[ "$status" -eq 0 ]
	[ "$(py 'v["devices"][0]["numa_node"]')" = 1 ]
	irqc=$(py 'v["devices"][0]["irq_cpus"]')
	ioc=$(py 'v["devices"][0]["io_cpus"]')
	echo "interrupt cores $irqc, I/O cores $ioc"
	for c in $(expand_cpulist "$irqc") $(expand_cpulist "$ioc"); do
		[[ " $(node_cpus 1) " == *" $c "* ]]
	done
	for c in $(expand_cpulist "$irqc"); do
		[[ " $(expand_cpulist "$ioc") " != *" $c "* ]]
	done
	[ "$(py 'v["devices"][0]["managed_vectors"]')" = 0 ]
	nq=$(ssdt_queue_irqs | wc -l)
	[ "$(py 'sum(1 for c in v["changes"] if "vector" in c and c["action"] in ("set", "keep"))')" = "$nq" ]
}

@test "apply steers every queue vector to node 1's interrupt core; verify holds; a manual change is drift; revert restores byte for byte" {
	bdf=$(nvme_bdf)
	before=$(affinities)
	echo "before:"; echo "$before"
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	irqc=$(py 'v["devices"][0]["irq_cpus"]')
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	echo "$output" | tail -5
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	while read -r q irq; do
		[ "$(trim "/proc/irq/$irq/smp_affinity_list")" = "$irqc" ] ||
			{ echo "$q irq $irq: smp_affinity_list $(trim "/proc/irq/$irq/smp_affinity_list"), want $irqc"; false; }
	done < <(ssdt_queue_irqs)
	fire_all
	while read -r q irq; do
		eff=$(trim "/proc/irq/$irq/effective_affinity_list")
		echo "$q irq $irq: effective $eff"
		[[ " $(expand_cpulist "$irqc") " == *" $eff "* ]]
	done < <(ssdt_queue_irqs)
	run --separate-stderr ssdt verify --state-dir "$STATE"
	echo "$output" | tail -5
	[ "$status" -eq 0 ] || { echo "verify: $stderr"; false; }

	# a manual change (what irqbalance would do)
	read -r q irq < <(ssdt_queue_irqs | sed -n 2p)
	other=$(node_cpus 1 | tr ' ' '\n' | grep -vx "$irqc" | head -1)
	echo "$other" >"/proc/irq/$irq/smp_affinity_list"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	echo "$output" | grep drift
	[ "$status" -eq 3 ]
	[[ "$output" == *"drift  /proc/irq/$irq/smp_affinity_list: applied $irqc, now $other"* ]]
	[[ "$stderr" == "ssdtune: 1 of "*" applied settings drifted" ]]

	cp "$STATE/state.json" "$SSDT_TMP/state.saved.json"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	echo "$output"
	[ "$status" -eq 0 ] || { echo "revert: $stderr"; false; }
	[ ! -e "$STATE/state.json" ]
	after=$(affinities)
	echo "after:"; echo "$after"
	[ "$after" = "$before" ]
	# and every other saved value (cpuidle, knobs) is back as it was
	python3 - "$SSDT_TMP/state.saved.json" <<'PY'
import json, re, sys
def value(path, text):
    # a scheduler file lists them all: the active one is what was saved
    m = re.search(r"\[(\S+)\]", text)
    if path.endswith("/queue/scheduler") and m:
        return m.group(1)
    return text.rstrip("\n")
bad = 0
for e in json.load(open(sys.argv[1]))["entries"]:
    if "vector" in e:
        continue
    now = open(e["path"]).read()
    if value(e["path"], now) != value(e["path"], e["old"]):
        print("not restored: %s: %r, saved %r" % (e["path"], now, e["old"]))
        bad += 1
sys.exit(bad)
PY
}

@test "apply then verify on an idle controller: moves that wait for the next interrupt are pending, not drift" {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	# no I/O in between: the admin vector (and any idle queue) has not
	# fired, so x86 has not moved it yet
	run --separate-stderr ssdt verify --json --state-dir "$STATE"
	echo "$output" | grep -B6 '"pending"' | grep -E 'path|pending' || true
	[ "$status" -eq 0 ] || { echo "verify: $stderr"; false; }
	[ "$(py 'v["drifted"]')" = 0 ]
	fire_all
	run --separate-stderr ssdt verify --json --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(py 'v["drifted"]')" = 0 ]
}

@test "after a faked reboot (another boot id in the state) verify fails and revert restores only with --force" {
	bdf=$(nvme_bdf)
	before=$(affinities)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ]
	grep -q "\"boot_id\":\"$(cat /proc/sys/kernel/random/boot_id)\"" "$STATE/state.json"
	sed -i 's/"boot_id":"[^"]*"/"boot_id":"00000000-0000-0000-0000-000000000000"/' "$STATE/state.json"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	[[ "$stderr" == "ssdtune: not applied since boot: "* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"'ssdtune revert --force' restores them" ]]
	[ -e "$STATE/state.json" ]
	run --separate-stderr ssdt revert --force --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(affinities)" = "$before" ]
}

@test "apply twice is idempotent: the second run writes nothing" {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE" "$bdf"
	echo "$output" | tail -2
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == "changed 0, "* ]]
}

# The topology JSON of PCI function $1, as a python expression.
topo_dev() { echo "[d for d in v['storage'] if d['pci_address'] == '$1'][0]"; }

@test "topology names every vector by its MSI-X entry from the kernel, on ssdtune (with its queue) and on nvme" {
	bdf=$(nvme_bdf)
	dev=$(topo_dev "$bdf")
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	echo "$(py "[(q['irq'], q['msix_entry'], q['queue'], q['name']) for q in $dev['irqs']]")"
	[ "$(py "sorted(q['msix_entry'] for q in $dev['irqs']) == list(range(len($dev['irqs'])))")" = True ]
	while read -r q irq; do
		[ "$(py "[x['queue'] for x in $dev['irqs'] if x['irq'] == $irq]")" = "[${q#q}]" ]
	done < <(ssdt_queue_irqs)
	detach
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	echo "$(py "[(q['irq'], q['msix_entry'], q['name']) for q in $dev['irqs']]")"
	[ "$(py "sorted(q['msix_entry'] for q in $dev['irqs']) == list(range(len($dev['irqs'])))")" = True ]
	[ "$(py "[q['msix_entry'] for q in $dev['irqs'] if q['name'].endswith('q0')]")" = "[0]" ]
	[ "$(py "set(q['queue'] for q in $dev['irqs'])")" = "{None}" ]
	setup_attached
}

@test "stock nvme: plan reports the I/O vectors as kernel-managed and apply does not move them" {
	detach
	bdf=$(nvme_bdf)
	irqs=$(nvme_io_irqs)
	[ -n "$irqs" ]
	nio=$(echo $irqs | wc -w)
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	[ "$status" -eq 0 ]
	[ "$(py 'v["devices"][0]["managed_vectors"]')" = "$nio" ]
	[ "$(py 'sum(1 for c in v["changes"] if c["action"] == "skip" and "not steerable" in c["reason"])')" = "$nio" ]
	before=$(for i in $irqs; do md5sum <"/proc/irq/$i/smp_affinity_list"; done)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	echo "$output" | grep -E 'smp_affinity|changed' || true
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	for i in $irqs; do
		! grep -q "\"/proc/irq/$i/smp_affinity_list\"" "$STATE/state.json"
	done
	[ "$(for i in $irqs; do md5sum <"/proc/irq/$i/smp_affinity_list"; done)" = "$before" ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	setup_attached
}
