#!/bin/sh
# dkms-prebuild.sh: build ssdtune.ko with dkms, on this host, from the
# source that the ssdtune-dkms package of make deb ($BUILD/deb) installs,
# for every test kernel (scripts/kvers.sh) or the kernels named, each into
# a DKMS binaries-only tarball:
#
#   $BUILD/dkms/ssdtune-VERSION-KVER.dkms.tar.gz
#
# tests/vm/89-packages.bats loads it with `dkms ldtarball` in the guest
# instead of compiling there (5 to 8 minutes under TCG, 15 s here); make
# check-full also runs the guest's own DKMS build once.  dkms runs with a
# private tree and source tree under $BUILD/dkms and signs nothing, so
# nothing on the host changes.
#
#   scripts/dkms-prebuild.sh [KVER...]
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
OUT=$BUILD/dkms

fail() {
	echo "dkms-prebuild: $*" >&2
	exit 1
}

command -v dkms >/dev/null 2>&1 || fail "dkms is not installed (run: make setup)"
deb=""
for f in "$BUILD"/deb/ssdtune-dkms_*_all.deb; do
	[ -f "$f" ] && deb=$f
done
[ -n "$deb" ] || fail "no ssdtune-dkms package in $BUILD/deb (run: make deb)"
version=$(dpkg-deb -f "$deb" Version)
if [ $# -gt 0 ]; then
	kvers=$*
else
	kvers=$("$REPO/scripts/kvers.sh") || exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT/root" "$OUT/tree"
dpkg-deb -x "$deb" "$OUT/root" || fail "cannot unpack $deb"
for k in $kvers; do
	log=$OUT/build-$k.log
	# sign_file: a missing signer, so dkms makes no MOK key in /var/lib/dkms
	if ! (cd "$OUT" && sign_file=/nonexistent dkms build -m ssdtune -v "$version" -k "$k" \
		--sourcetree "$OUT/root/usr/src" --dkmstree "$OUT/tree") >"$log" 2>&1; then
		cat "$log" >&2
		fail "dkms build for $k failed (see $log)"
	fi
	tarball=$OUT/ssdtune-$version-$k.dkms.tar.gz
	(cd "$OUT" && dkms mktarball -m ssdtune -v "$version" -k "$k" --binaries-only \
		--sourcetree "$OUT/root/usr/src" --dkmstree "$OUT/tree" --archive "$tarball") \
		>>"$log" 2>&1 || fail "dkms mktarball for $k failed (see $log)"
	echo "dkms-prebuild: $tarball"
done
