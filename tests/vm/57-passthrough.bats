#!/usr/bin/env bats
# nvme-cli and smartctl on ssdtune's /dev/ssdtN and /dev/ssdtNn1 (the NVMe
# ioctls, kmod/ssdt_ioctl.c) print what they print on the stock driver's
# /dev/nvmeN and /dev/nvmeNn1 for the same emulated controller, once the
# device names are masked, and the counters that I/O and time move between
# the two reads (the driver switch itself reads the partition table).
# Then what nvme-cli cannot send: bad input, refused commands, and ioctls on
# a file held open while the controller is detached.
#
# vm-kernels: both (the NVMe ioctls and passthrough)

load lib/common

PT=$SSDT_REPO/tests/vm/lib/nvme_pt.py

# The commands compared: a name, then the command line with DEV (the
# controller) or NS (its namespace 1).
CMDS=(
	"id-ctrl|nvme id-ctrl DEV"
	"id-ns|nvme id-ns NS"
	"smart-log|nvme smart-log DEV"
	"error-log|nvme error-log DEV"
	"fw-log|nvme fw-log DEV"
	"get-feature-8|nvme get-feature -f 8 DEV"
	"get-feature-2|nvme get-feature -f 2 DEV"
	"list-ns|nvme list-ns DEV"
	"smartctl|smartctl -a -d nvme NS"
)

# What differs between two reads of one controller: I/O counters, busy
# time, power-on hours (smart-log and smartctl), the clock (smartctl).
# nvme smart-log pads "Data Units Read" with tabs before its colon.
# mask NAME FILE...: NAME (nvme0, ssdt0) as a whole name, not inside
# "ssdt01", and those values masked in place in each FILE.
mask() {
	local name=$1
	shift
	sed -i -E -e "s#(^|[^A-Za-z0-9])$name([^0-9]|\$)#\1DEV\2#g" \
		-e 's/^((data_units|host)_(read|write|written)[a-z_]*|controller_busy_time|power_on_hours)([[:space:]]*:).*/\1\4 N/' \
		-e 's/^((Data Units|Host) (Read|Written|Write)[A-Za-z ]*|Controller Busy Time|Power On Hours)([[:space:]]*:[[:space:]]*).*/\1\4N/' \
		-e 's/^Local Time is:.*/Local Time is: T/' "$@"
}

# capture DIR CTRL NS: every command's output (and exit status) into DIR,
# masked by one sed for all (a process costs ~0.1 s under TCG).
capture() {
	local dir=$1 ctrl=$2 ns=$3 c name line rc
	mkdir -p "$dir"
	for c in "${CMDS[@]}"; do
		name=${c%%|*}
		line=${c#*|}
		line=${line//DEV/$ctrl}
		line=${line//NS/$ns}
		# (its failure is recorded, and the test of its name fails on it)
		rc=0
		# shellcheck disable=SC2086 # the command line is split on blanks
		$line >"$dir/$name" 2>&1 || rc=$?
		echo "exit $rc" >>"$dir/$name"
	done
	mask "${ctrl#/dev/}" "$dir"/*
}

# pt REQUEST...: nvme_pt.py's requests, each "DEV what [args]" (split on
# blanks), in one python process (a python start is slow under TCG);
# nvme_pt.py's output lines, one per ioctl, in order.
pt() {
	python3 -c '
import importlib.util, sys
sys.dont_write_bytecode = True
spec = importlib.util.spec_from_file_location("nvme_pt", sys.argv[1])
nvme_pt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nvme_pt)
for req in sys.argv[2:]:
    nvme_pt.main(["nvme_pt.py"] + req.split())
    sys.stdout.flush()
' "$PT" "$@"
}

setup_file() {
	if ! command -v nvme >/dev/null || ! command -v smartctl >/dev/null; then
		echo "nvme-cli or smartmontools is not installed (make setup installs them)" >&2
		return 1
	fi
	teardown_stock
	local bdf disk
	bdf=$(nvme_bdf)
	disk=$(nvme_disk)
	capture "$SSDT_TMP/pt/stock" "${disk%n1}" "$disk"
	module_load
	attach
	disk=$(ssdt_disk)
	capture "$SSDT_TMP/pt/ssdt" "${disk%n1}" "$disk"
	# The tests' devices, found once: a lookup per test costs a few
	# subshells (~0.1 s each under TCG).
	ns_dev=$disk
	ctrl_dev=${disk%n1}
	export bdf ns_dev ctrl_dev
}

teardown_file() {
	teardown_stock
}

# Each test that reads the kernel log marks it first (dmesg_mark): the
# comparisons of setup_file's outputs need no mark.
setup() {
	# setup_file's names, unless a failed test left the controller under
	# another
	if [ ! -b "${ns_dev:-}" ]; then
		ns_dev=$(ssdt_disk)
		ctrl_dev=${ns_dev%n1}
	fi
}

# same NAME: the masked outputs of command NAME on both drivers agree.
same() {
	echo "--- stock, then ssdtune:"
	cat "$SSDT_TMP/pt/stock/$1"
	diff -u "$SSDT_TMP/pt/stock/$1" "$SSDT_TMP/pt/ssdt/$1"
	grep -qx 'exit 0' "$SSDT_TMP/pt/ssdt/$1"
}

@test "nvme id-ctrl: the same on /dev/ssdtN as on /dev/nvmeN" { same id-ctrl; }
@test "nvme id-ns: the same on /dev/ssdtNn1 as on /dev/nvmeNn1" { same id-ns; }
@test "nvme smart-log: the same (I/O counters masked)" { same smart-log; }
@test "nvme error-log: the same" { same error-log; }
@test "nvme fw-log: the same" { same fw-log; }
@test "nvme get-feature -f 8 (coalescing): the same" { same get-feature-8; }
@test "nvme get-feature -f 2 (power state): the same" { same get-feature-2; }
@test "nvme list-ns: the same" { same list-ns; }
@test "smartctl -a -d nvme: the same on the namespace (I/O counters and clock masked)" { same smartctl; }

@test "NVME_IOCTL_ID: the namespace's id on /dev/ssdtNn1, ENOTTY on /dev/ssdtN as on the stock driver; an unknown ioctl is ENOTTY" {
	out=$(pt "$ns_dev id" "$ctrl_dev id" "$ctrl_dev ioctl 0x4e4f" "$ns_dev ioctl 0x4e4f")
	echo "$out"
	mapfile -t r <<<"$out"
	[ "${#r[@]}" -eq 4 ]
	[ "${r[0]}" = "ok 1" ]
	[ "${r[1]}" = "errno ENOTTY" ]
	[ "${r[2]}" = "errno ENOTTY" ]
	[ "${r[3]}" = "errno ENOTTY" ]
}

@test "admin passthrough: Identify through both ioctls returns status 0, Get Features its result dword, a bad opcode the controller's status; bad input is EINVAL or EFAULT" {
	dmesg_mark
	out=$(pt "$ctrl_dev admin 0x06 cdw10=1 len=4096" \
		"$ctrl_dev admin 0x06 cdw10=1 len=4096 ioctl64=1" \
		"$ctrl_dev admin 0x0a cdw10=7" \
		"$ctrl_dev admin 0xc2 cdw10=1 len=4096" \
		"$ctrl_dev admin 0x06 cdw10=1 len=4096 addr=bad" \
		"$ctrl_dev admin 0x06 cdw10=1 len=0x10000000" \
		"$ctrl_dev admin 0x06 cdw10=1 len=4096 meta_len=64" \
		"$ctrl_dev admin 0x03 len=4096" \
		"$ctrl_dev ioctl 0xc0484e41")
	echo "$out"
	mapfile -t r <<<"$out"
	[ "${#r[@]}" -eq 9 ]
	# Identify through both ioctls
	[ "${r[0]}" = "ok 0 result 0x0" ]
	[ "${r[1]}" = "ok 0 result 0x0" ]
	# Get Features, Number of Queues: the result dword comes back
	[[ "${r[2]}" == "ok 0 result 0x"[0-9a-f]* ]]
	[ "${r[2]}" != "ok 0 result 0x0" ]
	# an invalid opcode: the controller's status, not an errno
	[[ "${r[3]}" == "ok "[1-9]* ]]
	# a bad buffer, a length beyond the limits, metadata
	[ "${r[4]}" = "errno EFAULT" ]
	[ "${r[5]}" = "errno EINVAL" ]
	[ "${r[6]}" = "errno EINVAL" ]
	# bidirectional opcode with data
	[ "${r[7]}" = "errno EINVAL" ]
	# the command itself at a bad address (NVME_IOCTL_ADMIN_CMD, NULL)
	[ "${r[8]}" = "errno EFAULT" ]
	dmesg_clean_since_mark
}

# timeout_ms fffffc19 and above wrapped to 0 s in DIV_ROUND_UP() (issue
# 54): the admin command timed out at once and the controller was stopped
# and reset.  Now about 49 days: the command completes as any other.
@test "passthrough with timeout_ms fffffc19..ffffffff (admin, 64-bit admin, I/O) completes: no timeout, no reset" {
	local lbs
	dmesg_mark
	read -r lbs <"/sys/block/${ns_dev#/dev/}/queue/logical_block_size"
	out=$(pt "$ctrl_dev admin 0x06 cdw10=1 len=4096 timeout=0xffffffff" \
		"$ctrl_dev admin 0x06 cdw10=1 len=4096 timeout=0xfffffc19 ioctl64=1" \
		"$ctrl_dev admin 0x0a cdw10=7 timeout=0xffffffff" \
		"$ns_dev io 2 nsid=1 cdw12=0 len=$lbs timeout=0xffffffff" \
		"$ns_dev io 2 nsid=1 cdw12=0 len=$lbs timeout=0x80000000 ioctl64=1")
	echo "$out"
	mapfile -t r <<<"$out"
	[ "${#r[@]}" -eq 5 ]
	[ "${r[0]}" = "ok 0 result 0x0" ]
	[ "${r[1]}" = "ok 0 result 0x0" ]
	[[ "${r[2]}" == "ok 0 result 0x"[1-9a-f]* ]]
	[ "${r[3]}" = "ok 0 result 0x0" ]
	[ "${r[4]}" = "ok 0 result 0x0" ]
	! dmesg_new | grep -E 'timed out|stopping the controller|resetting|reset done'
	[ "$(trim "$(ssdt_ctrl)/state")" = live ]
	dmesg_clean_since_mark
}

@test "admin passthrough refuses what the driver owns with EPERM and a log line: queue creation, Set Features coalescing, power state, APST and HMB, Format to another LBA format" {
	local c0 new f
	dmesg_mark
	c0=$(trim "$(ssdt_ctrl)/coalesce_mode")
	# Create I/O Completion Queue; Set Features coalescing, power state,
	# APST (0Ch) and Host Memory Buffer (0Dh, EHM set: the controller
	# would DMA to the address in dwords 12-15); Format to LBA format 4
	# (4 KiB blocks in QEMU's list) and with protection information
	out=$(pt "$ctrl_dev admin 0x05 cdw10=0x003f0009 cdw11=1" \
		"$ctrl_dev admin 0x09 cdw10=8 cdw11=0x0101" \
		"$ctrl_dev admin 0x09 cdw10=2 cdw11=1" \
		"$ctrl_dev admin 0x09 cdw10=0x0c cdw11=1" \
		"$ctrl_dev admin 0x09 cdw10=0x0d cdw11=1 cdw12=1" \
		"$ns_dev admin 0x80 nsid=1 cdw10=4" \
		"$ns_dev admin 0x80 nsid=1 cdw10=0x20")
	echo "$out"
	mapfile -t r <<<"$out"
	[ "${#r[@]}" -eq 7 ]
	for l in "${r[@]}"; do [ "$l" = "errno EPERM" ]; done
	for f in 8 0x0c 0x0d; do
		run nvme set-feature -f $f -v 1 "$ctrl_dev"
		echo "$output"
		[ "$status" -ne 0 ]
		[[ "$output" == *"Operation not permitted"* ]]
	done
	new=$(dmesg_new)
	[[ $new == *'passthrough admin command 0x9 refused: coalescing is a knob'* ]]
	[[ $new == *'passthrough admin command 0x9 refused: APST is a knob: apst_max_latency_us'* ]]
	[[ $new == *"passthrough admin command 0x9 refused: the Host Memory Buffer is the driver's: max_host_mem_size_mb"* ]]
	[[ $new == *'passthrough Format NVM refused: only the LBA format in force'* ]]
	[[ $new != *'formatting namespace'* ]]
	[ "$(trim "$(ssdt_ctrl)/coalesce_mode")" = "$c0" ]
	fio_verify "$ns_dev" --rw=randwrite --bs=4k --iodepth=8 --offset=64M --size=2M
}

@test "nvme format on /dev/ssdtNn1 (the LBA format in force) goes through the driver's format path: the disk is held, the data is gone, I/O verifies after" {
	dmesg_mark
	head -c 1048576 /dev/urandom >"$SSDT_TMP/pat"
	dd if="$SSDT_TMP/pat" of="$ns_dev" bs=1M seek=300 oflag=direct status=none
	run nvme format "$ns_dev" --lbaf=0 --ses=0 --force
	echo "$output"
	[ "$status" -eq 0 ]
	dmesg_new | grep -q 'formatting namespace 1 (secure erase setting 0)'
	# QEMU's Format NVM writes zeroes: nothing of the pattern is left
	dd if="$ns_dev" of="$SSDT_TMP/back" bs=1M skip=300 count=1 iflag=direct status=none
	cmp "$SSDT_TMP/back" <(head -c 1048576 /dev/zero)
	[ "$(blockdev --getsize64 "$ns_dev")" = 1073741824 ]
	fio_verify "$ns_dev" --rw=randwrite --bs=4k --iodepth=8 --offset=300M --size=2M
	dmesg_clean_since_mark
}

@test "nvme write and nvme read (NVME_IOCTL_SUBMIT_IO) on /dev/ssdtNn1: the data round-trips and the block path reads the same bytes" {
	local lbs slba=40960 n=16
	dmesg_mark
	read -r lbs <"/sys/block/${ns_dev#/dev/}/queue/logical_block_size"
	head -c $((n * lbs)) /dev/urandom >"$SSDT_TMP/pt.in"
	nvme write "$ns_dev" --start-block=$slba --block-count=$((n - 1)) \
		--data-size=$((n * lbs)) --data="$SSDT_TMP/pt.in"
	nvme read "$ns_dev" --start-block=$slba --block-count=$((n - 1)) \
		--data-size=$((n * lbs)) --data="$SSDT_TMP/pt.out"
	cmp "$SSDT_TMP/pt.in" "$SSDT_TMP/pt.out"
	dd if="$ns_dev" of="$SSDT_TMP/pt.blk" bs="$lbs" skip=$slba count=$n iflag=direct status=none
	cmp "$SSDT_TMP/pt.in" "$SSDT_TMP/pt.blk"
	dmesg_clean_since_mark
}

@test "nvme io-passthru (NVME_IOCTL_IO_CMD) on /dev/ssdtNn1 and on /dev/ssdtN (one namespace): a Read returns what the block path wrote; bad input is EINVAL" {
	local lbs slba=49152 n=8 dev
	dmesg_mark
	read -r lbs <"/sys/block/${ns_dev#/dev/}/queue/logical_block_size"
	head -c $((n * lbs)) /dev/urandom >"$SSDT_TMP/pt.in"
	dd if="$SSDT_TMP/pt.in" of="$ns_dev" bs="$lbs" seek=$slba oflag=direct status=none
	for dev in "$ns_dev" "$ctrl_dev"; do
		nvme io-passthru "$dev" --opcode=2 --namespace-id=1 --data-len=$((n * lbs)) \
			--read --cdw10=$slba --cdw12=$((n - 1)) --raw-binary >"$SSDT_TMP/pt.out"
		cmp "$SSDT_TMP/pt.in" "$SSDT_TMP/pt.out"
	done
	out=$(pt "$ns_dev io 2 nsid=1 cdw12=0 len=$lbs meta_len=8" \
		"$ns_dev io 2 nsid=1 cdw12=0 len=0x10000000" \
		"$ns_dev io 2 nsid=1 cdw12=0 len=$lbs addr=bad" \
		"$ns_dev io 0x7e nsid=1" \
		"$ns_dev io 2 nsid=2 cdw12=0 len=$lbs" \
		"$ns_dev io 2 nsid=0xffffffff cdw12=0 len=$lbs" \
		"$ctrl_dev io 2 nsid=0 cdw12=0 len=$lbs")
	echo "$out"
	mapfile -t r <<<"$out"
	[ "${#r[@]}" -eq 7 ]
	# metadata, a length beyond the queue's limits, a bad buffer
	[ "${r[0]}" = "errno EINVAL" ]
	[ "${r[1]}" = "errno EINVAL" ]
	[ "${r[2]}" = "errno EFAULT" ]
	# an invalid I/O opcode: the controller's status
	[[ "${r[3]}" == "ok "[1-9]* ]]
	# another namespace, all of them, none: not on this one's queue
	[ "${r[4]}" = "errno EINVAL" ]
	[ "${r[5]}" = "errno EINVAL" ]
	[ "${r[6]}" = "errno EINVAL" ]
	dmesg_new | grep -q "I/O passthrough for namespace 4294967295 on ${ns_dev#/dev/}: refused"
	dmesg_clean_since_mark
}

@test "a temperature threshold set below the temperature (nvme set-feature -f 4) raises a SMART event: a log line and an async event in ssdtune monitor" {
	local orig mc k out
	dmesg_mark
	out=$(nvme get-feature -f 4 "$ctrl_dev")
	[[ $out =~ Current\ value:\ *(0x[0-9a-f]*) ]]
	orig=${BASH_REMATCH[1]}
	[ -n "$orig" ]
	mc=$(trim "$(ssdt_ctrl)/temperature_mc")
	k=$(((mc + 273150) / 1000))
	"$SSDT_TOOL" monitor --count 1 --timeout 120 >"$SSDT_TMP/aer.out" 2>&1 &
	mon=$!
	wait_for 20 grep -q '^watching' "$SSDT_TMP/aer.out"
	nvme set-feature -f 4 -v $((k - 10)) "$ctrl_dev"
	wait "$mon"
	nvme set-feature -f 4 -v "$orig" "$ctrl_dev"
	cat "$SSDT_TMP/aer.out"
	grep -Eq "^ssdt[0-9]+ async .*async_type=smart async_info=1 log_page=2 critical_warning=[0-9]+ temperature_k=$k\$" "$SSDT_TMP/aer.out"
	dmesg_new | grep -q "asynchronous event: SMART: temperature beyond a threshold (critical warning 0x[0-9a-f]*, temperature $k K)"
	dmesg_clean_since_mark 'asynchronous event'
}

@test "passthrough needs CAP_SYS_ADMIN: without it nvme id-ctrl fails and nothing is sent" {
	run capsh --drop=cap_sys_admin -- -c "nvme id-ctrl $ctrl_dev"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"ermission denied"* ]]
}

@test "nvme reset /dev/ssdtN resets the controller and waits for it; I/O goes on, fio verify passes" {
	dmesg_mark
	nvme reset "$ctrl_dev"
	dmesg_new | grep -q 'reset asked for through NVME_IOCTL_RESET'
	[ "$(trim "$(ssdt_ctrl)/state")" = live ]
	fio_verify "$ns_dev" --rw=randwrite --bs=4k --iodepth=16 --offset=80M --size=4M
	dmesg_clean_since_mark 'reset asked for'
}

@test "a held /dev/ssdtN and /dev/ssdtNn1 across an unbind: the ioctls on them fail with ENODEV (the namespace id still answers), close frees, the module unloads" {
	local bdf unbind
	dmesg_mark
	bdf=$(nvme_bdf)
	unbind="echo $bdf >/sys/bus/pci/drivers/ssdtune/unbind"
	run python3 "$PT" "$ctrl_dev" hold "$unbind"
	echo "$output"
	[ "${lines[0]}" = "errno ENOTTY" ]
	[ "${lines[1]}" = "errno ENODEV" ]
	sysfs_bind nvme "$bdf"
	attach
	run python3 "$PT" "$ns_dev" hold "$unbind"
	echo "$output"
	[ "${lines[0]}" = "ok 1" ]
	[ "${lines[1]}" = "errno ENODEV" ]
	[ "$(pci_driver "$bdf")" = none ]
	sysfs_bind nvme "$bdf"
	module_unload
	[ ! -d /sys/module/ssdtune ]
	[ ! -e "$ctrl_dev" ]
	dmesg_clean_since_mark
}
