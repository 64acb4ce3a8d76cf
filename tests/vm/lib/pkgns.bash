# A mount namespace whose /usr, /etc and /var are overlays (upper layers in
# tmpfs under PKG_DIR): what dpkg, DKMS or an Ansible run installs there
# reaches none of the guest's other tests, and the upper layers hold
# exactly what was written.  For tests/vm/89-packages.bats and
# ansible/role.bats.  Load after lib/common.

PKG_DIR=/run/ssdt-pkg
PKG_NS=$PKG_DIR/ns

# in_pkg CMD...: run CMD in the namespace.
in_pkg() { nsenter "--mount=$PKG_NS" -- "$@"; }

# pkgns_setup: make the namespace (for setup_file).
pkgns_setup() {
	local d
	mkdir -p "$PKG_DIR"
	mountpoint -q "$PKG_DIR" || mount -t tmpfs ssdt-pkg "$PKG_DIR"
	mount --make-private "$PKG_DIR"
	touch "$PKG_NS"
	unshare "--mount=$PKG_NS" --propagation private true
	for d in usr etc var; do
		mkdir -p "$PKG_DIR/$d/upper" "$PKG_DIR/$d/work"
		in_pkg mount -t overlay "pkg-$d" \
			-o "lowerdir=/$d,upperdir=$PKG_DIR/$d/upper,workdir=$PKG_DIR/$d/work" "/$d"
	done
	# man-db's dpkg trigger would index every manual page, minutes under
	# TCG; dpkg still installs the page
	in_pkg rm -f /var/lib/man-db/auto-update
}

# pkgns_teardown: what the installed tool applied reverted, the
# controller back on nvme, the namespace and its layers gone (for
# teardown_file).
pkgns_teardown() {
	in_pkg /usr/sbin/ssdtune revert >/dev/null 2>&1 || true
	teardown_stock
	umount "$PKG_NS" 2>/dev/null
	umount -l "$PKG_DIR" 2>/dev/null
	true
}

# pkg_debs: TOOL_DEB and DKMS_DEB, the packages of make deb in
# $SSDT_BUILD/deb (make check builds them before the VM suites).
pkg_debs() {
	local d
	TOOL_DEB=""
	DKMS_DEB=""
	for d in "$SSDT_BUILD"/deb/ssdtune_*_"$(dpkg --print-architecture)".deb; do TOOL_DEB=$d; done
	for d in "$SSDT_BUILD"/deb/ssdtune-dkms_*_all.deb; do DKMS_DEB=$d; done
	if [ ! -f "$TOOL_DEB" ] || [ ! -f "$DKMS_DEB" ]; then
		echo "no packages in $SSDT_BUILD/deb: run 'make deb' first (make check does)" >&2
		return 1
	fi
	export TOOL_DEB DKMS_DEB
}

# pkgns_setup_debs: pkg_debs, VERSION from the tool's package, the
# controller back on nvme, and the namespace, with one kernel in its /boot
# (for setup_file of the package tests).
pkgns_setup_debs() {
	pkg_debs || return 1
	VERSION=$(dpkg-deb -f "$TOOL_DEB" Version)
	teardown_stock
	pkgns_setup
	# One kernel installed, as on a fresh Debian host: Debian's DKMS
	# builds for the running kernel and for the newest one in /boot,
	# which here would be a second build of 5 minutes under TCG
	mkdir -p "$PKG_DIR/boot"
	cp "/boot/config-$SSDT_KVER" "$PKG_DIR/boot/"
	in_pkg mount --bind "$PKG_DIR/boot" /boot
	pkgns_small_modules
	export VERSION
}

# pkgns_small_modules: in the namespace, /lib/modules/KVER of the running
# kernel holds only what DKMS, depmod and modprobe need for ssdtune: the
# kernel's modules.* files, its build and source links and its nvme
# modules, under an overlay whose upper layer (mods/upper) the leftovers
# check reads too.  DKMS runs depmod at every install and removal, and over
# the kernel's whole tree (4023 modules on 6.1) one depmod took 60 to 110 s
# under TCG, most of 89-packages' 4 minutes a kernel; on a real host it
# takes a second.
pkgns_small_modules() {
	local k m=/usr/lib/modules/$SSDT_KVER lo=$PKG_DIR/mods/lower
	mkdir -p "$lo" "$PKG_DIR/mods/upper" "$PKG_DIR/mods/work"
	cp -a "$m"/modules.* "$lo/"
	for k in build source; do
		[ ! -L "$m/$k" ] || cp -a "$m/$k" "$lo/"
	done
	mkdir -p "$lo/kernel/drivers/nvme"
	cp -a "$m/kernel/drivers/nvme/host" "$lo/kernel/drivers/nvme/"
	in_pkg mount -t overlay pkg-mods \
		-o "lowerdir=$lo,upperdir=$PKG_DIR/mods/upper,workdir=$PKG_DIR/mods/work" "$m"
	in_pkg depmod -a "$SSDT_KVER"
}

# pkgns_uppers: "UPPER PATH" per overlay of the namespace, PATH where its
# files appear (no leading /): what the packages wrote is under UPPER.
pkgns_uppers() {
	local d
	for d in usr etc var; do echo "$PKG_DIR/$d/upper $d"; done
	[ ! -d "$PKG_DIR/mods/upper" ] || echo "$PKG_DIR/mods/upper usr/lib/modules/$SSDT_KVER"
}
