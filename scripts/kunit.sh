#!/bin/sh
# KUnit suite: build a UML kernel from Debian's linux-source-6.1 with
# ssdtune's pure logic and its KUnit tests (kmod/tests/) built in, boot it
# with tools/testing/kunit/kunit.py, and write one TAP line per test case to
# $BUILD/results/kunit.tap.  Exits 0 iff every case passed; when the kernel
# cannot be configured, built or booted it leaves no kunit.tap and says why.
#
# The source tree is never modified: $BUILD/kunit-src is a hard-link copy of
# it (made once) in which drivers/ssdtune links to this repo's kmod/ and
# drivers/Kconfig sources this repo's top-level Kconfig.  Objects go to
# $BUILD/kunit-out, so reruns rebuild only what changed.
#
# Environment: BUILD (default ./build), KUNIT_KSRC (default
# /usr/src/linux-source-6.1), JOBS (default: number of CPUs),
# KUNIT_TIMEOUT (seconds the tests may run, default 300).
# Arguments are passed to kunit.py run (e.g. a filter glob 'ssdtune_prp.*').
#
#   scripts/kunit.sh --build-only   build the UML kernel and stop: make setup
#                                   does this once, so the first make check
#                                   of a checkout rebuilds only what changed
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
KSRC=${KUNIT_KSRC:-/usr/src/linux-source-6.1}
JOBS=${JOBS:-$(nproc)}
TIMEOUT=${KUNIT_TIMEOUT:-300}
SRC=$BUILD/kunit-src
OUT=$BUILD/kunit-out
TAP=$BUILD/results/kunit.tap
JSON=$BUILD/kunit-results.json
LOG=$BUILD/kunit.log

die() { echo "kunit: $*" >&2; exit 1; }

mkdir -p "$BUILD/results"
[ "${1:-}" = --build-only ] || rm -f "$TAP"

[ -f "$KSRC/tools/testing/kunit/kunit.py" ] ||
	die "no kernel source with kunit.py at $KSRC (run: make setup)"
[ -f "$REPO/kmod/Kbuild" ] ||
	die "kmod/Kbuild is missing: nothing tells kbuild what to build"
[ -f "$REPO/kmod/tests/.kunitconfig" ] || die "kmod/tests/.kunitconfig is missing"
for t in python3 make gcc flex bison bc flock; do
	command -v "$t" >/dev/null 2>&1 || die "$t is not installed (run: make setup)"
done

# One run at a time per build directory.
exec 9>"$BUILD/.kunit.lock"
flock 9 || die "cannot lock $BUILD/.kunit.lock"

# --- the private source tree -------------------------------------------------
# Recreate it (and drop the objects built from it) when the source changes.
stamp="$KSRC $(stat -c '%i %Y' "$KSRC/Makefile")"
if [ ! -f "$SRC/.ssdtune-src" ] || [ "$(cat "$SRC/.ssdtune-src")" != "$stamp" ]; then
	echo "kunit: making a hard-link copy of $KSRC in $SRC"
	rm -rf "$SRC" "$SRC.tmp" "$OUT"
	if ! cp -al "$KSRC" "$SRC.tmp" 2>/dev/null; then
		rm -rf "$SRC.tmp"
		echo "kunit: hard links impossible (other file system); copying"
		cp -a "$KSRC" "$SRC.tmp" || die "cannot copy $KSRC to $SRC"
	fi
	# The files edited below must not share an inode with $KSRC.
	for f in drivers/Kconfig drivers/Makefile; do
		cp "$SRC.tmp/$f" "$SRC.tmp/$f.orig"
		rm "$SRC.tmp/$f"
		cp "$SRC.tmp/$f.orig" "$SRC.tmp/$f"
	done
	echo "$stamp" >"$SRC.tmp/.ssdtune-src"
	mv "$SRC.tmp" "$SRC"
fi

# Replace $1 by stdin only when it differs (keeps mtimes for make), never
# writing through a hard link.
update() {
	cat >"$1.new"
	if cmp -s "$1.new" "$1"; then rm -f "$1.new"; else mv -f "$1.new" "$1"; fi
}

# Wire the repo in on every run: the repo may have moved.
ln -sfn "$REPO/kmod" "$SRC/drivers/ssdtune"
ln -sfn "$REPO/Kconfig" "$SRC/drivers/Kconfig.ssdtune"
awk '{ l[NR] = $0 } /^endmenu/ { last = NR }
     END { for (i = 1; i <= NR; i++) {
		if (i == last) print "source \"drivers/Kconfig.ssdtune\"\n"
		print l[i] } }' "$SRC/drivers/Kconfig.orig" | update "$SRC/drivers/Kconfig"
grep -q 'Kconfig.ssdtune' "$SRC/drivers/Kconfig" ||
	die "could not hook Kconfig into $SRC/drivers/Kconfig"
{ cat "$SRC/drivers/Makefile.orig"
  echo 'obj-$(CONFIG_SSDTUNE_KUNIT_TEST)	+= ssdtune/'; } | update "$SRC/drivers/Makefile"

# --- build and run -------------------------------------------------------------
mkdir -p "$OUT/drivers/ssdtune"
# ssdt_compat.h's header features of the kernel KUnit builds (kmod/Kbuild
# puts the object directory on the include path)
"$REPO/kmod/gen-compat.sh" "$SRC" | update "$OUT/drivers/ssdtune/ssdt_config.h"
if [ "${1:-}" = --build-only ]; then
	exec python3 "$SRC/tools/testing/kunit/kunit.py" build --arch=um \
		--build_dir="$OUT" --kunitconfig="$REPO/kmod/tests/.kunitconfig" \
		--jobs="$JOBS"
fi
rm -f "$JSON"
start=$(date +%s)
set +e
python3 "$SRC/tools/testing/kunit/kunit.py" run --arch=um \
	--build_dir="$OUT" --kunitconfig="$REPO/kmod/tests/.kunitconfig" \
	--jobs="$JOBS" --timeout="$TIMEOUT" --json="$JSON" "$@" 2>&1 | tee "$LOG"
set -e
secs=$(($(date +%s) - start))

if [ ! -s "$JSON" ]; then
	if grep -q 'Not all Kconfig options' "$LOG"; then
		die "UML kernel config lacks $(sed -n 's/^Missing: //p' "$LOG" | head -n 1) (see $LOG)"
	fi
	first=$(grep -m 1 ' error: ' "$LOG" | sed 's/^ERROR:root://; s|.*/drivers/ssdtune/|kmod/|') || true
	if [ -n "$first" ]; then
		die "UML kernel build failed: $first (see $LOG)"
	fi
	if grep -q 'Build Error\|BuildError\|Error [0-9]' "$LOG"; then
		die "UML kernel build failed after ${secs}s (see $LOG)"
	fi
	die "kunit.py produced no results after ${secs}s (see $LOG)"
fi

# Test sources that kbuild did not compile into this kernel (missing from
# SSDT_TEST_OBJS in kmod/Kbuild) would otherwise vanish silently.
# What kbuild linked: the members of built-in.a (6.1 links composite
# objects' parts directly) and the command lines of any composite object.
linked=$( { ar t "$OUT/drivers/ssdtune/built-in.a" 2>/dev/null || true
	    cat "$OUT"/drivers/ssdtune/.*.o.cmd 2>/dev/null || true; } | tr ' ' '\n')
unbuilt=""
for c in "$REPO"/kmod/tests/*.c; do
	[ -e "$c" ] || continue
	o=tests/$(basename "${c%.c}").o
	# (-ot: dash's test has it)
	# shellcheck disable=SC3013
	if [ ! -f "$OUT/drivers/ssdtune/$o" ] || [ "$OUT/drivers/ssdtune/$o" -ot "$c" ] ||
	   ! printf '%s\n' "$linked" | grep -q "\(^\|/\)$o\$"; then
		unbuilt="$unbuilt tests/$(basename "$c")"
	fi
done

rc=0
UNBUILT=$unbuilt python3 - "$JSON" "$TAP" <<'EOF' || rc=$?
import json, os, sys

with open(sys.argv[1]) as f:
    top = json.load(f)

lines = []

def walk(group, prefix):
    for case in group.get("test_cases", []):
        # The parser reports tests it expected but never saw unnamed.
        name = ".".join(prefix + [case["name"] or "(missing: kernel crashed?)"])
        lines.append((case["status"], name))
    for sub in group.get("sub_groups", []):
        walk(sub, prefix + [sub["name"]])

walk(top, [])
for src in os.environ.get("UNBUILT", "").split():
    lines.append(("FAIL", "kmod/%s is built into the KUnit kernel "
                  "(add it to SSDT_TEST_OBJS in kmod/Kbuild)" % src))
if not lines:
    sys.exit(2)
with open(sys.argv[2] + ".tmp", "w") as out:
    out.write("1..%d\n" % len(lines))
    for i, (status, name) in enumerate(lines, 1):
        name = name.replace("#", "").replace("\n", " ")
        if status == "PASS":
            out.write("ok %d - %s\n" % (i, name))
        elif status == "SKIP":
            out.write("ok %d - %s # SKIP\n" % (i, name))
        else:
            out.write("not ok %d - %s (%s)\n" % (i, name, status))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
EOF
[ "$rc" -ne 2 ] || die "the UML kernel ran no KUnit tests (see $LOG)"
[ "$rc" -eq 0 ] || die "cannot convert $JSON to TAP"

pass=$(grep -c '^ok ' "$TAP" || true)
fail=$(grep -c '^not ok ' "$TAP" || true)
echo "kunit: $pass passed, $fail failed in ${secs}s (TAP: $TAP)"
[ "$fail" -eq 0 ]
