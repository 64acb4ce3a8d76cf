# Helpers for the VM bats suite (tests/vm/*.bats).  Runs inside the guest
# that scripts/vm.sh boots; see Documentation/vm-harness.md.
#
# Every helper that can fail prints one line saying why on stderr and
# returns non-zero, so a test that uses it fails with a reason.

: "${SSDT_REPO:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}"
: "${SSDT_BUILD:=$SSDT_REPO/build}"
: "${SSDT_RESULTS:=$SSDT_BUILD/results}"
: "${SSDT_VM_NVME_SERIAL:=ssdt01}"
: "${SSDT_VM_NVME_ID:=nvme0}"
: "${SSDT_VM_CTL:=}"

# bats 1.8 runs a DEBUG trap, bats_debug_trap(), before every command of a
# test, to know the failing line: a shell loop runs about 50 times slower
# with it (20000 passes of a one-line function: 25.6 s against 0.5 s on
# the host), and the helpers here poll and loop.  A test's setup, body and
# teardown run without it: ssdt_err_trap() takes bats' stack trace once,
# when a command fails, so the failure still names its file, line and
# command.  A failure inside teardown() (which bats calls where the ERR
# trap does not fire) shows no line; setup_file and teardown_file keep
# bats' own tracing (there the ERR trap does not fire either: without it a
# failing setup_file names no line; measured on 10-attach, 40-irq and
# 25-timeout, dropping it there too saved 11 s of 190).  Without bats'
# functions nothing changes.
# (One fork a test: the copy of bats_setup_tracing.)
ssdt_status() { return "$1"; }
# (bats reads the BATS_DEBUG_* variables)
# shellcheck disable=SC2034
ssdt_err_trap() {
	local st=$?
	bats_capture_stack_trace
	BATS_DEBUG_LAST_STACK_TRACE_IS_VALID=1
	ssdt_status "$st" || bats_error_trap
}
if [ -n "${BATS_TEST_NAME:-}" ] && declare -F bats_setup_tracing >/dev/null &&
   declare -F bats_capture_stack_trace >/dev/null && declare -F bats_error_trap >/dev/null &&
   ! declare -F ssdt_bats_setup_tracing >/dev/null; then
	SSDT_F=$(declare -f bats_setup_tracing)
	eval "ssdt_bats_setup_tracing() ${SSDT_F#*$'\n'}"
	unset SSDT_F
	# shellcheck disable=SC2034
	bats_setup_tracing() {
		ssdt_bats_setup_tracing
		trap - DEBUG
		trap ssdt_err_trap ERR
		BATS_DEBUG_LAST_STACK_TRACE=()
	}
fi

# Builtins only at load time (but the one above): every test loads this
# file again, and each fork costs 20-30 ms, each exec 100 ms or more under
# TCG.
read -r SSDT_KVER </proc/sys/kernel/osrelease
SSDT_KO=$SSDT_BUILD/kmod-$SSDT_KVER/ssdtune.ko
SSDT_TOOL=$SSDT_REPO/tools/ssdtune/ssdtune
NVME_CLASS=0x010802
# Scratch space inside the guest (tmpfs/overlay, gone after the VM).
SSDT_TMP=/tmp/ssdt-vm
# udevadm settle bound: the debug kernel (vm.sh sets SSDT_VM_SLOW) is ~5x slower
SETTLE_S=30
[ -n "${SSDT_VM_SLOW:-}" ] && SETTLE_S=180
[ -d "$SSDT_TMP" ] || mkdir -p "$SSDT_TMP"

err() { echo "$*" >&2; return 1; }

# wait_for SECS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local secs=$1 i
	shift
	for ((i = 0; i < secs * 10; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	"$@"
}

# trim FILE: the file's first line without whitespace (builtins only: every
# fork costs ~50-100 ms under TCG).
trim() {
	local s=""
	[ -r "$1" ] || return 1
	read -r s <"$1" || [ -n "$s" ] || return 1
	echo "${s//[[:space:]]/}"
}

# Serial number of the controller at PCI device dir $1, read through whichever
# driver has it (nothing can read it while no driver is bound).
pci_serial() {
	local d=$1 f c bdf
	bdf=${d##*/}
	for f in "$d"/nvme/nvme*/serial; do
		[ -r "$f" ] && { trim "$f"; return 0; }
	done
	for c in /sys/class/ssdtune/ssdt*; do
		[ -r "$c/pci_address" ] || continue
		[ "$(trim "$c/pci_address")" = "$bdf" ] && { trim "$c/serial"; return 0; }
	done
	return 1
}

# nvme_bdf: the PCI address of the test controller: class 0x010802 and serial
# $SSDT_VM_NVME_SERIAL.  Remembered after the first lookup, since an unbound
# controller has no readable serial; per serial, as the files of one boot
# may look for different controllers (subsys/).
nvme_bdf() {
	local d cache=$SSDT_TMP/bdf-$SSDT_VM_NVME_SERIAL b="" cls
	[ -s "$cache" ] && read -r b <"$cache"
	if [ -n "$b" ] && [ -e "/sys/bus/pci/devices/$b" ]; then
		echo "$b"
		return 0
	fi
	for d in /sys/bus/pci/devices/*; do
		read -r cls <"$d/class"
		[ "$cls" = "$NVME_CLASS" ] || continue
		if [ "$(pci_serial "$d")" = "$SSDT_VM_NVME_SERIAL" ]; then
			echo "${d##*/}" >"$cache"
			echo "${d##*/}"
			return 0
		fi
	done
	err "no PCI device with class $NVME_CLASS and serial $SSDT_VM_NVME_SERIAL"
}

# pci_driver BDF: the bound driver's name, or "none".
pci_driver() {
	local d=/sys/bus/pci/devices/$1/driver l
	[ -e "$d" ] || { echo none; return 0; }
	l=$(cd -P "$d" && pwd)
	echo "${l##*/}"
}

# nvme_disk: /dev/nvmeXnY of the test controller under the stock driver.
nvme_disk() {
	local b n
	for b in /sys/block/nvme*n*; do
		n=${b##*/}
		[[ $n == *c* ]] && continue # hidden multipath path devices
		[ "$(trim "$b/device/serial")" = "$SSDT_VM_NVME_SERIAL" ] || continue
		[ -b "/dev/$n" ] && { echo "/dev/$n"; return 0; }
	done
	err "no nvme disk with serial $SSDT_VM_NVME_SERIAL"
}

# ssdt_ctrl: /sys/class/ssdtune/ssdtN of the test controller.
ssdt_ctrl() {
	local c bdf
	bdf=$(nvme_bdf) || return 1
	for c in /sys/class/ssdtune/ssdt*; do
		[ -r "$c/pci_address" ] || continue
		[ "$(trim "$c/pci_address")" = "$bdf" ] && { echo "$c"; return 0; }
	done
	err "no /sys/class/ssdtune/ssdt* with pci_address $bdf"
}

# ssdt_disk: /dev/ssdtNn1 of the test controller.
ssdt_disk() {
	local c
	c=$(ssdt_ctrl) || return 1
	c=${c##*/}
	[ -b "/dev/${c}n1" ] || { err "/dev/${c}n1 is not a block device"; return 1; }
	echo "/dev/${c}n1"
}

# require_subsys_boot: for a tests/vm/subsys file's setup_file: fails
# unless the guest is the boot of scripts/vm.sh --subsys; waits for udev.
require_subsys_boot() {
	[ "${SSDT_VM_SUBSYS:-}" = 1 ] || err "this file needs the VM of scripts/vm.sh --subsys" || return 1
	udevadm settle -t "$SETTLE_S"
}

# --- module and tool ---------------------------------------------------------

require_module() {
	[ -f "$SSDT_KO" ] || err "ssdtune.ko is not built for $SSDT_KVER: $SSDT_KO is missing (run: make modules)"
}

require_tool() {
	[ -x "$SSDT_TOOL" ] || err "the ssdtune tool is not built: $SSDT_TOOL is missing (run: make tools)"
}

module_loaded() { [ -d /sys/module/ssdtune ]; }

module_load() {
	require_module || return 1
	module_loaded && return 0
	insmod "$SSDT_KO" || err "insmod $SSDT_KO failed"
}

module_unload() {
	module_loaded || return 0
	timeout 60 rmmod ssdtune || err "rmmod ssdtune failed"
}

# ssdt TOOL-ARGS...: run the tool.
ssdt() {
	require_tool || return 1
	"$SSDT_TOOL" "$@"
}

# attach: hand the test controller to ssdtune; waits for its disk.
attach() {
	local bdf
	bdf=$(nvme_bdf) || return 1
	ssdt attach "$bdf" || { err "ssdtune attach $bdf failed"; return 1; }
	[ "$(pci_driver "$bdf")" = ssdtune ] || { err "$bdf is bound to $(pci_driver "$bdf") after attach"; return 1; }
	wait_for 30 ssdt_disk >/dev/null || { err "no /dev/ssdt*n1 30 s after attach"; return 1; }
	udevadm settle -t "$SETTLE_S"
}

# detach: give the test controller back to nvme; waits for its disk.
detach() {
	local bdf
	bdf=$(nvme_bdf) || return 1
	ssdt detach "$bdf" || { err "ssdtune detach $bdf failed"; return 1; }
	[ "$(pci_driver "$bdf")" = nvme ] || { err "$bdf is bound to $(pci_driver "$bdf") after detach"; return 1; }
	wait_for 30 nvme_disk >/dev/null || { err "no nvme disk 30 s after detach"; return 1; }
	# udev's blkid opens a new disk: let it finish, or the next attach
	# sees an open device
	udevadm settle -t "$SETTLE_S"
}

# setup_attached: module loaded, controller on ssdtune (for setup_file).
setup_attached() {
	module_load || return 1
	local bdf
	bdf=$(nvme_bdf) || return 1
	if [ "$(pci_driver "$bdf")" != ssdtune ]; then
		attach || return 1
	fi
	ssdt_disk >/dev/null
}

# teardown_stock: controller back on nvme, module unloaded (for teardown_file).
# Falls back to sysfs if the tool cannot do it, so one broken file does not
# break the files after it.
teardown_stock() {
	local bdf rc=0
	bdf=$(nvme_bdf) || return 1
	if [ "$(pci_driver "$bdf")" != nvme ]; then
		detach || {
			rc=1
			sysfs_bind nvme "$bdf"
		}
	fi
	module_unload || rc=1
	return $rc
}

# sysfs_bind DRIVER BDF: bind by hand (no tool), for recovery and the
# stock-driver tests.
sysfs_bind() {
	local drv=$1 bdf=$2 cur d=/sys/bus/pci/devices/$2
	cur=$(pci_driver "$bdf")
	[ "$cur" = "$drv" ] && return 0
	[ "$cur" = none ] || echo "$bdf" >"$d/driver/unbind" || return 1
	echo "$drv" >"$d/driver_override" || return 1
	echo "$bdf" >"/sys/bus/pci/drivers/$drv/bind" || true
	echo "" >"$d/driver_override"
	[ "$(pci_driver "$bdf")" = "$drv" ] || { err "could not bind $bdf to $drv"; return 1; }
	if [ "$drv" = nvme ]; then
		wait_for 30 nvme_disk >/dev/null || return 1
	fi
	udevadm settle -t "$SETTLE_S"
}

# --- I/O ----------------------------------------------------------------------

# run_fio DEV ARGS...: fio with the harness defaults; prints fio's output
# (visible when the test fails), fails on any fio error or verify mismatch.
# Keep jobs small: the guest runs under TCG.
run_fio() {
	local dev=$1 out rc
	shift
	out=$SSDT_TMP/fio.$$.out
	timeout 300 fio --name=t --filename="$dev" --direct=1 --ioengine=libaio \
		--output="$out" "$@"
	rc=$?
	cat "$out"
	if [ $rc -ne 0 ]; then
		err "fio exited $rc"
		return 1
	fi
	if grep -Eq 'err= *[1-9]|verify: bad|crc32c: verify failed|bad magic' "$out"; then
		err "fio reported errors"
		return 1
	fi
}

# fio_verify DEV ARGS...: write, then read back and check crc32c.
fio_verify() {
	local dev=$1
	shift
	run_fio "$dev" --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--verify_dump=0 "$@"
}

# queue_limits DISK: the limits the block layer enforces on DISK, a=v a line
# (builtins only), to compare with the stock driver's on the same device
# (20-integrity, subsys/40-matrix).
queue_limits() {
	local q=/sys/block/${1#/dev/}/queue a v
	for a in logical_block_size max_hw_sectors_kb max_segments dma_alignment \
		virt_boundary_mask discard_granularity discard_max_hw_bytes \
		write_zeroes_max_bytes; do
		[ -f "$q/$a" ] || { err "$q/$a is missing"; return 1; }
		read -r v <"$q/$a" || { err "cannot read $q/$a"; return 1; }
		echo "$a=$v"
	done
}

# --- IRQs -----------------------------------------------------------------------

# expand_cpulist LIST: "0-1,3" -> "0 1 3"
expand_cpulist() {
	local part parts a b ids=()
	IFS=, read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		if [[ $part == *-* ]]; then
			a=${part%-*} b=${part#*-}
			for ((; a <= b; a++)); do ids+=("$a"); done
		elif [ -n "$part" ]; then
			ids+=("$part")
		fi
	done
	echo "${ids[*]}"
}
# node_cpus N: the CPUs of NUMA node N, expanded ("2 3")
node_cpus() { expand_cpulist "$(cat "/sys/devices/system/node/node$1/cpulist")"; }

# ssdt_queue_irqs: "qK IRQ" per queue of the attached controller that has
# an interrupt (not a poll queue).
ssdt_queue_irqs() {
	local c q n=0
	c=$(ssdt_ctrl) || return 1
	for q in "$c"/queues/q*; do
		[ -r "$q/irq" ] || continue
		# a poll queue (irq -1) has no interrupt
		[ "$(trim "$q/irq")" != -1 ] || continue
		echo "${q##*/} $(trim "$q/irq")"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || err "no $c/queues/q*/irq"
}

# nvme_io_irqs: IRQ numbers of the stock driver's I/O queues (nvmeXqN, N>0).
nvme_io_irqs() {
	local ctrl
	ctrl=$(nvme_disk) || return 1
	ctrl=${ctrl##*/}
	ctrl=${ctrl%n*}
	awk -v c="$ctrl" '$NF ~ "^" c "q[1-9][0-9]*$" { sub(":", "", $1); print $1 }' /proc/interrupts
}

# irq_count IRQ: total interrupts of IRQ over all CPUs.
irq_count() {
	awk -v i="$1:" '$1 == i { s = 0; for (k = 2; k <= NF; k++) if ($k ~ /^[0-9]+$/) s += $k; else break; print s }' /proc/interrupts
}

# --- dmesg ------------------------------------------------------------------------

DMESG_BAD='WARNING|BUG|Oops|[Ee]rror|Call Trace|blocked for more than|hung_task|refcount_t|use-after-free|KASAN'

dmesg_mark() { dmesg | wc -l >"$SSDT_TMP/dmesg.mark"; }
# dmesg_new: kernel lines since dmesg_mark.
dmesg_new() { dmesg | tail -n +$(($(cat "$SSDT_TMP/dmesg.mark" 2>/dev/null || echo 0) + 1)); }

# admin_completion_lost: the debugfs hook drop_admin_completions has
# dropped an admin command's completion since dmesg_mark (the command is
# on the device, waiting).
admin_completion_lost() { dmesg_new | grep -q 'debug: dropping admin completion'; }

# dmesg_clean_since_mark [EXPECTED]: fails (printing them) if new lines look
# like trouble, but those matching EXPECTED (what an injected fault causes).
dmesg_clean_since_mark() {
	local bad
	bad=$(dmesg_new | grep -E "$DMESG_BAD" | grep -Ev "${1:-^$}" || true)
	[ -z "$bad" ] && return 0
	echo "$bad" >&2
	err "new kernel messages above match $DMESG_BAD"
}

# dmesg_no_reports: since dmesg_mark the kernel made no report a debug
# kernel makes (KASAN, lockdep, WARNING, BUG, Oops, hung task, kmemleak)
# other than the known kernel ones of scripts/guest-log-check.py (the
# lockdep report pciehp makes of itself on the first hot-unplug of a boot).
dmesg_no_reports() {
	dmesg_new >"$SSDT_TMP/dmesg-new.txt"
	python3 "$SSDT_REPO/scripts/guest-log-check.py" "$SSDT_TMP/dmesg-new.txt" >&2 ||
		{ err "a kernel report since the mark is not a known one (above)"; return 1; }
}

# The driver's fault hooks (Documentation/driver.md, "Fault hooks").
# shellcheck disable=SC2034 # the fault tests read it
SSDT_DBG=/sys/kernel/debug/ssdtune
debugfs_mount() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}

# --- host requests (QMP) ----------------------------------------------------------

# vm_request NAME [SECS]: ask the host side of scripts/vm.sh to do NAME
# (ping, unplug) and print its answer; fails unless the answer starts "ok".
vm_request() {
	local name=$1 secs=${2:-90} ans
	[ -n "$SSDT_VM_CTL" ] && [ -d "$SSDT_VM_CTL" ] ||
		{ err "SSDT_VM_CTL is not set: not running under scripts/vm.sh"; return 1; }
	ans=$SSDT_VM_CTL/$name.done
	rm -f "$ans"
	echo "$name" >"$SSDT_VM_CTL/.$name.tmp"
	mv "$SSDT_VM_CTL/.$name.tmp" "$SSDT_VM_CTL/$name.req"
	wait_for "$secs" test -s "$ans" || { err "no answer to '$name' from the host within ${secs}s"; return 1; }
	cat "$ans"
	head -n 1 "$ans" | grep -q '^ok'
}

# fio_ends_failing PID OUT: the fio started as PID (its output in OUT)
# stops by itself within 60 s, and with an error: its exit status or an
# err= line.  Prints the tail of OUT (and what still runs, if it does not).
fio_ends_failing() {
	local pid=$1 out=$2 i rc
	for ((i = 0; i < 600; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		echo "fio still running 60 s later"
		ps -eo stat=,pid=,wchan:32=,comm= | awk '$1 ~ /^[DR]/'
		return 1
	fi
	wait "$pid" && rc=0 || rc=$?
	tail -n 30 "$out"
	echo "fio exit status $rc"
	[ "$rc" -ne 0 ] || grep -Eq 'err= *[1-9]' "$out"
}

# --- faults under fio verify (27-faults, 28-aer) ------------------------------

resets_done() { dmesg_new | grep -c 'reset done' || true; }

# held_through WHY N: the controller was halted N times for WHY and came
# back each time; no request timed out or failed meanwhile (they were held,
# not left to the timeout ladder); it ($ctrl, set by the test) is live.
held_through() {
	dmesg_new | grep -E 'halted for|reset done' || true
	[ "$(dmesg_new | grep -c "halted for $1")" -eq "$2" ] || err "not $2 halts for $1"
	[ "$(resets_done)" -eq "$2" ] || err "not $2 times reset done"
	refute grep -Eq 'timed out|I/O error' <(dmesg_new)
	[ "$(trim "$ctrl/state")" = live ]
}

# verify_while PID ARGS...: fio crc32c verify runs of 8M, one after the
# other, while process PID lives (at least one, at most 30).
verify_while() {
	local pid=$1 runs=0
	shift
	while :; do
		fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=32 --size=8M "$@" || return 1
		runs=$((runs + 1))
		kill -0 "$pid" 2>/dev/null || break
		[ "$runs" -lt 30 ] || break
	done
	echo "# fio verify runs: $runs" >&3
}

# --- the data-integrity jobs (each a few seconds under TCG) -----------------------
# Each writes its own region, so a stale pattern from an earlier job or run
# cannot satisfy a later verify; the 4K job takes an offset, so the
# harness's baseline on nvme (00-harness) and ssdtune's run write apart.
# A few thousand commands each: every path of the data path (PRP lists,
# splits, merges, tags wrapping at the queue depth) is crossed many times.

job_4k_randwrite() { fio_verify "$1" --rw=randwrite --bs=4k --iodepth=32 --offset="${2:-0}" --size=8M; }
job_128k_seqwrite() { fio_verify "$1" --rw=write --bs=128k --iodepth=8 --offset=64M --size=16M; }
job_randrw_qd1() { fio_verify "$1" --rw=randrw --rwmixread=70 --bs=4k --iodepth=1 --offset=192M --size=4M; }
job_randrw_qd32() { fio_verify "$1" --rw=randrw --rwmixread=70 --bs=4k --iodepth=32 --offset=256M --size=8M; }
job_bssplit() {
	fio_verify "$1" --rw=randwrite --iodepth=16 --offset=320M --size=24M \
		--bssplit=512/10:4k/25:8k/10:16k/15:64k/15:256k/15:1m/10
}

# refute CMD...: succeed only if CMD fails.  (A bare "! CMD" never fails a
# bats test: bash's errexit ignores negated commands.)
refute() {
	if "$@"; then
		err "expected failure: $*"
		return 1
	fi
	return 0
}

# no_ssdt_nodes: no /dev/ssdt* and no ssdtune class devices.
no_ssdt_nodes() {
	local f l=()
	for f in /dev/ssdt* /sys/class/ssdtune/*; do
		[ -e "$f" ] || [ -L "$f" ] && l+=("${f##*/}")
	done
	[ ${#l[@]} -eq 0 ] && return 0
	err "left behind: ${l[*]}"
}

# io_counter NAME: sum of queues/qK/NAME (submitted, completed, interrupts,
# polled) over the test controller's I/O queues
io_counter() {
	local ctrl
	ctrl=$(ssdt_ctrl) || return 1
	io_counter_v "$1" && echo "$IO_SUM"
}

# io_counter_v NAME: io_counter's sum in IO_SUM, with builtins only and no
# subshell (wait_for calls io_beyond ten times a second), over the queues
# of $ctrl (the test's controller directory), else of ssdt_ctrl's.
io_counter_v() {
	local c=${ctrl:-} f n
	[ -n "$c" ] || c=$(ssdt_ctrl) || return 1
	IO_SUM=0
	for f in "$c"/queues/q[1-9]*/"$1"; do
		read -r n <"$f" || return 1
		IO_SUM=$((IO_SUM + n))
	done
}
io_sum() { io_counter_v submitted && echo "$IO_SUM"; }

# io_beyond N: more than N commands went out on those queues.
io_beyond() { io_counter_v submitted && [ "$IO_SUM" -gt "$1" ]; }

# io_flows: wait (up to 60 s) until 64 more commands than now went out:
# the background fio's I/O is in flight, or goes on again after a fault.
io_flows() { wait_for 60 io_beyond $(($(io_sum) + 64)); }

# py EXPR: a python expression on v, the JSON in $output (bats' run).
# shellcheck disable=SC2154 # bats' run sets output
py() {
	printf '%s' "$output" | python3 -c "import json,sys; v=json.load(sys.stdin); print($1)"
}

# revert_state DIR: what a test applied with --state-dir DIR, reverted
# (--force: also a state the test faked as from another boot), and DIR
# gone; never fails, so a teardown can call it.
revert_state() {
	[ -e "$1/state.json" ] && "$SSDT_TOOL" revert --force --state-dir "$1" >/dev/null 2>&1
	rm -rf "$1"
	return 0
}

# json_schema_ok COMMAND: the JSON on stdin ('ssdtune COMMAND --json') is
# as Documentation/schema/COMMAND.json says; else each mismatch on stderr.
json_schema_ok() {
	"$SSDT_REPO/tests/lib/json-schema-check" "$1" >&2 ||
		err "ssdtune $1 --json does not match Documentation/schema/$1.json"
}
