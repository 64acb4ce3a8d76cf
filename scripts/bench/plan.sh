#!/bin/sh
# Planner benchmark (a report, not a test): `ssdtune plan` on the generated
# 8-node, 512-CPU fixture (tests/host/fixtures/mktopo.py 8n512c) mounted
# over /sys, /proc/irq and /proc/interrupts.  Prints the median wall time
# of RUNS runs (default 21) of `ssdtune plan --profile latency` (fork and
# exec included, output to /dev/null), their CPU time, and the files it
# opens (strace).
#
# libnuma sizes its CPU masks from sched_getaffinity(), i.e. from the
# running kernel's nr_cpu_ids, not from /sys: on a host whose kernel has
# fewer than 512 possible CPUs it cannot read a 512-CPU fixture.  The
# benchmark preloads a tiny shim (built here) that answers that one
# syscall as a 512-CPU kernel would; nothing else is changed.
#
# Usage: scripts/bench/plan.sh [RUNS]   (needs root or user namespaces)
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${SSDTUNE:-$REPO/tools/ssdtune/ssdtune}
RUNS=${1:-21}
[ -x "$BIN" ] || { echo "bench-plan: no $BIN (make tools)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$REPO/tests/host/fixtures/mktopo.py" 8n512c "$tmp/sys" "$tmp/proc"
cat >"$tmp/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>

/* sched_getaffinity() as a kernel with 512 possible CPUs answers it */
long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	va_list ap;
	long a[6];
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_sched_getaffinity) {
		if ((size_t)a[1] < 64) {
			errno = EINVAL;
			return -1;
		}
		memset((void *)a[2], 0, (size_t)a[1]);
		memset((void *)a[2], 0xff, 64);
		return 64;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
C
cc -O2 -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl

map=
[ "$(id -u)" -eq 0 ] || map=--map-root-user
unshare --mount --propagation private $map -- sh -c '
	tmp=$1 bin=$2 runs=$3
	mount --bind "$tmp/sys" /sys && mount --bind "$tmp/proc/irq" /proc/irq &&
		mount --bind "$tmp/proc/interrupts" /proc/interrupts || exit 99
	export LD_PRELOAD=$tmp/shim.so
	"$bin" plan --profile latency >"$tmp/plan.txt" || exit 1
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$bin" plan --profile latency >/dev/null
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000))
		i=$((i + 1))
	done >"$tmp/times"
	# CPU time (user + system) of the same runs: immune to a busy machine
	/usr/bin/time -f "%U %S" -o "$tmp/cpu" sh -c '"'"'
		i=0; while [ $i -lt "$2" ]; do "$1" plan --profile latency >/dev/null; i=$((i + 1)); done
	'"'"' sh "$bin" "$runs"
	if command -v strace >/dev/null; then
		strace -f -qq -e trace=open,openat -o "$tmp/strace" \
			"$bin" plan --profile latency >/dev/null
	fi' sh "$tmp" "$BIN" "$RUNS"

median=$(sort -n "$tmp/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
min=$(sort -n "$tmp/times" | head -1)
echo "plan on 8n512c (8 nodes, 512 CPUs, 8 NVMe x 33 vectors): $(tail -1 "$tmp/plan.txt")"
printf 'wall time: median %d.%03d ms, min %d.%03d ms over %d runs (target < 50 ms)\n' \
	$((median / 1000)) $((median % 1000)) $((min / 1000)) $((min % 1000)) "$RUNS"
if [ -s "$tmp/cpu" ]; then
	awk -v n="$RUNS" '{ printf "cpu time: %.1f ms per run (user %.1f + system %.1f)\n", \
		($1 + $2) * 1000 / n, $1 * 1000 / n, $2 * 1000 / n }' "$tmp/cpu"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
if [ -s "$tmp/strace" ]; then
	# ssdtune's own opens: not the dynamic loader's libraries
	ok=$(grep -v ' = -1 ' "$tmp/strace" | grep -v -E '\.so|ld\.so|/etc/ld|locale|gconv' )
	files=$(printf '%s\n' "$ok" | grep -c -v 'O_DIRECTORY' || true)
	dirs=$(printf '%s\n' "$ok" | grep -c 'O_DIRECTORY' || true)
	failed=$(grep -c ' = -1 ' "$tmp/strace" || true)
	echo "opens: $files files read, $dirs directories listed, $failed failed lookups (strace)"
else
	echo "opens: strace not installed, not counted"
fi
