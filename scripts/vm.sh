#!/bin/bash
# Boot a Debian kernel in QEMU with virtme-ng and run one command in it.
#
#   scripts/vm.sh [options] KVER [--] CMD [ARG...]
#
# The guest is a 2-node NUMA machine (2 sockets: CPUs 0-1 on node 0, 2-3 on
# node 1, 1 GiB each) with an emulated NVMe controller (serial ssdt01, QEMU id nvme0)
# behind a PCIe expander bridge on node 1, backed by a fresh sparse raw image.
# The guest sees the host's root filesystem read-only (virtme-ng, 9p) with a
# tmpfs/overlay /tmp, /var, /etc; $BUILD is shared read-write, so the guest
# writes results to $BUILD/results.  CMD runs as root in the repository's top
# directory with these variables set (see Documentation/vm-harness.md):
#
#   SSDT_REPO SSDT_BUILD SSDT_RESULTS   repository, build and results dirs
#   SSDT_VM_KVER                         the kernel booted
#   SSDT_VM_NVME_SERIAL SSDT_VM_NVME_ID  the NVMe's serial and QEMU device id
#   SSDT_VM_CTL                          host-request dir (unplug, ping)
#
# vm.sh exits with CMD's exit status; 124 when the timeout killed the guest;
# 125 when the VM could not be started.
#
# Options (or the environment variable in brackets):
#   --timeout SECS   kill the guest after SECS seconds [VM_TIMEOUT, 900]
#   --qemu 10|PATH   the QEMU to run [VM_QEMU] (default: the system's 7.2;
#                  10: the QEMU 10 make setup unpacks under $BUILD/qemu)
#   --img-size SIZE  NVMe backing image size [VM_IMG_SIZE, 1G]
#   --log FILE       also copy the VM's output to FILE
#   --verbose        show the whole guest kernel console (vng --verbose);
#                    without it, with --log, the console shows what the
#                    kernel logs at KERN_ERR or worse (loglevel=4: a
#                    panic, an oops), so a guest that dies says why
#   --append ARGS    add ARGS to the guest kernel command line
#                    (e.g. swiotlb=force) [VM_APPEND]; mitigations=off is
#                    always there (the guest is a throwaway test machine)
#   --subsys         also an NVMe subsystem with two controllers (QEMU ids
#                    nvme1 and nvme2, controller IDs 0 and 1, serial ssdt02
#                    for both as QEMU wants) on node 0 sharing namespace 1,
#                    and namespace 2 attached to neither, for the namespace
#                    rescan tests, and the device matrix: two controllers
#                    of other shapes on node 0, serial ssdtm1 (the Intel
#                    ID 8086:5845 stock quirks, MDTS 3: 32 KiB, one
#                    namespace of 4 KiB blocks, some of whose I/O blkdebug
#                    fails: subsys/42-retries) and ssdtm2 (no MDTS, one
#                    queue pair on one MSI-X vector, a 16 MiB CMB;
#                    namespaces 1 plain, 2 zoned, 3 with 8 bytes of
#                    metadata, 4 with PI type 1, 5 of 4 KiB blocks);
#                    with a QEMU that has them (10), ssdtm3 too: queues of
#                    at most 32 entries (MQES 31) and no shadow doorbells
#                    (no Doorbell Buffer Config, as most real drives)
#                    (tests/vm/subsys/); the guest sees SSDT_VM_SUBSYS=1
#                    [VM_SUBSYS=1]
#   --many           three more controllers like nvme0, for the files of
#                    several controllers at once (tests/vm/many/): serials
#                    ssdt11 on node 1 beside nvme0, ssdt12 and ssdt13 on
#                    node 0 (an expander bridge of its own), each with a
#                    128 MiB namespace: four controllers, two per node; the
#                    guest sees SSDT_VM_MANY="ssdt01 ssdt11 ssdt12 ssdt13"
#                    [VM_MANY=1]
#   --node-cpus N    N CPUs per node (1 or 2) [VM_NODE_CPUS, 2]: 1 makes
#                    a 2-vCPU guest, CPU 0 on node 0 and CPU 1 on node 1,
#                    for a bench that must not have more busy vCPUs than
#                    the host's two cores (make bench-noisy)
# [SSDT_FUZZ_SEED, SSDT_FUZZ_COUNT] passed to the guest (29-doorfuzz).
# [VM_GUEST_CACHE=0] the guest runs its programs from the uncached 9p root
# (scripts/vm-guest-cache.sh: 10-25% slower)
# [VM_KVM=1] use KVM instead of TCG (KVM is not usable on the project's
# machines: default off).
set -u

REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
timeout_s=${VM_TIMEOUT:-900}
img_size=${VM_IMG_SIZE:-1G}
log=""
verbose=""
extra=${VM_APPEND:-}
subsys=${VM_SUBSYS:-}
many=${VM_MANY:-}
node_cpus=${VM_NODE_CPUS:-2}

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 125; }
die() { echo "vm.sh: $*" >&2; exit 125; }

while [ $# -gt 0 ]; do
	case $1 in
	--timeout) timeout_s=$2; shift 2 ;;
	--img-size) img_size=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--verbose) verbose=--verbose; shift ;;
	--append) extra="$extra $2"; shift 2 ;;
	--subsys) subsys=1; shift ;;
	--many) many=1; shift ;;
	--qemu) VM_QEMU=$2; shift 2 ;;
	--node-cpus) node_cpus=$2; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
case $node_cpus in
1) cpus0=0 cpus1=1 ;;
2) cpus0=0-1 cpus1=2-3 ;;
*) die "--node-cpus must be 1 or 2, not '$node_cpus'" ;;
esac
KVER=$1; shift
[ "${1:-}" = "--" ] && shift
[ $# -ge 1 ] || usage

# KVER is a Debian kernel's release, or a kernel build directory (the
# debug kernel of scripts/debug-kernel.sh), booted with its own modules.
slow=""
if [ -d "$KVER" ]; then
	kernel=$(cd "$KVER" && pwd)
	[ -r "$kernel/arch/x86/boot/bzImage" ] || die "no bzImage in $kernel (run: scripts/debug-kernel.sh)"
	# Its slow ACPI interpreter times out on the expander bridge's _PRT;
	# MSI-X needs no INTx routing.
	extra="acpi=noirq $extra"
	slow=1	# KASAN and lockdep: the guest's waits get longer bounds
	KVER=$(cat "$kernel/include/config/kernel.release") || die "$kernel has no kernel.release"
else
	kernel=/boot/vmlinuz-$KVER
	[ -r "$kernel" ] || die "no kernel $kernel (run: make setup)"
fi
VNG=$BUILD/venv/bin/vng
[ -x "$VNG" ] || die "no virtme-ng at $VNG (run: make setup)"
# QEMU: the system's (bookworm's 7.2), or VM_QEMU: a path, or "10" for the
# QEMU 10 that make setup unpacks under $BUILD/qemu (15-20% faster under
# TCG; not the suites' default yet: it aborted once at boot in a dozen,
# and a make check boot hung on it once, Documentation/vm-harness.md).
case ${VM_QEMU:-} in
"") qemu="qemu-system-x86_64" ;;
10) qemu=$BUILD/qemu/bin/qemu-system-x86_64
    [ -x "$qemu" ] || die "no QEMU 10 in $BUILD/qemu (run: make setup)" ;;
*) qemu=$VM_QEMU ;;
esac
qemu=$(command -v "$qemu") || die "$qemu not installed (run: make setup)"
command -v python3 >/dev/null || die "python3 not installed (run: make setup)"
# vng execs virtme-run from its venv.
export PATH=$BUILD/venv/bin:$PATH

mkdir -p "$BUILD/vm" "$BUILD/results" || die "cannot create $BUILD/vm"
BUILD=$(cd "$BUILD" && pwd)
# One directory per run so that runs never share an image or a socket.
run=$(mktemp -d "$BUILD/vm/run.$KVER.XXXXXX") || die "mktemp failed"
# QMP socket outside $BUILD: unix socket paths are limited to 108 bytes.
sockdir=$(mktemp -d /tmp/ssdtune-vm.XXXXXX) || die "mktemp failed"
qmp=$sockdir/qmp.sock
ctl=$run/ctl
mkdir -p "$ctl"
img=$run/nvme.img
truncate -s "$img_size" "$img" || die "cannot create $img"

watcher=""
vng_pid=""
cleanup() {
	if [ -n "$vng_pid" ]; then
		# timeout(1) forwards the signal to QEMU's process group.
		kill -TERM "$vng_pid" 2>/dev/null
		wait "$vng_pid" 2>/dev/null
	fi
	if [ -n "$watcher" ]; then
		kill "$watcher" 2>/dev/null
		wait "$watcher" 2>/dev/null
	fi
	# No QEMU of this run outlives it (its image path is unique to the
	# run): a guest was once seen running after vm.sh had returned.
	local pid
	for pid in $(pgrep qemu-system); do
		if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "file=$img,"; then
			echo "vm.sh: QEMU $pid of $run still running as vm.sh ends: killed" >&2
			kill -KILL "$pid" 2>/dev/null
		fi
	done
	rm -rf "$run" "$sockdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

NVME_ID=nvme0
NVME_SERIAL=ssdt01

# What the guest runs: the environment, then CMD with its words kept intact.
guest_cmd=$run/guest-cmd.sh
{
	echo "#!/bin/bash"
	printf 'export SSDT_REPO=%q SSDT_BUILD=%q SSDT_RESULTS=%q\n' \
		"$REPO" "$BUILD" "$BUILD/results"
	printf 'export SSDT_VM_KVER=%q SSDT_VM_NVME_SERIAL=%q SSDT_VM_NVME_ID=%q SSDT_VM_CTL=%q\n' \
		"$KVER" "$NVME_SERIAL" "$NVME_ID" "$ctl"
	printf 'export SSDT_VM_SLOW=%q SSDT_VM_SUBSYS=%q SSDT_VM_GUEST_CACHE=%q\n' \
		"$slow" "$subsys" "${VM_GUEST_CACHE:-1}"
	[ -n "$many" ] && echo 'export SSDT_VM_MANY="ssdt01 ssdt11 ssdt12 ssdt13"'
	# the door fuzzer's seed and count (tests/vm/29-doorfuzz.bats), to
	# replay a run or size it
	for v in SSDT_FUZZ_SEED SSDT_FUZZ_COUNT; do
		[ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
	done
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
	echo 'export HOME=/root LC_ALL=C.UTF-8'
	# /usr, /etc and the repository from a page cache (the script says why)
	[ "${VM_GUEST_CACHE:-1}" = 1 ] && printf '. %q\n' "$REPO/scripts/vm-guest-cache.sh"
	printf 'cd %q || exit 125\n' "$REPO"
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$guest_cmd"

# The guest's kernel console: vng sends it to /dev/null unless --verbose,
# and a guest that panicked then ends with vng's exit 255 and no word of
# why.  So a run with a log (the suites') has it at loglevel=4 (KERN_ERR
# and worse, after the first lines of the boot: a hung task's report is
# KERN_ERR) unless --verbose asked for all of it.
if [ -z "$verbose" ] && [ -n "$log" ]; then
	verbose=--verbose
	extra="loglevel=4 $extra"
fi

# CPU vulnerability mitigations cost the emulated CPU 10 to 20% (an exec,
# a bats test, fio) and protect nothing in a throwaway test guest.
# tsc=reliable: the emulated CPU has no constant_tsc, so the guest marks
# its TSCs unsynchronized and keeps time with the emulated HPET, whose
# every read (each ktime_get, each clock_gettime of fio) is an MMIO exit
# into QEMU.  TCG's TSC is one clock for all vCPUs (the host's TSC, read
# under one lock by cpu_get_ticks()), so trusting it is right here, and
# the tests run 10-20% faster (Documentation/vm-harness.md, "Speed").
# Not with KVM, whose guest decides for itself.
extra="mitigations=off $extra"
[ "${VM_KVM:-0}" = 1 ] || extra="tsc=reliable $extra"

accel=--disable-kvm
[ "${VM_KVM:-0}" = 1 ] && accel=""

# One socket per NUMA node (vng's plain "-smp 4" makes one socket span both
# nodes, and the guest kernel WARNs in topology_sane() at boot).
qemu_opts="-smp $((2 * node_cpus)),sockets=2,cores=$node_cpus,threads=1"
qemu_opts="$qemu_opts -qmp unix:$qmp,server=on,wait=off"
qemu_opts="$qemu_opts -drive file=$img,if=none,id=nvm,format=raw"
qemu_opts="$qemu_opts -device pxb-pcie,id=pxb1,bus_nr=64,numa_node=1,bus=pcie.0"
qemu_opts="$qemu_opts -device pcie-root-port,id=rp1,bus=pxb1,chassis=1"
# MDTS 10: 4 MiB transfers, stock's limit (QEMU's default 7 is 512 KiB)
qemu_opts="$qemu_opts -device nvme,id=$NVME_ID,serial=$NVME_SERIAL,drive=nvm,bus=rp1,mdts=10"
if [ -n "$subsys" ]; then
	for n in 1 2; do
		truncate -s 256M "$run/sub-ns$n.img" || die "cannot create $run/sub-ns$n.img"
		qemu_opts="$qemu_opts -drive file=$run/sub-ns$n.img,if=none,id=subns$n,format=raw"
	done
	qemu_opts="$qemu_opts -device nvme-subsys,id=sub1,nqn=nqn.2026-11.io.ssdtune:rescan"
	for c in 1 2; do
		qemu_opts="$qemu_opts -device pcie-root-port,id=rp$((c + 1)),bus=pcie.0,chassis=$((c + 1))"
		qemu_opts="$qemu_opts -device nvme,id=nvme$c,serial=ssdt02,subsys=sub1,bus=rp$((c + 1))"
	done
	# shared (QEMU's default): attached to both controllers, or to none
	qemu_opts="$qemu_opts -device nvme-ns,drive=subns1,bus=nvme1,nsid=1"
	qemu_opts="$qemu_opts -device nvme-ns,drive=subns2,bus=nvme1,nsid=2,detached=on"
	# the device matrix (tests/vm/subsys/40-matrix.bats)
	for n in 1 2 3 4 5 6; do
		truncate -s 64M "$run/mx$n.img" || die "cannot create $run/mx$n.img"
		[ "$n" = 1 ] && continue
		qemu_opts="$qemu_opts -drive file=$run/mx$n.img,if=none,id=mxd$n,format=raw"
	done
	# ssdtm1's namespace fails some I/O: blkdebug under the raw format
	# node (it sees the read_aio and write_aio events only from a format
	# driver above it), for tests/vm/subsys/42-retries.bats.  Sectors of
	# 512 bytes in the image; the namespace has 4 KiB blocks (LBA x 8).
	# Writes that fail once, at 48, 49, 50 and 51 MiB; a read that always
	# fails, at 52 MiB.
	{
		for sec in 98304 100352 102400 104448; do
			printf '[inject-error]\nevent = "write_aio"\nerrno = "5"\nsector = "%s"\nonce = "on"\n\n' "$sec"
		done
		printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "106496"\n'
	} >"$run/mx1.blkdebug"
	qemu_opts="$qemu_opts -drive driver=raw,if=none,id=mxd1,file.driver=blkdebug,file.config=$run/mx1.blkdebug,file.image.driver=file,file.image.filename=$run/mx1.img"
	qemu_opts="$qemu_opts -device pcie-root-port,id=rp4,bus=pcie.0,chassis=4"
	qemu_opts="$qemu_opts -device nvme,id=mx1,serial=ssdtm1,use-intel-id=on,mdts=3,bus=rp4"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd1,bus=mx1,nsid=1,logical_block_size=4096,physical_block_size=4096"
	qemu_opts="$qemu_opts -device pcie-root-port,id=rp5,bus=pcie.0,chassis=5"
	qemu_opts="$qemu_opts -device nvme,id=mx2,serial=ssdtm2,mdts=0,max_ioqpairs=1,msix_qsize=1,cmb_size_mb=16,bus=rp5"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd2,bus=mx2,nsid=1"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd3,bus=mx2,nsid=2,zoned=on,zoned.zone_size=8M"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd4,bus=mx2,nsid=3,ms=8"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd5,bus=mx2,nsid=4,ms=8,pi=1"
	qemu_opts="$qemu_opts -device nvme-ns,drive=mxd6,bus=mx2,nsid=5,logical_block_size=4096,physical_block_size=4096"
	# QEMU 10's shapes: small queues (MQES 31: 32 entries) and no shadow
	# doorbells (dbcs=off), as most real drives
	if "$qemu" -device nvme,help 2>/dev/null | grep -q 'mqes='; then
		truncate -s 64M "$run/mx7.img" || die "cannot create $run/mx7.img"
		qemu_opts="$qemu_opts -drive file=$run/mx7.img,if=none,id=mxd7,format=raw"
		qemu_opts="$qemu_opts -device pcie-root-port,id=rp6,bus=pcie.0,chassis=6"
		qemu_opts="$qemu_opts -device nvme,id=mx3,serial=ssdtm3,mqes=31,dbcs=off,bus=rp6"
		qemu_opts="$qemu_opts -device nvme-ns,drive=mxd7,bus=mx3,nsid=1"
	fi
fi
if [ -n "$many" ]; then
	# ssdt11 beside nvme0 on node 1; ssdt12 and ssdt13 on node 0, behind
	# an expander bridge whose _PXM says so (pcie.0 has none)
	qemu_opts="$qemu_opts -device pxb-pcie,id=pxb0,bus_nr=32,numa_node=0,bus=pcie.0"
	for c in 1 2 3; do
		truncate -s 128M "$run/many$c.img" || die "cannot create $run/many$c.img"
		qemu_opts="$qemu_opts -drive file=$run/many$c.img,if=none,id=manyd$c,format=raw"
		bus=pxb0
		[ "$c" = 1 ] && bus=pxb1
		qemu_opts="$qemu_opts -device pcie-root-port,id=rpm$c,bus=$bus,chassis=$((10 + c))"
		qemu_opts="$qemu_opts -device nvme,id=many$c,serial=ssdt1$c,drive=manyd$c,bus=rpm$c,mdts=10"
	done
fi
# vng gives the guest five virtio-serial devices (stdin, stdout, stderr...)
# of one port each; QEMU's default of 31 ports apiece makes ~320 virtqueue
# eventfds that its main loop polls at every turn.  With 2 ports each
# (port 0 is the console's) the guest runs 25 to 40% faster under TCG
# (20-integrity: 99 s instead of 135 s a boot).
qemu_opts="$qemu_opts -global virtio-serial-pci.max_ports=2"
# The host's root once more, for scripts/vm-guest-cache.sh to mount with
# a page cache (vng's own export of it has none) [VM_GUEST_CACHE=0: not]
if [ "${VM_GUEST_CACHE:-1}" = 1 ]; then
	qemu_opts="$qemu_opts -fsdev local,id=ssdtroot,path=/,security_model=none,readonly=on,multidevs=remap"
	qemu_opts="$qemu_opts -device virtio-9p-pci,fsdev=ssdtroot,mount_tag=ssdtroot,bus=pcie.0"
fi
# QEMU's log: trace events that qmp-watch.py turns on (make bench's cost
# pass) land there; nothing is logged unless asked
qemu_opts="$qemu_opts -D $run/qemu.log"
# No default devices (the q35 DVD drive, a monitor on a virtual console that
# makes QEMU 10 try to load 7.2's display modules): vng names what it needs.
qemu_opts="$qemu_opts -nodefaults"
# extra QEMU options for experiments
qemu_opts="$qemu_opts ${VM_QEMU_OPTS:-}"

# Host side of guest requests (QMP device_del etc.): see tests/vm/lib/qmp-watch.py.
python3 "$REPO/tests/vm/lib/qmp-watch.py" "$qmp" "$ctl" "$NVME_ID" "$run/qemu.log" &
watcher=$!

start=$(date +%s.%N)
# timeout(1) signals its whole process group, so QEMU dies with vng;
# -k: SIGKILL if QEMU ignores SIGTERM.
append=()
[ -n "${extra// /}" ] && append=(--append "${extra# }")
# --force-9p: vng would first try virtiofsd (not installed) for 7 s.
# ($accel and $verbose: one option or none)
# shellcheck disable=SC2206
vng_args=(--run "$kernel" $accel $verbose "${append[@]}" --qemu "$qemu" --force-9p
	--cpus $((2 * node_cpus)) --memory 2G --numa "1G,cpus=$cpus0" --numa "1G,cpus=$cpus1"
	--rwdir "$BUILD" --qemu-opts="$qemu_opts" --exec "bash $guest_cmd")
# QEMU opens /proc/self/fd/1 and /proc/self/fd/2 itself: if both were the
# same regular file, the guest's stdout and stderr would overwrite each
# other, so they are always pipes.
if [ -n "$log" ]; then
	timeout -k 15 "$timeout_s" "$VNG" "${vng_args[@]}" </dev/null > >(tee "$log") 2>&1 &
else
	timeout -k 15 "$timeout_s" "$VNG" "${vng_args[@]}" </dev/null > >(cat) 2> >(cat >&2) &
fi
vng_pid=$!
wait "$vng_pid"
rc=$?
vng_pid=""
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "vm.sh: $KVER: guest killed after the ${timeout_s}s timeout" >&2
	rc=124
fi
echo "vm.sh: $KVER: exit $rc after ${secs}s" >&2
exit "$rc"
