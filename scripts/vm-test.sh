#!/bin/bash
# The VM bats suite (tests/vm/) on every kernel scripts/kvers.sh names: one
# VM boot per kernel (scripts/vm.sh) runs tests/vm/run-suite.sh, which writes
# $BUILD/results/vm-KVER.tap; in make check-full a second, short boot with
# the NVMe subsystem of vm.sh --subsys and swiotlb=force runs
# tests/vm/subsys/ into vm-subsys-KVER.tap.
# Exits non-zero if any test failed, or if a suite did not run to the end
# (then there is no .tap; the partial output is in NAME.tap.partial and the
# VM's output in $BUILD/vm/NAME.log).  Each boot's wall time is appended
# to $BUILD/results/times.vm.
#
#   scripts/vm-test.sh [--scope check|full] [KVER...]
#                                        default: every kernel from kvers.sh
#   --scope check (CHECK_SCOPE)          make check: the first kernel runs
#                     the files tagged "vm-kernels: both" or "one", the
#                     others only "both"; no subsystem boot
#   --scope full                         make check-full (the default): the
#                     first kernel also runs "full", every kernel "both" and
#                     "one", and each has its subsystem boot
#   VM_NEEDS=FILE                        the boot of the first kernel waits
#                     for FILE (make check: the deb suite's result, whose
#                     packages 89-packages installs)
#   VM_TIMEOUT=SECS                      per-kernel VM timeout (default 3600)
#   VM_SUBSYS_TIMEOUT=SECS               the subsystem boot's (default 900)
# Documentation/testing.md says which file runs where, and why.
set -u
. "$(dirname "$0")/tap-counts.sh"
cd "$(dirname "$0")/.." || exit 1
. tests/vm/lib/tags.bash
BUILD=${BUILD:-$(pwd)/build}
export BUILD
mkdir -p "$BUILD/results" "$BUILD/vm"

scope=${CHECK_SCOPE:-full}
if [ "${1:-}" = --scope ]; then
	scope=${2:-}
	shift 2 || true
fi
case $scope in
check|full) ;;
*) echo "vm-test: --scope must be check or full, not '$scope'" >&2; exit 2 ;;
esac

if [ $# -gt 0 ]; then
	kvers=$*
	all_kernels=""
else
	kvers=$(scripts/kvers.sh) || exit 1
	all_kernels=1
	# an earlier run's file lists must not vouch for this one (below)
	rm -f "$BUILD"/results/vm-*.counts
fi

# suite NAME KVER SECS TAGS [VM.SH-OPTION...]: one VM boot runs
# tests/vm/run-suite.sh (the files tagged TAGS), which writes
# $BUILD/results/NAME.tap; the verdict goes to $BUILD/vm/NAME.verdict
# (first line: 0 or 1, then the summary line and any failures).
suite() {
	local name=$1 k=$2 secs=$3 tags=$4 tap rc start ok notok skipped plan passed line bad=0
	shift 4
	tap=$BUILD/results/$name.tap
	rm -f "$tap" "$tap.partial" "$BUILD/vm/$name.verdict"
	start=$(date +%s)
	scripts/vm.sh --timeout "$secs" --log "$BUILD/vm/$name.log" "$@" \
		"$k" -- env "SSDT_VM_TAGS=$tags" tests/vm/run-suite.sh
	rc=$?
	secs=$(($(date +%s) - start))
	printf '%s %s\n' "$name" "$secs" >>"$BUILD/results/times.vm"
	if [ ! -f "$tap" ]; then
		printf '1\nvm-test: %s: the suite did not run to the end (vm.sh exit %s after %ss; see %s)\n' \
			"$name" "$rc" "$secs" "$BUILD/vm/$name.log" >"$BUILD/vm/$name.verdict"
		return
	fi
	tap_counts "$tap"
	passed=$((ok - skipped))
	line="vm-test: $name: $passed passed, $notok failed, $skipped skipped of $plan in ${secs}s"
	if [ "$notok" -ne 0 ] || [ "$skipped" -ne 0 ] || [ $((ok + notok)) -ne "${plan:-0}" ] ||
	   [ "${plan:-0}" -eq 0 ] || [ "$rc" -ne 0 ]; then
		bad=1
		[ $((ok + notok)) -ne "${plan:-0}" ] && line="$line (only $((ok + notok)) results for a plan of ${plan:-0})"
		[ "$rc" -ne 0 ] && line="$line (exit $rc)"
	fi
	{
		echo "$bad"
		echo "$line"
		grep '^not ok ' "$tap" | sed "s/^/vm-test: $name: /"
	} >"$BUILD/vm/$name.verdict"
}

# The boots, in the order they start: "NAME KVER SECS TAGS [OPTIONS]",
# TAGS joined by "_" (or "all": every file of the boot's directory).  The
# first kernel named (Debian 12's 6.1) runs the "one" and "full" files, and
# boots last: what those files need from a step running beside this one
# (the packages of make check's deb suite, VM_NEEDS) has time to appear.
boots=()
first=""
for k in $kvers; do
	[ -n "$first" ] || first=$k
done
for k in $kvers; do
	b=()
	if [ "$scope" = check ]; then
		tags=both
		[ "$k" = "$first" ] && tags=both_one
		b+=("vm-$k $k ${VM_TIMEOUT:-3600} $tags")
	else
		tags=both_one
		[ "$k" = "$first" ] && tags=both_one_full
		b+=("vm-$k $k ${VM_TIMEOUT:-3600} $tags")
		# the namespace rescan tests need a topology of their own; that
		# boot also bounces all DMA (tests/vm/subsys/30-swiotlb.bats)
		b+=("vm-subsys-$k $k ${VM_SUBSYS_TIMEOUT:-900} all --subsys --append swiotlb=force")
	fi
	if [ "$k" = "$first" ]; then
		boots+=("${b[@]}")
	else
		boots=("${b[@]}" "${boots[@]}")
	fi
done

# needs_wait TAGS: before a boot that runs "one" or "full" files, wait
# (up to 30 minutes) for the file VM_NEEDS names, if any.
needs_wait() {
	local i
	[ -n "${VM_NEEDS:-}" ] || return 0
	case $1 in *one*|*full*) ;; *) return 0 ;; esac
	for ((i = 0; i < 1800; i++)); do
		[ -e "$VM_NEEDS" ] && return 0
		[ "$i" = 0 ] && echo "vm-test: waiting for $VM_NEEDS"
		sleep 1
	done
	echo "vm-test: $VM_NEEDS did not appear in 30 minutes; booting anyway"
}

names=()
for b in "${boots[@]}"; do
	# shellcheck disable=SC2086 # the words of one boot line
	set -- $b
	name=$1 k=$2 secs=$3
	shift 3
	t=$1
	shift
	[ "$t" = all ] || t=${t//_/ }
	names+=("$name")
	needs_wait "$t"
	suite "$name" "$k" "$secs" "$t" "$@"
done

fail=0
# Every file the scope selects ran in some boot (each boot's .counts names
# its files): a file that no boot ran would otherwise pass unseen.
if [ -n "$all_kernels" ]; then
	want="both one"
	[ "$scope" = full ] && want="both one full"
	declare -A VM_TAG=()
	vm_tags tests/vm/*.bats
	for f in tests/vm/*.bats; do
		tag=${VM_TAG[$f]}
		[[ " $want " == *" $tag "* ]] || continue
		if ! cat "$BUILD"/results/vm-*.counts 2>/dev/null | grep -q "^$f:"; then
			echo "vm-test: $f (vm-kernels: $tag) ran in no boot of this run"
			fail=1
		fi
	done
fi
for name in "${names[@]}"; do
	v=$BUILD/vm/$name.verdict
	if [ ! -f "$v" ]; then
		echo "vm-test: $name: no verdict (the boot's runner died)"
		fail=1
		continue
	fi
	[ "$(head -n 1 "$v")" = 0 ] || fail=1
	tail -n +2 "$v"
done
exit $fail
