#!/usr/bin/env bats
# ssdtune topology against host fixtures (tests/host/fixtures/mktopo.py)
# mounted over /sys, /proc/irq and /proc/interrupts.

load ../helpers

# jq-like field access into $output with a python expression on "v".
py() {
	printf '%s' "$output" | python3 -c "import json,sys; v=json.load(sys.stdin); print($1)"
}

@test "topology of one socket: one node, 8 CPUs without SMT, the NVMe on nvme" {
	make_topo 1s8c
	run --separate-stderr ssdt topology
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "NUMA: 1 node" ]
	[ "${lines[1]}" = "  node 0: cpus 0-7 (8), memory 65536 MiB (32768 MiB free), distances 10" ]
	[ "${lines[2]}" = "CPUs: 8, 1 package, 8 cores, no SMT" ]
	[[ "$output" == *"  0000:01:00.0 nvme [144d:a80a] "* ]]
	# the fixture's NVMe has numa_node -1: said in words, not as -1
	[[ "$output" == *"    no NUMA node (the firmware gives none), driver nvme"* ]]
	[[ "$output" == *"    link 16GT/s x4 (7876 MB/s), capable of 16GT/s x4 (7876 MB/s) behind 0000:00:01.0"* ]]
	[[ "$output" == *"cpufreq: driver intel_pstate"* ]]
	[[ "$output" == *"policies 0-7: governor powersave, EPP balance_performance"* ]]
	[[ "$output" == *"turbo: on"* ]]
}

@test "topology --json of two sockets parses and puts the NVMe on node 1" {
	make_topo 2s24c
	run --separate-stderr ssdt topology --json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -m json.tool >/dev/null
	[ "$(py 'len(v["numa"]["nodes"])')" = 2 ]
	[ "$(py 'v["numa"]["nodes"][1]["cpus"]')" = "24-47,72-95" ]
	[ "$(py 'v["numa"]["nodes"][0]["distances"]["1"]')" = 21 ]
	[ "$(py 'v["cpus"]["count"]')" = 96 ]
	[ "$(py 'v["cpus"]["smt"]')" = True ]
	[ "$(py 'v["cpus"]["threads_per_core"]')" = 2 ]
	[ "$(py '[p["cores"] for p in v["cpus"]["packages"]]')" = "[24, 24]" ]
	[ "$(py 'v["cpus"]["cpus"][24]["siblings"]')" = "24,72" ]
	[ "$(py '[s["pci_address"] for s in v["storage"]]')" = "['0000:00:17.0', '0000:81:00.0']" ]
	[ "$(py 'v["storage"][1]["numa_node"]')" = 1 ]
	[ "$(py 'v["storage"][1]["kind"]')" = nvme ]
	[ "$(py 'v["storage"][0]["kind"]')" = sata ]
	[ "$(py 'v["storage"][1]["driver"]')" = nvme ]
}

@test "topology flags a link trained below its capability" {
	make_topo 2s24c
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	[ "$(py '(v["storage"][1]["link"]["speed"], v["storage"][1]["link"]["width"])')" = "('8GT/s', 2)" ]
	[ "$(py 'v["storage"][1]["link"]["max_width"]')" = 4 ]
	[ "$(py 'v["storage"][1]["link"]["bandwidth_mbps"]')" = 1970 ]
	[ "$(py 'v["storage"][1]["link"]["max_bandwidth_mbps"]')" = 3940 ]
	[ "$(py 'v["storage"][1]["link"]["downtrained"]')" = True ]
	[[ "$(py 'v["warnings"]')" == *"0000:81:00.0: link trained below its capability: 8GT/s x2 of 8GT/s x4 (1970 of 3940 MB/s)"* ]]
}

@test "topology names each vector by its MSI-X entry and, on ssdtune, its queue" {
	make_topo 4n128c
	mkdir -p "$FX/class/ssdtune/ssdt0/queues/q3"
	irq=$(ls "$(ls -d "$FX"/devices/pci*/*/0000:41:00.0)/msi_irqs" | sort -n | sed -n 4p)
	echo "$irq" >"$FX/class/ssdtune/ssdt0/queues/q3/irq"
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	[ "$(py 'v["storage"][0]["ssdtune_controller"]')" = ssdt0 ]
	[ "$(py '[q["msix_entry"] for q in v["storage"][0]["irqs"]]')" = "[0, 1, 2, 3, 4, 5, 6, 7, 8]" ]
	[ "$(py '[q["queue"] for q in v["storage"][0]["irqs"]][3]')" = 3 ]
	[ "$(py 'v["storage"][0]["irqs"][2]["queue"]')" = None ]
}

@test "topology gives no MSI-X entry where /proc/interrupts does not say it" {
	make_topo 1s8c
	sed -i 's/PCI-MSIX-0000:01:00.0/ITS-MSI/' "$PFX/interrupts"
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	[ "$(py 'v["storage"][0]["irqs"][1]["msix_entry"]')" = None ]
	[ "$(py 'v["storage"][0]["irqs"][1]["name"]')" = nvme0q1 ]
}

@test "topology flags an upstream port that caps the device's link" {
	make_topo 4n128c
	run --separate-stderr ssdt topology
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: the upstream port 0000:c0:01.1 caps the link at 8GT/s x4 (3940 MB/s); the device can do 16GT/s x4 (7876 MB/s)"* ]]
	run --separate-stderr ssdt topology --json
	[ "$(py 'v["storage"][1]["link"]["port_limited"]')" = True ]
	[ "$(py 'v["storage"][1]["link"]["downtrained"]')" = False ]
}

@test "topology reports read-only (6.12-style) vectors as kernel-managed and says attach makes them steerable" {
	make_topo 2s24c
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	[ "$(py 'v["storage"][1]["irqs"][0]["managed"]')" = False ]
	[ "$(py 'v["storage"][1]["irqs"][1]["managed"]')" = True ]
	[ "$(py 'v["storage"][1]["irqs"][1]["managed_reason"]')" = "smp_affinity is read-only (kernel-managed)" ]
	[ "$(py 'v["storage"][1]["irqs"][1]["name"]')" = nvme0q1 ]
	[ "$(py 'v["storage"][1]["irqs"][1]["effective_affinity"]')" = 0 ]
	[ "$(py 'v["storage"][1]["steerable"]')" = some ]
	[[ "$(py 'v["storage"][1]["warnings"]')" == *"16 of 17 interrupt vectors are kernel-managed: their affinity cannot be set; 'ssdtune attach 0000:81:00.0' makes them steerable"* ]]
}

@test "topology infers managed vectors of the stock nvme driver on writable (6.1-style) files" {
	make_topo 1s8c
	run --separate-stderr ssdt --json topology
	[ "$(py 'v["storage"][0]["irqs"][3]["managed"]')" = True ]
	[ "$(py 'v["storage"][0]["irqs"][3]["managed_reason"]')" = "nvme: I/O queue vectors are kernel-managed" ]
	[ "$(py 'v["storage"][0]["irqs"][0]["managed_reason"]')" = "nvme: admin queue vector (not managed)" ]
}

@test "topology shows an ssdtune controller's vectors as steerable, and its quirks" {
	make_topo 4n128c
	run --separate-stderr ssdt --json topology
	[ "$status" -eq 0 ]
	[ "$(py 'v["storage"][0]["ssdtune_controller"]')" = ssdt0 ]
	[ "$(py 'v["storage"][0]["steerable"]')" = all ]
	# the driver's quirks for it (sysfs quirks), none for nvme's
	[ "$(py 'v["storage"][0]["quirks"]')" = "['no_deepest_ps', 'disable_write_zeroes']" ]
	[ "$(py 'v["storage"][1]["quirks"]')" = None ]
	[ "$(py 'v["storage"][0]["numa_node"]')" = 1 ]
	[ "$(py 'v["storage"][1]["numa_node"]')" = 3 ]
	[ "$(py 'v["storage"][0]["warnings"]')" = "[]" ]
	[ "$(py 'v["numa"]["nodes"][0]["distances"]')" = "{'0': 10, '1': 16, '2': 32, '3': 32}" ]
}

@test "topology lists C-states with exit latency and where they are disabled" {
	make_topo 2s24c
	run --separate-stderr ssdt topology
	[[ "$output" == *"cpuidle: driver intel_idle, governor menu"* ]]
	[[ "$output" == *"  C6: exit latency 133 us, disabled on cpus 0-3"* ]]
	run --separate-stderr ssdt topology --json
	[ "$(py '[(s["name"], s["latency_us"]) for s in v["cpuidle"]["states"]]')" = "[('POLL', 0), ('C1', 2), ('C1E', 10), ('C6', 133)]" ]
	[ "$(py 'v["cpufreq"]["turbo_file"]')" = /sys/devices/system/cpu/cpufreq/boost ]
}

@test "topology on a VM without cpufreq or cpuidle skips them and says so" {
	make_topo vm
	run --separate-stderr ssdt topology
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"cpuidle: not available (skipped)"* ]]
	[[ "$output" == *"cpufreq: not available (skipped)"* ]]
	[[ "$output" == *"turbo: unknown"* ]]
	[[ "$output" == *"link: not PCI Express"* ]]
	run --separate-stderr ssdt topology --json
	[ "$(py '(v["cpuidle"]["available"], v["cpufreq"]["available"], v["cpufreq"]["turbo"])')" = "(False, False, None)" ]
	[[ "$(py 'v["warnings"]')" == *"cpufreq: not available on this host"* ]]
}

@test "topology names a malformed file in one line and exits 1" {
	make_topo 1s8c
	echo banana >"$FX/devices/system/cpu/cpu3/topology/core_id"
	run --separate-stderr ssdt topology
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: /sys/devices/system/cpu/cpu3/topology/core_id: malformed (expected an integer, got 'banana')" ]
	[ -z "$output" ]
}

@test "topology names a missing CPU directory in one line" {
	make_topo vm
	rm -r "$FX"/devices/system/cpu/cpu[0-9]*
	run --separate-stderr ssdt topology
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: /sys/devices/system/cpu: no cpuN directories" ]
}

@test "topology changes nothing" {
	make_topo 4n128c
	before=$(fx_sum)
	run --separate-stderr ssdt topology
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt topology --json
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
}

@test "topology --dry-run is a usage error: it changes nothing anyway" {
	run --separate-stderr ssdt topology --dry-run
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--dry-run does not apply"* ]]
}

@test "topology takes no operands" {
	run --separate-stderr ssdt topology 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: topology: unexpected argument '0000:41:00.0' (see 'ssdtune topology --help')" ]
}
