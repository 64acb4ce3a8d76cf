#!/usr/bin/env bats
# Debug kernel only (make check-debug runs it after the fault tests): ask
# kmemleak for what is unreferenced and fail on anything ssdtune allocated,
# named in the backtrace while the module is loaded, or a raw module address
# once it is gone.  Other subsystems' reports (9p, virtio) are printed, not
# counted.

load ../lib/common

@test "kmemleak: nothing ssdtune allocated is left unreferenced after the fault tests" {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	f=/sys/kernel/debug/kmemleak
	[ -w "$f" ] || err "no $f: this is not the debug kernel (make check-debug)"
	# two passes: kmemleak reports an object only once it stayed
	# unreferenced across a scan
	echo scan >"$f"
	sleep 6
	echo scan >"$f"
	cat "$f" >"$SSDT_TMP/kmemleak"
	total=$(grep -c '^unreferenced object' "$SSDT_TMP/kmemleak" || true)
	ours=$(awk '/^unreferenced object/ { if (blk ~ /ssdt|\] 0xffffffff/) n++; blk = "" }
		    { blk = blk "\n" $0 }
		    END { if (blk ~ /ssdt|\] 0xffffffff/) n++; print n + 0 }' "$SSDT_TMP/kmemleak")
	echo "kmemleak: $total unreferenced objects, $ours of them ssdtune's"
	[ "$ours" -eq 0 ] || { cat "$SSDT_TMP/kmemleak"; false; }
}
