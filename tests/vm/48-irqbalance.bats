#!/usr/bin/env bats
# irqbalance and the tuned vectors, with Debian's irqbalance (unpacked by
# scripts/setup.sh into build/irqbalance, not installed) on the 2-node
# guest: one balancing pass (--oneshot) moves vectors that apply steered
# onto node 1's interrupt core; with the options the plan gives (--banirq
# for each vector, IRQBALANCE_BANNED_CPULIST = the I/O cores) it leaves
# them there.  The guest has no systemd: the drop-in that carries these
# options to irqbalance.service and its restart are tested on the host
# (tests/host/cmd/tune.bats).
#
# vm-kernels: both (irqbalance on each kernel's vectors)

bats_require_minimum_version 1.5.0

load lib/common

STATE=$SSDT_TMP/irqbalance-state
IRQB=$SSDT_BUILD/irqbalance/irqbalance
# --oneshot sleeps one interval (10 s by default) between reading the
# interrupt counts and the single balancing pass; 1 s is its shortest.  The
# pass places every vector it may move (all are queued for rebalancing at
# start), so a shorter sampling window changes no outcome tested here.
IRQB_INTERVAL=--interval=1

setup_file() {
	setup_attached
}

setup() {
	[ -x "$IRQB" ] || { echo "no $IRQB: run make setup" >&2; return 1; }
}

teardown() {
	pkill -x irqbalance 2>/dev/null || true
	revert_state "$STATE"
}

teardown_file() {
	teardown_stock
}


# Apply iops to the controller (the profile that puts every vector on
# the interrupt cores); $irqc is its interrupt core.
apply_iops() {
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt plan --profile iops --json "$bdf"
	[ "$status" -eq 0 ]
	# one python start (slow under TCG) for both
	IFS='|' read -r irqc io < <(py '"|".join((v["devices"][0]["irq_cpus"], v["io_cpus"]))')
	run --separate-stderr ssdt apply --profile iops --state-dir "$STATE" "$bdf"
	[ "$status" -eq 0 ] || { echo "apply: $stderr"; return 1; }
}

# How many queue vectors are not on the interrupt core.
moved() {
	local q irq aff n=0
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		[ "$aff" = "$irqc" ] || n=$((n + 1))
	done < <(ssdt_queue_irqs)
	echo "$n"
}

# show_vectors: "qK IRQ smp_affinity_list" per queue vector
show_vectors() {
	local q irq aff
	while read -r q irq; do
		read -r aff <"/proc/irq/$irq/smp_affinity_list"
		echo "$q $irq $aff"
	done < <(ssdt_queue_irqs)
}

@test "without the plan's options, one irqbalance pass moves vectors off the interrupt core (the failure the options prevent)" {
	apply_iops
	[ "$(moved)" = 0 ]
	run timeout 60 "$IRQB" --oneshot --foreground "$IRQB_INTERVAL"
	show_vectors
	[ "$(moved)" -gt 0 ]
}

@test "with the plan's --banirq and IRQBALANCE_BANNED_CPULIST, irqbalance leaves every vector on the interrupt core and bans the I/O core" {
	apply_iops
	# the plan gives the options while an irqbalance runs
	cp /bin/sleep "$SSDT_TMP/irqbalance"
	"$SSDT_TMP/irqbalance" 30 3>&- &
	run --separate-stderr ssdt plan --profile iops --json "$bdf"
	kill $!
	[ "$status" -eq 0 ]
	IFS='|' read -r unit args banned < <(py '"|".join(str(v["irqbalance"][k])
		for k in ("systemd_unit", "args", "banned_cpulist"))')
	[ "$unit" = False ]
	echo "args: $args; banned: $banned"
	[ "$banned" = "$io" ]
	# every vector of the device, the admin one included (iops makes no
	# poll queue)
	[ "$(echo "$args" | wc -w)" = "$(ls "/sys/bus/pci/devices/$bdf/msi_irqs" | wc -l)" ]
	# shellcheck disable=SC2086
	IRQBALANCE_BANNED_CPULIST=$banned run timeout 60 "$IRQB" --oneshot --foreground --debug \
		"$IRQB_INTERVAL" $args
	[ "$status" -eq 0 ]
	mask=$(echo "$output" | sed -n 's/^Banned CPUs: *//p' | head -1)
	echo "irqbalance: Banned CPUs: $mask"
	for c in $(expand_cpulist "$io"); do
		(( (0x${mask//,/} >> c) & 1 )) || { echo "I/O core $c not banned"; false; }
	done
	show_vectors
	[ "$(moved)" = 0 ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$output" | grep drift; false; }
}
