#!/usr/bin/env bats
# The command line: help, version, usage errors (exit 2, one line).

load ../helpers

@test "--help prints the global usage with every command and exits 0" {
	run --separate-stderr ssdt --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: ssdtune"* ]]
	[[ "$output" == *"attach CTRL"* ]]
	[[ "$output" == *"detach CTRL"* ]]
	[ -z "$stderr" ]
}

@test "--version prints ssdtune and the version from the uapi header" {
	want=$(sed -n 's/^#define SSDTUNE_VERSION[[:space:]]*"\(.*\)"/\1/p' \
		"$REPO/include/uapi/linux/ssdtune.h")
	run --separate-stderr ssdt --version
	[ "$status" -eq 0 ]
	[ "$output" = "ssdtune $want" ]
	# --json before or after it: one JSON object
	for a in "--version --json" "--json --version"; do
		# shellcheck disable=SC2086 # two words
		run --separate-stderr ssdt $a
		[ "$status" -eq 0 ]
		[ "$(json .version)" = "$want" ]
	done
}

@test "attach --help prints the attach usage and exits 0" {
	run --separate-stderr ssdt attach --help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: ssdtune attach [--json] [--dry-run] [--config FILE] [--state-dir DIR]" ]]
	[[ "${lines[1]}" == "                      CTRL..." ]]
	[[ "$output" == *"--dry-run"* ]]
}

@test "detach -h prints the detach usage and exits 0" {
	run --separate-stderr ssdt detach -h
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: ssdtune detach [--json] [--dry-run] [--state-dir DIR] CTRL..." ]]
}

@test "a bare ssdtune prints the usage on stderr and exits 2; options without a command are one line" {
	run --separate-stderr ssdt
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "Usage: ssdtune "* ]]
	[[ "$stderr" == *"attach CTRL"* ]]
	run --separate-stderr ssdt --dry-run
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: no command given (see 'ssdtune --help')" ]
	[ -z "$output" ]
}

@test "ssdtune help [COMMAND] prints what --help and COMMAND --help print; a bad one is one line" {
	run --separate-stderr ssdt --help
	global=$output
	run --separate-stderr ssdt help
	[ "$status" -eq 0 ]
	[ "$output" = "$global" ]
	for c in attach plan bench; do
		run --separate-stderr ssdt "$c" --help
		want=$output
		run --separate-stderr ssdt help "$c"
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ]
	done
	run --separate-stderr ssdt help frobnicate
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: help: unknown command 'frobnicate' (see 'ssdtune --help')" ]
	run --separate-stderr ssdt help attach plan
	[ "$status" -eq 2 ]
	assert_one_error_line
}

@test "an unknown command is a usage error with one line" {
	run --separate-stderr ssdt frobnicate 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: unknown command 'frobnicate' (see 'ssdtune --help')" ]
}

@test "--help lists every command of the design, and each has its own --help" {
	run --separate-stderr ssdt --help
	[ "$status" -eq 0 ]
	for c in topology plan apply verify revert attach detach set monitor bench; do
		printf '%s\n' "$output" | grep -q "^  $c\b" || { echo "no $c in --help"; return 1; }
		run --separate-stderr ssdt "$c" --help
		[ "$status" -eq 0 ] || { echo "$c --help: $status"; return 1; }
		[[ "${lines[0]}" == "Usage: ssdtune $c "* ]]
		run --separate-stderr ssdt --help
	done
}

@test "an unknown global option is a usage error with one line" {
	run --separate-stderr ssdt --sysfs-root /tmp attach 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: unknown option '--sysfs-root' (see 'ssdtune --help')" ]
}

@test "an unknown short option is a usage error with one line" {
	run --separate-stderr ssdt -x attach 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"unknown option '-x'"* ]]
}

@test "an unknown option after the command is a usage error naming the command" {
	run --separate-stderr ssdt attach --force 0000:41:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: attach: unknown option '--force' (see 'ssdtune attach --help')" ]
}

@test "attach without a controller is a usage error" {
	run --separate-stderr ssdt attach
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: attach: missing CTRL... (see 'ssdtune attach --help')" ]
}

@test "attach --config with two BDFs, or attach with more than 64, is a usage error" {
	printf 'controller = pci:0000:42:00.0\n' >"$BATS_TEST_TMPDIR/c.conf"
	run --separate-stderr ssdt attach --config "$BATS_TEST_TMPDIR/c.conf" 0000:41:00.0 0000:42:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--config takes at most one CTRL"* ]]
	# shellcheck disable=SC2046 # 65 words
	run --separate-stderr ssdt attach $(seq -f 'nvme%g' 0 64)
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"unexpected argument 'nvme64'"* ]]
}

@test "attach of a name that is no controller's is a usage error listing the names it takes" {
	for bad in nvme 0000:41:00 0000:41:20.0 0000:41:00.8 ../../x /dev/sda ssdt0x nvme0c; do
		run --separate-stderr ssdt attach "$bad"
		[ "$status" -eq 2 ]
		assert_one_error_line
		[ "$stderr" = "ssdtune: attach: '$bad' names no controller: give a PCI address (0000:41:00.0), ssdtN, nvmeN, /dev/ssdtN, /dev/nvmeN or a namespace (/dev/nvme0n1, /dev/ssdt0n1) (see 'ssdtune attach --help')" ]
	done
}

@test "detach of a name that is no controller's is a usage error" {
	run --separate-stderr ssdt detach 41-00-0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == "ssdtune: detach: '41-00-0' names no controller: "* ]]
}

# One device-name rule: every command that takes a controller refuses a
# name of none of the forms alike, listing the forms it takes.
@test "a name that is no controller's form: the same usage error from attach, detach, qualify, set, plan, apply" {
	for a in "attach bogus" "detach bogus" "qualify bogus" "set bogus coalesce_mode=host" \
		"plan bogus" "apply --dry-run bogus"; do
		# shellcheck disable=SC2086 # the words of one command line
		run --separate-stderr ssdt $a
		[ "$status" -eq 2 ] || { echo "$a: status $status: $stderr"; false; }
		assert_one_error_line
		c=${a%% *}
		[[ "$stderr" == "ssdtune: $c: 'bogus' names no controller: give a PCI address (0000:41:00.0), ssdtN, nvmeN, /dev/ssdtN, /dev/nvmeN or a namespace (/dev/nvme0n1, /dev/ssdt0n1) (see 'ssdtune $c --help')" ]] ||
			{ echo "$a: $stderr"; false; }
	done
	# and each of the forms names the same controller
	for n in ssdt0 /dev/ssdt0 /dev/ssdt0n1 0000:42:00.0 42:00.0; do
		run --separate-stderr ssdt -n detach "$n"
		[ "$status" -eq 0 ] || { echo "detach $n: $stderr"; false; }
		[[ "$output" == *"/sys/bus/pci/drivers/ssdtune/unbind <- 0000:42:00.0"* ]]
		run --separate-stderr ssdt -n set "$n" coalesce_mode=host
		[ "$status" -eq 0 ] || { echo "set $n: $stderr"; false; }
	done
	for n in nvme0 /dev/nvme0 /dev/nvme0n1; do
		run --separate-stderr ssdt -n attach "$n"
		[ "$status" -eq 0 ] || { echo "attach $n: $stderr"; false; }
		[[ "$output" == *"/sys/bus/pci/drivers/ssdtune/bind <- 0000:41:00.0"* ]]
	done
}

@test "options may follow the BDF" {
	run --separate-stderr ssdt attach 0000:41:00.0 --dry-run --json
	[ "$status" -eq 0 ]
	[ "$(json .status)" = would_attach ]
}

@test "a usage error under --json also prints a JSON error object" {
	run --separate-stderr ssdt --json attach --bogus
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$(json .status)" = error ]
	[ "$(json .exit_code)" = 2 ]
	[ "$(json .command)" = attach ]
	[[ "$(json .error)" == *"unknown option '--bogus'"* ]]
}

# Help that fits a terminal: the global --help and every command's, each
# line 80 columns at most.
@test "every help text fits 80 columns" {
	n=0
	for c in "" $(ssdt --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }'); do
		# shellcheck disable=SC2086 # no command: the global help
		run --separate-stderr ssdt $c --help
		[ "$status" -eq 0 ]
		n=$((n + 1))
		long=$(printf '%s\n' "$output" | awk -v c="${c:-ssdtune}" 'length($0) > 80 { print c ": " length($0) " columns: " $0 }')
		[ -z "$long" ] || { echo "$long"; false; }
	done
	[ "$n" -ge 13 ]
}

# The usage lines of a command (its synopsis, up to the first blank line)
# name each of its own options, with the value its help line names;
# a deprecated spelling is left out.
@test "each usage line shows the command's own options" {
	n=0
	for c in $(ssdt --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }'); do
		run --separate-stderr ssdt "$c" --help
		[ "$status" -eq 0 ]
		usage=$(printf '%s\n' "$output" | sed -n '1,/^$/p')
		[[ "$usage" == "Usage: ssdtune $c [--json]"* ]] || { echo "$c: $usage"; false; }
		# "  -p, --profile P   ..." or "  --random, --seq  ...": the long
		# options of this command's own option lines, with their value
		own=$(printf '%s\n' "$output" | sed -n '/^Options:$/q; /^  -/p' |
			grep -v deprecated |
			grep -oE -- '^  (-[a-zA-Z], )?--[a-z0-9-]+( [A-Z][A-Z_]*)?(, --[a-z0-9-]+)?' |
			sed -E 's/^  (-[a-zA-Z], )?//; s/, /\n/' || true)
		while IFS= read -r o; do
			[ -n "$o" ] || continue
			[[ "$usage" == *"[$o]"* ]] || { echo "$c: usage lacks [$o]: $usage"; false; }
			n=$((n + 1))
		done <<<"$own"
		long=$(printf '%s\n' "$usage" | awk 'length($0) > 80')
		[ -z "$long" ]
	done
	[ "$n" -ge 40 ]
	# the deprecated spelling is in the help, marked, and not in the usage
	run --separate-stderr ssdt bench --help
	[[ "$output" == *"--yes-destroy-data deprecated"* ]]
	[[ "$(printf '%s\n' "$output" | sed -n '1,/^$/p')" != *yes-destroy-data* ]]
	[[ "$(ssdt plan --help | head -n 2)" == *"[--profile P]"*"[--io-cores N]"*"[DEVICE...]"* ]]
	[[ "$(ssdt monitor --help | head -n 2)" == *"[--stats]"* ]]
	[[ "$(ssdt verify --help | head -n 1)" == *"[--config FILE] [--state-dir DIR]"* ]]
}

@test "--dry-run is described per command: writes for apply, fio jobs for bench, where it runs for run" {
	line() { ssdt "$1" --help | grep -- '^  -n, --dry-run'; }
	[ "$(line apply)" = "  -n, --dry-run print every write as 'path <- value' and make none" ]
	[ "$(line bench)" = "  -n, --dry-run print the fio jobs it would run, run none" ]
	[ "$(line run)" = "  -n, --dry-run say where COMMAND would run, and run nothing" ]
	# a command that changes nothing has none
	[ -z "$(ssdt topology --help | grep -- '--dry-run' || true)" ]
}

@test "short options: -j --json, -n --dry-run, -p --profile, -c --config; only where the long one applies" {
	run --separate-stderr ssdt -j --version
	[ "$(json .version)" != "" ]
	run --separate-stderr ssdt attach -n -j 0000:41:00.0
	[ "$status" -eq 0 ]
	[ "$(json .status)" = would_attach ]
	run --separate-stderr ssdt -n attach 0000:41:00.0
	[ "$status" -eq 0 ]
	[[ "$output" == *"would attach"* || "$output" == *"<-"* ]]
	# -p takes its value like --profile; a command without --profile refuses it
	run --separate-stderr ssdt plan -p fast
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"unknown profile 'fast'"* ]]
	run --separate-stderr ssdt detach -p latency 0000:42:00.0
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"unknown option '-p'"* ]]
	run --separate-stderr ssdt verify -c /nonexistent
	[ "$status" -eq 2 ]
	assert_one_error_line
}

# One rule for where a usage error points: the command's own --help once
# a command is named (its option values included), 'ssdtune --help' before.
@test "usage errors point at the command's --help, option values included" {
	for a in "plan --profile fast" "plan --io-cores x" "bench --bs 7" "set --state-dir=" "metrics --output="; do
		# shellcheck disable=SC2086 # the words of one command line
		run --separate-stderr ssdt $a
		[ "$status" -eq 2 ]
		assert_one_error_line
		c=${a%% *}
		[[ "$stderr" == "ssdtune: $c: "*" (see 'ssdtune $c --help')" ]] || { echo "$a: $stderr"; false; }
	done
	run --separate-stderr ssdt --bogus
	[[ "$stderr" == *"(see 'ssdtune --help')" ]]
}
