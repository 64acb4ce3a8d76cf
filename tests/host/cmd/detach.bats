#!/usr/bin/env bats
# ssdtune detach BDF against fixture trees mounted over /sys.

load ../helpers

@test "detach refuses a controller that is not bound to ssdtune" {
	before=$(fx_sum)
	run --separate-stderr ssdt detach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 0000:41:00.0 is not attached to ssdtune (its driver is nvme)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "detach refuses a controller with no driver at all" {
	rm "$NVME_DIR/driver"
	run --separate-stderr ssdt detach --dry-run 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 0000:41:00.0 is not attached to ssdtune (no driver is bound)" ]
	[ -z "$output" ]
}

@test "detach refuses a BDF that does not exist" {
	run --separate-stderr ssdt detach 0001:00:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: no PCI device 0001:00:00.0"* ]]
}

@test "detach refuses an ssdtune disk with holders and changes nothing" {
	ln -s ../../x/dm-1 "$SSDT_NS/holders/dm-1"
	before=$(fx_sum)
	run --separate-stderr ssdt detach 0000:42:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to detach 0000:42:00.0: ssdt0n1 has holders (dm-1: LVM, md or device-mapper)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "detach refuses a mounted ssdtune disk and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt_with_mount "$SSDT_NS/dev" detach 0000:42:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to detach 0000:42:00.0: ssdt0n1 is mounted on $BATS_TEST_TMPDIR/mnt" ]
	echo 259:900002 >"$SSDT_NS/dev"
	[ "$(fx_sum)" = "$before" ]
}

@test "detach --dry-run prints exactly the writes and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt detach --dry-run 0000:42:00.0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = '/sys/bus/pci/devices/0000:42:00.0/driver_override <- \n' ]
	[ "${lines[1]}" = "/sys/bus/pci/drivers/ssdtune/unbind <- 0000:42:00.0" ]
	[ "${lines[2]}" = "/sys/bus/pci/drivers_probe <- 0000:42:00.0" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "detach --json --dry-run names the controller and the writes" {
	run --separate-stderr ssdt --json detach --dry-run 0000:42:00.0
	[ "$status" -eq 0 ]
	[ "$(json .status)" = would_detach ]
	[ "$(json .controller)" = ssdt0 ]
	[ "$(json .block_devices)" = '["ssdt0n1"]' ]
	[ "$(json .writes.0.value)" = '' ]
	[ "$(printf '%s' "$output" | python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["writes"][0]["value"]))')" = "'\\n'" ]
}

@test "detach clears the override, unbinds and reprobes, then reports nvme" {
	fake_bind "$FX/bus/pci/drivers_probe" "$SSDT_DIR" nvme ""
	run --separate-stderr ssdt detach 0000:42:00.0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "detached 0000:42:00.0 from ssdt0: bound to nvme" ]
	[ "$(cat "$SSDT_DIR/driver_override")" = "" ]
	[ "$(cat "$FX/bus/pci/drivers/ssdtune/unbind")" = 0000:42:00.0 ]
	[ "$(cat "$FX/bus/pci/drivers_probe")" = 0000:42:00.0 ]
}

@test "detach --json reports the driver that took the controller back" {
	fake_bind "$FX/bus/pci/drivers_probe" "$SSDT_DIR" nvme ""
	run --separate-stderr ssdt detach --json 0000:42:00.0
	[ "$status" -eq 0 ]
	[ "$(json .status)" = detached ]
	[ "$(json .driver)" = nvme ]
	[ "$(json .previous_driver)" = ssdtune ]
}

@test "detach of several, one not on ssdtune: refused before any write, nothing changed" {
	before=$(fx_sum)
	run --separate-stderr ssdt detach 0000:42:00.0 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 0000:41:00.0 is not attached to ssdtune (its driver is nvme)" ]
	[ -z "$output" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "detach naming one controller twice is a usage error that changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt detach ssdt0 0000:42:00.0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"ssdt0 and 0000:42:00.0 are both 0000:42:00.0: name each controller once"* ]]
	[ "$(fx_sum)" = "$before" ]
}
