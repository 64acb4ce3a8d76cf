#!/usr/bin/env bats
# scripts/guest-log-check.py, make check-debug's scan of a whole guest
# kernel log: every KASAN, lockdep, WARNING, BUG or hung-task report fails
# it but the known kernel ones it lists, and one that names ssdtune is
# never "known".  Fixtures: tests/host/fixtures/guest-log/, taken from this
# project's debug-kernel runs.

CHECK="$BATS_TEST_DIRNAME/../../../scripts/guest-log-check.py"
FIX="$BATS_TEST_DIRNAME/../fixtures/guest-log"

log() { cat >"$BATS_TEST_TMPDIR/log"; }

@test "a clean log passes and prints nothing" {
	printf '[    1.000000] ssdtune 0000:41:00.0: attached as ssdt0 with 1 namespace(s)\n[    2.000000] nvme nvme0: 4/0/0 default/read/poll queues\n' | log
	run python3 "$CHECK" "$BATS_TEST_TMPDIR/log"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "pciehp's own reset_lock report on a hot-unplug is known: passes, and says so" {
	run python3 "$CHECK" "$FIX/pciehp-lockdep.dmesg"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "known kernel report (not the driver's): pciehp: reset_lock taken inside pci_rescan_remove_lock on a hot-unplug" ]
}

@test "the same report with an ssdtune frame in it is not known: fails" {
	sed 's/pciehp_disable_slot+0xc2/ssdt_remove+0x42/' "$FIX/pciehp-lockdep.dmesg" | log
	run python3 "$CHECK" "$BATS_TEST_TMPDIR/log"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"REPORT: WARNING: possible circular locking dependency detected"* ]]
}

@test "a KASAN report fails, even one at boot (it turns lock debugging off for the rest of the run)" {
	run python3 "$CHECK" "$FIX/early-kasan.dmesg"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"REPORT: BUG: KASAN: wild-memory-access in rcu_is_watching+0x1f/0x50"* ]]
	[[ $output == *"1 report(s) in"* ]]
}

@test "a WARN_ON, a hung task and kmemleak's report each fail; all are counted" {
	log <<-'EOF'
	[   10.000000] ------------[ cut here ]------------
	[   10.000001] WARNING: CPU: 1 PID: 77 at kernel/irq/manage.c:1 free_irq+0x1/0x2
	[   10.000002] ---[ end trace 0000000000000000 ]---
	[   20.000000] INFO: task fio:123 blocked for more than 120 seconds.
	[   20.000001]  </TASK>
	[   30.000000] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
	EOF
	run python3 "$CHECK" "$BATS_TEST_TMPDIR/log"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^REPORT: ' <<<"$output")" -eq 3 ]
	[[ $output == *"3 report(s) in"* ]]
}

@test "a log that is not there fails" {
	run python3 "$CHECK" "$BATS_TEST_TMPDIR/none"
	[ "$status" -ne 0 ]
}
