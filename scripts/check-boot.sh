#!/bin/bash
# One VM boot of the first test kernel that runs one bats file, for the
# targets too slow for make check-full:
#
#   scripts/check-boot.sh NAME SECS FILE
#
#   make check-ansible  ansible 3600 tests/vm/ansible/role.bats: the Ansible
#                       role against the guest (installs the package of make
#                       deb, applies, a second run changed=0, check mode
#                       finds a vector moved by hand); ansible-playbook
#                       under TCG takes minutes a run (Python imports over
#                       the guest's 9p root), 20 to 40 minutes in all
#   make check-dkms     dkms 1800 tests/vm/89-dkms-guest.bats: the guest's
#                       own DKMS compile from dpkg -i, 5 to 8 minutes
#
# Writes $BUILD/results/NAME.tap (the VM's output in $BUILD/vm/NAME.log);
# the last line is "N passed, M failed".  SECS is the VM's timeout
# (VM_TIMEOUT overrides it).
set -u
# shellcheck source=scripts/tap-counts.sh
. "$(dirname "$0")/tap-counts.sh"
cd "$(dirname "$0")/.." || exit 1
[ $# -eq 3 ] || { echo "usage: scripts/check-boot.sh NAME SECS FILE" >&2; exit 2; }
name=$1 secs=$2 file=$3
BUILD=${BUILD:-$(pwd)/build}
export BUILD
mkdir -p "$BUILD/results" "$BUILD/vm"
k=$(scripts/kvers.sh | head -n 1)
[ -n "$k" ] || { echo "check-$name: no test kernel"; echo "0 passed, 1 failed"; exit 1; }
tap=$BUILD/results/$name.tap
rm -f "$tap"
start=$(date +%s)
scripts/vm.sh --timeout "${VM_TIMEOUT:-$secs}" --log "$BUILD/vm/$name.log" "$k" -- \
	tests/vm/run-suite.sh "$file"
rc=$?
part=$BUILD/results/vm-$k.partial-run.tap
if [ ! -f "$part" ]; then
	echo "check-$name: the suite did not run to the end (vm.sh exit $rc after $(($(date +%s) - start))s; see $BUILD/vm/$name.log)"
	echo "0 passed, 1 failed"
	exit 1
fi
mv "$part" "$tap"
tap_result "$tap"
grep '^not ok ' "$tap" | sed "s/^/check-$name: /"
echo "check-$name: $k: $passed passed, $failed failed in $(($(date +%s) - start))s ($tap)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$rc" -eq 0 ]
