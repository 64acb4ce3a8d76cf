#!/usr/bin/env python3
"""benchtable.py RAW KVER SECS: the make-bench table from bench-guest.sh's
raw lines ("round=R DRIVER qd=Q jobs=J iops=.. mean_us=.. p99_us=..
irq_per_io=.. err=..")."""
import statistics
import sys

raw, kver, secs = sys.argv[1:4]
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
print("medians over rounds; ratio = median over rounds of ssdtune/nvme in the same round")
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
        def ratio(m, inv=False):
            rs = []
            for r in common:
                x, y = a[r][m], b[r][m]
                if inv:
                    rs.append(x / y if y else float("nan"))
                else:
                    rs.append(y / x if x else float("nan"))
            return med(rs)
        print("%-9s %-8s %6d %9.2f %10.2f %10.2f %8s   <- IOPS ratio >= 1.00 %s" % (
            point, "ratio", len(common), ratio("iops"), ratio("mean", True),
            ratio("p99", True), "",
            "met" if ratio("iops") >= 1.0 else "NOT met"))
print("latency ratios are nvme/ssdtune (>1: ssdtune faster)")
