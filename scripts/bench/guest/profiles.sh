#!/bin/bash
# Guest side of scripts/bench/profiles.sh (runs under scripts/vm.sh): each
# of the tool's profiles applied to ssdtune against untuned stock nvme, at
# the workloads the profile is for, on the engines applications use.
# Arms, one binding each, in an order reversed every other round:
#   nvme        stock, untuned (nvme.poll_queues=0, no plan)
#   P           ssdtune, 'ssdtune apply --profile P' (P: PROFILES_ARMS,
#               default "latency iops throughput balanced"), 'revert' after
# The cells (name engine rw bs qd; rw randrw:70 is a 70/30 4K mix):
#   latency     QD1 io_uring with IOPOLL (stock: io_uring, it has no poll
#               queue untuned), io_uring, libaio, psync; QD4 io_uring, libaio
#   iops        QD32 and QD128, libaio and io_uring
#   throughput  128K and 1M sequential reads, libaio and io_uring
#   balanced    QD8 4K random read and a 70/30 random mix, libaio and io_uring
# Stock runs every distinct cell; a profile runs its own.  One fio job,
# PROFILES_SECS (3) s after a 1 s ramp, pinned: stock on the first CPU of
# the controller's node, a profile on the first I/O core of its plan.
# The 512 MiB region fio uses is written once first, so the mix's writes
# find it allocated, as the reads do.  Writes
# $SSDT_RESULTS/profiles-$(uname -r).raw (one line per run) and .txt (the
# table, scripts/bench/profiletable.py).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
ROUNDS=${PROFILES_ROUNDS:-5}
SECS=${PROFILES_SECS:-3}
ARMS_P=${PROFILES_ARMS:-"latency iops throughput balanced"}
kver=$(uname -r)
raw=$SSDT_RESULTS/profiles-$kver.raw
out=$SSDT_RESULTS/profiles-$kver.txt
STATE=$SSDT_TMP/profiles-state
die() { echo "profiles: $*" >&2; exit 1; }

# cells PROFILE: its cells, one "name engine rw bs qd" a line
cells() {
	case $1 in
	latency)
		echo "qd1-poll io_uring-hipri randread 4k 1"
		echo "qd1 io_uring randread 4k 1"
		echo "qd1 libaio randread 4k 1"
		echo "qd1 psync randread 4k 1"
		echo "qd4 io_uring randread 4k 4"
		echo "qd4 libaio randread 4k 4" ;;
	iops)
		echo "qd32 libaio randread 4k 32"
		echo "qd32 io_uring randread 4k 32"
		echo "qd128 libaio randread 4k 128"
		echo "qd128 io_uring randread 4k 128" ;;
	throughput)
		echo "seq128k libaio read 128k 8"
		echo "seq128k io_uring read 128k 8"
		echo "seq1m libaio read 1m 4"
		echo "seq1m io_uring read 1m 4" ;;
	balanced)
		echo "qd8 libaio randread 4k 8"
		echo "qd8 io_uring randread 4k 8"
		echo "mix70 libaio randrw:70 4k 8"
		echo "mix70 io_uring randrw:70 4k 8" ;;
	*) return 1 ;;
	esac
}

bdf=$(nvme_bdf) || die "no test NVMe controller"
require_module || die "ssdtune.ko is not built for $kver"
for p in $ARMS_P; do
	cells "$p" >/dev/null || die "PROFILES_ARMS: no profile '$p'"
done
stock_pin=$(expand_cpulist "$(cat "/sys/bus/pci/devices/$bdf/local_cpulist")" | awk '{print $1}')
: >"$raw.part"

# run_cells R ARM PIN CELL...: measure each cell (one "name engine rw bs
# qd" an argument); stock runs a polled cell as plain io_uring
run_cells() {
	local r=$1 arm=$2 pin=$3 c name engine rw bs qd line
	shift 3
	for c in "$@"; do
		read -r name engine rw bs qd <<<"$c"
		[ "$arm" = nvme ] && [ "$engine" = io_uring-hipri ] && continue
		# Debian 12's fio 3.33 has died of a double free in io_uring
		# at 128K: one more try, said in the log
		line=$(measure "$arm" "$dev" "$bdf" "$qd" 1 "$SECS" "$pin" "$engine" "$rw" "$bs") ||
			{ echo "profiles: fio failed: $arm $name $engine: once more" >&2
			  line=$(measure "$arm" "$dev" "$bdf" "$qd" 1 "$SECS" "$pin" "$engine" "$rw" "$bs"); } ||
			die "fio failed twice: $arm $name $engine"
		echo "round=$r arm=$arm cell=$name engine=$engine rw=$rw bs=$bs $line" | tee -a "$raw.part" >&2
	done
}

# all distinct cells, for stock
all_cells() {
	local p
	for p in $ARMS_P; do cells "$p"; done | awk '!seen[$1 " " $2]++'
}

binding() {
	local r=$1 arm=$2 pin io c=()
	if [ "$arm" = nvme ]; then
		bench_bind "$bdf" nvme 0 || die "cannot bind $bdf to nvme"
		pin=$stock_pin
		mapfile -t c < <(all_cells)
	else
		bench_bind "$bdf" ssdtune 0 || die "cannot bind $bdf to ssdtune"
		rm -rf "$STATE"
		"$SSDT_TOOL" apply --profile "$arm" --state-dir "$STATE" "$bdf" >"$SSDT_TMP/apply.out" 2>&1 ||
			die "apply --profile $arm failed: $(tail -n 3 "$SSDT_TMP/apply.out")"
		io=$("$SSDT_TOOL" plan --profile "$arm" --json "$bdf" |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["io_cpus"])') ||
			die "cannot read the $arm plan's I/O cores"
		pin=$(expand_cpulist "$io" | awk '{print $1}')
		[ -n "$pin" ] || die "the $arm plan names no I/O core"
		mapfile -t c < <(cells "$arm")
	fi
	bench_warm "$dev" 1 || die "warm-up failed"
	run_cells "$r" "$arm" "$pin" "${c[@]}"
	if [ "$arm" != nvme ]; then
		"$SSDT_TOOL" revert --state-dir "$STATE" >"$SSDT_TMP/revert.out" 2>&1 ||
			die "revert after $arm failed: $(tail -n 3 "$SSDT_TMP/revert.out")"
	fi
}

t0=$(date +%s)
bench_bind "$bdf" nvme 0 || die "cannot bind $bdf to nvme"
# allocate the region in the image once: reads and the mix's writes then
# find the same blocks in every round; the flush at the end (conv=fsync:
# QEMU syncs the image) keeps the host's writeback of those 512 MiB out of
# the rounds (it made the second arm's p99 3 ms where stock's was 0.8)
dd if=/dev/zero of="$dev" bs=1M count=512 oflag=direct conv=fsync status=none ||
	die "cannot write the fio region once before round 1"
ARMS="nvme $ARMS_P"
bench_rounds profiles "$ROUNDS" "$ARMS"
bench_bind "$bdf" nvme 0 || die "cannot bind $bdf to nvme"
module_unload
mv "$raw.part" "$raw"
python3 scripts/bench/profiletable.py "$raw" "$kver" "$SECS" \
	"arms $ARMS; $ROUNDS rounds in $(($(date +%s) - t0)) s; stock pinned to CPU $stock_pin, a profile to its plan's first I/O core" >"$out" ||
	die "no table from $raw"
cat "$out" >&2
