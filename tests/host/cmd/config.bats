#!/usr/bin/env bats
# The configuration file (/etc/ssdtune/ssdtune.conf): check-config, and
# apply, verify and attach --config, against the fixtures (fixtures/
# mktopo.py's 4n128c for the tuning, fixtures/mksys.py for attach); the
# io_cores limit of the planner (golden/plan-FIXTURE-PROFILE-ioN.txt).
# The parser itself is unit-tested in tools/ssdtune/tests/config_test.c.

load ../helpers

GOLDEN=$BATS_TEST_DIRNAME/../golden
EXAMPLE=$REPO/misc/ssdtune.conf

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	STATE=$BATS_TEST_TMPDIR/state
	CONF=$BATS_TEST_TMPDIR/ssdtune.conf
}

py() {
	printf '%s' "$output" | python3 -c "import json,sys; v=json.load(sys.stdin); print($1)"
}


# config_drift TEXT ERROR: with TEXT (printf format) as the file, verify
# --config finds drift (exit 3) and says ERROR in its one line.
config_drift() {
	# shellcheck disable=SC2059 # TEXT is the format
	printf "$1" >"$CONF"
	run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
	echo "$stderr"
	[ "$status" -eq 3 ]
	assert_one_error_line
	[[ "$stderr" == *"$2"* ]]
}

# The smp_affinity_list of nvme1's vectors (0000:c1:00.0: IRQs 400..416).
nvme1_irqs() { cat "$PFX"/irq/4[01][0-9]/smp_affinity_list | md5sum; }

@test "check-config: the shipped example selects nothing; with its settings uncommented it is good" {
	run --separate-stderr "$SSDTUNE" check-config "$EXAMPLE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "$EXAMPLE: ok" ]
	[ "${lines[1]}" = "no controller line: ssdtune attaches and tunes nothing" ]
	[[ "$output" == *"profile balanced, isolate no, io_cores auto"* ]]
	sed 's/^#\([a-z_]* = \)/\1/' "$EXAMPLE" >"$CONF"
	run --separate-stderr "$SSDTUNE" check-config "$CONF"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"controller model Samsung SSD 990 PRO 2TB"* ]]
	[[ "$output" == *"profile latency, isolate no, io_cores auto"* ]]
	[[ "$output" == *"knob coalesce_profile = adaptive"* ]]
}

@test "check-config --json: the parsed file" {
	cat >"$CONF" <<'EOC'
# two controllers
controller = serial:S5GXNX0T123456     # trailing comment
controller=model:Samsung SSD 990 PRO 2TB
  profile = iops
isolate = yes
io_cores = 6
coalesce_threshold = 16
EOC
	run --separate-stderr "$SSDTUNE" check-config --json "$CONF"
	[ "$status" -eq 0 ]
	[ "$(py 'v["status"]')" = ok ]
	[ "$(py 'v["controllers"][0]["value"]')" = S5GXNX0T123456 ]
	[ "$(py 'v["controllers"][0]["line"]')" = 2 ]
	[ "$(py 'v["controllers"][1]["by"] + "|" + v["controllers"][1]["value"]')" = "model|Samsung SSD 990 PRO 2TB" ]
	[ "$(py 'v["profile"], v["isolate"], v["io_cores"]')" = "iops True 6" ]
	[ "$(py 'v["knobs"]')" = "{'coalesce_threshold': '16'}" ]
}

@test "check-config: every kind of bad file exits 2 with one line naming FILE:LINE and what is wrong" {
	local good='controller = pci:0000:41:00.0' n=0
	while IFS='|' read -r line want text; do
		printf "$text\n" >"$CONF"
		run --separate-stderr "$SSDTUNE" check-config "$CONF"
		echo "[$text] $status: $stderr"
		[ "$status" -eq 2 ]
		assert_one_error_line
		[[ "$stderr" == "ssdtune: $CONF:$line: "*"$want"* ]]
		[ -z "$output" ]
		n=$((n + 1))
	done <<EOC
2|unknown key 'profle' (keys: controller, profile, isolate, io_cores, coalesce_mode,|$good\nprofle = latency
2|missing '='|$good\nprofile latency
2|empty value for 'profile'|$good\nprofile =    # none
2|bad profile 'fast'|$good\nprofile = fast
2|bad value 'maybe' for isolate (yes or no)|$good\nisolate = maybe
2|bad number '0' for io_cores|$good\nio_cores = 0
2|bad number 'many' for io_cores|$good\nio_cores = many
1|bad PCI address '0000:41:00'|controller = pci:0000:41:00
1|bad controller selector 'nvme0'|controller = nvme0
3|'profile' given twice|$good\nprofile = iops\nprofile = latency
3|'power_limit_mw' given twice (first on line 2)|$good\npower_limit_mw = 1\npower_limit_mw = 2
2|coalesce_profile must be one of balanced, iops, latency, adaptive, off, not 'fast'|$good\ncoalesce_profile = fast
2|coalesce_threshold must be a whole number 0..256, not '257'|$good\ncoalesce_threshold = 257
EOC
	[ "$n" -eq 13 ]
	run --separate-stderr "$SSDTUNE" check-config "$BATS_TEST_TMPDIR/none.conf"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "ssdtune: cannot read $BATS_TEST_TMPDIR/none.conf: No such file or directory" ]]
	run --separate-stderr "$SSDTUNE" check-config --json "$CONF"
	[ "$status" -eq 2 ]
	[ "$(py 'v["status"]')" = error ]
}

@test "check-config FILE BDF: exit 0 when FILE selects the controller at BDF, 1 when not, 2 for a bad address; it changes nothing" {
	topo_ident
	printf 'profile = latency\ncontroller = serial:S4N1SSDT\n' >"$CONF"
	before=$(fx_sum)
	run --separate-stderr ssdt check-config "$CONF" 0000:41:00.0
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$output" = "$CONF:2 selects 0000:41:00.0" ]
	run --separate-stderr ssdt check-config "$CONF" 41:00.0	# the domain is optional
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt check-config "$CONF" 0000:c1:00.0
	[ "$status" -eq 1 ]
	[ "$output" = "$CONF does not select 0000:c1:00.0" ]
	[ -z "$stderr" ]
	run --separate-stderr ssdt check-config --json "$CONF" 0000:c1:00.0
	[ "$status" -eq 1 ]
	[ "$(py 'v["selected"], v["status"]')" = "False not_selected" ]
	printf 'controller = model:Other NVMe 1TB\n' >"$CONF"
	run --separate-stderr ssdt check-config "$CONF" 0000:c1:00.0	# on nvme
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt check-config "$CONF" 0000:99:00.0	# not present
	[ "$status" -eq 1 ]
	run --separate-stderr ssdt check-config "$CONF" nvme1
	[ "$status" -eq 2 ]
	[[ "$stderr" == "ssdtune: check-config: 'nvme1' is not a PCI address (DDDD:BB:DD.F)"* ]]
	[ "$(fx_sum)" = "$before" ]
}

@test "apply --config: only the configured controller is tuned, its knobs set as 'set' does; verify holds; revert restores the tree byte for byte" {
	topo_ident
	cat >"$CONF" <<'EOC'
controller = serial:S4N1SSDT
controller = pci:0000:99:00.0      # not present
profile = latency
coalesce_threshold = 16
coalesce_time_us = 500
power_limit_mw = 9000
EOC
	before=$(fx_sum)
	irqs=$(nvme1_irqs)
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: $CONF:2: controller = pci:0000:99:00.0 is not present"* ]]
	[[ "$output" == *"device 0000:41:00.0 (ssdtune ssdt0, node 1)"* ]]
	[[ "$output" != *"device 0000:c1:00.0"* ]]
	[[ "$output" == *"coalesce_profile: skipped: the configuration sets the coalescing knobs"* ]]
	[[ "$output" == *"ssdt0: 3 knobs set from $CONF"* ]]
	[ "$(nvme1_irqs)" = "$irqs" ]
	[ "$(cat "$PFX/irq/300/smp_affinity_list")" = "16,80" ]
	[ "$(cat "$SSDT0/coalesce_threshold")" = 16 ]
	[ "$(cat "$SSDT0/coalesce_time_us")" = 500 ]
	[ "$(cat "$SSDT0/power_limit_mw")" = 9000 ]
	[ "$(cat "$SSDT0/coalesce_profile")" = balanced ]	# left to the knobs
	# saved as 'set' saves: the three coalescing files and the limit
	[ "$(python3 -c 'import json,sys; print(sorted(e["path"].rsplit("/", 1)[1] for e in json.load(open(sys.argv[1]))["entries"] if e.get("by") == "set"))' "$STATE/state.json")" = "['coalesce_mode', 'coalesce_threshold', 'coalesce_time_us', 'power_limit_mw']" ]
	run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     /sys/class/ssdtune/ssdt0/power_limit_mw = 9000"* ]]
	# a second apply changes nothing
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE" --json
	[ "$status" -eq 0 ]
	[ "$(py 'len(v["devices"])')" = 1 ]
	[ "$(py 'v["config"]["controllers"][0]["pci_address"]')" = 0000:41:00.0 ]
	[ "$(py 'v["config"]["absent"]')" = "['pci:0000:99:00.0']" ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$(cat "$SSDT0/power_limit_mw")" = 8000 ]
	[ "$(fx_sum)" = "$before" ]
}

@test "apply --config: a controller on nvme, selected by model, is tuned as it is, with a note" {
	topo_ident
	printf 'controller = model:Other NVMe 1TB\nprofile = iops\nio_cores = 4\npower_limit_mw = 9000\n' >"$CONF"
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: 0000:c1:00.0 (nvme1) is on nvme, not ssdtune: tuning what is there, without the knobs; 'ssdtune attach --config' hands it over"* ]]
	[[ "$output" == *"device 0000:c1:00.0 (nvme, node 3): interrupt cores 48-49,112-113, I/O cores 50-53,114-117"* ]]
	[[ "$output" != *"device 0000:41:00.0"* ]]
	[ "$(cat "$SSDT0/power_limit_mw")" = 8000 ]
	[ "$(cat "$PFX/irq/300/smp_affinity_list")" != "16-17,80-81" ]
}

@test "apply --config --dry-run shows the knob writes and changes nothing" {
	topo_ident
	printf 'controller = pci:0000:41:00.0\nprofile = latency\ncoalesce_profile = adaptive\n' >"$CONF"
	before=$(fx_sum)
	run --separate-stderr ssdt apply --dry-run --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/sys/class/ssdtune/ssdt0/coalesce_profile <- adaptive"* ]]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE" ]
}

@test "apply --config refuses --profile, --isolate, --io-cores and DEVICE with it, and a bad file, changing nothing" {
	topo_ident
	printf 'controller = pci:0000:41:00.0\nprofile = latency\n' >"$CONF"
	before=$(fx_sum)
	for extra in "--profile iops" --isolate "--io-cores 2"; do
		# shellcheck disable=SC2086
		run --separate-stderr ssdt apply --config "$CONF" $extra --state-dir "$STATE"
		echo "$extra: $status $stderr"
		[ "$status" -eq 2 ]
		assert_one_error_line
		[[ "$stderr" == *"${extra%% *} cannot go with --config"* ]]
	done
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE" 0000:41:00.0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"DEVICE cannot go with --config"* ]]
	printf 'controller = pci:0000:41:00.0\nprofile = latency\nisolate = sure\n' >"$CONF"
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
	[ "$status" -eq 2 ]
	assert_one_error_line
	[ "$stderr" = "ssdtune: $CONF:3: bad value 'sure' for isolate (yes or no)" ]
	[ "$(fx_sum)" = "$before" ]
	[ ! -e "$STATE" ]
}

@test "apply --config: with no configured controller present (or none configured) it changes nothing and exits 0, and so does verify --config; verify --config exits 3 (drift) when nothing is applied or another profile is" {
	topo_ident
	before=$(fx_sum)
	for sel in 'controller = serial:NOSUCH' '# no controller line'; do
		printf '%s\nprofile = latency\n' "$sel" >"$CONF"
		run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
		echo "$output $stderr"
		[ "$status" -eq 0 ]
		[ "${lines[-1]}" = "no controller $CONF selects is present: nothing to do" ]
		[ ! -e "$STATE" ]
		[ "$(fx_sum)" = "$before" ]
		run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
		[ "$status" -eq 0 ]
		[ "${lines[-1]}" = "no controller $CONF selects is present: nothing to verify" ]
	done
	printf 'controller = serial:S4N1SSDT\nprofile = latency\n' >"$CONF"
	run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
	[ "$status" -eq 3 ]
	assert_one_error_line
	[[ "$stderr" == *"nothing is applied and $CONF selects 1 present controller: 'ssdtune apply --config $CONF'" ]]
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	config_drift 'controller = serial:S4N1SSDT\nprofile = iops\n' \
		"the applied profile is latency, $CONF asks for iops"
}

@test "attach --config DEVICE: a controller the file does not select exits 0 doing nothing" {
	make_fixture
	printf 'controller = serial:ssdt01\n' >"$CONF"
	before=$(fx_sum)
	run --separate-stderr ssdt attach --config "$CONF" 0000:41:00.0
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$output" = "0000:41:00.0 is not configured in $CONF: nothing to do" ]
	[ -z "$stderr" ]
	run --separate-stderr ssdt attach --config "$CONF" --json 41:00.0
	[ "$status" -eq 0 ]
	[ "$(py 'v["status"]')" = not_configured ]
	[ "$(py 'v["writes"]')" = "[]" ]
	[ "$(fx_sum)" = "$before" ]
}

@test "attach --config: the configured controllers on nvme only (dry run); a configured one already on ssdtune is left" {
	make_fixture
	# model QEMU NVMe Ctrl: both functions; 0000:42:00.0 is on ssdtune already
	printf 'controller = model:QEMU NVMe Ctrl\n' >"$CONF"
	run --separate-stderr ssdt attach --dry-run --config "$CONF" --json
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$(py '[(a["pci_address"], a["status"]) for a in v["attached"]]')" = "[('0000:41:00.0', 'would_attach'), ('0000:42:00.0', 'already_attached')]" ]
	[ "$(py '[w["path"] for w in v["writes"]][-1]')" = /sys/bus/pci/drivers/ssdtune/bind ]
	[ "$(py 'set(w["value"] for w in v["writes"] if w["path"].endswith("bind"))')" = "{'0000:41:00.0'}" ]
	printf 'controller = pci:0000:42:00.0\n' >"$CONF"
	run --separate-stderr ssdt attach --dry-run --config "$CONF" 0000:41:00.0
	[ "$status" -eq 0 ]
	[[ "$output" == *"not configured"* ]]
	run --separate-stderr ssdt attach
	[ "$status" -eq 2 ]
	[ "$stderr" = "ssdtune: attach: missing CTRL... (see 'ssdtune attach --help')" ]
	run --separate-stderr ssdt attach --config "$CONF" nvme0
	[ "$status" -eq 2 ]
	assert_one_error_line
}

@test "poll_queues in the file: apply sets it as a knob, and the latency plan leaves it to the file" {
	topo_ident
	printf 'controller = serial:S4N1SSDT\nprofile = latency\npoll_queues = 2\n' >"$CONF"
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[[ "$output" == *"poll_queues: skipped: the configuration sets poll_queues: left to it"* ]]
	[ "$(cat "$SSDT0/poll_queues")" = 2 ]
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(cat "$SSDT0/poll_queues")" = 0 ]
}

@test "io_cores: plan --io-cores N keeps at most N whole cores for I/O (golden plans)" {
	local c fx prof n
	for c in 1s8c:throughput:3 2s24c:latency:2 4n128c:iops:4 vm:latency:1; do
		fx=${c%%:*} n=${c##*:} prof=${c#*:}
		prof=${prof%:*}
		make_topo "$fx"
		run --separate-stderr ssdt plan --profile "$prof" --io-cores "$n"
		[ "$status" -eq 0 ] || { echo "$c: $status $stderr"; return 1; }
		diff -u "$GOLDEN/plan-$fx-$prof-io$n.txt" <(printf '%s\n' "$output" |
			grep -Ev '^note: (irqbalance|tuned runs|power-profiles-daemon runs)|^/etc/systemd/system/irqbalance') || { echo "$c differs"; return 1; }
	done
	make_topo 2s24c
	run --separate-stderr ssdt plan --profile latency --io-cores 2 --json
	[ "$(py 'v["devices"][0]["irq_cpus"]')" = "24,72" ]
	[ "$(py 'v["devices"][0]["io_cpus"]')" = "25-26,73-74" ]
	[ "$(py 'v["io_cpus"]')" = "25-26,73-74" ]
	run --separate-stderr ssdt plan --profile latency --io-cores auto --json
	[ "$(py 'v["devices"][0]["io_cpus"]')" = "25-47,73-95" ]
	for bad in 0 -1 x 4097; do
		run --separate-stderr ssdt plan --io-cores "$bad"
		[ "$status" -eq 2 ]
		assert_one_error_line
	done
}

@test "io_cores in the file: apply --config takes at most N I/O cores, verify --config finds a changed io_cores or isolate; revert restores the tree" {
	topo_ident
	printf 'controller = pci:0000:41:00.0\nprofile = latency\nio_cores = 2\n' >"$CONF"
	before=$(fx_sum)
	run --separate-stderr ssdt apply --config "$CONF" --state-dir "$STATE" --json
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$(py 'v["devices"][0]["io_cpus"]')" = "17-18,81-82" ]
	[ "$(cat "$FX/devices/system/cpu/cpu18/cpuidle/state2/disable")" = 1 ]
	[ "$(cat "$FX/devices/system/cpu/cpu19/cpuidle/state2/disable")" = 0 ]
	run --separate-stderr ssdt verify --config "$CONF" --state-dir "$STATE"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	# the file changed since apply: another I/O core count, then isolation
	config_drift 'controller = pci:0000:41:00.0\nprofile = latency\nio_cores = 3\n' \
		"the profile was applied with io_cores = 2, $CONF asks for io_cores = 3: 'ssdtune apply --config $CONF'"
	config_drift 'controller = pci:0000:41:00.0\nprofile = latency\nio_cores = 2\nisolate = yes\n' \
		"the profile was applied without isolation, $CONF asks for isolate = yes: 'ssdtune apply --config $CONF'"
	run --separate-stderr ssdt revert --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(fx_sum)" = "$before" ]
}
