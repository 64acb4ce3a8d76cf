#!/usr/bin/env bats
# scripts/summary.sh, the last step of make check: a suite's results from
# a results directory made up here (nothing of the real build/results).

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)

setup() {
	KVERS=$("$REPO/scripts/kvers.sh") || skip "scripts/kvers.sh names no kernel"
	export BUILD=$BATS_TEST_TMPDIR/build
	mkdir -p "$BUILD/results"
	for s in build kunit deb host; do
		printf '1..2\nok 1 a in 10ms\nok 2 b in 20ms\n' >"$BUILD/results/$s.tap"
	done
	# make check's boot of four controllers, on the last kernel
	printf '1..1\nok 1 m in 10ms\n' >"$BUILD/results/vm-many-$(echo "$KVERS" | tail -n 1).tap"
}

@test "summary: every suite passed: the last line counts them and the exit is 0" {
	local k n=9
	for k in $KVERS; do
		printf '1..1\nok 1 c in 30ms\n' >"$BUILD/results/vm-$k.tap"
		n=$((n + 1))
	done
	run -0 env CHECK_SCOPE=check "$REPO/scripts/summary.sh"
	[ "${lines[-1]}" = "$n passed, 0 failed" ]
}

@test "summary: a VM boot that did not finish counts its partial results and one failure, and names its last test" {
	local k first="" n=9
	for k in $KVERS; do
		if [ -z "$first" ]; then
			first=$k
			printf '1..5\nok 1 c in 30ms\nnot ok 2 d in 40ms\nok 3 the last one in 50ms\n' \
				>"$BUILD/results/vm-$k.tap.partial"
			n=$((n + 2))
		else
			printf '1..1\nok 1 c in 30ms\n' >"$BUILD/results/vm-$k.tap"
			n=$((n + 1))
		fi
	done
	run -1 env CHECK_SCOPE=check "$REPO/scripts/summary.sh"
	[[ $output == *"vm-$first: DID NOT FINISH: 2 passed, 1 failed before the run ended (last: ok 3 the last one in 50ms)"* ]]
	[[ $output == *"    not ok 2 d in 40ms"* ]]
	[ "${lines[-1]}" = "$n passed, 2 failed" ]
}

@test "summary: a suite with neither a .tap nor a partial one did not run: one failure" {
	run -1 env CHECK_SCOPE=check "$REPO/scripts/summary.sh"
	[[ $output == *"vm-$(echo "$KVERS" | head -n 1): DID NOT RUN"* ]]
	[ "${lines[-1]}" = "9 passed, $(echo "$KVERS" | wc -w) failed" ]
}

@test "summary: make check expects the boot of four controllers on the last kernel" {
	local k
	for k in $KVERS; do printf '1..1\nok 1 c in 30ms\n' >"$BUILD/results/vm-$k.tap"; done
	rm "$BUILD/results/vm-many-$(echo "$KVERS" | tail -n 1).tap"
	run -1 env CHECK_SCOPE=check "$REPO/scripts/summary.sh"
	[[ $output == *"vm-many-$(echo "$KVERS" | tail -n 1): DID NOT RUN"* ]]
}
