#!/bin/bash
# Guest side of scripts/vm-test.sh: run the VM bats suite in the guest that
# scripts/vm.sh booted and write $SSDT_RESULTS/vm-$(uname -r).tap (TAP from
# bats --timing), plus vm-$(uname -r).dmesg and .counts (the files run,
# with their number of tests, for the summary's time per file).  The .tap
# appears only once bats has finished: a run cut short leaves
# vm-KVER.tap.partial instead.
#
#   tests/vm/run-suite.sh [BATS-FILE... | BATS-ARGS...]
#
# Which files run without arguments (Documentation/testing.md):
#   SSDT_VM_SUBSYS=1       tests/vm/subsys/ (the boot of vm.sh --subsys),
#                          written to vm-subsys-$(uname -r).*; with
#                          SSDT_VM_FILES, those of its files, written to
#                          $SSDT_VM_SUITE.* (vm-test.sh's QEMU 10 matrix)
#   SSDT_VM_MANY=...       tests/vm/many/ (the boot of vm.sh --many, four
#                          controllers), written to vm-many-$(uname -r).*
#   SSDT_VM_FILES="F..."   these tests/vm/*.bats files (scripts/vm-test.sh
#                          chooses them by the "# vm-kernels: TAG (why)"
#                          line of each header, tests/vm/lib/tags.bash)
#   neither                every tests/vm/*.bats file
#   SSDT_VM_SKIP_TAG=T,..  leave out the tests tagged T ("# bats
#                          test_tags=T", bats --filter-tags '!T,...'):
#                          make check skips full-only, and its 6.1 boot
#                          also one-kernel (tests/vm/lib/tags.bash)
# A tests/vm/*.bats file without a known tag fails the run.
#
# With arguments, they are passed to bats instead of the whole directory
# (e.g. tests/vm/20-integrity.bats, or -f 'cycles' tests/vm) and the result
# goes to vm-KVER.partial-run.*, so a partial run never stands in for the
# suite.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${SSDT_RESULTS:?run this through scripts/vm.sh}"
kver=$(uname -r)
files=()
bad=""
if [ $# -eq 0 ] && [ "${SSDT_VM_SUBSYS:-}" = 1 ]; then
	files=(tests/vm/subsys/*.bats)
	# some of them (vm-test.sh's QEMU 10 matrix boot), under its name
	[ -n "${SSDT_VM_FILES:-}" ] && read -r -a files <<<"$SSDT_VM_FILES"
	base=$SSDT_RESULTS/${SSDT_VM_SUITE:-vm-subsys-$kver}
elif [ $# -eq 0 ] && [ -n "${SSDT_VM_MANY:-}" ]; then
	files=(tests/vm/many/*.bats)
	base=$SSDT_RESULTS/vm-many-$kver
elif [ $# -eq 0 ]; then
	. tests/vm/lib/tags.bash
	# every file's tag is known, whichever run
	vm_select full 0 1 >/dev/null || bad=1
	if [ -n "${SSDT_VM_FILES:-}" ]; then
		read -r -a files <<<"$SSDT_VM_FILES"
	else
		files=(tests/vm/*.bats)
	fi
	base=$SSDT_RESULTS/vm-$kver
else
	base=$SSDT_RESULTS/vm-$kver.partial-run
fi
out=$base.tap
mkdir -p "$SSDT_RESULTS"
rm -f "$out" "$out.partial" "$base.counts"
if [ -n "$bad" ]; then
	# an untagged file is a failure of the suite, before any test runs
	exit 1
fi
[ ${#files[@]} -gt 0 ] && set -- "${files[@]}"
skip=${SSDT_VM_SKIP_TAG:-}
# Tests of the device shapes only QEMU 10 makes (tag qemu10: subsys/
# 40-matrix's ssdtm3, vm.sh --subsys --qemu 10) run where it made them:
# make check-full's QEMU 10 matrix boot.  Elsewhere they are left out as
# make check leaves out full-only, not run and skipped (a skip fails).
if [ "${SSDT_VM_SUBSYS:-}" = 1 ] && ! grep -qs '^ssdtm3 *$' /sys/class/nvme/*/serial; then
	skip=${skip:+$skip,}qemu10
fi
onlyfiles=1
for a in "$@"; do
	[[ $a == *.bats && -f $a ]] || onlyfiles=""
done
if [ -n "$onlyfiles" ]; then
	# tests per file, in the order bats runs them: scripts/summary.sh
	# gives each file the time of its tests from this
	. tests/vm/lib/tags.bash
	vm_count "$skip" "$@" >"$base.counts"
fi
# "a,b" -> --filter-tags '!a,!b' (bats ANDs the items of one list)
[ -n "$skip" ] && set -- --filter-tags "!${skip//,/,!}" "$@"
echo "run-suite: $kver: bats $*" >&2
# One bats for the whole suite: a bats start costs about 10 s under TCG,
# and each test about 2 s of bats' own work.  Each result line gets the
# time since the one before ("in NNNms", as bats --timing writes it, but
# taken here from bash's clock: --timing execs date twice a test).  So a
# test's time includes bats' work for it, and the first test of a file
# also carries that file's setup_file and the teardown_file before it.
# Unbuffered through tee: progress shows as it happens, and the partial
# file says how far a run that was killed got.
rc=1
last=${EPOCHREALTIME/./}
while IFS= read -r line; do
	if [[ $line =~ ^'# bats-exit '([0-9]+)$ ]]; then
		rc=${BASH_REMATCH[1]}
		continue
	fi
	if [[ $line =~ ^(not\ )?ok\ [0-9]+ ]]; then
		now=${EPOCHREALTIME/./}
		ms=$(((now - last) / 1000))
		last=$now
		if [[ $line == *' # '* ]]; then
			# a directive (# skip) stays last
			line="${line%% # *} in ${ms}ms # ${line#* # }"
		else
			line="$line in ${ms}ms"
		fi
	fi
	echo "$line"
done < <(bats --formatter tap "$@"; echo "# bats-exit $?") > >(tee "$out.partial")
# the loop above ran in this shell (rc is its); let tee write the last line
wait $!
dmesg >"$base.dmesg"
if ! grep -q '^1\.\.[0-9]' "$out.partial"; then
	echo "run-suite: bats printed no plan (exit $rc)" >&2
	exit 1
fi
mv "$out.partial" "$out"
exit "$rc"
