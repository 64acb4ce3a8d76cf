#!/usr/bin/env bats
# ssdtune qualify on the device matrix of scripts/vm.sh --subsys
# (40-matrix says what each controller is): the report reads a
# controller under nvme, then under ssdtune, and puts it back; its
# verdict names what ssdtune does differently.  ssdtm2's zoned, metadata
# and PI namespaces are served by stock only: the verdict must say so and
# the log must say why; ssdtm1 (stock's quirks) is served alike.

load ../lib/common
bats_require_minimum_version 1.5.0

setup_file() {
	require_subsys_boot || return 1
	module_load
}

teardown_file() {
	module_unload
}

@test "qualify ssdtm2: namespaces 2-4 served by nvme only, each refusal's reason in the log; NVMe 1.4, one I/O vector pair; back on nvme" {
	SSDT_VM_NVME_SERIAL=ssdtm2
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ]
	run --separate-stderr ssdt qualify "$bdf"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 0 ]
	# kept: the report a run shows (build/results/)
	printf '%s\n' "$output" >"$SSDT_RESULTS/qualify-ssdtm2-$(uname -r).txt"
	[ "$(pci_driver "$bdf")" = nvme ]
	[[ ${lines[0]} == "qualify $bdf: "*"(back on nvme)" ]]
	[[ ${lines[1]} == "verdict: "*" differences from stock nvme that matter:" ]]
	for ns in 2 3 4; do
		[[ $output == *"  namespace $ns: served by nvme ("*"), not by ssdtune"* ]]
	done
	[[ $output != *"namespace 1: served by nvme"* ]]
	[[ $output != *"namespace 5: served by nvme"* ]]
	[[ $output == *"ssdtune $bdf: namespace 2: the zoned command set (CSI 2) is not supported by ssdtune, skipped"* ]]
	grep -E -q '^NVMe version +1\.4\.0 +1\.4\.0$' <<<"$output"
	# the same limits for the namespaces both serve
	[[ $output != *"namespace 1: logical block size"* ]]
	[[ $output != *"namespace 5: "*" under ssdtune"* ]]
}

@test "qualify --json --output: the report as JSON in the file and on stdout; quirks of 8086:5845 on ssdtune's side; the controller back on nvme" {
	SSDT_VM_NVME_SERIAL=ssdtm1
	bdf=$(nvme_bdf)
	run --separate-stderr ssdt qualify --json --output "$SSDT_TMP/q.json" "$(nvme_disk)"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(pci_driver "$bdf")" = nvme ]
	python3 - "$SSDT_TMP/q.json" <<-'EOF2'
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["pci_address"], r
	assert r["back_on"] == "nvme", r
	assert r["nvme"]["driver"] == "nvme" and r["ssdtune"]["driver"] == "ssdtune"
	assert r["ssdtune"]["quirks"] == "identify_cns disable_write_zeroes", r["ssdtune"]["quirks"]
	assert r["differences"] == [], r["differences"]
	n, s = r["nvme"]["namespaces"], r["ssdtune"]["namespaces"]
	assert [x["nsid"] for x in n] == [1] == [x["nsid"] for x in s], (n, s)
	assert n[0]["logical_block_size"] == s[0]["logical_block_size"] == "4096"
	assert r["nvme"]["apst_supported"] is False and r["ssdtune"]["apst_table"] == []
	assert r["ssdtune"]["vectors"] >= 2 and r["ssdtune"]["vectors_steerable"] == r["ssdtune"]["vectors"]
	assert any("quirks: identify_cns" in l for l in r["log"]), r["log"]
	EOF2
	json_schema_ok qualify <"$SSDT_TMP/q.json"
	cp "$SSDT_TMP/q.json" "$SSDT_RESULTS/qualify-ssdtm1-$(uname -r).json"
}

@test "qualify refuses a controller whose namespace is mounted, and changes nothing" {
	SSDT_VM_NVME_SERIAL=ssdtm1
	bdf=$(nvme_bdf)
	disk=$(nvme_disk)
	mkfs.ext4 -q -F "$disk"
	mkdir -p "$SSDT_TMP/mnt"
	mount "$disk" "$SSDT_TMP/mnt"
	run --separate-stderr ssdt qualify "$bdf"
	umount "$SSDT_TMP/mnt"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	[[ $stderr == *"refusing to attach $bdf"*"mounted"* ]]
	[ "$(pci_driver "$bdf")" = nvme ]
}
