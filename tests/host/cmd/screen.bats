#!/usr/bin/env bats
# The tool as a person meets it (issue 37): commands typed at a shell in
# an 80x24 tmux terminal on the 4-node fixture, each screen captured when
# the prompt is back.  A screen reads right when no line is wider than
# the terminal (tmux wraps it: capture-pane -J joins it again), the
# answer comes first, and no line says the same thing twice.

load ../helpers

setup() {
	command -v tmux >/dev/null || { echo "no tmux (make setup installs it)"; return 1; }
	make_topo 4n128c
	STATE=$BATS_TEST_TMPDIR/state
	mkdir -p "$STATE" "$BATS_TEST_TMPDIR/bin"
	# 'ssdtune' at the prompt runs the real tool on the fixture, as ssdt does
	{
		echo '#!/bin/bash'
		declare -f ssdt
		printf 'FX=%q PFX=%q SSDTUNE=%q SSDTUNE_STATE_DIR=%q\n' "$FX" "$PFX" "$SSDTUNE" "$STATE"
		echo 'ssdt "$@"'
	} >"$BATS_TEST_TMPDIR/bin/ssdtune"
	chmod +x "$BATS_TEST_TMPDIR/bin/ssdtune"
	SOCK=$BATS_TEST_TMPDIR/tmux.sock
	tmux -S "$SOCK" -f /dev/null new -d -x 80 -y 24 \
		env -i HOME="$BATS_TEST_TMPDIR" TERM=xterm PATH="$BATS_TEST_TMPDIR/bin:$PATH" \
		PS1='SCREEN$ ' bash --norc --noprofile
	tmux -S "$SOCK" set-option -g history-limit 5000 >/dev/null
}

teardown() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
}

# type_line LINE: clear the screen, type LINE and Enter, wait for it to
# end (at most 120 s: make check runs the host suite at idle priority
# beside the VMs); what it printed (wrapped lines joined) in $screen, its
# lines in screen_lines, its exit status in $rc.  The markers carry the
# line's number: until the shell gets to run 'clear', the pane still shows
# the previous line's end marker, which must not end this one.
typed=0
type_line() {
	local i shot n=$((++typed))
	local end=$'\n'"SCREEN-DONE-$n-"'[0-9]+'$'\n'
	tmux -S "$SOCK" send-keys "clear; tput cup 0 0; echo SCREEN-BEGIN-$n; $1; echo SCREEN-DONE-$n-\$?" Enter
	for ((i = 0; i < 1200; i++)); do
		shot=$(tmux -S "$SOCK" capture-pane -p -J -S - 2>/dev/null)
		[[ $shot =~ $end ]] && break
		sleep 0.1
	done
	[[ $shot =~ $end ]] || { echo "'$1' did not end in 120 s:"; echo "$shot"; return 1; }
	screen=$(printf '%s\n' "$shot" | sed -n "/^SCREEN-BEGIN-$n\$/,/^SCREEN-DONE-$n-[0-9]*\$/p" | sed '1d;$d')
	rc=$(printf '%s\n' "$shot" | sed -n "s/^SCREEN-DONE-$n-\([0-9]*\)\$/\1/p" | tail -n 1)
	tmux -S "$SOCK" clear-history
	mapfile -t screen_lines <<<"$screen"
	printf '%s\n' "--- $1 (exit $rc)" "$screen"
}

# reads_right MAXLINES: every line fits 80 columns, the screen holds at
# most MAXLINES lines, and no entry (a line not indented: what continues
# an entry, a reason, is) appears twice
reads_right() {
	local l wide=0
	for l in "${screen_lines[@]}"; do
		[ "${#l}" -le 80 ] || { echo "wider than 80: $l"; wide=1; }
	done
	[ "$wide" -eq 0 ]
	[ "${#screen_lines[@]}" -le "$1" ] || { echo "${#screen_lines[@]} lines, more than $1"; false; }
	[ -z "$(printf '%s\n' "$screen" | grep -v '^ *$' | grep -v '^ ' | sort | uniq -d)" ] ||
		{ echo "repeated:"; printf '%s\n' "$screen" | grep -v '^ ' | sort | uniq -d; false; }
}

@test "at a terminal: bare ssdtune, help and help plan answer with their usage first and fit 80 columns" {
	type_line "ssdtune"
	[ "$rc" -eq 2 ]
	[[ ${screen_lines[0]} == "Usage: ssdtune "* ]]
	reads_right 42
	type_line "ssdtune help plan"
	[ "$rc" -eq 0 ]
	[[ ${screen_lines[0]} == "Usage: ssdtune plan "* ]]
	reads_right 60
}

@test "at a terminal: status, plan --profile latency and apply --dry-run put their headline first, fit 80 columns and repeat no entry" {
	type_line "ssdtune status"
	[ "$rc" -eq 0 ]
	[[ ${screen_lines[0]} == "tuning:      none applied"* ]]
	reads_right 8
	type_line "ssdtune plan --profile latency"
	[ "$rc" -eq 0 ]
	[[ ${screen_lines[0]} == "profile latency: "* ]]
	[[ ${screen_lines[-1]} == *" to change, "*" already set, "*" skipped" ]]
	# 128 CPUs: a line per CPU and C-state would be hundreds
	reads_right 120
	type_line "ssdtune apply --profile latency --dry-run"
	[ "$rc" -eq 0 ]
	[[ ${screen_lines[0]} == "profile latency: "* ]]
	# the plan, then every write it would make as 'path <- value'
	grep -q -x '/sys/devices/system/cpu/cpu17/power/pm_qos_resume_latency_us <- 2' <<<"$screen"
	reads_right 400
	type_line "ssdtune status"
	[[ ${screen_lines[0]} == "tuning:      none applied"* ]]
}
