#!/usr/bin/env python3
"""scaletable.py RAW KVER NOTE: the table of scripts/bench/guest/scale.sh's
raw lines
  round=R arm=ARM devices=K iops= p99_us= irq_per_io= cpu_us_per_io= normalized_iops=
Per arm and number of devices: the aggregate IOPS (median over rounds),
its scaling (the aggregate over K times the first device's alone, as
ssdtune bench --scale gives it), and against stock nvme at the same K the
median of the per-round ratios of IOPS, p99, interrupts per I/O and CPU
per I/O, with the sign-test interval (ratioci.py).  The goals of the iops
profile at the most devices: IOPS >= 1.0, interrupts per I/O <= 0.5."""
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from profiletable import fmt  # noqa: E402

GOALS = {"iops": [("iops", 1.0, True), ("irq_per_io", 0.5, False)]}


def load(path):
    """{(arm, devices): {round: fields}}, arms in the order first seen"""
    d, arms = {}, []
    for line in open(path):
        kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "arm" not in kv or "iops" not in kv:
            continue
        if kv["arm"] not in arms:
            arms.append(kv["arm"])
        d.setdefault((kv["arm"], int(kv["devices"])), {})[kv["round"]] = {
            k: float(v) for k, v in kv.items() if k not in ("arm", "round", "devices")}
    return d, arms


def med(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    path, kver, note = sys.argv[1:4]
    d, arms = load(path)
    ks = sorted({k for _, k in d})
    rounds = max((len(v) for v in d.values()), default=0)
    print("four controllers at once, two per node: ssdtune against untuned stock nvme (%s; %s)" % (kver, note))
    print("aggregate IOPS (median over %d rounds) and scaling (aggregate / (K x one device's));" % rounds)
    print("ratios arm/stock at the same K per round: median [interval, >= 90% coverage]")
    hdr = "%-8s %2s %9s %7s  %-17s %-17s %-17s %-17s" % (
        "arm", "K", "IOPS", "scaling", "IOPS", "p99", "irq/IO", "CPU/IO")
    print(hdr)
    print("-" * len(hdr))
    verdicts = []
    for arm in arms:
        for k in ks:
            a = d.get((arm, k))
            if not a:
                continue
            line = "%-8s %2d %9.0f %7.2f" % (arm, k, med([f["iops"] for f in a.values()]),
                                             med([f["normalized_iops"] for f in a.values()]))
            b = d.get(("nvme", k), {})
            rs = sorted(set(a) & set(b))
            if arm != "nvme" and rs:
                for m in ("iops", "p99_us", "irq_per_io", "cpu_us_per_io"):
                    xs = [a[r][m] / b[r][m] if b[r][m] else float("nan") for r in rs]
                    goal = [g for g in GOALS.get(arm, []) if g[0] == m]
                    if goal and k == ks[-1]:
                        s, w = fmt(xs, goal[0][1], goal[0][2])
                        verdicts.append("%s at %d devices: %s %s %.1f: %s %s" % (
                            arm, k, m, ">=" if goal[0][2] else "<=", goal[0][1], s, w))
                    else:
                        s, _ = fmt(xs)
                    line += "  %-17s" % s
            print(line)
    print()
    one = d.get(("nvme", ks[0]), {})
    most = d.get(("nvme", ks[-1]), {})
    if one and most:
        r1 = med([f["iops"] for f in one.values()])
        rn = med([f["iops"] for f in most.values()])
        print("where the limit lies: stock gives %.0f IOPS on one device and %.0f on %d (%.2fx);"
              % (r1, rn, ks[-1], rn / r1 if r1 else float("nan")))
        print("  the guest's vCPUs run under TCG on the host's cores, so the aggregate stays near one")
        print("  device's rate: the host, not the devices, is the limit, and only the ratios between")
        print("  the arms at the same K carry over to a real host")
    print()
    for v in verdicts:
        print("goal: " + v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
