# Shared set-up for the host tests: a fixture /sys tree per test, and a way
# to run the real ssdtune binary with that tree mounted over /sys in a
# private mount namespace (the host's /sys is never touched).

bats_require_minimum_version 1.5.0

# tests/host, whose subfolders hold the test files by kind (testing.md)
HOST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HOST_DIR/../.." && pwd)
SSDTUNE=${SSDTUNE:-$REPO/tools/ssdtune/ssdtune}
MKSYS=$HOST_DIR/fixtures/mksys.py

# The names below are for the bats files that load this one.
# shellcheck disable=SC2034
NVME=0000:41:00.0	# on nvme: nvme0 with nvme0n1 and nvme0n1p1
# shellcheck disable=SC2034
SSDT=0000:42:00.0	# on ssdtune: ssdt0 with ssdt0n1
FAKE_PID=

# The fixture directory of 0000:41:00.0 (fx_dev 1) or 0000:42:00.0 (2).
fx_dev() { echo "$FX/devices/pci0000:40/0000:40:01.$1/0000:4$1:00.0"; }

# shellcheck disable=SC2034,SC2120 # the tests read these; some pass arguments
make_fixture() {
	FX=$BATS_TEST_TMPDIR/sys
	"$MKSYS" "$FX" "$@"
	NVME_DIR=$(fx_dev 1)
	SSDT_DIR=$(fx_dev 2)
	NVME_NS=$FX/block/nvme0n1
	SSDT_NS=$FX/block/ssdt0n1
}

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	make_fixture
}

teardown() {
	if [ -n "$FAKE_PID" ]; then
		kill "$FAKE_PID" 2>/dev/null || true
		wait "$FAKE_PID" 2>/dev/null || true
	fi
}

# ssdt ARGS...: ssdtune ARGS with $FX mounted over /sys (and, once
# make_topo has set $PFX, $PFX/irq over /proc/irq and $PFX/interrupts over
# /proc/interrupts), in a network namespace of its own: the ssdtune netlink
# family (not netns-aware) is out of reach, so no test can reach a real
# controller on this host through it.
ssdt() {
	local map=
	[ "$(id -u)" -eq 0 ] || map=--map-root-user
	# the state lock of attach and detach (and a forgotten --state-dir)
	# stays in the test's directory, never the host's /var/lib/ssdtune
	export SSDTUNE_STATE_DIR=${SSDTUNE_STATE_DIR:-$BATS_TEST_TMPDIR/default-state}
	unshare --mount --net --propagation private $map -- sh -c '
		fx=$1 pfx=$2 etc=$3 def=$4; shift 4
		mount --bind "$fx" /sys || exit 99
		if [ -n "$pfx" ]; then
			mount --bind "$pfx/irq" /proc/irq || exit 99
			mount --bind "$pfx/interrupts" /proc/interrupts || exit 99
		fi
		if [ -n "$etc" ]; then	# a systemd host, with its units here
			mount -t tmpfs ssdtune-test-run /run || exit 99
			mkdir -p /run/systemd/system || exit 99
			mount --bind "$etc" /etc/systemd/system || exit 99
		fi
		if [ -n "$def" ]; then	# /etc/default (GRUB drop-ins) here
			mount --bind "$def" /etc/default || exit 99
		fi
		exec "$@"' sh "$FX" "${PFX:-}" "${SYSTEMD_ETC:-}" "${ETC_DEFAULT:-}" "$SSDTUNE" "$@"
}

# A stand-in irqbalance.service: a process named irqbalance, units in
# $SYSTEMD_ETC (mounted over /etc/systemd/system by ssdt, with a
# /run/systemd/system) and a systemctl that answers is-active for
# irqbalance.service and logs every other call to $SYSTEMCTL_LOG.
irqbalance_unit_start() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	SYSTEMD_ETC=$BATS_TEST_TMPDIR/etc-systemd
	SYSTEMCTL_LOG=$BATS_TEST_TMPDIR/systemctl.log
	mkdir -p "$SYSTEMD_ETC"
	: >"$SYSTEMCTL_LOG"
	cat >"$BATS_TEST_TMPDIR/bin/systemctl" <<EOS
#!/bin/sh
[ "\$*" = "--quiet is-active irqbalance.service" ] && exit 0
echo "\$*" >>"$SYSTEMCTL_LOG"
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/systemctl"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
	cp /bin/sleep "$BATS_TEST_TMPDIR/irqbalance"
	"$BATS_TEST_TMPDIR/irqbalance" 60 3>&- &
	FAKE_PID=$!
	wait_comm "$FAKE_PID" irqbalance
}

# A host topology fixture (see fixtures/mktopo.py) instead of the default.
make_topo() {	# make_topo NAME
	rm -rf "$BATS_TEST_TMPDIR/sys" "$BATS_TEST_TMPDIR/proc"
	FX=$BATS_TEST_TMPDIR/sys
	PFX=$BATS_TEST_TMPDIR/proc
	"$HOST_DIR/fixtures/mktopo.py" "$1" "$FX" "$PFX"
}

# A checksum of the whole fixture (/sys and, if any, /proc pieces):
# contents, modes and link targets.
fx_sum() {
	local d
	for d in "$FX" ${PFX:+"$PFX"}; do
		(cd "$d" && find . -printf '%p %y %m %l\n' | LC_ALL=C sort &&
			find . -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum)
	done | md5sum
}

# Exactly one line on stderr, starting "ssdtune: ".
# shellcheck disable=SC2154 # bats' run sets stderr
assert_one_error_line() {
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || {
		echo "stderr has more than one line: $stderr"; return 1; }
	[[ "$stderr" == "ssdtune: "* ]] || {
		echo "stderr does not start with 'ssdtune: ': $stderr"; return 1; }
}

# The value of a JSON field of $output, e.g. json '.status'.
# shellcheck disable=SC2154 # bats' run sets output
json() {
	printf '%s' "$output" | python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].strip(".").split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v) if isinstance(v, (list, dict, bool)) or v is None else v)' "$1"
}

# Stand in for the kernel: once ssdtune has written BDF to DRIVER's bind
# (or drivers_probe), run HOOK (a function name) to create what the
# driver's probe creates, then move the fixture's driver links the way the
# PCI core does once probe has returned (so a tool that sees the new link
# finds what probe made, however late this job gets a CPU).  Runs in the
# background for at most 15 s.
fake_bind() {	# fake_bind TRIGGER_FILE BDF_DIR DRIVER HOOK
	local trigger=$1 dir=$2 drv=$3 hook=$4 bdf
	bdf=$(basename "$dir")
	(
		for _ in $(seq 300); do
			if [ "$(cat "$trigger")" = "$bdf" ]; then
				sleep 0.1
				[ -z "$hook" ] || "$hook"
				rm -f "$dir/driver" "$FX"/bus/pci/drivers/*/"$bdf"
				ln -sr "$FX/bus/pci/drivers/$drv" "$dir/driver"
				ln -sr "$dir" "$FX/bus/pci/drivers/$drv/$bdf"
				exit 0
			fi
			sleep 0.05
		done
	) >/dev/null 2>&1 3>&- &
	FAKE_PID=$!
}

# wait_until CMD...: run CMD every 50 ms until it succeeds, for at most
# 10 s; fails if it never did.  A test waits with it for what it started
# in the background, never for a fixed moment.
wait_until() {
	local i
	for ((i = 0; i < 200; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# A background job is the shell for a moment after its fork: wait until
# process PID runs the program NAME, so that what the test runs next
# finds it in /proc by name.
is_comm() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "${2:0:15}" ]; }
wait_comm() {	# wait_comm PID NAME
	wait_until is_comm "$1" "$2" || { echo "process $1 did not become $2 in 10 s"; return 1; }
}

# Hold FILE's flock in a background process (FAKE_PID, which teardown
# kills) as another ssdtune run would, and return once it is held.
is_locked() { ! flock -n "$1" true 2>/dev/null; }
hold_lock() {	# hold_lock FILE
	(exec 9>>"$1" && flock 9 && exec sleep 60) 3>&- &
	FAKE_PID=$!
	wait_until is_locked "$1" || { echo "$1 was not locked in 10 s"; return 1; }
}

# What ssdtune.ko's probe creates for 0000:41:00.0: ssdt1 with ssdt1n1.
probe_ssdt1() {
	local c=$NVME_DIR/ssdtune/ssdt1
	mkdir -p "$c/ssdt1n1/holders"
	ln -sr "$NVME_DIR" "$c/device"
	echo 0000:41:00.0 >"$c/pci_address"
	echo 259:900010 >"$c/ssdt1n1/dev"
	ln -sr "$c" "$FX/class/ssdtune/ssdt1"
	ln -sr "$c/ssdt1n1" "$FX/block/ssdt1n1"
}

# The same, but a class device without a parent (no "device" link): only
# its pci_address file names the controller; disks live under it.
probe_ssdt1_virtual() {
	local c=$FX/devices/virtual/ssdtune/ssdt1
	mkdir -p "$c/ssdt1n1/holders"
	echo 0000:41:00.0 >"$c/pci_address"
	echo 259:900010 >"$c/ssdt1n1/dev"
	ln -sr "$c" "$FX/class/ssdtune/ssdt1"
	ln -sr "$c/ssdt1n1" "$FX/block/ssdt1n1"
}

# Make DEVFILE's block device number that of a fresh tmpfs mounted in a
# private namespace, and run ssdtune ARGS in that namespace: it sees the
# (fixture) device as mounted on $BATS_TEST_TMPDIR/mnt.
ssdt_with_mount() {	# ssdt_with_mount DEVFILE ARGS...
	local devfile=$1
	shift
	mkdir -p "$BATS_TEST_TMPDIR/mnt"
	unshare --mount --propagation private -- sh -c '
		fx=$1 devfile=$2 mnt=$3 bin=$4; shift 4
		mount -t tmpfs ssdtune-test "$mnt" || exit 99
		mountpoint -d "$mnt" >"$devfile" || exit 99
		mount --bind "$fx" /sys && exec "$bin" "$@"' \
		sh "$FX" "$devfile" "$BATS_TEST_TMPDIR/mnt" "$SSDTUNE" "$@"
}

# Run ssdtune ARGS with a private tmpfs /dev holding one block node NAME for
# device MAJ:MIN, so the tool's exclusive-open check reaches a real device.
ssdt_with_node() {	# ssdt_with_node NAME MAJ:MIN ARGS...
	local name=$1 devnum=$2
	shift 2
	export SSDTUNE_STATE_DIR=${SSDTUNE_STATE_DIR:-$BATS_TEST_TMPDIR/default-state}
	unshare --mount --propagation private -- sh -c '
		fx=$1 name=$2 devnum=$3 bin=$4; shift 4
		mount -t tmpfs ssdtune-test-dev /dev || exit 99
		mknod "/dev/$name" b "${devnum%:*}" "${devnum#*:}" || exit 99
		mount --bind "$fx" /sys && exec "$bin" "$@"' \
		sh "$FX" "$name" "$devnum" "$SSDTUNE" "$@"
}

# The fixture trees' names, modes and values, newlines aside: a kernel file
# reads "1\n" after "1" is written, a fixture file reads "1".
fx_values() {
	python3 - "$FX" "$PFX" <<'PY'
import hashlib, os, sys
h = hashlib.md5()
for top in sys.argv[1:]:
    for d, dirs, files in sorted(os.walk(top)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.path.islink(p):
                h.update(("%s -> %s\n" % (p, os.readlink(p))).encode())
                continue
            h.update(("%s %o\n" % (p, os.stat(p).st_mode)).encode())
            h.update(open(p, "rb").read().rstrip(b"\n"))
print(h.hexdigest())
PY
}

# Put the fixture trees back as they were when save_fixture ran.  rsync's
# quick check (size and mtime to the second) would skip a file written
# within the second the fixture was made: compare every file.
save_fixture() { cp -a "$FX" "$BATS_TEST_TMPDIR/orig.sys" && cp -a "$PFX" "$BATS_TEST_TMPDIR/orig.proc"; }
restore_fixture() {
	rsync -a --ignore-times --delete "$BATS_TEST_TMPDIR/orig.sys/" "$FX/" &&
	rsync -a --ignore-times --delete "$BATS_TEST_TMPDIR/orig.proc/" "$PFX/"
}

# A GRUB host: an /etc/default of the test's own (mounted by ssdt) with a
# grub.d, and an update-grub that logs each run to $UPDATE_GRUB_LOG.
grub_host() {
	ETC_DEFAULT=$BATS_TEST_TMPDIR/etc-default
	UPDATE_GRUB_LOG=$BATS_TEST_TMPDIR/update-grub.log
	mkdir -p "$ETC_DEFAULT/grub.d" "$BATS_TEST_TMPDIR/bin"
	: >"$UPDATE_GRUB_LOG"
	printf '#!/bin/sh\necho update-grub >>"%s"\n' "$UPDATE_GRUB_LOG" >"$BATS_TEST_TMPDIR/bin/update-grub"
	chmod +x "$BATS_TEST_TMPDIR/bin/update-grub"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
}

# 4n128c with identities: ssdt0 (0000:41:00.0, on ssdtune) is serial
# S4N1SSDT, model "Samsung SSD 990 PRO 2TB", with every knob file; nvme1
# (0000:c1:00.0, on nvme) is serial S4N3NVME, model "Other NVMe 1TB".
topo_ident() {
	local s n
	make_topo 4n128c
	s=$FX/class/ssdtune/ssdt0
	# shellcheck disable=SC2034 # for the tests
	SSDT0=$s
	echo S4N1SSDT >"$s/serial"
	echo "Samsung SSD 990 PRO 2TB" >"$s/model"
	echo 0000:41:00.0 >"$s/pci_address"
	echo off >"$s/coalesce_mode"
	echo 0 >"$s/coalesce_threshold"
	echo 0 >"$s/coalesce_time_us"
	echo auto >"$s/power_limit_mode"
	n=$(find "$FX/devices" -path '*/0000:c1:00.0/nvme/nvme1' -type d)
	echo S4N3NVME >"$n/serial"
	echo "Other NVMe 1TB" >"$n/model"
	ln -sr "$(dirname "$(dirname "$n")")" "$n/device"
	mkdir -p "$FX/class/nvme"
	ln -sr "$n" "$FX/class/nvme/nvme1"
}

# same_lines FILE1 FILE2 ONLY1 ONLY2: FILE1 and FILE2 hold the same lines
# (in any order); else, for each line only in FILE1, ONLY1 with the line
# in place of its %s (ONLY2 for FILE2's), and status 1.
same_lines() {
	local n bad=0
	for n in $(grep -vxF -f "$2" "$1"); do echo "${3//%s/$n}"; bad=1; done
	for n in $(grep -vxF -f "$1" "$2"); do echo "${4//%s/$n}"; bad=1; done
	return "$bad"
}
