#!/usr/bin/env bats
# The man page, Documentation/ssdtune.8: groff has nothing to warn about,
# and it documents exactly the commands and long options that the tool's
# own --help lists.  Every list here comes from 'ssdtune --help' and
# 'ssdtune CMD --help', so the test follows the tool and cannot go stale.

load ../helpers

MAN=$REPO/Documentation/ssdtune.8

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	command -v groff >/dev/null || skip "no groff"
	# The page as plain text, one line per paragraph (no line breaks, so
	# no hyphenation), \- as -.  Section headings start in column 0,
	# .TP tags (the command synopses of COMMANDS) in column 7.
	MANTXT=$BATS_TEST_TMPDIR/ssdtune.8.txt
	groff -man -Tascii -P-cbou -rLL=4000n -rHY=0 "$MAN" >"$MANTXT"
}

# The commands of 'ssdtune --help': the first word of each line under
# "Commands:".
help_commands() {
	"$SSDTUNE" --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }'
}

# The long options a --help text on stdin defines: those at the start of an
# indented line ("  --bs LIST  ...", "  -h, --help  ...", "  --random, --seq").
help_options() {
	sed -nE 's/^[[:space:]]+((-[^ ,]+, )*-[^ ,]+).*/\1/p' | tr ',' '\n' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# The text of section $1 of the page (its body, without the heading).
man_section() {
	awk -v s="$1" '/^[^ ]/ { in_s = ($0 == s); next } in_s' "$MANTXT"
}

# The commands the page documents: the first word of each tag of COMMANDS.
man_commands() {
	man_section COMMANDS | awk '/^       [^ ]/ { print $1 }' | sort -u
}

# The entries of COMMANDS whose tag starts with command $1 (tag and body).
man_command() {
	man_section COMMANDS |
		awk -v c="$1" '/^       [^ ]/ { cur = $1 } cur == c'
}

# Whether option $1 stands as a word in stdin ("--rw" in "--rw LIST", not
# in "--rwx" or "x--rw").
has_option() {
	grep -qE -- "(^|[^[:alnum:]-])$1([^[:alnum:]-]|\$)"
}

@test "groff -ww and man --warnings find nothing to warn about in ssdtune.8, no section twice" {
	run --separate-stderr groff -man -ww -z "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$output" ] || { echo "groff printed: $output"; return 1; }
	[ -z "$stderr" ] || { echo "groff warned: $stderr"; return 1; }
	# one section of each name (groff does not mind two FILES)
	run grep -E '^\.SH' "$MAN"
	[ -z "$(printf '%s\n' "${lines[@]}" | sort | uniq -d)" ] ||
		{ echo "sections more than once: $(printf '%s\n' "${lines[@]}" | sort | uniq -d)"; return 1; }
	command -v man >/dev/null || skip "no man"
	run --separate-stderr man --warnings -l -Tutf8 "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "man warned: $stderr"; return 1; }
}

@test "every command of ssdtune --help has its entry in COMMANDS, and no other" {
	local cmds c bad=0
	cmds=$(help_commands)
	[ "$(printf '%s\n' "$cmds" | wc -l)" -ge 5 ] || { echo "too few commands in --help: $cmds"; return 1; }
	for c in $cmds; do
		man_commands | grep -qxF -- "$c" || { echo "ssdtune.8: no entry for '$c' in COMMANDS"; bad=1; }
	done
	for c in $(man_commands); do
		printf '%s\n' "$cmds" | grep -qxF -- "$c" || { echo "ssdtune.8 documents '$c', which ssdtune --help does not list"; bad=1; }
	done
	return "$bad"
}

@test "the page documents every long option of every --help, and no option --help lacks" {
	local cmds c o global own all bad=0
	cmds=$(help_commands)
	global=$("$SSDTUNE" --help | help_options)
	[ -n "$global" ] || { echo "no options in ssdtune --help"; return 1; }
	all=$global
	# The global options (--json, --help, ...) in OPTIONS.
	for o in $global; do
		man_section OPTIONS | has_option "$o" || { echo "ssdtune.8: no $o in OPTIONS"; bad=1; }
	done
	# Each command's own options in its entry of COMMANDS; the ones it
	# shares with every command (its "Options:") in OPTIONS.
	for c in $cmds; do
		own=$("$SSDTUNE" "$c" --help | help_options)
		[ -n "$own" ] || { echo "no options in ssdtune $c --help"; bad=1; }
		all=$(printf '%s\n%s\n' "$all" "$own")
		for o in $own; do
			if printf '%s\n' "$global" | grep -qxF -- "$o"; then
				man_section OPTIONS | has_option "$o" || { echo "ssdtune.8: no $o (of $c) in OPTIONS"; bad=1; }
			else
				man_command "$c" | has_option "$o" || { echo "ssdtune.8: no $o in the entry of $c"; bad=1; }
			fi
		done
	done
	# The reverse: every --option the page names is one of some --help.
	for o in $(grep -oE -- '(^|[^[:alnum:]-])--[a-z][a-z0-9-]*' "$MANTXT" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		printf '%s\n' "$all" | grep -qxF -- "$o" || { echo "ssdtune.8 names $o, which no --help lists"; bad=1; }
	done
	return "$bad"
}
