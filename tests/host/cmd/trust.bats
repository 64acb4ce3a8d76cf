#!/usr/bin/env bats
# The tool runs as root on shared hosts: it refuses a state directory that
# is not root's alone, a state file another user could have written or
# that names what apply never writes, and leaves the fixture, the state
# and every file named as they were (lib/trust.c, lib/state.c).  The
# recording's refusals are in root.bats.

load ../helpers

STATE=

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	STATE=$BATS_TEST_TMPDIR/state
	make_topo 4n128c
}

# A checksum of the fixture and of $STATE (names, modes, contents).
all_sum() {
	{ fx_sum; [ ! -d "$STATE" ] || (cd "$STATE" && find . -printf '%p %y %m %u %l\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum); } | md5sum
}

# ssdt ARGS... is refused in one line, exit 1, saying MESSAGE, with the
# fixture and the state as they were.
refused() {	# refused MESSAGE ARGS...
	local want=$1 before
	shift
	before=$(all_sum)
	run --separate-stderr ssdt "$@"
	[ "$status" -eq 1 ] || { echo "$*: status $status: $stderr"; return 1; }
	assert_one_error_line
	[[ "$stderr" == *"$want"* ]] || { echo "$*: $stderr"; return 1; }
	[ "$(all_sum)" = "$before" ] || { echo "$*: something changed"; return 1; }
}

@test "a 0777 state directory, another user's, a link, or one below a 0777 directory: apply, revert and set refuse it, nothing changed" {
	topo_ident
	mkdir "$STATE"
	chmod 0777 "$STATE"
	refused "refusing state directory $STATE: mode 0777 lets group or others write it" \
		apply --profile latency --state-dir "$STATE"
	SSDTUNE_STATE_DIR=$STATE refused "refusing state directory $STATE: mode 0777" apply --profile latency
	refused "refusing state directory $STATE: mode 0777" revert --state-dir "$STATE"
	refused "refusing state directory $STATE: mode 0777" set --state-dir "$STATE" ssdt0 coalesce_profile=iops
	[ -z "$(ls -A "$STATE")" ]
	chmod 0700 "$STATE"
	chown 65534 "$STATE"
	refused "refusing state directory $STATE: owned by uid 65534, not root" apply --profile latency --state-dir "$STATE"
	rmdir "$STATE"
	mkdir -p "$BATS_TEST_TMPDIR/open/state" "$BATS_TEST_TMPDIR/theirs"
	chmod 0777 "$BATS_TEST_TMPDIR/open"
	refused "refusing state directory $BATS_TEST_TMPDIR/open/state: $BATS_TEST_TMPDIR/open above it is writable by group or others (mode 0777)" \
		apply --profile latency --state-dir "$BATS_TEST_TMPDIR/open/state"
	ln -s theirs "$STATE"
	refused "refusing state directory $STATE: it is a symbolic link" apply --profile latency --state-dir "$STATE"
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/theirs")" ]
}

@test "a state applied, then its directory made 0777 or its file another user's or a link: revert refuses, the tuning and the state stay" {
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	chmod 0777 "$STATE"
	refused "refusing state directory $STATE: mode 0777" revert --state-dir "$STATE"
	refused "refusing state directory $STATE: mode 0777" revert --force --state-dir "$STATE"
	chmod 0700 "$STATE"
	chown 65534 "$STATE/state.json"
	refused "refusing state file $STATE/state.json: owned by uid 65534, not root" revert --state-dir "$STATE"
	chown 0 "$STATE/state.json"
	chmod 0666 "$STATE/state.json"
	refused "refusing state file $STATE/state.json: mode 0666 lets group or others write it" revert --state-dir "$STATE"
	chmod 0600 "$STATE/state.json"
	mv "$STATE/state.json" "$BATS_TEST_TMPDIR/elsewhere.json"
	ln -s "$BATS_TEST_TMPDIR/elsewhere.json" "$STATE/state.json"
	refused "refusing state file $STATE/state.json: it is a symbolic link" revert --state-dir "$STATE"
	rm "$STATE/state.json"
	mv "$BATS_TEST_TMPDIR/elsewhere.json" "$STATE/state.json"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
}

# Add an entry to $STATE/state.json: PATH, its old value, and a type.
add_entry() {	# add_entry PATH OLD [TYPE]
	python3 - "$STATE/state.json" "$@" <<'PY'
import json, sys
f, path, old = sys.argv[1:4]
s = json.load(open(f))
e = {"key": path, "path": path, "old": old, "new": "x"}
if len(sys.argv) > 4:
    e["type"] = sys.argv[4]
s["entries"].append(e)
json.dump(s, open(f, "w"))
PY
}

@test "revert refuses a state file naming /etc/x, a file outside the allow-list, or another unit's drop-in: one line, exit 1, nothing written" {
	local victim=$BATS_TEST_TMPDIR/victim saved
	irqbalance_unit_start
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	: >"$SYSTEMCTL_LOG"
	cp "$STATE/state.json" "$BATS_TEST_TMPDIR/good.json"
	echo mine >"$victim"
	[ ! -e /etc/x ] || skip "this host has an /etc/x"
	add_entry /etc/x "written by revert"
	refused "entry " revert --state-dir "$STATE"
	[[ "$stderr" == *"names /etc/x, which apply never writes"* ]]
	refused "names /etc/x, which apply never writes" revert --force --state-dir "$STATE"
	[ ! -e /etc/x ]
	for bad in "$victim" /proc/irq/../sys/kernel/core_pattern /sys/block/nvme0n1/device/delete; do
		cp "$BATS_TEST_TMPDIR/good.json" "$STATE/state.json"
		add_entry "$bad" "written by revert"
		refused "names $bad, which apply never writes" revert --state-dir "$STATE"
	done
	[ "$(cat "$victim")" = mine ]
	cp "$BATS_TEST_TMPDIR/good.json" "$STATE/state.json"
	add_entry /etc/systemd/system/ssh.service.d/ssdtune.conf "[Service]
ExecStartPre=/bin/sh -c id" dropin
	refused "names the drop-in /etc/systemd/system/ssh.service.d/ssdtune.conf, which apply never writes" revert --state-dir "$STATE"
	[ ! -e "$SYSTEMD_ETC/ssh.service.d" ]
	[ ! -s "$SYSTEMCTL_LOG" ]
	# the tuning is still in force, and its state reverts once whole again
	saved=$(fx_sum)
	cp "$BATS_TEST_TMPDIR/good.json" "$STATE/state.json"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" != "$saved" ]
}

