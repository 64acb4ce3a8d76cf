# shellcheck shell=bash
# Sourced (bash) by the scripts that boot one VM for a report: demo.sh and
# the bench*.sh.  vm_preamble NAME [KVER]: cd to the repository, export
# BUILD (default ./build), set kver to KVER or else the newest kernel
# scripts/kvers.sh names, and check that ssdtune.ko for it and the tool
# are built; if not, one line saying what to run, prefixed "NAME: ", and
# exit 1.  Builds and installs nothing.
vm_preamble() {
	local name=$1
	cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
	BUILD=${BUILD:-$(pwd)/build}
	export BUILD
	kver=${2:-$(scripts/kvers.sh | tail -n 1)}
	[ -n "$kver" ] || { echo "$name: no kernel (run: make setup)" >&2; exit 1; }
	[ -f "$BUILD/kmod-$kver/ssdtune.ko" ] ||
		{ echo "$name: $BUILD/kmod-$kver/ssdtune.ko is missing (run: make modules)" >&2; exit 1; }
	[ -x tools/ssdtune/ssdtune ] ||
		{ echo "$name: tools/ssdtune/ssdtune is missing (run: make tools)" >&2; exit 1; }
}
