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
#                          written to vm-subsys-$(uname -r).*
#   SSDT_VM_TAGS="both one full"  the tests/vm/*.bats files whose header
#                          has a line "# vm-kernels: TAG (why)" with one of
#                          these TAGs (the default: all three):
#                          both  every kernel in make check and check-full
#                          one   make check's first kernel, every kernel in
#                                check-full
#                          full  make check-full's first kernel only
# A file without such a line fails the run (scripts/vm-test.sh chooses the
# tags; Documentation/testing.md has the table).
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
bad=()
if [ $# -eq 0 ] && [ "${SSDT_VM_SUBSYS:-}" = 1 ]; then
	files=(tests/vm/subsys/*.bats)
	base=$SSDT_RESULTS/vm-subsys-$kver
elif [ $# -eq 0 ]; then
	. tests/vm/lib/tags.bash
	declare -A VM_TAG=()
	vm_tags tests/vm/*.bats
	for f in tests/vm/*.bats; do
		tag=${VM_TAG[$f]}
		case $tag in
		both|one|full) ;;
		*) bad+=("$f"); continue ;;
		esac
		if [[ " ${SSDT_VM_TAGS:-both one full} " == *" $tag "* ]]; then
			files+=("$f")
		else
			echo "run-suite: $kver: not running $f (vm-kernels: $tag)" >&2
		fi
	done
	base=$SSDT_RESULTS/vm-$kver
else
	base=$SSDT_RESULTS/vm-$kver.partial-run
fi
out=$base.tap
mkdir -p "$SSDT_RESULTS"
rm -f "$out" "$out.partial" "$base.counts"
if [ ${#bad[@]} -gt 0 ]; then
	# an untagged file is a failure of the suite, before any test runs
	for f in "${bad[@]}"; do
		echo "run-suite: $f has no '# vm-kernels: both|one|full (why)' line" >&2
	done
	exit 1
fi
[ ${#files[@]} -gt 0 ] && set -- "${files[@]}"
onlyfiles=1
for a in "$@"; do
	[[ $a == *.bats && -f $a ]] || onlyfiles=""
done
if [ -n "$onlyfiles" ]; then
	# tests per file, in the order bats runs them: scripts/summary.sh
	# gives each file the time of its tests from this
	grep -c -H '^[[:space:]]*@test ' "$@" >"$base.counts"
fi
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
