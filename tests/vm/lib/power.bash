# Power-limit helpers for tests/vm/80-power.bats and the guest side of
# scripts/bench/power.sh.  Needs common.bash.

# An energy model calibrated for the TCG guest: every read or write costs
# 200 uJ over 1 W idle, so at the guest's few thousand IOPS the dynamic
# power is several times the idle power and the throttle has room to act.
# (for the tests and the bench that load this file)
# shellcheck disable=SC2034
PW_VM_MODEL="idle_mw=1000 read_nj=200000 read_nj_per_kib=0 write_nj=200000 write_nj_per_kib=0 other_nj=1000"
# shellcheck disable=SC2034
PW_VM_IDLE=1000
# The burst must cover the driver's delay in re-running a waiting command,
# or the budget of the late part is forfeited: microseconds on hardware
# (400 us default), milliseconds in a TCG guest on a busy host.
# shellcheck disable=SC2034
PW_VM_BURST_US=20000

# pw_burst US: set the power_burst_us module parameter (used from the next
# limit change on).
pw_burst() {
	echo "$1" >/sys/module/ssdtune/parameters/power_burst_us ||
		err "cannot set power_burst_us to $1"
}

# pw_set KNOB VALUE: write a knob of the attached controller.
pw_set() {
	local c
	c=$(ssdt_ctrl) || return 1
	echo "$2" >"$c/$1" || err "writing '$2' to $c/$1 failed"
}

# pw_submitted: set PW_SUBMITTED to the commands submitted on all queues of
# the controller so far (no subshell: a fork costs ~50-100 ms under TCG).
pw_submitted() {
	local f v
	PW_SUBMITTED=0
	for f in "$1"/queues/q*/submitted; do
		read -r v <"$f" && PW_SUBMITTED=$((PW_SUBMITTED + v))
	done
}

# pw_wait_io CTRL: wait (up to 60 s) until I/O runs: fio takes seconds to
# start under TCG.
pw_wait_io() {
	local n0 i
	pw_submitted "$1"
	n0=$PW_SUBMITTED
	for ((i = 0; i < 600; i++)); do
		pw_submitted "$1"
		[ "$PW_SUBMITTED" != "$n0" ] && return 0
		pw_sleep 0.1
	done
	err "no I/O submitted within 60 s"
}

# pw_run LABEL DEV SECS FIO-ARGS...: a time-based fio run (1 s ramp, JSON
# kept in $SSDT_TMP/LABEL.json) while power_estimate_mw is read every
# ~0.25 s.  Each read averages the power since the previous one.  Intervals
# in which no command was submitted are idle (fio starting or exiting); of
# the busy ones the first two (start, ramp) and the last (the end) are
# dropped and the rest, weighted by their length, give the run's average
# power.  Prints
#   LABEL iops=N mbps=N p99_us=N est_mw=N
pw_run() {
	local label=$1 dev=$2 secs=$3 c json pid prev v t t0 busy=() len=() i
	local sum=0 us=0
	shift 3
	c=$(ssdt_ctrl) || return 1
	json=$SSDT_TMP/$label.json
	fio --name=p --filename="$dev" --direct=1 --ioengine=libaio \
		--time_based --runtime="$secs" --ramp_time=1 --randrepeat=0 \
		--group_reporting --output-format=json --output="$json" "$@" &
	pid=$!
	pw_submitted "$c"
	prev=$PW_SUBMITTED
	read -r v <"$c/power_estimate_mw"
	t0=${EPOCHREALTIME/./}
	# fio ends by itself after ramp + runtime; one still running 120 s
	# later holds I/O that never completes: say where, and fail (a
	# check-full boot once sat here for 17 minutes, saying nothing)
	local deadline=$((${EPOCHREALTIME%.*} + secs + 120))
	while kill -0 "$pid" 2>/dev/null; do
		if [ "${EPOCHREALTIME%.*}" -gt "$deadline" ]; then
			echo "fio $label still runs $((secs + 120)) s on: throttle_events $(cat "$c/throttle_events"), power_limit_active $(cat "$c/power_limit_active"), submitted $(cat "$c"/queues/q*/submitted | tr '\n' ' '), completed $(cat "$c"/queues/q*/completed | tr '\n' ' ')" >&2
			cat "/proc/$pid/stack" >&2 2>/dev/null
			dmesg | tail -n 30 >&2
			kill -9 "$pid" 2>/dev/null
			err "fio $label hung"
			return 1
		fi
		pw_sleep 0.25
		read -r v <"$c/power_estimate_mw"
		t=${EPOCHREALTIME/./}
		pw_submitted "$c"
		if [ "$PW_SUBMITTED" != "$prev" ]; then
			busy+=("$v")
			len+=($((t - t0)))
		fi
		prev=$PW_SUBMITTED
		t0=$t
	done
	wait "$pid" || { err "fio $label failed"; return 1; }
	for ((i = 2; i < ${#busy[@]} - 1; i++)); do
		sum=$((sum + busy[i] * len[i]))
		us=$((us + len[i]))
	done
	[ "$us" -ge 1000000 ] || { err "under 1 s of steady power_estimate_mw samples during $label (${busy[*]})"; return 1; }
	echo "$label samples (mW): ${busy[*]}" >&2
	python3 "$SSDT_REPO/tests/vm/lib/powerjson.py" "$json" "$label" $((sum / us))
}

# pw_sleep SECS: sleep without a fork (a fork costs ~50-100 ms under TCG).
pw_sleep() {
	local f=$SSDT_TMP/pw.never
	[ -p "$f" ] || mkfifo "$f"
	[ -n "${PW_NEVER_FD:-}" ] || exec {PW_NEVER_FD}<>"$f"
	read -rt "$1" -u "$PW_NEVER_FD" || true
}

# pw_field LINE KEY: the value of KEY=value in a pw_run line.
pw_field() {
	local w
	for w in $1; do
		[ "${w%%=*}" = "$2" ] && { echo "${w#*=}"; return 0; }
	done
	err "no $2= in: $1"
}
