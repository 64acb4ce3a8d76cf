#!/usr/bin/env bats
# A recorded host: 'topology --save DIR' records the /sys and /proc files
# the tool reads, and '--root DIR' (or SSDTUNE_ROOT) replays them for
# topology and plan (lib/hostrec.c).  A fixture of mktopo.py has the
# recording's shape, so the fixtures replay too (the golden plans in
# tune.bats go through --root).

load ../helpers

# topology --json of the fixture in $BATS_TEST_TMPDIR, as the bind-mount
# namespace of the other tests shows it
fixture_topology() {
	run --separate-stderr ssdt topology --json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/ns.json"
}

@test "--root replays a fixture: topology --json is the same as with the fixture mounted over /sys" {
	local fx
	for fx in 4n128c vm; do
		make_topo "$fx"
		fixture_topology
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" topology --json
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ] || { echo "$fx differs"; false; }
	done
}

@test "topology --save records the host, and --root replays the recording: the same topology, the same plan" {
	local rec=$BATS_TEST_TMPDIR/rec
	make_topo 4n128c
	fixture_topology
	run --separate-stderr ssdt topology --save "$rec"
	[ "$status" -eq 0 ]
	[[ "${lines[-2]}" =~ ^"recorded in $rec: "[1-9][0-9]*" files, "[1-9][0-9]*" links, " ]]
	[ "${lines[-1]}" = "replay it: ssdtune --root $rec topology" ]
	grep -q '^ssdtune .* recording' "$rec/ssdtune-recording.txt"
	[ -f "$rec/proc/interrupts" ] && [ -d "$rec/proc/irq/300" ] && [ -L "$rec/sys/bus/pci/devices/0000:41:00.0" ]
	# read-only, write-only and BAR files as the fixture has them
	[ "$(stat -c %a "$rec/sys/devices/system/cpu/online")" = "$(stat -c %a "$FX/devices/system/cpu/online")" ]
	run --separate-stderr "$SSDTUNE" --root "$rec" topology --json
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ]
	SSDTUNE_STATE_DIR=$BATS_TEST_TMPDIR/state run --separate-stderr "$SSDTUNE" --root "$rec" plan --profile latency --isolate
	[ "$status" -eq 0 ]
	diff -u "$BATS_TEST_DIRNAME/../golden/plan-4n128c-latency-isolate.txt" <(printf '%s\n' "$output" |
		grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance')
	# SSDTUNE_ROOT does what --root does
	SSDTUNE_ROOT=$rec run --separate-stderr "$SSDTUNE" topology --json
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ]
}

@test "topology --save --json: the report, with what was recorded" {
	make_topo vm
	run --separate-stderr ssdt topology --json --save "$BATS_TEST_TMPDIR/rec"
	[ "$status" -eq 0 ]
	[ "$(json .recording.dir)" = "$BATS_TEST_TMPDIR/rec" ]
	[ "$(json .recording.files)" -gt 100 ]
	[ "$(json .recording.links)" -gt 0 ]
	[ "$(json .recording.bytes)" -gt 0 ]
	[ "$(json .recording.unreadable)" -eq 0 ]
	[[ "$(json .storage.0.pci_address)" =~ ^0000: ]]
}

@test "topology --save into a directory that is not empty: one line, exit 1, nothing written" {
	mkdir "$BATS_TEST_TMPDIR/full"
	echo keep >"$BATS_TEST_TMPDIR/full/a"
	run --separate-stderr ssdt topology --save "$BATS_TEST_TMPDIR/full"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"is not empty"* ]]
	[ "$(ls -A "$BATS_TEST_TMPDIR/full")" = a ]
	run --separate-stderr ssdt topology --save ""
	[ "$status" -eq 2 ]
}

@test "--root of what is no recording, and --root for a command that changes the host: usage errors, nothing read" {
	run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR/none" topology
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--root $BATS_TEST_TMPDIR/none: not a recorded host"* ]]
	make_topo vm
	for c in apply revert "set $SSDT poll_queues=1" "attach $NVME" status verify; do
		# shellcheck disable=SC2086 # the command and its operands
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" $c
		[ "$status" -eq 2 ] || { echo "$c: $status"; false; }
		[[ "$stderr" == *"replays a recorded host: only topology and plan read one"* ]]
	done
	SSDTUNE_ROOT=$BATS_TEST_TMPDIR run --separate-stderr "$SSDTUNE" apply
	[ "$status" -eq 2 ]
	run --separate-stderr "$SSDTUNE" --root
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"option '--root' needs a value"* ]]
}
