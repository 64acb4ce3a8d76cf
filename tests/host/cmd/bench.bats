#!/usr/bin/env bats
# ssdtune bench against the fixture /sys (ssdt0n1 on 0000:42:00.0) with a
# stand-in fio on PATH (fixtures/bench-bin/fio: fio-shaped JSON, IOPS per
# round from $FAKE_FIO_IOPS) and a stand-in blkdiscard.

load ../helpers

bench_setup() {
	export PATH="$BATS_TEST_DIRNAME/../fixtures/bench-bin:$PATH"
	export FAKE_FIO_LOG=$BATS_TEST_TMPDIR/fio.log
	export FAKE_FIO_STATE=$BATS_TEST_TMPDIR/fio.state
	OUT=$BATS_TEST_TMPDIR/out
	SC=$(fx_dev 2)/ssdtune/ssdt0
}

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	make_fixture
	bench_setup
}

# report KEY...: a field of $OUT/bench.json (or of $1 if it is a file)
report() {
	local f=$OUT/bench.json
	[ -f "$1" ] && { f=$1; shift; }
	python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v) if isinstance(v, (list, dict, bool)) or v is None else v)' "$f" "$@"
}

@test "bench runs every cell of the matrix in rounds and writes JSON, CSV and a table" {
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k,128k --qd 1,4x8 \
		--rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -z "$stderr" ]
	[ "$(report cells | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)))')" = \
	  "randread-4k-t1q1 randread-4k-t4q8 randread-128k-t1q1 randread-128k-t4q8" ]
	[ "$(wc -l <"$FAKE_FIO_LOG")" -eq 12 ]
	[ "$(grep -c '^randread-128k-t4q8 rw=randread bs=131072 iodepth=8 numjobs=4 filename=/dev/ssdt0n1$' "$FAKE_FIO_LOG")" -eq 3 ]
	[ "$(report cells randread-4k-t1q1 rounds | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" -eq 3 ]
	for k in device host method purge precondition cells files; do
		report "$k" >/dev/null || { echo "no $k"; false; }
	done
	[ "$(report device driver)" = ssdtune ]
	[ "$(report device pci_address)" = 0000:42:00.0 ]
	[ "$(report method suite)" = quick ]
	[ "$(report purge)" = none ]
	# the columns of before first, in their places; the split after them
	[ "$(head -n 1 "$OUT/bench.csv")" = "cell,rw,read_pct,pattern,io_size,bs,threads,depth,round,iops,mbps,clat_mean_us,clat_p50_us,clat_p99_us,clat_p99_9_us,clat_p99_99_us,cpu_pct,cpu_us_per_io,irq_per_io,temperature_c,power_estimate_mw,throttle_events,suspect,steady_state,clat_p99_9999_us,read_iops,read_mbps,read_clat_mean_us,read_clat_p50_us,read_clat_p99_us,read_clat_p99_9_us,read_clat_p99_99_us,read_clat_p99_9999_us,write_iops,write_mbps,write_clat_mean_us,write_clat_p50_us,write_clat_p99_us,write_clat_p99_9_us,write_clat_p99_99_us,write_clat_p99_9999_us,read_ios,write_ios,meaningful_pct,read_meaningful_pct,write_meaningful_pct,clat_max_us,read_clat_max_us,write_clat_max_us" ]
	[ "$(tail -n +2 "$OUT/bench.csv" | wc -l)" -eq 12 ]
	grep -q '^randread-128k-t4q8 .* 128k ' "$OUT/bench.txt"
	[[ "$output" == *"report: $OUT/bench.json"* ]]
}

@test "per-round figures come from fio's JSON: IOPS, MB/s at the IO size, latency percentiles" {
	FAKE_FIO_IOPS=2000 run --separate-stderr ssdt bench ssdt0n1 --bs 128k \
		--qd 4 --rounds 3 --runtime 2 --out "$OUT"
	[ "$status" -eq 0 ]
	c=randread-128k-t1q4
	[ "$(report cells $c rounds 0 iops)" = 2000.0 ]
	[ "$(report cells $c rounds 0 ios)" = 4000 ]
	[ "$(report cells $c rounds 0 mbps)" = 262.144 ]
	[ "$(report cells $c io_size)" = 128k ]
	[ "$(report cells $c rounds 0 clat_mean_us)" = 2000.0 ]
	[ "$(report cells $c rounds 0 clat_p99_us)" = 4000.0 ]
	[ "$(report cells $c rounds 0 clat_p99_99_us)" = 16000.0 ]
	[ "$(report cells $c summary iops median)" = 2000.0 ]
	[ "$(report cells $c summary iops n)" = 3 ]
	cpu=$(report cells $c rounds 0 cpu_pct)
	python3 -c "import sys; v=float(sys.argv[1]); sys.exit(not 0 <= v <= 100)" "$cpu"
}

# csvcol CELL ROUND KEY: a column of bench.csv by its header name
csvcol() {
	python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["cell"] == sys.argv[2] and r["round"] == sys.argv[3]:
        print(r[sys.argv[4]])' "$OUT/bench.csv" "$@"
}

@test "a mix reports its reads and writes apart, p50 to p99.9999 each, in JSON, CSV and the table" {
	FAKE_FIO_WRITE_LAT=3 run --separate-stderr ssdt bench ssdt0n1 --rw 70/30 \
		--bs 4k --qd 1 --rounds 3 --runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=rand-70r-4k-t1q1
	grep -qx 'unified_rw_reporting=both' "$OUT/jobs/$c.fio"
	grep -qx 'percentile_list=50:99:99.9:99.99:99.9999' "$OUT/jobs/$c.fio"
	# reads and writes together, as before
	[ "$(report cells $c rounds 0 iops)" = 1000.0 ]
	[ "$(report cells $c rounds 0 ios)" = 1000 ]
	# apart: 70% reads at 1 ms mean, 30% writes at 3 ms
	[ "$(report cells $c rounds 0 read_iops)" = 700.0 ]
	[ "$(report cells $c rounds 0 read_ios)" = 700 ]
	[ "$(report cells $c rounds 0 write_iops)" = 300.0 ]
	[ "$(report cells $c rounds 0 write_ios)" = 300 ]
	[ "$(report cells $c rounds 0 read_mbps)" = 2.8672 ]
	[ "$(report cells $c rounds 0 read_clat_mean_us)" = 1000.0 ]
	[ "$(report cells $c rounds 0 write_clat_mean_us)" = 3000.0 ]
	[ "$(report cells $c rounds 0 read_clat_p99_us)" = 2000.0 ]
	[ "$(report cells $c rounds 0 write_clat_p99_us)" = 6000.0 ]
	[ "$(report cells $c rounds 0 read_clat_p99_9_us)" = 4000.0 ]
	# 300 writes: p99.9 is already the last one, and so is p99.9999
	[ "$(report cells $c rounds 0 write_clat_p99_9999_us)" = 12000.0 ]
	[ "$(report cells $c summary read_clat_p99_us median)" = 2000.0 ]
	[ "$(report cells $c summary write_clat_p99_us median)" = 6000.0 ]
	[ "$(report cells $c summary write_iops n)" = 3 ]
	[ "$(csvcol $c 2 read_iops)" = 700 ]
	[ "$(csvcol $c 2 write_clat_p99_us)" = 6000 ]
	[ "$(csvcol $c 2 write_ios)" = 300 ]
	[ "$(csvcol $c 2 iops)" = 1000 ]
	grep -A2 "^$c " "$OUT/bench.txt" | grep -Eq '^  reads +700 +2\.9 +4k +1000\.0 +900\.0 +2000\.0\*? '
	grep -A2 "^$c " "$OUT/bench.txt" | grep -Eq '^  writes +300 +1\.2 +4k +3000\.0 +2700\.0 +6000\.0\*? '
}

@test "a pure read or write keeps its figures under their names; the other direction is null" {
	run --separate-stderr ssdt bench ssdt0n1 --rw randread,randwrite --bs 4k \
		--qd 1 --rounds 3 --runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	r=randread-4k-t1q1 w=randwrite-4k-t1q1
	[ "$(report cells $r rounds 0 clat_p99_us)" = 2000.0 ]
	[ "$(report cells $r rounds 0 read_clat_p99_us)" = 2000.0 ]
	[ "$(report cells $r rounds 0 read_iops)" = 1000.0 ]
	[ "$(report cells $r rounds 0 write_iops)" = null ]
	[ "$(report cells $r rounds 0 write_ios)" = 0 ]
	[ "$(report cells $r rounds 0 meaningful write_clat_p50_us)" = false ]
	[ "$(report cells $w rounds 0 clat_mean_us)" = 3000.0 ]
	[ "$(report cells $w rounds 0 write_clat_mean_us)" = 3000.0 ]
	[ "$(report cells $w rounds 0 read_iops)" = null ]
	[ "$(report cells $w summary read_iops n)" = 0 ]
	# no reads/writes rows for a single direction
	! grep -q '^  reads ' "$OUT/bench.txt"
}

@test "every round has the slowest completion, by direction: clat_max_us in JSON, summary and CSV" {
	FAKE_FIO_WRITE_LAT=3 run --separate-stderr ssdt bench ssdt0n1 --rw 70/30 \
		--bs 4k --qd 1 --rounds 3 --runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=rand-70r-4k-t1q1
	# the stand-in's slowest: 700 reads at 1 ms mean, 300 writes at 3 ms,
	# each the 4x of its p99.9 bin, the last one of so few
	[ "$(report cells $c rounds 0 read_clat_max_us)" = 4000.0 ]
	[ "$(report cells $c rounds 0 write_clat_max_us)" = 12000.0 ]
	[ "$(report cells $c rounds 0 clat_max_us)" = 12000.0 ]
	[ "$(report cells $c summary write_clat_max_us max)" = 12000.0 ]
	[ "$(report cells $c summary read_clat_max_us n)" = 3 ]
	[ "$(csvcol $c 2 read_clat_max_us)" = 4000 ]
	[ "$(csvcol $c 2 clat_max_us)" = 12000 ]
	# a pure read has no writes: null, not 0
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 1 --runtime 1 --out "$OUT.2"
	[ "$(report "$OUT.2/bench.json" cells randread-4k-t1q1 rounds 0 write_clat_max_us)" = null ]
}

@test "pts-latency's report: mean, max and the tail percentiles p99, p99.9, p99.99 per block size and mix" {
	FAKE_FIO_IOPS=2000 run --separate-stderr ssdt bench ssdt0n1 --suite pts-latency \
		--bs 4k --runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(report pts_latency | python3 -c 'import json,sys; print(" ".join(r["cell"] for r in json.load(sys.stdin)))')" = \
	  "randread-4k-t1q1 rand-65r-4k-t1q1 randwrite-4k-t1q1" ]
	# 2000 reads a round at 500 us: p99 2x; the 2 slowest 8x, which is
	# also where p99.9 falls; p99.9 wants 10^4 samples, p99 10^3
	[ "$(report pts_latency 0 mean_us)" = 500.0 ]
	[ "$(report pts_latency 0 max_us)" = 4000.0 ]
	[ "$(report pts_latency 0 p99_us)" = 1000.0 ]
	[ "$(report pts_latency 0 p99_9_us)" = 4000.0 ]
	[ "$(report pts_latency 0 p99_99_us)" = 4000.0 ]
	[ "$(report pts_latency 0 meaningful p99_us)" = true ]
	[ "$(report pts_latency 0 meaningful p99_9_us)" = false ]
	[ "$(report pts_latency 2 mean_us)" = 1500.0 ]
	[ "$(report pts_latency 1 read_pct)" = 65 ]
	# the same figures in the table, with its marks
	grep -q '^PTS latency: completion latency of the summary rounds' "$OUT/bench.txt"
	grep -Eq '^randread-4k-t1q1 +4k +100/0 +500\.0 +4000\.0 +1000\.0 +4000\.0\* +4000\.0\*$' "$OUT/bench.txt"
	grep -Eq '^randwrite-4k-t1q1 +4k +0/100 +1500\.0 ' "$OUT/bench.txt"
	# other suites have no such report
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 1 --runtime 1 --out "$OUT.2"
	[ "$(report "$OUT.2/bench.json" pts_latency 2>/dev/null || echo none)" = none ]
	! grep -q '^PTS latency' "$OUT.2/bench.txt"
}

@test "a percentile is meaningful only from 10/(1-p) samples in the round: p99.9 from 10^4, p99.99 from 10^5" {
	FAKE_FIO_IOPS=10000 run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q1
	[ "$(report cells $c rounds 0 meaningful clat_p50_us)" = true ]
	[ "$(report cells $c rounds 0 meaningful clat_p99_9_us)" = true ]
	[ "$(report cells $c rounds 0 meaningful clat_p99_99_us)" = false ]
	[ "$(report cells $c rounds 0 meaningful read_clat_p99_9_us)" = true ]
	[ "$(report cells $c rounds 0 meaningful clat_p99_9999_us)" = false ]
	[ "$(report cells $c summary clat_p99_9_us meaningful)" = true ]
	[ "$(report cells $c summary clat_p99_99_us meaningful)" = false ]
	[ "$(csvcol $c 1 meaningful_pct)" = 99.9 ]
	[ "$(csvcol $c 1 write_meaningful_pct)" = "" ]
	# the value is still there, marked in the table, with the rule
	[ "$(report cells $c rounds 0 clat_p99_99_us)" != null ]
	grep -Eq "^$c .* [0-9.]+ +[0-9.]+\* +[0-9.]+\* " "$OUT/bench.txt"
	grep -q '^\* too few samples per round for that percentile p: it needs 10/(1-p)' "$OUT/bench.txt"
	# one sample fewer: p99.9 is no longer meaningful
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=9999 run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT.2"
	[ "$(report "$OUT.2/bench.json" cells $c rounds 0 meaningful clat_p99_9_us)" = false ]
	[ "$(report "$OUT.2/bench.json" cells $c summary clat_p99_9_us meaningful)" = false ]
	[ "$(report "$OUT.2/bench.json" cells $c summary clat_p99_us meaningful)" = true ]
	# in a mix, each direction by its own samples: 14000 reads, 6000 writes
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=20000 run --separate-stderr ssdt bench ssdt0n1 --rw 70/30 --bs 4k \
		--qd 1 --rounds 3 --runtime 1 --destroy-data --out "$OUT.3"
	OUT=$OUT.3
	c=rand-70r-4k-t1q1
	[ "$(csvcol $c 1 read_meaningful_pct)" = 99.9 ]
	[ "$(csvcol $c 1 write_meaningful_pct)" = 99 ]
	[ "$(csvcol $c 1 meaningful_pct)" = 99.9 ]
	[ "$(report cells $c summary write_clat_p99_9_us meaningful)" = false ]
	[ "$(report cells $c summary read_clat_p99_9_us meaningful)" = true ]
}

@test "steady state: rounds continue until a PTS window is met, figures from that window" {
	FAKE_FIO_IOPS=3000,2600,2200,1800,1500,1300,1300,1250,1000,1010,990,1005,995,5000 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --steady-state --out "$OUT"
	[ "$status" -eq 0 ]
	c=randread-4k-t1q1
	[ "$(report cells $c steady_state status)" = reached ]
	[ "$(report cells $c steady_state window)" = "[9, 13]" ]
	[ "$(report cells $c steady_state rounds)" = 13 ]
	[ "$(report cells $c summary iops median)" = 1000.0 ]
	[ "$(report cells $c summary iops min)" = 990.0 ]
	[ "$(report cells $c summary_rounds)" = "steady-state window" ]
	[ -f "$OUT/steady-$c.png" ]
	grep -q "reached (13 rounds)" "$OUT/bench.txt"
}

@test "steady state NOT reached after 25 rounds is said in the report" {
	FAKE_FIO_IOPS=$(python3 -c 'print(",".join(str(int(10000*0.95**i)) for i in range(30)))') \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 \
		--runtime 1 --steady-state --out "$OUT"
	[ "$status" -eq 0 ]
	c=randread-4k-t1q1
	[ "$(report cells $c steady_state status)" = "steady state NOT reached" ]
	[ "$(report cells $c steady_state rounds)" = 25 ]
	[ "$(wc -l <"$FAKE_FIO_LOG")" -eq 25 ]
	grep -q "steady state NOT reached (25 rounds)" "$OUT/bench.txt"
}

@test "--dry-run prints the fio jobs and runs nothing" {
	run --separate-stderr ssdt --dry-run bench ssdt0n1 --bs 4k --qd 1,32 \
		--rw 70/30 --ioengine io_uring --cpus 2-3 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ]
	[ ! -e "$FAKE_FIO_LOG" ]
	[ ! -e "$OUT" ]
	[[ "$output" == *"[rand-70r-4k-t1q32]"* ]]
	[[ "$output" == *"rw=randrw"*"rwmixread=70"* ]]
	[[ "$output" == *"ioengine=io_uring"* ]]
	[[ "$output" == *"cpus_allowed=2-3"* ]]
	[[ "$output" == *"filename=/dev/ssdt0n1"* ]]
}

@test "a write workload is refused without --destroy-data, in one line, running nothing" {
	run --separate-stderr ssdt bench ssdt0n1 --rw 65/35 --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to write to ssdt0n1 (write workload): bench destroys its data only with --destroy-data" ]
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "purge and precondition are refused without --destroy-data" {
	run --separate-stderr ssdt bench ssdt0n1 --purge --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"(purge): bench destroys its data only with --destroy-data" ]]
	run --separate-stderr ssdt bench ssdt0n1 --precondition --out "$OUT"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"(precondition): bench destroys its data only with --destroy-data" ]]
	run --separate-stderr ssdt --dry-run bench ssdt0n1 --suite pts-iops
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "destructive steps refuse a mounted device even with --destroy-data" {
	run --separate-stderr ssdt_with_mount "$SSDT_NS/dev" bench ssdt0n1 \
		--rw write --destroy-data --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: refusing to write to ssdt0n1: ssdt0n1 is mounted on $BATS_TEST_TMPDIR/mnt" ]]
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "read-only bench of a mounted device is allowed" {
	run --separate-stderr ssdt_with_mount "$SSDT_NS/dev" bench ssdt0n1 \
		--rounds 1 --bs 4k --qd 1 --out "$OUT"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$FAKE_FIO_LOG")" -eq 1 ]
}

@test "purge (blkdiscard, Format NVM out of reach) then the 2x sequential precondition run before the cells" {
	run --separate-stderr ssdt bench ssdt0n1 --purge --precondition \
		--destroy-data --rw 0/100 --bs 4k --qd 1 --rounds 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(sed -n 1p "$FAKE_FIO_LOG")" = "blkdiscard -f /dev/ssdt0n1" ]
	[ "$(sed -n 2p "$FAKE_FIO_LOG")" = "precondition rw=write bs=128k iodepth=32 numjobs=1 filename=/dev/ssdt0n1" ]
	[ "$(sed -n 3p "$FAKE_FIO_LOG")" = "randwrite-4k-t1q1 rw=randwrite bs=4096 iodepth=1 numjobs=1 filename=/dev/ssdt0n1" ]
	grep -q '^loops=2$' "$OUT/jobs/precondition.fio"
	[ "$(report purge)" = blkdiscard ]
	# ssdt() runs in a network namespace of its own: no ssdtune family
	[ "$(report purge_note)" = "no netlink family 'ssdtune' (ssdtune.ko not loaded)" ]
	[[ "$(report precondition method)" == "sequential 128k writes"* ]]
	[ "$(report method destroy_data)" = true ]
}

@test "a failing purge stops the run with one line" {
	FAKE_BLKDISCARD_FAIL="blkdiscard: Operation not supported" \
		run --separate-stderr ssdt bench ssdt0n1 --purge --destroy-data --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: purge of /dev/ssdt0n1 failed (blkdiscard exit 1): blkdiscard: Operation not supported" ]
}

# A /proc fixture with the vectors of ssdt0 (40, 41) and of nvme0 (42).
make_irqs() {
	PFX=$BATS_TEST_TMPDIR/proc
	mkdir -p "$PFX/irq/40" "$PFX/irq/41" "$PFX/irq/42"
	echo 0-1 >"$PFX/irq/40/smp_affinity_list"
	echo 1 >"$PFX/irq/41/smp_affinity_list"
	echo 1 >"$PFX/irq/41/effective_affinity_list"
	cat >"$PFX/interrupts" <<-'EOT'
	            CPU0       CPU1
	  40:          5          0  PCI-MSIX-0000:42:00.0   0-edge      ssdt0q0
	  41:        100        200  PCI-MSIX-0000:42:00.0   1-edge      ssdt0q1
	  42:          7          7  PCI-MSIX-0000:41:00.0   0-edge      nvme0q0
	 LOC:       1000       1000   Local timer interrupts
	EOT
	export FAKE_FIO_IRQS=$PFX/interrupts
}

# The read-only knobs of ssdt0 that bench records.
make_knobs() {
	echo host >"$SC/coalesce_mode"
	echo iops >"$SC/coalesce_profile"
	echo 32 >"$SC/coalesce_threshold"
	echo 100 >"$SC/coalesce_time_us"
	echo 0 >"$SC/power_limit_mw"
	echo auto >"$SC/power_limit_mode"
	echo 0 >"$SC/power_state"
	echo 40000 >"$SC/temperature_mc"
	echo 0 >"$SC/throttle_events"
	echo 5000 >"$SC/power_estimate_mw"
}

@test "ssdtune knobs, temperature and interrupts per I/O of the device's own vectors are recorded" {
	make_irqs
	make_knobs
	FAKE_FIO_IRQ_NAME=ssdt0q1 FAKE_FIO_IRQ_RATIO=0.25 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 8 --rounds 3 \
		--runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q8
	[ "$(report cells $c rounds 0 irq_per_io)" = 0.25 ]
	[ "$(report cells $c summary irq_per_io median)" = 0.25 ]
	[ "$(report device irqs)" = 2 ]
	[ "$(report host irqs 1 irq)" = 41 ]
	[ "$(report host irqs 1 affinity)" = 1 ]
	[ "$(report cells $c ssdtune coalesce_profile)" = iops ]
	[ "$(report cells $c ssdtune power_limit_mode)" = auto ]
	[ "$(report cells $c rounds 0 temperature_c)" = 40.0 ]
	[ "$(report cells $c rounds 0 power_estimate_mw)" = 5000.0 ]
	[ "$(report cells $c rounds 0 throttle_events)" = 0.0 ]
	[ "$(report cells $c suspect)" = false ]
}

@test "a round whose temperature reaches the warning threshold is marked suspect" {
	make_knobs
	FAKE_FIO_TEMP=$SC/temperature_mc FAKE_FIO_TEMP_MC=71500 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --out "$OUT"
	[ "$status" -eq 0 ]
	c=randread-4k-t1q1
	[ "$(report cells $c suspect)" = true ]
	[ "$(report cells $c rounds 0 suspect_reason)" = "temperature 71.5 C reached the 70.00 C warning threshold (default)" ]
	[ "$(report method temp_warn_source)" = default ]
	grep -q "SUSPECT" "$OUT/bench.txt"
	FAKE_FIO_TEMP=$SC/temperature_mc FAKE_FIO_TEMP_MC=71500 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --temp-warn 75 --out "$OUT.2"
	[ "$(report "$OUT.2/bench.json" cells $c suspect)" = false ]
	[ "$(report "$OUT.2/bench.json" method temp_warn_source)" = option ]
}

@test "the drive's own warning threshold (temperature_warn_mc, WCTEMP) is used when --temp-warn is not given" {
	make_knobs
	echo 69850 >"$SC/temperature_warn_mc"
	FAKE_FIO_TEMP=$SC/temperature_mc FAKE_FIO_TEMP_MC=69900 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q1
	[ "$(report method temp_warn_c)" = 69.85 ]
	[ "$(report method temp_warn_source)" = device ]
	[ "$(report cells $c rounds 0 suspect_reason)" = "temperature 69.9 C reached the 69.85 C warning threshold (device)" ]
	# --temp-warn still wins over the drive
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_TEMP=$SC/temperature_mc FAKE_FIO_TEMP_MC=69900 \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --temp-warn 80 --out "$OUT.2"
	[ "$(report "$OUT.2/bench.json" cells $c suspect)" = false ]
	[ "$(report "$OUT.2/bench.json" method temp_warn_c)" = 80.0 ]
}

@test "bench compare prints setting, metric, A, B and delta %; a gain inside the spread is noise" {
	FAKE_FIO_IOPS=1000,1010,990,1005,995 run ssdt bench ssdt0n1 --bs 4k --qd 1,8 \
		--rounds 5 --runtime 1 --out "$OUT.a"
	[ "$status" -eq 0 ]
	rm -rf "$FAKE_FIO_STATE"
	# QD1: +20% with tight runs; QD8: same series, so every figure is equal
	FAKE_FIO_IOPS=1200,1210,1190,1205,1195 run ssdt bench ssdt0n1 --bs 4k --qd 1 \
		--rounds 5 --runtime 1 --out "$OUT.b"
	[ "$status" -eq 0 ]
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=1050,800,1200,1100,900 run ssdt bench ssdt0n1 --bs 4k --qd 1 \
		--rounds 5 --runtime 1 --out "$OUT.c"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt bench compare "$OUT.a/bench.json" "$OUT.b/bench.json"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"setting"*"metric"*"A median [min..max]"*"B median [min..max]"*"delta %"* ]]
	echo "$output" | grep -E -q '^4k random read QD1x1 +IOPS +1000 \[990\.\.1010\] +1200 \[1190\.\.1210\] +\+20\.0% +better$'
	echo "$output" | grep -E -q '^4k random read QD1x1 +p99 us .* -16\.7% +better$'
	run --separate-stderr ssdt --json bench compare "$OUT.a/bench.json" "$OUT.c/bench.json"
	[ "$status" -eq 0 ]
	[ "$(json .rows.0.metric)" = iops ]
	[ "$(json .rows.0.delta_pct)" = 5.0 ]
	[ "$(json .rows.0.verdict)" = "within noise" ]
	[ "$(json .rows.0.a.n)" = 5 ]
	# three rounds a side, 20% apart and tight: too few for a verdict
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=1000,1010,990 run ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$OUT.d"
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=1200,1210,1190 run ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$OUT.e"
	run --separate-stderr ssdt --json bench compare "$OUT.d/bench.json" "$OUT.e/bench.json"
	[ "$status" -eq 0 ]
	[ "$(json .rows.0.verdict)" = "too few runs" ]
}

@test "bench compare refuses a file that is not a bench report, in one line" {
	echo '{"x": 1}' >"$BATS_TEST_TMPDIR/x.json"
	run --separate-stderr ssdt bench compare "$BATS_TEST_TMPDIR/x.json" "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: $BATS_TEST_TMPDIR/x.json is not an ssdtune bench report (no \"cells\")" ]
	run --separate-stderr ssdt bench compare "$BATS_TEST_TMPDIR/x.json"
	[ "$status" -eq 2 ]
	assert_one_error_line
}

@test "bad bench flags exit 2 with one line each" {
	local args
	for args in "--bs 3000" "--bs 2m" "--qd 0" "--qd 4x" "--rw 70/20" \
		"--ioengine sync" "--runtime x" "--rounds 26" "--suite foo" \
		"--random --seq" "--frobnicate" "--cpus a-b" "--jobs 0"; do
		# shellcheck disable=SC2086
		run --separate-stderr ssdt bench ssdt0n1 $args
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		assert_one_error_line || { echo "$args"; false; }
	done
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "fio too old or missing: one clear line" {
	FAKE_FIO_VERSION=fio-3.1 run --separate-stderr ssdt bench ssdt0n1 --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: fio-3.1 is too old: bench needs fio 3.26 or newer" ]
	mkdir "$BATS_TEST_TMPDIR/bin"
	for t in unshare sh mount id; do ln -s "$(command -v $t)" "$BATS_TEST_TMPDIR/bin/$t"; done
	no_fio() { PATH=$BATS_TEST_TMPDIR/bin ssdt "$@"; }
	run --separate-stderr no_fio bench ssdt0n1 --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: fio is not installed"* ]]
}

@test "a fio failure stops the run with fio's own line" {
	FAKE_FIO_FAIL="fio: pid=0, err=13/file:filesetup.c:805, func=open, error=Permission denied" \
		run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: fio failed (randread-4k-t1q1 round 1, exit 1): fio: pid=0, err=13/file:filesetup.c:805, func=open, error=Permission denied" ]
}

@test "--json prints the whole report on stdout" {
	run --separate-stderr ssdt --json bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --out "$OUT"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(json .command)" = bench ]
	[ "$(json .status)" = ok ]
	[ "$(json .cells.randread-4k-t1q1.summary.iops.median)" = 1000.0 ]
	[ "$(json .files.csv)" = "$OUT/bench.csv" ]
	[ "$(json .host.kernel)" = "$(uname -r)" ]
	[ "$(json .method.fio)" = fio-3.33 ]
}

@test "--ab runs baseline, apply, the tuned run, revert, then compares" {
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	run --separate-stderr ssdt bench ssdt0n1 --ab latency --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(cut -d' ' -f1-2 "$FAKE_FIO_LOG" | tr '\n' ';')" = \
	  "randread-4k-t1q1 rw=randread;randread-4k-t1q1 rw=randread;randread-4k-t1q1 rw=randread;apply --profile;randread-4k-t1q1 rw=randread;randread-4k-t1q1 rw=randread;randread-4k-t1q1 rw=randread;revert --state-dir;" ]
	# the bench's device only, and a state directory of the bench's own
	# inside apply's (never beside the output, which may be anywhere):
	# its revert puts back what the admin had applied
	grep -qx "apply --profile latency --state-dir $BATS_TEST_TMPDIR/default-state/bench-ab 0000:42:00.0" "$FAKE_FIO_LOG"
	grep -qx "revert --state-dir $BATS_TEST_TMPDIR/default-state/bench-ab" "$FAKE_FIO_LOG"
	[ -f "$OUT/baseline/bench.json" ]
	[ -f "$OUT/tuned/bench.json" ]
	[[ "$output" == *"A: $OUT/baseline/bench.json"* ]]
	# three rounds a side give no verdict
	[[ "$output" == *"too few runs"* ]]
}

@test "--ab: Ctrl-C during the tuned run stops it at the next round, reverts, and exits 130" {
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	FAKE_FIO_SIGNAL=2 run --separate-stderr ssdt bench ssdt0n1 --ab latency --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 130 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: interrupted by signal 2: interrupted before round 2 of randread-4k-t1q1 (what apply changed is reverted)" ]]
	[ "$(tail -1 "$FAKE_FIO_LOG")" = "revert --state-dir $BATS_TEST_TMPDIR/default-state/bench-ab" ]
	[ "$(grep -c rw=randread "$FAKE_FIO_LOG")" = 4 ]
}

@test "--ab: a failed (or killed) apply is reverted, and the bench stops with one line" {
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	FAKE_APPLY_EXIT=137 run --separate-stderr ssdt bench ssdt0n1 --ab latency --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: ssdtune apply --profile latency failed (exit 137) and was reverted; the baseline is in $OUT/baseline" ]]
	[ "$(tail -1 "$FAKE_FIO_LOG")" = "revert --state-dir $BATS_TEST_TMPDIR/default-state/bench-ab" ]
}

@test "--ab without apply/revert commands fails with one clear line before measuring" {
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	FAKE_SELF_MISSING=1 run --separate-stderr ssdt bench ssdt0n1 --ab latency --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: bench --ab needs the 'apply' and 'revert' commands, which this ssdtune does not have" ]
	[ ! -e "$FAKE_FIO_LOG" ]
}

# topo_disk: on a make_topo fixture, give ssdt0 (0000:41:00.0) a namespace
# ssdt0n1 so that bench can run on it.
topo_disk() {
	local d=devices/pci0000:40/0000:40:01.1/0000:41:00.0/block/ssdt0n1
	mkdir -p "$FX/$d"
	echo 2097152 >"$FX/$d/size"
	ln -s "../$d" "$FX/block/ssdt0n1"
}

@test "with a profile applied, fio runs on the I/O cores the profile plans for the device; --cpus wins" {
	make_topo 4n128c
	topo_disk
	STATE=$BATS_TEST_TMPDIR/state
	# nothing applied: fio is not placed
	run --separate-stderr ssdt bench ssdt0n1 --dry-run --json --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cpus_source"])')" = none ]
	[[ $output != *cpus_allowed* ]]
	run --separate-stderr ssdt plan --profile latency --json 0000:41:00.0
	io=$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["io_cpus"])')
	[ -n "$io" ]
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr ssdt bench ssdt0n1 --dry-run --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ $output == *"# fio on CPUs $io (the I/O cores of the applied profile)"* ]]
	[ "$(grep -c "^cpus_allowed=$io\$" <<<"$output")" -eq 4 ]	# 2 sizes x 2 depths
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 1 --runtime 1 \
		--out "$OUT" --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(report method cpus)" = "$io" ]
	[ "$(report method cpus_source)" = plan ]
	[ "$(report method cpus_profile)" = latency ]
	grep -qx "cpus_allowed=$io" "$OUT/jobs/randread-4k-t1q1.fio"
	# the host state is read where the load runs: the first I/O core's
	# governor (latency sets performance there), not cpu0's
	[ "$(report host state_cpu)" = "${io%%[-,]*}" ]
	[ "$(report host governor)" = performance ]
	[ "$(cat "$FX/devices/system/cpu/cpu0/cpufreq/scaling_governor")" != performance ]
	# --cpus wins over the plan
	run --separate-stderr ssdt bench ssdt0n1 --dry-run --json --cpus 3 --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["cpus_source"], v["cpus"])')" = "option 3" ]
}

@test "--cpus naming a CPU that is not online: one line, exit status 2, nothing run" {
	make_topo 1s8c
	run --separate-stderr ssdt bench --dry-run --cpus 6-9 --bs 4k --qd 1
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: bench: --cpus '6-9': CPUs 8-9 are not online (online: 0-7)"* ]]
	[ ! -e "${FAKE_FIO_LOG:-/nonexistent}" ]
}

@test "knobs changed by 'ssdtune set' are not a plan: fio is not placed" {
	make_topo 4n128c
	topo_disk
	STATE=$BATS_TEST_TMPDIR/state
	run --separate-stderr ssdt set ssdt0 power_limit_mw=5000 --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ -f "$STATE/state.json" ]
	run --separate-stderr ssdt bench ssdt0n1 --dry-run --json --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cpus_source"])')" = none ]
}

@test "purge of a namespace on nvme: Format NVM only through the device sysfs names, else blkdiscard" {
	# /dev/nvme0n1 here is the host's (or none), never the fixture's
	# 259:900000: the ioctl is not sent to it
	run --separate-stderr ssdt bench nvme0n1 --purge --destroy-data --bs 4k \
		--qd 1 --rounds 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(sed -n 1p "$FAKE_FIO_LOG")" = "blkdiscard -f /dev/nvme0n1" ]
	[ "$(report purge)" = blkdiscard ]
	note=$(report purge_note)
	[[ $note == "cannot open /dev/nvme0n1: "* || $note == "/dev/nvme0n1 is not the block device /sys/block/nvme0n1 names" ]]
}

@test "with a profile applied with --io-cores N, fio runs on those N cores (the plan is made again with the applied io_cores)" {
	make_topo 4n128c
	topo_disk
	STATE=$BATS_TEST_TMPDIR/state
	run --separate-stderr ssdt plan --profile latency --io-cores 2 --json 0000:41:00.0
	io=$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["io_cpus"])')
	run --separate-stderr ssdt plan --profile latency --json 0000:41:00.0
	all=$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["io_cpus"])')
	[ -n "$io" ]
	[ "$io" != "$all" ]
	run --separate-stderr ssdt apply --profile latency --io-cores 2 --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr ssdt bench ssdt0n1 --dry-run --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ $output == *"# fio on CPUs $io (the I/O cores of the applied profile)"* ]]
}

# several devices at once: ssdt0n1 (ssdtune) and nvme0n1 (stock) of the
# base fixture

@test "several devices run at once: one fio run, a reporting group each; the aggregate and each device" {
	run --separate-stderr ssdt bench ssdt0n1 nvme0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q1
	# one fio run per round, both devices in it, each its own group
	[ "$(grep -c "^$c.ssdt0n1 .*filename=/dev/ssdt0n1$" "$FAKE_FIO_LOG")" -eq 3 ]
	[ "$(grep -c "^$c.nvme0n1 .*filename=/dev/nvme0n1$" "$FAKE_FIO_LOG")" -eq 3 ]
	[ "$(ls "$OUT"/raw/$c-r0?.json | wc -l)" -eq 3 ]
	[ "$(grep -c '^new_group$' "$OUT/jobs/$c.fio")" -eq 2 ]
	# together: rates added, latency of the merged histograms
	[ "$(report cells $c rounds 0 iops)" = 2000.0 ]
	[ "$(report cells $c rounds 0 ios)" = 2000 ]
	[ "$(report cells $c rounds 0 clat_p99_us)" = 2000.0 ]
	[ "$(report cells $c summary iops median)" = 2000.0 ]
	# apart: each device's own group; fio's CPU per I/O (5 + 15% of 1 s)
	[ "$(report cells $c rounds 0 devices 1 name)" = nvme0n1 ]
	[ "$(report cells $c rounds 0 devices 1 iops)" = 1000.0 ]
	[ "$(report cells $c rounds 0 devices 0 mbps)" = 4.096 ]
	[ "$(report cells $c rounds 0 devices 0 clat_p50_us)" = 900.0 ]
	[ "$(report cells $c rounds 0 devices 0 fio_cpu_us_per_io)" = 200.0 ]
	[ "$(report cells $c devices ssdt0n1 iops median)" = 1000.0 ]
	[ "$(report cells $c devices nvme0n1 clat_p99_us median)" = 2000.0 ]
	[ "$(report cells $c devices nvme0n1 fio_cpu_us_per_io n)" = 3 ]
	[ "$(report devices 0 name)" = ssdt0n1 ]
	[ "$(report devices 1 driver)" = nvme ]
	[ "$(report devices 1 cpus_source)" = none ]
	[ "$(report method devices)" = 2 ]
	grep -Eq '^  ssdt0n1 +1000 ' "$OUT/bench.txt"
	grep -Eq '^  nvme0n1 +1000 ' "$OUT/bench.txt"
	grep -q '^ssdtune bench: 2 devices at once: /dev/ssdt0n1 (ssdtune, CPUs any), /dev/nvme0n1 (nvme, CPUs any)' "$OUT/bench.txt"
	# --devices is the same; the report is as the schema says
	rm -rf "$FAKE_FIO_STATE"
	run --separate-stderr ssdt --json bench --devices ssdt0n1,nvme0n1 --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT.2"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s' "$output" | "$REPO/tests/lib/json-schema-check" bench
	[ "$(json .cells.$c.rounds.0.iops)" = 2000.0 ]
	# one device: no "devices" anywhere, as before
	run --separate-stderr ssdt --json bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --out "$OUT.3"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(report "$OUT.3/bench.json" cells $c rounds 0 devices 2>/dev/null || echo none)" = none ]
	! grep -q new_group "$OUT.3/jobs/$c.fio"
}

@test "--scale runs 1, 2 .. N devices in turn: the aggregate over k x one device alone, and scaling.png" {
	# each of two devices at once reaches 80% of what one alone does
	FAKE_FIO_SHARE=1,0.8 run --separate-stderr ssdt bench ssdt0n1 nvme0n1 --scale \
		--bs 4k --qd 1 --rounds 3 --runtime 1 --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q1
	[ "$(grep -c '^new_group$' "$OUT/jobs/$c-d1.fio")" -eq 1 ]
	grep -q 'filename=/dev/ssdt0n1' "$OUT/jobs/$c-d1.fio"
	[ "$(wc -l <"$FAKE_FIO_LOG")" -eq 9 ]	# 3 rounds of 1, then of 2
	[ "$(report cells $c scaling 0 devices)" = 1 ]
	[ "$(report cells $c scaling 0 summary iops median)" = 1000.0 ]
	[ "$(report cells $c scaling 0 normalized_iops)" = 1.0 ]
	[ "$(report cells $c scaling 1 devices)" = 2 ]
	[ "$(report cells $c scaling 1 summary iops median)" = 1600.0 ]
	[ "$(report cells $c scaling 1 normalized_iops)" = 0.8 ]
	[ "$(report cells $c scaling 1 normalized_mbps)" = 0.8 ]
	[ "$(report cells $c scaling 1 device_summary nvme0n1 iops median)" = 800.0 ]
	# the cell's own figures are those of all the devices
	[ "$(report cells $c summary iops median)" = 1600.0 ]
	[ "$(report method scale)" = true ]
	grep -Eq '^ +2 +1600 +6\.6 .* 0\.80 +0\.80$' "$OUT/bench.txt"
	[ -s "$OUT/scaling.png" ]
	[[ "$(report files plots)" == *scaling.png* ]]
}

@test "with a profile applied, each device's fio job runs on that device's own I/O cores" {
	make_topo 4n128c
	STATE=$BATS_TEST_TMPDIR/state
	# ssdt0 (node 1) and the stock nvme1 (node 3): I/O cores of their own
	run --separate-stderr ssdt plan --profile latency --json
	io=$(printf '%s' "$output" | python3 -c 'import json,sys; print([d for d in json.load(sys.stdin)["devices"] if d["driver"] == "ssdtune"][0]["io_cpus"])')
	io1=$(printf '%s' "$output" | python3 -c 'import json,sys; print([d for d in json.load(sys.stdin)["devices"] if d["driver"] == "nvme"][0]["io_cpus"])')
	[ -n "$io" ] && [ -n "$io1" ] && [ "$io" != "$io1" ]
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr ssdt bench ssdt0n1 nvme1n1 --bs 4k --qd 1 --rounds 1 \
		--runtime 1 --out "$OUT" --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	c=randread-4k-t1q1
	grep -qx "$c.ssdt0n1 rw=randread bs=4096 iodepth=1 numjobs=1 filename=/dev/ssdt0n1 cpus_allowed=$io" "$FAKE_FIO_LOG"
	grep -qx "$c.nvme1n1 rw=randread bs=4096 iodepth=1 numjobs=1 filename=/dev/nvme1n1 cpus_allowed=$io1" "$FAKE_FIO_LOG"
	[ "$(report devices 0 cpus)" = "$io" ]
	[ "$(report devices 0 cpus_source)" = plan ]
	[ "$(report devices 1 cpus)" = "$io1" ]
	[ "$(report method cpus_source)" = plan ]
	[ "$(report method cpus_profile)" = latency ]
	# --cpus puts every job there
	run --separate-stderr ssdt bench ssdt0n1 nvme1n1 --dry-run --cpus 3 --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep -c '^cpus_allowed=3$' <<<"$output")" -eq 8 ]	# 4 cells x 2 devices
}

@test "several devices: bad combinations exit 2 with one line, running nothing" {
	local args
	for args in "ssdt0n1 --scale" "ssdt0n1 ssdt0n1" "ssdt0n1 /dev/ssdt0n1" \
		"ssdt0n1 nvme0n1 --ab latency" "ssdt0n1 nvme0n1 --purge --destroy-data" \
		"ssdt0n1 nvme0n1 --suite pts-iops --destroy-data" "ssdt0n1 --devices nvme0n1" \
		"--devices ," "--devices ssdt0n1 --devices nvme0n1"; do
		# shellcheck disable=SC2086
		run --separate-stderr ssdt bench $args --out "$OUT"
		[ "$status" -eq 2 ] || { echo "$args: status $status: $stderr"; false; }
		assert_one_error_line || { echo "$args"; false; }
	done
	[ ! -e "$FAKE_FIO_LOG" ]
	# a write on several devices checks each of them
	run --separate-stderr ssdt bench ssdt0n1 nvme0n1 --rw write --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
}

# --suite qos: a QD1 4k random reader beside a rate-capped writer.  The
# stand-in's writer does min(its IOPS, rate / bs); FAKE_FIO_INTERFERE
# slows a reader by 1 + k x the MB/s the other jobs write.

# qos_check: the curve of $OUT/bench.json follows the stand-in's model:
# the writer reaches its target, the reader's IOPS fall as 1 / (1 + k W),
# its mean is 1/IOPS and its p50 0.9x that, and p99 rises with the rate.
qos_check() {
	python3 - "$OUT/bench.json" "$1" <<-'PY'
	import json, sys
	rep, k = json.load(open(sys.argv[1])), float(sys.argv[2])
	q = rep["qos"]
	bw, last = q["bandwidth_mbps"], None
	for row in q["curve"]:
	    c = rep["cells"][row["cell"]]
	    lvl = row["level_pct"]
	    assert abs(row["writer_target_mbps"] - bw * lvl / 100) < 1e-6, row
	    assert abs(row["write_mbps"] - row["writer_target_mbps"]) < 1e-6, row
	    want = 1000 / (1 + k * row["write_mbps"])
	    assert abs(row["read_iops"] - want) < 1e-6, (row, want)
	    mean = c["summary"]["read_clat_mean_us"]["median"]
	    assert abs(mean - 1e6 / row["read_iops"]) < 1e-3, (row, mean)
	    assert abs(row["read_clat_p50_us"] - 0.9 * mean) < 1e-2, row
	    assert row["meaningful"]["read_clat_p99_9_us"] is False, row
	    if last is not None:
	        assert row["read_clat_p99_us"] > last, row
	    last = row["read_clat_p99_us"]
	    assert c["qos"]["level_pct"] == lvl and c["rw"] == "randread" and c["qd"] == 1
	print("ok")
	PY
}

@test "qos: the writer alone first, then a QD1 reader beside it at 0, 25, 50 and 100% of that bandwidth" {
	FAKE_FIO_INTERFERE=0.01 run --separate-stderr ssdt bench ssdt0n1 --suite qos \
		--runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# the bandwidth run (the writer alone, no cap), then 3 rounds a cell
	[ "$(sed -n 1p "$FAKE_FIO_LOG")" = "qos-seq128k-bw.writer rw=write bs=131072 iodepth=32 numjobs=1 filename=/dev/ssdt0n1 cpus_allowed=1-3" ]
	[ "$(grep -c '^qos-seq128k-w0.reader ' "$FAKE_FIO_LOG")" -eq 3 ]
	! grep -q '^qos-seq128k-w0.writer' "$FAKE_FIO_LOG"
	[ "$(grep -c '^qos-seq128k-w50.writer ' "$FAKE_FIO_LOG")" -eq 3 ]
	[ "$(report cells | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)))')" = \
	  "qos-seq128k-w0 qos-seq128k-w25 qos-seq128k-w50 qos-seq128k-w100" ]
	[ "$(report qos bandwidth_source)" = measured ]
	bw=$(report qos bandwidth mbps)
	[ "$bw" = 131.072 ]	# 1000 IOPS of 128 KiB alone
	# each cell one fio run: the reader and the writer in groups of their
	# own, the writer capped at its share of what it wrote alone
	j=$OUT/jobs/qos-seq128k-w25.fio
	[ "$(grep -c '^new_group$' "$j")" -eq 1 ]
	[ "$(grep -c '^\[' "$j")" -eq 3 ]	# [global], reader, writer
	grep -q '^\[qos-seq128k-w25.reader\]$' "$j"
	sed -n '/^\[qos-seq128k-w25.writer\]$/,$p' "$j" | grep -qx 'new_group'
	grep -qx "rate=$(python3 -c "print(round($bw * 1e6 * 25 / 100))")" "$j"
	grep -qx "rate=$(python3 -c "print(round($bw * 1e6))")" "$OUT/jobs/qos-seq128k-w100.fio"
	! grep -q '^rate=' "$OUT/jobs/qos-seq128k-w0.fio"
	[ "$(grep -c '^\[' "$OUT/jobs/qos-seq128k-w0.fio")" -eq 2 ]
	# the reader on a CPU of its own: the device's node (0-3) split
	[ "$(report qos reader_cpus)" = 0 ]
	[ "$(report qos writer_cpus)" = 1-3 ]
	[ "$(report qos cpus_from)" = node ]
	grep -qx "qos-seq128k-w25.reader rw=randread bs=4096 iodepth=1 numjobs=1 filename=/dev/ssdt0n1 cpus_allowed=0" "$FAKE_FIO_LOG"
	grep -q "^qos-seq128k-w25.writer rw=write bs=131072 iodepth=32 numjobs=1 filename=/dev/ssdt0n1 cpus_allowed=1-3 rate=" "$FAKE_FIO_LOG"
	[ "$(report host state_cpu)" = 0 ]
	# the curve, and the model behind it
	[ "$(qos_check 0.01)" = ok ]
	[ "$(report qos curve 0 write_mbps)" = 0.0 ]
	[ "$(report qos curve 0 trim_mbps)" = null ]
	[ "$(report cells qos-seq128k-w0 qos writer_cpus)" = null ]
	[ "$(report cells qos-seq128k-w50 rounds 0 write_mbps)" = 65.536 ]
	[ "$(report cells qos-seq128k-w50 summary read_clat_p99_us n)" = 3 ]
	[ "$(report method suite)" = qos ]
	[ "$(report method runtime_s)" = 1 ]
	# the table: target and achieved MB/s, the reader's IOPS and tail
	grep -q '^qos: 4k random reads QD1 on CPU 0 (node) beside seq128k writes QD32 on CPUs 1-3 (node)$' "$OUT/bench.txt"
	grep -Eq '^qos-seq128k-w0 +0 +0\.0 +0\.0 +1000 +900\.0 +2000\.0 ' "$OUT/bench.txt"
	grep -Eq "^qos-seq128k-w50 +50 +65\.5 +65\.5 +$(report qos curve 2 read_iops | python3 -c 'print(round(float(input())))') " "$OUT/bench.txt"
	# qos.csv: a row per round
	[ "$(head -n 1 "$OUT/qos.csv")" = "cell,level_pct,writer,trim,round,writer_target_mbps,write_mbps,trim_mbps,read_iops,read_clat_p50_us,read_clat_p99_us,read_clat_p99_9_us,read_clat_p99_99_us,read_meaningful_pct,suspect" ]
	[ "$(tail -n +2 "$OUT/qos.csv" | wc -l)" -eq 12 ]
	grep -q '^qos-seq128k-w100,100,seq128k,no,3,131.072,131.072,,' "$OUT/qos.csv"
	# and the curve as a PNG, in place of the QD plots
	[ -s "$OUT/qos-latency.png" ]
	[[ "$(report files plots)" == '["qos-latency.png"]' ]]
	[ "$(report files qos_csv)" = "$OUT/qos.csv" ]
	[ "$(wc -l <"$OUT/qos-curve.dat")" -eq 4 ]
	[[ "$output" == *"bench: qos: the seq128k writer alone: 131.1 MB/s"* ]]
}

@test "qos: a reader without interference sees the same latency at every rate (the check can tell)" {
	run --separate-stderr ssdt bench ssdt0n1 --suite qos --runtime 1 --rounds 1 \
		--destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	# a flat curve: the model check of the test above must refuse it
	run qos_check 0.01
	[ "$status" -ne 0 ]
	[ "$(report qos curve 3 read_iops)" = 1000.0 ]
}

@test "qos --qos-writer rand4k --qos-trim: random 4k writes, and a trim job in a third group at the same rate" {
	FAKE_FIO_INTERFERE=0.05 run --separate-stderr ssdt bench ssdt0n1 --suite qos \
		--qos-writer rand4k --qos-trim --runtime 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(sed -n 1p "$FAKE_FIO_LOG")" = "qos-rand4k-bw.writer rw=randwrite bs=4096 iodepth=32 numjobs=1 filename=/dev/ssdt0n1 cpus_allowed=1-3" ]
	[ "$(report qos bandwidth mbps)" = 4.096 ]
	j=$OUT/jobs/qos-rand4k-trim-w50.fio
	[ "$(grep -c '^new_group$' "$j")" -eq 2 ]
	sed -n '/^\[qos-rand4k-trim-w50.trim\]$/,$p' "$j" >"$BATS_TEST_TMPDIR/trim"
	grep -qx 'rw=randtrim' "$BATS_TEST_TMPDIR/trim"
	grep -qx 'new_group' "$BATS_TEST_TMPDIR/trim"
	grep -qx 'rate=2048000' "$BATS_TEST_TMPDIR/trim"
	grep -qx 'cpus_allowed=1-3' "$BATS_TEST_TMPDIR/trim"
	grep -qx 'rw=randwrite' "$j"
	# no writer and no trims at 0%
	! grep -q 'randtrim' "$OUT/jobs/qos-rand4k-trim-w0.fio"
	[ "$(report cells qos-rand4k-trim-w50 rounds 0 trim_mbps)" = 2.048 ]
	[ "$(report cells qos-rand4k-trim-w50 rounds 0 trim_ios)" = 500 ]
	[ "$(report cells qos-rand4k-trim-w50 summary trim_mbps median)" = 2.048 ]
	[ "$(report cells qos-rand4k-trim-w0 rounds 0 trim_mbps)" = null ]
	[ "$(report qos curve 3 trim_mbps)" = 4.096 ]
	[ "$(report qos curve 0 trim_mbps)" = 0.0 ]
	[ "$(report qos trim)" = true ]
	[ "$(report qos writer)" = rand4k ]
	# trims are not writes: the reader slows by the writer's MB/s alone
	[ "$(qos_check 0.05)" = ok ]
	grep -q 'trim MB/s' "$OUT/bench.txt"
	grep -q '^qos-rand4k-trim-w100,100,rand4k,yes,1,4.096,4.096,4.096,' "$OUT/qos.csv"
}

@test "qos --qos-bw: the levels are shares of the given MB/s, nothing is measured; a dry run shows the rates" {
	run --separate-stderr ssdt bench ssdt0n1 --suite qos --qos-bw 100 --runtime 1 \
		--rounds 1 --destroy-data --out "$OUT"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	! grep -q -- '-bw.writer' "$FAKE_FIO_LOG"
	[ "$(report qos bandwidth_source)" = option ]
	[ "$(report qos bandwidth)" = null ]
	[ "$(report qos bandwidth_mbps)" = 100.0 ]
	grep -qx 'rate=50000000' "$OUT/jobs/qos-seq128k-w50.fio"
	# the stand-in writes at most 131 MB/s: 100% is reached
	[ "$(report qos curve 3 write_mbps)" = 100.0 ]
	rm -f "$FAKE_FIO_LOG"
	run --separate-stderr ssdt --dry-run bench ssdt0n1 --suite qos --qos-bw 100 --destroy-data
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ ! -e "$FAKE_FIO_LOG" ]
	[[ "$output" == *"# qos: the cells' 100% is 100 MB/s (--qos-bw)"* ]]
	[[ "$output" == *"rate=25000000"* ]]
	# without it the dry run cannot know the rates, and says so
	run --separate-stderr ssdt --dry-run bench ssdt0n1 --suite qos --destroy-data
	[ "$status" -eq 0 ]
	[[ "$output" == *"# qos: reader on CPU 0 (node), writer on CPUs 1-3 (node)"* ]]
	[[ "$output" == *"[qos-seq128k-bw.writer]"* ]]
	[[ "$output" == *"rate=<25% of the measured write bandwidth, bytes/s>"* ]]
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "qos writes: refused without --destroy-data, in one line, running nothing" {
	run --separate-stderr ssdt bench ssdt0n1 --suite qos --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: refusing to write to ssdt0n1 (qos writer): bench destroys its data only with --destroy-data" ]
	run --separate-stderr ssdt --dry-run bench ssdt0n1 --suite qos --qos-bw 10
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ ! -e "$FAKE_FIO_LOG" ]
	[ ! -e "$OUT" ]
}

@test "qos: --cpus is split between the reader and the writer; a single CPU leaves the writer the node's others" {
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --suite qos --cpus 2-3 --destroy-data
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(json .qos.reader_cpus)" = 2 ]
	[ "$(json .qos.writer_cpus)" = 3 ]
	[ "$(json .qos.cpus_from)" = option ]
	[ "$(json .qos.writer_cpus_from)" = option ]
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --suite qos --cpus 2 --destroy-data
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(json .qos.reader_cpus)" = 2 ]
	[ "$(json .qos.writer_cpus)" = 0-1,3 ]
	[ "$(json .qos.writer_cpus_from)" = node ]
	[[ "$(json .jobs.1.job)" == *"cpus_allowed=2"*"cpus_allowed=0-1,3"* ]]
	# a host of one CPU has none for the writer: one line, nothing run
	echo 0 >"$(fx_dev 2)/local_cpulist"
	mkdir -p "$FX/devices/system/cpu"
	echo 0 >"$FX/devices/system/cpu/online"
	run --separate-stderr ssdt bench ssdt0n1 --suite qos --destroy-data --out "$OUT"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: bench --suite qos needs a CPU for the writer apart from the reader's (CPU 0), and this host has no other online" ]
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "qos with a profile applied: the reader on the first of its I/O cores, the writer on the others" {
	make_topo 4n128c
	topo_disk
	STATE=$BATS_TEST_TMPDIR/state
	run --separate-stderr ssdt plan --profile throughput --json 0000:41:00.0
	io=$(printf '%s' "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["io_cpus"])')
	[ -n "$io" ]
	run --separate-stderr ssdt apply --profile throughput --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --suite qos --destroy-data \
		--state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(json .qos.cpus_from)" = plan ]
	# the reader's CPU and the writer's are the plan's, and apart
	python3 - "$io" "$(json .qos.reader_cpus)" "$(json .qos.writer_cpus)" "$(json .qos.writer_cpus_from)" <<-'PY'
	import sys
	def cpus(s):
	    out = set()
	    for part in s.split(","):
	        a, _, b = part.partition("-")
	        out |= set(range(int(a), int(b or a) + 1))
	    return out
	io, r, w, wfrom = cpus(sys.argv[1]), cpus(sys.argv[2]), cpus(sys.argv[3]), sys.argv[4]
	assert r == {min(io)}, (io, r)
	assert not r & w, (r, w)
	if len(io) > 1:
	    assert w == io - r and wfrom == "plan", (io, w, wfrom)
	else:
	    assert wfrom == "online", wfrom
	PY
}

@test "qos: options that do not go with it, or it with them, exit 2 with one line" {
	local args
	for args in "--suite qos --bs 4k" "--suite qos --qd 1" "--suite qos --rw write" \
		"--suite qos --jobs 2" "--suite qos --seq" "--qos-trim" "--qos-writer rand4k" \
		"--qos-bw 100" "--suite qos --qos-writer seq4k" "--suite qos --qos-bw 0" \
		"--suite qos --qos-bw x" "--suite qos nvme0n1"; do
		# shellcheck disable=SC2086
		run --separate-stderr ssdt bench ssdt0n1 $args --destroy-data --out "$OUT"
		[ "$status" -eq 2 ] || { echo "$args: status $status: $stderr"; false; }
		assert_one_error_line || { echo "$args"; false; }
	done
	[ ! -e "$FAKE_FIO_LOG" ]
}

@test "bench compare of two qos runs: the reader's figures per rate, and the bandwidths that differ" {
	FAKE_FIO_INTERFERE=0.01 run ssdt bench ssdt0n1 --suite qos --runtime 1 --destroy-data --out "$OUT.a"
	[ "$status" -eq 0 ]
	rm -rf "$FAKE_FIO_STATE"
	FAKE_FIO_IOPS=2000 FAKE_FIO_INTERFERE=0.01 run ssdt bench ssdt0n1 --suite qos --runtime 1 \
		--destroy-data --out "$OUT.b"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt --json bench compare "$OUT.a/bench.json" "$OUT.b/bench.json"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf '%s' "$output" | python3 -c '
import json, sys
v = json.load(sys.stdin)
ms = {r["metric"] for r in v["rows"]}
assert ms == {"read_iops", "read_clat_p50_us", "read_clat_p99_us", "read_clat_p99_9_us",
              "read_clat_p99_99_us", "write_mbps"}, ms
s = {r["setting"]: (r["a"], r["b"]) for r in v["settings"]}
assert s["qos bandwidth MB/s"] == ("131.1", "262.1"), s
cells = {r["cell"] for r in v["rows"]}
assert cells == {"qos-seq128k-w0", "qos-seq128k-w25", "qos-seq128k-w50", "qos-seq128k-w100"}, cells'
}
