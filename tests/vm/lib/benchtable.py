#!/usr/bin/env python3
"""benchtable.py RAW KVER SECS [METHOD]: the make-bench table from
bench-guest.sh's raw lines ("round=R DRIVER qd=Q jobs=J iops=.. mean_us=..
p99_us=.. irq_per_io=.. err=..").  METHOD, when given, is printed under the
title (how fio was placed)."""
import statistics
import sys

raw, kver, secs = sys.argv[1:4]
method = sys.argv[4] if len(sys.argv) > 4 else ""
runs = {}
for line in open(raw):
    f = line.split()
    if len(f) < 8:
        continue
    kv = dict(x.split("=", 1) for x in f if "=" in x)
    drv = f[1]
    key = (int(kv["qd"]), int(kv["jobs"]))
    runs.setdefault(key, {}).setdefault(drv, {})[int(kv["round"])] = {
        "iops": float(kv["iops"]), "mean": float(kv["mean_us"]),
        "p99": float(kv["p99_us"]), "ipi": float(kv["irq_per_io"]),
    }

med = statistics.median
print("make bench: 4K random read, %s s per run, kernel %s, emulated NVMe (QEMU TCG)"
      % (secs, kver))
if method:
    print("fio " + method)
print("medians over rounds; ratio = median over rounds of ssdtune/nvme in the same round;")
print("IOPS range = lowest and highest of those per-round ratios")
hdr = "%-9s %-8s %6s %9s %10s %10s %8s" % ("point", "driver", "rounds", "IOPS",
                                           "mean us", "p99 us", "irq/IO")
print(hdr)
print("-" * len(hdr))
for key in sorted(runs, key=lambda k: (k[1], k[0])):
    point = "QD%d j%d" % key
    d = runs[key]
    for drv in ("nvme", "ssdtune"):
        rs = d.get(drv, {})
        if not rs:
            continue
        v = list(rs.values())
        print("%-9s %-8s %6d %9.0f %10.1f %10.1f %8.3f" % (
            point, drv, len(v), med(x["iops"] for x in v), med(x["mean"] for x in v),
            med(x["p99"] for x in v), med(x["ipi"] for x in v)))
    a, b = d.get("nvme", {}), d.get("ssdtune", {})
    common = sorted(set(a) & set(b))
    if common:
        def ratios(m, inv=False):
            rs = []
            for r in common:
                x, y = a[r][m], b[r][m]
                if inv:
                    rs.append(x / y if y else float("nan"))
                else:
                    rs.append(y / x if x else float("nan"))
            return rs
        iops = ratios("iops")
        print("%-9s %-8s %6d %9.3f %10.2f %10.2f %8s   <- IOPS ratio >= 1.00 %s (range %.2f-%.2f)" % (
            point, "ratio", len(common), med(iops), med(ratios("mean", True)),
            med(ratios("p99", True)), "",
            "met" if med(iops) >= 1.0 else "NOT met", min(iops), max(iops)))
print("latency ratios are nvme/ssdtune (>1: ssdtune faster)")
