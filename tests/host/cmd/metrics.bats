#!/usr/bin/env bats
# ssdtune metrics: the Prometheus text of the driver's files and the
# tuning's state, on the fixtures (fixtures/mktopo.py's 4n128c with ssdt0
# filled in as the driver shows it), checked with Debian's promtool
# (unpacked by setup into build/prometheus).  In the VM,
# tests/vm/86-metrics.bats checks it against the real driver and
# node_exporter.

load ../helpers

PROMTOOL=${PROMTOOL:-$REPO/build/prometheus/promtool}

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	[ -x "$PROMTOOL" ] || { echo "no $PROMTOOL (make setup)"; return 1; }
	STATE=$BATS_TEST_TMPDIR/state
	topo_ident
	ctrl_files "$SSDT0"
}

# ctrl_files DIR: what the driver shows in /sys/class/ssdtune/ssdtN
# (Documentation/ABI/testing/sysfs-class-ssdtune), three queues.
ctrl_files() {
	local d=$1 q
	echo live >"$d/state"
	echo KXB1 >"$d/firmware"
	echo 1 >"$d/numa_node"
	echo 2 >"$d/io_queues"
	echo 1024 >"$d/queue_depth"
	echo balanced >"$d/coalesce_profile"
	echo host >"$d/coalesce_active"
	echo 16 >"$d/coalesce_threshold"
	echo 500 >"$d/coalesce_time_us"
	echo 8000 >"$d/power_limit_mw"
	echo host >"$d/power_limit_active"
	echo 7251 >"$d/power_estimate_mw"
	echo 123456789012 >"$d/energy_uj"
	echo 0 >"$d/power_state"
	echo 12 >"$d/throttle_events"
	echo 3500250 >"$d/throttled_us"
	echo 35850 >"$d/temperature_mc"
	echo -2150 >"$d/temperature_warn_mc"
	for q in 0 1 2; do
		mkdir -p "$d/queues/q$q"
		echo $((300 + q)) >"$d/queues/q$q/irq"
		echo $((1000 * q + 5)) >"$d/queues/q$q/submitted"
		echo $((1000 * q + 1)) >"$d/queues/q$q/completed"
		echo $((100 * q + 1)) >"$d/queues/q$q/interrupts"
		echo $((10 * q)) >"$d/queues/q$q/polled"
		echo $((3 * q)) >"$d/queues/q$q/retries"
		echo "$q" >"$d/queues/q$q/stale_completions"
	done
	echo 18446744073709551615 >"$d/queues/q2/completed"	# no precision lost
}

# sample NAME{LABELS}: the value of that sample in $output
sample() {
	printf '%s\n' "$output" | awk -v k="$1 " 'index($0, k) == 1 { print $NF }'
}

@test "metrics: the driver's files as Prometheus metrics, base units, counters _total; promtool check metrics is clean" {
	run --separate-stderr ssdt metrics
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" | "$PROMTOOL" check metrics
	[ "$(sample 'ssdtune_controller_info{controller="ssdt0",pci_address="0000:41:00.0",model="Samsung SSD 990 PRO 2TB",serial="S4N1SSDT",firmware="KXB1",numa_node="1"}')" = 1 ]
	[ "$(sample 'ssdtune_controller_state{controller="ssdt0",state="live"}')" = 1 ]
	[ "$(sample 'ssdtune_controller_state{controller="ssdt0",state="dead"}')" = 0 ]
	[ "$(sample 'ssdtune_queue_completions_total{controller="ssdt0",queue="1"}')" = 1001 ]
	[ "$(sample 'ssdtune_queue_completions_total{controller="ssdt0",queue="2"}')" = 18446744073709551615 ]
	[ "$(sample 'ssdtune_queue_submitted_commands_total{controller="ssdt0",queue="0"}')" = 5 ]
	[ "$(sample 'ssdtune_queue_interrupts_total{controller="ssdt0",queue="2"}')" = 201 ]
	[ "$(sample 'ssdtune_queue_polled_completions_total{controller="ssdt0",queue="2"}')" = 20 ]
	[ "$(sample 'ssdtune_queue_retries_total{controller="ssdt0",queue="2"}')" = 6 ]
	[ "$(sample 'ssdtune_queue_stale_completions_total{controller="ssdt0",queue="1"}')" = 1 ]
	[ "$(sample 'ssdtune_coalesce_mode{controller="ssdt0",mode="off"}')" = 1 ]
	[ "$(sample 'ssdtune_coalesce_active{controller="ssdt0",mode="host"}')" = 1 ]
	[ "$(sample 'ssdtune_coalesce_profile_info{controller="ssdt0",profile="balanced"}')" = 1 ]
	[ "$(sample 'ssdtune_coalesce_threshold_completions{controller="ssdt0"}')" = 16 ]
	[ "$(sample 'ssdtune_coalesce_time_seconds{controller="ssdt0"}')" = 0.000500 ]
	[ "$(sample 'ssdtune_power_limit_watts{controller="ssdt0"}')" = 8.000 ]
	[ "$(sample 'ssdtune_power_limit_mode{controller="ssdt0",mode="auto"}')" = 1 ]
	[ "$(sample 'ssdtune_power_limit_active{controller="ssdt0",mode="host"}')" = 1 ]
	[ "$(sample 'ssdtune_power_estimate_watts{controller="ssdt0"}')" = 7.251 ]
	[ "$(sample 'ssdtune_energy_joules_total{controller="ssdt0"}')" = 123456.789012 ]
	[ "$(sample 'ssdtune_power_state{controller="ssdt0"}')" = 0 ]
	[ "$(sample 'ssdtune_throttle_events_total{controller="ssdt0"}')" = 12 ]
	[ "$(sample 'ssdtune_throttled_seconds_total{controller="ssdt0"}')" = 3.500250 ]
	[ "$(sample 'ssdtune_temperature_celsius{controller="ssdt0"}')" = 35.850 ]
	[ "$(sample 'ssdtune_temperature_warning_celsius{controller="ssdt0"}')" = -2.150 ]
	[ "$(sample ssdtune_tuning_applied)" = 0 ]
	[ "$(sample ssdtune_tuning_drift)" = 0 ]
	# every sample is one of the families, each with HELP and TYPE once
	[ "$(printf '%s\n' "$output" | grep -c '^# TYPE ')" -eq "$(printf '%s\n' "$output" | grep -c '^# HELP ')" ]
	[ "$(printf '%s\n' "$output" | grep '^# TYPE ' | sort | uniq -d)" = "" ]
}

@test "metrics: a file the controller cannot answer now leaves its sample out; label values are escaped" {
	rm "$SSDT0/temperature_mc" "$SSDT0/temperature_warn_mc"
	printf 'Odd "Drive" \\ 1\n' >"$SSDT0/model"
	run --separate-stderr ssdt metrics
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | "$PROMTOOL" check metrics
	[[ "$output" != *ssdtune_temperature* ]]
	[[ "$output" == *'model="Odd \"Drive\" \\ 1"'* ]]
}

@test "metrics without the module (no /sys/class/ssdtune): only the tuning's metrics, exit 0" {
	rm -rf "$FX/class/ssdtune"
	run --separate-stderr ssdt metrics
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | "$PROMTOOL" check metrics
	[[ "$output" != *ssdtune_controller* ]]
	[ "$(sample ssdtune_tuning_applied)" = 0 ]
}

@test "metrics --output FILE: written atomically (mode 0644, no temporary file left), the same text; a directory that is not there: one line, exit 1, nothing written" {
	run --separate-stderr ssdt metrics
	want=$output
	mkdir "$BATS_TEST_TMPDIR/textfile"
	f=$BATS_TEST_TMPDIR/textfile/ssdtune.prom
	run --separate-stderr ssdt metrics --output "$f"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ "$output" = "$f: 1 controller, 3 queues" ]
	[ "$(cat "$f")" = "$want" ]
	[ "$(stat -c %a "$f")" = 644 ]
	[ "$(ls -A "$BATS_TEST_TMPDIR/textfile")" = ssdtune.prom ]
	"$PROMTOOL" check metrics <"$f"
	# again over the old file: replaced
	echo 99 >"$SSDT0/throttle_events"
	run --separate-stderr ssdt metrics --output "$f"
	[ "$status" -eq 0 ]
	grep -qx 'ssdtune_throttle_events_total{controller="ssdt0"} 99' "$f"
	[ "$(ls -A "$BATS_TEST_TMPDIR/textfile")" = ssdtune.prom ]
	run --separate-stderr ssdt metrics --output "$BATS_TEST_TMPDIR/nodir/ssdtune.prom"
	[ "$status" -eq 1 ]
	assert_one_error_line
	[[ "$stderr" == *"cannot write in $BATS_TEST_TMPDIR/nodir"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/nodir" ]
	run --separate-stderr ssdt metrics --output ''
	[ "$status" -eq 2 ]
	assert_one_error_line
}

@test "metrics: the applied profile, and drift as verify sees it (a vector moved by hand)" {
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr ssdt metrics --state-dir "$STATE"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | "$PROMTOOL" check metrics
	[ "$(sample 'ssdtune_tuning_info{profile="latency"}')" = 1 ]
	[ "$(sample ssdtune_tuning_applied)" = 1 ]
	[ "$(sample ssdtune_tuning_drift)" = 0 ]
	[ "$(sample ssdtune_tuning_drifted_settings)" = 0 ]
	[ "$(sample ssdtune_tuning_stale)" = 0 ]
	[ "$(sample ssdtune_tuning_settings)" -gt 0 ]
	echo 0-127 >"$PFX/irq/300/smp_affinity_list"
	run --separate-stderr ssdt verify --state-dir "$STATE"
	[ "$status" -eq 3 ]
	run --separate-stderr ssdt metrics --state-dir "$STATE"
	[ "$status" -eq 0 ]
	[ "$(sample ssdtune_tuning_drift)" = 1 ]
	[ "$(sample ssdtune_tuning_drifted_settings)" = 1 ]
	# SSDTUNE_STATE_DIR as for the other commands
	SSDTUNE_STATE_DIR=$STATE run --separate-stderr ssdt metrics
	[ "$(sample ssdtune_tuning_drift)" = 1 ]
}

@test "metrics --json: the same samples, numbers as printed" {
	run --separate-stderr ssdt metrics --json
	[ "$status" -eq 0 ]
	printf '%s' "$output" | python3 -c '
import json, sys
v = json.load(sys.stdin)
assert v["status"] == "ok" and v["controllers"] == 1 and v["queues"] == 3, v
f = {m["name"]: m for m in v["metrics"]}
assert f["ssdtune_queue_completions_total"]["type"] == "counter"
s = [x for x in f["ssdtune_queue_completions_total"]["samples"] if x["labels"]["queue"] == "1"]
assert s[0]["value"] == 1001 and s[0]["labels"]["controller"] == "ssdt0", s
assert f["ssdtune_power_limit_watts"]["samples"][0]["value"] == 8.0
'
}

@test "metrics --config: each configured controller present, 1 on ssdtune and 0 still on nvme; a bad --config is a usage error" {
	printf 'controller = serial:S4N1SSDT\ncontroller = model:Other NVMe 1TB\ncontroller = serial:ABSENT\n' >"$BATS_TEST_TMPDIR/c.conf"
	run --separate-stderr ssdt metrics --config "$BATS_TEST_TMPDIR/c.conf"
	echo "$output $stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" | "$PROMTOOL" check metrics
	[ "$(sample 'ssdtune_config_controller_attached{pci_address="0000:41:00.0",driver="ssdtune",selector="serial:S4N1SSDT"}')" = 1 ]
	[ "$(sample 'ssdtune_config_controller_attached{pci_address="0000:c1:00.0",driver="nvme",selector="model:Other NVMe 1TB"}')" = 0 ]
	[ "$(grep -c '^ssdtune_config_controller_attached{' <<<"$output")" -eq 2 ]
	# no configuration (none at the default path here): no such sample
	run --separate-stderr ssdt metrics
	[[ $output != *ssdtune_config_controller_attached* ]]
	printf 'controller = bogus:1\n' >"$BATS_TEST_TMPDIR/bad.conf"
	run --separate-stderr ssdt metrics --config "$BATS_TEST_TMPDIR/bad.conf"
	[ "$status" -eq 2 ]
	[[ $stderr == *"bad.conf:1:"* ]]
	[ -z "$output" ]
}

@test "the Grafana dashboard shows every metric ssdtune metrics prints and no other; the alert rules use only those and node_exporter's file time" {
	local n bad=0
	# every family printed: a state applied, a configuration
	run --separate-stderr ssdt apply --profile latency --state-dir "$STATE"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	printf 'controller = serial:S4N1SSDT\n' >"$BATS_TEST_TMPDIR/c.conf"
	run --separate-stderr ssdt metrics --state-dir "$STATE" --config "$BATS_TEST_TMPDIR/c.conf"
	[ "$status" -eq 0 ]
	sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' <<<"$output" | sort -u >"$BATS_TEST_TMPDIR/tool"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/tool")" -ge 30 ]
	python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
q = [t["expr"] for p in d["panels"] for t in p.get("targets", [])]
q += [v["query"]["query"] for v in d["templating"]["list"] if v["type"] == "query"]
print("\n".join(sorted({n for e in q for n in re.findall(r"\bssdtune_[a-z_]+", e)})))
' "$REPO/misc/grafana/ssdtune-dashboard.json" >"$BATS_TEST_TMPDIR/dashboard"
	same_lines "$BATS_TEST_TMPDIR/tool" "$BATS_TEST_TMPDIR/dashboard" \
		"ssdtune metrics prints %s, which no panel of the dashboard shows" \
		"the dashboard queries %s, which ssdtune metrics does not print" || bad=1
	# the rules' metric names, comments aside
	python3 -c '
import re, sys
for line in open(sys.argv[1]):
    for n in re.findall(r"\b((?:ssdtune|node)_[a-z_]+)\b", line.split("#")[0]):
        print(n)
' "$REPO/misc/prometheus/ssdtune.rules.yml" | sort -u >"$BATS_TEST_TMPDIR/rules"
	grep -q ssdtune_config_controller_attached "$BATS_TEST_TMPDIR/rules"
	for n in $(grep -vxF -f "$BATS_TEST_TMPDIR/tool" "$BATS_TEST_TMPDIR/rules"); do
		[ "$n" = node_textfile_mtime_seconds ] && continue
		echo "the alert rules use $n, which ssdtune metrics does not print"; bad=1
	done
	return "$bad"
}
