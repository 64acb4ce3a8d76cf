#!/usr/bin/env bats
# Documentation/architecture.md's "Every sysfs file" table has one row per
# file the driver creates under /sys/class/ssdtune/ssdtN (and queues/qK),
# and no row for a file it does not.  The list comes from the sources, not
# from a list kept here: the knobs of include/uapi/linux/ssdtune_knobs.h
# (and the SSDT_KNOB() lines of kmod/), the controller attributes of
# kmod/ (SSDT_CTRL_ATTR_RO(), DEVICE_ATTR_*()) and the queue attributes of
# kmod/ssdt_sysfs.c (SSDT_QUEUE_ATTR(), SSDT_QUEUE_COUNTER(), and a
# struct ssdt_queue_attr with a literal .name).  debugfs (ssdt_debug.c)
# is not sysfs and is left out.

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
DOC=$REPO/Documentation/architecture.md

# driver_files: every sysfs file the driver's sources define, one a line,
# queue files as queues/qK/NAME, sorted and unique.
driver_files() {
	local kmod=()
	local f
	for f in "$REPO"/kmod/*.c "$REPO"/kmod/*.h; do
		[ "${f##*/}" = ssdt_debug.c ] || kmod+=("$f")
	done
	{
		sed -n 's/^SSDTUNE_KNOB(\([a-z][a-z0-9_]*\),.*/\1/p' \
			"$REPO/include/uapi/linux/ssdtune_knobs.h"
		sed -n -E 's/^SSDT_KNOB\(([a-z][a-z0-9_]*),.*/\1/p' "${kmod[@]}"
		sed -n -E 's/^(static )?(SSDT_CTRL_ATTR_RO|DEVICE_ATTR(_[A-Z]+)*)\(([a-z][a-z0-9_]*)[,)].*/\4/p' \
			"${kmod[@]}"
		sed -n -E 's/^SSDT_QUEUE_(ATTR|COUNTER)\(([a-z][a-z0-9_]*)\).*/queues\/qK\/\2/p' \
			"${kmod[@]}"
		awk '/^static struct ssdt_queue_attr [a-z_0-9]+ = \{/ { q = 1; next }
		     q && match($0, /\.name = "[a-z][a-z0-9_]*"/) {
			print "queues/qK/" substr($0, RSTART + 9, RLENGTH - 10); q = 0 }
		     /^\};/ { q = 0 }' "${kmod[@]}"
	} | sort -u
}

# table_files DOC: the first cell of each row of DOC's "Every sysfs file"
# table, sorted and unique.
table_files() {
	awk '/^## / { on = ($0 == "## Every sysfs file") }
	     on && /^\| `[^`]+` \|/ { split($0, c, "`"); print c[2] }' "$1" | sort -u
}

# check DOC: prints each file the driver creates that DOC's table lacks,
# and each row for a file it does not create; fails if there is any.
check() {
	local missing extra
	missing=$(comm -23 <(driver_files) <(table_files "$1"))
	extra=$(comm -13 <(driver_files) <(table_files "$1"))
	[ -z "$missing" ] || printf 'no row in the table: %s\n' $missing
	[ -z "$extra" ] || printf 'a row for a file the driver does not create: %s\n' $extra
	[ -z "$missing" ] && [ -z "$extra" ]
}

@test "architecture.md has a row for every sysfs file the driver creates, and only for those" {
	run check "$DOC"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the file list comes from the sources: every knob of the uapi header, the read-only files and the queue files" {
	run driver_files
	[ "$status" -eq 0 ]
	knobs=$(grep -c '^SSDTUNE_KNOB(' "$REPO/include/uapi/linux/ssdtune_knobs.h")
	[ "$knobs" -ge 9 ]
	for k in $(sed -n 's/^SSDTUNE_KNOB(\([a-z0-9_]*\),.*/\1/p' "$REPO/include/uapi/linux/ssdtune_knobs.h"); do
		[[ $'\n'$output$'\n' == *$'\n'$k$'\n'* ]] || { echo "knob $k not listed"; false; }
	done
	# a read-only attribute of each kind of definition
	for f in model quirks energy_uj power_estimate_mw queues/qK/irq queues/qK/submitted queues/qK/retries; do
		[[ $'\n'$output$'\n' == *$'\n'$f$'\n'* ]] || { echo "$f not listed"; false; }
	done
	[ "$(grep -c . <<<"$output")" -ge 35 ]
	[ "$(grep -c '^queues/qK/' <<<"$output")" -ge 8 ]
}

@test "the check names a file whose row is missing and a row for a file that does not exist" {
	doc=$BATS_TEST_TMPDIR/architecture.md
	knob=$(sed -n 's/^SSDTUNE_KNOB(\([a-z0-9_]*\),.*/\1/p' "$REPO/include/uapi/linux/ssdtune_knobs.h" | tail -n 1)
	grep -v -e "^| \`$knob\` |" -e '^| `queues/qK/retries` |' "$DOC" >"$doc"
	run check "$doc"
	[ "$status" -ne 0 ]
	[[ $output == *"no row in the table: $knob"* ]]
	[[ $output == *"no row in the table: queues/qK/retries"* ]]
	sed '/^| `model` |/a | `no_such_file` | ro | x | x | x | x |' "$DOC" >"$doc"
	run check "$doc"
	[ "$status" -ne 0 ]
	[[ $output == *"a row for a file the driver does not create: no_such_file"* ]]
}
