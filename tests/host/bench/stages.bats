#!/usr/bin/env bats
# scripts/bench/stages.py (make bench-stages) on a made-up function_graph
# trace: nesting, a closing brace whose opening the buffer lost, the
# per-I/O figures and the driver's own share; the table's ratios.

STAGES="$BATS_TEST_DIRNAME/../../../scripts/bench/stages.py"
TRACE="$BATS_TEST_DIRNAME/../fixtures/stages/graph.trace"

@test "stages.py run: per-I/O time of each stage from a nested trace" {
	run python3 "$STAGES" run nvme "$TRACE"
	echo "$output"
	[ "$status" -eq 0 ]
	# 2 I/Os over a 100 us span; nvme_queue_rqs 10 us and 11 us (the
	# second closed by a tail comment only); the interrupt nested 14/12/8
	for kv in label=nvme ios=2 span=50.00 enter=10.00 blk_submit=5.50 \
		drv_submit=10.50 dma_map=1.00 start_rq=0.50 hardirq=7.00 \
		drv_irq=6.00 drv_batch=4.00 blk_end=2.00 dma_unmap=0.50 tick=0.00 \
		irq_per_io=0.500; do
		[[ " $output " == *" $kv "* ]] || { echo "missing $kv"; false; }
	done
}

@test "stages.py run: a trace without a block-layer submission is an error" {
	head -n 4 "$TRACE" >"$BATS_TEST_TMPDIR/empty.trace"
	run python3 "$STAGES" run nvme "$BATS_TEST_TMPDIR/empty.trace"
	[ "$status" -ne 0 ]
	[[ $output == *"no blk_mq_submit_bio call"* ]]
}

@test "stages.py table: medians per driver, ssdtune/nvme ratios and the driver's own share" {
	for r in 1 2 3; do
		python3 "$STAGES" run nvme "$TRACE" | sed "s/^/round=$r /"
		python3 "$STAGES" run nvme "$TRACE" | sed "s/^/round=$r /; s/label=nvme/label=ssdtune/; s/drv_submit=10.50/drv_submit=21.00/; s/span=50.00/span=60.50/"
	done >"$BATS_TEST_TMPDIR/raw"
	run python3 "$STAGES" table "$BATS_TEST_TMPDIR/raw"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"medians over 3 runs each"* ]]
	# drv_submit doubles; own = 10.5 - 1 - 0.5 + 6 - 2 - 0.5 = 12.5 for
	# nvme, 23.0 for ssdtune
	echo "$output" | grep -Eq '^drv_submit +10\.50 +21\.00 +2\.00 '
	echo "$output" | grep -Eq '^own +12\.50 +23\.00 +1\.84 '
	[[ $output == *"nvme: the driver's own code is 25.0% of the traced time per I/O"* ]]
	[[ $output == *"ssdtune: the driver's own code is 38.0% of the traced time per I/O"* ]]
}

@test "stages.py table: runs of only one driver are an error" {
	python3 "$STAGES" run nvme "$TRACE" >"$BATS_TEST_TMPDIR/raw"
	run python3 "$STAGES" table "$BATS_TEST_TMPDIR/raw"
	[ "$status" -ne 0 ]
	[[ $output == *"needs runs of nvme and ssdtune"* ]]
}
