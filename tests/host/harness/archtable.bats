#!/usr/bin/env bats
# Documentation/architecture.md's "Every sysfs file" table has one row per
# file the driver creates under /sys/class/ssdtune/ssdtN (and queues/qK),
# and no row for a file it does not.  The list comes from the sources, not
# from a list kept here: the lines of include/uapi/linux/ssdtune_knobs.h
# (SSDTUNE_KNOB(), SSDTUNE_ATTR(), SSDTUNE_QUEUE_ATTR()), the SSDT_KNOB()
# lines of kmod/, the controller attributes of kmod/
# (SSDT_CTRL_ATTR_RO(), SSDT_ATTR_RO(), SSDT_ATTR_ADMIN_RO(), and
# DEVICE_ATTR_*() should one bypass them) and the queue attributes of
# kmod/ssdt_sysfs.c (SSDT_QUEUE_ATTR(), SSDT_QUEUE_COUNTER(), and a
# struct ssdt_queue_attr with a literal .name).  The read-only files the
# driver defines are also checked against the header's lines: a name the
# header lacks does not build (ssdt.h), and a header line the driver does
# not serve fails here.  debugfs (ssdt_debug.c) is not sysfs and is left
# out.

REPO=$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)
DOC=$REPO/Documentation/architecture.md
# (a test points KNOBS_H at a copy of its own)
KNOBS_H=${KNOBS_H:-$REPO/include/uapi/linux/ssdtune_knobs.h}

# kmod_sources: the driver's .c and .h files but debugfs'.
kmod_sources() {
	local f
	for f in "$REPO"/kmod/*.c "$REPO"/kmod/*.h; do
		[ "${f##*/}" = ssdt_debug.c ] || printf '%s\n' "$f"
	done
}

# driver_ro_files: the read-only files the driver's sources define, one a
# line, queue files as queues/qK/NAME, sorted and unique.
driver_ro_files() {
	local kmod=()
	mapfile -t kmod < <(kmod_sources)
	{
		sed -n -E 's/^(static )?(SSDT_CTRL_ATTR_RO|SSDT_ATTR_RO|SSDT_ATTR_ADMIN_RO|DEVICE_ATTR(_[A-Z]+)*)\(([a-z][a-z0-9_]*)[,)].*/\4/p' \
			"${kmod[@]}"
		sed -n -E 's/^SSDT_QUEUE_(ATTR|COUNTER)\(([a-z][a-z0-9_]*)\).*/queues\/qK\/\2/p' \
			"${kmod[@]}"
		awk '/^static struct ssdt_queue_attr [a-z_0-9]+ = \{/ { q = 1; next }
		     q && match($0, /\.name = "[a-z][a-z0-9_]*"/) {
			print "queues/qK/" substr($0, RSTART + 9, RLENGTH - 10); q = 0 }
		     /^\};/ { q = 0 }' "${kmod[@]}"
	} | sort -u
}

# table_ro_files: the read-only files of the uapi table, as above.
table_ro_files() {
	{
		sed -n 's/^SSDTUNE_ATTR(\([a-z][a-z0-9_]*\)).*/\1/p' "$KNOBS_H"
		sed -n 's/^SSDTUNE_QUEUE_ATTR(\([a-z][a-z0-9_]*\)).*/queues\/qK\/\1/p' "$KNOBS_H"
	} | sort -u
}

# driver_files: every sysfs file the driver's sources and the uapi table
# define, one a line, sorted and unique.
driver_files() {
	local kmod=()
	mapfile -t kmod < <(kmod_sources)
	{
		sed -n 's/^SSDTUNE_KNOB(\([a-z][a-z0-9_]*\),.*/\1/p' "$KNOBS_H"
		sed -n -E 's/^SSDT_KNOB\(([a-z][a-z0-9_]*),.*/\1/p' "${kmod[@]}"
		driver_ro_files
		table_ro_files
	} | sort -u
}

# check_ro: prints each read-only file the driver defines that the uapi
# table lacks, and each line of the table the driver does not define;
# fails if there is any.
check_ro() {
	local missing extra
	missing=$(comm -23 <(driver_ro_files) <(table_ro_files))
	extra=$(comm -13 <(driver_ro_files) <(table_ro_files))
	[ -z "$missing" ] || printf 'not a line of ssdtune_knobs.h: %s\n' $missing
	[ -z "$extra" ] || printf 'a line of ssdtune_knobs.h the driver does not serve: %s\n' $extra
	[ -z "$missing" ] && [ -z "$extra" ]
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

@test "the driver's read-only files are the SSDTUNE_ATTR() and SSDTUNE_QUEUE_ATTR() lines of the uapi header, and only those" {
	run check_ro
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(table_ro_files | grep -c .)" -ge 31 ]
}

@test "the check names a table line the driver does not serve" {
	KNOBS_H=$BATS_TEST_TMPDIR/ssdtune_knobs.h
	sed -e '/^SSDTUNE_ATTR(quirks)$/d' -e '/^SSDTUNE_QUEUE_ATTR(polled)$/d' \
		-e 's/^SSDTUNE_ATTR(model)$/&\nSSDTUNE_ATTR(no_such_file)/' \
		"$REPO/include/uapi/linux/ssdtune_knobs.h" >"$KNOBS_H"
	run check_ro
	[ "$status" -ne 0 ]
	[[ $output == *"not a line of ssdtune_knobs.h: quirks"* ]]
	[[ $output == *"not a line of ssdtune_knobs.h: queues/qK/polled"* ]]
	[[ $output == *"a line of ssdtune_knobs.h the driver does not serve: no_such_file"* ]]
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
