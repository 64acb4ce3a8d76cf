#!/bin/bash
# Guest side of scripts/bench/power.sh (runs under scripts/vm.sh): with
# ssdtune attached and a TCG-calibrated energy model, run 4K random read,
# 4K random write and 128K sequential read at each power limit in LIMITS
# (0 = none; host mode, as QEMU's feature 0x02 is fixed) for SECS seconds
# and record IOPS, MB/s, p99 and the average power estimate.  Writes
# $SSDT_RESULTS/bench-power-$(uname -r).txt (table) and .dat (for gnuplot).
set -u
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/common.bash
. tests/vm/lib/power.bash	# shared with tests/vm/80-power.bats
SECS=${BENCH_SECS:-4}
LIMITS=${BENCH_LIMITS:-"0 4000 3000 2000 1600 1300 1150"}
# Unlike the test's flat per-command model, this one charges per KiB too,
# so 128K reads cost more than 4K ones: 4K read 120 uJ, 128K read 740 uJ,
# 4K write 190 uJ, over 1 W idle.
MODEL="idle_mw=1000 read_nj=100000 read_nj_per_kib=5000 write_nj=150000 write_nj_per_kib=10000 other_nj=1000"
kver=$(uname -r)
dat=$SSDT_RESULTS/bench-power-$kver.dat
out=$SSDT_RESULTS/bench-power-$kver.txt
die() { echo "bench-power: $*" >&2; exit 1; }

setup_attached || die "cannot attach the test controller to ssdtune"
disk=$(ssdt_disk) || die "no ssdtune disk"
pw_set power_limit_mode auto || die "cannot set power_limit_mode"
pw_set energy_model "$MODEL" || die "cannot set energy_model"
pw_burst "$PW_VM_BURST_US" || die "cannot set power_burst_us"
: >"$dat.part"
for w in "randread4k --rw=randread --bs=4k --iodepth=32" \
	"randwrite4k --rw=randwrite --bs=4k --iodepth=32" \
	"seqread128k --rw=read --bs=128k --iodepth=8"; do
	name=${w%% *}
	for lim in $LIMITS; do
		pw_set power_limit_mw "$lim" || die "cannot set power_limit_mw $lim"
		# shellcheck disable=SC2086 # the fio options are words
		line=$(pw_run "$name-$lim" "$disk" "$SECS" ${w#* } --size=512M) ||
			die "fio failed: $name at $lim mW"
		echo "$line" >&2
		echo "$name $lim $(pw_field "$line" iops) $(pw_field "$line" mbps) $(pw_field "$line" p99_us) $(pw_field "$line" est_mw)" >>"$dat.part"
	done
done
# Limit 0 restores full speed at once: per round, a run under the lowest
# limit, then limit 0 (restored), then an unchanged unlimited reference
# right after it; the ratio of the last two compares neighbours.
low=${LIMITS##* }
ratios=()
for ((r = 0; r < ${BENCH_RESTORE_ROUNDS:-3}; r++)); do
	load="--rw=randread --bs=4k --iodepth=32 --size=512M"
	pw_set power_limit_mw "$low" || die "cannot set power_limit_mw $low"
	# shellcheck disable=SC2086
	pw_run "restore-low-$r" "$disk" "$SECS" $load >/dev/null || die "fio failed (restore)"
	pw_set power_limit_mw 0 || die "cannot set power_limit_mw 0"
	# shellcheck disable=SC2086
	a=$(pw_run "restore-0-$r" "$disk" "$SECS" $load) || die "fio failed (restore)"
	# shellcheck disable=SC2086
	b=$(pw_run "restore-ref-$r" "$disk" "$SECS" $load) || die "fio failed (restore)"
	ratios+=("$(pw_field "$a" iops)/$(pw_field "$b" iops)")
	echo "restore round $r: limit 0 after $low mW: $a; unlimited reference: $b" >&2
done
pw_set power_limit_mw 0
pw_burst 400
teardown_stock
mv "$dat.part" "$dat"
{
	echo "power limit sweep, $kver, host mode, ${SECS} s per point, model: $MODEL"
	echo "| workload | limit mW | IOPS | MB/s | p99 us | estimate mW | estimate/limit |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	while read -r n l i m p e; do
		q=-
		[ "$l" != 0 ] && q=$(python3 -c "print('%.3f' % ($e / $l))")
		[ "$l" = 0 ] && l="none"
		echo "| $n | $l | $i | $m | $p | $e | $q |"
	done <"$dat"
	# what 80-power.bats used to assert: 4K random read IOPS fall with
	# each lower limit (a comparison of runs: a report, not a test)
	awk '$1 == "randread4k" && $2 != 0 { if (n++ && $3 >= last) bad = 1; last = $3 }
		END { printf "\nIOPS fall with the limit (randread4k, %d limits): %s\n", n, (bad ? "NO" : "yes") }' "$dat"
	python3 - "${ratios[@]}" <<-'PY'
	import statistics, sys
	r = [int(a) / int(b) for a, b in (x.split("/") for x in sys.argv[1:])]
	print("\nlimit 0 right after the lowest limit, IOPS / the unlimited run next to it "
	      "(4K randread QD32, per round): %s; median %.3f (issue 6: within 10%%)"
	      % (" ".join("%.3f" % x for x in r), statistics.median(r)))
	PY
} | tee "$out"
