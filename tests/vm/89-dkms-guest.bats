#!/usr/bin/env bats
# The admin's path through DKMS, compile included: dpkg -i of both packages
# of make deb (build/deb) in the guest, whose postinst has DKMS build
# ssdtune.ko for the running kernel, then dpkg -P takes it away again.
# 89-packages.bats tests the rest of the packages' life on a module built
# on the host; this file is what the host build cannot show: that the
# packaged source builds with the guest's own DKMS, make and headers as
# dpkg runs them.  Same namespace as 89-packages (lib/pkgns.bash).
#
# vm-kernels: own (the compile takes 5 to 8 minutes under TCG: make
# check-dkms, a boot of Debian 12's own kernel, the first; make check's deb
# suite has the same dkms build the module from the packages for both
# kernels on the host, scripts/dkms-prebuild.sh)
# time: the DKMS compile under TCG, 5 to 8 minutes

load lib/common
load lib/pkgns

setup_file() {
	pkgns_setup_debs
}

teardown_file() {
	pkgns_teardown
}

@test "dpkg -i: DKMS builds ssdtune.ko for the running kernel in the guest and installs it; modinfo finds it; dpkg -P removes it" {
	local kver
	kver=$(uname -r)
	run in_pkg dpkg -i "$DKMS_DEB" "$TOOL_DEB"
	echo "$output" | grep -Ei 'dkms|build|ssdtune|error' >&3 || true
	[ "$status" -eq 0 ]
	[[ "$output" == *"Building initial module for $kver"* ]]
	run in_pkg dkms status ssdtune
	echo "$output" >&3
	[[ "$output" == *"ssdtune/$VERSION, $kver, x86_64: installed"* ]]
	run in_pkg modinfo -F filename ssdtune
	[[ "$output" =~ ^"/lib/modules/$kver/updates/dkms/ssdtune.ko"(\.(xz|zst|gz))?$ ]]
	[[ "$(in_pkg modinfo -F vermagic ssdtune)" == "$kver "* ]]
	run in_pkg dpkg -P ssdtune ssdtune-dkms
	[ "$status" -eq 0 ]
	[ -z "$(in_pkg dkms status ssdtune)" ]
	run in_pkg modinfo ssdtune
	[ "$status" -ne 0 ]
}
