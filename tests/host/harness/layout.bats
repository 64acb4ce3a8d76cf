#!/usr/bin/env bats
# The tool's layering rule: tools/ssdtune/lib/ and the bench engine in
# tools/ssdtune/bench/ neither print nor exit (scripts/lint-lib.sh, also
# part of `make lint`).

load ../helpers

LINT=$REPO/scripts/lint-lib.sh

@test "the tool's lib/ and bench/ neither print nor exit" {
	run --separate-stderr "$LINT"
	[ "$status" -eq 0 ]
	n=$(ls "$REPO"/tools/ssdtune/lib/*.c "$REPO"/tools/ssdtune/bench/*.c | wc -l)
	[ "$output" = "lint-lib: $n files in lib/ and bench/ neither print nor exit" ]
}

@test "the lib rule names a library file that prints, and one that exits" {
	lib=$BATS_TEST_TMPDIR/lib
	mkdir "$lib"
	cp "$REPO"/tools/ssdtune/lib/error.c "$lib"/
	printf '#include <stdio.h>\nint talk(int x)\n{\n\treturn printf("%%d\\n", x);\n}\n' >"$lib/talk.c"
	printf '#include <stdlib.h>\nvoid quit(void)\n{\n\texit(3);\n}\n' >"$lib/quit.c"
	LINT_LIB_DIR=$lib run --separate-stderr "$LINT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"lib/talk.c prints or exits (uses: printf)"* ]]
	[[ "$output" == *"lib/quit.c prints or exits (uses: exit)"* ]]
	[[ "$output" != *"error.c"* ]]
}

# The shell files pass shellcheck (scripts/lint-shell.sh, also part of
# `make lint`): CI runs this, not make lint.
@test "every shell file of the tree is shellcheck-clean at severity warning" {
	command -v shellcheck >/dev/null || skip "no shellcheck (make setup installs it)"
	run --separate-stderr "$REPO/scripts/lint-shell.sh"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^"lint-shell: "[0-9]+" shell files clean"$ ]]
	n=${output#lint-shell: }
	# the scripts, the libraries the suites source and the extensionless ones
	[ "${n%% *}" -ge 50 ]
}

@test "the shell lint names a file with a warning, finds scripts by their shebang and leaves bats files out" {
	command -v shellcheck >/dev/null || skip "no shellcheck (make setup installs it)"
	d=$BATS_TEST_TMPDIR/tree
	mkdir -p "$d/s"
	printf '#!/bin/bash\ncd /tmp\necho ok\n' >"$d/s/a.sh"
	printf '#!/bin/sh\ncd /tmp\n' >"$d/s/run"
	printf '#!/usr/bin/env bats\ncd /tmp\n' >"$d/s/t.bats"
	printf 'cd /tmp\n' >"$d/s/notes.txt"
	LINT_SHELL_DIR=$d run --separate-stderr "$REPO/scripts/lint-shell.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"./s/a.sh:2:1: warning:"*"[SC2164]"* ]]
	[[ "$output" == *"./s/run:2:1: warning:"*"[SC2164]"* ]]
	[[ "$output" != *"t.bats"* ]]
	[[ "$output" != *"notes.txt"* ]]
	[[ "$output" == *"problems in the 2 shell files"* ]]
}

# Which VM file runs on which kernel in make check (tests/vm/lib/tags.bash
# reads the tag; Documentation/testing.md has the table).
@test "every VM test file says where it runs (vm-kernels: both, one, full, full-both or own, with a reason), as testing.md's table does, kernel included" {
	doc=$REPO/Documentation/testing.md
	declare -A where=()
	cd "$REPO"
	. tests/vm/lib/tags.bash
	# make check's choice for each file: kernel 0 is 6.1, kernel 1 6.12
	vm_select check 0 2
	for f in "${VM_FILES[@]}"; do where[$f]=6.1; done
	vm_select check 1 2
	for f in "${VM_FILES[@]}"; do where[$f]=${where[$f]:+6.1 and }6.12; done
	n=0
	for f in tests/vm/*.bats; do
		n=$((n + 1))
		base=${f##*/}
		base=${base%.bats}
		line=$(grep -m 1 '^# vm-kernels:' "$f") || { echo "$base: no vm-kernels line"; false; }
		[[ $line =~ ^'# vm-kernels: '(both|one|full|full-both|own)' ('.+ ]] ||
			{ echo "$base: '$line' is not 'vm-kernels: both|one|full|full-both|own (why)'"; false; }
		tag=${BASH_REMATCH[1]}
		# the table row that names the file carries the same tag, and
		# the kernel make check runs it on
		row=$(grep -E "^\| [^|]*\b$base\b[^|]* \| (both|one|full|full-both|own) \|" "$doc") ||
			{ echo "$base is in no row of the table in testing.md"; false; }
		[[ $row == *" | $tag | ${where[$f]:-not run} | "* ]] ||
			{ echo "$base: testing.md says '$row'; the file says $tag, make check runs it on '${where[$f]:-not run}'"; false; }
	done
	[ "$n" -gt 20 ]
}

# make check leaves out the tests tagged full-only, and its 6.1 boot also
# those tagged one-kernel (bats --filter-tags, tests/vm/run-suite.sh); the
# summary's time per file needs their number per file, which tags.bash's
# vm_count gives without a bats start (about 10 s under TCG).
@test "one-kernel tests sit in 'both' files only, and vm_count counts what bats --filter-tags runs" {
	cd "$REPO"
	. tests/vm/lib/tags.bash
	declare -A VM_TAG=()
	vm_tags tests/vm/*.bats
	tagged=0 full=0
	for f in tests/vm/*.bats; do
		n=$(grep -c '^# bats test_tags=.*one-kernel' "$f" || true)
		tagged=$((tagged + n))
		full=$((full + $(grep -c '^# bats test_tags=.*full-only' "$f" || true)))
		[ "$n" = 0 ] || [ "${VM_TAG[$f]}" = both ] ||
			{ echo "$f: one-kernel tests in a '${VM_TAG[$f]}' file"; false; }
		for skip in "" one-kernel full-only one-kernel,full-only; do
			mine=$(vm_count "$skip" "$f")
			theirs=$(bats --count ${skip:+--filter-tags "!${skip//,/,!}"} "$f")
			[ "$mine" = "$f:$theirs" ] ||
				{ echo "$f, skipping '$skip': vm_count says ${mine#*:}, bats --count $theirs"; false; }
		done
	done
	# the tags are in use (a typo in every line would leave nothing out)
	[ "$tagged" -ge 5 ]
	[ "$full" -ge 3 ]
	vm_select check 0 2
	[ "$VM_SKIP_TAG" = one-kernel,full-only ]
	vm_select check 1 2
	[ "$VM_SKIP_TAG" = full-only ]
	vm_select full 0 2
	[ -z "$VM_SKIP_TAG" ]
}
