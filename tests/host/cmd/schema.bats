#!/usr/bin/env bats
# The JSON schemas of Documentation/schema/: one per command of 'ssdtune
# --help', valid JSON Schema 2020-12, and every command's --json output,
# success and error, against its schema (tests/lib/json-schema-check),
# run on the fixtures the other host tests use.  What needs the real
# driver (monitor's events and counters) is checked in the VM suite
# (json_schema_ok in tests/vm/lib/common.bash).

# shellcheck disable=SC2154 # $stderr: bats' run --separate-stderr sets it
load ../helpers

CHECK=$REPO/tests/lib/json-schema-check
SCHEMAS=$REPO/Documentation/schema

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	make_fixture
	STATE=$BATS_TEST_TMPDIR/state
	CONF=$BATS_TEST_TMPDIR/ssdtune.conf
}

# The commands of 'ssdtune --help' (as tests/host/cmd/manpage.bats reads them).
help_commands() {
	"$SSDTUNE" --help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }'
}

# schema_ok SCHEMA: $output matches Documentation/schema/SCHEMA.json.
schema_ok() {
	printf '%s' "$output" | "$CHECK" "$1" || {
		echo "not as $SCHEMAS/$1.json says (exit status $status): $output"
		return 1
	}
}

# json_ok SCHEMA: the last run succeeded, and its output matches SCHEMA.
json_ok() {
	[ "$status" -eq 0 ] || { echo "exit status $status: $stderr"; return 1; }
	schema_ok "$1"
}

# json_err SCHEMA CODE: the last run failed with exit status CODE and
# printed the error object, with that exit_code, as SCHEMA says.
json_err() {
	[ "$status" -eq "$2" ] || { echo "exit status $status, not $2: $stderr"; return 1; }
	[ "$(json .status)" = error ] || { echo "status is not error: $output"; return 1; }
	[ "$(json .exit_code)" = "$2" ] || { echo "exit_code is not $2: $output"; return 1; }
	[ "$(json .error)" = "${stderr#ssdtune: }" ] || {
		echo "error is not the line on stderr ($stderr): $output"; return 1; }
	schema_ok "$1"
}

@test "every command of ssdtune --help has its schema in Documentation/schema, and every schema a command" {
	local cmds c f bad=0
	cmds=$(help_commands)
	[ "$(printf '%s\n' "$cmds" | wc -l)" -ge 12 ] || { echo "too few commands in --help: $cmds"; return 1; }
	for c in $cmds; do
		[ -f "$SCHEMAS/$c.json" ] || { echo "no $SCHEMAS/$c.json for 'ssdtune $c'"; bad=1; }
	done
	for f in "$SCHEMAS"/*.json; do
		c=$(basename "$f" .json)
		[ "$c" = common ] && continue
		printf '%s\n' "$cmds" | grep -qxF -- "$c" ||
			{ echo "$f: ssdtune --help has no command '$c'"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

@test "the schemas are valid JSON Schema 2020-12 and every \$ref resolves among them" {
	run --separate-stderr "$CHECK" --check-schemas
	[ "$status" -eq 0 ] || { echo "$output $stderr"; return 1; }
	[ -z "$output" ]
}

@test "the check names a renamed, a missing and a mistyped key, a line each, and exits 1" {
	run --separate-stderr ssdt --json --dry-run attach 0000:41:00.0
	json_ok attach
	good=$output
	output=${good/\"pci_address\"/\"bdf\"}
	run --separate-stderr "$CHECK" attach <<<"$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"attach: \$: 'pci_address' is a required property"* ]]
	[[ "$output" == *"'bdf' was unexpected"* ]]
	run --separate-stderr "$CHECK" attach < <(printf '%s' "$good" | python3 -c '
import json, sys
v = json.load(sys.stdin)
del v["writes"]
v["previous_driver"] = 7
print(json.dumps(v))')
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "attach: \$: 'writes' is a required property" ]
	[[ "${lines[1]}" == "attach: \$.previous_driver: 7 is not of type "* ]]
	# an error object without its exit_code; not JSON at all
	run --separate-stderr "$CHECK" common <<<'{"command": null, "version": "0.1.0", "status": "error", "error": "x"}'
	[ "$status" -eq 1 ]
	[ "$output" = "common: \$: 'exit_code' is a required property" ]
	run --separate-stderr "$CHECK" attach <<<'attached'
	[ "$status" -eq 1 ]
	[[ "$output" == "attach: not one JSON value: "* ]]
	# no such schema, no command: usage errors
	run --separate-stderr "$CHECK" frobnicate <<<'{}'
	[ "$status" -eq 2 ]
	[[ "$stderr" == "json-schema-check: no schema for 'frobnicate'"* ]]
	run --separate-stderr "$CHECK"
	[ "$status" -eq 2 ]
}

@test "schema: a command line without a command is the error object of common.json" {
	run --separate-stderr ssdt --json
	json_err common 2
	run --separate-stderr ssdt --json frobnicate
	json_err common 2
	run --separate-stderr ssdt --json --frobnicate topology
	json_err common 2
	[ "$(json .command)" = null ]
}

@test "schema: topology on every host fixture; its errors" {
	local fx
	run --separate-stderr ssdt --json topology	# no CPUs in this one
	json_err topology 1
	for fx in 1s8c 2s24c 4n128c vm; do
		make_topo "$fx"
		run --separate-stderr ssdt --json topology
		json_ok topology || { echo "fixture $fx"; return 1; }
	done
	# no cpuidle, no cpufreq: the short forms
	rm -rf "$FX/devices/system/cpu/cpuidle" "$FX"/devices/system/cpu/cpufreq/policy*
	run --separate-stderr ssdt --json topology
	json_ok topology
	[ "$(json .cpuidle)" = '{"available": false}' ]
	run --separate-stderr ssdt --json topology extra
	json_err topology 2
}

@test "schema: attach BDF: would_attach, attached, already_attached; refusals" {
	run --separate-stderr ssdt --json --dry-run attach 0000:41:00.0
	json_ok attach
	[ "$(json .status)" = would_attach ]
	run --separate-stderr ssdt --json attach 0000:42:00.0
	json_ok attach
	[ "$(json .status)" = already_attached ]
	fake_bind "$FX/bus/pci/drivers/ssdtune/bind" "$NVME_DIR" ssdtune probe_ssdt1
	run --separate-stderr ssdt --json attach 0000:41:00.0
	json_ok attach
	[ "$(json .status)" = attached ]
	run --separate-stderr ssdt --json attach 0000:43:00.0
	json_err attach 1
	run --separate-stderr ssdt --json attach 0000:00:02.0
	json_err attach 1
	run --separate-stderr ssdt --json attach zz
	json_err attach 2
	run --separate-stderr ssdt --json attach --frobnicate 0000:41:00.0
	json_err attach 2
}

@test "schema: attach refused while a namespace is busy, and a bind that fails" {
	ln -s ../../../../../../../../virtual/block/dm-0 "$NVME_NS/holders/dm-0"
	run --separate-stderr ssdt --json attach 0000:41:00.0
	json_err attach 1
	[ "$(json .block_devices)" = '["nvme0n1", "nvme0n1p1"]' ]
	rm "$NVME_NS/holders/dm-0"
	rm "$FX/bus/pci/drivers/ssdtune/bind"
	mkdir "$FX/bus/pci/drivers/ssdtune/bind"	# the write fails: EISDIR
	run --separate-stderr ssdt --json attach 0000:41:00.0
	json_err attach 1
	[ "$(json .writes.2.error)" = "Is a directory" ]
}

@test "schema: attach --config: ok (dry run), not_configured, none_present, a controller that fails" {
	printf 'controller = model:QEMU NVMe Ctrl\n' >"$CONF"
	run --separate-stderr ssdt --json --dry-run attach --config "$CONF"
	json_ok attach
	[ "$(json .status)" = ok ]
	run --separate-stderr ssdt --json attach --config "$CONF" 0000:00:02.0
	json_ok attach
	[ "$(json .status)" = not_configured ]
	printf 'controller = serial:nosuch\n' >"$CONF"
	run --separate-stderr ssdt --json attach --config "$CONF"
	json_ok attach
	[ "$(json .status)" = none_present ]
	printf 'controller = pci:0000:41:00.0\n' >"$CONF"
	rm -r "$FX/bus/pci/drivers/ssdtune"
	run --separate-stderr ssdt --json attach --config "$CONF"
	json_err attach 1
	[ "$(json .attached.0.status)" = failed ]
	printf 'bogus\n' >"$CONF"
	run --separate-stderr ssdt --json attach --config "$CONF"
	json_err attach 2
}

@test "schema: detach: would_detach, detached; refusals" {
	run --separate-stderr ssdt --json --dry-run detach 0000:42:00.0
	json_ok detach
	fake_bind "$FX/bus/pci/drivers_probe" "$SSDT_DIR" nvme ""
	run --separate-stderr ssdt --json detach 0000:42:00.0
	json_ok detach
	[ "$(json .driver)" = nvme ]
	run --separate-stderr ssdt --json detach 0000:41:00.0
	json_err detach 1
	run --separate-stderr ssdt --json detach 0001:00:00.0
	json_err detach 1
	run --separate-stderr ssdt --json detach
	json_err detach 2
}

@test "schema: set: dry run, knobs written; bad values and an unknown controller" {
	run --separate-stderr ssdt --json --dry-run set --state-dir "$STATE" ssdt0 coalesce_threshold=16
	json_ok set
	run --separate-stderr ssdt --json set --state-dir "$STATE" 0000:42:00.0 coalesce_threshold=16 power_limit_mw=9000
	json_ok set
	[ "$(json .state_dir)" = "$STATE" ]
	run --separate-stderr ssdt --json set --state-dir "$STATE" ssdt0 coalesce_threshold=257
	json_err set 2
	run --separate-stderr ssdt --json set --state-dir "$STATE" ssdt7 coalesce_threshold=4
	json_err set 1
}

@test "schema: check-config: a good file, the shipped example, a bad file" {
	cat >"$CONF" <<'EOC'
controller = serial:S4N1SSDT
controller = pci:0000:41:00.0
profile = latency
isolate = yes
io_cores = 2
coalesce_threshold = 16
power_limit_mw = 9000
EOC
	run --separate-stderr "$SSDTUNE" --json check-config "$CONF"
	json_ok check-config
	run --separate-stderr "$SSDTUNE" --json check-config "$REPO/misc/ssdtune.conf"
	json_ok check-config
	printf 'profile = fast\n' >"$CONF"
	run --separate-stderr "$SSDTUNE" --json check-config "$CONF"
	json_err check-config 2
	run --separate-stderr "$SSDTUNE" --json check-config "$BATS_TEST_TMPDIR/nosuch.conf"
	json_err check-config 2
}

@test "schema: check-config FILE BDF, selected or not; a bad address" {
	topo_ident
	printf 'controller = serial:S4N1SSDT\n' >"$CONF"
	run --separate-stderr ssdt --json check-config "$CONF" 0000:41:00.0
	json_ok check-config
	[ "$(json .line)" = 1 ]
	run --separate-stderr ssdt --json check-config "$CONF" 0000:c1:00.0
	[ "$status" -eq 1 ]
	[ "$(json .selected)" = false ]
	schema_ok check-config
	run --separate-stderr ssdt --json check-config "$CONF" 41-00
	json_err check-config 2
}

@test "schema: plan for every profile, isolated, with irqbalance running; its errors" {
	local prof
	make_topo 4n128c
	for prof in latency iops throughput balanced; do
		run --separate-stderr ssdt --json plan --profile "$prof"
		json_ok plan || { echo "profile $prof"; return 1; }
	done
	run --separate-stderr ssdt --json plan --profile latency --isolate --io-cores 2 0000:41:00.0
	json_ok plan
	irqbalance_unit_start
	run --separate-stderr ssdt --json plan --profile iops
	json_ok plan
	[ "$(json .irqbalance.systemd_unit)" = true ]
	run --separate-stderr ssdt --json plan 0000:99:00.0
	json_err plan 1
	run --separate-stderr ssdt --json plan --profile fast
	json_err plan 2
}

@test "schema: apply, verify (holds, pending, drift), revert; dry runs" {
	make_topo 4n128c
	run --separate-stderr ssdt --json --dry-run apply --profile latency --state-dir "$STATE"
	json_ok apply
	[ "$(json .state_dir)" = null ]
	run --separate-stderr ssdt --json apply --profile latency --state-dir "$STATE"
	json_ok apply
	run --separate-stderr ssdt --json verify --state-dir "$STATE"
	json_ok verify
	[ "$(json .pending)" -gt 0 ]
	echo powersave >"$FX/devices/system/cpu/cpufreq/policy20/scaling_governor"
	run --separate-stderr ssdt --json verify --state-dir "$STATE"
	json_err verify 3
	[ "$(json .drifted)" = 1 ]
	run --separate-stderr ssdt --json --dry-run revert --state-dir "$STATE"
	json_ok revert
	run --separate-stderr ssdt --json revert --state-dir "$STATE"
	json_ok revert
	[ "$(json .skipped)" = '[]' ]
	# nothing applied
	run --separate-stderr ssdt --json verify --state-dir "$STATE"
	json_err verify 1
	run --separate-stderr ssdt --json revert --state-dir "$STATE"
	json_ok revert
	[ "$(json .nothing_applied)" = true ]
	[ "$(json .writes)" = '[]' ]
	run --separate-stderr ssdt --json apply --profile latency --state-dir "$STATE" 0000:99:00.0
	json_err apply 1
	run --separate-stderr ssdt --json apply --isolate --state-dir "$STATE"
	json_err apply 2
}

@test "schema: a state from before the last boot: verify and revert refuse, revert --force skips what is gone" {
	make_topo 4n128c
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	sed -i 's/"boot_id":"[^"]*"/"boot_id":"00000000-0000-0000-0000-000000000000"/' "$STATE/state.json"
	run --separate-stderr ssdt --json verify --state-dir "$STATE"
	json_err verify 3
	[ "$(json .stale)" = true ]
	run --separate-stderr ssdt --json revert --state-dir "$STATE"
	json_err revert 1
	[ "$(json .stale)" = true ]
	mv "$FX/devices/pci0000:40/0000:40:01.1/0000:41:00.0/msi_irqs" "$BATS_TEST_TMPDIR/msi_irqs"
	run --separate-stderr ssdt --json revert --force --state-dir "$STATE"
	json_ok revert
	[ "$(json .skipped.0)" = "irq 0000:41:00.0 vector 8" ]
}

@test "schema: apply, verify and attach --config; none present" {
	topo_ident
	printf 'controller = serial:S4N1SSDT\ncontroller = pci:0000:99:00.0\nprofile = latency\ncoalesce_threshold = 16\n' >"$CONF"
	run --separate-stderr ssdt --json apply --config "$CONF" --state-dir "$STATE"
	json_ok apply
	[ "$(json .knobs_set)" = 1 ]
	run --separate-stderr ssdt --json verify --config "$CONF" --state-dir "$STATE"
	json_ok verify
	run --separate-stderr ssdt --json revert --state-dir "$STATE"
	json_ok revert
	printf 'controller = serial:nosuch\nprofile = latency\n' >"$CONF"
	run --separate-stderr ssdt --json apply --config "$CONF" --state-dir "$STATE"
	json_ok apply
	[ "$(json .status)" = none_present ]
	run --separate-stderr ssdt --json verify --config "$CONF" --state-dir "$STATE"
	json_ok verify
	[ "$(json .status)" = none_present ]
	printf 'controller = serial:S4N1SSDT\nprofile = latency\n' >"$CONF"
	run --separate-stderr ssdt --json verify --config "$CONF" --state-dir "$STATE"
	json_err verify 3
	run --separate-stderr ssdt --json apply --config "$CONF" --profile iops --state-dir "$STATE"
	json_err apply 2
}

@test "schema: run --dry-run in an applied partition; run refusals" {
	make_topo 1s8c
	# a partition as 'apply --isolate' leaves it (a fixture directory is
	# not cgroupfs: its files by hand, and the state that names it)
	p=$FX/fs/cgroup/ssdtune
	mkdir -p "$p" "$STATE"
	echo 2-3 >"$p/cpuset.cpus"
	echo isolated >"$p/cpuset.cpus.partition"
	: >"$p/cgroup.procs"
	cat >"$STATE/state.json" <<EOS
{"version": 1, "profile": "latency", "boot_id": "$(cat /proc/sys/kernel/random/boot_id)",
 "entries": [{"key": "partition /sys/fs/cgroup/ssdtune", "path": "/sys/fs/cgroup/ssdtune",
   "old": "", "new": "cpus=2-3 partition=isolated", "type": "partition"}]}
EOS
	run --separate-stderr ssdt --json --dry-run run --state-dir "$STATE" -- fio --name x
	json_ok run
	[ "$(json .command)" = '["fio", "--name", "x"]' ]
	[ "$(json .cpus)" = 2-3 ]
	[ "$(json .partition)" = /sys/fs/cgroup/ssdtune ]
	run --separate-stderr ssdt --json run --state-dir "$STATE" -- true
	json_err run 2
	echo member >"$p/cpuset.cpus.partition"
	run --separate-stderr ssdt --json --dry-run run --state-dir "$STATE" -- true
	json_err run 1
	rm "$STATE/state.json"
	run --separate-stderr ssdt --json --dry-run run --state-dir "$STATE" -- true
	json_err run 1
}

@test "schema: monitor errors (its events and counters need the driver: the VM suite checks them)" {
	# ssdt runs in a network namespace of its own: no ssdtune family
	run --separate-stderr ssdt --json monitor --timeout 1
	json_err monitor 1
	run --separate-stderr ssdt --json monitor --stats
	json_err monitor 1
	run --separate-stderr ssdt --json monitor --count 0
	json_err monitor 2
	run --separate-stderr ssdt --json monitor --interval 1
	json_err monitor 2
}

bench_env() {
	export PATH="$BATS_TEST_DIRNAME/../fixtures/bench-bin:$PATH"
	export FAKE_FIO_LOG=$BATS_TEST_TMPDIR/fio.log
	export FAKE_FIO_STATE=$BATS_TEST_TMPDIR/fio.state
	OUT=$BATS_TEST_TMPDIR/out
}

@test "schema: bench: a run (steady state, purge, precondition), a dry run, compare; its errors" {
	bench_env
	FAKE_FIO_IOPS=3000,2600,2200,1800,1500,1300,1300,1250,1000,1010,990,1005,995,5000 \
		run --separate-stderr ssdt --json bench ssdt0n1 --bs 4k --qd 1 --rounds 3 \
		--runtime 1 --steady-state --purge --precondition --destroy-data --rw 0/100 --out "$OUT.a"
	json_ok bench
	[ "$(json .status)" = ok ]
	[ "$(json .device.pci_address)" = 0000:42:00.0 ]
	rm -rf "$FAKE_FIO_STATE"
	run --separate-stderr ssdt --json bench ssdt0n1 --bs 4k,128k --qd 1,4x8 --rw 70/30 \
		--rounds 3 --runtime 1 --destroy-data --out "$OUT.b"
	json_ok bench
	rm -rf "$FAKE_FIO_STATE"
	run --separate-stderr ssdt --json bench ssdt0n1 --suite pts-latency --bs 4k --runtime 1 \
		--destroy-data --out "$OUT.l"
	json_ok bench
	[ "$(json .pts_latency.0.cell)" = randread-4k-t1q1 ]
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --bs 4k --qd 1,32 --rw 70/30 \
		--cpus 0-1 --purge --precondition --destroy-data
	json_ok bench
	[ "$(json .status)" = dry-run ]
	run --separate-stderr ssdt --json bench compare "$OUT.b/bench.json" "$OUT.b/bench.json"
	json_ok bench
	run --separate-stderr ssdt --json bench compare "$OUT.a/bench.json" "$OUT.b/bench.json"
	json_err bench 1	# no cell in common
	run --separate-stderr ssdt --json bench compare "$OUT.a/bench.json"
	json_err bench 2
	run --separate-stderr ssdt --json bench ssdt0n1 --rw write --out "$OUT.c"
	json_err bench 1
	run --separate-stderr ssdt --json bench ssdt0n1 --bs 3000
	json_err bench 2
	FAKE_FIO_FAIL="fio: error" run --separate-stderr ssdt --json bench ssdt0n1 --bs 4k --qd 1 --out "$OUT.d"
	json_err bench 1
}

@test "schema: bench --suite qos: a run (with trims, with --qos-bw), its dry runs, its refusals" {
	bench_env
	FAKE_FIO_INTERFERE=0.01 run --separate-stderr ssdt --json bench ssdt0n1 --suite qos \
		--qos-trim --runtime 1 --destroy-data --out "$OUT.q"
	json_ok bench
	[ "$(json .qos.curve.3.level_pct)" = 100 ]
	[ "$(json .cells.qos-seq128k-trim-w50.qos.level_pct)" = 50 ]
	run --separate-stderr ssdt --json bench ssdt0n1 --suite qos --qos-writer rand4k \
		--qos-bw 2 --runtime 1 --rounds 1 --destroy-data --out "$OUT.r"
	json_ok bench
	[ "$(json .qos.bandwidth)" = null ]
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --suite qos --destroy-data
	json_ok bench
	[ "$(json .qos.bandwidth_mbps)" = null ]
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --suite qos --qos-bw 50 --destroy-data
	json_ok bench
	[ "$(json .qos.bandwidth_job)" = null ]
	run --separate-stderr ssdt --json bench compare "$OUT.q/bench.json" "$OUT.q/bench.json"
	json_ok bench
	run --separate-stderr ssdt --json bench ssdt0n1 --suite qos --out "$OUT.s"
	json_err bench 1
	run --separate-stderr ssdt --json bench ssdt0n1 --suite qos --bs 4k
	json_err bench 2
}

@test "schema: bench --ab, and its dry run" {
	bench_env
	export SSDTUNE_BENCH_SELF=$BATS_TEST_DIRNAME/../fixtures/bench-bin/ssdtune-self
	run --separate-stderr ssdt --json --dry-run bench ssdt0n1 --ab latency --bs 4k --qd 1
	json_ok bench
	[ "$(json .profile)" = latency ]
	run --separate-stderr ssdt --json bench ssdt0n1 --ab latency --bs 4k --qd 1 \
		--rounds 3 --runtime 1 --out "$OUT"
	json_ok bench
	[ "$(json .compare.rows.0.metric)" = iops ]
	FAKE_APPLY_EXIT=137 run --separate-stderr ssdt --json bench ssdt0n1 --ab latency --bs 4k \
		--qd 1 --rounds 3 --runtime 1 --out "$OUT.2"
	json_err bench 1
	[ "$(json .ab_state_dir)" = "$BATS_TEST_TMPDIR/default-state/bench-ab" ]
}

@test "schema: metrics on the fixtures, with a profile applied, to a file; its errors" {
	topo_ident
	run --separate-stderr ssdt --json metrics
	json_ok metrics
	[ "$(json .controllers)" = 1 ]
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ]
	run --separate-stderr ssdt --json metrics --state-dir "$STATE" --output "$BATS_TEST_TMPDIR/m.prom"
	json_ok metrics
	[ "$(json .output)" = "$BATS_TEST_TMPDIR/m.prom" ]
	run --separate-stderr ssdt --json metrics --output "$BATS_TEST_TMPDIR/no/m.prom"
	json_err metrics 1
	echo '{' >"$STATE/state.json"
	run --separate-stderr ssdt --json metrics --state-dir "$STATE"
	json_err metrics 1
}

@test "schema: status: nothing applied, applied, drift (exit 3); on every host fixture" {
	for f in 1s8c 4n128c; do
		make_topo "$f"
		run --separate-stderr ssdt --json status --state-dir "$STATE.$f"
		json_ok status
	done
	run --separate-stderr ssdt --json apply --profile latency --state-dir "$STATE.4n128c"
	json_ok apply
	run --separate-stderr ssdt --json status --state-dir "$STATE.4n128c"
	json_ok status
	irq=$(ls "$(ls -d "$FX"/devices/pci*/*/0000:41:00.0)/msi_irqs" | sort -n | sed -n 2p)
	echo 0 >"$PFX/irq/$irq/smp_affinity_list"
	run --separate-stderr ssdt --json status --state-dir "$STATE.4n128c"
	[ "$status" -eq 3 ]
	schema_ok status
}
