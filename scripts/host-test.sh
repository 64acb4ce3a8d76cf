#!/bin/bash
# Host tests: the bats suites in tests/host (the real ssdtune binary against
# fixture trees mounted over /sys in a private mount namespace) and the
# tool's unit tests (make -C tools/ssdtune test), merged into one TAP file:
# $BUILD/results/host.tap (BUILD defaults to <repo>/build).
# Exit status 0 only if every test ran and passed.  Needs root (or user
# namespaces) for unshare --mount.
set -u

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
RESULTS=$BUILD/results
OUT=$RESULTS/host.tap
TOOL=$REPO/tools/ssdtune

fail() {
	echo "host-test: $*" >&2
	exit 1
}

rm -f "$OUT"
command -v bats >/dev/null 2>&1 ||
	fail "bats is not installed (run scripts/setup.sh)"
[ -x "$TOOL/ssdtune" ] ||
	fail "no $TOOL/ssdtune binary (run make -C tools/ssdtune)"
mkdir -p "$RESULTS" || fail "cannot create $RESULTS"

tmp=$(mktemp -d) || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# HOST_TEST_SKIP: bats files (basenames) left out, because the caller
# runs them on their own (make check runs deb.bats first: the packages it
# builds are the ones the VM suite installs).
files=()
for f in "$REPO"/tests/host/*/*.bats; do
	case " ${HOST_TEST_SKIP:-} " in
	*" ${f##*/} "*) continue ;;
	esac
	files+=("$f")
done
SSDTUNE=$TOOL/ssdtune bats --timing --formatter tap "${files[@]}" >"$tmp/bats.tap" 2>"$tmp/bats.err"
bats_rc=$?
make -s --no-print-directory -C "$TOOL" test >"$tmp/unit.tap" 2>"$tmp/unit.err"
unit_rc=$?

# One plan, bats tests first, then the unit tests renumbered after them.
# A suite that stopped early (no plan line, or fewer results than planned)
# gets a "not ok" line of its own, so it cannot pass silently.
awk -v bats_rc="$bats_rc" -v unit_rc="$unit_rc" '
FNR == 1 { file++ }
file == 1 && /^1\.\.[0-9]+$/ { bplan = substr($0, 4) + 0; next }
file == 1 && /^(not )?ok / {
	bn++; lines[++n] = $0; next }
file == 1 { lines[++n] = $0; next }
file == 2 && /^1\.\.[0-9]+$/ { uplan = substr($0, 4) + 0; next }
file == 2 && /^(not )?ok [0-9]+/ {
	un++
	ok = ($1 == "ok") ? "ok" : "not ok"
	rest = $0; sub(/^(not )?ok [0-9]+( - )?/, "", rest)
	lines[++n] = sprintf("%s @N@ unit: %s", ok, rest); next }
file == 2 { lines[++n] = $0; next }
END {
	if (bplan == "" || bn < bplan || (bats_rc != 0 && bn == 0))
		lines[++n] = "not ok @N@ bats suite tests/host ran to completion (rc " bats_rc ")"
	if (uplan == "" || un < uplan || (unit_rc != 0 && un == 0))
		lines[++n] = "not ok @N@ unit tests (make -C tools/ssdtune test) ran to completion (rc " unit_rc ")"
	total = 0
	for (i = 1; i <= n; i++)
		if (lines[i] ~ /^(not )?ok /) total++
	print "1.." total
	k = 0
	for (i = 1; i <= n; i++) {
		l = lines[i]
		if (l ~ /^(not )?ok /) {
			k++
			if (l ~ /@N@/) sub(/@N@/, k, l)
			else sub(/^(not )?ok [0-9]+/, (l ~ /^not / ? "not ok " : "ok ") k, l)
		}
		print l
	}
}' "$tmp/bats.tap" "$tmp/unit.tap" >"$tmp/host.tap" ||
	fail "cannot merge the TAP output"

mv "$tmp/host.tap" "$OUT" || fail "cannot write $OUT"
total=$(grep -c -E '^(not )?ok ' "$OUT")
failed=$(grep -c '^not ok ' "$OUT")
if [ "$total" -eq 0 ]; then
	echo "host-test: no test ran" >&2
	exit 1
fi
if [ "$failed" -ne 0 ]; then
	grep '^not ok ' "$OUT" >&2
	[ -s "$tmp/bats.err" ] && head -5 "$tmp/bats.err" >&2
	[ -s "$tmp/unit.err" ] && head -5 "$tmp/unit.err" >&2
	echo "host-test: $((total - failed)) passed, $failed failed ($OUT)" >&2
	exit 1
fi
echo "host-test: $total passed, 0 failed ($OUT)"
