#!/usr/bin/env bats
# The tool's names rule (scripts/lint-names.py, also part of `make lint`):
# no sysfs file name of ssdtune.ko is spelled out in
# tools/ssdtune/{lib,cmd,bench}; each comes from the driver's table,
# include/uapi/linux/ssdtune_knobs.h, through KNOB_FILE(), ATTR_FILE() or
# QUEUE_FILE().

bats_require_minimum_version 1.5.0

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
LINT=$REPO/scripts/lint-names.py
KNOBS_H=$REPO/include/uapi/linux/ssdtune_knobs.h

@test "the tool's lib/, cmd/ and bench/ spell no sysfs file name of the driver" {
	run --separate-stderr python3 "$LINT"
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(ls "$REPO"/tools/ssdtune/{lib,cmd,bench}/*.[ch] | wc -l)
	# every line of the table, and the queues directory
	names=$(( $(grep -c -E '^SSDTUNE_(KNOB|ATTR|QUEUE_ATTR)\(' "$KNOBS_H") + 1 ))
	[ "$names" -ge 41 ]
	[ "$output" = "lint-names: $n files spell no sysfs file name of ssdtune.ko ($names names)" ]
}

@test "the names rule names each literal file name with its file and line, and lets keys, other files and marked lines pass" {
	src=$BATS_TEST_TMPDIR/lib
	mkdir "$src"
	cat >"$src/planted.c" <<'EOF'
static const char *const files[] = { "power_estimate_mw", "coalesce_mode" };
static const char *const mine[] = { KNOB_FILE(poll_queues), ATTR_FILE(serial) };

void planted(struct json_object *o, char *p, size_t n, const char *c, int q)
{
	sys_read(ssdtdev_path(p, n, c, "serial"), p, n);
	snprintf(p, n, "%s/queues/q%d/cpus", c, q);
	snprintf(p, n, "queues/q%d/" "retries", q);
	json_object_object_add(o, "serial", json_object_new_string(p));
	json_object_object_add(o, "model", json_object_new_string(read1("model")));
	report_set_str("pci_address", p);
	snprintf(p, n, "/proc/irq/%d/smp_affinity_list", q);
	snprintf(p, n, "/sys/class/nvme/%s/serial", c);	/* lint-names: nvme's */
	/* lint-names: stock nvme's, on the next line */
	snprintf(p, n, "/sys/class/nvme/%s/model", c);
	/* "state" in a comment is no literal */
	snprintf(p, n, "%s/serial_number", c);
}
EOF
	run --separate-stderr python3 "$LINT" "$src"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"$src/planted.c:1: \"power_estimate_mw\" names a sysfs file of ssdtune.ko"* ]]
	[[ $output == *"$src/planted.c:1: \"coalesce_mode\" names"* ]]
	[[ $output == *"$src/planted.c:6: \"serial\" names"* ]]
	[[ $output == *"$src/planted.c:7: \"%s/queues/q%d/cpus\" names"* ]]
	[[ $output == *"$src/planted.c:8: \"queues/q%d/\" names"* ]]
	[[ $output == *"$src/planted.c:8: \"retries\" names"* ]]
	# a JSON key passes; a read inside the same call does not
	[[ $output == *"$src/planted.c:10: \"model\" names"* ]]
	[ "$(grep -c ' names a sysfs file' <<<"$output")" -eq 7 ]
	[[ $output == *"lint-names: 7 literal sysfs file names of ssdtune.ko (above)" ]]
}

@test "the names rule takes its names from the uapi table, not a list of its own" {
	src=$BATS_TEST_TMPDIR/cmd
	mkdir "$src"
	last=$(sed -n 's/^SSDTUNE_ATTR(\([a-z0-9_]*\)).*/\1/p' "$KNOBS_H" | tail -n 1)
	qlast=$(sed -n 's/^SSDTUNE_QUEUE_ATTR(\([a-z0-9_]*\)).*/\1/p' "$KNOBS_H" | tail -n 1)
	printf 'const char *a = "%s";\nconst char *b = "queues/q1/%s";\n' "$last" "$qlast" >"$src/x.c"
	run --separate-stderr python3 "$LINT" "$src/x.c"
	[ "$status" -eq 1 ]
	[[ $output == *"x.c:1: \"$last\" names"* ]]
	[[ $output == *"x.c:2: \"queues/q1/$qlast\" names"* ]]
}

@test "make lint runs the names rule" {
	grep -q 'scripts/lint-names.py' "$REPO/scripts/lint.sh"
}
