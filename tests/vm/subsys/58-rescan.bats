#!/usr/bin/env bats
# Namespaces that come and go while ssdtune drives the controller
# (kmod/ssdt_ns.c).  Runs in the VM that scripts/vm.sh --subsys boots: an
# NVMe subsystem with two controllers (serial ssdt02 both): controller ID 0
# is handed to ssdtune here, controller ID 1 stays on the stock driver;
# namespace 1 is attached to both and namespace 2 to neither.  A namespace is attached or detached
# with nvme-cli's Namespace Attachment:
#   - through ssdtune's own /dev/ssdtN: the driver rescans before the
#     ioctl returns, as the stock driver does;
#   - through the other controller: only the controller's "namespace
#     attribute changed" event tells ssdtune, which rescans on its own.

SSDT_VM_NVME_SERIAL=ssdt02
load ../lib/common

# how long a change reported by the controller's event may take
EVENT_S=20
[ -n "${SSDT_VM_SLOW:-}" ] && EVENT_S=90

# stock_ctrl CNTLID: the stock driver's /sys/class/nvme/nvmeN of the
# subsystem's controller with that controller ID.
stock_ctrl() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(trim "$c/serial")" = "$SSDT_VM_NVME_SERIAL" ] || continue
		[ "$(trim "$c/cntlid")" = "$1" ] && { echo "$c"; return 0; }
	done
	err "no /sys/class/nvme/nvme* with serial $SSDT_VM_NVME_SERIAL and controller ID $1"
}

# cntlid DEV: the controller ID that Identify Controller reports.
cntlid() {
	nvme id-ctrl "$1" -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cntlid"])'
}

# ns_disks: the namespace disks of ssdtune's controller, sorted, each
# followed by a space.  (A glob is sorted: no ls, sort and tr to start,
# at ~0.1 s each under TCG.)
ns_disks() {
	local c d out=""
	c=$(ssdt_ctrl) || return 1
	c=${c##*/}
	for d in /sys/block/"$c"n*; do
		[ -e "$d" ] && out+="${d##*/} "
	done
	echo "$out"
}

has_n2() { [ -b "/dev/${CTRL}n2" ]; }
no_n2() { [ ! -e "/dev/${CTRL}n2" ] && [ ! -e "/sys/block/${CTRL}n2" ]; }

# event_logged: ssdtune handled a namespace event since the dmesg mark.
event_logged() {
	dmesg_new | grep -q 'asynchronous event: notice: namespace attributes changed'
}

# unbind_all: the controller back on nvme, both disks gone, the module
# unloaded and the kernel log clean; then namespace 2 detached from the
# controller again, through the other one.
unbind_all() {
	local bdf
	bdf=$(nvme_bdf) || return 1
	ssdt detach "$bdf" || return 1
	[ "$(pci_driver "$bdf")" = nvme ] || { err "$bdf is on $(pci_driver "$bdf") after detach"; return 1; }
	if [ -e "/sys/block/${CTRL}n1" ] || [ -e "/sys/block/${CTRL}n2" ]; then
		err "a disk of $CTRL is left after detach"
		return 1
	fi
	module_unload || return 1
	dmesg_clean_since_mark 'asynchronous event|namespace 2' || return 1
	wait_for 30 nvme_disk >/dev/null || return 1
	udevadm settle -t "$SETTLE_S"
	nvme detach-ns "$OTHER" -n 2 -c "$ID"
}

setup_file() {
	require_subsys_boot || return 1
	command -v nvme >/dev/null || { echo "nvme-cli is not installed (make setup installs it)" >&2; return 1; }
	# nvme_bdf (common.bash) finds a controller by serial, which both
	# share here: it is told which one
	local c
	c=$(stock_ctrl 0) || return 1
	c=$(cd -P "$c/device" && pwd)
	echo "${c##*/}" >"$SSDT_TMP/bdf-$SSDT_VM_NVME_SERIAL"
	stock_ctrl 1 >/dev/null || return 1
	setup_attached
	# Once for the file: the other controller stays on nvme, and the
	# controller ID is the device's whatever drives it.  (cntlid starts
	# nvme-cli and python, seconds under TCG.)
	OTHER=$(stock_ctrl 1) || return 1
	OTHER=/dev/${OTHER##*/}
	c=$(ssdt_ctrl) || return 1
	ID=$(cntlid "/dev/${c##*/}") || return 1
	export OTHER ID
}

teardown_file() {
	teardown_stock
}

setup() {
	CTRL=$(ssdt_ctrl)
	CTRL=${CTRL##*/}
	dmesg_mark
}

@test "subsys: the controller comes up with namespace 1 only; namespace 2 is attached to no controller" {
	[ "$(ns_disks)" = "${CTRL}n1 " ]
	# active: 1; allocated in the subsystem: 1 and 2
	run nvme list-ns "/dev/$CTRL"
	echo "$output"
	[[ "$output" =~ 0x1 ]]
	[[ ! "$output" =~ 0x2 ]]
	run nvme list-ns "/dev/$CTRL" -a
	echo "$output"
	[[ "$output" =~ 0x2 ]]
}

@test "nvme attach-ns through /dev/ssdtN: /dev/ssdtNn2 is there when the command returns and takes verified I/O" {
	nvme attach-ns "/dev/$CTRL" -n 2 -c "$ID"
	# no waiting: the ioctl rescans before it returns
	has_n2
	[ "$(ns_disks)" = "${CTRL}n1 ${CTRL}n2 " ]
	[ "$(blockdev --getsize64 "/dev/${CTRL}n2")" = 268435456 ]
	fio_verify "/dev/${CTRL}n2" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	# a pattern the later tests read back after the namespace came again
	head -c 1048576 /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="/dev/${CTRL}n2" bs=1M seek=100 oflag=direct status=none
	# the controller also reported the change: its event was handled
	wait_for "$EVENT_S" event_logged
	dmesg_clean_since_mark 'asynchronous event'
}

@test "nvme detach-ns through the other controller: the event alone removes /dev/ssdtNn2; namespace 1 keeps working" {
	has_n2
	nvme detach-ns "$OTHER" -n 2 -c "$ID"
	wait_for "$EVENT_S" no_n2
	dmesg_new | grep -q "namespace 2 is gone: removing ${CTRL}n2"
	[ "$(ns_disks)" = "${CTRL}n1 " ]
	fio_verify "/dev/${CTRL}n1" --rw=randrw --bs=4k --iodepth=8 --size=8M
	dmesg_clean_since_mark 'asynchronous event|namespace 2 is gone'
}

@test "nvme attach-ns through the other controller: the event alone adds /dev/ssdtNn2, with the data written before" {
	no_n2
	nvme attach-ns "$OTHER" -n 2 -c "$ID"
	wait_for "$EVENT_S" has_n2
	udevadm settle -t "$SETTLE_S"
	dd if="/dev/${CTRL}n2" of="$SSDT_TMP/back" bs=1M skip=100 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	fio_verify "/dev/${CTRL}n2" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	dmesg_clean_since_mark 'asynchronous event'
}

@test "a removed namespace's disk held open: its file fails cleanly; the namespace comes back under the same name; unload after close" {
	has_n2
	exec 7<"/dev/${CTRL}n2"
	nvme detach-ns "/dev/$CTRL" -n 2 -c "$ID"
	no_n2
	# the open file outlives the disk: a read gets no data (an error, or
	# the end of a disk whose capacity is now 0), nothing crashes
	run dd of=/dev/null bs=4k count=1 iflag=direct <&7
	echo "$output"
	[ "$status" -ne 0 ] || [[ "$output" == *"0+0 records in"* ]]
	# the slot is still the old disk's: the namespace takes another one
	nvme attach-ns "/dev/$CTRL" -n 2 -c "$ID"
	has_n2
	exec 7<&-
	dd if="/dev/${CTRL}n2" of="$SSDT_TMP/back" bs=1M skip=100 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/pat" "$SSDT_TMP/back"
	nvme detach-ns "/dev/$CTRL" -n 2 -c "$ID"
	no_n2
	dmesg_clean_since_mark 'asynchronous event|namespace 2 is gone|Buffer I/O error|I/O error'
}

@test "nvme ns-rescan (NVME_IOCTL_RESCAN) changes nothing when nothing changed; without CAP_SYS_ADMIN it is refused" {
	before=$(ns_disks)
	nvme ns-rescan "/dev/$CTRL"
	[ "$(ns_disks)" = "$before" ]
	run capsh --drop=cap_sys_admin -- -c "nvme ns-rescan /dev/$CTRL"
	echo "$output"
	[ "$status" -ne 0 ]
}

@test "an unbind while a rescan runs (held by the scan_delay_ms hook): the unbind waits for it, then removes both disks; nothing hangs, no splat" {
	debugfs_mount
	# long enough to look before it ends (the debug kernel is slow: its
	# event log line and this shell's next check can be seconds apart)
	delay_ms=3000
	[ -z "${SSDT_VM_SLOW:-}" ] || delay_ms=20000
	echo "$delay_ms" >"$SSDT_DBG/scan_delay_ms"
	nvme attach-ns "$OTHER" -n 2 -c "$ID"
	# the event was handled: the rescan now waits before it reads
	wait_for "$EVENT_S" event_logged
	no_n2
	# remove() waits for the rescan, which adds n2; then both go
	unbind_all
	# as before: the controller on ssdtune with namespace 1
	setup_attached
	CTRL=$(ssdt_ctrl)
	CTRL=${CTRL##*/}
	[ "$(ns_disks)" = "${CTRL}n1 " ]
}

# stock_head: the stock driver's disk of namespace 1 through the other
# controller, the multipath head nvmeXn1 of its path nvmeXcYn1.
stock_head() {
	local p
	for p in /sys/class/nvme/"${OTHER#/dev/}"/nvme*c*n1; do
		[ -e "$p" ] || continue
		p=${p##*/}
		echo "/dev/${p%%c*}n1"
		return 0
	done
	# a kernel without CONFIG_NVME_MULTIPATH (the debug kernel of make
	# check-debug): the controller's own disk
	for p in /sys/class/nvme/"${OTHER#/dev/}"/nvme*n1; do
		[ -e "$p" ] || continue
		echo "/dev/${p##*/}"
		return 0
	done
	err "no disk of namespace 1 under ${OTHER#/dev/}"
}

lbs() { cat "/sys/block/${1#/dev/}/queue/logical_block_size"; }
lbs_is() { [ "$(lbs "$1")" = "$2" ]; }

# format_other LBAF: Format NVM of namespace 1 through the other
# controller (stock nvme), then a rescan of ssdtune's; waits for both disks.
format_other() {
	nvme format "$OTHER" -n 1 --lbaf="$1" --force
	nvme ns-rescan "/dev/$CTRL"
	udevadm settle -t "$SETTLE_S"
}

@test "namespace 1 formatted to 4 KiB blocks through the other controller (stock nvme): the rescan gives ssdtune a new disk of 4096-byte blocks; what one driver writes the other reads; formatted back to 512" {
	sh=$(stock_head)
	[ "$(lbs "/dev/${CTRL}n1")" = 512 ]
	[ "$(lbs "$sh")" = 512 ]
	format_other 4
	[ "$(ns_disks)" = "${CTRL}n1 " ]
	[ "$(lbs "/dev/${CTRL}n1")" = 4096 ]
	[ "$(blockdev --getsize64 "/dev/${CTRL}n1")" = "$(blockdev --getsize64 "$sh")" ]
	dmesg_new | grep -q "namespace 1: 4096-byte blocks now, was 512"
	dmesg_new | grep -q "namespace 1 was formatted: removing ${CTRL}n1"
	wait_for "$SETTLE_S" lbs_is "$sh" 4096
	fio_verify "/dev/${CTRL}n1" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	# ssdtune writes, stock reads; then the other way, at another LBA
	head -c 1048576 /dev/urandom >"$SSDT_TMP/fmt1"
	head -c 1048576 /dev/urandom >"$SSDT_TMP/fmt2"
	dd if="$SSDT_TMP/fmt1" of="/dev/${CTRL}n1" bs=1M seek=40 oflag=direct status=none
	dd if="$sh" of="$SSDT_TMP/back" bs=1M skip=40 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/fmt1" "$SSDT_TMP/back"
	dd if="$SSDT_TMP/fmt2" of="$sh" bs=1M seek=41 oflag=direct status=none
	dd if="/dev/${CTRL}n1" of="$SSDT_TMP/back" bs=1M skip=41 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/fmt2" "$SSDT_TMP/back"
	dmesg_mark
	format_other 0
	dmesg_new | grep -q "namespace 1: 512-byte blocks now, was 4096"
	[ "$(lbs "/dev/${CTRL}n1")" = 512 ]
	fio_verify "/dev/${CTRL}n1" --rw=randwrite --bs=4k --iodepth=8 --size=8M
	dmesg_clean_since_mark 'namespace 1'
}

@test "a controller detached with two namespaces: both disks go, the module unloads, no leak reported" {
	nvme attach-ns "/dev/$CTRL" -n 2 -c "$ID"
	has_n2
	unbind_all
}
