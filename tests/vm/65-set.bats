#!/usr/bin/env bats
# ssdtune set on the real driver: a profile lands in all three coalescing
# files, verify and revert work on them, and a write the driver refuses
# (hw coalescing on QEMU's NVMe, which cannot change features 0x08/0x09)
# undoes the command's other writes.
#
# vm-kernels: one (the tool's knob transaction; the knobs themselves are the
# driver's own logic)

load lib/common

bats_require_minimum_version 1.5.0

setup_file() {
	setup_attached
}

setup() {
	ctrl=$(ssdt_ctrl)
	STATE=$SSDT_TMP/state-set
	rm -rf "$STATE"
}

teardown_file() {
	teardown_stock
}

# knobs: the coalescing files as "name=value ..." on one line (read, not
# trim: no subshell per file, as a fork costs ~0.1 s under TCG)
knobs() {
	local f v
	for f in coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile; do
		v=""
		read -r v <"$ctrl/$f" || [ -n "$v" ] || return 1
		printf '%s=%s ' "$f" "$v"
	done
	echo
}

@test "set coalesce_profile=iops: the driver's files follow, verify holds, revert restores them" {
	before=$(knobs)
	echo "before: $before"
	ssdt set --state-dir "$STATE" "${ctrl##*/}" coalesce_profile=iops
	echo "after:  $(knobs)"
	[ "$(trim "$ctrl/coalesce_profile")" = iops ]
	[ "$(trim "$ctrl/coalesce_mode")" != off ]
	[ "$(trim "$ctrl/coalesce_threshold")" -gt 0 ]
	ssdt verify --state-dir "$STATE"
	ssdt revert --state-dir "$STATE"
	echo "revert: $(knobs)"
	[ "$(knobs)" = "$before" ]
	[ ! -e "$STATE/state.json" ]
}

@test "set: a write the driver refuses (hw on QEMU) undoes the others and exits 1 with one line" {
	[ "$(trim "$ctrl/coalesce_mode")" != hw ]
	before=$(knobs)
	run --separate-stderr "$SSDT_TOOL" set --state-dir "$STATE" coalesce_threshold=7 coalesce_mode=hw
	echo "status $status: $stderr"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == *"coalesce_mode <- hw"* ]]
	[ "$(knobs)" = "$before" ]
	# nothing is left for verify to miss, and revert has nothing to undo
	ssdt verify --state-dir "$STATE"
	ssdt revert --state-dir "$STATE"
	[ "$(knobs)" = "$before" ]
}

# Last in the file: it leaves the knobs as it wrote them (teardown_file
# detaches).  Both sides build from include/uapi/linux/ssdtune_knobs.h;
# this fails if one of them stops doing so.
@test "the driver's knob files and the tool's knob table agree: the same knobs, every word the tool takes the driver parses, the same range ends" {
	local f k w v max tool_knobs drv_knobs old n
	# the driver's knobs: the files of mode 0644 in the controller
	# directory, but the driver core's uevent
	drv_knobs=""
	for f in "$ctrl"/*; do
		[ -f "$f" ] && [ "${f##*/}" != uevent ] &&
			[[ $(stat -c %a "$f") == 644 ]] && drv_knobs+="${f##*/} "
	done
	# the tool's: the list its refusal of an unknown knob gives
	run --separate-stderr "$SSDT_TOOL" set --dry-run "${ctrl##*/}" no_such_knob=1
	[ "$status" -eq 2 ] || [ "$status" -eq 1 ]
	tool_knobs=$(sed -n 's/.*(knobs: \([^)]*\)).*/\1/p' <<<"$stderr")
	tool_knobs=${tool_knobs//,/}
	echo "driver: $drv_knobs"
	echo "tool:   $tool_knobs"
	[ -n "$tool_knobs" ]
	[ "$(tr ' ' '\n' <<<"$drv_knobs" | sort | xargs)" = "$(tr ' ' '\n' <<<"$tool_knobs" | sort | xargs)" ]
	for k in $tool_knobs; do
		run --separate-stderr "$SSDT_TOOL" set --dry-run "${ctrl##*/}" "$k=not a value"
		echo "$k: $stderr"
		if [[ $stderr == *"$k must be one of "* ]]; then
			v=${stderr#*must be one of }
			v=${v%%, not *}
			for w in ${v//,/}; do
				# parsed: anything but EINVAL (hw on QEMU is refused
				# with EOPNOTSUPP: its caps say the device cannot)
				run bash -c "echo $w >'$ctrl/$k'"
				echo "  $w: $output"
				[[ $output != *"Invalid argument"* ]]
			done
			run bash -c "echo 'not a value' >'$ctrl/$k'"
			[[ $output == *"Invalid argument"* ]]
		elif [[ $stderr == *"$k must be a whole number 0.."* ]]; then
			max=${stderr#*whole number 0..}
			max=${max%%,*}
			echo "  max $max"
			if [ "$(cat "$ctrl/$k")" = unsupported ]; then
				# a feature the controller lacks (APST on QEMU):
				# parsed, then refused
				run bash -c "echo $max >'$ctrl/$k'"
				[[ $output == *"Operation not supported"* ]]
			elif [ "$k" = poll_queues ]; then
				# the range is the module parameter's; a controller
				# polls fewer than its io_queues, the most it takes
				old=$(cat "$ctrl/$k")
				n=$(cat "$ctrl/io_queues")
				[ "$max" -ge "$n" ]
				run bash -c "echo $n >'$ctrl/$k'"
				[[ $output == *"Invalid argument"* ]]
				echo $((n - 1)) >"$ctrl/$k"
				[ "$(cat "$ctrl/$k")" = $((n - 1)) ]
				echo "$old" >"$ctrl/$k"
			else
				echo "$max" >"$ctrl/$k"
			fi
			run bash -c "echo $((max + 1)) >'$ctrl/$k'"
			[[ $output == *"Invalid argument"* ]]
			run "$SSDT_TOOL" set --dry-run "${ctrl##*/}" "$k=$((max + 1))"
			[ "$status" -ne 0 ]
		else
			# a line the driver parses (energy_model): what it shows,
			# both take back
			v=$(cat "$ctrl/$k")
			ssdt set --dry-run "${ctrl##*/}" "$k=$v"
			echo "$v" >"$ctrl/$k"
		fi
	done
}
