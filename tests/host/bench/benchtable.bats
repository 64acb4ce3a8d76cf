#!/usr/bin/env bats
# scripts/bench/benchtable.py (make bench's table) on made-up raw runs: each
# comparison's ratio is the median of same-round ratios with its interval,
# and every goal's verdict comes from that interval, not from the median
# alone.  And scripts/bench/fiojson.py on a made-up fio JSON.

TABLE="$BATS_TEST_DIRNAME/../../../scripts/bench/benchtable.py"
FIOJSON="$BATS_TEST_DIRNAME/../../../scripts/bench/fiojson.py"

# raw ROUNDS ARM=FACTOR...: nvme at QD1 and QD32 with 1000 IOPS (+10 per
# round, so rounds differ), p50 100 us, p99 200 us, CPU 50 us per I/O;
# each ARM at FACTOR times nvme's IOPS and 1/FACTOR times its latencies
# and CPU, FACTORs taken round by round from a comma list.
raw() {
	local n=$1 r arm f i qd
	shift
	for r in $(seq 1 "$n"); do
		for qd in 1 32; do
			echo "round=$r nvme qd=$qd jobs=1 iops=$((1000 + 10 * r)) mean_us=100 p99_us=200 irq_per_io=1.000 err=0 p50_us=100 cpu_us_per_io=50"
			for arm in "$@"; do
				IFS=, read -ra f <<<"${arm#*=}"
				i=$(((r - 1) % ${#f[@]}))
				awk -v r="$r" -v arm="${arm%%=*}" -v qd="$qd" -v a=$((1000 + 10 * r)) -v b="${f[$i]}" 'BEGIN {
					printf "round=%d %s qd=%d jobs=1 iops=%.0f mean_us=%.1f p99_us=%.1f irq_per_io=0.001 err=0 p50_us=%.1f cpu_us_per_io=%.2f\n",
						r, arm, qd, a * b, 100 / b, 200 / b, 100 / b, 50 / b }'
			done
		done
	done >"$BATS_TEST_TMPDIR/raw"
}

# goal TEXT: the goal line that starts with TEXT, spaces squeezed.
goal() {
	grep -F "  $1 " <<<"$output" | tr -s ' ' | sed 's/^ //'
}

table() {
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5 "${@}"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "every round ahead: the QD32 IOPS goal is met, with the interval printed" {
	raw 9 ssdtune=1.15,1.20,1.30
	table
	[[ $output == *"QD32   ssdtune/nvme                      9  IOPS 1.20 [1.15-1.30]"* ]]
	[ "$(goal "defaults: QD32 IOPS")" = "defaults: QD32 IOPS ssdtune/nvme >= 1.10 met; 96% CI 1.15-1.30, >= 1.10 in 9 of 9 rounds" ]
}

@test "every round behind: NOT met" {
	raw 7 ssdtune=0.90,0.95
	table
	[ "$(goal "defaults: QD32 IOPS")" = "defaults: QD32 IOPS ssdtune/nvme >= 1.10 NOT met; 98% CI 0.90-0.95, >= 1.10 in 0 of 7 rounds" ]
}

@test "a median above the target with rounds on both sides is not resolved, not met" {
	raw 7 ssdtune=1.20,0.80,1.15
	table
	[[ $output == *"QD32   ssdtune/nvme                      7  IOPS 1.15 [0.80-1.20]"* ]]
	[ "$(goal "defaults: QD32 IOPS")" = "defaults: QD32 IOPS ssdtune/nvme >= 1.10 not resolved (1.10 inside the interval); 98% CI 0.80-1.20, >= 1.10 in 5 of 7 rounds" ]
}

@test "too few rounds for an interval say so, in the ratio cell and the verdict" {
	raw 3 ssdtune=1.5
	table
	[[ $output == *"IOPS 1.50 [n=3]"* ]]
	[[ $output == *"not resolved: 3 round(s) are too few for an interval"* ]]
}

@test "latency and CPU goals are met by ratios at or below their bound" {
	# 1.25x the IOPS at 0.8x the latency and CPU
	raw 5 ssdtune+adaptive=1.25 ssdtune=1.0
	table
	[[ $output == *"QD1    ssdtune+adaptive/ssdtune          5  IOPS 1.25 [1.25-1.25]  p50 0.80 [0.80-0.80]  p99 0.80 [0.80-0.80]  CPU/IO 0.80 [0.80-0.80]"* ]]
	[ "$(goal "best profile (ssdtune+adaptive): QD32 CPU/IO")" = "best profile (ssdtune+adaptive): QD32 CPU/IO ssdtune+adaptive/nvme <= 0.80 met; 94% CI 0.80-0.80, <= 0.80 in 5 of 5 rounds" ]
	[ "$(goal "adaptive as default: QD1 p99")" = "adaptive as default: QD1 p99 ssdtune+adaptive/ssdtune <= 1.05 met; 94% CI 0.80-0.80, <= 1.05 in 5 of 5 rounds" ]
	[ "$(goal "defaults: QD1 p50")" = "defaults: QD1 p50 ssdtune/nvme <= 1.05 met; 94% CI 1.00-1.00, <= 1.05 in 5 of 5 rounds" ]
}

@test "the best profile is the interrupt arm with the highest QD32 IOPS ratio" {
	raw 5 ssdtune=1.30 ssdtune+adaptive=1.10
	table
	[ "$(goal "best profile (ssdtune): QD32 IOPS")" = "best profile (ssdtune): QD32 IOPS ssdtune/nvme >= 1.25 met; 94% CI 1.30-1.30, >= 1.25 in 5 of 5 rounds" ]
}

@test "each comparison gets its ratio row per QD; arms that did not run get none" {
	raw 5 ssdtune=1.0 ssdtune+adaptive=1.2 nvme-poll=1.3 ssdtune-poll=1.4
	table
	for p in ssdtune/nvme ssdtune+adaptive/nvme ssdtune+adaptive/ssdtune \
		ssdtune-poll/nvme-poll nvme-poll/nvme ssdtune-poll/ssdtune; do
		[ "$(grep -c "^QD32 *$p " <<<"$output")" -eq 1 ]
		[ "$(grep -c "^QD1 *$p " <<<"$output")" -eq 1 ]
	done
	[ "$(goal "polled: QD1 IOPS")" = "polled: QD1 IOPS ssdtune-poll/nvme-poll >= 1.00 met; 94% CI 1.08-1.08, >= 1.00 in 5 of 5 rounds" ]
	raw 5 ssdtune=1.0
	table
	[ "$(grep -c '^QD[0-9].*/' <<<"$output")" -eq 2 ]
	[[ $output != *"poll"* ]]
}

@test "the latency arm is compared with stock's interrupts and polling; issue 36's goals get verdicts" {
	# twice stock's IOPS at half its latency, every round
	raw 5 ssdtune=0.98 ssdtune-latency=2.0 nvme-poll=1.8
	table
	[ "$(grep -c '^QD1 *ssdtune-latency/nvme ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^QD1 *ssdtune-latency/nvme-poll ' <<<"$output")" -eq 1 ]
	[ "$(goal "latency profile (36): QD1 IOPS")" = "latency profile (36): QD1 IOPS ssdtune-latency/nvme >= 1.70 met; 94% CI 2.00-2.00, >= 1.70 in 5 of 5 rounds" ]
	[ "$(goal "latency profile (36): QD1 p50")" = "latency profile (36): QD1 p50 ssdtune-latency/nvme <= 0.60 met; 94% CI 0.50-0.50, <= 0.60 in 5 of 5 rounds" ]
	[ "$(goal "latency profile (36): QD1 p99")" = "latency profile (36): QD1 p99 ssdtune-latency/nvme <= 0.80 met; 94% CI 0.50-0.50, <= 0.80 in 5 of 5 rounds" ]
	[ "$(goal "parity (36): QD32 IOPS")" = "parity (36): QD32 IOPS ssdtune/nvme >= 0.97 met; 94% CI 0.98-0.98, >= 0.97 in 5 of 5 rounds" ]
	[ "$(goal "parity (36): QD1 IOPS")" = "parity (36): QD1 IOPS ssdtune/nvme >= 0.97 met; 94% CI 0.98-0.98, >= 0.97 in 5 of 5 rounds" ]
	# the issue's parity is over the QDs pooled: 10 same-round ratios here
	[ "$(goal "parity (36): IOPS")" = "parity (36): IOPS ssdtune/nvme >= 0.97, the QDs pooled met; 98% CI 0.98-0.98, >= 0.97 in 10 of 10 rounds" ]
}

@test "raw files joined by commas pool their rounds" {
	raw 5 ssdtune=1.2
	mv "$BATS_TEST_TMPDIR/raw" "$BATS_TEST_TMPDIR/a"
	raw 4 ssdtune=0.9
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/a,$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"QD32   nvme                              9 "* ]]
	[[ $output == *"QD32   ssdtune/nvme                      9  IOPS 1.20 [0.90-1.20]"* ]]
}

@test "fiojson.py: p50, p99 and CPU time per I/O from fio's JSON; interrupts over ramp and run" {
	cat >"$BATS_TEST_TMPDIR/fio.json" <<-'EOF'
	note: a warning fio printed first
	{ "jobs": [ { "error": 0, "job_runtime": 5000, "usr_cpu": 10.0, "sys_cpu": 30.0,
	  "read": { "iops": 1000.0, "total_ios": 5000,
	    "clat_ns": { "mean": 90000.0,
	      "percentile": { "50.000000": 80000, "99.000000": 250000, "99.900000": 700000 } } } } ] }
	EOF
	run python3 "$FIOJSON" "$BATS_TEST_TMPDIR/fio.json" arm 32 1 3000
	echo "$output"
	[ "$status" -eq 0 ]
	# 40% of 5 s over 5000 I/Os = 400 us; 3000 interrupts over 6000 I/Os
	[ "$output" = "arm qd=32 jobs=1 iops=1000 mean_us=90.0 p99_us=250.0 irq_per_io=0.500 err=0 p50_us=80.0 cpu_us_per_io=400.00 p999_us=700.0" ]
	# no ramp: 3000 interrupts over the 5000 I/Os; 10 ms of run-queue
	# wait over 5000 I/Os = 2 us each
	run python3 "$FIOJSON" "$BATS_TEST_TMPDIR/fio.json" arm 32 1 3000 0 10000000
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "arm qd=32 jobs=1 iops=1000 mean_us=90.0 p99_us=250.0 irq_per_io=0.600 err=0 p50_us=80.0 cpu_us_per_io=400.00 p999_us=700.0 rqwait_us_per_io=2.00" ]
	# lat_percentiles without clat_percentiles: the total latency's
	cat >"$BATS_TEST_TMPDIR/lat.json" <<-'EOF'
	{ "jobs": [ { "error": 0, "job_runtime": 5000, "usr_cpu": 10.0, "sys_cpu": 30.0,
	  "read": { "iops": 1000.0, "total_ios": 5000,
	    "clat_ns": { "mean": 10000.0 },
	    "lat_ns": { "mean": 95000.0,
	      "percentile": { "50.000000": 85000, "99.000000": 260000, "99.900000": 710000 } } } } ] }
	EOF
	run python3 "$FIOJSON" "$BATS_TEST_TMPDIR/lat.json" arm 1 1 0 0 0
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "arm qd=1 jobs=1 iops=1000 mean_us=95.0 p99_us=260.0 irq_per_io=0.000 err=0 p50_us=85.0 cpu_us_per_io=400.00 p999_us=710.0 rqwait_us_per_io=0.00" ]
}

@test "runs with several jobs (earlier benches) keep their own rows, QDxJOBS" {
	raw 5 ssdtune=1.2
	sed 's/ jobs=1 / jobs=4 /; s/iops=\([0-9]*\)/iops=\10/' "$BATS_TEST_TMPDIR/raw" >"$BATS_TEST_TMPDIR/j4"
	cat "$BATS_TEST_TMPDIR/j4" >>"$BATS_TEST_TMPDIR/raw"
	table
	[ "$(grep -c '^QD32 *nvme ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^QD32x4 *nvme ' <<<"$output")" -eq 1 ]
	[[ $output == *"QD32   nvme                              5      1030 "* ]]
	[[ $output == *"QD32x4 nvme                              5     10300 "* ]]
}

@test "costline.py: device accesses per I/O from the trace counts, guest CPU per I/O from /proc/stat; the table prints them" {
	cat >"$BATS_TEST_TMPDIR/cost.json" <<-'EOF'
	{ "jobs": [ { "read": { "total_ios": 2000 } } ] }
	EOF
	run python3 "$BATS_TEST_DIRNAME/../../../scripts/bench/costline.py" "$BATS_TEST_TMPDIR/cost.json" ssdtune 32 \
		"$(printf 'cpu  100 0 200 5000 0 10 20 0 0 0\ncpu0 50 0 100 2500 0 5 10 0 0 0\ncpu1 50 0 100 2500 0 5 10 0 0 0')" \
		"$(printf 'cpu  120 0 260 5100 0 12 21 0 0 0\ncpu0 50 0 100 2578 2 5 10 0 0 0\ncpu1 70 0 160 2520 0 7 11 0 0 0')" <<-'EOF'
	ok
	pci_nvme_mmio_write 1000
	pci_nvme_mmio_read 0
	pci_nvme_mmio_doorbell_sq 400
	pci_nvme_mmio_doorbell_cq 600
	pci_nvme_irq_msix 100
	pci_nvme_eventidx_sq 3000
	pci_nvme_eventidx_cq 1000
	EOF
	echo "$output"
	[ "$status" -eq 0 ]
	# 20 jiffies of user = 200 ms over 2000 I/Os = 100 us; sys 60 -> 300 us;
	# cpu1 was busy 83 of its 103 jiffies (81%), cpu0 idle
	[ "$output" = "cost ssdtune qd=32 ios=2000 mmio_w=0.500 mmio_r=0.000 db_sq=0.200 db_cq=0.300 msix=0.050 evidx=2.000 usr=100.0 sys=300.0 irq=10.0 softirq=5.0 idle=500.0 busy=81" ]
	raw 5 ssdtune=1.0
	echo "$output" >>"$BATS_TEST_TMPDIR/raw"
	table
	[[ $output == *"QD32   ssdtune              2000   0.500   0.000  0.200  0.300  0.050  2.000   100.0   300.0   10.0     5.0   500.0    81"* ]]
}

@test "noisytable.py: medians, same-round ratios and issue 36's noisy-neighbour goals from the run-queue wait and p99" {
	local r
	for r in 1 2 3 4 5; do
		echo "round=$r nvme-quiet qd=1 jobs=1 iops=3000 mean_us=300 p99_us=500 irq_per_io=1.000 err=0 p50_us=300 cpu_us_per_io=100 p999_us=900 rqwait_us_per_io=1.00"
		echo "round=$r nvme-hogs qd=1 jobs=1 iops=1500 mean_us=600 p99_us=$((1000 + r)) irq_per_io=1.000 err=0 p50_us=600 cpu_us_per_io=100 p999_us=4000 rqwait_us_per_io=200.00"
		echo "round=$r ssdtune-hogs qd=1 jobs=1 iops=2900 mean_us=300 p99_us=1300 irq_per_io=0.000 err=0 p50_us=300 cpu_us_per_io=300 p999_us=2000 rqwait_us_per_io=$((10 * r)).00"
	done >"$BATS_TEST_TMPDIR/noisy"
	run python3 "$BATS_TEST_DIRNAME/../../../scripts/bench/noisytable.py" "$BATS_TEST_TMPDIR/noisy" k 5 "a method line"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"a method line"* ]]
	[[ $output == *"QD1   nvme-hogs                           5     1500    600.0    1003.0    4000.0   200.00   100.00   1.000"* ]]
	[[ $output == *"QD1   nvme-hogs/nvme-quiet                5  IOPS 0.50 [0.50-0.50]"* ]]
	[[ $output == *"QD1   ssdtune-hogs/nvme-hogs              5  IOPS 1.93 [1.93-1.93]"*"wait 0.15 [0.05-0.25]"* ]]
	# arms that did not run get no row
	[[ $output != *"ssdtune-irq-hogs"* ]]
	[ "$(goal "QD1 run-queue wait/IO ssdtune-hogs/nvme-hogs")" = "QD1 run-queue wait/IO ssdtune-hogs/nvme-hogs <= 0.25 met; 94% CI 0.05-0.25, <= 0.25 in 5 of 5 rounds" ]
	[[ "$(goal "QD1 p99 ssdtune-hogs/nvme-hogs")" == "QD1 p99 ssdtune-hogs/nvme-hogs <= 1.20 NOT met; 94% CI 1.29-1.30, "* ]]
}
