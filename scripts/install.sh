#!/bin/sh
# install.sh install|uninstall: what make install puts where, and takes
# back.  DESTDIR (staging root, default none), PREFIX (default /usr/local),
# SRCDIR (the DKMS source root, default /usr/src: dkms looks there),
# SYSCONFDIR (/etc), UNITDIR and UDEVRULESDIR (PREFIX/lib/..., or /lib/...
# for PREFIX=/usr as Debian 12 has them).  Installs files only: it starts,
# enables, loads and registers nothing (after an install to /: `dkms
# install ssdtune/VERSION`, `systemctl enable ssdtune.service`).
set -eu
cd "$(dirname "$0")/.."
mode=${1:?usage: install.sh install|uninstall}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
SRCDIR=${SRCDIR:-/usr/src}
SYSCONFDIR=${SYSCONFDIR:-/etc}
libdir=$PREFIX/lib
[ "$PREFIX" = /usr ] && libdir=/lib
UNITDIR=${UNITDIR:-$libdir/systemd/system}
UDEVRULESDIR=${UDEVRULESDIR:-$libdir/udev/rules.d}
version=$(sed -n 's/^#define SSDTUNE_VERSION[[:space:]]*"\(.*\)"/\1/p' include/uapi/linux/ssdtune.h)
[ -n "$version" ] || { echo "install: no SSDTUNE_VERSION in include/uapi/linux/ssdtune.h" >&2; exit 1; }
dkms=$SRCDIR/ssdtune-$version

# One line per file: MODE SOURCE TARGET [HOW] (TARGET under DESTDIR); HOW
# is "subst" (@SBINDIR@ and @SYSCONFDIR@ filled in) or "keep" (installed
# only where absent: the admin's configuration; removed only if unchanged).
manifest() {
	echo "0755 tools/ssdtune/ssdtune $PREFIX/sbin/ssdtune"
	echo "0644 misc/systemd/ssdtune.service $UNITDIR/ssdtune.service subst"
	echo "0644 misc/systemd/ssdtune-attach@.service $UNITDIR/ssdtune-attach@.service subst"
	echo "0644 misc/systemd/ssdtune-metrics.service $UNITDIR/ssdtune-metrics.service subst"
	echo "0644 misc/systemd/ssdtune-metrics.timer $UNITDIR/ssdtune-metrics.timer"
	echo "0644 misc/udev/60-ssdtune.rules $UDEVRULESDIR/60-ssdtune.rules"
	echo "0644 misc/ssdtune.conf $PREFIX/share/doc/ssdtune/examples/ssdtune.conf"
	echo "0644 misc/ssdtune.conf $SYSCONFDIR/ssdtune/ssdtune.conf keep"
	echo "0644 Documentation/ssdtune.8 $PREFIX/share/man/man8/ssdtune.8"
	echo "0644 misc/bash-completion/ssdtune $PREFIX/share/bash-completion/completions/ssdtune"
	for f in README.md Documentation/*.md; do
		echo "0644 $f $PREFIX/share/doc/ssdtune/${f##*/}"
	done
	# the JSON Schemas of every command's --json output
	for f in Documentation/schema/*.json; do
		echo "0644 $f $PREFIX/share/ssdtune/schema/${f##*/}"
	done
	# the module's source as DKMS wants it (dkms.conf at the top)
	echo "0644 dkms.conf $dkms/dkms.conf"
	for f in include/uapi/linux/ssdtune*.h; do
		echo "0644 $f $dkms/$f"
	done
	for f in kmod/Makefile kmod/Kbuild kmod/*.c kmod/*.h; do
		echo "0644 $f $dkms/$f"
	done
	echo "0755 kmod/gen-compat.sh $dkms/kmod/gen-compat.sh"
}

case $mode in
install)
	[ -x tools/ssdtune/ssdtune ] || { echo "install: tools/ssdtune/ssdtune is not built (make tools)" >&2; exit 1; }
	manifest | while read -r m src dst how; do
		case $how in
		subst)
			tmp=$(mktemp)
			sed -e "s|@SBINDIR@|$PREFIX/sbin|g" -e "s|@SYSCONFDIR@|$SYSCONFDIR|g" "$src" >"$tmp"
			install -D -m "$m" "$tmp" "$DESTDIR$dst"
			rm -f "$tmp"
			;;
		keep)
			[ -e "$DESTDIR$dst" ] && echo "install: $DESTDIR$dst exists: kept" ||
				install -D -m "$m" "$src" "$DESTDIR$dst"
			;;
		*)
			install -D -m "$m" "$src" "$DESTDIR$dst"
			;;
		esac
	done
	echo "install: ssdtune $version into ${DESTDIR:-/} (PREFIX $PREFIX); module source in $DESTDIR$dkms"
	[ -n "$DESTDIR" ] || echo "install: build and install the module with: dkms install ssdtune/$version"
	;;
uninstall)
	manifest | while read -r m src dst how; do
		if [ "$how" = keep ] && [ -e "$DESTDIR$dst" ] && ! cmp -s "$src" "$DESTDIR$dst"; then
			echo "uninstall: $DESTDIR$dst was changed: kept"
			continue
		fi
		rm -f "$DESTDIR$dst"
	done
	# the directories only ssdtune uses, once empty
	for d in "$dkms/kmod" "$dkms/include/uapi/linux" "$dkms/include/uapi" "$dkms/include" \
		 "$dkms" "$PREFIX/share/doc/ssdtune/examples" "$PREFIX/share/doc/ssdtune" \
		 "$PREFIX/share/ssdtune/schema" "$PREFIX/share/ssdtune" \
		 "$SYSCONFDIR/ssdtune"; do
		rmdir "$DESTDIR$d" 2>/dev/null || true
	done
	echo "uninstall: ssdtune $version removed from ${DESTDIR:-/} (PREFIX $PREFIX)"
	;;
*)
	echo "install.sh: unknown mode '$mode'" >&2
	exit 2
	;;
esac
