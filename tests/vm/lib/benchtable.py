#!/usr/bin/env python3
"""benchtable.py RAW KVER SECS [METHOD]: the make-bench table from
bench-guest.sh's raw lines ("round=R ARM qd=Q jobs=J iops=.. mean_us=..
p99_us=.. irq_per_io=.. err=..").  METHOD, when given, is printed under the
title (how fio was placed).  RAW may be several files joined by commas
(runs of separate `make bench`es): their rounds are pooled, each file's
numbered after the previous file's.

ARM is nvme (the baseline), ssdtune, or another ssdtune setting such as
ssdtune+adaptive.  Every arm but nvme gets a ratio row: medians over the
rounds of arm/nvme in the same round, and for IOPS a distribution-free
confidence interval of that median (order statistics of the per-round
ratios, the sign test's interval) with the verdict on the target
"IOPS ratio >= 1.00": met when the whole interval is at or above 1.00,
NOT met when it is all below, otherwise not resolved by this run."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratioci import verdict  # noqa: E402


def main():
    raw, kver, secs = sys.argv[1:4]
    method = sys.argv[4] if len(sys.argv) > 4 else ""
    runs, arms, base = {}, [], 0
    for path in raw.split(","):
        top = base
        for line in open(path):
            f = line.split()
            if len(f) < 8:
                continue
            kv = dict(x.split("=", 1) for x in f if "=" in x)
            arm = f[1]
            if arm not in arms:
                arms.append(arm)
            key = (int(kv["qd"]), int(kv["jobs"]))
            rnd = base + int(kv["round"])
            top = max(top, rnd)
            runs.setdefault(key, {}).setdefault(arm, {})[rnd] = {
                "iops": float(kv["iops"]), "mean": float(kv["mean_us"]),
                "p99": float(kv["p99_us"]), "ipi": float(kv["irq_per_io"]),
            }
        base = top
    arms.sort(key=lambda a: (a != "nvme", a))

    med = statistics.median
    print("make bench: 4K random read, %s s per run, kernel %s, emulated NVMe (QEMU TCG)"
          % (secs, kver))
    if method:
        print("fio " + method)
    print("medians over rounds; ARM/nvme = median over rounds of ARM/nvme in the same round;")
    print("IOPS verdict on the target ARM/nvme >= 1.00 from the interval of that median")
    hdr = "%-9s %-24s %6s %9s %10s %10s %8s" % ("point", "driver", "rounds", "IOPS",
                                                "mean us", "p99 us", "irq/IO")
    print(hdr)
    print("-" * len(hdr))
    for key in sorted(runs, key=lambda k: (k[1], k[0])):
        point = "QD%d j%d" % key
        d = runs[key]
        for arm in arms:
            v = list(d.get(arm, {}).values())
            if not v:
                continue
            print("%-9s %-24s %6d %9.0f %10.1f %10.1f %8.3f" % (
                point, arm, len(v), med(x["iops"] for x in v),
                med(x["mean"] for x in v), med(x["p99"] for x in v),
                med(x["ipi"] for x in v)))
        base = d.get("nvme", {})
        for arm in arms:
            b = d.get(arm, {})
            common = sorted(set(base) & set(b))
            if arm == "nvme" or not common:
                continue

            def ratios(m, inv=False):
                rs = []
                for r in common:
                    x, y = base[r][m], b[r][m]
                    if inv:
                        x, y = y, x
                    rs.append(y / x if x else float("nan"))
                return rs
            iops = ratios("iops")
            print("%-9s %-24s %6d %9.3f %10.2f %10.2f %8s   <- %s" % (
                point, arm + "/nvme", len(common), med(iops),
                med(ratios("mean", True)), med(ratios("p99", True)), "",
                verdict(iops, 1.0)))
    print("latency ratios are nvme/ARM (>1: ARM faster)")


if __name__ == "__main__":
    main()
