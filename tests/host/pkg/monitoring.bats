#!/usr/bin/env bats
# The fleet's monitoring files in misc/: the Prometheus alert rules
# (misc/prometheus/ssdtune.rules.yml) pass 'promtool check rules' and
# their unit tests 'promtool test rules' (ssdtune.rules.test.yml), one
# for every alert; the Grafana dashboard (misc/grafana/ssdtune-dashboard.json)
# is well-formed and each of its queries parses as PromQL.  Debian's
# promtool, unpacked by make setup into build/prometheus: without it these
# fail.  That the rules and the dashboard name only metrics the tool
# prints is tests/host/cmd/metrics.bats's.

load ../helpers

PROMTOOL=${PROMTOOL:-$REPO/build/prometheus/promtool}
RULES=$REPO/misc/prometheus/ssdtune.rules.yml
RULES_TEST=$REPO/misc/prometheus/ssdtune.rules.test.yml
DASHBOARD=$REPO/misc/grafana/ssdtune-dashboard.json

setup() {
	[ -x "$PROMTOOL" ] || { echo "no $PROMTOOL (make setup)"; return 1; }
}

@test "promtool check rules passes the alert rules, and fails a copy with a broken expression" {
	run "$PROMTOOL" check rules "$RULES"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"SUCCESS: "*" rules found"* ]]
	sed 's/expr: ssdtune_tuning_drift == 1/expr: ssdtune_tuning_drift ==/' "$RULES" >"$BATS_TEST_TMPDIR/broken.yml"
	run "$PROMTOOL" check rules "$BATS_TEST_TMPDIR/broken.yml"
	[ "$status" -ne 0 ]
}

@test "promtool test rules passes, every alert has a test, and a changed threshold fails it" {
	local a bad=0
	cd "$REPO/misc/prometheus"
	run "$PROMTOOL" test rules "$RULES_TEST"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *SUCCESS* ]]
	for a in $(sed -n 's/^ *- alert: //p' "$RULES"); do
		grep -qE "^ *alertname: $a\$" "$RULES_TEST" || { echo "no test of $a"; bad=1; }
	done
	[ "$bad" -eq 0 ]
	# the tests see what the rules say: another threshold, a failure
	mkdir "$BATS_TEST_TMPDIR/changed"
	sed 's/ssdtune_temperature_warning_celsius - 5/ssdtune_temperature_warning_celsius - 2/' \
		"$RULES" >"$BATS_TEST_TMPDIR/changed/ssdtune.rules.yml"
	cp "$RULES_TEST" "$BATS_TEST_TMPDIR/changed/"
	cd "$BATS_TEST_TMPDIR/changed"
	run "$PROMTOOL" test rules ssdtune.rules.test.yml
	[ "$status" -ne 0 ]
	[[ $output == *SsdtuneTemperatureNearWarning* ]]
}

@test "the Grafana dashboard is well-formed JSON, and each query parses as PromQL (promtool)" {
	python3 - "$DASHBOARD" "$BATS_TEST_TMPDIR/queries.yml" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["uid"] == "ssdtune" and d["title"] and d["schemaVersion"] >= 36, d.get("uid")
names = [v["name"] for v in d["templating"]["list"]]
assert names == ["datasource", "instance", "controller"], names
ids = [p["id"] for p in d["panels"]]
assert len(ids) == len(set(ids)), "panel ids repeat"
exprs = []
for p in d["panels"]:
    g = p["gridPos"]
    assert g["x"] + g["w"] <= 24 and g["h"] > 0, p["title"]
    if p["type"] == "row":
        continue
    assert p["datasource"]["uid"] == "${datasource}", p["title"]
    assert p["targets"], p["title"]
    for t in p["targets"]:
        assert t["datasource"]["uid"] == "${datasource}", p["title"]
        exprs.append(t["expr"])
for v in d["templating"]["list"][1:]:
    q = v["query"]["query"]
    assert q.startswith("label_values(") and q.endswith(")"), q
    exprs.append(q[len("label_values("):q.rindex(",")])
# Grafana's variables as Prometheus would see them once substituted
with open(sys.argv[2], "w") as f:
    f.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, e in enumerate(exprs):
        e = e.replace("$__rate_interval", "5m").replace("$instance", ".*").replace("$controller", ".*")
        f.write("      - record: dashboard:query_%d\n        expr: %s\n" % (i, json.dumps(e)))
print(len(exprs), "queries")
EOP
	run "$PROMTOOL" check rules "$BATS_TEST_TMPDIR/queries.yml"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *SUCCESS* ]]
}
