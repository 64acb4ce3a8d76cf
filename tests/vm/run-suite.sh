#!/bin/bash
# Guest side of scripts/vm-test.sh: run the VM bats suite in the guest that
# scripts/vm.sh booted and write $SSDT_RESULTS/vm-$(uname -r).tap (TAP from
# bats), plus vm-$(uname -r).dmesg.  The .tap appears only once bats has
# finished: a run cut short leaves vm-KVER.tap.partial instead.
#
#   tests/vm/run-suite.sh [BATS-FILE-OR-FILTER-ARGS...]
#
# In the VM of scripts/vm.sh --subsys (SSDT_VM_SUBSYS=1) the suite is
# tests/vm/subsys/ instead, written to vm-subsys-$(uname -r).{tap,dmesg}.
#
# With arguments, they are passed to bats instead of the whole directory
# (e.g. tests/vm/20-integrity.bats, or -f 'cycles' tests/vm) and the result
# goes to vm-KVER.partial-run.{tap,dmesg}, so a partial run never stands in
# for the suite.
set -u
cd "$(dirname "$0")/../.."
: "${SSDT_RESULTS:?run this through scripts/vm.sh}"
kver=$(uname -r)
if [ $# -eq 0 ] && [ "${SSDT_VM_SUBSYS:-}" = 1 ]; then
	set -- tests/vm/subsys/*.bats
	base=$SSDT_RESULTS/vm-subsys-$kver
elif [ $# -eq 0 ]; then
	# The whole suite, but the package test on Debian 12's own kernel
	# series only: its DKMS build takes 5 to 8 minutes under TCG, and
	# the module builds for every kernel in make check's build step.
	for f in tests/vm/*.bats; do
		case $f:$kver in
		*/89-packages.bats:6.1.*) ;;
		*/89-packages.bats:*)
			echo "run-suite: $kver: not running $f (6.1 only)" >&2
			continue ;;
		esac
		set -- "$@" "$f"
	done
	base=$SSDT_RESULTS/vm-$kver
else
	base=$SSDT_RESULTS/vm-$kver.partial-run
fi
out=$base.tap
mkdir -p "$SSDT_RESULTS"
rm -f "$out" "$out.partial"
echo "run-suite: $kver: bats $*" >&2
# Unbuffered through tee: progress shows as it happens, and the partial
# file says how far a run that was killed got.
bats --timing --formatter tap "$@" | tee "$out.partial"
rc=${PIPESTATUS[0]}
dmesg >"$base.dmesg"
if ! grep -q '^1\.\.[0-9]' "$out.partial"; then
	echo "run-suite: bats printed no plan (exit $rc)" >&2
	exit 1
fi
mv "$out.partial" "$out"
exit "$rc"
