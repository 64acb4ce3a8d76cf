#!/usr/bin/env bats
# scripts/bench/demo-plot.py, the table and the picture make demo leaves in
# build/demo: a demo.raw made up here, as scripts/bench/guest/demo.sh writes
# it (one line per run: round, arm, job, engine and fiojson.py's fields).

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
PLOT=$REPO/scripts/bench/demo-plot.py

# raw DIR ROUNDS: stock at 1000/2000/20000 IOPS (p99 900); defaults the
# same, with the rounds' noise; tuned 1.8x at QD1 io_uring (p99 0.5x),
# 2% up and down at QD1 libaio, 0.5x at QD32 in every round
raw() {
	local d=$1 n=$2 r j base f
	mkdir -p "$d"
	: >"$d/demo.raw"
	for r in $(seq 1 "$n"); do
		for j in "qd1-io_uring 1000" "qd1-libaio 2000" "qd32-io_uring 20000"; do
			set -- $j
			base=$2
			# noise: +-2% alternating, the same for stock and defaults
			f=$((r % 2 ? 102 : 98))
			line() { echo "round=$r arm=$1 job=$j engine=$2 pin=2 $1 qd=1 jobs=1 iops=$3 mean_us=1 p99_us=$4 irq_per_io=1 err=0 p50_us=$5 cpu_us_per_io=$6 p999_us=1"; }
			j=${j%% *}
			line stock io_uring $((base)) 900 100 50 >>"$d/demo.raw"
			line defaults io_uring $((base * f / 100)) $((900 * f / 100)) 100 50 >>"$d/demo.raw"
			case $j in
			qd1-io_uring) line tuned io_uring-hipri $((base * 18 / 10)) 450 50 90 ;;
			qd1-libaio) line tuned libaio $((base * f / 100)) 900 100 50 ;;
			*) line tuned io_uring $((base / 2)) 1800 100 50 ;;
			esac >>"$d/demo.raw"
		done
	done
	echo "4K random read, made up" >"$d/about.txt"
}

@test "demo-plot: three arms per job, ratios to stock with intervals and honest verdicts, and a PNG" {
	local d=$BATS_TEST_TMPDIR/demo
	raw "$d" 5
	command -v gnuplot >/dev/null || skip "no gnuplot (make setup installs gnuplot-nox)"
	run -0 "$PLOT" "$d"
	[ "$output" = "$d/demo.png" ]
	[ -s "$d/demo.png" ]
	cat "$d/summary.txt"
	[ "$(sed -n 1p "$d/summary.txt")" = "4K random read, made up" ]
	# a gain in every round: better; noise either way: within noise; a
	# loss in every round: worse
	grep -E '^ +tuned +io_uring-hipri +1800 .* 1\.80 \[1\.80-1\.80\] better +0\.50 \[0\.50-0\.50\] better' "$d/summary.txt"
	grep -E '^ +tuned +libaio .* 1\.02 \[0\.98-1\.02\] within noise' "$d/summary.txt"
	grep -E '^ +tuned +io_uring +10000 .* 0\.50 \[0\.50-0\.50\] worse +2\.00 \[2\.00-2\.00\] worse' "$d/summary.txt"
	grep -E '^ +defaults .* within noise .* within noise' "$d/summary.txt"
	[ "$(sed -n 2p "$d/demo.dat")" = "qd1-io_uring 1000 1020 1800 900 918 450" ]
}

@test "demo-plot: with 3 rounds no verdict is given, only 'too few rounds'" {
	local d=$BATS_TEST_TMPDIR/demo
	raw "$d" 3
	run "$PLOT" "$d"
	grep -q 'too few rounds' "$d/summary.txt"
	! grep -qE "(better|worse) *$" "$d/summary.txt"
}

@test "demo-plot: a missing arm is one line and exit 1; nothing is plotted" {
	local d=$BATS_TEST_TMPDIR/demo
	raw "$d" 5
	sed -i '/arm=tuned/d' "$d/demo.raw"
	run -1 "$PLOT" "$d"
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "demo-plot: $d/demo.raw has no tuned run of qd1-io_uring" ]
	[ ! -e "$d/demo.png" ]
	run -1 "$PLOT" "$BATS_TEST_TMPDIR/none"
	[[ $output == "demo-plot: cannot read $BATS_TEST_TMPDIR/none/demo.raw: "* ]]
}
