# The systemd units' boot path without systemd (virtme-ng runs no systemd
# as PID 1): their command lines, run in the order systemd runs them.  For
# tests/vm/88-units.bats (make install's tree) and 89-packages.bats (the
# Debian packages).  Load after lib/common.

# UNIT_IN: a command prefix every unit command runs under (89-packages:
# nsenter into the mount namespace the packages are installed in).
UNIT_IN=()

# unit_run FILE INSTANCE KEY...: the unit's KEY= lines, in file order and
# key order, as systemd runs them: %I is INSTANCE, a leading '-' ignores
# the exit status (systemctl: no systemd here).
unit_run() {
	local f=$1 inst=$2 key line cmd ign
	shift 2
	for key in "$@"; do
		while IFS= read -r line; do
			cmd=${line#"$key="}
			ign=false
			[ "${cmd#-}" != "$cmd" ] && ign=true && cmd=${cmd#-}
			cmd=${cmd//%I/$inst}
			echo "$key: $cmd"
			# shellcheck disable=SC2086 # a unit's command line is split on blanks
			"${UNIT_IN[@]}" $cmd || $ign || { echo "$key failed: $cmd"; return 1; }
		done < <(grep "^$key=" "$f")
	done
}

# unit_start FILE INSTANCE: a oneshot's start as systemd runs it:
# ExecCondition= first (exit 1 to 254 skips the rest, a success; 255 or a
# signal fails), then ExecStartPre=, ExecStart=, ExecStartPost=.
unit_start() {
	local f=$1 inst=$2 line cmd rc
	while IFS= read -r line; do
		cmd=${line#ExecCondition=}
		cmd=${cmd//%I/$inst}
		echo "ExecCondition: $cmd"
		# shellcheck disable=SC2086 # a unit's command line is split on blanks
		"${UNIT_IN[@]}" $cmd
		rc=$?
		[ "$rc" -eq 0 ] && continue
		[ "$rc" -lt 255 ] && { echo "ExecCondition: exit $rc, the unit is skipped"; return 0; }
		echo "ExecCondition failed: $cmd"
		return 1
	done < <(grep "^ExecCondition=" "$f")
	unit_run "$f" "$inst" ExecStartPre ExecStart ExecStartPost
}

# unit_boot DIR BDF: what systemd does at boot for controller BDF, with the
# units in DIR: udev starts ssdtune-attach@BDF.service, then ssdtune.service.
unit_boot() {
	unit_start "$1/ssdtune-attach@.service" "$2" &&
		unit_run "$1/ssdtune.service" "" ExecStartPre ExecStart
}

# tuned_state: the knobs and, per queue, its vector's CPUs.
tuned_state() {
	local c q
	c=$(ssdt_ctrl)
	cat "$c/coalesce_mode" "$c/coalesce_threshold"
	for q in "$c"/queues/q*; do
		echo "${q##*/} $(cat "/proc/irq/$(trim "$q/irq")/smp_affinity_list")"
	done
}
