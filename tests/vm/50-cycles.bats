#!/usr/bin/env bats
# Repeated load/attach/detach/unload must not leak or complain: 8 cycles
# in make check, 20 in make check-full and by hand (SSDT_VM_SCOPE, set by
# scripts/vm-test.sh).  A cycle takes about 2.5 s under TCG; what one
# cycle leaks (a node, a vector, a reference that blocks rmmod) shows in
# the first, and 20 in CI keep the slower kind (an id or a slab that runs
# out) in view.
#
# vm-kernels: both (attach/detach cycles through the PCI core and the block
# layer)

load lib/common

teardown_file() {
	teardown_stock
}

@test "load/attach/detach/unload cycles with I/O between (8, or 20 in check-full): dmesg clean, no leaked /dev/ssdt*, nvme gets the controller back" {
	require_module
	require_tool
	bdf=$(nvme_bdf)
	teardown_stock
	head -c 256K /dev/urandom >"$SSDT_TMP/cyc"
	dmesg_mark
	n=20
	[ "${SSDT_VM_SCOPE:-full}" = check ] && n=8
	# tight loop: every process costs ~0.1-0.5 s under TCG
	for ((i = 1; i <= n; i++)); do
		insmod "$SSDT_KO" || { echo "cycle $i: insmod failed"; false; }
		"$SSDT_TOOL" attach "$bdf" >/dev/null || { echo "cycle $i: attach failed"; false; }
		disk=""
		for ((w = 0; w < 300; w++)); do
			for d in /dev/ssdt*n1; do [ -b "$d" ] && disk=$d; done
			[ -n "$disk" ] && break
			sleep 0.1
		done
		[ -n "$disk" ] || { echo "cycle $i: no /dev/ssdt*n1 after attach"; false; }
		# a little I/O, checked
		dd if="$SSDT_TMP/cyc" of="$disk" bs=64k seek=$((i * 4)) oflag=direct conv=fsync status=none
		cmp <(dd if="$disk" bs=64k skip=$((i * 4)) count=4 iflag=direct status=none) "$SSDT_TMP/cyc" ||
			{ echo "cycle $i: read-back mismatch"; false; }
		"$SSDT_TOOL" detach "$bdf" >/dev/null || { echo "cycle $i: detach failed"; false; }
		rmmod ssdtune || { echo "cycle $i: rmmod failed"; false; }
		for d in /dev/ssdt*; do
			[ -e "$d" ] && { echo "cycle $i: $d left behind"; false; }
		done
		# udev's blkid may hold the fresh nvme disk open: let it finish
		udevadm settle -t 30
	done
	echo "$n cycles done"
	[ "$(pci_driver "$bdf")" = nvme ]
	nvme_disk
	no_ssdt_nodes
	refute grep ssdt /proc/interrupts
	dmesg_clean_since_mark
}
