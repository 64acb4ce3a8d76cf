#!/bin/bash
# Guest side of scripts/bench/coalesce.sh (runs under scripts/vm.sh): with
# the test controller on ssdtune, run 4K random read and write at each
# queue depth for every coalescing profile and every (threshold, time) of
# the grid in host mode, BENCH_ROUNDS times (default 5).  Within a round
# every setting runs once, back to back, starting one further along the
# list each round, so that a ratio to `off` compares neighbours (the shared
# host's load drifts the guest's speed by tens of percent within a minute).
# One line per run in $SSDT_RESULTS/bench-coalesce-$(uname -r).raw:
#   round=N setting=S rw=RW qd=Q iops=.. p50_us=.. p99_us=.. p9999_us=..
#   irq_per_io=.. cpu_pct=..
# irq_per_io is from the I/O queues' interrupts and completed counters;
# cpu_pct is the guest's non-idle share of all CPUs (/proc/stat).  fio
# runs on CPU 2 (node 1, the controller's), so one queue serves it.
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
SECS=${BENCH_SECS:-3}
ROUNDS=${BENCH_ROUNDS:-5}
QDS=${BENCH_QDS:-"1 4 32 128"}
RWS=${BENCH_RWS:-"randread randwrite"}
PROFILES=${BENCH_PROFILES:-"off latency balanced iops adaptive"}
GRID=${BENCH_GRID-"8:100 8:500 32:500 32:2000 128:2000"}
raw=$SSDT_RESULTS/bench-coalesce-$(uname -r).raw
die() { echo "bench-coalesce: $*" >&2; exit 1; }

setup_attached || die "cannot attach the test controller to ssdtune"
C=$(ssdt_ctrl) || die "no controller"
dev=$(ssdt_disk) || die "no disk"

# busy_idle: "busy idle" jiffies summed over all CPUs
busy_idle() {
	awk '$1 == "cpu" { b = $2 + $3 + $4 + $7 + $8; print b, $5 + $6 }' /proc/stat
}

# apply SETTING: a profile name, or host:THRESHOLD:TIME_US
apply() {
	case $1 in
	host:*)
		local g=${1#host:}
		echo host >"$C/coalesce_mode" &&
			echo "${g%:*}" >"$C/coalesce_threshold" &&
			echo "${g#*:}" >"$C/coalesce_time_us"
		;;
	*)
		# (auto, the static profiles' mode, is host on QEMU's NVMe)
		echo "$1" >"$C/coalesce_profile"
		;;
	esac || die "setting $1 refused"
}

# run ROUND SETTING RW QD
run() {
	local round=$1 s=$2 rw=$3 qd=$4 i0 c0 i1 c1 b0 b1 json=$SSDT_TMP/bc.json
	i0=$(io_counter interrupts) c0=$(io_counter completed) b0=$(busy_idle)
	fio --name=b --filename="$dev" --direct=1 --ioengine=libaio --rw="$rw" \
		--bs=4k --iodepth="$qd" --size=256M --time_based --runtime="$SECS" \
		--randrepeat=0 --cpus_allowed=2 --output-format=json --output="$json" >/dev/null ||
		die "fio failed: $s $rw QD$qd"
	i1=$(io_counter interrupts) c1=$(io_counter completed) b1=$(busy_idle)
	python3 - "$json" "$round" "$s" "$rw" "$qd" $((i1 - i0)) $((c1 - c0)) $b0 $b1 <<'PY'
import json, sys
path, rnd, s, rw, qd, irqs, done, b0, i0, b1, i1 = sys.argv[1:12]
text = open(path).read()
job = json.loads(text[text.index("{"):])["jobs"][0]
r = job["read" if rw.endswith("read") else "write"]
pct = r["clat_ns"].get("percentile", {})
us = lambda k: pct.get(k, 0) / 1000.0
busy, idle = int(b1) - int(b0), int(i1) - int(i0)
print("round=%s setting=%s rw=%s qd=%s iops=%.0f p50_us=%.0f p99_us=%.0f p9999_us=%.0f "
      "irq_per_io=%.3f cpu_pct=%.1f" % (
          rnd, s, rw, qd, r["iops"], us("50.000000"), us("99.000000"),
          us("99.990000"), int(irqs) / max(int(done), 1),
          100.0 * busy / max(busy + idle, 1)))
PY
}

: >"$raw.part"
read -r -a settings <<<"$PROFILES"
for g in $GRID; do settings+=("host:$g"); done
n=${#settings[@]}
for rw in $RWS; do
	for qd in $QDS; do
		for ((r = 0; r < ROUNDS; r++)); do
			for ((k = 0; k < n; k++)); do
				s=${settings[(r + k) % n]}
				apply "$s"
				run "$r" "$s" "$rw" "$qd" | tee -a "$raw.part" >&2
			done
		done
	done
done
echo off >"$C/coalesce_profile"
teardown_stock
mv "$raw.part" "$raw"
