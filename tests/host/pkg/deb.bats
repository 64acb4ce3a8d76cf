#!/usr/bin/env bats
# make deb (scripts/deb.sh, debian/): the Debian packages ssdtune and
# ssdtune-dkms.  One package build for the whole file (setup_file, into a
# BUILD of its own, or into $SSDT_DEB_BUILD: make check builds the
# packages of its run here, once, for tests/vm/89-packages.bats); the
# tests read what it left: the .debs, the .changes, lintian's log.  Then
# the DKMS source tree of ssdtune-dkms built by dkms itself in a private
# tree for every test kernel (scripts/dkms-prebuild.sh, the modules the VM
# test installs), and need.sh deb on a host without the tools.

load ../helpers

VERSION=$(sed -n 's/^#define SSDTUNE_VERSION[[:space:]]*"\(.*\)"/\1/p' "$REPO/include/uapi/linux/ssdtune.h")

# What a package build in place would leave in debian/: make deb must build
# in its scratch copy only.
in_tree_debris() {
	cd "$REPO/debian" && ls -d tmp ssdtune ssdtune-dkms files .debhelper ./*.substvars \
		./*.debhelper.log debhelper-build-stamp 2>/dev/null
}

setup_file() {
	export DEB_BUILD=${SSDT_DEB_BUILD:-$BATS_FILE_TMPDIR/build}
	local before
	before=$(in_tree_debris; md5sum /var/lib/dpkg/status)
	BUILD=$DEB_BUILD make -s -C "$REPO" deb >"$BATS_FILE_TMPDIR/make.out" 2>&1
	echo $? >"$BATS_FILE_TMPDIR/make.rc"
	[ "$(in_tree_debris; md5sum /var/lib/dpkg/status)" = "$before" ]
	echo $? >"$BATS_FILE_TMPDIR/host.rc"
}

setup() {
	OUT=$DEB_BUILD/deb
	TOOL_DEB=$OUT/ssdtune_${VERSION}_$(dpkg --print-architecture).deb
	DKMS_DEB=$OUT/ssdtune-dkms_${VERSION}_all.deb
}

# built: fail (printing make deb's output) unless the shared build worked
built() {
	[ "$(cat "$BATS_FILE_TMPDIR/make.rc")" = 0 ] || {
		cat "$BATS_FILE_TMPDIR/make.out"
		false
	}
}

@test "debian/changelog, dkms.conf and SSDTUNE_VERSION agree on the version" {
	[ -n "$VERSION" ]
	[ "$(cd "$REPO" && dpkg-parsechangelog -S Version)" = "$VERSION" ]
	grep -q "^PACKAGE_VERSION=\"$VERSION\"$" "$REPO/dkms.conf"
	grep -q '^PACKAGE_NAME="ssdtune"$' "$REPO/dkms.conf"
}

@test "make deb succeeds, leaves both packages and the .changes in BUILD/deb, and changes nothing on the host or in the tree" {
	built
	[ "$(cat "$BATS_FILE_TMPDIR/host.rc")" = 0 ]
	[ -f "$TOOL_DEB" ]
	[ -f "$DKMS_DEB" ]
	[ -f "$OUT/ssdtune_${VERSION}_$(dpkg --print-architecture).changes" ]
	[ "$(dpkg-deb -f "$TOOL_DEB" Package Version Architecture)" = "Package: ssdtune
Version: $VERSION
Architecture: $(dpkg --print-architecture)" ]
	[ "$(dpkg-deb -f "$DKMS_DEB" Package Version Architecture)" = "Package: ssdtune-dkms
Version: $VERSION
Architecture: all" ]
}

@test "lintian finds no error in the packages or the .changes" {
	built
	[ -f "$OUT/lintian.log" ]
	cat "$OUT/lintian.log"
	! grep -q '^E: ' "$OUT/lintian.log" || false
}

@test "ssdtune has the tool, the man page, the completion, the docs and the JSON Schemas, depends on its libraries and recommends ssdtune-dkms and fio" {
	built
	dpkg-deb -c "$TOOL_DEB" | awk '{print $6}' >"$BATS_TEST_TMPDIR/files"
	for f in ./usr/sbin/ssdtune ./usr/share/man/man8/ssdtune.8.gz \
		 ./usr/share/bash-completion/completions/ssdtune \
		 ./usr/share/doc/ssdtune/copyright ./usr/share/doc/ssdtune/README.md.gz \
		 ./usr/share/ssdtune/schema/common.json ./usr/share/ssdtune/schema/verify.json; do
		grep -qxF "$f" "$BATS_TEST_TMPDIR/files" || { echo "missing $f"; false; }
	done
	! grep -q '^\./usr/src/' "$BATS_TEST_TMPDIR/files" || false
	dpkg-deb -f "$TOOL_DEB" Depends | grep -q 'libpci3'
	dpkg-deb -f "$TOOL_DEB" Depends | grep -q 'libnl-genl-3-200'
	dpkg-deb -f "$TOOL_DEB" Recommends | grep -q "ssdtune-dkms (= $VERSION)"
	dpkg-deb -f "$TOOL_DEB" Recommends | grep -q 'fio'
	# the packaged tool runs and is the version it says
	dpkg-deb -x "$TOOL_DEB" "$BATS_TEST_TMPDIR/root"
	[ "$("$BATS_TEST_TMPDIR/root/usr/sbin/ssdtune" --version)" = "ssdtune $VERSION" ]
}

@test "ssdtune has the systemd units, the udev rule and /etc/ssdtune/ssdtune.conf as a conffile (those misc/ has)" {
	built
	dpkg-deb -c "$TOOL_DEB" | awk '{print $6}' >"$BATS_TEST_TMPDIR/files"
	dpkg-deb -x "$TOOL_DEB" "$BATS_TEST_TMPDIR/root"
	n=0
	for u in ssdtune.service ssdtune-attach@.service ssdtune-metrics.service ssdtune-metrics.timer; do
		[ -f "$REPO/misc/systemd/$u" ] || continue
		n=$((n + 1))
		grep -qxF "./lib/systemd/system/$u" "$BATS_TEST_TMPDIR/files" || { echo "missing $u"; false; }
		# written for PREFIX=/usr
		! grep -n '@[A-Z]*@' "$BATS_TEST_TMPDIR/root/lib/systemd/system/$u" || false
		[ "${u%.timer}" != "$u" ] ||
			grep -q '^ExecStart=/usr/sbin/ssdtune ' "$BATS_TEST_TMPDIR/root/lib/systemd/system/$u"
	done
	if [ -f "$REPO/misc/udev/60-ssdtune.rules" ]; then
		n=$((n + 1))
		grep -qxF ./lib/udev/rules.d/60-ssdtune.rules "$BATS_TEST_TMPDIR/files"
	fi
	if [ -f "$REPO/misc/ssdtune.conf" ]; then
		n=$((n + 1))
		grep -qxF ./etc/ssdtune/ssdtune.conf "$BATS_TEST_TMPDIR/files"
		dpkg-deb -I "$TOOL_DEB" conffiles | grep -qxF /etc/ssdtune/ssdtune.conf
		cmp "$REPO/misc/ssdtune.conf" "$BATS_TEST_TMPDIR/root/etc/ssdtune/ssdtune.conf"
	fi
	[ "$n" -gt 0 ] || skip "misc/ has no units, rule or ssdtune.conf yet"
	# installing the package neither starts ssdtune.service nor enables it
	# (debhelper's "don't enable" snippet only keeps an admin's earlier
	# enabling across an upgrade)
	if [ -f "$REPO/misc/systemd/ssdtune.service" ]; then
		dpkg-deb -I "$TOOL_DEB" postinst >"$BATS_TEST_TMPDIR/postinst"
		! grep -n 'deb-systemd-invoke\|systemctl.* start' "$BATS_TEST_TMPDIR/postinst" || false
		grep -q "if deb-systemd-helper debian-installed 'ssdtune.service'" "$BATS_TEST_TMPDIR/postinst"
	fi
}

@test "ssdtune-dkms has dkms.conf, the uapi header and every kmod source in /usr/src/ssdtune-VERSION, registers with dkms and depends on it" {
	built
	dpkg-deb -c "$DKMS_DEB" | awk '{print $6}' >"$BATS_TEST_TMPDIR/files"
	src=./usr/src/ssdtune-$VERSION
	for f in dkms.conf include/uapi/linux/ssdtune.h include/uapi/linux/ssdtune_knobs.h kmod/Makefile kmod/Kbuild kmod/gen-compat.sh; do
		grep -qxF "$src/$f" "$BATS_TEST_TMPDIR/files" || { echo "missing $src/$f"; false; }
	done
	for f in "$REPO"/kmod/*.c "$REPO"/kmod/*.h; do
		grep -qxF "$src/kmod/${f##*/}" "$BATS_TEST_TMPDIR/files" || { echo "missing $src/kmod/${f##*/}"; false; }
	done
	! grep -v -e "^$src/" -e '^\./usr/share/doc/ssdtune-dkms/' -e '^\./$' -e '^\./usr/$' \
		-e '^\./usr/src/$' -e '^\./usr/share/$' -e '^\./usr/share/doc/$' "$BATS_TEST_TMPDIR/files" || false
	dpkg-deb -f "$DKMS_DEB" Depends | grep -q '^dkms\b'
	dpkg-deb -I "$DKMS_DEB" postinst | grep -q "^DKMS_NAME=ssdtune$"
	dpkg-deb -I "$DKMS_DEB" postinst | grep -q "^DKMS_VERSION=$VERSION$"
	dpkg-deb -I "$DKMS_DEB" postinst | grep -q 'common.postinst'
	dpkg-deb -I "$DKMS_DEB" prerm | grep -q 'dkms remove'
}

@test "dkms builds ssdtune.ko from the packaged /usr/src/ssdtune-VERSION for every test kernel, each in a binaries-only DKMS tarball (a private dkms tree, unsigned: nothing on the host), a release build without the debugfs test hooks" {
	built
	command -v dkms >/dev/null || { echo "dkms is not installed (scripts/setup.sh)"; false; }
	kvers=$("$REPO/scripts/kvers.sh" 2>/dev/null) || true
	[ -n "$kvers" ] || kvers=$(uname -r)
	before=$(ls -A /var/lib/dkms 2>/dev/null)
	# shellcheck disable=SC2086 # one word per kernel
	run env BUILD="$DEB_BUILD" "$REPO/scripts/dkms-prebuild.sh" $kvers
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(ls -A /var/lib/dkms 2>/dev/null)" = "$before" ]
	for kver in $kvers; do
		tarball=$DEB_BUILD/dkms/ssdtune-$VERSION-$kver.dkms.tar.gz
		[ -f "$tarball" ] || { echo "no $tarball"; false; }
		tar -tzf "$tarball" | grep -qx "\./dkms_main_tree/$kver/x86_64/module/ssdtune\.ko\(\.xz\|\.zst\|\.gz\)\{0,1\}" ||
			{ tar -tzf "$tarball"; false; }
		ko=$(find "$DEB_BUILD/dkms/tree/ssdtune/$VERSION/$kver" -name 'ssdtune.ko*' | head -n 1)
		[ -n "$ko" ] || { echo "no module for $kver"; false; }
		modinfo -F vermagic "$ko" | grep -q "^$kver "
		[ "$(modinfo -F version "$ko")" = "$VERSION" ] || modinfo "$ko"
		# CONFIG_SSDTUNE_DEBUG is for test builds only (kmod/Kbuild)
		case $ko in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -qdc "$ko" ;;
		*.gz) gzip -dc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$BATS_TEST_TMPDIR/ssdtune.ko"
		if grep -q -a -e ssdt_probe_fault -e drop_completions -e probe_fail_step \
			"$BATS_TEST_TMPDIR/ssdtune.ko"; then
			echo "$kver: the packaged ssdtune.ko has the test hooks"
			false
		fi
	done
}

# A PATH of every command this host has but the packaging ones, and an
# apt-get that records being called.
no_packaging_tools() {
	local d c f
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	for d in ${PATH//:/ }; do
		for f in "$d"/*; do
			c=${f##*/}
			case $c in
			dpkg-buildpackage|dh|dh_dkms|lintian|apt-get|apt) continue ;;
			esac
			[ -x "$f" ] && [ ! -e "$BATS_TEST_TMPDIR/bin/$c" ] && ln -s "$f" "$BATS_TEST_TMPDIR/bin/$c"
		done
	done
	for c in apt-get apt; do
		printf '#!/bin/sh\ntouch %s/called-%s\nexit 1\n' "$BATS_TEST_TMPDIR" "$c" >"$BATS_TEST_TMPDIR/bin/$c"
		chmod +x "$BATS_TEST_TMPDIR/bin/$c"
	done
	export PATH=$BATS_TEST_TMPDIR/bin
	export BUILD=$BATS_TEST_TMPDIR/build
}

@test "make deb without dpkg-buildpackage, debhelper, dh-dkms and lintian names them in one line, exits non-zero, installs and builds nothing" {
	no_packaging_tools
	run --separate-stderr "$REPO/scripts/need.sh" deb
	echo "need.sh: $stderr"
	[ "$status" -ne 0 ]
	[ "$(echo "$stderr" | grep -c 'missing:')" -eq 1 ]
	for p in dpkg-dev debhelper dh-dkms lintian; do
		[[ "$stderr" == "make deb: missing:"*" $p"* ]] || { echo "not named: $p"; false; }
	done
	run --separate-stderr make -s -C "$REPO" deb
	echo "make deb: $stderr"
	[ "$status" -ne 0 ]
	[[ "$stderr" == *"make deb: missing:"*" dpkg-dev"* ]]
	[ -z "$(ls "$BATS_TEST_TMPDIR"/called-* 2>/dev/null)" ]
	[ ! -e "$BUILD" ]
}
