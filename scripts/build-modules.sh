#!/bin/sh
# Build ssdtune.ko for every kernel scripts/kvers.sh names.  Each build is a
# test: $BUILD/results/build.tap says which kernels built, and the build
# fails on any compiler warning.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-$(pwd)/build}
mkdir -p "$BUILD/results"
tap=$BUILD/results/build.tap
rm -f "$tap"
kvers=$(scripts/kvers.sh) || exit 1
n=0; fail=0; out=""
for k in $kvers; do
	n=$((n + 1))
	log=$BUILD/kmod-$k.log
	if make -s -C kmod KVER="$k" OBJ="$BUILD/kmod-$k" KCFLAGS=-Werror >"$log" 2>&1 &&
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
