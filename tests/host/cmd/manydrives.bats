#!/usr/bin/env bats
# Many drives on one host: the plan sizes each node's interrupt cores to
# the drives planned on it (lib/planner_size.c, Documentation/tuning.md
# "Interrupt cores sized to the drives").  The fixtures of mktopo.py:
# 2s64c16d (8+8 drives), 2n8d (8 on one node of two), 4n24d (6 a node),
# 1n12d (too many for dedicated cores), mix (stock drives beside, a
# drive on a node without CPUs) and 2n1c4d (fewer CPUs than drives).  Each plan is replayed with --root.

load ../helpers

GOLDEN=$BATS_TEST_DIRNAME/../golden

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	export SSDTUNE_STATE_DIR=$BATS_TEST_TMPDIR/state
}

plan_json() {	# plan_json FIXTURE PROFILE: the plan as JSON in $BATS_TEST_TMPDIR/plan.json
	make_topo "$1"
	"$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile "$2" --json >"$BATS_TEST_TMPDIR/plan.json"
}

# goals FIXTURE: the plan's goals, checked from its JSON and the fixture's
# node files: no CPU carries more than one drive's worth of interrupts (a
# CPU's share: over the vectors placed there, 1/(that drive's I/O vectors
# with interrupts), a vector set to several CPUs counted evenly over them;
# stock drives' kernel-managed vectors count where they are); every vector
# stays on its drive's node but one that follows a queue whose submitting
# CPUs are all on another node (blk-mq maps a drive's queues over every
# node; as stock's, its completions stay with their submitters); every
# node with drives keeps I/O cores apart from every interrupt CPU.
goals() {
	python3 - "$BATS_TEST_TMPDIR/plan.json" "$FX/devices/system/node" <<'PY'
import json, os, sys
v = json.load(open(sys.argv[1]))
nodes = {}
for d in os.listdir(sys.argv[2]):
    if d.startswith("node") and d[4:].isdigit():
        nodes[int(d[4:])] = open(os.path.join(sys.argv[2], d, "cpulist")).read().strip()

def cpus(s):
    out = set()
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out

node_of = {d["pci_address"]: d["numa_node"] for d in v["devices"]}
vec, follow = {}, []
for c in v["changes"]:
    if not c.get("path", "").startswith("/proc/irq/") or c.get("vector", 0) <= 0:
        continue
    if c["action"] in ("set", "keep"):
        vec.setdefault(c["pci_address"], []).append(cpus(c["new"]))
        if "submit to its queue" in c["reason"]:
            follow.append(cpus(c["new"]))
    elif c["action"] == "skip" and "kernel-managed" in c["reason"] and c["old"]:
        vec.setdefault("stock " + c["pci_address"], []).append(cpus(c["old"]))
share, bad = {}, []
for dev, targets in vec.items():
    for t in targets:
        for cpu in t:
            share[cpu] = share.get(cpu, 0) + 1.0 / len(targets) / len(t)
        home = cpus(nodes[node_of[dev.split()[-1]]])
        if home and not t <= home and not dev.startswith("stock") and t not in follow:
            bad.append("%s: a vector on %s, off node %d" % (dev, sorted(t), node_of[dev]))
worst = max(share.values()) if share else 0
if worst > 1 + 1e-9:
    cpu = max(share, key=share.get)
    bad.append("CPU %d carries %.2f drives' worth of interrupts" % (cpu, worst))
irq = cpus(v["irq_cpus"])
for d in v["devices"]:
    io = cpus(d["io_cpus"])
    if not io or io & irq:
        bad.append("%s: I/O cores %s (interrupt CPUs %s)" % (d["pci_address"], d["io_cpus"], v["irq_cpus"]))
print("busiest CPU %.2f" % worst)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

@test "many drives: every profile's plan keeps each CPU to one drive's interrupts, each vector on its node, I/O cores on every node" {
	local fx prof
	for fx in 2s64c16d 2n8d 4n24d 1n12d mix; do
		for prof in iops latency throughput balanced; do
			plan_json "$fx" "$prof"
			run goals
			echo "$fx $prof: $output"
			[ "$status" -eq 0 ]
		done
	done
}

@test "16 drives on 2 sockets (iops): 4 interrupt cores a node, not 2, each drive on CPUs of its own, one line a node says so" {
	plan_json 2s64c16d iops
	run python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
d = v["devices"]
own = [x["irq_cpus"] for x in d]
assert len(set(own)) == 16, own
print(v["irq_cpus"])' "$BATS_TEST_TMPDIR/plan.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "1-4,16-19,33-36,48-51" ]
	run "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^note: node [01]: interrupt cores .* sized to its 8 drives .* carries 1.00 of a drive')" -eq 2 ]
	# a line a group: far fewer than the 528 vectors and 96 files
	[ "$(printf '%s\n' "$output" | wc -l)" -lt 80 ]
	run "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops --verbose
	[ "$(printf '%s\n' "$output" | grep -c '^/proc/irq/[0-9]*/smp_affinity_list')" -eq 528 ]
}

@test "too many drives for dedicated cores: queue-local completions, and the plan says why" {
	plan_json 1n12d iops
	run python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
io = [c for c in v["changes"] if c.get("vector", 0) > 0 and c.get("path", "").startswith("/proc/irq/")]
assert all("submit to its queue" in c["reason"] for c in io), [c["reason"] for c in io if "submit" not in c["reason"]][:1]
print(len(io))' "$BATS_TEST_TMPDIR/plan.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = 96 ]
	run "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops
	[[ "$output" == *"note: node 0: queue-local completions: interrupt cores for its 12 drives"* ]]
}

@test "a drive on a node without CPUs is planned on the nearest node, and stock drives' vectors count as load" {
	plan_json mix iops
	run python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
d = {x["pci_address"]: x for x in v["devices"]}
print(d["0000:19:00.0"]["numa_node"], len(v["devices"]))' "$BATS_TEST_TMPDIR/plan.json"
	[ "$output" = "0 9" ]
	run "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops
	[[ "$output" == *"note: 0000:19:00.0: its node 2 has no CPU: planning on node 0, the nearest that has"* ]]
	# 5 drives with 8 vectors beside 4 stock drives at 1/8 a CPU: one
	# CPU each would carry 1.12, two each leave too few I/O cores
	[[ "$output" == *"note: node 0: queue-local completions: interrupt cores for its 5 drives"* ]]
}

@test "golden plans: many-drive fixtures under iops and latency" {
	local fx prof
	for fx in 2s64c16d 2n8d 4n24d 1n12d mix; do
		make_topo "$fx"
		for prof in iops latency; do
			run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile "$prof"
			[ "$status" -eq 0 ]
			diff -u "$GOLDEN/plan-$fx-$prof.txt" <(printf '%s\n' "$output" |
				grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance') || { echo "$fx $prof differs"; return 1; }
		done
	done
}

@test "one CPU a node and two drives on each (make bench-scale's guest): every profile plans, the drives share the node's CPU and the plan says so" {
	for p in iops latency throughput balanced; do
		plan_json 2n1c4d "$p"
		[ -s "$BATS_TEST_TMPDIR/plan.json" ]
		"$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile "$p" >"$BATS_TEST_TMPDIR/plan.txt"
	done
	run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: node 0: interrupt cores 0 sized to its 2 drives with interrupt-driven queues (4 vectors), all sharing them (fewer CPUs than drives)"* ]]
	[[ "$output" == *"note: node 1: interrupt cores 1 sized to its 2 drives"* ]]
	run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" plan --profile iops --json
	[ "$(json .devices.0.irq_cpus) $(json .devices.1.irq_cpus) $(json .devices.2.irq_cpus) $(json .devices.3.irq_cpus)" = "0 0 1 1" ]
}
