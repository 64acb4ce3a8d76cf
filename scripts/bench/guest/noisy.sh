#!/bin/bash
# Guest side of scripts/bench/noisy.sh (runs under scripts/vm.sh): what
# CPU isolation buys an I/O workload whose CPUs other work wants.  Each
# round binds the emulated controller twice, in turn:
#   stock nvme, untuned: fio pinned to the CPU the latency plan picks for
#     I/O, io_uring with interrupts
#       nvme-quiet        no other load
#       nvme-hogs         NOISY_HOGS (default: one per CPU) busy loops,
#                         unpinned, as a neighbour would run them
#   ssdtune after 'ssdtune apply --profile latency --isolate', fio started
#     by 'ssdtune run' (inside the isolated partition of the I/O cores)
#       ssdtune-quiet     io_uring IOPOLL (--hipri, the profile's poll queue)
#       ssdtune-hogs      the same under the hogs
#       ssdtune-irq-hogs  interrupts (no --hipri) under the hogs: what the
#                         isolation does without the polling
# 4K random read at each QD of NOISY_QDS (default "1 8"), one fio job,
# NOISY_SECS (5) s a run without a ramp, after a NOISY_WARM (2) s warm-up
# per binding, NOISY_ROUNDS (7) rounds; the bindings' order and the runs'
# order in a binding alternate from round to round.  Each run records
# IOPS, p50, p99, p99.9 of the total latency (submission included: under
# hogs fio can be preempted between submitting an I/O and noting its
# issue time, and the completion latency alone then reads a few us),
# interrupts and fio's CPU time per I/O, and the
# time fio's job spent runnable but waiting for a CPU, per I/O: the second
# field of its /proc/PID/schedstat, read by fio's exec_prerun and
# exec_postrun in the job's own process.  Writes
# $SSDT_RESULTS/noisy-$(uname -r).txt (scripts/bench/noisytable.py) and
# .raw (one line per run).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
ROUNDS=${NOISY_ROUNDS:-7}
SECS=${NOISY_SECS:-5}
WARM=${NOISY_WARM:-2}
QDS=${NOISY_QDS:-"1 8"}
HOGS=${NOISY_HOGS:-$(nproc)}
kver=$(uname -r)
raw=$SSDT_RESULTS/noisy-$kver.raw
out=$SSDT_RESULTS/noisy-$kver.txt
STATE=$SSDT_TMP/noisy-state
RUNDIR=$SSDT_TMP/noisy
die() { echo "bench-noisy: $*" >&2; exit 1; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
require_module || die "ssdtune.ko is not built for $kver"
require_tool || die "tools/ssdtune/ssdtune is not built"
mkdir -p "$RUNDIR"
: >"$raw.part"

hog_pids=()
hogs_start() {
	local i
	for i in $(seq 1 "$HOGS"); do
		bash -c 'while :; do :; done' &
		hog_pids+=($!)
	done
}
hogs_stop() {
	[ ${#hog_pids[@]} -eq 0 ] && return 0
	kill "${hog_pids[@]}" 2>/dev/null
	wait "${hog_pids[@]}" 2>/dev/null
	hog_pids=()
}
trap 'hogs_stop; "$SSDT_TOOL" revert --force --state-dir "$STATE" >/dev/null 2>&1' EXIT

# run_point R ARM QD ENGINE [CMD...]: one measured run, fio started by CMD
# (e.g. ssdtune run --), hogs running when ARM ends in -hogs.
run_point() {
	local r=$1 arm=$2 qd=$3 engine=$4 json=$RUNDIR/run.json irqs i0 i1 pre post line
	local opt=()
	shift 4
	case $engine in
	io_uring) opt=(--ioengine=io_uring) ;;
	io_uring-hipri) opt=(--ioengine=io_uring --hipri) ;;
	esac
	case $arm in
	nvme-*) opt+=(--cpus_allowed="$PIN") ;;
	esac
	rm -f "$RUNDIR/m.prerun.txt" "$RUNDIR/m.postrun.txt"
	case $arm in
	*-hogs) hogs_start ;;
	esac
	irqs=$(dev_irqs "$bdf")
	i0=$(irq_total $irqs)
	# exec_prerun and exec_postrun run in a shell whose parent is the job
	(cd "$RUNDIR" && "$@" fio --name=m --filename="$dev" --direct=1 --rw=randread \
		--bs=4k --iodepth="$qd" --size=512M --time_based --runtime="$SECS" \
		--randrepeat=0 "${opt[@]}" --lat_percentiles=1 --clat_percentiles=0 \
		--exec_prerun='cat /proc/$PPID/schedstat' \
		--exec_postrun='cat /proc/$PPID/schedstat' \
		--output-format=json --output="$json") || die "fio failed: $arm QD$qd"
	i1=$(irq_total $irqs)
	hogs_stop
	read -r _ pre _ <"$RUNDIR/m.prerun.txt" || die "no schedstat from fio's prerun"
	read -r _ post _ <"$RUNDIR/m.postrun.txt" || die "no schedstat from fio's postrun"
	line=$(python3 scripts/bench/fiojson.py "$json" "$arm" "$qd" 1 $((i1 - i0)) 0 $((post - pre))) ||
		die "cannot read fio's result: $arm QD$qd"
	echo "round=$r $line" | tee -a "$raw.part" >&2
}

# stock R: the stock binding's runs
stock() {
	local r=$1 qd a order="nvme-quiet nvme-hogs"
	[ $((r % 2)) -eq 0 ] && order="nvme-hogs nvme-quiet"
	bench_bind "$bdf" nvme 0 || die "cannot bind the stock driver"
	bench_warm "$dev" "$WARM" || die "warm-up failed"
	for qd in $QDS; do
		for a in $order; do
			run_point "$r" "$a" "$qd" io_uring
		done
	done
}

# isolated R: ssdtune under the applied latency profile with --isolate
isolated() {
	local r=$1 qd a order="ssdtune-quiet ssdtune-hogs ssdtune-irq-hogs"
	[ $((r % 2)) -eq 0 ] && order="ssdtune-irq-hogs ssdtune-hogs ssdtune-quiet"
	bench_bind "$bdf" ssdtune 0 || die "cannot bind ssdtune"
	rm -rf "$STATE"
	"$SSDT_TOOL" apply --profile latency --isolate --state-dir "$STATE" "$bdf" \
		>"$RUNDIR/apply.out" 2>&1 ||
		die "apply --profile latency --isolate failed: $(tail -n 3 "$RUNDIR/apply.out")"
	[ "$(trim "/sys/fs/cgroup/ssdtune/cpuset.cpus.effective")" = "$IO_CPUS" ] ||
		die "the partition does not hold the plan's I/O cores $IO_CPUS"
	bench_warm "$dev" "$WARM" || die "warm-up failed"
	for qd in $QDS; do
		for a in $order; do
			case $a in
			*-irq-*) run_point "$r" "$a" "$qd" io_uring "$SSDT_TOOL" run --state-dir "$STATE" -- ;;
			*) run_point "$r" "$a" "$qd" io_uring-hipri "$SSDT_TOOL" run --state-dir "$STATE" -- ;;
			esac
		done
	done
	"$SSDT_TOOL" revert --state-dir "$STATE" >"$RUNDIR/revert.out" 2>&1 ||
		die "revert failed: $(tail -n 3 "$RUNDIR/revert.out")"
}

# The plan's I/O cores, read once with ssdtune bound: the stock arms pin
# fio to the first, the isolated partition must hold them all.
bench_bind "$bdf" ssdtune 0 || die "cannot bind ssdtune"
IO_CPUS=$(plan_io_cpus "$bdf" --isolate) || die "cannot read the latency plan's I/O cores"
PIN=$(expand_cpulist "$IO_CPUS" | awk 'NR == 1')
[ -n "$PIN" ] || die "the latency plan names no I/O core"
echo "bench-noisy: $(nproc) CPUs, I/O cores $IO_CPUS, $HOGS hogs" >&2
t0=$(date +%s)
bench_bind "$bdf" nvme 0 || die "cannot bind the stock driver"
dd if="$dev" of=/dev/null bs=1M count=512 iflag=direct status=none ||
	die "cannot read the fio region once before round 1"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then
		stock "$r"
		isolated "$r"
	else
		isolated "$r"
		stock "$r"
	fi
	echo "bench-noisy: round $r of $ROUNDS done after $(($(date +%s) - t0)) s" >&2
done
bench_bind "$bdf" nvme 0
module_unload
mv "$raw.part" "$raw"
python3 scripts/bench/noisytable.py "$raw" "$kver" "$SECS" \
	"$(nproc) vCPUs, I/O core(s) $IO_CPUS (stock: fio pinned to CPU $PIN), $HOGS hogs; $ROUNDS rounds in $(($(date +%s) - t0)) s" | tee "$out"
