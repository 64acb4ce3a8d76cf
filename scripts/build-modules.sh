#!/bin/sh
# Build ssdtune.ko for the kernel KVER names, or else for every kernel
# with headers of these: the 6.1 and 6.12 kernels the tests boot
# (scripts/kvers.sh) and the running kernel.  Each build is a test:
# $BUILD/results/build.tap says which kernels built, and the build fails
# on any compiler warning.  Installs nothing: with no kernel to build for,
# scripts/need.sh names the headers package of the running kernel.
#
# These are test builds, with the debugfs fault hooks
# (CONFIG_SSDTUNE_DEBUG=y), in $BUILD/kmod-KVER.  RELEASE=1: the build to
# load on a host, without them (as DKMS and the package build it), in
# $BUILD/kmod-release-KVER, for KVER or else the running kernel.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-$(pwd)/build}
mkdir -p "$BUILD/results"
running=$(uname -r)
# SSDT_SYSROOT: a fake host's root for /boot and /lib/modules (host tests)
has_headers() { [ -e "${SSDT_SYSROOT:-}/lib/modules/$1/build/Makefile" ]; }

if [ "${RELEASE:-}" = 1 ]; then
	kvers=${KVER:-$running}
	prefix=kmod-release- debug="" what=" (release build)"
	tap=$BUILD/results/build-release.tap
else
	prefix=kmod- debug=CONFIG_SSDTUNE_DEBUG=y what=""
	tap=$BUILD/results/build.tap
	if [ -n "${KVER:-}" ]; then
		kvers=$KVER
	else
		# the test kernels found, and the running one if it has headers
		# (an empty list leaves need.sh to name its headers package)
		kvers=$(scripts/kvers.sh 2>/dev/null | tr '\n' ' ')
		case " $kvers " in
		*" $running "*) ;;
		*) has_headers "$running" && kvers="$kvers$running" ;;
		esac
		[ -n "$kvers" ] || kvers=$running
		scripts/kvers.sh >/dev/null 2>&1 || note=1
	fi
fi
rm -f "$tap"
NEED_KVERS=$kvers scripts/need.sh modules || exit 1
[ -z "${note:-}" ] ||
	echo "build-modules: building for ${kvers% }; the VM tests also need a 6.1 and a 6.12 kernel with headers (make setup)" >&2
n=0; fail=0; out=""
# both cores: 9 s a kernel against 16 s with one job (make check waits for it)
jobs=$(nproc 2>/dev/null || echo 2)
for k in $kvers; do
	n=$((n + 1))
	obj=$BUILD/$prefix$k
	log=$obj.log
	# shellcheck disable=SC2086 # $debug: one word or none
	if make -s -j"$jobs" -C kmod KVER="$k" OBJ="$obj" KCFLAGS=-Werror \
		$debug >"$log" 2>&1 &&
	   [ -f "$obj/ssdtune.ko" ]; then
		out="${out}ok $n - ssdtune.ko builds for $k$what
"
	else
		cat "$log" >&2
		out="${out}not ok $n - ssdtune.ko builds for $k (see $log)
"
		fail=1
	fi
done
printf '1..%d\n%s' "$n" "$out" >"$tap"
cat "$tap"
exit $fail
