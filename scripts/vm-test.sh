#!/bin/bash
# The VM bats suite (tests/vm/) on every kernel scripts/kvers.sh names: one
# VM boot per kernel (scripts/vm.sh) runs tests/vm/run-suite.sh, which writes
# $BUILD/results/vm-KVER.tap; in make check-full a second, short boot with
# the NVMe subsystem of vm.sh --subsys and swiotlb=force runs
# tests/vm/subsys/ into vm-subsys-KVER.tap; a boot with four controllers
# (vm.sh --many) runs tests/vm/many/ into vm-many-KVER.tap, in make check
# on the last kernel only.
# Exits non-zero if any test failed, or if a suite did not run to the end
# (then there is no .tap; the partial output is in NAME.tap.partial and the
# VM's output in $BUILD/vm/NAME.log).  Each boot's wall time is appended
# to $BUILD/results/times.vm.
#
#   scripts/vm-test.sh [--scope check|full] [KVER...]
#                                        default: every kernel from kvers.sh
#   --scope check (CHECK_SCOPE)          make check: every kernel runs the
#                     files tagged "vm-kernels: both", and half the "one"
#                     files each; no subsystem boot; the last kernel
#                     also boots four controllers (tests/vm/many/)
#   --scope full                         make check-full (the default):
#                     every kernel runs "both", "one" and "full-both", the
#                     first also "full", and each has its subsystem boot
#                     and its boot of four controllers;
#                     the last kernel also boots the device matrix under
#                     QEMU 10 (vm-subsys-q10-KVER: its small queues and
#                     no shadow doorbells), if make setup unpacked it
#   VM_NEEDS=FILE                        a boot that runs a package file
#                     (89-*) waits for FILE (make check-full: the deb
#                     suite's result, whose packages they install)
#   VM_LANES=N                           boots that run at once (default 1:
#                     one after the other; 2: each kernel's boots in a lane
#                     of their own, Documentation/vm-harness.md)
#   VM_QEMU=10|PATH                      the QEMU (default: the system's
#                     7.2; 10: bookworm-backports' 10.0, 15-20% faster
#                     under TCG, not the default yet: vm-harness.md); a
#                     boot that dies before its suite starts is booted
#                     again
#   VM_TIMEOUT=SECS                      per-kernel VM timeout (default 4800:
#                     a make check-full boot of 6.1 needs about 65 minutes
#                     on a slow machine; testing.md)
#   VM_SUBSYS_TIMEOUT=SECS               the subsystem boot's (default 900)
#   VM_MANY_TIMEOUT=SECS                 the four controllers' (default 900)
# Documentation/testing.md says which file runs where, and why.
set -u
# shellcheck source=scripts/tap-counts.sh
. "$(dirname "$0")/tap-counts.sh"
cd "$(dirname "$0")/.." || exit 1
. tests/vm/lib/tags.bash
BUILD=${BUILD:-$(pwd)/build}
export BUILD
export VM_QEMU=${VM_QEMU-}
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

# suite NAME KVER SECS FILES SKIP [VM.SH-OPTION...]: one VM boot runs
# tests/vm/run-suite.sh (FILES, space-separated; empty for the subsystem
# boot's tests/vm/subsys; SKIP the bats tag its tests leave out, or
# empty), which writes
# $BUILD/results/NAME.tap; the verdict goes to $BUILD/vm/NAME.verdict
# (first line: 0 or 1, then the summary line and any failures).
suite() {
	local name=$1 k=$2 secs=$3 files=$4 skip=$5 tap rc why start ok notok skipped plan passed line bad=0 attempt
	shift 5
	local tmo=$secs retried=""
	tap=$BUILD/results/$name.tap
	rm -f "$tap" "$tap.partial" "$BUILD/vm/$name.verdict" "$BUILD/vm/$name.boot1.log"
	start=$(date +%s)
	for attempt in 1 2; do
		scripts/vm.sh --timeout "$tmo" --log "$BUILD/vm/$name.log" "$@" \
			"$k" -- env "SSDT_VM_FILES=$files" "SSDT_VM_SKIP_TAG=$skip" \
			"SSDT_VM_SCOPE=$scope" "SSDT_VM_SUITE=$name" tests/vm/run-suite.sh
		rc=$?
		# A boot that died before the suite started (no TAP at all: the
		# guest never reached bats) is booted once more: QEMU 10.0.2
		# aborts about one boot in a dozen on an assertion in TCG's
		# memory map before the kernel is up (vm-harness.md).  Only a
		# boot that died within 2 minutes; a suite that started is never
		# run twice: its failures are the result.
		if [ -f "$tap" ] || [ -f "$tap.partial" ] || [ "$attempt" = 2 ] ||
		   [ $(($(date +%s) - start)) -gt 120 ]; then
			break
		fi
		why=$(grep -m 1 -E 'Assertion|Kernel panic|BUG:|Oops' "$BUILD/vm/$name.log" 2>/dev/null)
		retried=" (booted twice: the first boot died before the suite started, vm.sh exit $rc${why:+: $why}; $BUILD/vm/$name.boot1.log)"
		mv "$BUILD/vm/$name.log" "$BUILD/vm/$name.boot1.log"
		echo "vm-test: $name: the boot died before the suite started (vm.sh exit $rc); booting again" >&2
	done
	secs=$(($(date +%s) - start))
	printf '%s %s\n' "$name" "$secs" >>"$BUILD/results/times.vm"
	if [ ! -f "$tap" ]; then
		why=$(grep -m 1 -E 'Assertion|Kernel panic|BUG:|Oops|blocked for more than' "$BUILD/vm/$name.log" 2>/dev/null)
		printf '1\nvm-test: %s: the suite did not run to the end (vm.sh exit %s after %ss%s; see %s)%s\n' \
			"$name" "$rc" "$secs" "${why:+: $why}" "$BUILD/vm/$name.log" "$retried" >"$BUILD/vm/$name.verdict"
		return
	fi
	tap_counts "$tap"
	passed=$((ok - skipped))
	line="vm-test: $name: $passed passed, $notok failed, $skipped skipped of $plan in ${secs}s$retried"
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

# The boots of each kernel, in the order they start: "NAME KVER SECS
# FILES SKIP [OPTIONS]", FILES the tests/vm files joined by "," (tests/vm/
# lib/tags.bash, vm_select), "subsys" (tests/vm/subsys/, vm.sh --subsys)
# "many" (tests/vm/many/, vm.sh --many) or "matrix" (subsys/40-matrix.bats
# alone), SKIP the test tag the boot
# leaves out or "-".
# In make check-full the subsystem boot goes first: the main boot, which
# installs the packages, waits for them (VM_NEEDS) meanwhile.
declare -A kboots=()
klist=()
nk=0
for k in $kvers; do nk=$((nk + 1)); done
i=0
for k in $kvers; do
	vm_select "$scope" "$i" "$nk" || exit 1
	files=$(IFS=,; echo "${VM_FILES[*]}")
	main="vm-$k $k ${VM_TIMEOUT:-4800} $files ${VM_SKIP_TAG:--}"
	# four controllers at once (tests/vm/many/, vm.sh --many): in make
	# check on the last kernel, in check-full on each
	many=""
	[ "$scope" = full ] || [ $((i + 1)) = "$nk" ] &&
		many=";vm-many-$k $k ${VM_MANY_TIMEOUT:-900} many - --many"
	if [ "$scope" = full ]; then
		# the namespace rescan tests need a topology of their own; that
		# boot also bounces all DMA (tests/vm/subsys/30-swiotlb.bats)
		kboots[$k]="vm-subsys-$k $k ${VM_SUBSYS_TIMEOUT:-900} subsys - --subsys --append swiotlb=force;$main"
		# the device matrix again under QEMU 10, once: the shapes 7.2
		# cannot make (Documentation/hardware.md)
		[ $((i + 1)) = "$nk" ] && [ -x "$BUILD/qemu/bin/qemu-system-x86_64" ] &&
			kboots[$k]="vm-subsys-q10-$k $k ${VM_SUBSYS_TIMEOUT:-900} matrix - --subsys --qemu 10 --append swiotlb=force;${kboots[$k]}"
	else
		kboots[$k]=$main
	fi
	kboots[$k]=${kboots[$k]}$many
	klist+=("$k")
	i=$((i + 1))
done

# needs_wait FILES: before a boot that runs a package file (89-*), wait (up
# to 30 minutes) for the file VM_NEEDS names, if any.
needs_wait() {
	local i
	[ -n "${VM_NEEDS:-}" ] || return 0
	case $1 in *tests/vm/89-*) ;; *) return 0 ;; esac
	for ((i = 0; i < 1800; i++)); do
		[ -e "$VM_NEEDS" ] && return 0
		[ "$i" = 0 ] && echo "vm-test: waiting for $VM_NEEDS"
		sleep 1
	done
	echo "vm-test: $VM_NEEDS did not appear in 30 minutes; booting anyway"
}

# lane KVER...: the boots of these kernels, one after the other.
lane() {
	local k b name kv secs f sk bl
	for k in "$@"; do
		IFS=';' read -r -a bl <<<"${kboots[$k]}"
		for b in "${bl[@]}"; do
			# shellcheck disable=SC2086 # the words of one boot line
			set -- $b
			name=$1 kv=$2 secs=$3 f=$4 sk=${5#-}
			shift 5
			if [ "$f" = subsys ] || [ "$f" = many ]; then
				suite "$name" "$kv" "$secs" "" "" "$@"
			elif [ "$f" = matrix ]; then
				suite "$name" "$kv" "$secs" tests/vm/subsys/40-matrix.bats "" "$@"
			else
				needs_wait "$f"
				suite "$name" "$kv" "$secs" "${f//,/ }" "$sk" "$@"
			fi
		done
	done
}

names=()
for k in "${klist[@]}"; do
	IFS=';' read -r -a bl <<<"${kboots[$k]}"
	for b in "${bl[@]}"; do names+=("${b%% *}"); done
done

# VM_LANES boots run at once (default 1).  Two lanes, one per kernel, took
# make check's VM time from about 1955 s to 1842 s: the guests are bound by
# the CPU, and on these 2 cores two of them run each about 1.6 times
# slower.  A 6.12 guest died once in such a run (vm.sh exit 255, no
# console then), which one boot at a time has not shown: until that is
# understood the suites keep to one (Documentation/vm-harness.md).
lanes=${VM_LANES:-1}
pids=()
for ((l = 0; l < lanes; l++)); do
	mine=()
	for ((j = l; j < ${#klist[@]}; j += lanes)); do mine+=("${klist[$j]}"); done
	[ ${#mine[@]} -gt 0 ] || continue
	if [ "$lanes" = 1 ]; then
		lane "${mine[@]}"
	else
		lane "${mine[@]}" &
		pids+=($!)
	fi
done
for p in "${pids[@]}"; do wait "$p"; done

fail=0
# Every file the scope selects ran in some boot (each boot's .counts names
# its files): a file that no boot ran would otherwise pass unseen.
if [ -n "$all_kernels" ]; then
	want="both one"
	[ "$scope" = full ] && want="both one full full-both"
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
