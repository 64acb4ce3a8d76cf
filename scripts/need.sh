#!/bin/sh
# need.sh tools|modules|install|deb: does this host have what the build
# target needs?  When not, one line names the missing Debian packages and
# the exit status is 1.  Never installs anything: build targets do not change the
# host (only make setup, demo, check and the benches run scripts/setup.sh).
# NEED_KVERS (modules): the kernels to check headers for (under
# SSDT_SYSROOT, a fake host's root, if set).
# deb (make deb, scripts/deb.sh): the tool's build dependencies, and
# dpkg-buildpackage, debhelper, dh-dkms, lintian and rsync.
set -u
what=${1:?usage: need.sh tools|modules|install|deb}
missing=""

need_cmd() {	# need_cmd COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}

case $what in
tools|install|deb)
	need_cmd cc gcc
	need_cmd make make
	need_cmd pkg-config pkg-config
	if command -v pkg-config >/dev/null 2>&1; then
		# the pkg-config names tools/ssdtune/Makefile links, and their packages
		for pair in libpci:libpci-dev json-c:libjson-c-dev numa:libnuma-dev \
			    libnl-genl-3.0:libnl-genl-3-dev; do
			pkg-config --exists "${pair%%:*}" 2>/dev/null || missing="$missing ${pair#*:}"
		done
	fi
	[ "$what" = tools ] || need_cmd install coreutils
	if [ "$what" = deb ]; then
		need_cmd dpkg-buildpackage dpkg-dev
		need_cmd dh debhelper
		need_cmd dh_dkms dh-dkms
		need_cmd lintian lintian
		need_cmd rsync rsync
	fi
	;;
modules)
	need_cmd make make
	need_cmd cc gcc
	for k in ${NEED_KVERS:-$(uname -r)}; do
		[ -e "${SSDT_SYSROOT:-}/lib/modules/$k/build/Makefile" ] || missing="$missing linux-headers-$k"
	done
	;;
*)
	echo "need.sh: unknown target '$what'" >&2
	exit 2
	;;
esac

[ -z "$missing" ] && exit 0
echo "make $what: missing:$missing (install with: apt-get install$missing; or make setup for the whole test environment)" >&2
exit 1
