# shellcheck shell=bash
# Where a VM test file runs: the "# vm-kernels: TAG (why)" line of its
# header (Documentation/testing.md, "Which VM file runs where").  Read by
# tests/vm/run-suite.sh in the guest and scripts/vm-test.sh on the host.

# vm_tags FILE...: fills the associative array VM_TAG (declare -A it
# first) with each file's tag (both, one or full; empty if none), with one
# grep for all of them (an exec costs ~0.1 s under TCG).
vm_tags() {
	local line f t
	for f in "$@"; do VM_TAG["$f"]=""; done
	while IFS= read -r line; do
		f=${line%%:*}
		read -r t _ <<<"${line#*:# vm-kernels:}"
		[ -n "${VM_TAG["$f"]}" ] || VM_TAG["$f"]=$t
	done < <(grep -H '^# vm-kernels:' "$@")
}

# vm_select SCOPE IDX NK: fills the array VM_FILES with the tests/vm/*.bats
# files the boot of kernel IDX (0: the first scripts/kvers.sh names, 6.1)
# of NK kernels runs in SCOPE (check or full):
#   both       every kernel, both scopes
#   one        check: one kernel, the p-th "one" file (from 0, in file
#              order) on kernel NK-1-(p mod NK): alternately 6.12 and 6.1,
#              so the two boots take about as long; full: every kernel
#   full       full only, the first kernel
#   full-both  full only, every kernel
# Fails (1) naming the files whose tag is none of these.
vm_select() {
	local scope=$1 idx=$2 nk=$3 f t p=0 bad=0
	local -A VM_TAG=()
	VM_FILES=()
	vm_tags tests/vm/*.bats
	for f in tests/vm/*.bats; do
		t=${VM_TAG[$f]}
		case $scope:$t in
		*:both | full:one | full:full-both) VM_FILES+=("$f") ;;
		full:full) [ "$idx" = 0 ] && VM_FILES+=("$f") ;;
		check:one)
			[ $((nk - 1 - p % nk)) = "$idx" ] && VM_FILES+=("$f")
			p=$((p + 1)) ;;
		check:full | check:full-both) ;;
		*) echo "$f has no '# vm-kernels: both|one|full|full-both (why)' line" >&2
		   bad=1 ;;
		esac
	done
	return $bad
}
