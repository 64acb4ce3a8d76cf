#!/usr/bin/env bats
# Interrupt coalescing knobs (coalesce_mode, coalesce_threshold,
# coalesce_time_us, coalesce_profile): accepted values read back, bad ones
# refused with nothing changed, live changes under verified I/O, and the
# effect of host moderation: its timer reaps completions (how many fewer
# interrupts it takes is make bench-coalesce's figure).
#
# QEMU's NVMe refuses features 0x08/0x09, so here "hw" fails, "auto" means
# host moderation, and coalesce_active says which is in force.
#
# vm-kernels: one (the driver's own moderation logic; the vectors it masks
# are tested on both kernels by 40-irq)

load lib/common

KNOBS="coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile coalesce_active"

setup_file() {
	setup_attached
}

setup() {
	C=$(ssdt_ctrl)
	echo off >"$C/coalesce_profile"
}

teardown_file() {
	teardown_stock
}

# knobs: every coalescing file, "name=value" on one line (read, not trim:
# a subshell per file would cost ~0.1 s each under TCG)
knobs() {
	local k v out=""
	for k in $KNOBS; do
		v=""
		read -r v <"$C/$k" || [ -n "$v" ] || return 1
		out="$out $k=$v"
	done
	echo "${out# }"
}

# write_errno FILE VALUE [FILE VALUE...]: write each VALUE (no newline
# added) in one write(2); prints "ok" or the errno name of each, on one
# line.  (Run as python so that setpriv can run it; one python for
# several writes, as python starts slowly under TCG.)
WRITE_ERRNO='
import errno, os, sys
res = []
for f, v in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        fd = os.open(f, os.O_WRONLY)
        try:
            os.write(fd, v.encode())
        finally:
            os.close(fd)
        res.append("ok")
    except OSError as e:
        res.append(errno.errorcode[e.errno])
print(" ".join(res))
'
write_errno() { python3 -c "$WRITE_ERRNO" "$@"; }

@test "coalesce_caps: the device does not let 0x08/0x09 change; hw is refused, nothing changes" {
	cat "$C/coalesce_caps"
	[ "$(trim "$C/coalesce_caps")" = not-changeable ]
	before=$(knobs)
	r=$(write_errno "$C/coalesce_mode" hw)
	echo "hw: $r"
	[ "$r" = EOPNOTSUPP ] || [ "$r" = ENOTSUP ]	# one errno, two names
	[ "$(knobs)" = "$before" ]
}

@test "each mode is accepted and read back; auto means host on this device" {
	for m in off host auto off; do
		# one write(2) without a newline, as write_errno does, but no
		# python: a refused write fails the printf
		printf '%s' "$m" >"$C/coalesce_mode"
		echo "$m: $(knobs)"
		[ "$(trim "$C/coalesce_mode")" = "$m" ]
	done
	echo auto >"$C/coalesce_mode"
	[ "$(trim "$C/coalesce_active")" = host ]
	echo off >"$C/coalesce_mode"
	[ "$(trim "$C/coalesce_active")" = off ]
}

@test "each profile is accepted, sets the three knobs and reads back" {
	while read -r p mode thr us; do
		echo "$p" >"$C/coalesce_profile"
		echo "$p: $(knobs)"
		[ "$(trim "$C/coalesce_profile")" = "$p" ]
		[ "$(trim "$C/coalesce_mode")" = "$mode" ]
		[ "$(trim "$C/coalesce_threshold")" = "$thr" ]
		[ "$(trim "$C/coalesce_time_us")" = "$us" ]
	done <<-EOF
		latency auto 4 100
		balanced auto 16 500
		iops auto 64 2000
		adaptive host 64 2000
		off off 0 0
	EOF
	# A knob written by hand makes the setting custom (and adaptive static).
	echo adaptive >"$C/coalesce_profile"
	echo 2000 >"$C/coalesce_time_us"
	[ "$(trim "$C/coalesce_profile")" = custom ]
	echo auto >"$C/coalesce_mode"
	echo 64 >"$C/coalesce_threshold"
	[ "$(trim "$C/coalesce_profile")" = iops ]
}

@test "threshold and time: the range ends are accepted and read back" {
	echo host >"$C/coalesce_mode"
	for v in 0 1 255 256; do
		echo "$v" >"$C/coalesce_threshold"
		[ "$(trim "$C/coalesce_threshold")" = "$v" ]
	done
	for v in 0 1 100 25499 25500; do
		echo "$v" >"$C/coalesce_time_us"
		[ "$(trim "$C/coalesce_time_us")" = "$v" ]
	done
	[ "$(trim "$C/coalesce_profile")" = custom ]
}

@test "garbage, negative, out-of-range and trailing junk get EINVAL; every knob stays" {
	echo balanced >"$C/coalesce_profile"
	before=$(knobs)
	# One python for all the writes: a process per write is slow under TCG.
	python3 - "$C" $KNOBS <<-'EOF'
		import errno, os, sys
		ctrl, knobs = sys.argv[1], sys.argv[2:]
		def state():
		    return {k: open(os.path.join(ctrl, k)).read() for k in knobs}
		cases = [
		    ("coalesce_threshold", v) for v in
		    ["abc", "-1", "257", "4294967296", "12x", "12\n\n", "1.5", "0x10", "\n", " 4"]
		] + [
		    ("coalesce_time_us", v) for v in
		    ["-100", "25501", "100us", "1e3", "99999999999999999999", "100 "]
		] + [
		    ("coalesce_mode", v) for v in
		    ["fast", "HOST", "hostx", "host\n\n", "-1", "\n", " host", "host off"]
		] + [
		    ("coalesce_profile", v) for v in
		    ["custom", "iopsx", "Latency", "adaptive\n\n", "2", "\n"]
		]
		before, bad = state(), 0
		for f, v in cases:
		    try:
		        fd = os.open(os.path.join(ctrl, f), os.O_WRONLY)
		        try:
		            os.write(fd, v.encode())
		            r = "ok"
		        finally:
		            os.close(fd)
		    except OSError as e:
		        r = errno.errorcode[e.errno]
		    if r != "EINVAL" or state() != before:
		        print("%s <- %r: %s, now %s" % (f, v, r, state()))
		        bad += 1
		print("%d of %d bad writes not refused cleanly" % (bad, len(cases)))
		sys.exit(1 if bad else 0)
	EOF
	echo "after: $(knobs)"
	[ "$(knobs)" = "$before" ]
	# Read-only: coalesce_active and coalesce_caps take no writes at all.
	r=$(write_errno "$C/coalesce_active" host)
	echo "coalesce_active <- host: $r"
	[ "$r" != ok ]
}

@test "writes need CAP_SYS_ADMIN: an unprivileged user and root without it are refused" {
	echo latency >"$C/coalesce_profile"
	before=$(knobs)
	files="coalesce_mode coalesce_threshold coalesce_time_us coalesce_profile"
	nobody=() root=()
	for f in $files; do
		nobody+=("$C/$f" 16)
		root+=("$C/$f" iops)
	done
	r=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		python3 -c "$WRITE_ERRNO" "${nobody[@]}")
	echo "nobody -> $files: $r"
	[ "$r" = "EACCES EACCES EACCES EACCES" ]
	r=$(setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
		python3 -c "$WRITE_ERRNO" "${root[@]}")
	echo "root without CAP_SYS_ADMIN -> $files: $r"
	[ "$r" = "EPERM EPERM EPERM EPERM" ]
	[ "$(knobs)" = "$before" ]
}

# rewrite_knobs N: N random valid-looking writes (some refused on purpose)
rewrite_knobs() {
	local i n=$1 ok=0 f v
	local profiles=(off latency balanced iops adaptive)
	local modes=(off host auto hw)
	for ((i = 0; i < n; i++)); do
		case $((RANDOM % 4)) in
		0) f=coalesce_profile v=${profiles[RANDOM % 5]} ;;
		1) f=coalesce_mode v=${modes[RANDOM % 4]} ;;
		2) f=coalesce_threshold v=$((RANDOM % 257)) ;;
		*) f=coalesce_time_us v=$((RANDOM % 4000)) ;;
		esac
		echo "$v" >"$C/$f" 2>/dev/null && ok=$((ok + 1))
	done
	echo "$ok" >"$SSDT_TMP/rewrites.ok"
}

@test "fio verify=crc32c at QD32 passes while the knobs are rewritten 1000 times" {
	dmesg_mark
	disk=$(ssdt_disk)
	rewrite_knobs 1000 &
	w=$!
	runs=0
	while :; do
		fio_verify "$disk" --rw=randwrite --bs=4k --iodepth=32 \
			--offset=400M --size=8M
		runs=$((runs + 1))
		kill -0 "$w" 2>/dev/null || break
		[ "$runs" -lt 20 ] || break
	done
	wait "$w"
	read -r ok <"$SSDT_TMP/rewrites.ok"
	echo "fio runs: $runs; accepted knob writes: $ok/1000; $(knobs)"
	[ "$ok" -gt 500 ]
	# Idle now: every command submitted was completed exactly once.
	echo host >"$C/coalesce_mode"
	for q in "$C"/queues/q[1-9]*; do
		read -r s <"$q/submitted"
		read -r c <"$q/completed"
		read -r i <"$q/interrupts"
		read -r p <"$q/polled"
		echo "${q##*/}: submitted $s completed $c interrupts $i polled $p"
		[ "$s" = "$c" ]
	done
	dmesg_clean_since_mark
}

# irq_per_io LABEL QD: 4K random read for 3 s on CPU 2; prints interrupts,
# completions and polled completions of the I/O queues during it, and sets
# IRQS, DONE (completions), POLLED (those of them reaped outside the
# interrupt handler: the moderation timer) and IRQ_PER_IO (x1000)
irq_per_io() {
	local i0 c0 p0 i1 c1 p1
	i0=$(io_counter interrupts) c0=$(io_counter completed) p0=$(io_counter polled)
	# pinned: a submitter that migrates drains one queue and wakes another
	run_fio "$(ssdt_disk)" --rw=randread --bs=4k --iodepth="$2" --size=256M \
		--time_based --runtime=3 --randrepeat=0 --cpus_allowed=2 >/dev/null
	i1=$(io_counter interrupts) c1=$(io_counter completed) p1=$(io_counter polled)
	IRQS=$((i1 - i0)) DONE=$((c1 - c0)) POLLED=$((p1 - p0))
	[ "$DONE" -gt 0 ] || { err "$1: no I/O completed"; return 1; }
	IRQ_PER_IO=$((IRQS * 1000 / DONE))
	# (also on fd 3: the figures show in the TAP output)
	echo "# $1 QD$2: $IRQS interrupts, $DONE completed ($POLLED of them polled), $IRQ_PER_IO/1000 per I/O" | tee /dev/fd/3
}

# moderated LABEL: the run of irq_per_io before was moderated, the one
# before that ($OFF_POLLED: mode off) was not.  Behaviour, not a rate
# (how many fewer interrupts is make bench-coalesce's figure): with mode
# off every completion is reaped in the interrupt handler; moderated, the
# driver masks the vector and its timer reaps completions too, and there
# are fewer interrupts than completions.
moderated() {
	echo "$1: polled $POLLED (off: $OFF_POLLED of $OFF_DONE)"
	[ $((OFF_POLLED * 100)) -le "$OFF_DONE" ]
	[ "$POLLED" -gt 0 ]
	[ "$POLLED" -gt "$OFF_POLLED" ]
	[ "$IRQS" -lt "$DONE" ]
}

@test "QD32 4K randread, host mode with the iops profile: the moderation timer reaps completions, fewer interrupts than completions; mode off reaps them all in the handler" {
	echo off >"$C/coalesce_profile"
	irq_per_io off 32
	OFF_POLLED=$POLLED OFF_DONE=$DONE
	echo iops >"$C/coalesce_profile"
	echo host >"$C/coalesce_mode"
	irq_per_io host+iops 32
	moderated host+iops
}

# full-only: the mechanism of the test above under another profile
# bats test_tags=full-only
@test "QD32 4K randread, the adaptive profile: the moderation timer reaps completions, fewer interrupts than completions; mode off reaps them all in the handler" {
	echo off >"$C/coalesce_profile"
	irq_per_io off 32
	OFF_POLLED=$POLLED OFF_DONE=$DONE
	# adaptive is host mode already; writing the mode by hand would make
	# it a static setting, so the profile is checked, not rewritten
	echo adaptive >"$C/coalesce_profile"
	[ "$(trim "$C/coalesce_profile")" = adaptive ]
	[ "$(trim "$C/coalesce_active")" = host ]
	irq_per_io adaptive 32
	moderated adaptive
}

@test "QD1: an idle queue is never held, whatever the profile" {
	for p in iops adaptive; do
		echo "$p" >"$C/coalesce_profile"
		# iops is auto, host on this device (coalesce_active); a mode
		# written by hand would turn adaptive into a static setting
		[ "$(trim "$C/coalesce_profile")" = "$p" ]
		[ "$(trim "$C/coalesce_active")" = host ]
		p0=$(io_counter polled)
		irq_per_io "$p" 1
		p1=$(io_counter polled)
		echo "polled: $((p1 - p0))"
		# Every completion by interrupt (a rare race may poll one).
		[ "$IRQ_PER_IO" -ge 950 ]
	done
}

@test "QD1 with the vector on another CPU than the submitter: an idle queue is still never held" {
	local q irq disk saved=()
	disk=$(ssdt_disk)
	# every I/O vector on CPU 3, fio on CPU 2; rq_affinity 2 ends each
	# request on CPU 2 at once (an IPI), so the reader submits its next
	# read while the handler on CPU 3 still runs: counted as outstanding,
	# it made the queue look busy and held for the window
	while read -r q irq; do
		[ "$q" = q0 ] && continue
		saved+=("$irq:$(trim "/proc/irq/$irq/smp_affinity_list")")
		echo 3 >"/proc/irq/$irq/smp_affinity_list"
	done < <(ssdt_queue_irqs)
	echo 2 >"/sys/block/${disk#/dev/}/queue/rq_affinity"
	for p in latency iops; do
		echo "$p" >"$C/coalesce_profile"
		[ "$(trim "$C/coalesce_active")" = host ]
		irq_per_io "$p, vectors on CPU 3" 1
		# held, the timer reaps (polled): 975 of 11471 so, before
		[ $((POLLED * 100)) -le "$DONE" ] || { echo "$p: $POLLED of $DONE held and polled"; false; }
	done
	echo 1 >"/sys/block/${disk#/dev/}/queue/rq_affinity"
	for q in "${saved[@]}"; do echo "${q#*:}" >"/proc/irq/${q%%:*}/smp_affinity_list"; done
}

@test "detach right after I/O with moderation active is clean; attach starts with it off" {
	dmesg_mark
	echo iops >"$C/coalesce_profile"
	echo host >"$C/coalesce_mode"
	run_fio "$(ssdt_disk)" --rw=randread --bs=4k --iodepth=32 --size=64M \
		--time_based --runtime=2 >/dev/null
	detach
	attach
	C=$(ssdt_ctrl)
	[ "$(trim "$C/coalesce_profile")" = off ]
	dmesg_clean_since_mark
}
