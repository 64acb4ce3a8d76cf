#!/usr/bin/env bats
# The systemd units and the udev rule as make install writes them
# (misc/systemd, misc/udev, scripts/install.sh): systemd-analyze verify
# finds nothing wrong, systemd-analyze security holds each service to an
# exposure score, and udev's own rule engine (udevadm test, in a
# private mount namespace) starts ssdtune-attach@BDF.service for an NVMe
# controller and for nothing else.  The VM test 88-units runs them.

load ../helpers

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	# a prefix of its own, so the units name a tool and a config that exist
	P=$BATS_TEST_TMPDIR/prefix
	make -s -C "$REPO" install PREFIX="$P" SYSCONFDIR="$P/etc" SRCDIR="$P/src" >/dev/null
	U=$P/lib/systemd/system
}

@test "the installed units name the installed tool and config, and systemd-analyze verify finds nothing wrong" {
	for u in ssdtune.service ssdtune-attach@.service; do
		! grep -n '@SBINDIR@\|@SYSCONFDIR@' "$U/$u"
		grep -q "^ExecStart=$P/sbin/ssdtune .*--config $P/etc/ssdtune/ssdtune.conf" "$U/$u"
	done
	grep -q "^ExecStop=$P/sbin/ssdtune revert$" "$U/ssdtune.service"
	grep -q "^ExecCondition=$P/sbin/ssdtune check-config $P/etc/ssdtune/ssdtune.conf %I$" "$U/ssdtune-attach@.service"
	! grep -n '@SBINDIR@' "$U/ssdtune-metrics.service"
	grep -q "^ExecStart=$P/sbin/ssdtune metrics --output /var/lib/prometheus/node-exporter/ssdtune.prom$" \
		"$U/ssdtune-metrics.service"
	[ -f "$P/etc/ssdtune/ssdtune.conf" ]
	# man: the Documentation= line must resolve too
	run env MANPATH="$P/share/man" systemd-analyze verify "$U/ssdtune.service" "$U/ssdtune-attach@.service" \
		"$U/ssdtune-metrics.service" "$U/ssdtune-metrics.timer"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "systemd-analyze verify catches a unit whose tool is missing (the check above can fail)" {
	rm "$P/sbin/ssdtune"
	run env MANPATH="$P/share/man" systemd-analyze verify "$U/ssdtune.service"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"$P/sbin/ssdtune is not executable"* ]]
}

# The exposure score of systemd-analyze security --offline (systemd 252
# and later), in tenths as --threshold takes it: before the hardening all
# three were 96 (9.6 UNSAFE).
max_exposure() {	# max_exposure UNIT
	case $1 in
	ssdtune.service | ssdtune-attach@.service) echo 56 ;;
	ssdtune-metrics.service) echo 15 ;;
	*) return 1 ;;
	esac
}

# exposure UNIT_FILE: "N.N" of systemd-analyze security's last line.
exposure() {
	systemd-analyze security --offline=true --no-pager "$1" 2>&1 |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p'
}

@test "systemd-analyze security holds each unit to its exposure score (ssdtune 5.6, attach@ 5.6, metrics 1.5; all 9.6 unhardened)" {
	systemd-analyze security --help | grep -q -- '--offline' || skip "systemd-analyze without --offline (systemd < 250)"
	for u in ssdtune.service ssdtune-attach@.service ssdtune-metrics.service; do
		echo "$u: $(exposure "$U/$u")"
		[ -n "$(exposure "$U/$u")" ]
		run systemd-analyze security --offline=true --threshold="$(max_exposure "$u")" --no-pager "$U/$u"
		[ "$status" -eq 0 ] || { echo "$u is over $(max_exposure "$u"): $(exposure "$U/$u")"; false; }
	done
	# what the issue asks of each, by name
	for d in ProtectSystem=strict ReadWritePaths=/var/lib/prometheus/node-exporter \
		CapabilityBoundingSet= NoNewPrivileges=yes PrivateTmp=yes ProtectHome=yes \
		ProtectKernelTunables=yes ProtectKernelModules=yes "RestrictAddressFamilies=AF_UNIX AF_NETLINK"; do
		grep -qx "$d" "$U/ssdtune-metrics.service" || { echo "metrics lacks $d"; false; }
	done
	for u in ssdtune.service ssdtune-attach@.service; do
		for d in NoNewPrivileges=yes ProtectHome=yes PrivateTmp=yes "RestrictAddressFamilies=AF_UNIX AF_NETLINK" \
			StateDirectory=ssdtune StateDirectoryMode=0700; do
			grep -qx "$d" "$U/$u" || { echo "$u lacks $d"; false; }
		done
	done
}

@test "the exposure check can fail: a unit without its hardening is over its score" {
	systemd-analyze security --help | grep -q -- '--offline' || skip "systemd-analyze without --offline (systemd < 250)"
	mkdir "$BATS_TEST_TMPDIR/bare"
	sed -n '/^\[Service\]/,/^ExecStart=/p;/^ExecStop=/p' "$U/ssdtune.service" >"$BATS_TEST_TMPDIR/bare/ssdtune.service"
	[ "$(exposure "$BATS_TEST_TMPDIR/bare/ssdtune.service")" = 9.6 ]
	run systemd-analyze security --offline=true --threshold="$(max_exposure ssdtune.service)" --no-pager \
		"$BATS_TEST_TMPDIR/bare/ssdtune.service"
	[ "$status" -ne 0 ]
}

# udev_test BDF CLASS: udevadm test of an add event of PCI device BDF
# whose class file reads CLASS, with only the installed rule added to the
# host's: a private mount namespace, nothing on the host changes.
udev_test() {
	local dev
	dev=$(readlink -f "/sys/bus/pci/devices/$1")
	echo "$2" >"$BATS_TEST_TMPDIR/class"
	unshare -m sh -c '
		mkdir -p /run/udev/rules.d
		mount -t tmpfs none /run/udev/rules.d
		cp "$1" /run/udev/rules.d/
		mount --bind "$2" "$3/class"
		udevadm test --action=add "$3" 2>&1' sh \
		"$P/lib/udev/rules.d/60-ssdtune.rules" "$BATS_TEST_TMPDIR/class" "$dev"
}

@test "udev: an NVMe controller (class 0x010802) that appears gets ssdtune-attach@<its address>.service; another PCI function gets nothing" {
	bdf=$(ls /sys/bus/pci/devices | head -n 1)
	[ -n "$bdf" ] || { echo "no PCI device on this host to test the rule with"; false; }
	run udev_test "$bdf" 0x010802
	echo "$output" | grep -E 'ssdtune|SYSTEMD_WANTS|TAGS|[Ii]nvalid|error'
	[[ "$output" == *"Reading rules file: /run/udev/rules.d/60-ssdtune.rules"* ]]
	[[ "$output" == *"SYSTEMD_WANTS=ssdtune-attach@$bdf.service"* ]]
	[[ "$output" == *"TAGS=:systemd:"* ]]
	[[ "$output" != *"60-ssdtune.rules:"*"nvalid"* ]]
	for class in 0x010601 0x020000 0x010801; do
		run udev_test "$bdf" "$class"
		[[ "$output" == *"60-ssdtune.rules"* ]]
		[[ "$output" != *"ssdtune-attach@"* ]]
	done
}
