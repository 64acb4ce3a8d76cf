#!/usr/bin/env bats
# A recorded host: 'topology --save DIR' records the /sys and /proc files
# the tool reads, and '--root DIR' (or SSDTUNE_ROOT) replays them for
# topology and plan (lib/hostrec.c).  A fixture of mktopo.py has the
# recording's shape, so the fixtures replay too (the golden plans in
# tune.bats go through --root).

load ../helpers

# topology --json of the fixture in $BATS_TEST_TMPDIR, as the bind-mount
# namespace of the other tests shows it
fixture_topology() {
	run --separate-stderr ssdt topology --json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/ns.json"
}

@test "--root replays a fixture: topology --json is the same as with the fixture mounted over /sys" {
	local fx
	for fx in 4n128c vm; do
		make_topo "$fx"
		fixture_topology
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" topology --json
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ] || { echo "$fx differs"; false; }
	done
}

@test "topology --save records the host, and --root replays the recording: the same topology, the same plan" {
	local rec=$BATS_TEST_TMPDIR/rec
	make_topo 4n128c
	fixture_topology
	run --separate-stderr ssdt topology --save "$rec"
	[ "$status" -eq 0 ]
	[[ "${lines[-2]}" =~ ^"recorded in $rec: "[1-9][0-9]*" files, "[1-9][0-9]*" links, " ]]
	[ "${lines[-1]}" = "replay it: ssdtune --root $rec topology" ]
	grep -q '^ssdtune .* recording' "$rec/ssdtune-recording.txt"
	[ -f "$rec/proc/interrupts" ] && [ -d "$rec/proc/irq/300" ] && [ -L "$rec/sys/bus/pci/devices/0000:41:00.0" ]
	# read-only, write-only and BAR files as the fixture has them
	[ "$(stat -c %a "$rec/sys/devices/system/cpu/online")" = "$(stat -c %a "$FX/devices/system/cpu/online")" ]
	run --separate-stderr "$SSDTUNE" --root "$rec" topology --json
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ]
	SSDTUNE_STATE_DIR=$BATS_TEST_TMPDIR/state run --separate-stderr "$SSDTUNE" --root "$rec" plan --profile latency --isolate
	[ "$status" -eq 0 ]
	diff -u "$BATS_TEST_DIRNAME/../golden/plan-4n128c-latency-isolate.txt" <(printf '%s\n' "$output" |
		grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance')
	# SSDTUNE_ROOT does what --root does
	SSDTUNE_ROOT=$rec run --separate-stderr "$SSDTUNE" topology --json
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/ns.json")" ]
}

@test "topology --save --json: the report, with what was recorded" {
	make_topo vm
	run --separate-stderr ssdt topology --json --save "$BATS_TEST_TMPDIR/rec"
	[ "$status" -eq 0 ]
	[ "$(json .recording.dir)" = "$BATS_TEST_TMPDIR/rec" ]
	[ "$(json .recording.files)" -gt 100 ]
	[ "$(json .recording.links)" -gt 0 ]
	[ "$(json .recording.bytes)" -gt 0 ]
	[ "$(json .recording.unreadable)" -eq 0 ]
	[[ "$(json .storage.0.pci_address)" =~ ^0000: ]]
}

# A checksum of tree DIR: names, kinds, modes, link targets and contents.
tree_sum() {
	(cd "$1" && find . -printf '%p %y %m %l\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum) | md5sum
}

@test "topology --save refuses a directory that is there already, empty, full or a link: one line, exit 1, nothing written" {
	mkdir "$BATS_TEST_TMPDIR/empty" "$BATS_TEST_TMPDIR/full" "$BATS_TEST_TMPDIR/target"
	echo keep >"$BATS_TEST_TMPDIR/full/a"
	ln -s target "$BATS_TEST_TMPDIR/link"
	for d in empty full link; do
		run --separate-stderr ssdt topology --save "$BATS_TEST_TMPDIR/$d"
		[ "$status" -eq 1 ] || { echo "$d: $status"; false; }
		assert_one_error_line
		[[ "$stderr" == *"refusing recording directory $BATS_TEST_TMPDIR/$d: it exists already"* ]]
	done
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/empty")" ] && [ -z "$(ls -A "$BATS_TEST_TMPDIR/target")" ]
	[ "$(ls -A "$BATS_TEST_TMPDIR/full")" = a ] && [ "$(cat "$BATS_TEST_TMPDIR/full/a")" = keep ]
	[ "$(readlink "$BATS_TEST_TMPDIR/link")" = target ]
	run --separate-stderr ssdt topology --save ""
	[ "$status" -eq 2 ]
}

@test "topology --save follows no planted link: proc/cmdline to a root file in a pre-made directory is left alone; a new recording is root's, 0700" {
	local pre=$BATS_TEST_TMPDIR/pre victim=$BATS_TEST_TMPDIR/victim rec=$BATS_TEST_TMPDIR/rec
	make_topo vm
	# what another user prepares in /tmp: an empty directory, then a
	# proc/cmdline link to a root-owned 0600 file, and a proc link
	# that would redirect the whole subtree
	echo secret >"$victim"
	chmod 0600 "$victim"
	mkdir -p "$pre/proc" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$victim" "$pre/proc/cmdline"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$pre/sys"
	run --separate-stderr ssdt topology --save "$pre"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"it exists already"* ]]
	[ "$(cat "$victim")" = secret ] && [ "$(stat -c %a "$victim")" = 600 ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
	[ "$(readlink "$pre/proc/cmdline")" = "$victim" ]
	# a new one: the directory 0700 and root's, the files with the
	# modes they have on the host, no link but those of /sys
	run --separate-stderr ssdt topology --save "$rec"
	[ "$status" -eq 0 ]
	[ "$(stat -c '%a %u' "$rec")" = "700 0" ]
	[ "$(stat -c %a "$rec/proc")" = 755 ] && [ -f "$rec/proc/cmdline" ] && [ ! -L "$rec/proc/cmdline" ]
	[ "$(stat -c %a "$rec/ssdtune-recording.txt")" = 644 ]
	[ -z "$(find "$rec" -type l -lname '/*')" ]
}

# A recording of the vm fixture in $BATS_TEST_TMPDIR/rec, to spoil.
recording() {
	make_topo vm
	REC=$BATS_TEST_TMPDIR/rec
	mkdir "$REC"
	cp -a "$FX" "$REC/sys" && cp -a "$PFX" "$REC/proc"
	run --separate-stderr "$SSDTUNE" --root "$REC" topology --json
	[ "$status" -eq 0 ]
}

# --root $REC topology: refused in one line, exit 1, with MESSAGE, the
# recording as it was, and nothing opened (a FIFO would block a reader).
refused_replay() {	# refused_replay MESSAGE
	local before
	before=$(tree_sum "$REC")
	run --separate-stderr timeout 20 "$SSDTUNE" --root "$REC" topology
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
	assert_one_error_line
	[[ "$stderr" == *"$1"* ]] || { echo "stderr: $stderr"; return 1; }
	[ "$(tree_sum "$REC")" = "$before" ]
}

@test "--root refuses a recording with a link that leads outside it: climbing out of sys, absolute, or '..' after a name" {
	local cpu
	recording
	cpu=$REC/sys/devices/system/cpu
	ln -s ../../../../etc "$cpu/out"
	refused_replay "refusing the link sys/devices/system/cpu/out -> ../../../../etc: it leads outside the recording"
	rm "$cpu/out"
	ln -s /etc/shadow "$cpu/abs"
	refused_replay "refusing the link sys/devices/system/cpu/abs -> /etc/shadow: a recording's links are relative"
	rm "$cpu/abs"
	# cpu/up is ../.. (sys/devices), so cpu/up/../../.. would be above sys
	ln -s ../.. "$cpu/up"
	ln -s up/../../.. "$cpu/via"
	refused_replay "refusing the link sys/devices/system/cpu/via -> up/../../..: it leads outside the recording"
	rm "$cpu/up" "$cpu/via"
	ln -s ../../../../proc "$REC/proc/irq/out"
	refused_replay "refusing the link proc/irq/out -> ../../../../proc: it leads outside the recording"
	rm "$REC/proc/irq/out"
	ln -s /etc/hostname "$REC/proc/cmdline.new" && mv "$REC/proc/cmdline.new" "$REC/proc/cmdline"
	refused_replay "refusing proc/cmdline: a link where a recording has a directory or a file"
	rm -r "$REC/sys" && ln -s "$FX" "$REC/sys"
	refused_replay "refusing sys: a link where a recording has a directory or a file"
}

@test "--root refuses a recording with a FIFO or a device node: named, never opened" {
	recording
	mkfifo "$REC/sys/devices/system/cpu/online.fifo"
	refused_replay "refusing sys/devices/system/cpu/online.fifo: a FIFO (a recording holds only directories, regular files and links)"
	rm "$REC/sys/devices/system/cpu/online.fifo"
	mknod "$REC/proc/irq/zero" c 1 5
	refused_replay "refusing proc/irq/zero: a character device"
	rm "$REC/proc/irq/zero"
	rm "$REC/proc/interrupts" && mkfifo "$REC/proc/interrupts"
	refused_replay "refusing proc/interrupts: a FIFO"
}

@test "--root of what is no recording, and --root for a command that changes the host: usage errors, nothing read" {
	run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR/none" topology
	[ "$status" -eq 2 ]
	assert_one_error_line
	[[ "$stderr" == *"--root $BATS_TEST_TMPDIR/none: not a recorded host"* ]]
	make_topo vm
	for c in apply revert "set $SSDT poll_queues=1" "attach $NVME" status verify; do
		# shellcheck disable=SC2086 # the command and its operands
		run --separate-stderr "$SSDTUNE" --root "$BATS_TEST_TMPDIR" $c
		[ "$status" -eq 2 ] || { echo "$c: $status"; false; }
		[[ "$stderr" == *"replays a recorded host: only topology and plan read one"* ]]
	done
	SSDTUNE_ROOT=$BATS_TEST_TMPDIR run --separate-stderr "$SSDTUNE" apply
	[ "$status" -eq 2 ]
	run --separate-stderr "$SSDTUNE" --root
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"option '--root' needs a value"* ]]
}
