#!/bin/sh
# install.sh install|uninstall: what make install puts where, and takes
# back.  DESTDIR (staging root, default none), PREFIX (default /usr/local)
# and SRCDIR (the DKMS source root, default /usr/src: dkms looks there).
# Installs files only: it starts, loads and registers nothing (after an
# install to /, `dkms install ssdtune/VERSION` builds the module).
set -eu
cd "$(dirname "$0")/.."
mode=${1:?usage: install.sh install|uninstall}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
SRCDIR=${SRCDIR:-/usr/src}
version=$(sed -n 's/^#define SSDTUNE_VERSION[[:space:]]*"\(.*\)"/\1/p' include/uapi/linux/ssdtune.h)
[ -n "$version" ] || { echo "install: no SSDTUNE_VERSION in include/uapi/linux/ssdtune.h" >&2; exit 1; }
dkms=$SRCDIR/ssdtune-$version

# One line per file: MODE SOURCE TARGET (relative to DESTDIR).
manifest() {
	echo "0755 tools/ssdtune/ssdtune $PREFIX/sbin/ssdtune"
	echo "0644 Documentation/ssdtune.8 $PREFIX/share/man/man8/ssdtune.8"
	echo "0644 misc/bash-completion/ssdtune $PREFIX/share/bash-completion/completions/ssdtune"
	for f in README.md Documentation/*.md; do
		echo "0644 $f $PREFIX/share/doc/ssdtune/${f##*/}"
	done
	# the module's source as DKMS wants it (dkms.conf at the top)
	echo "0644 dkms.conf $dkms/dkms.conf"
	echo "0644 include/uapi/linux/ssdtune.h $dkms/include/uapi/linux/ssdtune.h"
	for f in kmod/Makefile kmod/Kbuild kmod/*.c kmod/*.h; do
		echo "0644 $f $dkms/$f"
	done
	echo "0755 kmod/gen-compat.sh $dkms/kmod/gen-compat.sh"
}

case $mode in
install)
	[ -x tools/ssdtune/ssdtune ] || { echo "install: tools/ssdtune/ssdtune is not built (make tools)" >&2; exit 1; }
	manifest | while read -r m src dst; do
		install -D -m "$m" "$src" "$DESTDIR$dst"
	done
	echo "install: ssdtune $version into ${DESTDIR:-/} (PREFIX $PREFIX); module source in $DESTDIR$dkms"
	[ -n "$DESTDIR" ] || echo "install: build and install the module with: dkms install ssdtune/$version"
	;;
uninstall)
	manifest | while read -r m src dst; do
		rm -f "$DESTDIR$dst"
	done
	# the directories only ssdtune uses, once empty
	for d in "$dkms/kmod" "$dkms/include/uapi/linux" "$dkms/include/uapi" "$dkms/include" \
		 "$dkms" "$PREFIX/share/doc/ssdtune"; do
		rmdir "$DESTDIR$d" 2>/dev/null || true
	done
	echo "uninstall: ssdtune $version removed from ${DESTDIR:-/} (PREFIX $PREFIX)"
	;;
*)
	echo "install.sh: unknown mode '$mode'" >&2
	exit 2
	;;
esac
