#!/usr/bin/env bats
# make modules chooses its kernels (scripts/build-modules.sh): the 6.1
# and 6.12 test kernels and the running kernel, each where its headers
# are; RELEASE=1 the running kernel without the debugfs test hooks.  On
# fake hosts: /boot and /lib/modules under SSDT_SYSROOT, a uname that
# names the running kernel, and a make that records what it was asked to
# build instead of compiling.

load ../helpers

setup() {
	ROOT=$BATS_TEST_TMPDIR/host
	BIN=$BATS_TEST_TMPDIR/bin
	LOG=$BATS_TEST_TMPDIR/make.log
	mkdir -p "$ROOT/boot" "$ROOT/lib/modules" "$BIN"
	# make -C kmod KVER=K OBJ=DIR ...: one line "K DIR [CONFIG_...]", and a .ko
	cat >"$BIN/make" <<-EOF
	#!/bin/sh
	k= o= d=
	for a; do
		case \$a in
		KVER=*) k=\${a#KVER=} ;;
		OBJ=*) o=\${a#OBJ=} ;;
		CONFIG_SSDTUNE_DEBUG=*) d=" \$a" ;;
		esac
	done
	echo "\$k \${o##*/}\$d" >>"$LOG"
	mkdir -p "\$o" && touch "\$o/ssdtune.ko"
	EOF
	printf '#!/bin/sh\n[ "$1" = -r ] && { echo "$FAKE_RUNNING"; exit 0; }\nexec /bin/uname "$@"\n' >"$BIN/uname"
	for c in apt-get apt dpkg; do
		printf '#!/bin/sh\ntouch %s/called-%s\nexit 1\n' "$BATS_TEST_TMPDIR" "$c" >"$BIN/$c"
	done
	chmod +x "$BIN"/*
	export PATH=$BIN:$PATH SSDT_SYSROOT=$ROOT BUILD=$BATS_TEST_TMPDIR/build
}

# kernel K [headers]: an installed image of K, with its headers if asked
kernel() {
	touch "$ROOT/boot/vmlinuz-$1"
	if [ "${2:-}" = headers ]; then
		mkdir -p "$ROOT/lib/modules/$1/build"
		touch "$ROOT/lib/modules/$1/build/Makefile"
	fi
}

# build [VAR=VALUE...]: scripts/build-modules.sh as make modules runs it
build() {
	run --separate-stderr env "$@" "$REPO/scripts/build-modules.sh"
	echo "status $status"
	echo "stdout: $output"
	echo "stderr: $stderr"
	echo "make: $(cat "$LOG" 2>/dev/null)"
	[ -z "$(ls "$BATS_TEST_TMPDIR"/called-* 2>/dev/null)" ]
}

@test "make modules on a Debian 12 host with only the running 6.1 kernel's headers builds for it, and says what the VM tests lack" {
	kernel 6.1.0-57-amd64 headers
	kernel 6.12.95+deb12-amd64
	build FAKE_RUNNING=6.1.0-57-amd64
	[ "$status" -eq 0 ]
	[ "$(cat "$LOG")" = "6.1.0-57-amd64 kmod-6.1.0-57-amd64 CONFIG_SSDTUNE_DEBUG=y" ]
	[ "$output" = "1..1
ok 1 - ssdtune.ko builds for 6.1.0-57-amd64" ]
	[[ $stderr == *"the VM tests also need a 6.1 and a 6.12 kernel with headers (make setup)"* ]]
	[[ $stderr != *"missing"* ]]
}

@test "make modules on a host running another kernel, with its headers and no test kernel, builds for the running kernel" {
	kernel 6.5.0-1-amd64 headers
	build FAKE_RUNNING=6.5.0-1-amd64
	[ "$status" -eq 0 ]
	[ "$(cat "$LOG")" = "6.5.0-1-amd64 kmod-6.5.0-1-amd64 CONFIG_SSDTUNE_DEBUG=y" ]
}

@test "make modules with both test kernels builds both, and the running kernel too when its headers are there" {
	kernel 6.1.0-57-amd64 headers
	kernel 6.12.95+deb12-amd64 headers
	build FAKE_RUNNING=6.5.0-1-amd64
	[ "$status" -eq 0 ]
	[ "$(cat "$LOG")" = "6.1.0-57-amd64 kmod-6.1.0-57-amd64 CONFIG_SSDTUNE_DEBUG=y
6.12.95+deb12-amd64 kmod-6.12.95+deb12-amd64 CONFIG_SSDTUNE_DEBUG=y" ]
	[ -z "$stderr" ]
	rm "$LOG"
	kernel 6.5.0-1-amd64 headers
	build FAKE_RUNNING=6.5.0-1-amd64
	[ "$status" -eq 0 ]
	[ "$(cut -d' ' -f1 "$LOG" | tr '\n' ' ')" = "6.1.0-57-amd64 6.12.95+deb12-amd64 6.5.0-1-amd64 " ]
	# the running kernel is one of them: built once
	rm "$LOG"
	build FAKE_RUNNING=6.1.0-57-amd64
	[ "$(cut -d' ' -f1 "$LOG" | tr '\n' ' ')" = "6.1.0-57-amd64 6.12.95+deb12-amd64 " ]
}

@test "make modules with no headers at all names the running kernel's headers package, builds nothing, installs nothing" {
	kernel 6.1.0-57-amd64
	build FAKE_RUNNING=6.1.0-57-amd64
	[ "$status" -eq 1 ]
	[ "$stderr" = "make modules: missing: linux-headers-6.1.0-57-amd64 (install with: apt-get install linux-headers-6.1.0-57-amd64; or make setup for the whole test environment)" ]
	[ ! -e "$LOG" ]
}

@test "make modules RELEASE=1 builds the running kernel's module without the debugfs test hooks, beside the test builds" {
	kernel 6.1.0-57-amd64 headers
	kernel 6.12.95+deb12-amd64 headers
	build FAKE_RUNNING=6.1.0-57-amd64 RELEASE=1
	[ "$status" -eq 0 ]
	[ "$(cat "$LOG")" = "6.1.0-57-amd64 kmod-release-6.1.0-57-amd64" ]
	[ "$output" = "1..1
ok 1 - ssdtune.ko builds for 6.1.0-57-amd64 (release build)" ]
	[ -f "$BUILD/kmod-release-6.1.0-57-amd64/ssdtune.ko" ]
	[ -f "$BUILD/results/build-release.tap" ]
	[ ! -e "$BUILD/results/build.tap" ]
	rm "$LOG"
	build FAKE_RUNNING=6.1.0-57-amd64 RELEASE=1 KVER=6.12.95+deb12-amd64
	[ "$(cat "$LOG")" = "6.12.95+deb12-amd64 kmod-release-6.12.95+deb12-amd64" ]
}

@test "the Makefile passes RELEASE and KVER to build-modules.sh, and README's host recipe loads the release build" {
	PATH=${PATH#"$BIN:"}	# the real make
	run make -s -n -C "$REPO" modules RELEASE=1 KVER=x
	[[ $output == *"KVER=x RELEASE=1 scripts/build-modules.sh"* ]]
	sed -n '/^## Using the driver on a host/,/^## Documentation/p' "$REPO/README.md" >"$BATS_TEST_TMPDIR/host.md"
	grep -q '^make modules RELEASE=1' "$BATS_TEST_TMPDIR/host.md"
	grep -q '^insmod build/kmod-release-$(uname -r)/ssdtune.ko' "$BATS_TEST_TMPDIR/host.md"
	run grep 'insmod build/kmod-$(uname -r)/' "$BATS_TEST_TMPDIR/host.md"
	[ "$status" -eq 1 ]
}
