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
#   own        neither: a make target of its own runs the file
#              (89-dkms-guest: make check-dkms, scripts/check-boot.sh)
# and sets VM_SKIP_TAG to the bats test tags (comma-separated) that boot
# leaves out: in check, every kernel skips the tests tagged
# "# bats test_tags=full-only" (what make check-full alone runs: whole
# benches of the tool's engine, a second run of one mechanism), and every
# kernel but the last (6.12) also those tagged one-kernel (the driver's
# own logic inside a "both" file that is otherwise about the kernel);
# empty in full.
# Fails (1) naming the files whose tag is none of these.
vm_select() {
	local scope=$1 idx=$2 nk=$3 f t p=0 bad=0
	local -A VM_TAG=()
	VM_FILES=()
	# shellcheck disable=SC2034 # read by the caller
	if [ "$scope" = full ]; then
		VM_SKIP_TAG=""
	elif [ "$idx" != $((nk - 1)) ]; then
		VM_SKIP_TAG=one-kernel,full-only
	else
		VM_SKIP_TAG=full-only
	fi
	vm_tags tests/vm/*.bats
	for f in tests/vm/*.bats; do
		t=${VM_TAG[$f]}
		case $scope:$t in
		*:both | full:one | full:full-both) VM_FILES+=("$f") ;;
		full:full) [ "$idx" = 0 ] && VM_FILES+=("$f") ;;
		check:one)
			[ $((nk - 1 - p % nk)) = "$idx" ] && VM_FILES+=("$f")
			p=$((p + 1)) ;;
		check:full | check:full-both | *:own) ;;
		*) echo "$f has no '# vm-kernels: both|one|full|full-both|own (why)' line" >&2
		   bad=1 ;;
		esac
	done
	return $bad
}

# vm_count SKIPTAGS FILE...: "FILE:N" for each file, N its @test cases
# bats runs with --filter-tags '!TAG1,!TAG2...' (every case if SKIPTAGS,
# comma-separated, is empty): those whose "# bats test_tags=" line names
# one of them drop out.  tests/host/harness/layout.bats checks it against bats
# --count.
vm_count() {
	local skip=$1
	shift
	awk -v skip="$skip" '
	BEGIN { ns = split(skip, sk, ",") }
	FNR == 1 { if (NR > 1) print prev ":" n; n = 0; tags = ""; prev = FILENAME }
	/^[[:space:]]*# bats test_tags=/ { tags = "," $0; sub(/^[^=]*=/, "", tags); tags = "," tags ","; gsub(/[[:space:]]/, "", tags); next }
	/^[[:space:]]*@test / {
		out = 0
		for (i = 1; i <= ns; i++) if (sk[i] != "" && index(tags, "," sk[i] ",")) out = 1
		if (!out) n++
		tags = "" }
	END { if (NR > 0) print prev ":" n }' "$@"
}
