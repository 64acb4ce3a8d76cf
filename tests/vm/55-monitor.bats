#!/usr/bin/env bats
# ssdtune monitor: the driver's generic netlink family "ssdtune" seen through
# the tool (libnl-genl): the counter dump matches sysfs, rates follow the
# load, and events arrive for detach/attach and for the timeout ladder.
#
# vm-kernels: one (the driver's events and counters through the tool; the
# generic netlink family builds against each kernel's API in the build
# suite, and 57-passthrough receives an event through it on both)

load lib/common

setup_file() {
	setup_attached
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}

teardown_file() {
	teardown_stock
}

# mon_start ARGS...: run "ssdtune monitor ARGS" in the background into
# $SSDT_TMP/mon.out and wait until it has joined the events group.
mon_start() {
	: >"$SSDT_TMP/mon.out"
	"$SSDT_TOOL" monitor "$@" >"$SSDT_TMP/mon.out" 2>"$SSDT_TMP/mon.err" &
	mon_pid=$!
	wait_for 20 grep -q '^watching' "$SSDT_TMP/mon.out" ||
		err "monitor did not start: $(cat "$SSDT_TMP/mon.err")"
}

# mon_wait: wait for the background monitor to stop by itself; its status.
mon_wait() {
	local rc=0
	wait "$mon_pid" || rc=$?
	cat "$SSDT_TMP/mon.out" "$SSDT_TMP/mon.err"
	return $rc
}

# reaped CTRL: completions reaped on all its I/O queues so far
reaped() {
	local q n=0
	for q in "$1"/queues/q*; do
		[ "${q##*/}" = q0 ] && continue
		n=$((n + $(trim "$q/completed") + $(trim "$q/polled")))
	done
	echo $n
}

# io_since CTRL N: more than N completions reaped by now
io_since() { [ "$(reaped "$1")" -gt "$2" ]; }

# stats_match_sysfs CTRL: "monitor --stats --json" shows CTRL once, live,
# with every I/O queue and the counters sysfs shows (on an idle device);
# prints the completions it counted.
stats_match_sysfs() {
	local out
	out=$("$SSDT_TOOL" --json monitor --stats) || { err "monitor --stats failed: $out"; return 1; }
	echo "$out" >&2
	echo "$out" | json_schema_ok monitor || return 1
	echo "$out" | python3 -c '
import json, sys, os
ctrl = sys.argv[1]
r = json.load(sys.stdin)
c = [c for c in r["controllers"] if c["controller"] == os.path.basename(ctrl)]
assert len(c) == 1, "%d entries for the controller" % len(c)
c = c[0]
assert c["state"] == "live", c["state"]
assert c["serial"] == "ssdt01", c["serial"]
qdirs = sorted(d for d in os.listdir(ctrl + "/queues") if d != "q0")
assert sorted(q["queue"] for q in c["queues"]) == list(range(1, len(qdirs) + 1)), \
    ([q["queue"] for q in c["queues"]], qdirs)
for q in c["queues"]:
    d = "%s/queues/q%d/" % (ctrl, q["queue"])
    for k in ("submitted", "completed", "interrupts", "polled", "retries",
              "stale_completions"):
        v = int(open(d + k).read())
        # the device is idle: the dump and sysfs read the same counters
        assert q[k] == v, (q["queue"], k, q[k], v)
    assert q["irq"] == int(open(d + "irq").read())
print(sum(q["completed"] + q["polled"] for q in c["queues"]))
' "$1"
}

@test "monitor --stats --json: the controller, its state and per-queue counters equal to sysfs" {
	ctrl=$(ssdt_ctrl)
	run_fio "$(ssdt_disk)" --rw=randread --bs=4k --iodepth=8 --size=8M --io_size=4M
	n=$(stats_match_sysfs "$ctrl")
	[ "$n" -ge 1024 ]
}

@test "monitor --stats --json: a controller whose counters take several dump messages is one entry with every queue" {
	ctrl=$(ssdt_ctrl)
	knob=/sys/kernel/debug/ssdtune/nl_queues_per_msg
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	[ -w "$knob" ] || err "no debugfs hook $knob"
	[ "$(ls -d "$ctrl"/queues/q* | wc -l)" -gt 2 ]
	# one queue a message: what 64 queues need of a real buffer
	echo 1 >"$knob"
	stats_match_sysfs "$ctrl" && rc=0 || rc=$?
	echo 0 >"$knob"
	[ "$rc" -eq 0 ]
}

@test "monitor --stats --interval: completions per second follow a running fio" {
	ctrl=$(ssdt_ctrl)
	before=$(reaped "$ctrl")
	# The runtime is only a bound: fio is stopped once the samples are
	# taken.  Its own process, so that the kill reaches fio itself.
	fio --name=t --filename="$(ssdt_disk)" --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --size=64M --time_based --runtime=10 \
		--output="$SSDT_TMP/rate.fio" >/dev/null 2>&1 3>&- &
	fio_pid=$!
	# fio's start-up takes a while under TCG: sample once it is doing I/O
	wait_for 30 io_since "$ctrl" "$before"
	run "$SSDT_TOOL" --json monitor --stats --interval 1 --count 2
	kill -INT "$fio_pid" 2>/dev/null || true
	# fio exits 128 when stopped by a signal, 1 on an error of its own
	wait "$fio_pid" && rc=0 || rc=$?
	cat "$SSDT_TMP/rate.fio"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 128 ]
	refute grep -Eq 'err= *[1-9]' "$SSDT_TMP/rate.fio"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | json_schema_ok monitor
	echo "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert len(r["samples"]) == 2, len(r["samples"])
for s in r["samples"]:
    rate = sum(q["completed_per_s"] for c in s["controllers"] for q in c["queues"])
    assert rate > 100, "only %.0f completions/s under fio" % rate
'
	# and idle: no completions at all
	run "$SSDT_TOOL" --json monitor --stats --interval 0.5 --count 1
	echo "$output" | python3 -c '
import json, sys
r = json.load(sys.stdin)
rate = sum(q["completed_per_s"] for c in r["samples"][0]["controllers"] for q in c["queues"])
assert rate == 0, rate
'
}

@test "monitor: detach and attach each send an event with the PCI address" {
	bdf=$(nvme_bdf)
	mon_start --count 2 --timeout 120
	detach
	attach
	mon_wait
	grep -q "^ssdt[0-9]* detached .*pci_address=$bdf" "$SSDT_TMP/mon.out"
	grep -q "^ssdt[0-9]* attached .*pci_address=$bdf .*state=live" "$SSDT_TMP/mon.out"
}

@test "monitor: a lost completion shows as timeout, reset and reset_done events" {
	ctrl=$(ssdt_ctrl)
	disk=$(ssdt_disk)
	tmo=/sys/block/${disk##*/}/queue/io_timeout
	old=$(trim "$tmo")
	# One timeout to abort, one more to reset, each io_timeout plus the
	# block layer's ~1 s of timer slack; the dropped read is the only I/O
	# in flight, and 500 ms is still hundreds of times a 4K read here.
	echo 500 >"$tmo"
	mon_start --count 3 --timeout 120
	echo 1 >"/sys/kernel/debug/ssdtune/${ctrl##*/}/drop_completions"
	dd if="$disk" of=/dev/null bs=4k count=1 skip=77 iflag=direct status=none
	echo "$old" >"$tmo"
	mon_wait
	grep -Eq '^ssdt[0-9]+ timeout .*queue=[0-9]+ .*tag=[0-9]+' "$SSDT_TMP/mon.out"
	grep -q ' reset .*state=resetting' "$SSDT_TMP/mon.out"
	grep -q ' reset_done .*state=live' "$SSDT_TMP/mon.out"
}

@test "monitor: a knob write sends a knob event with its name and value; a refused write sends none" {
	ctrl=$(ssdt_ctrl)
	old=$(trim "$ctrl/coalesce_threshold")
	mon_start --count 1 --timeout 60
	refute sh -c "echo 999 >$ctrl/coalesce_threshold" 2>/dev/null
	echo 17 >"$ctrl/coalesce_threshold"
	mon_wait
	echo "$old" >"$ctrl/coalesce_threshold"
	grep -q '^ssdt[0-9]* knob .*knob=coalesce_threshold value=17' "$SSDT_TMP/mon.out"
	refute grep -q 'value=999' "$SSDT_TMP/mon.out"
}

@test "monitor: bad options and a missing module give one line and a non-zero exit" {
	run "$SSDT_TOOL" monitor --count 0
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$SSDT_TOOL" monitor --interval 1
	[ "$status" -eq 2 ]
	detach
	module_unload
	run "$SSDT_TOOL" monitor --stats
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"is ssdtune.ko loaded"* ]]
}
