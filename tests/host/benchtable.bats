#!/usr/bin/env bats
# tests/vm/lib/benchtable.py (make bench's table) on made-up raw runs: the
# verdict on "IOPS ratio >= 1.00" comes from the interval of the median of
# per-round ratios, not from the median alone.

TABLE="$BATS_TEST_DIRNAME/../vm/lib/benchtable.py"

# raw ROUNDS ARM=FACTOR...: nvme at 1000 IOPS (+10 per round, so rounds
# differ), each ARM at FACTOR times it, FACTORs taken round by round from
# a comma list.
raw() {
	local n=$1 r arm f i
	shift
	for r in $(seq 1 "$n"); do
		echo "round=$r nvme qd=32 jobs=1 iops=$((1000 + 10 * r)) mean_us=100 p99_us=200 irq_per_io=0.300 err=0"
		for arm in "$@"; do
			IFS=, read -ra f <<<"${arm#*=}"
			i=$(((r - 1) % ${#f[@]}))
			echo "round=$r ${arm%%=*} qd=32 jobs=1 iops=$(awk -v a=$((1000 + 10 * r)) -v b="${f[$i]}" 'BEGIN { print a * b }') mean_us=100 p99_us=200 irq_per_io=0.001 err=0"
		done
	done >"$BATS_TEST_TMPDIR/raw"
}

@test "every round ahead: met, with the interval printed" {
	raw 9 ssdtune=1.05,1.10,1.20
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"ssdtune/nvme"*"<- met; 96% CI 1.05-1.20, >= 1.00 in 9 of 9 rounds"* ]]
}

@test "every round behind: NOT met" {
	raw 7 ssdtune=0.90,0.95
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"<- NOT met; 98% CI 0.90-0.95, >= 1.00 in 0 of 7 rounds"* ]]
}

@test "a median above 1.00 with rounds on both sides is not resolved, not met" {
	raw 7 ssdtune=1.10,0.80,1.05
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"ssdtune/nvme                  7     1.050"* ]]
	[[ $output == *"<- not resolved (1.00 inside the interval); 98% CI 0.80-1.10, >= 1.00 in 5 of 7 rounds"* ]]
	[[ $output != *"<- met"* ]]
}

@test "too few rounds for an interval say so" {
	raw 3 ssdtune=1.5
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"<- not resolved: 3 round(s) are too few for an interval"* ]]
}

@test "each ssdtune arm gets its own ratio row against nvme" {
	raw 5 ssdtune=1.0 ssdtune+adaptive=1.25
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"ssdtune/nvme                  5     1.000"* ]]
	[[ $output == *"ssdtune+adaptive/nvme         5     1.250"*"<- met; 94% CI 1.25-1.25"* ]]
	[ "$(grep -c '^QD32 j1 .*/nvme ' <<<"$output")" -eq 2 ]
}

@test "raw files joined by commas pool their rounds" {
	raw 5 ssdtune=1.2
	mv "$BATS_TEST_TMPDIR/raw" "$BATS_TEST_TMPDIR/a"
	raw 4 ssdtune=0.9
	run python3 "$TABLE" "$BATS_TEST_TMPDIR/a,$BATS_TEST_TMPDIR/raw" k 5
	[ "$status" -eq 0 ]
	[[ $output == *"QD32 j1   nvme                          9 "* ]]
	[[ $output == *"<- not resolved (1.00 inside the interval); 96% CI 0.90-1.20, >= 1.00 in 5 of 9 rounds"* ]]
}
