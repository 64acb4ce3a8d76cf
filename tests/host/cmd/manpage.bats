#!/usr/bin/env bats
# The man page, Documentation/ssdtune.8: groff has nothing to warn about,
# and it documents exactly the commands, options, knobs and configuration
# keys the tool accepts, and no other.  Every list here comes from the
# tool: 'ssdtune --help' and 'ssdtune CMD --help', its getopt tables, the
# knob list it gives when it refuses one (which must be the uapi header
# include/uapi/linux/ssdtune_knobs.h's) and the key list of check-config,
# so the test follows the tool and cannot go stale.

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

# The long options of the tool's getopt tables (struct option arrays:
# { "name", no_argument, ... }), every command's and the global ones.
table_options() {
	grep -rhoE '\{[[:space:]]*"[a-z][a-z0-9-]*",[[:space:]]*(no|required|optional)_argument' \
		"$REPO/tools/ssdtune" --include='*.c' |
		sed -E 's/\{[[:space:]]*"([^"]*)".*/--\1/' | sort -u
}

# The long options the page names anywhere.
man_options() {
	grep -oE -- '(^|[^[:alnum:]-])--[a-z][a-z0-9-]*' "$MANTXT" |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# The knobs 'set' accepts, as the tool itself lists them when it refuses
# one: "unknown knob 'x' (knobs: a, b, ...)".
tool_knobs() {
	local err
	err=$("$SSDTUNE" set --dry-run ssdtune-no-such-knob=1 2>&1 >/dev/null) || true
	sed -nE 's/.*\(knobs: ([^)]*)\).*/\1/p' <<<"$err" | tr -d ' ' | tr ',' '\n' | sort
}

# same_names WHAT TOOL PAGE: files TOOL (what the tool accepts) and PAGE
# (what the page names) hold the same lines; else each difference, and 1.
same_names() {
	same_lines "$2" "$3" "ssdtune.8: no $1 %s, which the tool accepts" \
		"ssdtune.8 names $1 %s, which the tool does not accept"
}

@test "the tool's option tables and the page name the same long options, and every short option is in OPTIONS" {
	local bad=0 c
	table_options >"$BATS_TEST_TMPDIR/table"
	man_options >"$BATS_TEST_TMPDIR/man"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/table")" -ge 30 ] || { echo "too few options found in the tables:"; cat "$BATS_TEST_TMPDIR/table"; return 1; }
	same_names option "$BATS_TEST_TMPDIR/table" "$BATS_TEST_TMPDIR/man" || bad=1
	# the short forms: cli.c's shorts[] ({ 'j', "json" }, ...), -h and -V
	for c in $(sed -nE "s/.*\{ '([a-zA-Z])', \"[a-z-]+\" \}.*/\1/p; s/.*NULL, '([hV])' \}.*/\1/p" \
		"$REPO/tools/ssdtune/cmd/cli.c" | grep -oE "'?[a-zA-Z]" | tr -d "'" | sort -u); do
		man_section OPTIONS | has_option "-$c" || { echo "ssdtune.8: no -$c in OPTIONS"; bad=1; }
	done
	return "$bad"
}

@test "every knob set and the config accept is in the page's set entry and CONFIGURATION's knob list, and those lists name no other" {
	local bad=0 k
	tool_knobs >"$BATS_TEST_TMPDIR/tool"
	# the tool's list is the uapi header's: the header is what the driver has
	sed -n 's/^SSDTUNE_KNOB(\([a-z_]*\),.*/\1/p' "$REPO/include/uapi/linux/ssdtune_knobs.h" |
		sort >"$BATS_TEST_TMPDIR/header"
	diff "$BATS_TEST_TMPDIR/header" "$BATS_TEST_TMPDIR/tool" ||
		{ echo "set's knobs are not ssdtune_knobs.h's"; return 1; }
	[ "$(wc -l <"$BATS_TEST_TMPDIR/tool")" -ge 9 ]
	# set's entry: its bold names with an underscore, up to "CTRL is"
	awk '/^\.BR set /{ f = 1; next } f && /^\.I CTRL$/ { exit } f' "$MAN" |
		sed -nE 's/^\.BR? ([a-z]+(_[a-z0-9]+)+)( .*)?$/\1/p' | sort -u >"$BATS_TEST_TMPDIR/set"
	# CONFIGURATION: "Any knob set takes, by its name (a, b, ...)"
	man_section CONFIGURATION | tr -s ' \n' ' ' |
		sed -nE 's/.*Any knob set takes, by its name \(([^)]*)\).*/\1/p' |
		tr -d ' ' | tr ',' '\n' | sort -u >"$BATS_TEST_TMPDIR/conf"
	same_names "knob (set's entry)" "$BATS_TEST_TMPDIR/tool" "$BATS_TEST_TMPDIR/set" || bad=1
	same_names "knob (CONFIGURATION)" "$BATS_TEST_TMPDIR/tool" "$BATS_TEST_TMPDIR/conf" || bad=1
	# and set's own --help names each one as KNOB=
	for k in $(cat "$BATS_TEST_TMPDIR/tool"); do
		"$SSDTUNE" set --help | grep -qE -- "(^|[[:space:]])$k=" || { echo "ssdtune set --help: no $k="; bad=1; }
	done
	return "$bad"
}

@test "every key of the configuration file is a tag of CONFIGURATION, and every tag is a key the tool reads" {
	local err keys tags k bad=0
	err=$(printf 'ssdtune-no-such-key = 1\n' | "$SSDTUNE" check-config /dev/stdin 2>&1 >/dev/null) || true
	keys=$(sed -nE 's/.*\(keys: ([^)]*)\).*/\1/p' <<<"$err" | tr -d ' ' | tr ',' '\n')
	[[ $keys == *controller* ]] || { echo "no key list in: $err"; return 1; }
	# the tags of CONFIGURATION: "controller = ...", ..., "KNOB = VALUE"
	tags=$(man_section CONFIGURATION | sed -nE 's/^       ([a-zA-Z_]+) = .*/\1/p' | sort -u)
	for k in $keys; do
		printf '%s\n' "$tags" | grep -qxF "$k" && continue
		# a knob: under the KNOB tag, in its list (the test above)
		"$SSDTUNE" set --help | grep -qE -- "(^|[[:space:]])$k=" && printf '%s\n' "$tags" | grep -qxF KNOB && continue
		echo "ssdtune.8: CONFIGURATION has no tag for key $k"; bad=1
	done
	for k in $tags; do
		[ "$k" = KNOB ] && continue
		printf '%s\n' "$keys" | grep -qxF "$k" || { echo "ssdtune.8: CONFIGURATION documents $k, which the tool does not read"; bad=1; }
	done
	return "$bad"
}

@test "the page agrees with the tool where they once contradicted each other: --root, a config with no controller, poll_queues" {
	# the shipped example selects no controller, and the tool takes it
	run "$SSDTUNE" check-config "$REPO/misc/ssdtune.conf"
	[ "$status" -eq 0 ]
	[[ $output == *"no controller line"* ]]
	[ -z "$(grep '^controller' "$REPO/misc/ssdtune.conf")" ]
	man_section CONFIGURATION | grep -q 'A file with none is valid'
	run grep -E 'at least one|no controller line' <(man_section CONFIGURATION)
	[ "$status" -eq 1 ] || { echo "CONFIGURATION still asks for a controller line: $output"; false; }
	# --root exists, so the page never says there is no such option
	"$SSDTUNE" --help | grep -q -- '--root DIR'
	run grep -i 'no option to point it elsewhere' "$MANTXT"
	[ "$status" -eq 1 ]
	man_section NOTES | grep -q -- '--root'
}
