#!/bin/sh
# make lint: checkpatch --strict over the kernel sources, then ssdtune.ko
# built with W=1 (extra compiler warnings) and C=1 (sparse) for every kernel
# scripts/kvers.sh names, then the tool's layering rule (scripts/lint-lib.sh:
# tools/ssdtune/lib/ neither prints nor exits), then the tool's names rule
# (scripts/lint-names.py: no sysfs file name of the driver spelled out in
# tools/ssdtune/{lib,cmd,bench}, each comes from the table of
# include/uapi/linux/ssdtune_knobs.h), then shellcheck over the shell
# files.  Any checkpatch message (ERROR, WARNING or CHECK),
# compiler or sparse warning, or build failure fails the lint.
#
# Environment: BUILD (default ./build), KSRC (kernel tree that provides
# scripts/checkpatch.pl, default /usr/src/linux-source-6.1).
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-/usr/src/linux-source-6.1}
CHECKPATCH=$KSRC/scripts/checkpatch.pl

die() { echo "lint: $*" >&2; exit 1; }

cd "$REPO"
[ -f "$CHECKPATCH" ] || die "no $CHECKPATCH (run: make setup)"
# checkpatch reads these from its own directory.
for f in spelling.txt const_structs.checkpatch; do
	[ -f "$KSRC/scripts/$f" ] || die "no $KSRC/scripts/$f next to checkpatch.pl"
done
command -v sparse >/dev/null 2>&1 || die "sparse is not installed (run: make setup)"
command -v perl >/dev/null 2>&1 || die "perl is not installed (run: make setup)"
kvers=$(scripts/kvers.sh) || die "no kernels to build against (see above)"
mkdir -p "$BUILD"

fail=0

# --- checkpatch ------------------------------------------------------------------
files=""
for f in kmod/*.c kmod/*.h kmod/tests/*.c include/uapi/linux/*.h; do
	[ -f "$f" ] && files="$files $f"
done
[ -n "$files" ] || die "no kernel sources found under kmod/"
nfiles=$(echo $files | wc -w)
# shellcheck disable=SC2086
if perl "$CHECKPATCH" --strict --no-tree --quiet --show-types -f $files \
	>"$BUILD/lint-checkpatch.log" 2>&1; then
	echo "lint: checkpatch --strict: $nfiles files clean"
else
	cat "$BUILD/lint-checkpatch.log"
	echo "lint: checkpatch --strict: problems found (above)"
	fail=1
fi

# --- W=1 and sparse, per kernel ------------------------------------------------
# A fresh object directory each time: C=1 checks only what it recompiles.
for k in $kvers; do
	obj=$BUILD/lint-$k
	log=$BUILD/lint-$k.log
	rm -rf "$obj"
	# (without the caller's MAKEFLAGS: `make -s lint` would hide the CHECK
	# lines that show sparse ran)
	if env -u MAKEFLAGS -u MFLAGS make -C kmod KVER="$k" OBJ="$obj" W=1 C=1 \
		CONFIG_SSDTUNE_DEBUG=y >"$log" 2>&1; then
		built=1
	else
		built=0
	fi
	# gcc and sparse say "warning:"/"error:", modpost "WARNING:"/"ERROR:".
	if grep -E -i '(^|[[:space:]:])(warning|error):' "$log" >"$log.warnings"; then
		sed "s|$obj/|kmod/|" "$log.warnings"
		echo "lint: $k: $(wc -l <"$log.warnings") compiler/sparse warnings (log: $log)"
		fail=1
	elif [ "$built" -ne 1 ] || [ ! -f "$obj/ssdtune.ko" ]; then
		tail -n 20 "$log"
		echo "lint: $k: the W=1 C=1 build failed (log: $log)"
		fail=1
	elif ! grep -q '^ *CHECK ' "$log"; then
		echo "lint: $k: sparse never ran (no CHECK lines in $log)"
		fail=1
	else
		echo "lint: $k: W=1 and sparse clean ($(grep -c '^ *CHECK ' "$log") files)"
	fi
	rm -f "$log.warnings"
done

# --- the tool's library: no printing, no exit ---------------------------------
scripts/lint-lib.sh || fail=1

# --- the tool's sysfs file names: from the driver's table ---------------------
python3 scripts/lint-names.py || fail=1

# --- shellcheck over the shell files -----------------------------------------
scripts/lint-shell.sh || fail=1

[ "$fail" -eq 0 ] && echo "lint: all clean"
exit "$fail"
