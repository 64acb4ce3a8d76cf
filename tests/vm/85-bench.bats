#!/usr/bin/env bats
# ssdtune bench on the emulated NVMe, on the stock nvme driver and on
# ssdtune: a short quick run fills every figure and writes JSON, CSV and
# PNGs; compare prints the delta table; destructive steps refuse without
# --destroy-data and refuse a mounted device.
#
# vm-kernels: one (the tool's bench engine: fio and its reports)

load lib/common

OUT=/tmp/ssdt-vm/bench
MNT=/tmp/ssdt-vm/bench-mnt

setup_file() {
	module_load
	rm -rf "$OUT"
}

teardown() {
	mountpoint -q "$MNT" && umount "$MNT"
	true
}

teardown_file() {
	teardown_stock
}

# field_check DIR KEYS...: every round of every cell has each KEY non-null
field_check() {
	python3 - "$@" <<-'EOF2'
	import json, sys
	rep = json.load(open(sys.argv[1] + "/bench.json"))
	bad = []
	for cid, c in rep["cells"].items():
	    for r in c["rounds"]:
	        for k in sys.argv[2:]:
	            if r.get(k) is None:
	                bad.append("%s round %s: %s" % (cid, r["round"], k))
	        if r["irq_per_io"] is not None and r["irq_per_io"] <= 0:
	            bad.append("%s: no interrupts counted" % cid)
	    for k, m in c["summary"].items():
	        if k in sys.argv[2:] and m["n"] != len(c["rounds"]):
	            bad.append("%s summary %s: n %s" % (cid, k, m["n"]))
	for k in ("kernel", "driver", "scheduler", "irqs"):
	    if rep["host"].get(k) in (None, []):
	        bad.append("host " + k)
	if not isinstance(rep["host"].get("cpuidle_states"), list):
	    bad.append("host cpuidle_states")
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOF2
}

FIELDS="iops mbps clat_mean_us clat_p50_us clat_p99_us clat_p99_9_us clat_p99_99_us cpu_pct cpu_us_per_io irq_per_io ios"

# full-only: the whole bench engine on the stock driver (make check keeps
# the ssdtune bench and the stock purge; check-full adds this, compare and --ab)
# bats test_tags=full-only
@test "a quick bench on the stock nvme driver fills every figure and writes JSON, CSV, PNGs" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	disk=$(nvme_disk)
	run ssdt bench "$disk" --bs 4k --qd 1,8 --rounds 3 --runtime 1 --out "$OUT/nvme"
	echo "$output"
	[ "$status" -eq 0 ]
	field_check "$OUT/nvme" $FIELDS
	[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"]["driver"])' "$OUT/nvme/bench.json")" = nvme ]
	[ "$(head -c 9 "$OUT/nvme/bench.csv")" = "cell,rw,r" ]
	[ "$(tail -n +2 "$OUT/nvme/bench.csv" | wc -l)" -eq 6 ]
	[ -s "$OUT/nvme/iops-vs-qd.png" ]
	[ -s "$OUT/nvme/p99-vs-qd.png" ]
	grep -q '^randread-4k-t1q8 ' "$OUT/nvme/bench.txt"
}

# purge_check DISK LABEL: a pattern at the start of DISK, then a read
# bench with --purge: the purge is Format NVM (QEMU's device supports it,
# OACS bit 1), and the first MiB reads back as zeros.
purge_check() {
	local disk=$1 out=$OUT/$2 pat=/tmp/ssdt-vm/purge-pattern
	head -c 1M /dev/urandom >"$pat"
	dd if="$pat" of="$disk" bs=1M count=1 oflag=direct status=none
	cmp -n 1048576 "$pat" "$disk" || { echo "pattern not written"; return 1; }
	run ssdt bench "$disk" --purge --bs 4k --qd 4 --destroy-data \
		--rounds 1 --runtime 1 --out "$out"
	echo "$output"
	[ "$status" -eq 0 ]
	python3 - "$out/bench.json" <<-'EOF2'
	import json, sys
	rep = json.load(open(sys.argv[1]))
	assert rep["purge"] == "format", (rep["purge"], rep["purge_note"])
	assert rep["purge_note"] is None, rep["purge_note"]
	EOF2
	cmp -n 1048576 /dev/zero "$disk" || { echo "the first MiB is not zeros after the purge"; return 1; }
}

# Next to the other stock-driver test: one detach and attach fewer (each
# takes seconds under TCG).
@test "purge is Format NVM through the stock driver's admin passthrough" {
	bdf=$(nvme_bdf)
	[ "$(pci_driver "$bdf")" = nvme ] || detach
	purge_check "$(nvme_disk)" purge-nvme
}

@test "a quick bench on ssdtune also records the knobs, temperature and what the driver exports of power" {
	setup_attached
	disk=$(ssdt_disk)
	# 5 rounds: the fewest the steady-state verdict is evaluated on
	run ssdt bench "$disk" --bs 4k --qd 1,8 --rounds 5 --runtime 1 --out "$OUT/ssdt"
	echo "$output"
	[ "$status" -eq 0 ]
	field_check "$OUT/ssdt" $FIELDS temperature_c
	# power figures and knobs: filled exactly when the driver exports them
	python3 - "$OUT/ssdt/bench.json" "$(ssdt_ctrl)" <<-'EOF2'
	import json, os, sys
	rep = json.load(open(sys.argv[1]))
	ctrl = sys.argv[2]
	assert rep["device"]["driver"] == "ssdtune", rep["device"]
	# the warning temperature is the drive's own (QEMU: WCTEMP 343 K)
	assert rep["method"]["temp_warn_source"] == "device", rep["method"]
	assert rep["method"]["temp_warn_c"] == 69.85, rep["method"]
	for c in rep["cells"].values():
	    for k in ("coalesce_mode", "coalesce_profile", "coalesce_active"):
	        assert c["ssdtune"][k] is not None, k
	    for k in ("power_limit_mw", "power_limit_mode", "power_state"):
	        assert (c["ssdtune"][k] is None) != os.path.exists(os.path.join(ctrl, k)), k
	    for r in c["rounds"]:
	        for k in ("power_estimate_mw", "throttle_events"):
	            assert (r[k] is None) != os.path.exists(os.path.join(ctrl, k)), k
	    assert c["steady_state"]["status"] in ("reached", "steady state NOT reached")
	EOF2
	[ -s "$OUT/ssdt/steady-randread-4k-t1q1.png" ]
}

# bats test_tags=full-only
@test "bench compare of the two runs prints the delta table" {
	run ssdt bench compare "$OUT/nvme/bench.json" "$OUT/ssdt/bench.json"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"driver: A nvme, B ssdtune"* ]]
	echo "$output" | grep -E -q '^4k random read QD1x8 +IOPS .*%  (better|worse|within noise|too few runs)$'
}

@test "write workloads and purge refuse without --destroy-data, and a mounted device even with it" {
	setup_attached
	disk=$(ssdt_disk)
	run ssdt bench "$disk" --rw write --rounds 1 --runtime 1 --out "$OUT/w"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"only with --destroy-data"* ]]
	mkdir -p "$MNT"
	mkfs.ext4 -q -F "$disk"
	mount "$disk" "$MNT"
	echo hello >"$MNT/file"
	sync
	run ssdt bench "$disk" --purge --rw write --destroy-data --rounds 1 --runtime 1 --out "$OUT/w"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"is mounted on $MNT"* ]]
	[ "$(cat "$MNT/file")" = hello ]
	umount "$MNT"
}

@test "purge is Format NVM (user data erase) through ssdtune; a write round runs with --destroy-data" {
	setup_attached
	disk=$(ssdt_disk)
	purge_check "$disk" purge
	dmesg | grep -q "formatting namespace 1 (secure erase setting 1)"
	run ssdt bench "$disk" --rw 0/100 --bs 4k --qd 4 --destroy-data \
		--rounds 1 --runtime 1 --out "$OUT/write"
	echo "$output"
	[ "$status" -eq 0 ]
	field_check "$OUT/write" $FIELDS
}

@test "bad netlink FORMAT requests get an errno and leave the data as it was" {
	setup_attached
	disk=$(ssdt_disk)
	c=$(ssdt_ctrl)
	idx=${c##*/ssdt}
	pat=/tmp/ssdt-vm/format-pattern
	head -c 1M /dev/urandom >"$pat"
	dd if="$pat" of="$disk" bs=1M count=1 oflag=direct status=none
	fmt() { python3 "$SSDT_REPO/tests/vm/lib/genl-format.py" "$@"; }
	[ "$(fmt "$idx" 99 1 --extack)" = ENOENT ]	# no such namespace (the handler's)
	[ "$(fmt 99 1 1)" = ENODEV ]		# no such controller
	# out of the attribute policy's range (secure erase setting 3 and
	# more, namespace id 0): refused before the handler with the policy's
	# ERANGE, the extended ack says why
	[ "$(fmt "$idx" 1 3 --extack)" = "ERANGE: integer out of range" ]
	[ "$(fmt "$idx" 1 4294967295 --extack)" = "ERANGE: integer out of range" ]
	[ "$(fmt "$idx" 0 0 --extack)" = "ERANGE: integer out of range" ]
	[ "$(fmt "$idx" 1 2)" = EOPNOTSUPP ]	# crypto erase: QEMU's FNA bit 2 is clear
	for a in ctrl nsid ses; do
		[ "$(fmt "$idx" 1 1 --omit $a)" = EINVAL ]
	done
	[ "$(setpriv --bounding-set -sys_admin python3 "$SSDT_REPO/tests/vm/lib/genl-format.py" "$idx" 1 1)" = EPERM ]
	cmp -n 1048576 "$pat" "$disk" || { echo "a refused FORMAT changed the data"; false; }
	! dmesg | grep -q "formatting namespace 99"
}

# tuning_sum: a checksum of every file apply may touch (IRQ affinities,
# the controller's knobs, cpuidle and cpufreq), with their names.  Each
# holds one line: read, not $(cat), as a fork costs ~0.1 s under TCG and
# there are dozens of files.
tuning_sum() {
	local f v c
	c=$(ssdt_ctrl)
	for f in /proc/irq/*/smp_affinity_list "$c"/coalesce_{mode,threshold,time_us,profile} \
		"$c"/power_limit_{mw,mode} \
		/sys/devices/system/cpu/cpu*/cpuidle/state*/disable \
		/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do
		[ -r "$f" ] || continue
		v=""
		IFS= read -r v <"$f" || true
		printf '%s %s\n' "$f" "$v"
	done | sha256sum
}

# bats test_tags=full-only
@test "bench --ab iops runs baseline, apply, tuned run, revert and compare, and leaves the host as found" {
	setup_attached
	disk=$(ssdt_disk)
	state=$SSDT_TMP/ab-state
	rm -rf "$state"
	before=$(tuning_sum)
	run ssdt bench "$disk" --bs 4k --qd 8 --rounds 3 --runtime 1 --ab iops \
		--state-dir "$state" --out "$OUT/ab"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E -q 'IOPS .*%  (better|worse|within noise|too few runs)$'
	# the tuned run saw the profile's coalescing, the baseline did not
	python3 - "$OUT/ab" <<-'EOF2'
	import json, sys
	prof = lambda run: {c["ssdtune"]["coalesce_profile"]
	                    for c in json.load(open(sys.argv[1] + "/" + run + "/bench.json"))["cells"].values()}
	b, t = prof("baseline"), prof("tuned")
	assert t == {"iops"}, t
	assert "iops" not in b, b
	EOF2
	[ "$(tuning_sum)" = "$before" ]
	[ ! -e "$state/state.json" ]
}

@test "the qos suite on ssdtune: a QD1 reader while a writer (and a trim job) runs at 0, 25, 50 and 100% of the measured bandwidth; the writer held near its rate; the curve, its CSV and PNG" {
	setup_attached
	disk=$(ssdt_disk)
	run ssdt bench "$disk" --suite qos --qos-trim --runtime 2 --rounds 1 --destroy-data --out "$OUT/qos"
	echo "$output" | tail -15
	[ "$status" -eq 0 ]
	python3 - "$OUT/qos/bench.json" <<-'EOF2'
	import json, sys
	q = json.load(open(sys.argv[1]))["qos"]
	c = q["curve"]
	bad = []
	if [r["level_pct"] for r in c] != [0, 25, 50, 100]:
	    bad.append("levels %s" % [r["level_pct"] for r in c])
	if not q["bandwidth_mbps"] or q["bandwidth_mbps"] <= 0:
	    bad.append("no bandwidth measured")
	if set(q["reader_cpus"].split(",")) & set(q["writer_cpus"].split(",")):
	    bad.append("reader %s and writer %s share a CPU" % (q["reader_cpus"], q["writer_cpus"]))
	for r in c:
	    print(r["level_pct"], r["writer_target_mbps"], r["write_mbps"], r["trim_mbps"], r["read_iops"], r["read_clat_p99_us"])
	    if not r["read_iops"] or not r["read_clat_p99_us"]:
	        bad.append("%d%%: no reader figures" % r["level_pct"])
	    if r["level_pct"] == 0 and r["write_mbps"]:
	        bad.append("0%: the writer wrote")
	    # rate= caps the writer: at 25 and 50% it stays within 1.3x of its target
	    if r["level_pct"] in (25, 50) and not (0 < r["write_mbps"] <= 1.3 * r["writer_target_mbps"]):
	        bad.append("%d%%: wrote %s MB/s for a target of %s" % (r["level_pct"], r["write_mbps"], r["writer_target_mbps"]))
	    if r["level_pct"] > 0 and not r["trim_mbps"]:
	        bad.append("%d%%: no trims counted" % r["level_pct"])
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	EOF2
	[ -s "$OUT/qos/qos-latency.png" ]
	[ -s "$OUT/qos/qos.csv" ]
}
