#!/usr/bin/env bats
# Debug kernel only (make check-debug, before kmemleak.bats): attach with
# the Nth slab allocation of the binding task failing (failslab through
# /proc/thread-self/fail-nth, the way syzkaller walks error paths), for N
# over the allocations a probe makes.  Each attach either works or fails;
# nothing is left behind either way, KASAN and lockdep stay quiet, and at
# the end a normal attach takes verified I/O and the module unloads.

load ../lib/common

FS=/sys/kernel/debug/failslab

setup_file() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	# first in a boot of the slow kernel: nvme may still be probing
	wait_for "$SETTLE_S" nvme_bdf >/dev/null
	module_load
	# named busybox: a multi-call binary finds its applets by its own name
	BB_DIR=/run/ssdt-bb
	BB=$BB_DIR/busybox
	mkdir -p "$BB_DIR"
	cp "$(command -v busybox)" "$BB"
	export BB BB_DIR
}

teardown_file() {
	teardown_stock
	rm -rf "$BB_DIR"
}

# bind_failing N CPU: bind the controller to ssdtune from a task on CPU
# (the device's node, so probe runs in that task, not in a worker) whose
# Nth slab allocation from now on fails.  Prints "hit" when the failure
# was injected, "miss" when the bind made fewer than N allocations.
# The task is a busybox shell copied to tmpfs: when N lies beyond the
# probe, the failure lands in what the shell does next (its exit), and a
# failed allocation there while it releases a file of the 9p root left
# later execs of fio failing with EINVAL (the fault would be 9p's, not
# the driver's).
bind_failing() {
	taskset -c "$2" "$BB" sh -c '
		echo "$1" >/proc/thread-self/fail-nth
		echo "$2" >/sys/bus/pci/drivers/ssdtune/bind 2>/dev/null
		read left </proc/thread-self/fail-nth
		[ "$left" = 0 ] && echo hit || echo miss' sh "$1" "$bdf"
}

@test "attach with the Nth slab allocation failing, N over the whole probe: it works or fails, nothing is left, no splat" {
	[ -d "$FS" ] || err "no $FS: this is not the debug kernel (make check-debug)"
	bdf=$(nvme_bdf)
	node=$(cat "/sys/bus/pci/devices/$bdf/numa_node")
	[ "$node" -ge 0 ] || node=0
	cpu=$(node_cpus "$node" | awk '{ print $1 }')
	# fail-nth needs no probability (0: nothing fails but the Nth of the
	# task), only that sleeping allocations may fail too
	echo 0 >"$FS/verbose"
	echo N >"$FS/ignore-gfp-wait"
	teardown_stock
	module_load
	dmesg_mark
	echo "$bdf" >/sys/bus/pci/drivers/nvme/unbind
	echo ssdtune >"/sys/bus/pci/devices/$bdf/driver_override"
	hits=0 bound=0 n=1
	while [ "$n" -le 2000 ]; do
		r=$(bind_failing "$n" "$cpu")
		if [ "$(pci_driver "$bdf")" = ssdtune ]; then
			bound=$((bound + 1))
			echo "$bdf" >/sys/bus/pci/drivers/ssdtune/unbind
		fi
		no_ssdt_nodes || err "N=$n: ssdtune nodes left after a failed attach"
		[ "$r" = hit ] || break
		hits=$((hits + 1))
		n=$((n + n / 8 + 1))
	done
	echo Y >"$FS/ignore-gfp-wait"
	echo "# faults injected: $hits, of which the attach still worked: $bound; no fault at N=$n" >&3
	[ "$hits" -gt 10 ]
	[ "$r" = miss ]
	echo "" >"/sys/bus/pci/devices/$bdf/driver_override"
	sysfs_bind nvme "$bdf"
	attach
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=24M --size=4M
	teardown_stock
	module_load
	bad=$(dmesg_new | grep -E "$DMESG_BAD" |
	      grep -Ev 'failed with error|probe of .* failed|I/O error|Buffer I/O error|page allocation failure' || true)
	[ -z "$bad" ] || { echo "$bad"; false; }
}
