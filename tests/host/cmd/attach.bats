#!/usr/bin/env bats
# ssdtune attach BDF against fixture trees mounted over /sys.

load ../helpers

@test "attach refuses a BDF that does not exist and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:43:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: no PCI device 0000:43:00.0 (/sys/bus/pci/devices/0000:43:00.0 does not exist)" ]
	[ -z "$output" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a device that is not an NVMe controller" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:00:02.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 0000:00:02.0 is not an NVMe controller (class 0x030000, NVMe is 0x010802)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses an NVMe-like class with another programming interface" {
	echo 0x010801 >"$NVME_DIR/class"	# NVMHCI, not NVMe
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"is not an NVMe controller (class 0x010801"* ]]
}

@test "attach tells to load the module when the ssdtune driver is missing" {
	rm -r "$FX/bus/pci/drivers/ssdtune"
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: the ssdtune driver is not loaded (no /sys/bus/pci/drivers/ssdtune): run 'modprobe ssdtune' first" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a namespace with holders and changes nothing" {
	ln -s ../../../../../../../../virtual/block/dm-0 "$NVME_NS/holders/dm-0"
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1 has holders (dm-0: LVM, md or device-mapper)" ]
	[ -z "$output" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a partition with holders (md) and changes nothing" {
	ln -s ../../../../../../../../../virtual/block/md0 \
		"$NVME_NS/nvme0n1p1/holders/md0"
	before=$(fx_sum)
	run --separate-stderr ssdt --dry-run attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"refusing to attach 0000:41:00.0: nvme0n1p1 has holders (md0"* ]]
	[ -z "$output" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a multipath head namespace with holders" {
	rm -rf "$FX" && make_fixture --mpath
	ln -s ../../x/dm-3 "$NVME_NS/holders/dm-3"
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"refusing to attach 0000:41:00.0: nvme0n1 has holders (dm-3"* ]]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a mounted namespace and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt_with_mount "$NVME_NS/nvme0n1p1/dev" attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1p1 is mounted on $BATS_TEST_TMPDIR/mnt" ]
	echo 259:900001 >"$NVME_NS/nvme0n1p1/dev"	# undo the test's own change
	[ "$(fx_sum)" = "$before" ]
}

@test "attach refuses a namespace a process holds open" {
	truncate -s 1M "$BATS_TEST_TMPDIR/disk.img"
	loop=$(losetup -f --show "$BATS_TEST_TMPDIR/disk.img" 2>/dev/null) ||
		skip "no loop device to stand in for the namespace"
	echo "$loop" >"$BATS_TEST_TMPDIR/loop"
	printf '%d:%d\n' "0x$(stat -c %t "$loop")" "0x$(stat -c %T "$loop")" \
		>"$NVME_NS/dev"
	sleep 30 <"$loop" 3>&- &
	holder=$!
	wait_comm "$holder" sleep || { kill "$holder"; losetup -d "$loop"; false; }
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:41:00.0
	kill "$holder"
	losetup -d "$loop"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1 is open by process $holder (sleep)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach --dry-run prints exactly the writes and changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach --dry-run 0000:41:00.0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "/sys/bus/pci/devices/0000:41:00.0/driver_override <- ssdtune" ]
	[ "${lines[1]}" = "/sys/bus/pci/drivers/nvme/unbind <- 0000:41:00.0" ]
	[ "${lines[2]}" = "/sys/bus/pci/drivers/ssdtune/bind <- 0000:41:00.0" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach --dry-run of a controller without a driver skips the unbind" {
	rm "$NVME_DIR/driver" "$FX/bus/pci/drivers/nvme/0000:41:00.0"
	run --separate-stderr ssdt --dry-run attach 41:00.0
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "/sys/bus/pci/devices/0000:41:00.0/driver_override <- ssdtune" ]
	[ "${lines[1]}" = "/sys/bus/pci/drivers/ssdtune/bind <- 0000:41:00.0" ]
}

@test "attach --json --dry-run describes the planned writes" {
	before=$(fx_sum)
	run --separate-stderr ssdt --json --dry-run attach 0000:41:00.0
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -m json.tool >/dev/null
	[ "$(json .command)" = attach ]
	[ "$(json .status)" = would_attach ]
	[ "$(json .dry_run)" = true ]
	[ "$(json .pci_address)" = 0000:41:00.0 ]
	[ "$(json .previous_driver)" = nvme ]
	[ "$(json .block_devices)" = '["nvme0n1", "nvme0n1p1"]' ]
	[ "$(json .writes.0.path)" = /sys/bus/pci/devices/0000:41:00.0/driver_override ]
	[ "$(json .writes.0.value)" = ssdtune ]
	[ "$(json .writes.2.path)" = /sys/bus/pci/drivers/ssdtune/bind ]
	[ "$(printf '%s' "$output" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["writes"]))')" = 3 ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach --json of a missing BDF prints an error object and exits 1" {
	run --separate-stderr ssdt attach --json 0000:43:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$(json .status)" = error ]
	[ "$(json .exit_code)" = 1 ]
	[[ "$(json .error)" == "no PCI device 0000:43:00.0"* ]]
}

@test "attach writes override, unbind and bind, then reports ssdtN and its disks" {
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "attached 0000:41:00.0 as ssdt1: /dev/ssdt1n1" ]
	[ "$(cat "$NVME_DIR/driver_override")" = ssdtune ]
	[ "$(cat "$FX/bus/pci/drivers/nvme/unbind")" = 0000:41:00.0 ]
	[ "$(cat "$FX/bus/pci/drivers/ssdtune/bind")" = 0000:41:00.0 ]
	[ ! -s "$FX/bus/pci/drivers_probe" ]
}

@test "attach finds the new controller by its pci_address file too" {
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1_virtual
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 0 ]
	[ "$output" = "attached 0000:41:00.0 as ssdt1: /dev/ssdt1n1" ]
}

@test "attach --json reports the controller, disks and writes" {
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1
	run --separate-stderr ssdt attach --json 0000:41:00.0
	[ "$status" -eq 0 ]
	[ "$(json .status)" = attached ]
	[ "$(json .controller)" = ssdt1 ]
	[ "$(json .driver)" = ssdtune ]
	[ "$(json .disks)" = '["/dev/ssdt1n1"]' ]
	[ "$(json .writes.1.path)" = /sys/bus/pci/drivers/nvme/unbind ]
}

@test "attach gives the controller back to nvme when the bind fails" {
	rm "$FX/bus/pci/drivers/ssdtune/bind"
	mkdir "$FX/bus/pci/drivers/ssdtune/bind"	# the write fails: EISDIR
	run --separate-stderr ssdt attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: binding 0000:41:00.0 to ssdtune failed: Is a directory; gave it back to nvme" ]
	[ "$(cat "$NVME_DIR/driver_override")" = "" ]	# cleared ("\n")
	[ "$(cat "$FX/bus/pci/drivers_probe")" = 0000:41:00.0 ]
}

@test "attach of a controller already on ssdtune says so and exits 0" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:42:00.0
	[ "$status" -eq 0 ]
	[ "$output" = "already attached 0000:42:00.0 as ssdt0: /dev/ssdt0n1" ]
	[ "$(fx_sum)" = "$before" ]
	run --separate-stderr ssdt --json attach 0000:42:00.0
	[ "$(json .status)" = already_attached ]
	[ "$(json .writes)" = '[]' ]
}

@test "attach puts a previous driver_override back when the bind fails" {
	echo nvme >"$NVME_DIR/driver_override"
	rm "$FX/bus/pci/drivers/ssdtune/bind"
	mkdir "$FX/bus/pci/drivers/ssdtune/bind"
	run --separate-stderr ssdt --json attach 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$(cat "$NVME_DIR/driver_override")" = nvme ]
	[ "$(json .writes.2.error)" = "Is a directory" ]
	[ "$(json .writes.3.path)" = /sys/bus/pci/devices/0000:41:00.0/driver_override ]
	[ "$(json .writes.3.value)" = nvme ]
}

@test "attach refuses a namespace mounted in another mount namespace (exclusive open fails)" {
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
	img=$BATS_TEST_TMPDIR/fs.img
	truncate -s 8M "$img"
	mkfs.ext4 -q -F "$img"
	loop=$(losetup -f --show "$img" 2>/dev/null) ||
		skip "no loop device to stand in for the namespace"
	devnum=$(printf '%d:%d' "0x$(stat -c %t "$loop")" "0x$(stat -c %T "$loop")")
	echo "$devnum" >"$NVME_NS/dev"
	mkdir "$BATS_TEST_TMPDIR/mnt"
	# A mount only that namespace sees: no fd, no mountinfo line here.
	unshare --mount --propagation private -- sh -c \
		'mount "$1" "$2" && touch "$2.up" && exec sleep 60' \
		sh "$loop" "$BATS_TEST_TMPDIR/mnt" >/dev/null 2>&1 3>&- &
	FAKE_PID=$!
	wait_until test -e "$BATS_TEST_TMPDIR/mnt.up" || true	# asserted below
	before=$(fx_sum)
	run --separate-stderr ssdt_with_node nvme0n1 "$devnum" attach 0000:41:00.0
	kill "$FAKE_PID"; wait "$FAKE_PID" 2>/dev/null || true; FAKE_PID=
	losetup -d "$loop"
	[ -e "$BATS_TEST_TMPDIR/mnt.up" ]
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1 is busy (an exclusive open fails: Device or resource busy)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach --dry-run passes the exclusive-open check of an idle namespace" {
	truncate -s 1M "$BATS_TEST_TMPDIR/disk.img"
	loop=$(losetup -f --show "$BATS_TEST_TMPDIR/disk.img" 2>/dev/null) ||
		skip "no loop device to stand in for the namespace"
	devnum=$(printf '%d:%d' "0x$(stat -c %t "$loop")" "0x$(stat -c %T "$loop")")
	echo "$devnum" >"$NVME_NS/dev"
	run --separate-stderr ssdt_with_node nvme0n1 "$devnum" attach --dry-run 0000:41:00.0
	losetup -d "$loop"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "attach and detach refuse while apply or revert holds the state lock, and change nothing" {
	local st=$BATS_TEST_TMPDIR/locked
	mkdir -p "$st"
	before=$(fx_sum)
	hold_lock "$st/lock"
	run --separate-stderr ssdt attach --state-dir "$st" 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"$st/lock is held by another ssdtune run"* ]]
	run --separate-stderr ssdt detach --state-dir "$st" 0000:42:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"$st/lock is held by another ssdtune run"* ]]
	# SSDTUNE_STATE_DIR names the same directory
	SSDTUNE_STATE_DIR=$st run --separate-stderr ssdt detach 0000:42:00.0
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$st/lock is held"* ]]
	# a dry run takes no lock
	run --separate-stderr ssdt attach --dry-run --state-dir "$st" 0000:41:00.0
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
}

# One name rule (lib/devname.c): what nvme-cli users type and what
# topology prints, each resolved through sysfs to the PCI function.
@test "attach and detach take any name of a controller: nvmeN, /dev/nvmeN, a namespace, ssdtN, /dev/ssdtN" {
	before=$(fx_sum)
	for n in nvme0 /dev/nvme0 /dev/nvme0n1 nvme0n1 41:00.0; do
		run --separate-stderr ssdt --json --dry-run attach "$n"
		[ "$status" -eq 0 ] || { echo "$n: $stderr"; false; }
		[ "$(json .pci_address)" = 0000:41:00.0 ]
	done
	for n in ssdt0 /dev/ssdt0 /dev/ssdt0n1 0000:42:00.0; do
		run --separate-stderr ssdt --json --dry-run detach "$n"
		[ "$status" -eq 0 ] || { echo "$n: $stderr"; false; }
		[ "$(json .pci_address)" = 0000:42:00.0 ]
	done
	[ "$(fx_sum)" = "$before" ]
	# a well-formed name of nothing on this host: one line, exit 1
	run --separate-stderr ssdt attach nvme7
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: no controller nvme7 on this host (/sys/class/nvme/nvme7: none; see 'ssdtune topology')" ]
	run --separate-stderr ssdt detach /dev/ssdt3n1
	[ "$status" -eq 1 ]
	[ "$stderr" = "ssdtune: no namespace /dev/ssdt3n1 on this host (see 'ssdtune topology')" ]
}

@test "a multipath head namespace names the controller of its one path" {
	rm -rf "$FX" && make_fixture --mpath
	run --separate-stderr ssdt --json --dry-run attach /dev/nvme0n1
	[ "$status" -eq 0 ]
	[ "$(json .pci_address)" = 0000:41:00.0 ]
	# a second path: which controller is meant is not clear
	ln -s "$(readlink -f "$FX/block/nvme0c0n1")" "$FX/block/nvme0n1/multipath/nvme0c1n1"
	run --separate-stderr ssdt attach /dev/nvme0n1
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: nvme0n1 has 2 paths, one per controller: name the controller (see 'ssdtune topology')" ]
}

@test "a multipath head without a multipath directory (before Linux 6.14) is found by its path disks' names" {
	rm -rf "$FX" && make_fixture --mpath
	rm -rf "$FX/block/nvme0n1/multipath"
	run --separate-stderr ssdt --json --dry-run attach /dev/nvme0n1
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(json .pci_address)" = 0000:41:00.0 ]
	# another head's path is not this head's
	mv "$FX/block/nvme0c0n1" "$FX/block/nvme0c0n2"
	run --separate-stderr ssdt attach /dev/nvme0n1
	[ "$status" -eq 1 ]
	[ "$stderr" = "ssdtune: no namespace /dev/nvme0n1 on this host (see 'ssdtune topology')" ]
	# two paths: ambiguous, as with the directory
	mv "$FX/block/nvme0c0n2" "$FX/block/nvme0c0n1"
	cp -P "$FX/block/nvme0c0n1" "$FX/block/nvme0c1n1"
	run --separate-stderr ssdt attach /dev/nvme0n1
	[ "$status" -eq 1 ]
	[ "$stderr" = "ssdtune: nvme0n1 has 2 paths, one per controller: name the controller (see 'ssdtune topology')" ]
}

@test "attach CTRL CTRL: each in turn, a line each; --json an object each in 'attached'" {
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1
	run --separate-stderr ssdt attach 0000:41:00.0 ssdt0
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "attached 0000:41:00.0 as ssdt1: /dev/ssdt1n1" ]
	[ "${lines[1]}" = "already attached 0000:42:00.0 as ssdt0: /dev/ssdt0n1" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "attach --json of several: status ok, one entry a controller, as its schema says" {
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1
	run --separate-stderr ssdt attach --json 0000:41:00.0 0000:42:00.0
	[ "$status" -eq 0 ]
	[ "$(json .status)" = ok ]
	[ "$(json .attached.0.pci_address)" = 0000:41:00.0 ]
	[ "$(json .attached.0.status)" = attached ]
	[ "$(json .attached.0.controller)" = ssdt1 ]
	[ "$(json .attached.1.pci_address)" = 0000:42:00.0 ]
	[ "$(json .attached.1.status)" = already_attached ]
	printf "%s" "$output" | "$REPO/tests/lib/json-schema-check" attach
}

@test "attach of several, one not NVMe: refused before any write, nothing changed" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:41:00.0 0000:00:02.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: 0000:00:02.0 is not an NVMe controller (class 0x030000, NVMe is 0x010802)" ]
	[ -z "$output" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach of several, one in use: refused before any write, nothing changed" {
	ln -s ../../../../../../../../virtual/block/dm-0 "$NVME_NS/holders/dm-0"
	before=$(fx_sum)
	run --separate-stderr ssdt attach 0000:42:00.0 0000:41:00.0
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to attach 0000:41:00.0: nvme0n1 has holders (dm-0: LVM, md or device-mapper)" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach naming one controller twice is a usage error that changes nothing" {
	before=$(fx_sum)
	run --separate-stderr ssdt attach nvme0 0000:41:00.0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"nvme0 and 0000:41:00.0 are both 0000:41:00.0: name each controller once"* ]]
	[ "$(fx_sum)" = "$before" ]
}
