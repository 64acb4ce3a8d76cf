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
