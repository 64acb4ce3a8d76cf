#!/usr/bin/env bats
# The Debian packages of make deb (build/deb; make check builds them before
# the VM suites), installed in the guest as an admin would: dpkg -i both,
# the module DKMS built is installed for the running kernel, the packaged
# units bring the configured controller up on it at boot and again after a
# "reboot", then remove and purge leave nothing behind.
#
# The module is the one scripts/dkms-prebuild.sh built with dkms on the
# host from the same package, loaded here with `dkms ldtarball`: DKMS's
# compile under TCG takes 5 to 8 minutes, 15 s on the host.  The guest's
# own compile, from dpkg -i's postinst as on a fresh host, is
# 89-dkms-guest.bats (make check-dkms).
#
# Everything dpkg and DKMS write goes to overlays of /usr, /etc and /var in
# a mount namespace of the test's own (PKG_NS), so the guest's other tests
# see none of it, and what is left in the overlays' upper layers after the
# purge is exactly what the packages left behind.
#
# DKMS and depmod see a module tree of the running kernel that holds only
# its nvme modules and modules.* indexes (lib/pkgns.bash,
# pkgns_small_modules): over the whole tree each depmod took 60 to 110 s
# under TCG, and they were most of this file's time.
#
# vm-kernels: full-both (packaging, no kernel interface of its own, and
# minutes under TCG: make check-full, on both kernels; make check builds
# and inspects the packages and the DKMS build for both kernels on the
# host, tests/host/pkg/deb.bats)
# time: 3 minutes (6.12: 166 s with the small module tree, 334 s without)

load lib/common
load lib/units
load lib/pkgns

# shellcheck disable=SC2034 # read by unit_run (lib/units.bash)
UNIT_IN=(nsenter "--mount=$PKG_NS" --)

# What dpkg and debconf keep about packages they have purged, caches they
# rebuild, and the module signing key DKMS makes at its first build (it
# keeps it for every later module): not left behind by ssdtune.
PKG_BOOKKEEPING='^(var/lib/dpkg(/|$)|var/log/|var/cache/(debconf|man|ldconfig)(/|$)|etc/ld\.so\.cache$|var/lib/systemd/deb-systemd-helper-|var/lib/dkms/mok\.(key|pub)$)'

setup_file() {
	pkgns_setup_debs
}

teardown_file() {
	pkgns_teardown
}

setup() {
	bdf=$(nvme_bdf)
	KVER=$(uname -r)
	dmesg_mark
}

# leftovers: what the upper layers hold that was not on the guest before
# (a new file, link or directory), dpkg's own bookkeeping aside.
leftovers() {
	local up at p rel
	pkgns_uppers | while read -r up at; do
		(cd "$up" && find . -mindepth 1 ! -type c) | while read -r p; do
			rel=$at/${p#./}
			[ -e "/$rel" ] || [ -L "/$rel" ] && continue
			echo "$rel"
		done
	done | grep -Ev "$PKG_BOOKKEEPING" || true
}

@test "dpkg -i installs both packages; the module dkms built on the host for the running kernel loads with ldtarball and installs; modinfo finds it; tool, units, rule, completion, man page and config are in place" {
	local tarball=$SSDT_BUILD/dkms/ssdtune-$VERSION-$KVER.dkms.tar.gz
	[ -f "$tarball" ] || err "no $tarball (scripts/dkms-prebuild.sh; make check runs it)"
	# DKMS's own switch: the postinst registers and builds nothing
	in_pkg touch /etc/dkms/no-autoinstall
	run in_pkg dpkg -i "$DKMS_DEB" "$TOOL_DEB"
	in_pkg rm -f /etc/dkms/no-autoinstall
	echo "$output" | grep -Ei 'dkms|build|ssdtune|error' >&3 || true
	[ "$status" -eq 0 ]
	[[ "$output" == *"autoinstall for dkms modules has been disabled"* ]]
	run in_pkg dkms ldtarball --archive "$tarball"
	echo "$output" >&3
	[ "$status" -eq 0 ]
	run in_pkg dkms install -m ssdtune -v "$VERSION" -k "$KVER"
	echo "$output" >&3
	[ "$status" -eq 0 ]
	run in_pkg dkms status ssdtune
	echo "$output" >&3
	[[ "$output" == *"ssdtune/$VERSION, $KVER, x86_64: installed"* ]]
	# compressed as the kernel's own modules are (6.12: xz)
	run in_pkg modinfo -F filename ssdtune
	echo "$output"
	[[ "$output" =~ ^"/lib/modules/$KVER/updates/dkms/ssdtune.ko"(\.(xz|zst|gz))?$ ]]
	[ "$(in_pkg modinfo -F version ssdtune)" = "$VERSION" ]
	[[ "$(in_pkg modinfo -F vermagic ssdtune)" == "$KVER "* ]]
	[ "$(in_pkg /usr/sbin/ssdtune --version)" = "ssdtune $VERSION" ]
	for f in /lib/systemd/system/ssdtune.service /lib/systemd/system/ssdtune-attach@.service \
		/lib/udev/rules.d/60-ssdtune.rules /usr/share/bash-completion/completions/ssdtune \
		/usr/share/man/man8/ssdtune.8.gz /etc/ssdtune/ssdtune.conf; do
		in_pkg test -s "$f" || { echo "missing: $f"; false; }
	done
	grep -q "ExecStart=/usr/sbin/ssdtune apply --config /etc/ssdtune/ssdtune.conf" \
		"$PKG_DIR/usr/upper/lib/systemd/system/ssdtune.service"
	# the package's files are not in the guest's own view
	[ ! -e /usr/sbin/ssdtune ]
}

@test "first boot on the packages: modprobe loads the DKMS module, the units attach the configured controller, set its knobs and apply the profile; verify is clean" {
	local U=$PKG_DIR/usr/upper/lib/systemd/system
	in_pkg sh -c "cat >/etc/ssdtune/ssdtune.conf" <<-EOF
	controller = serial:$SSDT_VM_NVME_SERIAL
	profile = latency
	coalesce_mode = host
	coalesce_threshold = 9
	EOF
	[ ! -d /sys/module/ssdtune ]
	[ "$(pci_driver "$bdf")" = nvme ]
	unit_boot "$U" "$bdf"
	# the module the units loaded is the one DKMS built
	[ "$(cat /sys/module/ssdtune/srcversion)" = "$(in_pkg modinfo -F srcversion ssdtune)" ]
	[ "$(pci_driver "$bdf")" = ssdtune ]
	ctrl=$(ssdt_ctrl)
	[ "$(trim "$ctrl/coalesce_mode")" = host ]
	[ "$(trim "$ctrl/coalesce_threshold")" = 9 ]
	in_pkg /usr/sbin/ssdtune verify --config /etc/ssdtune/ssdtune.conf
	fio_verify "$(ssdt_disk)" --rw=randwrite --bs=4k --iodepth=16 --offset=48M --size=4M
}

@test "a reboot on the packages (controller back on nvme, module unloaded): the second boot ends in the same state, verify is clean" {
	local U=$PKG_DIR/usr/upper/lib/systemd/system before after
	before=$(tuned_state)
	unit_run "$U/ssdtune.service" "" ExecStop
	teardown_stock
	[ ! -d /sys/module/ssdtune ]
	unit_boot "$U" "$bdf"
	[ "$(pci_driver "$bdf")" = ssdtune ]
	after=$(tuned_state)
	echo "before: $before"
	echo "after: $after"
	[ "$before" = "$after" ]
	in_pkg /usr/sbin/ssdtune verify --config /etc/ssdtune/ssdtune.conf
	dmesg_clean_since_mark
}

@test "dpkg -r then dpkg -P: the module is gone from DKMS and /lib/modules, and nothing the packages installed is left" {
	local U=$PKG_DIR/usr/upper/lib/systemd/system
	unit_run "$U/ssdtune.service" "" ExecStop
	teardown_stock
	run in_pkg dpkg -r ssdtune ssdtune-dkms
	echo "$output" >&3
	[ "$status" -eq 0 ]
	[ -z "$(in_pkg dkms status ssdtune)" ]
	run in_pkg modinfo ssdtune
	[ "$status" -ne 0 ]
	# a conffile stays until purge
	in_pkg test -e /etc/ssdtune/ssdtune.conf
	run in_pkg dpkg -P ssdtune ssdtune-dkms
	[ "$status" -eq 0 ]
	run leftovers
	echo "$output"
	[ -z "$output" ]
	# dpkg knows neither package (or only as not-installed)
	# shellcheck disable=SC2016 # dpkg-query's own ${field} syntax
	run in_pkg dpkg-query -f '${db:Status-Status}\n' -W ssdtune ssdtune-dkms
	echo "$output"
	known=$(echo "$output" | grep -vx not-installed || true)
	[ "$status" -ne 0 ] || [ -z "$known" ]
}
