#!/usr/bin/env bats
# make install / uninstall into a staging root (scripts/install.sh), and
# the build targets on a host that lacks what they need (scripts/need.sh):
# they name the missing packages and change nothing.

load ../helpers

VERSION=$(sed -n 's/^#define SSDTUNE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$REPO/include/uapi/linux/ssdtune.h")
HOST_PATHS="/usr/sbin/ssdtune /usr/share/man/man8/ssdtune.8 /usr/share/bash-completion/completions/ssdtune /usr/share/doc/ssdtune /usr/share/ssdtune /usr/src/ssdtune-$VERSION /lib/systemd/system/ssdtune.service /lib/udev/rules.d/60-ssdtune.rules /etc/ssdtune"

host_state() {
	local p
	for p in $HOST_PATHS; do
		[ -e "$p" ] && echo "present $p" || echo "absent $p"
	done
}

setup() {
	[ -x "$SSDTUNE" ] || skip "no $SSDTUNE (make -C tools/ssdtune)"
	DEST=$BATS_TEST_TMPDIR/root
}

@test "make install DESTDIR=... PREFIX=/usr puts the tool, man page, completion, docs and the DKMS source in place, and nothing on the host" {
	before=$(host_state)
	run make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(host_state)" = "$before" ]
	[ "$(stat -c %a "$DEST/usr/sbin/ssdtune")" = 755 ]
	[ "$(stat -c %a "$DEST/usr/share/man/man8/ssdtune.8")" = 644 ]
	[ -f "$DEST/usr/share/bash-completion/completions/ssdtune" ]
	[ -f "$DEST/usr/share/doc/ssdtune/README.md" ]
	[ -f "$DEST/usr/share/doc/ssdtune/driver.md" ]
	for f in "$REPO"/Documentation/schema/*.json; do
		cmp "$f" "$DEST/usr/share/ssdtune/schema/${f##*/}"
	done
	# Debian 12 keeps units and rules under /lib; PREFIX=/usr/local would not
	grep -q '^ExecStart=/usr/sbin/ssdtune apply --config /etc/ssdtune/ssdtune.conf$' \
		"$DEST/lib/systemd/system/ssdtune.service"
	[ -f "$DEST/lib/systemd/system/ssdtune-attach@.service" ]
	[ -f "$DEST/lib/udev/rules.d/60-ssdtune.rules" ]
	cmp "$REPO/misc/ssdtune.conf" "$DEST/etc/ssdtune/ssdtune.conf"
	cmp "$REPO/misc/ssdtune.conf" "$DEST/usr/share/doc/ssdtune/examples/ssdtune.conf"
	[ "$("$DEST/usr/sbin/ssdtune" --version)" = "ssdtune $VERSION" ]
	src=$DEST/usr/src/ssdtune-$VERSION
	grep -q "^PACKAGE_VERSION=\"$VERSION\"" "$src/dkms.conf"
	[ -x "$src/kmod/gen-compat.sh" ]
	for f in "$REPO"/kmod/*.c "$REPO"/kmod/*.h; do
		cmp "$f" "$src/kmod/${f##*/}"
	done
	[ -z "$(find "$DEST" -path '*/build/*' -o -name '*.o' -o -name '*.ko')" ]
}

@test "the DKMS source tree make install writes builds ssdtune.ko the way dkms.conf says" {
	kver=$("$REPO/scripts/kvers.sh" 2>/dev/null | head -n 1) || true
	[ -n "$kver" ] || kver=$(uname -r)
	[ -e "/lib/modules/$kver/build/Makefile" ] || { echo "no headers for $kver"; false; }
	make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr
	src=$DEST/usr/src/ssdtune-$VERSION
	# dkms.conf's MAKE line with dkms's variables filled in
	cmd=$(sed -n 's/^MAKE\[0\]="\(.*\)"$/\1/p' "$src/dkms.conf")
	kernelver=$kver dkms_tree=$BATS_TEST_TMPDIR/dkms
	mkdir -p "$dkms_tree/ssdtune/$VERSION"
	cp -r "$src" "$dkms_tree/ssdtune/$VERSION/build"
	cmd=${cmd//'${kernelver}'/$kernelver}
	cmd=${cmd//'${dkms_tree}'/$dkms_tree}
	cmd=${cmd//'${PACKAGE_NAME}'/ssdtune}
	cmd=${cmd//'${PACKAGE_VERSION}'/$VERSION}
	echo "$cmd"
	(cd "$dkms_tree/ssdtune/$VERSION/build" && $cmd) >"$BATS_TEST_TMPDIR/dkms.log" 2>&1 ||
		{ cat "$BATS_TEST_TMPDIR/dkms.log"; false; }
	loc=$(sed -n 's/^BUILT_MODULE_LOCATION\[0\]="\(.*\)"$/\1/p' "$src/dkms.conf")
	modinfo -F version "$dkms_tree/ssdtune/$VERSION/build/${loc}ssdtune.ko" >/dev/null
	modinfo -F vermagic "$dkms_tree/ssdtune/$VERSION/build/${loc}ssdtune.ko" | grep -q "^$kver "
}

@test "make install keeps an admin's ssdtune.conf; make uninstall keeps it when changed" {
	mkdir -p "$DEST/etc/ssdtune"
	echo "profile = latency" >"$DEST/etc/ssdtune/ssdtune.conf"
	run make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr
	[ "$status" -eq 0 ]
	[[ "$output" == *"ssdtune.conf exists: kept"* ]]
	[ "$(cat "$DEST/etc/ssdtune/ssdtune.conf")" = "profile = latency" ]
	run make -s -C "$REPO" uninstall DESTDIR="$DEST" PREFIX=/usr
	[[ "$output" == *"ssdtune.conf was changed: kept"* ]]
	[ "$(cat "$DEST/etc/ssdtune/ssdtune.conf")" = "profile = latency" ]
	[ -z "$(find "$DEST" -type f ! -path "$DEST/etc/ssdtune/ssdtune.conf")" ]
}

@test "make uninstall with the same DESTDIR and PREFIX leaves nothing behind" {
	make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr
	[ -n "$(find "$DEST" -type f)" ]
	run make -s -C "$REPO" uninstall DESTDIR="$DEST" PREFIX=/usr
	echo "$output"
	[ "$status" -eq 0 ]
	left=$(find "$DEST" -type f -o -type l -o -name '*ssdtune*')
	[ -z "$left" ] || { echo "left: $left"; false; }
}

# A host without the libraries (pkg-config finds nothing) and an apt-get
# that records being called: the build target must not reach for it.
no_deps_host() {
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/pc"
	for c in apt-get apt dpkg; do
		printf '#!/bin/sh\ntouch %s/called-%s\nexit 1\n' "$BATS_TEST_TMPDIR" "$c" >"$BATS_TEST_TMPDIR/bin/$c"
		chmod +x "$BATS_TEST_TMPDIR/bin/$c"
	done
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH PKG_CONFIG_LIBDIR=$BATS_TEST_TMPDIR/pc PKG_CONFIG_PATH=
	export BUILD=$BATS_TEST_TMPDIR/build
}

@test "make tools on a host without the libraries names the missing packages in one line, exits non-zero, installs nothing" {
	no_deps_host
	run --separate-stderr make -s -C "$REPO" tools
	echo "stdout: $output"
	echo "stderr: $stderr"
	[ "$status" -ne 0 ]
	[ "$(echo "$stderr" | grep -c 'missing:')" -eq 1 ]
	for p in libpci-dev libjson-c-dev libnuma-dev libnl-genl-3-dev; do
		[[ "$stderr" == *"make tools: missing:"*" $p"* ]]
	done
	[ -z "$(ls "$BATS_TEST_TMPDIR"/called-* 2>/dev/null)" ]
	[ ! -e "$BUILD" ]
}

@test "make modules for a kernel without headers names the headers package, exits non-zero, installs nothing" {
	no_deps_host
	run --separate-stderr make -s -C "$REPO" modules KVER=0.0.0-none
	echo "stderr: $stderr"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"make modules: missing: linux-headers-0.0.0-none"* ]]
	[ -z "$(ls "$BATS_TEST_TMPDIR"/called-* 2>/dev/null)" ]
}
