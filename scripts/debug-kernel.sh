#!/bin/sh
# Build (once) the debug kernel that `make check-debug` boots: Debian's
# linux-source-6.1 configured by virtme-ng for a VM, plus KASAN, lockdep,
# kmemleak and fault injection (failslab, fail_page_alloc, fail_function,
# fail_io_timeout), with the stock nvme driver as a module for side-by-side
# tests.  An hour or more on 2 cores, so the result is cached in
# $BUILD/debug-kernel and rebuilt only when the source or this config changes.
#
# The source tree is never modified: $BUILD/debug-src is a hard-link copy
# of it; objects go to $BUILD/debug-kernel (make O=).  Prints the build
# directory on success.  Environment: BUILD, DEBUG_KSRC (default
# /usr/src/linux-source-6.1), JOBS (default: number of CPUs).
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
KSRC=${DEBUG_KSRC:-/usr/src/linux-source-6.1}
JOBS=${JOBS:-$(nproc)}
SRC=$BUILD/debug-src
OUT=$BUILD/debug-kernel
VENV=$BUILD/venv
LOG=$BUILD/debug-kernel.log

die() { echo "debug-kernel: $*" >&2; exit 1; }

# What the fault matrix needs on top of virtme-ng's VM config.
ITEMS="KASAN=y KASAN_GENERIC=y KASAN_OUTLINE=y
PROVE_LOCKING=y DEBUG_ATOMIC_SLEEP=y
DEBUG_KMEMLEAK=y DEBUG_KMEMLEAK_AUTO_SCAN=n DEBUG_KMEMLEAK_MEM_POOL_SIZE=64000
FAULT_INJECTION=y FAULT_INJECTION_DEBUG_FS=y FAILSLAB=y FAIL_PAGE_ALLOC=y
FUNCTION_ERROR_INJECTION=y FAIL_FUNCTION=y FAIL_IO_TIMEOUT=y
KPROBES=y DEBUG_FS=y GENERIC_IRQ_DEBUGFS=y BLK_DEBUG_FS=y
NUMA=y ACPI_NUMA=y X86_64_ACPI_NUMA=y
PCI=y PCI_MSI=y PCIEPORTBUS=y HOTPLUG_PCI=y HOTPLUG_PCI_PCIE=y
BLK_DEV_NVME=m NVME_CORE=m
MODULES=y MODULE_UNLOAD=y MODULE_FORCE_UNLOAD=y MODULE_SIG=n
CGROUPS=y CPUSETS=y IO_URING=y EXT4_FS=y
SUSPEND=y PM_SLEEP=y PM_DEBUG=y PM_SLEEP_DEBUG=y
DEBUG_INFO_NONE=y DEBUG_INFO_BTF=n"

[ -f "$KSRC/Makefile" ] || die "no kernel source at $KSRC (run: make setup)"
[ -x "$VENV/bin/virtme-configkernel" ] || die "no virtme-ng in $VENV (run: make setup)"
for t in make gcc flex bison bc flock; do
	command -v "$t" >/dev/null 2>&1 || die "$t is not installed (run: make setup)"
done

mkdir -p "$BUILD"
exec 9>"$BUILD/.debug-kernel.lock"
flock 9 || die "cannot lock $BUILD/.debug-kernel.lock"

stamp="$KSRC $(stat -c '%i %Y' "$KSRC/Makefile") $(echo "$ITEMS" | md5sum | cut -c1-12)"
if [ -f "$OUT/.ssdtune-done" ] && [ "$(cat "$OUT/.ssdtune-done")" = "$stamp" ]; then
	echo "$OUT"
	exit 0
fi

if [ ! -f "$SRC/Makefile" ] || [ "$(cat "$SRC/.ssdtune-src" 2>/dev/null)" != "$KSRC" ]; then
	rm -rf "$SRC" "$SRC.tmp"
	cp -al "$KSRC" "$SRC.tmp" 2>/dev/null || cp -a "$KSRC" "$SRC.tmp" ||
		die "cannot copy $KSRC to $SRC"
	echo "$KSRC" >"$SRC.tmp/.ssdtune-src"
	mv "$SRC.tmp" "$SRC"
fi

mkdir -p "$OUT"
rm -f "$OUT/.ssdtune-done"
echo "debug-kernel: configuring in $OUT (log: $LOG)" >&2
args=""
for i in $ITEMS; do args="$args --configitem CONFIG_$i"; done
# shellcheck disable=SC2086
(cd "$SRC" && "$VENV/bin/virtme-configkernel" --defconfig $args O="$OUT") >"$LOG" 2>&1 ||
	die "configuration failed (see $LOG)"
make -C "$SRC" O="$OUT" olddefconfig >>"$LOG" 2>&1 || die "olddefconfig failed (see $LOG)"
for i in KASAN PROVE_LOCKING DEBUG_KMEMLEAK FAILSLAB FAIL_FUNCTION FAIL_IO_TIMEOUT HOTPLUG_PCI_PCIE NUMA EXT4_FS; do
	grep -q "^CONFIG_$i=y" "$OUT/.config" || die "CONFIG_$i did not stick (see $OUT/.config)"
done
grep -q '^CONFIG_BLK_DEV_NVME=m' "$OUT/.config" || die "CONFIG_BLK_DEV_NVME=m did not stick"

echo "debug-kernel: building with $JOBS jobs (an hour or more on 2 cores)" >&2
start=$(date +%s)
nice make -C "$SRC" O="$OUT" -j"$JOBS" bzImage modules >>"$LOG" 2>&1 ||
	die "build failed: $(grep -m1 'error:' "$LOG" || tail -n 1 "$LOG") (see $LOG)"
(cd "$OUT" && "$VENV/bin/virtme-prep-kdir-mods") >>"$LOG" 2>&1 ||
	die "virtme-prep-kdir-mods failed (see $LOG)"
echo "debug-kernel: built in $(( $(date +%s) - start ))s" >&2
echo "$stamp" >"$OUT/.ssdtune-done"
echo "$OUT"
