#!/usr/bin/env bats
# scripts/bench/demo-plot.py, the picture make demo leaves in build/demo: two
# ssdtune bench reports made up here, as bench.json has them (cells with
# qd and summary.METRIC.median).

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
PLOT=$REPO/scripts/bench/demo-plot.py

# report DIR IOPS1 P99_1 IOPS32 P99_32
report() {
	mkdir -p "$1"
	cat >"$1/bench.json" <<JSON
{ "cells": {
  "randread-4k-t1q1": { "qd": 1, "summary": { "iops": { "median": $2 }, "clat_p99_us": { "median": $3 } } },
  "randread-4k-t1q32": { "qd": 32, "summary": { "iops": { "median": $4 }, "clat_p99_us": { "median": $5 } } }
} }
JSON
}

@test "demo-plot: the two reports side by side per queue depth, and a PNG" {
	local d=$BATS_TEST_TMPDIR/demo
	report "$d/stock" 1000 900 20000 3000
	report "$d/ssdtune" 1800 500 21000 2900
	command -v gnuplot >/dev/null || skip "no gnuplot (make setup installs gnuplot-nox)"
	run -0 "$PLOT" "$d"
	[ "$output" = "$d/stock-vs-ssdtune.png" ]
	[ -s "$d/stock-vs-ssdtune.png" ]
	[ "$(sed -n 2p "$d/stock-vs-ssdtune.dat")" = "QD1 1000 1800 900 500" ]
	[ "$(sed -n 3p "$d/stock-vs-ssdtune.dat")" = "QD32 20000 21000 3000 2900" ]
}

@test "demo-plot: a missing report is one line and exit 1; nothing is plotted" {
	local d=$BATS_TEST_TMPDIR/demo
	report "$d/stock" 1000 900 20000 3000
	run -1 "$PLOT" "$d"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "demo-plot: cannot read $d/ssdtune/bench.json: "* ]]
	[ ! -e "$d/stock-vs-ssdtune.png" ]
}

@test "demo-plot: reports without a shared queue depth are refused" {
	local d=$BATS_TEST_TMPDIR/demo
	report "$d/stock" 1000 900 20000 3000
	mkdir -p "$d/ssdtune"
	echo '{ "cells": { "x": { "qd": 8, "summary": { "iops": { "median": 5 }, "clat_p99_us": { "median": 6 } } } } }' \
		>"$d/ssdtune/bench.json"
	run -1 "$PLOT" "$d"
	[ "$output" = "demo-plot: the two reports share no queue depth" ]
}
