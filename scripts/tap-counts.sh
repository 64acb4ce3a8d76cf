# shellcheck shell=bash
# Sourced by vm-test.sh, check-debug.sh and check-boot.sh.
# tap_counts FILE: sets plan (the 1..N line's N, empty if none), ok,
# notok and skipped (ok lines with a SKIP directive) for a bats TAP file.
tap_counts() {
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1" | head -1)
	ok=$(grep -c '^ok ' "$1")
	notok=$(grep -c '^not ok ' "$1")
	skipped=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$1")
}

# tap_result FILE: tap_counts, then passed (ok but skipped) and failed:
# not ok, skipped (a skip proves nothing) and every test the plan promised
# but never reported (all of them if there is no plan).
# shellcheck disable=SC2034 # the caller reads passed and failed
tap_result() {
	tap_counts "$1"
	passed=$((ok - skipped))
	missing=$((${plan:-0} - ok - notok))
	[ "$missing" -gt 0 ] || missing=0
	[ "${plan:-0}" -gt 0 ] || missing=1
	failed=$((notok + skipped + missing))
}
