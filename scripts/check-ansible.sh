#!/bin/bash
# make check-ansible: the Ansible role (misc/ansible/roles/ssdtune) against
# a VM of the first test kernel, tests/vm/ansible/role.bats: installs the
# package of make deb, applies, a second run changed=0, check mode finds a
# vector moved by hand.  Not part of make check: ansible-playbook under
# TCG takes minutes a run (Python imports over the guest's 9p root), 20 to
# 40 minutes in all.  Writes $BUILD/results/ansible.tap; the last line is
# "N passed, M failed".
set -u
# shellcheck source=scripts/tap-counts.sh
. "$(dirname "$0")/tap-counts.sh"
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-$(pwd)/build}
export BUILD
mkdir -p "$BUILD/results" "$BUILD/vm"
k=$(scripts/kvers.sh | head -n 1)
[ -n "$k" ] || { echo "check-ansible: no test kernel"; echo "0 passed, 1 failed"; exit 1; }
tap=$BUILD/results/ansible.tap
rm -f "$tap"
start=$(date +%s)
scripts/vm.sh --timeout "${VM_TIMEOUT:-3600}" --log "$BUILD/vm/ansible.log" "$k" -- \
	tests/vm/run-suite.sh tests/vm/ansible/role.bats
rc=$?
part=$BUILD/results/vm-$k.partial-run.tap
if [ ! -f "$part" ]; then
	echo "check-ansible: the suite did not run to the end (vm.sh exit $rc after $(($(date +%s) - start))s; see $BUILD/vm/ansible.log)"
	echo "0 passed, 1 failed"
	exit 1
fi
mv "$part" "$tap"
tap_result "$tap"
grep '^not ok ' "$tap" | sed 's/^/check-ansible: /'
echo "check-ansible: $k: $passed passed, $failed failed in $(($(date +%s) - start))s ($tap)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$rc" -eq 0 ]
