#!/usr/bin/env bats
# Every door into the driver as a caller without the privilege it needs
# (Documentation/driver.md, "Privileges: every door into the driver"):
# uid 65534 (nobody), a member of group disk, and root without
# CAP_SYS_ADMIN or CAP_NET_ADMIN.  Each refusal has its errno and leaves
# the controller as it was: no command reaches it, no knob changes, no
# data is formatted.  The
# open doors (the counter dump, the read-only files) answer such callers,
# and the family does not exist outside the initial network namespace.
#
# vm-kernels: both (capabilities, file modes, generic netlink's group
# permissions and network namespaces are the kernel's)
#
# What runs as nobody runs from a copy: a clone may sit where nobody
# cannot enter (/root is 0700 on Debian), so the helpers and the tool go
# to a directory of mode 0755 first (setup_file): files 0644, the tool 0755.

load lib/common

NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
NO_SYS_ADMIN="setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin"
NO_NET_ADMIN="setpriv --inh-caps=-net_admin --bounding-set=-net_admin"

setup_file() {
	# PT, GENL_FORMAT, TOOL: the copies every caller here can read
	# (genl-format.py reads the uapi header beside it, as in the tree)
	PRIV_DIR=$(mktemp -d /tmp/ssdt-priv.XXXXXX) || return 1
	chmod 0755 "$PRIV_DIR"
	install -d -m 0755 "$PRIV_DIR/tests/vm/lib" "$PRIV_DIR/include/uapi/linux"
	install -m 0644 "$SSDT_REPO/tests/vm/lib/nvme_pt.py" "$SSDT_REPO/tests/vm/lib/genl-format.py" \
		"$PRIV_DIR/tests/vm/lib/"
	install -m 0644 "$SSDT_REPO/include/uapi/linux/ssdtune.h" "$PRIV_DIR/include/uapi/linux/"
	install -m 0755 "$SSDT_TOOL" "$PRIV_DIR/ssdtune"
	PT=$PRIV_DIR/tests/vm/lib/nvme_pt.py GENL_FORMAT=$PRIV_DIR/tests/vm/lib/genl-format.py
	TOOL=$PRIV_DIR/ssdtune
	export PRIV_DIR PT GENL_FORMAT TOOL
	setup_attached
	ns_dev=$(ssdt_disk)
	ctrl_dev=${ns_dev%n1}
	export ns_dev ctrl_dev
}

teardown_file() {
	teardown_stock
	rm -rf "$PRIV_DIR"
}

# sent CTRL: commands submitted on every queue of CTRL, admin queue included
sent() {
	local q n=0 v
	for q in "$1"/queues/q*/submitted; do
		read -r v <"$q"
		n=$((n + v))
	done
	echo "$n"
}

@test "without CAP_SYS_ADMIN every passthrough ioctl is EACCES and nothing reaches the controller: admin and I/O, 32 and 64 bit, RESET, RESCAN" {
	local c before out
	c=$(ssdt_ctrl)
	dmesg_mark
	before=$(sent "$c")
	# Identify Controller; a Read of 8 blocks; NVME_IOCTL_RESET (N 0x44)
	# and NVME_IOCTL_RESCAN (N 0x46), on the controller and the namespace
	out=$($NO_SYS_ADMIN sh -c "
		python3 $PT $ctrl_dev admin 6 cdw10=1 len=4096
		python3 $PT $ctrl_dev admin 6 cdw10=1 len=4096 ioctl64=1
		python3 $PT $ns_dev admin 6 cdw10=1 len=4096
		python3 $PT $ns_dev io 2 nsid=1 cdw12=7 len=4096
		python3 $PT $ns_dev io 2 nsid=1 cdw12=7 len=4096 ioctl64=1
		python3 $PT $ctrl_dev io 2 nsid=1 cdw12=7 len=4096
		python3 $PT $ctrl_dev ioctl 0x4e44
		python3 $PT $ctrl_dev ioctl 0x4e46")
	echo "$out"
	[ "$(grep -c '^errno EACCES$' <<<"$out")" -eq 8 ]
	[ "$(sent "$c")" -eq "$before" ]
	refute grep -E 'reset asked for|rescan' <(dmesg_new)
	# the same commands with the capability do reach it
	out=$(python3 "$PT" "$ctrl_dev" admin 6 cdw10=1 len=4096)
	[[ $out == "ok 0"* ]]
	[ "$(sent "$c")" -gt "$before" ]
}

@test "NVME_IOCTL_SUBMIT_IO needs CAP_SYS_ADMIN, stricter than stock: root without it and a member of disk get EACCES; root reads" {
	local c before
	c=$(ssdt_ctrl)
	# what udev's default rules give a disk (this guest runs no udev)
	chgrp disk "$ns_dev"
	chmod 0660 "$ns_dev"
	before=$(sent "$c")
	for who in "$NO_SYS_ADMIN" "setpriv --reuid=65534 --regid=65534 --groups=disk"; do
		run $who python3 "$PT" "$ns_dev" submit 2 slba=0 nblocks=7
		echo "$who: $status $output"
		[ "$output" = "errno EACCES" ]
	done
	[ "$(sent "$c")" -eq "$before" ]
	# the member of disk may still read the block device itself
	run setpriv --reuid=65534 --regid=65534 --groups=disk \
		dd if="$ns_dev" of=/dev/null bs=4k count=1 iflag=direct status=none
	[ "$status" -eq 0 ]
	run python3 "$PT" "$ns_dev" submit 2 slba=0 nblocks=7
	[ "$output" = "ok 0" ]
}

@test "the netlink FORMAT: EPERM without CAP_NET_ADMIN, as nobody and as root without it; the data stays" {
	local c idx pat
	c=$(ssdt_ctrl)
	idx=${c##*/ssdt}
	pat=$SSDT_TMP/priv-pattern
	head -c 64K /dev/urandom >"$pat"
	dd if="$pat" of="$ns_dev" bs=64K count=1 oflag=direct status=none
	[ "$($NOBODY python3 "$GENL_FORMAT" "$idx" 1 1)" = EPERM ]
	[ "$($NO_NET_ADMIN python3 "$GENL_FORMAT" "$idx" 1 1)" = EPERM ]
	cmp -n 65536 "$pat" "$ns_dev"
}

@test "every knob: EACCES for nobody (file mode), EPERM for root without CAP_SYS_ADMIN; the value stays" {
	local c k f v after n=0
	c=$(ssdt_ctrl)
	for k in $(sed -n 's/^SSDTUNE_KNOB(\([a-z_]*\),.*/\1/p' "$SSDT_REPO/include/uapi/linux/ssdtune_knobs.h"); do
		f=$c/$k
		[ -e "$f" ] || continue
		n=$((n + 1))
		v=$(cat "$f")
		run $NOBODY sh -c "echo '$v' >$f"
		[ "$status" -ne 0 ] || { echo "$k: nobody could write"; false; }
		[[ $output == *"ermission denied"* ]] || { echo "$k as nobody: $output"; false; }
		run $NO_SYS_ADMIN python3 -c '
import errno, os, sys
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
    os.write(fd, sys.argv[2].encode() + b"\n")
except OSError as e:
    print(errno.errorcode[e.errno])
else:
    print("written")' "$f" "$v"
		[ "$output" = EPERM ] || { echo "$k as root without CAP_SYS_ADMIN: $output"; false; }
		after=$(cat "$f")
		[ "$after" = "$v" ] || { echo "$k: $v became $after"; false; }
	done
	# every knob of the header is a file here
	[ "$n" -eq "$(grep -c '^SSDTUNE_KNOB(' "$SSDT_REPO/include/uapi/linux/ssdtune_knobs.h")" ]
}

@test "the open doors answer nobody: the counter dump and every read-only file but energy_uj (0400, as RAPL's); the events group refuses nobody and root without CAP_NET_ADMIN in one line" {
	local c f who v pid
	c=$(ssdt_ctrl)
	run $NOBODY "$TOOL" --json monitor --stats
	[ "$status" -eq 0 ]
	[ "$(py '[x["controller"] for x in v["controllers"]]')" = "['${c##*/}']" ]
	for f in "$c"/*; do
		[ -f "$f" ] || continue
		case $(stat -c %a "$f") in
		444) $NOBODY cat "$f" >/dev/null || { echo "nobody cannot read $f"; false; } ;;
		esac
	done
	# the energy counter is a side channel (Platypus): root only
	[ "$(stat -c %a "$c/energy_uj")" = 400 ]
	run $NOBODY cat "$c/energy_uj"
	[ "$status" -ne 0 ]
	[[ $output == *"Permission denied"* ]]
	[[ $(cat "$c/energy_uj") =~ ^[0-9]+$ ]]
	# the tool's metrics leave the sample out for nobody, not fail (an
	# empty state directory: root's, /var/lib/ssdtune, is not for nobody)
	mkdir -p "$SSDT_TMP/nobody-state"
	chmod 755 "$SSDT_TMP" "$SSDT_TMP/nobody-state"
	run $NOBODY "$TOOL" metrics --state-dir "$SSDT_TMP/nobody-state"
	echo "$output" | grep -v '^ssdtune_' | head -n 20
	[ "$status" -eq 0 ]
	[[ $output != *ssdtune_energy_joules_total\{* ]]
	[[ $output == *ssdtune_power_estimate_watts\{* ]]
	for who in "$NOBODY" "$NO_NET_ADMIN"; do
		run $who "$TOOL" monitor --count 1 --timeout 10
		echo "$who: $status $output"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ $output == *"joining the 'events' group needs CAP_NET_ADMIN"* ]]
	done
	# root with the capability hears a knob event
	"$SSDT_TOOL" monitor --count 1 --timeout 60 >"$SSDT_TMP/priv-mon.out" 2>&1 &
	pid=$!
	wait_for 20 grep -q '^watching' "$SSDT_TMP/priv-mon.out"
	v=$(cat "$c/coalesce_threshold")
	echo "$v" >"$c/coalesce_threshold"
	wait "$pid"
	grep -q "knob .*knob=coalesce_threshold value=$v" "$SSDT_TMP/priv-mon.out"
}

@test "outside the initial network namespace the family does not exist" {
	run unshare --net "$SSDT_TOOL" monitor --stats
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"is ssdtune.ko loaded"* ]]
}

@test "node and file modes: /dev/ssdtN 0600 root, the module parameters' modes and the timeouts' ranges, debugfs files root only, the PCI binding files write-only for root" {
	local p mode want f v now
	[ "$(stat -c '%a %U' "$ctrl_dev")" = "600 root" ]
	for p in /sys/module/ssdtune/parameters/*; do
		mode=$(stat -c %a "$p")
		case ${p##*/} in
		io_timeout | admin_timeout | max_retries | shutdown_timeout | \
			default_ps_max_latency_us | format_timeout | power_burst_us) want=644 ;;
		*) want=444 ;;
		esac
		[ "$mode" = "$want" ] || { echo "$p: mode $mode, not $want"; false; }
	done
	# a 0644 parameter: nobody may not write it
	run $NOBODY sh -c "echo 30 >/sys/module/ssdtune/parameters/io_timeout"
	[ "$status" -ne 0 ]
	# the admin and format timeouts: 0 (every command would time out at
	# once) and past their range (3600, 86400 s) are EINVAL, the value stays
	for p in admin_timeout:3601 format_timeout:86401; do
		f=/sys/module/ssdtune/parameters/${p%:*}
		read -r want <"$f"
		for v in 0 "${p#*:}" 4294967296 x; do
			run bash -c "echo $v >$f"
			[[ $output == *"Invalid argument"* ]] || { echo "${p%:*}=$v: $status $output"; false; }
			read -r now <"$f"
			[ "$now" = "$want" ]
		done
		echo 1 >"$f"
		read -r now <"$f"
		[ "$now" = 1 ]
		echo "$want" >"$f"
	done
	for p in /sys/bus/pci/drivers/ssdtune/bind /sys/bus/pci/drivers/ssdtune/unbind \
		/sys/bus/pci/drivers/ssdtune/new_id; do
		[ "$(stat -c %a "$p")" = 200 ] || { echo "$p: $(stat -c %a "$p")"; false; }
	done
	debugfs_mount
	for p in /sys/kernel/debug/ssdtune/*/*; do
		[ -f "$p" ] || continue
		mode=$(stat -c %a "$p")
		case $mode in
		?[2367]? | ??[2367]) echo "$p: mode $mode: not only root may write"; false ;;
		esac
	done
	[ "$(stat -c %a /sys/kernel/debug/ssdtune)" = 700 ] || [ "$(stat -c %a /sys/kernel/debug)" = 700 ]
}
