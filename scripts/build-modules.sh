#!/bin/sh
# Build ssdtune.ko for the kernel KVER names, or else for every kernel
# scripts/kvers.sh names (the 6.1 and 6.12 kernels the tests boot), or else,
# on a host that has neither, for the running kernel.  Each build is a test:
# $BUILD/results/build.tap says which kernels built, and the build fails on
# any compiler warning.  Installs nothing (scripts/need.sh says what lacks).
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-$(pwd)/build}
mkdir -p "$BUILD/results"
tap=$BUILD/results/build.tap
rm -f "$tap"
if [ -n "${KVER:-}" ]; then
	kvers=$KVER
elif ! kvers=$(scripts/kvers.sh 2>/dev/null) && [ -z "$kvers" ]; then
	kvers=$(uname -r)
	echo "build-modules: no 6.1 or 6.12 test kernel with headers here: building for the running kernel $kvers" >&2
elif [ "$(echo "$kvers" | wc -w)" -lt 2 ]; then
	scripts/kvers.sh >/dev/null	# names the missing series
	exit 1
fi
NEED_KVERS=$kvers scripts/need.sh modules || exit 1
n=0; fail=0; out=""
# both cores: 9 s a kernel against 16 s with one job (make check waits for it)
jobs=$(nproc 2>/dev/null || echo 2)
for k in $kvers; do
	n=$((n + 1))
	log=$BUILD/kmod-$k.log
	if make -s -j"$jobs" -C kmod KVER="$k" OBJ="$BUILD/kmod-$k" KCFLAGS=-Werror \
		CONFIG_SSDTUNE_DEBUG=y >"$log" 2>&1 &&
	   [ -f "$BUILD/kmod-$k/ssdtune.ko" ]; then
		out="${out}ok $n - ssdtune.ko builds for $k
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
