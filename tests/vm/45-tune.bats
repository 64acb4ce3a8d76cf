#!/usr/bin/env bats
# ssdtune plan/apply/verify/revert on the 2-node guest (NVMe on node 1,
# CPUs 2-3): with the controller on ssdtune, apply steers every queue
# vector onto node 1's interrupt core, verify passes once the vectors have
# fired (x86 moves a vector at its next interrupt), a manual change is
# drift, revert restores the original affinities byte for byte.  On the
# stock nvme driver the I/O vectors are kernel-managed: plan says so and
# apply leaves them alone.
#
# vm-kernels: one (the tool's plan, apply and revert; the IRQ and cgroup
# writes it makes are tested on both kernels by 40-irq, 47-isolate and
# 48-irqbalance)

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


# admin_fired CTRL N: CTRL's admin vector fired since q0's interrupt count
# was N, after a read of temperature_mc (an admin command, Get Log Page,
# unless the health log behind it is still cached: for 1 s).
admin_fired() {
	local t n
	read -r t <"$1/temperature_mc" || return 1
	read -r n <"$1/queues/q0/interrupts" || return 1
	[ "$n" -gt "$2" ]
}

# fire_all: make every queue vector fire: direct reads from the first CPU
# of each I/O queue; for q0, temperature_mc reads until its interrupt count
# moves (at most the health log's 1 s cache) rather than a fixed 1.1 s.
# No subshell per queue: each costs ~0.1 s under TCG.
fire_all() {
	local q irq cpu c disk n0
	c=$(ssdt_ctrl) || return 1
	disk=$(ssdt_disk) || return 1
	while read -r q irq; do
		if [ "$q" = q0 ]; then
			read -r n0 <"$c/queues/q0/interrupts"
			wait_for 5 admin_fired "$c" "$n0" ||
				{ echo "q0 (irq $irq) took no interrupt after temperature_mc reads"; return 1; }
			continue
		fi
		cpu=""
		read -r cpu <"$c/queues/$q/cpus" || true
		cpu=${cpu%%[,-]*}
		[ -n "$cpu" ] || continue
		taskset -c "$cpu" dd if="$disk" of=/dev/null bs=4k count=8 \
			iflag=direct status=none || return 1
	done < <(ssdt_queue_irqs)
}

# affinity_bytes IRQ...: "IRQ BYTES" for each IRQ, BYTES the whole of its
# smp_affinity_list (so a trailing newline counts) quoted by printf %q:
# builtins, where an md5sum per vector cost ~0.1 s under TCG.
affinity_bytes() {
	local irq raw
	for irq; do
		raw=""
		IFS= read -r -d '' raw <"/proc/irq/$irq/smp_affinity_list" || true
		printf '%s %q\n' "$irq" "$raw"
	done
}

# affinities: "qK IRQ BYTES" for every queue vector of the controller
affinities() {
	local q irq
	while read -r q irq; do
		printf '%s ' "$q"
		affinity_bytes "$irq"
	done < <(ssdt_queue_irqs)
}

@test "plan on ssdtune: interrupt core on node 1, apart from the I/O core, every vector steerable" {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	echo "$output" | head -40
	[ "$status" -eq 0 ]
	# One python start (slow under TCG) for all the values.
	IFS='|' read -r node irqc ioc managed nvec < <(py '"|".join(str(x) for x in (
		v["devices"][0]["numa_node"], v["devices"][0]["irq_cpus"],
		v["devices"][0]["io_cpus"], v["devices"][0]["managed_vectors"],
		sum(1 for c in v["changes"] if "vector" in c and c["action"] in ("set", "keep"))))')
	echo "node $node, interrupt cores $irqc, I/O cores $ioc, managed $managed, vectors planned $nvec"
	[ "$node" = 1 ]
	n1=" $(node_cpus 1) "
	ioset=" $(expand_cpulist "$ioc") "
	for c in $(expand_cpulist "$irqc") $ioset; do
		[[ $n1 == *" $c "* ]]
	done
	for c in $(expand_cpulist "$irqc"); do
		[[ $ioset != *" $c "* ]]
	done
	[ "$managed" = 0 ]
	# every vector but the last queue's, which the plan makes a poll
	# queue (poll_queues 0 -> 1)
	nq=$(ssdt_queue_irqs | wc -l)
	[ "$nvec" = $((nq - 1)) ]
	[ "$(py '[c["old"] + ">" + c["new"] for c in v["changes"] if c.get("path", "").endswith("/poll_queues")][0]')" = "0>1" ]
}

@test "apply --profile latency: poll_queues first, then each queue's vector on the CPUs that submit to it, the I/O core first; verify holds; revert restores" {
	bdf=$(nvme_bdf)
	before=$(affinities)
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	ioc=$(py 'v["devices"][0]["io_cpus"]')
	irqc=$(py 'v["devices"][0]["irq_cpus"]')
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	c=$(ssdt_ctrl)
	[ "$(trim "$c/poll_queues")" = 1 ]
	ioset=" $(expand_cpulist "$ioc") "
	# the queues as the poll queue left them: the vector follows its queue
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		if [ "$q" = q0 ]; then
			[ "$aff" = "$irqc" ] || { echo "admin vector on $aff, want $irqc"; false; }
			continue
		fi
		want="" all=""
		for cpu in $(expand_cpulist "$(trim "$c/queues/$q/cpus")"); do
			all+="$cpu "
			[[ $ioset == *" $cpu "* ]] && want+="$cpu "
		done
		[ -n "$want" ] || want=$all
		echo "$q irq $irq: queue CPUs $all, affinity $aff"
		[ "$(expand_cpulist "$aff" | tr '\n' ' ')" = "$want" ]
	done < <(ssdt_queue_irqs)
	fire_all
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "verify: $stderr"; false; }
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "revert: $stderr"; false; }
	[ "$(affinities)" = "$before" ]
}

@test "apply --profile iops steers every queue vector to node 1's interrupt core; verify holds; a manual change is drift; revert restores byte for byte" {
	bdf=$(nvme_bdf)
	before=$(affinities)
	echo "before:"; echo "$before"
	run --separate-stderr ssdt plan --profile iops --json "$bdf"
	irqc=$(py 'v["devices"][0]["irq_cpus"]')
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE" "$bdf"
	echo "$output" | tail -5
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		[ "$aff" = "$irqc" ] ||
			{ echo "$q irq $irq: smp_affinity_list $aff, want $irqc"; false; }
	done < <(ssdt_queue_irqs)
	fire_all
	irqset=" $(expand_cpulist "$irqc") "
	while read -r q irq; do
		read -r eff <"/proc/irq/$irq/effective_affinity_list"
		echo "$q irq $irq: effective $eff"
		[[ $irqset == *" $eff "* ]]
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

# topo_check BDF ssdt|nvme [PAIRS]: the vectors of PCI function BDF in
# 'ssdtune --json topology' ($output), printed, have the MSI-X entries 0
# to N-1; on ssdt each "qK IRQ" line of PAIRS is queue K there; on nvme
# the vector named ...q0 is entry 0 and none has a queue.  One python
# start (slow under TCG) for all of it.
topo_check() {
	python3 -c '
import json, sys
bdf, mode = sys.argv[1], sys.argv[2]
v = json.load(sys.stdin)
irqs = [d for d in v["storage"] if d["pci_address"] == bdf][0]["irqs"]
if mode == "ssdt":
    print([(q["irq"], q["msix_entry"], q["queue"], q["name"]) for q in irqs])
else:
    print([(q["irq"], q["msix_entry"], q["name"]) for q in irqs])
bad = []
if sorted(q["msix_entry"] for q in irqs) != list(range(len(irqs))):
    bad.append("the MSI-X entries are not 0 to %d" % (len(irqs) - 1))
if mode == "ssdt":
    for pair in sys.argv[3].splitlines():
        q, irq = pair.split()
        got = [x["queue"] for x in irqs if x["irq"] == int(irq)]
        if got != [int(q[1:])]:
            bad.append("irq %s: queues %s in the topology, %s in sysfs" % (irq, got, q))
else:
    if [q["msix_entry"] for q in irqs if q["name"].endswith("q0")] != [0]:
        bad.append("the q0 vector is not MSI-X entry 0")
    if set(q["queue"] for q in irqs) != {None}:
        bad.append("vectors with a queue on the stock driver")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
' "$@" <<<"$output"
}

# This test and the next leave the controller on nvme (teardown_file's
# teardown_stock takes it from either driver): keep them last.  Attaching
# it again after each cost an attach and a detach, ~10 s under TCG.
@test "topology names every vector by its MSI-X entry from the kernel, on ssdtune (with its queue) and on nvme" {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	topo_check "$bdf" ssdt "$(ssdt_queue_irqs)"
	detach
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	topo_check "$bdf" nvme
}

@test "stock nvme: plan reports the I/O vectors as kernel-managed and apply does not move them" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	irqs=$(nvme_io_irqs)
	[ -n "$irqs" ]
	nio=$(echo $irqs | wc -w)
	run --separate-stderr ssdt plan --profile latency --json "$bdf"
	[ "$status" -eq 0 ]
	IFS='|' read -r managed skipped < <(py '"|".join(str(x) for x in (
		v["devices"][0]["managed_vectors"],
		sum(1 for c in v["changes"] if c["action"] == "skip" and "not steerable" in c["reason"])))')
	echo "managed $managed, skipped as not steerable $skipped, I/O vectors $nio"
	[ "$managed" = "$nio" ]
	[ "$skipped" = "$nio" ]
	# shellcheck disable=SC2086 # the IRQ numbers, one word each
	before=$(affinity_bytes $irqs)
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE" "$bdf"
	echo "$output" | grep -E 'smp_affinity|changed' || true
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; false; }
	for i in $irqs; do
		refute grep -q "\"/proc/irq/$i/smp_affinity_list\"" "$STATE/state.json"
	done
	# shellcheck disable=SC2086
	[ "$(affinity_bytes $irqs)" = "$before" ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
}
