#!/usr/bin/env bats
# attach/detach refuse a controller whose namespace is in use, with one line
# saying why, and change nothing.
#
# vm-kernels: both (open, mounted and held disks in the block layer)

load lib/common

MNT=/tmp/ssdt-vm/mnt
# The refusals need a mounted ext4, not a whole-disk one: 16 MiB leave
# less for mkfs to write (a 1 MiB journal instead of 32 MiB, 2 block
# groups instead of 8) and for ext4's lazy inode table init to zero after
# the mount, under TCG.
FS_SIZE=16M

setup() {
	module_load
	mkdir -p "$MNT"
}

teardown() {
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
	mountpoint -q "$MNT" && umount "$MNT"
	true
}

teardown_file() {
	teardown_stock
}

@test "attach of a controller whose namespace is mounted is refused with one line and nothing changes" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	disk=$(nvme_disk)
	mkfs.ext4 -q -F "$disk" "$FS_SIZE"
	mount "$disk" "$MNT"
	echo hello >"$MNT/file"
	run ssdt attach "$bdf"
	echo "status $status: $output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ ${output,,} == *mount* ]]
	[ "$(pci_driver "$bdf")" = nvme ]
	mountpoint -q "$MNT"
	read -r content <"$MNT/file"
	[ "$content" = hello ]
	no_ssdt_nodes
	umount "$MNT"
}

@test "attach of a controller whose namespace is held open is refused with one line and nothing changes" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	disk=$(nvme_disk)
	# 3>&- : bats waits for anything holding its fd 3
	sleep 300 <"$disk" 3>&- &
	holder=$!
	wait_for 10 test "/proc/$holder/fd/0" -ef "$disk"
	run ssdt attach "$bdf"
	echo "status $status: $output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ ${output,,} =~ open|in\ use|busy|held ]]
	[ "$(pci_driver "$bdf")" = nvme ]
	no_ssdt_nodes
}

@test "detach of a controller whose ssdtune namespace is mounted is refused with one line and nothing changes" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = ssdtune ] || attach
	disk=$(ssdt_disk)
	mkfs.ext4 -q -F "$disk" "$FS_SIZE"
	mount "$disk" "$MNT"
	echo hello >"$MNT/file"
	run ssdt detach "$bdf"
	echo "status $status: $output"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ ${output,,} == *mount* ]]
	[ "$(pci_driver "$bdf")" = ssdtune ]
	mountpoint -q "$MNT"
	read -r content <"$MNT/file"
	[ "$content" = hello ]
	umount "$MNT"
}
