# Sourced by vm-test.sh and check-debug.sh.
# tap_counts FILE: sets plan (the 1..N line's N, empty if none), ok,
# notok and skipped (ok lines with a SKIP directive) for a bats TAP file.
tap_counts() {
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1" | head -1)
	ok=$(grep -c '^ok ' "$1")
	notok=$(grep -c '^not ok ' "$1")
	skipped=$(grep -c '^ok .*# [Ss][Kk][Ii][Pp]' "$1")
}
