#!/usr/bin/env bats
# Bash completion, misc/bash-completion/ssdtune: the completion function
# driven the way bash drives it (COMP_WORDS, COMP_CWORD, COMP_LINE,
# COMP_POINT), with the real tool on PATH for its --help and the fixture
# tree of mksys.py as sysfs (SSDTUNE_SYSFS).  bash-completion itself is not
# loaded unless a test says so: the script must work without it.

load ../helpers

COMPLETION=$REPO/misc/bash-completion/ssdtune

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	make_fixture
	export SSDTUNE_SYSFS=$FX
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -s "$SSDTUNE" "$BATS_TEST_TMPDIR/bin/ssdtune"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
	# shellcheck source=/dev/null
	source "$COMPLETION"
}

# compopt outside a completion fails: record what the script asks of it.
compopt() { compopts+=" $*"; }

# complete LINE: complete LINE with the cursor at its end, as bash does:
# COMP_WORDS split at blanks and at '=' and ':' (COMP_WORDBREAKS), the
# last one being completed.  The replies, sorted, one space apart, in
# $reply, what it asked of compopt in $compopts; it must print nothing.
complete_line() {
	local line=$1
	COMP_LINE=$line
	COMP_POINT=${#line}
	read -ra COMP_WORDS <<<"$(printf '%s' "$line" | sed -E 's/([=:]+)/ \1 /g')"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	compopts=
	_ssdtune ssdtune "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" \
		2>"$BATS_TEST_TMPDIR/complete.err" || true
	[ ! -s "$BATS_TEST_TMPDIR/complete.err" ] ||
		{ echo "'$line' printed: $(cat "$BATS_TEST_TMPDIR/complete.err")"; return 1; }
	reply=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | xargs)
}

# expect LINE WORDS...: LINE completes to exactly WORDS (in any order).
expect() {
	local line=$1 want
	shift
	want=$(printf '%s\n' "$@" | LC_ALL=C sort | xargs)
	complete_line "$line"
	[ "$reply" = "$want" ] || { printf "'%s':\n  got  %s\n  want %s\n" "$line" "$reply" "$want"; return 1; }
}

# The commands and a command's long options, read from --help as a user
# would: the first word under "Commands:"; the options that start an
# indented line.
help_commands() { ssdtune --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }'; }
help_options() {
	ssdtune "$@" --help | sed -nE 's/^[[:space:]]+((-[^ ,]+, )*-[^ ,]+).*/\1/p' |
		tr ',' '\n' | grep -oE -- '--[a-z][a-z0-9-]*'
}

@test "completion: the script passes shellcheck" {
	command -v shellcheck >/dev/null || skip "no shellcheck"
	run shellcheck -s bash "$COMPLETION"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "completion: 'ssdtune <TAB>' gives the commands of --help, after global options too" {
	local cmds
	cmds=$(help_commands)
	[ "$(echo "$cmds" | wc -l)" -ge 5 ]
	# shellcheck disable=SC2086
	expect "ssdtune " $cmds
	# shellcheck disable=SC2086
	expect "ssdtune --json --dry-run " $cmds
	# shellcheck disable=SC2086
	expect "ssdtune --root /tmp --json " $cmds
	expect "ssdtune ap" apply
	expect "ssdtune no-such-comm"	# nothing
}

@test "completion: 'ssdtune --<TAB>' and 'ssdtune CMD --<TAB>' give the long options of each --help" {
	local c
	# shellcheck disable=SC2046
	expect "ssdtune --" $(help_options)
	for c in $(help_commands); do
		# shellcheck disable=SC2046
		expect "ssdtune $c --" $(help_options "$c")
	done
	expect "ssdtune apply --pro" --profile
	expect "ssdtune --json apply --state-dir /tmp --is" --isolate
	complete_line "ssdtune apply --"
	[[ " $reply " == *" --profile "* && " $reply " == *" --dry-run "* ]]
}

@test "completion: options come from CMD --help at completion time, once per command" {
	rm "$BATS_TEST_TMPDIR/bin/ssdtune"
	cat >"$BATS_TEST_TMPDIR/bin/ssdtune" <<EOS
#!/bin/sh
echo "\$*" >>"$BATS_TEST_TMPDIR/calls"
case "\$1" in
--help) printf 'Commands:\n  frob BDF   a command\n\nOptions:\n  --json  json\n' ;;
frob) printf 'Usage: ssdtune frob\n  --frobnicate N  how much\n  --twiddle      and how\n' ;;
esac
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/ssdtune"
	expect "ssdtune f" frob
	expect "ssdtune frob --" --frobnicate --twiddle
	expect "ssdtune frob --tw" --twiddle
	expect "ssdtune frob --frobnicate "	# its value: nothing to offer
	[ "$(grep -c '^frob --help$' "$BATS_TEST_TMPDIR/calls")" -eq 1 ]
	[ "$(grep -c '^--help$' "$BATS_TEST_TMPDIR/calls")" -eq 1 ]
}

@test "completion: --profile and --ab complete the profiles, each one the tool takes" {
	local p n=0
	complete_line "ssdtune apply --profile "
	[ -n "$reply" ]
	for p in $reply; do
		ssdtune apply --profile "$p" --help >/dev/null ||
			{ echo "apply refuses profile '$p'"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 2 ]
	# the check above can fail: a name that is no profile is refused
	run ssdtune apply --profile no-such-profile --help
	[ "$status" -eq 2 ]
	local all=$reply
	complete_line "ssdtune plan --profile "
	[ "$reply" = "$all" ]
	complete_line "ssdtune bench --ab "
	[ "$reply" = "$all" ]
	complete_line "ssdtune apply --profile="	# bash makes '=' a word of its own
	[ "$reply" = "$all" ]
	expect "ssdtune apply --profile=io" iops
	expect "ssdtune plan --profile la" latency
}

@test "completion: attach offers the NVMe functions not on ssdtune, detach those on it" {
	expect "ssdtune attach " "$NVME"
	expect "ssdtune detach " "$SSDT"
	expect "ssdtune --dry-run detach --state-dir /tmp " "$SSDT"
	# bash replaces the word after its last ':' only
	expect "ssdtune attach 0000:4" 41:00.0
	expect "ssdtune detach 0000:42:" 00.0
	expect "ssdtune attach --st" --state-dir
	# a second NVMe function on nvme
	cp -a "$NVME_DIR" "$(dirname "$NVME_DIR")/0000:41:00.1"
	ln -s "../../../devices/pci0000:40/0000:40:01.1/0000:41:00.1" "$FX/bus/pci/devices/0000:41:00.1"
	expect "ssdtune attach " "$NVME" 0000:41:00.1
	# nothing without the tree
	SSDTUNE_SYSFS=$BATS_TEST_TMPDIR/nothing
	expect "ssdtune attach "
	expect "ssdtune detach "
}

@test "completion: plan and apply offer controllers and NVMe functions" {
	expect "ssdtune plan " "$NVME" "$SSDT" ssdt0
	expect "ssdtune apply --profile iops ss" ssdt0
}

@test "completion: set offers the controller, then the knobs it has (KNOB=, no space)" {
	local c=$SSDT_DIR/ssdtune/ssdt0 k knobs='' named
	# the knobs set --help names (KNOB=...) that the fixture's ssdt0 has
	named=$(ssdtune set --help | grep -oE '(^|[[:space:]])[a-z][a-z0-9_]*=' | tr -d ' ')
	for k in $named; do
		[ ! -f "$c/${k%=}" ] || knobs+=" $k"
	done
	[ "$(echo "$knobs" | wc -w)" -ge 5 ]
	# shellcheck disable=SC2086
	expect "ssdtune set " ssdt0 "$SSDT" $knobs
	# shellcheck disable=SC2086
	expect "ssdtune set ssdt0 " $knobs
	[[ $compopts == *"-o nospace"* ]] || { echo "no nospace for knobs: $compopts"; return 1; }
	expect "ssdtune set ssdt0 coalesce_mode=off power_limit_m" power_limit_mode= power_limit_mw=
	[[ $compopts == *"-o nospace"* ]]
	expect "ssdtune set ss" ssdt0	# a controller takes a space
	[[ $compopts != *"-o nospace"* ]]
	expect "ssdtune set coalesce_mode="	# its value: nothing to offer
	expect "ssdtune set --state-dir /tmp ssdt0 coalesce_th" coalesce_threshold=
	# the knobs are those set --help names that the controller has writable
	chmod a-w "$c/power_limit_mode"
	expect "ssdtune set ssdt0 power_limit_m" power_limit_mw=
	# no controller: every knob set --help names
	rm "$FX/class/ssdtune/ssdt0"
	complete_line "ssdtune set "
	# shellcheck disable=SC2086
	expect "ssdtune set " "$SSDT" $named	# still on the driver
}

@test "completion: a DIR value completes directories, run completes the command to run" {
	mkdir -p "$BATS_TEST_TMPDIR/state-a" "$BATS_TEST_TMPDIR/state-b"
	: >"$BATS_TEST_TMPDIR/state-file"
	expect "ssdtune apply --state-dir $BATS_TEST_TMPDIR/state-" \
		"$BATS_TEST_TMPDIR/state-a" "$BATS_TEST_TMPDIR/state-b"
	[[ $compopts == *"-o filenames"* ]]
	expect "ssdtune --root $BATS_TEST_TMPDIR/state-" \
		"$BATS_TEST_TMPDIR/state-a" "$BATS_TEST_TMPDIR/state-b"
	complete_line "ssdtune run ssdtun"
	[[ " $reply " == *" ssdtune "* ]]
	complete_line "ssdtune run -- ssdtun"
	[[ " $reply " == *" ssdtune "* ]]
	expect "ssdtune run --st" --state-dir
}

@test "completion: with bash-completion's _init_completion loaded, the same" {
	local bc
	for bc in /usr/share/bash-completion/bash_completion /etc/bash_completion; do
		[ -r "$bc" ] && break
	done
	[ -r "$bc" ] || skip "bash-completion is not installed"
	# shellcheck source=/dev/null
	source "$bc"
	declare -F _init_completion >/dev/null || skip "no _init_completion in $bc"
	# shellcheck source=/dev/null
	source "$COMPLETION"
	# shellcheck disable=SC2046
	expect "ssdtune " $(help_commands)
	# shellcheck disable=SC2046
	expect "ssdtune apply --" $(help_options apply)
	expect "ssdtune apply --profile=io" iops
	expect "ssdtune attach 0000:4" 41:00.0
	expect "ssdtune detach " "$SSDT"
}
