#!/usr/bin/env python3
"""noisytable.py RAW KVER SECS [METHOD]: the table of make bench-noisy from
guest/noisy.sh's raw lines (fiojson.py's, with p999_us and
rqwait_us_per_io, after "round=R").  RAW may be several files joined by
commas; their rounds are pooled.

Per QD: each arm's medians over the rounds (IOPS, p50, p99, p99.9, fio's
run-queue wait per I/O, fio's CPU time per I/O, interrupts per I/O), then
ratio rows ARM/BASE, each the median of the same-round ratios with its
distribution-free interval (benchtable.py's cell).  Issue 36's goals
close the table, for each isolated arm (polled and with interrupts):
under the hogs, its run-queue wait per I/O at most 0.25x stock's and its
p99 at most 1.2x stock's.  Latencies are fio's total latency
(submission included) when the runs recorded it (fiojson.py)."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchtable import cell, load, ratios  # noqa: E402
from ratioci import verdict  # noqa: E402

FIELDS = {"iops": "iops", "p50": "p50_us", "p99": "p99_us", "p999": "p999_us",
          "wait": "rqwait_us_per_io", "cpu": "cpu_us_per_io", "ipi": "irq_per_io"}
ARMS = ["nvme-quiet", "nvme-hogs", "ssdtune-quiet", "ssdtune-hogs", "ssdtune-irq-hogs"]
# (arm, base, metrics): the comparisons, in the order printed
PAIRS = [("nvme-hogs", "nvme-quiet", ("iops", "p50", "p99", "p999")),
         ("ssdtune-hogs", "ssdtune-quiet", ("iops", "p50", "p99", "p999")),
         ("ssdtune-hogs", "nvme-hogs", ("iops", "p50", "p99", "p999", "wait")),
         ("ssdtune-irq-hogs", "nvme-hogs", ("iops", "p50", "p99", "p999", "wait")),
         ("ssdtune-quiet", "nvme-quiet", ("iops", "p50", "p99", "p999"))]
NAMES = {"iops": "IOPS", "p50": "p50", "p99": "p99", "p999": "p99.9", "wait": "wait"}


def goals(runs):
    g = []
    for qd in sorted(q for q, j in runs if j == 1):
        d = runs[(qd, 1)]
        for arm in ("ssdtune-hogs", "ssdtune-irq-hogs"):
            if arm not in d or "nvme-hogs" not in d:
                continue
            g.append(("QD%d run-queue wait/IO %s/nvme-hogs <= 0.25" % (qd, arm),
                      verdict(ratios(d, arm, "nvme-hogs", "wait"), 0.25, False)))
            g.append(("QD%d p99 %s/nvme-hogs <= 1.20" % (qd, arm),
                      verdict(ratios(d, arm, "nvme-hogs", "p99"), 1.20, False)))
    return g


def main():
    raw, kver, secs = sys.argv[1:4]
    method = sys.argv[4] if len(sys.argv) > 4 else ""
    runs = load(raw, FIELDS)
    med = statistics.median
    print("make bench-noisy: 4K random read, %s s per run, kernel %s, emulated NVMe (QEMU TCG)"
          % (secs, kver))
    if method:
        print(method)
    print("medians over the rounds; latency: fio's total (submission + completion), us;")
    print("wait: fio's run-queue wait per I/O (schedstat), us; CPU: fio's CPU time per I/O, us;")
    print("ratios ARM/BASE: median of the same-round ratios [its interval, >= 90%]")
    hdr = "%-5s %-30s %6s %8s %8s %9s %9s %8s %8s %7s" % (
        "QD", "arm", "rounds", "IOPS", "p50 us", "p99 us", "p99.9 us",
        "wait us", "CPU us", "irq/IO")
    print(hdr)
    print("-" * len(hdr))
    for key in sorted(runs, key=lambda k: (k[1], k[0])):
        d = runs[key]
        qd = "QD%d" % key[0] if key[1] == 1 else "QD%dx%d" % key
        for arm in ARMS:
            v = list(d.get(arm, {}).values())
            if v:
                print("%-5s %-30s %6d %8.0f %8.1f %9.1f %9.1f %8.2f %8.2f %7.3f" % (
                    qd, arm, len(v), *(med(x[m] for x in v) for m in
                                       ("iops", "p50", "p99", "p999", "wait", "cpu", "ipi"))))
        for arm, base, ms in PAIRS:
            n = len(ratios(d, arm, base, "iops"))
            if n:
                print("%-5s %-30s %6d  %s" % (qd, "%s/%s" % (arm, base), n, "  ".join(
                    "%s %s" % (NAMES[m], cell(ratios(d, arm, base, m))) for m in ms)))
        print()
    g = goals(runs)
    if g:
        print("goals (issue 36, under the hogs):")
        w = max(len(t) for t, _ in g)
        for t, v in g:
            print("  %-*s  %s" % (w, t, v))


if __name__ == "__main__":
    main()
