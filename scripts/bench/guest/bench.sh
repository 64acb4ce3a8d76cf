#!/bin/bash
# Guest side of scripts/bench/bench.sh (runs under scripts/vm.sh): the stock nvme
# driver and ssdtune take turns on the same emulated controller, ROUNDS
# times, one binding per arm (a fresh probe, a BENCH_WARM (3) s warm-up,
# then its runs at every QD):
#   nvme             stock defaults (nvme.poll_queues=0)
#   ssdtune          ssdtune defaults (poll_queues=0, coalesce_profile off)
#   ssdtune+PROFILE  ssdtune defaults, coalesce_profile BENCH_PROFILE
#                    (default adaptive; empty: no such arm)
#   nvme-poll        nvme.poll_queues=1, fio with io_uring IOPOLL (--hipri)
#   ssdtune-poll     ssdtune loaded with poll_queues=1, fio with --hipri
#   ssdtune-latency  ssdtune defaults, then 'ssdtune apply --profile
#                    latency' (which gives the controller a poll queue,
#                    live) and fio with --hipri on the plan's first I/O
#                    core; 'ssdtune revert' ends the binding
# (BENCH_ARMS="A B ...": those arms alone.)
# 4K random read at each QD of BENCH_QDS (default "1 8 32 128"), one fio
# job, BENCH_SECS (default 5) s a run after a 1 s ramp, io_uring for every
# arm (BENCH_ENGINE=libaio for the interrupt arms).  The order of the arms
# is reversed every other round, so each arm's mean place in a round is
# the same and what is left of an order effect falls on all of them.
# Every run records IOPS, p50, p99 and mean clat, interrupts per I/O and
# fio's CPU time per I/O.  A cost pass follows the rounds (BENCH_COST=0:
# none): one run of BENCH_COST_SECS (3) s per arm at each QD of
# BENCH_COST_QDS (default "1 32") with
# QEMU's trace events on (qmp-watch.py), for the MMIO accesses, doorbell
# writes and MSI-X messages each I/O costs and where the guest's CPU time
# goes (scripts/bench/costline.py); tracing slows QEMU, so those runs are
# not in the table's IOPS.  Writes $SSDT_RESULTS/bench-$(uname -r).txt (the
# table, scripts/bench/benchtable.py) and .raw (one line per run).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
ROUNDS=${BENCH_ROUNDS:-9}
WARM=${BENCH_WARM:-3}
SECS=${BENCH_SECS:-5}
QDS=${BENCH_QDS:-"1 8 32 128"}
COST=${BENCH_COST:-1}
COST_SECS=${BENCH_COST_SECS:-3}
COST_QDS=${BENCH_COST_QDS:-"1 32"}
ENGINE=${BENCH_ENGINE:-io_uring}
PROFILE=${BENCH_PROFILE-adaptive}
case $PROFILE in
"" | latency | balanced | iops | adaptive) ;;
*) echo "bench: BENCH_PROFILE must be latency, balanced, iops, adaptive or empty, not '$PROFILE'" >&2; exit 1 ;;
esac
case $ENGINE in
io_uring | libaio) ;;
*) echo "bench: BENCH_ENGINE must be io_uring or libaio, not '$ENGINE'" >&2; exit 1 ;;
esac
kver=$(uname -r)
raw=$SSDT_RESULTS/bench-$kver.raw
out=$SSDT_RESULTS/bench-$kver.txt
die() { echo "bench: $*" >&2; exit 1; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
require_module || die "ssdtune.ko is not built for $kver"
[ -w /sys/module/nvme/parameters/poll_queues ] ||
	die "nvme.poll_queues cannot be set at run time on $kver"
: >"$raw.part"
warm() { bench_warm "$1" "$WARM" || die "warm-up failed"; }
bind_to() { bench_bind "$bdf" "$1" "$2" || die "cannot bind $bdf to $1 with $2 poll queue(s)"; }
# Pinning: every run on the first CPU of the controller's node (under both
# drivers the vector of that CPU's queue sits on it; a polled run polls
# its own queue there).  BENCH_PIN=0: the scheduler places fio.
cpus="" lcpus=""
if [ "${BENCH_PIN:-1}" = 1 ]; then
	cpus=$(expand_cpulist "$(cat "/sys/bus/pci/devices/$bdf/local_cpulist")" | awk '{print $1}')
fi
# profile P: set the attached controller's coalesce_profile.
profile() {
	local c
	c=$(ssdt_ctrl) || die "no ssdtune controller"
	echo "$1" >"$c/coalesce_profile" || die "cannot write coalesce_profile $1"
	[ "$(trim "$c/coalesce_profile")" = "$1" ] || die "coalesce_profile is not $1 after writing it"
}
# run_point R LABEL QD ENGINE: one measured run, appended to the raw file.
run_point() {
	local line
	line=$(measure "$2" "$dev" "$bdf" "$3" 1 "$SECS" "$cpus" "$4") ||
		die "fio failed: $2 QD$3 ($4)"
	echo "round=$1 $line" | tee -a "$raw.part" >&2
}
# point R LABEL QD ENGINE: a measured run, or a traced one in the cost pass.
point() {
	if [ "$1" = cost ]; then
		cost_point "$2" "$3" "$4"
	else
		run_point "$@"
	fi
}
# cost_point LABEL QD ENGINE: one traced run, appended to the raw file.
cost_point() {
	local json=$SSDT_TMP/cost.json s0 s1 ans opt=() line
	[ -n "$cpus" ] && opt=(--cpus_allowed="$cpus")
	case $3 in
	io_uring-hipri) opt+=(--ioengine=io_uring --hipri) ;;
	*) opt+=(--ioengine="$3") ;;
	esac
	vm_request trace-start 30 >/dev/null || die "the host did not start QEMU's tracing"
	s0=$(grep '^cpu' /proc/stat)
	fio --name=c --filename="$dev" --direct=1 --rw=randread --bs=4k --iodepth="$2" \
		--size=512M --time_based --runtime="$COST_SECS" --randrepeat=0 "${opt[@]}" \
		--output-format=json --output="$json" || die "fio failed: cost $1 QD$2"
	s1=$(grep '^cpu' /proc/stat)
	ans=$(vm_request trace-stop 30) || die "the host did not stop QEMU's tracing: $ans"
	line=$(python3 scripts/bench/costline.py "$json" "$1" "$2" "$s0" "$s1" <<<"$ans") ||
		die "cannot read the cost of $1 QD$2"
	echo "$line" | tee -a "$raw.part" >&2
}
# latency_apply: 'ssdtune apply --profile latency' on the bound
# controller; sets lcpus to the first I/O core of its plan, where fio runs.
latency_apply() {
	local io
	rm -rf "$STATE"
	"$SSDT_TOOL" apply --profile latency --state-dir "$STATE" "$bdf" >"$SSDT_TMP/apply.out" 2>&1 ||
		die "apply --profile latency failed: $(tail -n 3 "$SSDT_TMP/apply.out")"
	[ "$(trim "$(ssdt_ctrl)/poll_queues")" -gt 0 ] ||
		die "apply --profile latency left the controller without poll queues"
	io=$(plan_io_cpus "$bdf") || die "cannot read the latency plan's I/O cores"
	lcpus=$(expand_cpulist "$io" | awk 'NR == 1')
	[ -n "$lcpus" ] || die "the latency plan names no I/O core"
	io=$(trim "/sys/block/${dev#/dev/}/queue/io_poll")
	[ "$io" = 1 ] || die "ssdtune-latency: $dev is not pollable after apply (queue/io_poll $io)"
}
latency_revert() {
	"$SSDT_TOOL" revert --state-dir "$STATE" >"$SSDT_TMP/revert.out" 2>&1 ||
		die "revert after the latency arm failed: $(tail -n 3 "$SSDT_TMP/revert.out")"
}
# binding R ARM: bind for ARM, warm up and run its points; R "cost": the
# cost pass's traced runs at BENCH_COST_QDS instead.
binding() {
	local r=$1 arm=$2 qd qds=$QDS engine=$ENGINE pin=$cpus
	[ "$r" = cost ] && qds=$COST_QDS
	case $arm in
	nvme) bind_to nvme 0 ;;
	ssdtune | ssdtune+* | ssdtune-latency) bind_to ssdtune 0 ;;
	nvme-poll) bind_to nvme 1 ;;
	ssdtune-poll) bind_to ssdtune 1 ;;
	*) die "unknown arm $arm" ;;
	esac
	case $arm in
	ssdtune+*) profile "${arm#ssdtune+}" ;;
	ssdtune-latency)
		latency_apply
		pin=$lcpus
		;;
	esac
	case $arm in
	*-poll | ssdtune-latency) engine=io_uring-hipri ;;
	esac
	warm "$dev"
	for qd in $qds; do
		cpus=$pin point "$r" "$arm" "$qd" "$engine"
	done
	# the next binding is a new probe: only what apply saved needs undoing
	[ "$arm" = ssdtune-latency ] && latency_revert
	return 0
}
STATE=$SSDT_TMP/bench-state
ALL="nvme ssdtune${PROFILE:+ ssdtune+$PROFILE} nvme-poll ssdtune-poll ssdtune-latency"
# BENCH_ARMS: some of them, e.g. "nvme ssdtune" for the defaults' parity
# alone, three times the rounds in the same time
ARMS=${BENCH_ARMS:-$ALL}
for arm in $ARMS; do
	[[ " $ALL " == *" $arm "* ]] || die "BENCH_ARMS: no arm '$arm' (arms: $ALL)"
done
t0=$(date +%s)
# Read the fio region once before round 1: it warms the host's page cache
# under the image file (a cold one made round 1 10-50% slower for both).
bind_to nvme 0
dd if="$dev" of=/dev/null bs=1M count=512 iflag=direct status=none ||
	die "cannot read the fio region once before round 1"
bench_rounds bench "$ROUNDS" "$ARMS"
if [ "$COST" = 1 ]; then
	for arm in $ARMS; do
		binding cost "$arm"
	done
	echo "bench: cost pass done after $(($(date +%s) - t0)) s" >&2
fi
bind_to nvme 0
module_unload
mv "$raw.part" "$raw"
pinned=${cpus:+ pinned to CPU $cpus}${lcpus:+ (ssdtune-latency: CPU $lcpus, the first I/O core of its plan)}
python3 scripts/bench/benchtable.py "$raw" "$kver" "$SECS" \
	"$ENGINE (polled arms: io_uring --hipri), 1 job$pinned; arms $ARMS; $ROUNDS rounds in $(($(date +%s) - t0)) s" >"$out" ||
	die "no table from $raw"
cat "$out" >&2
