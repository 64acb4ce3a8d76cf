#!/bin/bash
# Guest side of scripts/bench/scale.sh (runs under scripts/vm.sh --many):
# the four controllers of SSDT_VM_MANY on one driver at a time, measured
# together by 'ssdtune bench --devices D1,D2,D3,D4 --scale' (one fio run
# per step, a job per device, all starting together) on the first 1, 2
# and 4 of them: 4K random reads at QD SCALE_QD (32), libaio, for
# SCALE_SECS (4) s a step after fio's ramp.  Arms, one binding of all four
# each, in an order reversed every other round:
#   nvme      stock, untuned (nvme.poll_queues=0, no plan)
#   ssdtune   ssdtune with its defaults, no plan
#   P         ssdtune after 'ssdtune apply --profile P' over all four
#             (SCALE_ARMS, default "iops latency"); each device's job on
#             its I/O cores; 'revert' after
# Writes $SSDT_RESULTS/scale-$(uname -r).raw, a line per arm, round and
# step (round= arm= devices= iops= p99_us= irq_per_io= cpu_us_per_io=
# normalized_iops=), and .txt (scripts/bench/scaletable.py).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. scripts/bench/guest/measure.bash
ROUNDS=${SCALE_ROUNDS:-5}
SECS=${SCALE_SECS:-4}
QD=${SCALE_QD:-32}
ARMS_P=${SCALE_ARMS:-"iops latency"}
kver=$(uname -r)
raw=$SSDT_RESULTS/scale-$kver.raw
out=$SSDT_RESULTS/scale-$kver.txt
keep=$SSDT_RESULTS/scale-$kver.d
STATE=$SSDT_TMP/scale-state
die() { echo "scale: $*" >&2; exit 1; }

[ -n "${SSDT_VM_MANY:-}" ] || die "needs the VM of scripts/vm.sh --many"
require_module || die "ssdtune.ko is not built for $kver"
bdfs=()
for s in $SSDT_VM_MANY; do
	bdfs+=("$(SSDT_VM_NVME_SERIAL=$s nvme_bdf)") || die "no controller with serial $s"
done
rm -rf "$keep"
mkdir -p "$keep"
: >"$raw.part"

# bind_all DRIVER: all four on nvme (a new probe each, no poll queues) or
# on a freshly loaded ssdtune (one attach); disks into the array disks
bind_all() {
	local b s
	disks=()
	for b in "${bdfs[@]}"; do
		[ "$(pci_driver "$b")" = ssdtune ] && { sysfs_bind nvme "$b" || return 1; }
	done
	if [ "$1" = nvme ]; then
		echo 0 >/sys/module/nvme/parameters/poll_queues || return 1
		for b in "${bdfs[@]}"; do
			echo "$b" >"/sys/bus/pci/devices/$b/driver/unbind" || return 1
			sysfs_bind nvme "$b" || return 1
		done
		for s in $SSDT_VM_MANY; do
			disks+=("$(SSDT_VM_NVME_SERIAL=$s wait_for 30 nvme_disk)") || return 1
		done
	else
		module_unload && module_load || return 1
		"$SSDT_TOOL" attach "${bdfs[@]}" >/dev/null || return 1
		for s in $SSDT_VM_MANY; do
			disks+=("$(SSDT_VM_NVME_SERIAL=$s wait_for 30 ssdt_disk)") || return 1
		done
	fi
	udevadm settle -t "$SETTLE_S"
}

binding() {
	local r=$1 arm=$2 dir list
	dir=$keep/$arm.$r
	case $arm in
	nvme) bind_all nvme || die "cannot bind the controllers to nvme" ;;
	*) bind_all ssdtune || die "cannot attach the controllers to ssdtune" ;;
	esac
	rm -rf "$STATE"
	if [ "$arm" != nvme ] && [ "$arm" != ssdtune ]; then
		"$SSDT_TOOL" apply --profile "$arm" --state-dir "$STATE" >"$SSDT_TMP/apply.out" 2>&1 ||
			die "apply --profile $arm failed: $(tail -n 3 "$SSDT_TMP/apply.out")"
	fi
	for d in "${disks[@]}"; do bench_warm "$d" 1 || die "warm-up of $d failed"; done
	list=$(IFS=,; echo "${disks[*]}")
	rm -rf "$dir"
	mkdir -p "$dir"
	# bench --out wants a directory of root's that nobody else writes
	chmod 0700 "$dir"
	"$SSDT_TOOL" bench --json --devices "$list" --scale --bs 4k --qd "$QD" \
		--rw randread --rounds 1 --runtime "$SECS" --state-dir "$STATE" \
		--out "$dir" >"$dir/stdout.json" 2>"$dir/stderr" ||
		die "bench ($arm, round $r) failed: $(tail -n 3 "$dir/stderr")"
	python3 - "$dir/bench.json" "$r" "$arm" <<'PY' | tee -a "$raw.part" >&2 || die "no figures in $dir/bench.json"
import json, sys
b = json.load(open(sys.argv[1]))
cell = next(iter(b["cells"].values()))
for st in cell["scaling"]:
    rd = st["rounds"][0]
    print("round=%s arm=%s devices=%d iops=%.1f p99_us=%.1f irq_per_io=%.4f cpu_us_per_io=%.2f normalized_iops=%.3f"
          % (sys.argv[2], sys.argv[3], st["devices"], rd["iops"], rd["clat_p99_us"],
             rd["irq_per_io"], rd["cpu_us_per_io"], st["normalized_iops"]))
PY
	if [ -e "$STATE/state.json" ]; then
		"$SSDT_TOOL" revert --state-dir "$STATE" >"$SSDT_TMP/revert.out" 2>&1 ||
			die "revert after $arm failed: $(tail -n 3 "$SSDT_TMP/revert.out")"
	fi
}

t0=$(date +%s)
ARMS="nvme ssdtune $ARMS_P"
bench_rounds scale "$ROUNDS" "$ARMS"
bind_all nvme || die "cannot give the controllers back to nvme"
module_unload
mv "$raw.part" "$raw"
python3 scripts/bench/scaletable.py "$raw" "$kver" \
	"QD$QD 4K random reads, libaio, ${SECS} s a step; arms $ARMS; $ROUNDS rounds in $(($(date +%s) - t0)) s; $(nproc) vCPUs (one per node)" >"$out" ||
	die "no table from $raw"
cat "$out" >&2
