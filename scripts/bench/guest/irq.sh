#!/bin/bash
# Guest side of scripts/bench/irq.sh (runs under scripts/vm.sh): 4K random
# read at QD32 from one I/O core of node 1 (the controller's node) with the
# device's vectors (a) on that same I/O core and (b) on a separate
# interrupt core of node 1, alternating, ROUNDS times; prints IOPS per run
# and the median ratio separate/same.  Writes
# $SSDT_RESULTS/bench-irq-$(uname -r).txt.
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
ROUNDS=${BENCH_ROUNDS:-3}
SECS=${BENCH_SECS:-5}
out=$SSDT_RESULTS/bench-irq-$(uname -r).txt
die() { echo "bench-irq: $*" >&2; exit 1; }

setup_attached || die "cannot attach the controller to ssdtune"
dev=$(ssdt_disk) || die "no ssdtune disk"
read -r irqcpu iocpu < <(node_cpus 1)
[ -n "$iocpu" ] || die "node 1 needs two CPUs"

# run LAYOUT CPU: every vector on CPU, fio on $iocpu; prints IOPS
run() {
	local q irq json=$SSDT_TMP/irq-$1.json
	while read -r q irq; do
		echo "$2" >"/proc/irq/$irq/smp_affinity_list" || return 1
	done < <(ssdt_queue_irqs)
	fio --name=m --filename="$dev" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=32 --numjobs=1 --cpus_allowed="$iocpu" \
		--size=512M --time_based --runtime="$SECS" --ramp_time=1 \
		--randrepeat=0 --output-format=json --output="$json" || return 1
	python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]))' "$json"
}

: >"$out.part"
for r in $(seq 1 "$ROUNDS"); do
	same=$(run same "$iocpu") || die "fio failed"
	sep=$(run separate "$irqcpu") || die "fio failed"
	echo "round $r: vectors on the I/O core $iocpu: $same IOPS; on interrupt core $irqcpu: $sep IOPS" |
		tee -a "$out.part" >&2
done
teardown_stock
python3 - "$out.part" "$(uname -r)" "$SECS" <<'PY' | tee -a "$out.part"
import re, statistics, sys
rows = [tuple(map(int, re.findall(r": (\d+) IOPS", l))) for l in open(sys.argv[1])]
ratios = sorted(b / a for a, b in rows if a)
print("%s: 4K randread QD32, %s s x %d rounds: median IOPS same core %d, separate core %d; "
      "median ratio separate/same %.3f" % (sys.argv[2], sys.argv[3], len(rows),
      statistics.median(a for a, _ in rows), statistics.median(b for _, b in rows),
      statistics.median(ratios)))
PY
mv "$out.part" "$out"
