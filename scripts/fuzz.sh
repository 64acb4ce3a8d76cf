#!/bin/sh
# The fuzz suite (make check-full): tools/ssdtune's input parsers under
# ASan and UBSan (tools/ssdtune/tests/fuzz.c, `make -C tools/ssdtune
# fuzz`), one TAP line per target into $BUILD/results/fuzz.tap.  Exits 0
# iff every target passed; when the harness cannot be built it leaves no
# fuzz.tap and says why.  A failing input is written under
# $BUILD/results/fuzz/TARGET/, with the command that replays it.
#
# Environment: BUILD (default ./build), FUZZ_TIME (seconds in all, default
# 30), FUZZ_SEED (default: from the clock; printed), FUZZ_ITERS.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
RESULTS=$BUILD/results
mkdir -p "$RESULTS"
rm -f "$RESULTS/fuzz.tap" "$RESULTS/fuzz.tap.partial"

if ! make -s -C "$REPO/tools/ssdtune" tests/fuzz >"$RESULTS/fuzz-build.log" 2>&1; then
	echo "fuzz: cannot build the harness (see $RESULTS/fuzz-build.log)" >&2
	exit 1
fi
rc=0
make -s -C "$REPO/tools/ssdtune" fuzz FUZZ_OUT="$RESULTS/fuzz" \
	>"$RESULTS/fuzz.tap.partial" 2>"$RESULTS/fuzz.log" || rc=$?
cat "$RESULTS/fuzz.tap.partial"
mv "$RESULTS/fuzz.tap.partial" "$RESULTS/fuzz.tap"
[ "$rc" -eq 0 ] || echo "fuzz: failed (sanitizer reports in $RESULTS/fuzz.log)" >&2
exit "$rc"
