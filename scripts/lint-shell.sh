#!/bin/sh
# Runs shellcheck at severity warning over every shell file of the tree:
# *.sh, *.bash (sourced; "# shellcheck shell=bash" where there is no
# shebang) and the scripts without a suffix whose first line is a sh or
# bash shebang.  A deliberate exception is a "# shellcheck disable=SCnnnn"
# line with its reason.  The bats files are left out (bats' preprocessor
# makes their @test syntax its own).  Run by `make lint` and by the host
# tests (tests/host/harness/layout.bats).  Exit 0 if clean.
#
# Environment: LINT_SHELL_DIR, the tree to check (default the repository);
# BUILD, left out with build/ and .git.
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
DIR=${LINT_SHELL_DIR:-$REPO}
BUILD=${BUILD:-$REPO/build}

command -v shellcheck >/dev/null 2>&1 ||
	{ echo "lint-shell: shellcheck is not installed (run: make setup)" >&2; exit 1; }
cd "$DIR"
files=$(find . \( -path ./.git -o -path ./build -o -path "./${BUILD#"$DIR"/}" \) -prune -o \
	-type f ! -name '*.bats' ! -name '*.py' -print | sort | while read -r f; do
	case $f in
	*.sh | *.bash) echo "$f" ;;
	*) if head -n 1 "$f" 2>/dev/null | grep -Eq '^#! */(usr/)?bin/(env +)?(ba)?sh( |$)'; then
		echo "$f"
	fi ;;
	esac
done)
[ -n "$files" ] || { echo "lint-shell: no shell files under $DIR" >&2; exit 1; }
n=$(echo "$files" | wc -l)
# shellcheck disable=SC2086 # one word a file
if shellcheck -x -S warning -f gcc $files; then
	echo "lint-shell: $n shell files clean"
else
	echo "lint-shell: shellcheck found problems in the $n shell files (above)"
	exit 1
fi
