#!/usr/bin/env bats
# ssdtune set: validation before any write, saved state, verify and revert,
# against the default fixture (fixtures/mksys.py: ssdt0 at 0000:42:00.0).
# The fixture's knob files are plain files, so what the driver itself
# checks (and refuses) is tested in the VM (tests/vm/65-set.bats).

load ../helpers

KNOBS=class/ssdtune/ssdt0

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	make_fixture
	STATE=$BATS_TEST_TMPDIR/state
}

knob() { cat "$FX/$KNOBS/$1"; }

@test "set: bad values, unknown knobs and junk exit 2 with one line and write nothing" {
	before=$(fx_sum)
	for bad in coalesce_mode=bogus coalesce_threshold=257 coalesce_threshold=-1 \
		coalesce_threshold=8x coalesce_threshold= coalesce_time_us=25501 \
		coalesce_profile=fast power_limit_mw=1e3 power_limit_mode=off nosuch=1; do
		run --separate-stderr ssdt set --state-dir "$STATE" coalesce_threshold=4 "$bad"
		echo "$bad: $status: $stderr"
		[ "$status" -eq 2 ]
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	done
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE" ]
}

@test "set: two operands without '=' and no knob at all are usage errors" {
	run --separate-stderr ssdt set ssdt0 ssdt1 coalesce_threshold=4
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'ssdt1': expected KNOB=VALUE"* ]]
	run --separate-stderr ssdt set ssdt0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no KNOB=VALUE given"* ]]
}

@test "set: an unknown controller is refused with one line" {
	run --separate-stderr ssdt set --state-dir "$STATE" ssdt7 coalesce_threshold=4
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no ssdtune controller 'ssdt7'"* ]]
	[ ! -e "$STATE" ]
}

@test "set --dry-run prints the writes and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt set --dry-run --state-dir "$STATE" ssdt0 coalesce_threshold=16 power_limit_mw=9000
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"coalesce_threshold <- 16"* ]]
	[[ "$output" == *"power_limit_mw <- 9000"* ]]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE" ]
}

@test "set by PCI address writes the knobs; verify holds; revert restores the tree byte for byte" {
	before=$(fx_sum)
	run --separate-stderr ssdt set --state-dir "$STATE" 0000:42:00.0 coalesce_threshold=16 \
		coalesce_time_us=500 power_limit_mw=9000
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$(knob coalesce_threshold)" = 16 ]
	[ "$(knob coalesce_time_us)" = 500 ]
	[ "$(knob power_limit_mw)" = 9000 ]
	[ -s "$STATE/state.json" ]
	run --separate-stderr ssdt verify --state-dir "$STATE"
	echo "$output"
	[ "$status" -eq 0 ]
	# drift: somebody else changes a knob
	echo 3 >"$FX/$KNOBS/coalesce_threshold"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"coalesce_threshold"* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "set twice keeps the first originals: revert goes back to before the first set" {
	before=$(fx_sum)
	ssdt set --state-dir "$STATE" coalesce_threshold=16
	ssdt set --state-dir "$STATE" coalesce_threshold=32 coalesce_mode=host
	[ "$(knob coalesce_threshold)" = 32 ]
	ssdt revert --state-dir "$STATE"
	[ "$(fx_sum)" = "$before" ]
}

@test "set without --state-dir keeps its state in \$SSDTUNE_STATE_DIR, where revert finds it" {
	before=$(fx_sum)
	SSDTUNE_STATE_DIR=$STATE ssdt set coalesce_threshold=16
	[ -s "$STATE/state.json" ]
	SSDTUNE_STATE_DIR=$STATE ssdt revert
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "set --json reports the controller and every write" {
	run --separate-stderr ssdt set --json --state-dir "$STATE" coalesce_profile=iops
	echo "$output"
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["command"] == "set" and r["controller"] == "ssdt0", r
w = r["writes"]
assert len(w) == 1 and w[0]["path"].endswith("/coalesce_profile") and w[0]["value"] == "iops", w
'
}

@test "revert finds the controller by serial and model after a re-attach gave it another ssdtN" {
	run --separate-stderr ssdt set --state-dir "$STATE" ssdt0 coalesce_threshold=16
	[ "$status" -eq 0 ]
	grep -q '"serial":"ssdt01"' "$STATE/state.json"
	# detach and attach: the drive comes back as ssdt1, and another drive
	# (serial other01) took the name ssdt0
	dev=$(readlink -f "$FX/class/ssdtune/ssdt0")
	mv "$dev" "${dev%/*}/ssdt1"
	rm "$FX/class/ssdtune/ssdt0"
	ln -s "$(realpath --relative-to="$FX/class/ssdtune" "${dev%/*}/ssdt1")" "$FX/class/ssdtune/ssdt1"
	mkdir "$FX/class/ssdtune/ssdt0"
	cp "${dev%/*}/ssdt1"/coalesce_* "${dev%/*}/ssdt1"/model "$FX/class/ssdtune/ssdt0/"
	echo other01 >"$FX/class/ssdtune/ssdt0/serial"
	echo 0000:43:00.0 >"$FX/class/ssdtune/ssdt0/pci_address"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     /sys/class/ssdtune/ssdt1/coalesce_threshold = 16"* ]]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$FX/class/ssdtune/ssdt1/coalesce_threshold")" = 0 ]
	[ "$(cat "$FX/class/ssdtune/ssdt0/coalesce_threshold")" = 16 ]
}


@test "set takes the controller by any of its names; one on nvme is not an ssdtune controller" {
	for n in /dev/ssdt0n1 /dev/ssdt0 0000:42:00.0 42:00.0; do
		run --separate-stderr ssdt set --dry-run --state-dir "$STATE" "$n" coalesce_threshold=16
		[ "$status" -eq 0 ] || { echo "$n: $stderr"; false; }
		[[ "$output" == *"ssdt0/coalesce_threshold <- 16"* ]]
	done
	run --separate-stderr ssdt set --dry-run --state-dir "$STATE" nvme0 coalesce_threshold=16
	[ "$status" -eq 1 ]
	assert_one_error_line
	# names the function and the command that would attach it
	[ "$stderr" = "ssdtune: set: no ssdtune controller 'nvme0': 0000:41:00.0 is not attached to ssdtune (first: ssdtune attach nvme0)" ]
}
