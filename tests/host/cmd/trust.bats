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

# The stand-in fio of bench.bats, on the default fixture (ssdt0n1).
bench_host() {
	rm -rf "$BATS_TEST_TMPDIR/sys" "$BATS_TEST_TMPDIR/proc"
	PFX=
	make_fixture
	export PATH="$BATS_TEST_DIRNAME/../fixtures/bench-bin:$PATH"
	export FAKE_FIO_LOG=$BATS_TEST_TMPDIR/fio.log
	export FAKE_FIO_STATE=$BATS_TEST_TMPDIR/fio.state
}

@test "bench --out into a 0777 directory, another user's, or one whose jobs/ others can write: one line, exit 1, no job file, fio never run" {
	local out=$BATS_TEST_TMPDIR/out
	bench_host
	mkdir "$out"
	chmod 0777 "$out"
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$out"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"refusing bench output directory $out: mode 0777 lets group or others write it"* ]]
	[ -z "$(ls -A "$out")" ] && [ ! -s "$FAKE_FIO_LOG" ]
	chmod 0755 "$out"
	chown 65534 "$out"
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$out"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"refusing bench output directory $out: owned by uid 65534, not root"* ]]
	chown 0 "$out"
	# another user's jobs/ could hold an exec_prerun= of theirs
	mkdir -m 0777 "$out/jobs"
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$out"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"refusing bench output directory $out/jobs: mode 0777"* ]]
	[ -z "$(ls -A "$out/jobs")" ] && [ ! -s "$FAKE_FIO_LOG" ]
}

@test "bench without --out: a new 0700 directory of a name nobody could make first; a planted job file link is not followed" {
	local out=$BATS_TEST_TMPDIR/out victim=$BATS_TEST_TMPDIR/victim
	bench_host
	mkdir "$BATS_TEST_TMPDIR/cwd"
	cd "$BATS_TEST_TMPDIR/cwd"
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	d=$(echo ssdtune-bench-*)
	[[ "$d" =~ ^ssdtune-bench-[0-9]{8}T[0-9]{6}Z-[A-Za-z0-9]{6}$ ]]
	[ "$(stat -c '%a %u' "$d")" = "700 0" ] && [ -f "$d/bench.json" ]
	[ "$(stat -c %a "$d/jobs")" = 700 ] && [ "$(stat -c %a "$d/raw")" = 700 ]
	# a second run into the same --out writes each job file anew,
	# even where a link stands in its place
	echo mine >"$victim"
	mkdir -m 0700 "$out" "$out/jobs"
	ln -s "$victim" "$out/jobs/randread-4k-t1q1.fio"
	run --separate-stderr ssdt bench ssdt0n1 --bs 4k --qd 1 --rounds 3 --runtime 1 --out "$out"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(cat "$victim")" = mine ]
	[ -f "$out/jobs/randread-4k-t1q1.fio" ] && [ ! -L "$out/jobs/randread-4k-t1q1.fio" ]
}

@test "bench --ab keeps its state in apply's state directory, which it checks as apply does" {
	bench_host
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	run --separate-stderr ssdt --json bench ssdt0n1 --ab latency --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(json .ab_state_dir)" = "$BATS_TEST_TMPDIR/default-state/bench-ab" ]
	[ "$(stat -c %a "$BATS_TEST_TMPDIR/default-state")" = 700 ]
}
