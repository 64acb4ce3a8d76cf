#!/usr/bin/env bats
# ssdtune qualify CTRL against fixture trees mounted over /sys: what it
# refuses, changing nothing.  The report itself needs a controller that
# answers Identify: tests/vm/subsys/45-qualify.bats; its comparison has
# unit tests (tools/ssdtune/tests/ctrlview_test.c).

load ../helpers

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

@test "qualify --write-test without --destroy-data or --range, and their options alone, are usage errors; nothing changed" {
	before=$(fx_sum)
	run --separate-stderr ssdt qualify --write-test --range 1g:64m 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ $stderr == *"--write-test overwrites the --range it is given: add --destroy-data"* ]]
	run --separate-stderr ssdt qualify --write-test --destroy-data 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ $stderr == *"--write-test needs --range OFFSET:LENGTH"* ]]
	for opt in "--range 0:4k" "--namespace 1" --destroy-data --yes-destroy-data; do
		# shellcheck disable=SC2086 # the option and its value
		run --separate-stderr ssdt qualify $opt 0000:41:00.0
		[ "$status" -eq 2 ]
		assert_one_error_line
		[[ $stderr == *"--range, --namespace and --destroy-data go with --write-test"* ]]
	done
	[ "$(fx_sum)" = "$before" ]
}

@test "qualify --range and --namespace refuse what they cannot read: one line each, exit 2" {
	for r in 1g 1g:0 :4k 4k: 1.5g:4k 1x:4k -1:4k; do
		run --separate-stderr ssdt qualify --write-test --destroy-data --range "$r" 0000:41:00.0
		[ "$status" -eq 2 ]
		assert_one_error_line
		[[ $stderr == *"--range '$r': OFFSET:LENGTH in bytes, k, m, g or t (1g:64m)"* ]]
	done
	for n in 0 -1 x 4294967295 99999999999; do
		run --separate-stderr ssdt qualify --write-test --destroy-data --range 0:4k --namespace "$n" 0000:41:00.0
		[ "$status" -eq 2 ]
		assert_one_error_line
		[[ $stderr == *"--namespace '$n': a namespace id from 1"* ]]
	done
}
