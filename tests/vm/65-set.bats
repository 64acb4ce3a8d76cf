#!/usr/bin/env bats
# ssdtune set on the real driver: a profile lands in all three coalescing
# files, verify and revert work on them, and a write the driver refuses
# (hw coalescing on QEMU's NVMe, which cannot change features 0x08/0x09)
# undoes the command's other writes.
#
# vm-kernels: one (the tool's knob transaction; the knobs themselves are the
# driver's own logic)

load lib/common

bats_require_minimum_version 1.5.0

setup_file() {
	setup_attached
}

setup() {
	ctrl=$(ssdt_ctrl)
	STATE=$SSDT_TMP/state-set
	rm -rf "$STATE"
}

teardown_file() {
	teardown_stock
}

# knobs: the coalescing files as "name=value ..." on one line (read, not
# trim: no subshell per file, as a fork costs ~0.1 s under TCG)
knobs() {
	local f v
	for f in coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile; do
		v=""
		read -r v <"$ctrl/$f" || [ -n "$v" ] || return 1
		printf '%s=%s ' "$f" "$v"
	done
	echo
}

@test "set coalesce_profile=iops: the driver's files follow, verify holds, revert restores them" {
	before=$(knobs)
	echo "before: $before"
	ssdt set --state-dir "$STATE" "${ctrl##*/}" coalesce_profile=iops
	echo "after:  $(knobs)"
	[ "$(trim "$ctrl/coalesce_profile")" = iops ]
	[ "$(trim "$ctrl/coalesce_mode")" != off ]
	[ "$(trim "$ctrl/coalesce_threshold")" -gt 0 ]
	ssdt verify --state-dir "$STATE"
	ssdt revert --state-dir "$STATE"
	echo "revert: $(knobs)"
	[ "$(knobs)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "set: a write the driver refuses (hw on QEMU) undoes the others and exits 1 with one line" {
	[ "$(trim "$ctrl/coalesce_mode")" != hw ]
	before=$(knobs)
	run --separate-stderr "$SSDT_TOOL" set --state-dir "$STATE" coalesce_threshold=7 coalesce_mode=hw
	echo "status $status: $stderr"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"coalesce_mode <- hw"* ]]
	[ "$(knobs)" = "$before" ]
	# nothing is left for verify to miss, and revert has nothing to undo
	ssdt verify --state-dir "$STATE"
	ssdt revert --state-dir "$STATE"
	[ "$(knobs)" = "$before" ]
}
