#!/bin/sh
# Summarise $BUILD/results/<suite>.tap for every suite the run expects:
# build, kunit, deb, host, and for each kernel scripts/kvers.sh names vm-<kver>
# and, in make check-full (CHECK_SCOPE=full), vm-subsys-<kver>,
# vm-many-<kver>, vm-subsys-q10-<last kver> (with QEMU 10 unpacked) and
# fuzz; make check has vm-many-<last kver> alone.
# One line per suite ("suite: P passed, F failed" or "suite: DID NOT RUN",
# failing cases listed under it); then where the time went: each suite's
# wall time ($BUILD/results/times, and times.vm per VM boot), the 10
# slowest tests and the 10 slowest VM test files; then as the last line
# "N passed, M failed".
# A suite without a .tap file, or whose .tap holds no test, counts as one
# failure (a VM boot that did not finish: its .tap.partial's results
# count, and the unfinished suite is one more failure); so do tests a plan
# line promises but the file lacks, and skipped tests (a skip proves
# nothing).  Exits non-zero iff M > 0.
#
#   CHECK_SCOPE=check|full   which suites are expected (default check)
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
RESULTS=$BUILD/results
scope=${CHECK_SCOPE:-check}

suites="build kunit deb host"
# make check-full runs the fuzz of the tool's inputs (scripts/fuzz.sh)
[ "$scope" = full ] && suites="$suites fuzz"
if kvers=$("$REPO/scripts/kvers.sh" 2>/dev/null); then
	for k in $kvers; do
		suites="$suites vm-$k"
		[ "$scope" = full ] && suites="$suites vm-subsys-$k vm-many-$k"
		last=$k
	done
	# vm-test.sh's boot of four controllers: make check's on the last kernel
	[ "$scope" = full ] || suites="$suites vm-many-$last"
	# vm-test.sh's QEMU 10 boot of the device matrix, on the last kernel
	[ "$scope" = full ] && [ -x "$BUILD/qemu/bin/qemu-system-x86_64" ] &&
		suites="$suites vm-subsys-q10-$last"
else
	# Without the kernel list the vm suites cannot even be named.
	suites="$suites vm"
fi

total_pass=0
total_fail=0
for s in $suites; do
	tap=$RESULTS/$s.tap
	unfinished=""
	if [ ! -f "$tap" ]; then
		# A VM boot that died or timed out leaves what it ran in
		# .tap.partial: its results count as below (a plan it did not
		# reach aside), and the suite is one failure more.
		if [ ! -s "$tap.partial" ]; then
			echo "$s: DID NOT RUN"
			total_fail=$((total_fail + 1))
			continue
		fi
		tap=$tap.partial
		unfinished=1
	fi
	# A skipped test proved nothing: it counts as failed, never as passed.
	skip=$(grep -ci '^ok\b.*# *skip' "$tap" || true)
	pass=$(($(grep -c '^ok\b' "$tap" || true) - skip))
	fail=$(($(grep -c '^not ok\b' "$tap" || true) + skip))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$tap" | head -n 1)
	note=""
	if [ -n "$unfinished" ]; then
		last=$(grep -E '^(not )?ok\b' "$tap" | tail -n 1 | cut -c1-100)
		echo "$s: DID NOT FINISH: $pass passed, $fail failed before the run ended (last: ${last:-none})"
		grep -i '^not ok\b\|^ok\b.*# *skip' "$tap" | sed 's/^/    /' || true
		total_pass=$((total_pass + pass))
		total_fail=$((total_fail + fail + 1))
		continue
	fi
	if [ -n "$plan" ] && [ "$plan" -gt $((pass + fail)) ]; then
		note=" ($((plan - pass - fail)) planned tests missing)"
		fail=$((fail + plan - pass - fail))
	fi
	if [ $((pass + fail)) -eq 0 ]; then
		note=" (no tests in $tap)"
		fail=1
	fi
	echo "$s: $pass passed, $fail failed$note"
	grep -i '^not ok\b\|^ok\b.*# *skip' "$tap" | sed 's/^/    /' || true
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
done

# Where the time went.  Every line of $RESULTS/times is "step seconds".
if [ -s "$RESULTS/times" ]; then
	echo
	echo "time per step ($scope):"
	# the side suites run beside the VM boots: the steps' sum is not
	# the run's time, the wall clock from check.sh's start is
	awk '{ printf "  %-34s %5d s\n", $1, $2; t += $2 } END { printf "  %-34s %5d s\n", "sum of the steps", t }' \
		"$RESULTS/times"
	if [ -s "$RESULTS/start" ]; then
		printf '  %-34s %5d s\n' "wall (the whole run)" $(($(date +%s) - $(cat "$RESULTS/start")))
	fi
	if [ -s "$RESULTS/times.vm" ]; then
		awk '{ printf "    boot %-29s %5d s\n", $1, $2 }' "$RESULTS/times.vm"
	fi
fi
# Each result line ends "in NNNms" (bats --timing on the host; on a VM
# boot, run-suite.sh's time since the line before).
slowest=$(for s in $suites; do
	[ -f "$RESULTS/$s.tap" ] || continue
	sed -n 's/^\(not \)\{0,1\}ok [0-9][0-9]* \(.*\) in \([0-9][0-9]*\)ms\( #.*\)\{0,1\}$/\3\t\2/p' \
		"$RESULTS/$s.tap" | sed "s/^/$s\t/"
done | sort -t "$(printf '\t')" -k2,2nr | head -n 10)
if [ -n "$slowest" ]; then
	echo
	echo "10 slowest tests:"
	echo "$slowest" | awk -F '\t' '{ n = $3; if (length(n) > 90) n = substr(n, 1, 87) "..."
		printf "  %6.1f s  %-22s %s\n", $2 / 1000, $1, n }'
fi
# run-suite.sh's .counts ("file:tests", in the order bats ran them) give
# each VM file the time of its tests, setup_file and teardown_file
# included; what is left of the boot (booting, starting bats) is one line.
files=$(for s in $suites; do
	[ -f "$RESULTS/$s.counts" ] && [ -f "$RESULTS/$s.tap" ] || continue
	awk -v s="$s" -v boot="$(awk -v n="$s" '$1 == n { print $2 }' "$RESULTS/times.vm" 2>/dev/null)" '
	FNR == 1 { f++ }
	f == 1 { n = split($0, p, ":"); file[++nf] = p[1]; cnt[nf] = p[n]; end[nf] = end[nf - 1] + p[n]; next }
	/^(not )?ok [0-9]+ .* in [0-9]+ms( #.*)?$/ {
		t = $0; sub(/ms( #.*)?$/, "", t); sub(/.* in /, "", t)
		i++
		for (k = 1; k < nf && i > end[k]; k++) ;
		ms[k] += t; total += t
	}
	END {
		for (j = 1; j <= nf; j++) { g = file[j]; sub(/^tests\/vm\//, "", g)
			printf "%s\t%d\t%s\t%d\n", s, ms[j] / 1000, g, cnt[j] }
		if (boot != "")
			printf "%s\t%d\t%s\t0\n", s, boot - total / 1000, "(booting and starting bats)"
	}' "$RESULTS/$s.counts" "$RESULTS/$s.tap"
done | sort -t "$(printf '\t')" -k2,2nr | head -n 10)
if [ -n "$files" ]; then
	echo
	echo "10 slowest VM test files (the sum of their tests):"
	echo "$files" | awk -F '\t' '{ printf "  %6d s  %-22s %s%s\n", $2, $1, $3, ($4 > 0 ? " (" $4 " tests)" : "") }'
fi
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
