#!/bin/bash
# make demo: boot one VM (the newest kernel scripts/kvers.sh names) with an
# emulated NVMe on NUMA node 1, load ssdtune.ko, attach the controller, show
# its sysfs (queues, IRQs), run a short fio 4K random read at QD32 through
# ssdtune and, for comparison, through the stock nvme driver, and print a
# table.  Guest side: tests/vm/lib/demo-guest.sh.  DEMO_SECS (default 5)
# sets each fio run's length.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-$(pwd)/build}
export BUILD
kver=${DEMO_KVER:-$(scripts/kvers.sh | tail -n 1)}
[ -n "$kver" ] || { echo "demo: no kernel (run: make setup)" >&2; exit 1; }
[ -f "$BUILD/kmod-$kver/ssdtune.ko" ] ||
	{ echo "demo: $BUILD/kmod-$kver/ssdtune.ko is missing (run: make modules)" >&2; exit 1; }
[ -x tools/ssdtune/ssdtune ] ||
	{ echo "demo: tools/ssdtune/ssdtune is missing (run: make tools)" >&2; exit 1; }
echo "demo: booting $kver under QEMU (TCG: about a minute to boot, two to run)"
exec scripts/vm.sh --timeout "${VM_TIMEOUT:-900}" "$kver" -- \
	env DEMO_SECS="${DEMO_SECS:-5}" tests/vm/lib/demo-guest.sh
