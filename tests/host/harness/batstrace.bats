#!/usr/bin/env bats
# The VM suite's bats without the per-command DEBUG trap
# (tests/vm/lib/common.bash, ssdt_err_trap), on the host: a failing
# command still names its file, line and command, through helpers too;
# run, skip and || behave as in bats, and no DEBUG trap is set
# (fixtures/batstrace.bats.in).

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)

@test "without bats' DEBUG trap a failure names its file, line and command; run, skip and || as in bats" {
	local t=$BATS_TEST_TMPDIR/t.bats
	cp "$BATS_TEST_DIRNAME/../fixtures/batstrace.bats.in" "$t"
	SSDT_COMMON=$REPO/tests/vm/lib/common run bats --timing "$t"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "1..5" ]
	[[ $output == *"not ok 1 a failing line"*"# (in test file $t, line 8)"*'#   `[ "$x" -eq 2 ]'"' failed"*"# its output"* ]]
	[[ $output != *"not reached"* ]]
	[[ $output == *"not ok 2 a failing helper"*"# (from function \`h' in file $t, line 4,"*"#  in test file $t, line 13)"* ]]
	[[ $output == *"ok 3 run, if and || do not fail"* ]]
	[[ $output == *"ok 4 skip in "*"# skip a reason"* ]]
	[[ $output == *"ok 5 no DEBUG trap in a test, the ERR trap is ssdt_err_trap"* ]]
}
