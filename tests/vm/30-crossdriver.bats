#!/usr/bin/env bats
# The on-disk format is the device's, not the driver's: data written through
# one driver reads back identically through the other.
#
# vm-kernels: both (data shared with each kernel's stock nvme)

load lib/common
bats_require_minimum_version 1.5.0

setup() {
	module_load
}

teardown_file() {
	teardown_stock
}

# put_pattern DISK MIB_OFFSET: write 8 MiB of fresh random data there
put_pattern() {
	head -c 8M /dev/urandom >"$SSDT_TMP/pattern"
	dd if="$SSDT_TMP/pattern" of="$1" bs=1M seek="$2" oflag=direct conv=fsync status=none
}

# check_pattern DISK MIB_OFFSET
check_pattern() {
	cmp <(dd if="$1" bs=1M skip="$2" count=8 iflag=direct status=none) "$SSDT_TMP/pattern"
}

@test "a pattern written through ssdtune reads back identically through nvme after detach" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = ssdtune ] || attach
	disk=$(ssdt_disk)
	put_pattern "$disk" 600
	check_pattern "$disk" 600
	detach
	[ "$(pci_driver "$bdf")" = nvme ]
	check_pattern "$(nvme_disk)" 600
}

@test "a pattern written through nvme reads back identically through ssdtune after attach" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	put_pattern "$(nvme_disk)" 700
	attach
	[ "$(pci_driver "$bdf")" = ssdtune ]
	check_pattern "$(ssdt_disk)" 700
}

# ssdtune qualify's write test does the same as the two tests above, with
# fio verify=pattern: pattern 1 through the driver the controller is on,
# read back through the other; pattern 2 the other way round.
# bats test_tags=one-kernel
@test "qualify --write-test: each pattern written through one driver verifies through the other; a read of the wrong pattern fails; a glance at speed under each; back on nvme" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	run --separate-stderr ssdt qualify --json --write-test --destroy-data --range 900m:8m "$bdf"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "$(pci_driver "$bdf")" = nvme ]
	printf '%s\n' "$output" >"$SSDT_TMP/q.json"
	json_schema_ok qualify <"$SSDT_TMP/q.json"
	python3 - "$SSDT_TMP/q.json" <<-'EOF2' >"$SSDT_TMP/cmd"
	import json, sys
	w = json.load(open(sys.argv[1]))["write_test"]
	assert w["passed"] and w["namespace"] == 1, w
	assert (w["offset_bytes"], w["length_bytes"]) == (900 << 20, 8 << 20), w
	got = [(s["action"], s["pattern"], s["driver"], s["ok"]) for s in w["steps"]]
	assert got == [("write", 1, "nvme", True), ("read", 1, "ssdtune", True),
	               ("write", 2, "ssdtune", True), ("read", 2, "nvme", True)], got
	assert w["steps"][1]["disk"].startswith("ssdt") and w["steps"][3]["disk"].startswith("nvme"), w
	sp = [(x["driver"], x["iops"] > 0, x["clat_p99_us"] > 0, x["error"]) for x in w["speed"]]
	assert sp == [("nvme", True, True, None), ("ssdtune", True, True, None)], w["speed"]
	print(w["steps"][3]["command"])
	EOF2
	read -r -a cmd <"$SSDT_TMP/cmd"
	[[ " ${cmd[*]} " == *" --verify_pattern=0x53445432%o "*" --verify_only=1 "* ]]
	# the last step's read again: pattern 2 is there; pattern 1's read fails
	"${cmd[@]}" >/dev/null
	run ! "${cmd[@]/--verify_pattern=0x53445432/--verify_pattern=0x53445431}"
	echo "$output"
	[[ $output == *"verify"*"pattern"* ]]
}

# bats test_tags=one-kernel
@test "qualify --write-test refuses a range beyond the namespace or off its blocks, before any write or move" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	bytes=$(($(cat "/sys/block/$(basename "$(nvme_disk)")/size") * 512))
	for range in "$((bytes - 4096)):8k" "$bytes:4k" 1000:4k 0:6000; do
		run --separate-stderr ssdt qualify --write-test --destroy-data --range "$range" "$bdf"
		echo "$stderr"
		[ "$status" -eq 1 ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ $stderr == *"--range "*"namespace 1"* ]]
		[ "$(pci_driver "$bdf")" = nvme ]
	done
	run --separate-stderr ssdt qualify --write-test --destroy-data --range 0:4k --namespace 7 "$bdf"
	[ "$status" -eq 1 ]
	[[ $stderr == *"has no namespace 7 under nvme"* ]]
}
