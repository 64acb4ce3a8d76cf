#!/bin/bash
# Guest side of scripts/bench/stages.sh (runs under scripts/vm.sh): where
# one I/O's time goes on fio's CPU under the stock nvme driver and under
# ssdtune, taking turns on the same controller for STAGES_ROUNDS (3)
# rounds, the order alternating.  Each run: 4K random read, io_uring at
# STAGES_QD (32), one fio job pinned as make bench pins it, and 2 s of
# its middle traced with function_graph on that CPU only, for the
# functions scripts/bench/stages.py names.  Writes $SSDT_RESULTS/
# stages-$(uname -r).raw (a line per run) and .txt (the table).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
ROUNDS=${STAGES_ROUNDS:-3}
QD=${STAGES_QD:-32}
T=/sys/kernel/tracing
raw=$SSDT_RESULTS/stages-$(uname -r).raw
out=$SSDT_RESULTS/stages-$(uname -r).txt
die() { echo "bench-stages: $*" >&2; exit 1; }

bdf=$(nvme_bdf) || die "no test NVMe controller"
[ -w "$T/current_tracer" ] || die "no tracefs at $T"
grep -qw function_graph "$T/available_tracers" || die "no function_graph tracer"
cpu=$(expand_cpulist "$(cat "/sys/bus/pci/devices/$bdf/local_cpulist")" | awk '{print $1}')
: >"$raw"

# trace_setup: function_graph on CPU $cpu for stages.py's functions that
# exist now (a driver's are there only while it is loaded).
trace_setup() {
	local f
	echo 0 >"$T/tracing_on"
	echo nop >"$T/current_tracer"
	: >"$T/set_ftrace_filter"
	for f in $(python3 scripts/bench/stages.py funcs); do
		echo "$f" >>"$T/set_ftrace_filter" 2>/dev/null || true
	done
	printf '%x\n' $((1 << cpu)) >"$T/tracing_cpumask"
	echo 16384 >"$T/buffer_size_kb"
	echo function_graph >"$T/current_tracer"
	echo 1 >"$T/options/funcgraph-abstime"
	: >"$T/trace"
}

# traced_run LABEL DISK R
traced_run() {
	local trace=$SSDT_TMP/stages.trace line
	trace_setup
	fio --name=s --filename="$2" --direct=1 --rw=randread --bs=4k --iodepth="$QD" \
		--ioengine=io_uring --cpus_allowed="$cpu" --size=512M --time_based \
		--runtime=6 --output=/dev/null &
	sleep 3
	echo 1 >"$T/tracing_on"
	sleep 2
	echo 0 >"$T/tracing_on"
	wait $! || die "fio failed on $2"
	cp "$T/trace" "$trace"
	echo nop >"$T/current_tracer"
	line=$(python3 scripts/bench/stages.py run "$1" "$trace") || die "cannot read the trace of $1"
	echo "round=$3 $line" | tee -a "$raw" >&2
}

bind_nvme() {
	if [ "$(pci_driver "$bdf")" = ssdtune ]; then detach >&2 || die "detach failed"; fi
	module_unload >&2 || die "cannot unload ssdtune"
	nvme_disk || die "no nvme disk"
}

bind_ssdtune() {
	setup_attached >&2 || die "attach failed"
	ssdt_disk || die "no ssdtune disk"
}

# the region once, so the host's page cache under the image is warm (a
# bind_* that dies does so in $(...): its status stops the script here)
dev=$(bind_nvme) || exit 1
dd if="$dev" of=/dev/null bs=1M count=512 iflag=direct status=none ||
	die "cannot read the fio region once"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="nvme ssdtune"; else order="ssdtune nvme"; fi
	for drv in $order; do
		dev=$(bind_$drv) || exit 1
		traced_run "$drv" "$dev" "$r"
	done
done
bind_nvme >/dev/null
{
	echo "make bench-stages: kernel $(uname -r), 4K random read QD$QD io_uring, fio pinned to CPU $cpu, $ROUNDS rounds"
	python3 scripts/bench/stages.py table "$raw"
} | tee "$out"
