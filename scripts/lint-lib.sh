#!/bin/sh
# The tool's library, tools/ssdtune/lib/, and the bench engine,
# tools/ssdtune/bench/, neither print nor exit: errors come back as values
# (lib/error.h) and the commands in cmd/ decide what to show.  Checked on
# what the compiler made of each of their .c files: an undefined
# reference to stdout or stderr, to a function that prints to them, or to
# one that ends the process, fails.  Run by `make lint` and by the host
# tests (tests/host/harness/layout.bats).  Exit 0 if clean.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
# (tests point LINT_LIB_DIR at a folder of their own)
DIRS=${LINT_LIB_DIR:-$REPO/tools/ssdtune/lib $REPO/tools/ssdtune/bench}
# What printing or exiting compiles to (gcc turns printf into puts or
# putchar, fprintf(stderr) into fwrite plus stderr; _FORTIFY_SOURCE adds
# the _chk forms).
BANNED='stdout|stderr|printf|vprintf|__printf_chk|__vprintf_chk|puts|putchar|perror|psignal|psiginfo|exit|_exit|_Exit|quick_exit|abort|err|errx|verr|verrx|warn|warnx|vwarn|vwarnx|error|error_at_line'

command -v nm >/dev/null 2>&1 || { echo "lint-lib: nm is not installed (binutils)" >&2; exit 1; }
obj=$(mktemp -d)
trap 'rm -rf "$obj"' EXIT
flags="-std=c11 -D_GNU_SOURCE -O2 -I$REPO/tools/ssdtune -I$REPO/include $(pkg-config --cflags libpci json-c numa libnl-genl-3.0)"
fail=0 n=0
for src in $(for d in $DIRS; do ls "$d"/*.c; done); do
	name=$(basename "$(dirname "$src")")/$(basename "$src")
	o=$obj/$(basename "$src" .c).o
	# shellcheck disable=SC2086
	if ! cc $flags -c -o "$o" "$src" 2>"$obj/cc.err"; then
		cat "$obj/cc.err" >&2
		echo "lint-lib: $name does not compile"
		fail=1
		continue
	fi
	n=$((n + 1))
	bad=$(nm -u "$o" | awk '{print $NF}' | grep -E -x "$BANNED" | tr '\n' ' ' || true)
	if [ -n "$bad" ]; then
		echo "lint-lib: $name prints or exits (uses: ${bad% }); return a struct lib_err instead"
		fail=1
	fi
done
[ "$n" -gt 0 ] || { echo "lint-lib: nothing compiled"; exit 1; }
[ "$fail" -eq 0 ] && echo "lint-lib: $n files in lib/ and bench/ neither print nor exit"
exit "$fail"
