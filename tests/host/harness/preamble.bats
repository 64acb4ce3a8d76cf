#!/usr/bin/env bats
# scripts/vm-preamble.sh, the shared start of make demo and the benches:
# without a built module each script says so in one line, prefixed with
# its name, exits 1 and boots nothing.

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)

@test "demo and every bench without a built module: one line naming the module and 'make modules', exit 1" {
	local s name k path
	k=$("$REPO/scripts/kvers.sh" | tail -n 1)
	[ -n "$k" ]
	for s in demo bench bench-stages bench-coalesce bench-power bench-noisy bench-irq; do
		case $s in
		demo) path=scripts/demo.sh ;;
		bench) path=scripts/bench/bench.sh ;;
		*) path=scripts/bench/${s#bench-}.sh ;;
		esac
		run --separate-stderr env BUILD="$BATS_TEST_TMPDIR/empty" "$REPO/$path"
		[ "$status" -eq 1 ] || { echo "$s: exit $status"; false; }
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ] || { echo "$s: $stderr"; false; }
		[ "$stderr" = "$s: $BATS_TEST_TMPDIR/empty/kmod-$k/ssdtune.ko is missing (run: make modules)" ] ||
			{ echo "$s: $stderr"; false; }
	done
	[ ! -e "$BATS_TEST_TMPDIR/empty" ]
}

@test "a kernel named that has no module: the script names that kernel" {
	run --separate-stderr env DEMO_KVER=0.0-none "$REPO/scripts/demo.sh"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "demo: "*"/kmod-0.0-none/ssdtune.ko is missing (run: make modules)" ]]
}
