#!/usr/bin/env bats
# ssdtune qualify CTRL against fixture trees mounted over /sys: what it
# refuses, changing nothing.  The report itself needs a controller that
# answers Identify: tests/vm/subsys/45-qualify.bats; its comparison has
# unit tests (tools/ssdtune/tests/ctrlview_test.c).

load helpers

@test "qualify of a BDF that does not exist: one line, exit 1, nothing changed" {
	before=$(fx_sum)
	run --separate-stderr ssdt qualify 0000:43:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: no PCI device 0000:43:00.0 (/sys/bus/pci/devices/0000:43:00.0 does not exist)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "qualify of a device that is not an NVMe controller: one line, exit 1" {
	before=$(fx_sum)
	run --separate-stderr ssdt qualify 0000:00:02.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ $stderr == "ssdtune: 0000:00:02.0 is not an NVMe controller"* ]]
	[ "$(fx_sum)" = "$before" ]
}

@test "qualify of a name that is no controller is a usage error; no operand either" {
	run --separate-stderr ssdt qualify frobnicate
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ $stderr == *"'frobnicate' names no controller"* ]]
	run --separate-stderr ssdt qualify
	[ "$status" -eq 2 ]
}

@test "qualify refuses a controller whose namespace is mounted, and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt_with_mount "$NVME_NS/nvme0n1p1/dev" qualify 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1p1 is mounted on $BATS_TEST_TMPDIR/mnt" ]
	echo 259:900001 >"$NVME_NS/nvme0n1p1/dev"	# undo the test's own change
	[ "$(fx_sum)" = "$before" ]
}

@test "qualify --json of a missing device is the error object of its schema" {
	run --separate-stderr ssdt qualify --json 0000:43:00.0
	[ "$status" -eq 1 ]
	[ "$(json .status)" = error ]
	printf '%s\n' "$output" | "$REPO/tests/lib/json-schema-check" qualify
}

@test "qualify --output to a directory that does not exist: one line, exit 1, nothing changed" {
	before=$(fx_sum)
	run --separate-stderr ssdt qualify --output /nonexistent/dir/q.txt 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ $stderr == "ssdtune: cannot write /nonexistent/dir/q.txt: No such file or directory" ]]
	[ "$(fx_sum)" = "$before" ]
}
