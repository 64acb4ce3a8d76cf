#!/bin/sh
# Install everything ssdtune's build, demo and tests need on Debian 12.
# Idempotent: safe to run again; does nothing that is already done.
# Run as root.  BUILD_DIR (default ./build) receives the virtme-ng venv.
set -eu

BUILD_DIR=${BUILD_DIR:-$(pwd)/build}
STAMP=$BUILD_DIR/.setup-done-v9
SRCFILE=/etc/apt/sources.list.d/ssdtune-backports.sources

log() { printf 'setup: %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
	echo "setup: must run as root (apt-get and module builds need it)" >&2
	exit 1
fi

if [ -f "$STAMP" ] && [ -x "$BUILD_DIR/venv/bin/vng" ] && [ -x "$BUILD_DIR/qemu/bin/qemu-system-x86_64" ]; then
	exit 0
fi

# bookworm-backports from the mirror already configured for bookworm:
# never hard-code a mirror host.
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(grep -hs -E '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -v -E 'security|nodesource|google' |
		sed -E 's/^URIs:[[:space:]]*//; s/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//' |
		awk '{print $1; exit}')
	if [ -z "$uri" ]; then
		echo "setup: no Debian mirror found in /etc/apt to enable bookworm-backports from" >&2
		exit 1
	fi
	log "enabling bookworm-backports from $uri"
	cat >"$SRCFILE" <<SRC
Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -q
fi

export DEBIAN_FRONTEND=noninteractive
PKGS="build-essential bc bison flex libelf-dev libssl-dev kmod pkg-config
 cpio xz-utils git rsync python3 python3-venv python3-pip
 qemu-system-x86 qemu-utils socat bats fio numactl pciutils
 libnuma-dev libpci-dev libnl-genl-3-dev libnl-3-dev libjson-c-dev
 linux-source-6.1 sparse gnuplot-nox util-linux e2fsprogs xfsprogs busybox-static
 linux-image-amd64 linux-headers-amd64
 shellcheck bash-completion groff-base man-db
 dpkg-dev debhelper dh-dkms dkms lintian
 nvme-cli smartmontools libcap2-bin python3-jsonschema tmux"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "installing:$missing"
	apt-get update -q
	apt-get install -y -q --no-install-recommends $missing
fi

# The 6.12 kernel and headers from bookworm-backports.
if ! ls /boot/vmlinuz-6.12.* >/dev/null 2>&1 ||
   ! ls -d /usr/src/linux-headers-6.12.*-amd64 >/dev/null 2>&1; then
	log "installing the bookworm-backports 6.12 kernel"
	apt-get install -y -q --no-install-recommends -t bookworm-backports \
		linux-image-amd64 linux-headers-amd64
fi
# Keep the bookworm 6.1 kernel too (the backports metapackage replaced
# linux-image-amd64's dependency, not the installed 6.1 image).
if ! ls /boot/vmlinuz-6.1.* >/dev/null 2>&1 ||
   ! ls -d /usr/src/linux-headers-6.1.*-amd64 >/dev/null 2>&1; then
	v=$(apt-cache depends -t bookworm linux-image-amd64 2>/dev/null |
		sed -n 's/.*Depends: \(linux-image-6\.1\.[^ ]*\)/\1/p' | head -1)
	[ -n "$v" ] || { echo "setup: cannot find the bookworm 6.1 kernel package" >&2; exit 1; }
	log "installing $v"
	apt-get install -y -q --no-install-recommends "$v" \
		"$(echo "$v" | sed 's/linux-image/linux-headers/')"
fi

# linux-source-6.1 ships a tarball: unpack it once (KUnit, checkpatch).
if [ ! -d /usr/src/linux-source-6.1 ]; then
	log "unpacking linux-source-6.1"
	tar -C /usr/src -xaf /usr/src/linux-source-6.1.tar.xz
fi

if [ ! -x "$BUILD_DIR/venv/bin/vng" ]; then
	log "installing virtme-ng into $BUILD_DIR/venv"
	mkdir -p "$BUILD_DIR"
	python3 -m venv "$BUILD_DIR/venv"
	"$BUILD_DIR/venv/bin/pip" install -q virtme-ng
fi
# Debian's irqbalance for the guest tests (tests/vm/48-irqbalance.bats),
# unpacked, not installed: installing it would start it on this host.
if [ ! -x "$BUILD_DIR/irqbalance/irqbalance" ]; then
	log "unpacking Debian's irqbalance into $BUILD_DIR/irqbalance"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt's download user must write there
	if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root irqbalance &&
		dpkg-deb -x irqbalance_*.deb root &&
		mkdir -p "$BUILD_DIR/irqbalance" &&
		cp root/usr/sbin/irqbalance "$BUILD_DIR/irqbalance/"); then
		rm -rf "$tmp"
		echo "setup: cannot unpack Debian's irqbalance" >&2
		exit 1
	fi
	rm -rf "$tmp"
fi
# Debian's promtool and node_exporter for the metrics tests
# (tests/host/cmd/metrics.bats, tests/vm/86-metrics.bats), unpacked, not
# installed: the packages would start a Prometheus server and an exporter
# on this host.
if [ ! -x "$BUILD_DIR/prometheus/promtool" ] || [ ! -x "$BUILD_DIR/prometheus/node_exporter" ]; then
	log "unpacking Debian's promtool and node_exporter into $BUILD_DIR/prometheus"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root \
			prometheus prometheus-node-exporter &&
		dpkg-deb -x prometheus_*.deb root &&
		dpkg-deb -x prometheus-node-exporter_*.deb root &&
		mkdir -p "$BUILD_DIR/prometheus" &&
		cp root/usr/bin/promtool root/usr/bin/prometheus-node-exporter "$BUILD_DIR/prometheus/" &&
		mv "$BUILD_DIR/prometheus/prometheus-node-exporter" "$BUILD_DIR/prometheus/node_exporter"); then
		rm -rf "$tmp"
		echo "setup: cannot unpack Debian's prometheus and prometheus-node-exporter" >&2
		exit 1
	fi
	rm -rf "$tmp"
fi
# ansible-core and ansible-lint from PyPI for the Ansible role's tests
# (misc/ansible; tests/host/pkg/ansible.bats, tests/vm/ansible/role.bats).
if [ ! -x "$BUILD_DIR/ansible/bin/ansible-playbook" ] || [ ! -x "$BUILD_DIR/ansible/bin/ansible-lint" ]; then
	log "installing ansible-core and ansible-lint into $BUILD_DIR/ansible"
	python3 -m venv "$BUILD_DIR/ansible"
	"$BUILD_DIR/ansible/bin/pip" install -q ansible-core==2.19.14 ansible-lint==26.10.1
fi
# QEMU 10 and SeaBIOS 1.16.3 from bookworm-backports, unpacked, not
# installed (the system's QEMU 7.2 stays and runs the tests): device shapes
# 7.2 lacks, with scripts/vm.sh VM_QEMU=10 (Documentation/vm-harness.md).
# Its q35 machine needs SeaBIOS 1.16.3: 1.16.2 spends 30 s probing AHCI.
QEMU_DIR=$BUILD_DIR/qemu
if [ ! -x "$QEMU_DIR/bin/qemu-system-x86_64" ]; then
	log "unpacking bookworm-backports' QEMU 10 and SeaBIOS into $QEMU_DIR"
	# the libraries it links (bookworm's own, mostly there for QEMU 7.2)
	libs=$(apt-cache depends -t bookworm-backports qemu-system-x86 qemu-system-common 2>/dev/null |
		sed -n 's/^[[:space:]]*Depends: \(lib[^ <>]*\)$/\1/p' | sort -u)
	[ -z "$libs" ] || apt-get install -y -q --no-install-recommends $libs
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root -t bookworm-backports \
			qemu-system-x86 qemu-system-common qemu-system-data seabios &&
		for d in *.deb; do dpkg-deb -x "$d" root || exit 1; done &&
		rm -rf "$QEMU_DIR" && mkdir -p "$QEMU_DIR/bin" &&
		mv root "$QEMU_DIR/root"); then
		rm -rf "$tmp"
		echo "setup: cannot unpack bookworm-backports' QEMU and SeaBIOS" >&2
		exit 1
	fi
	rm -rf "$tmp"
	r=$QEMU_DIR/root
	cat >"$QEMU_DIR/bin/qemu-system-x86.tmp" <<WRAP
#!/bin/sh
# QEMU 10 unpacked by scripts/setup.sh: its own firmware first.
QEMU_MODULE_DIR=$r/usr/lib/x86_64-linux-gnu/qemu
export QEMU_MODULE_DIR
exec $r/usr/bin/qemu-system-x86_64 -L $r/usr/share/seabios -L $r/usr/share/qemu "\$@"
WRAP
	chmod 755 "$QEMU_DIR/bin/qemu-system-x86.tmp"
	if ! "$QEMU_DIR/bin/qemu-system-x86.tmp" --version >/dev/null; then
		echo "setup: the unpacked QEMU in $QEMU_DIR does not start" >&2
		exit 1
	fi
	mv "$QEMU_DIR/bin/qemu-system-x86.tmp" "$QEMU_DIR/bin/qemu-system-x86_64"
fi
# KUnit's UML kernel, built once here (4 minutes on 2 cores), so that make
# check rebuilds only what changed.  A failure here is reported again, with
# its cause, by make kunit.
if [ ! -f "$BUILD_DIR/kunit-out/.ssdtune-setup-built" ]; then
	log "building KUnit's UML kernel in $BUILD_DIR/kunit-out"
	if BUILD=$BUILD_DIR "$(dirname "$0")/kunit.sh" --build-only >"$BUILD_DIR/kunit-setup.log" 2>&1; then
		touch "$BUILD_DIR/kunit-out/.ssdtune-setup-built"
	else
		log "KUnit's UML kernel did not build (see $BUILD_DIR/kunit-setup.log); make kunit says why"
	fi
fi
touch "$STAMP"
log "done"
