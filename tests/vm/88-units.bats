#!/usr/bin/env bats
# The boot path of Documentation/install.md, in the guest.  virtme-ng runs
# no systemd as PID 1, so: make install's tree (scripts/install.sh, into a
# prefix of its own), the udev rule through udevadm test on the emulated
# NVMe, then the installed units' command lines in the order systemd runs
# them: ssdtune-attach@<address>.service (udev starts it), then
# ssdtune.service; stop reverts.  Twice, with a "reboot" between (the
# controller back on nvme, the module reloaded): the second boot ends in
# the same tuned state, and verify is clean.
#
# vm-kernels: one (the systemd units' command lines, run by hand)

load lib/common
load lib/units

setup_file() {
	module_load
	P=$SSDT_TMP/prefix
	rm -rf "$P"
	PREFIX=$P SYSCONFDIR=$P/etc SRCDIR=$P/src "$SSDT_REPO/scripts/install.sh" install
	cat >"$P/etc/ssdtune/ssdtune.conf" <<-EOF
	# the test's controller, by serial (QEMU: serial=$SSDT_VM_NVME_SERIAL)
	controller = serial:$SSDT_VM_NVME_SERIAL
	profile = latency
	coalesce_mode = host
	coalesce_threshold = 7
	EOF
	export P
}

teardown_file() {
	"$SSDT_TOOL" revert >/dev/null 2>&1 || true
	teardown_stock
}

setup() {
	bdf=$(nvme_bdf)
	U=$P/lib/systemd/system
	dmesg_mark
}

@test "udev's rule engine starts ssdtune-attach@<address>.service for the emulated NVMe" {
	run unshare -m sh -c '
		mkdir -p /run/udev/rules.d
		mount -t tmpfs none /run/udev/rules.d
		cp "$1" /run/udev/rules.d/
		udevadm test --action=add "/sys/bus/pci/devices/$2" 2>&1' sh \
		"$P/lib/udev/rules.d/60-ssdtune.rules" "$bdf"
	echo "$output" | grep -E 'ssdtune|SYSTEMD_WANTS'
	[[ "$output" == *"SYSTEMD_WANTS=ssdtune-attach@$bdf.service"* ]]
}

@test "first boot: the units attach the configured controller, set its knobs and apply the profile; verify is clean" {
	[ "$(pci_driver "$bdf")" = nvme ]
	unit_boot "$U" "$bdf"
	[ "$(pci_driver "$bdf")" = ssdtune ]
	ctrl=$(ssdt_ctrl)
	[ "$(trim "$ctrl/coalesce_mode")" = host ]
	[ "$(trim "$ctrl/coalesce_threshold")" = 7 ]
	"$SSDT_TOOL" verify
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=40M --size=4M
}

@test "a reboot (the controller back on nvme, the module reloaded): the second boot ends in the same state, verify is clean" {
	ctrl=$(ssdt_ctrl)
	before=$(tuned_state)
	# what the reboot loses: the tuning, the binding, the module
	unit_run "$U/ssdtune.service" "" ExecStop
	teardown_stock
	module_load
	[ "$(pci_driver "$bdf")" = nvme ]
	unit_boot "$U" "$bdf"
	[ "$(pci_driver "$bdf")" = ssdtune ]
	ctrl=$(ssdt_ctrl)
	after=$(tuned_state)
	echo "before: $before"
	echo "after: $after"
	[ "$before" = "$after" ]
	"$SSDT_TOOL" verify
}

@test "stopping ssdtune.service reverts the tuning and leaves the controller attached; a controller the config does not select is left alone" {
	ctrl=$(ssdt_ctrl)
	unit_run "$U/ssdtune.service" "" ExecStop
	[ "$(pci_driver "$bdf")" = ssdtune ]
	[ "$(trim "$ctrl/coalesce_mode")" = off ]
	detach
	sed -i "s/^controller = .*/controller = serial:not-$SSDT_VM_NVME_SERIAL/" "$P/etc/ssdtune/ssdtune.conf"
	run unit_start "$U/ssdtune-attach@.service" "$bdf"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ExecCondition: exit 1, the unit is skipped"* ]]
	[[ "$output" != *ExecStart:* ]]
	[ "$(pci_driver "$bdf")" = nvme ]
	dmesg_clean_since_mark
}
