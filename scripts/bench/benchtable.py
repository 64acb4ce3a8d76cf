#!/usr/bin/env python3
"""benchtable.py RAW KVER SECS [METHOD]: the make-bench table from
guest/bench.sh's raw lines ("round=R ARM qd=Q jobs=J iops=.. mean_us=..
p99_us=.. irq_per_io=.. err=.. p50_us=.. cpu_us_per_io=.."; lines of
earlier benches without the last two fields read as 0 there).  METHOD,
when given, is printed under the title.  RAW may be several files joined
by commas (runs of separate `make bench`es): their rounds are pooled, each
file's numbered after the previous file's.

ARM is nvme, ssdtune, ssdtune+PROFILE, nvme-poll, ssdtune-poll or
ssdtune-latency.  Per QD
(and number of jobs, shown as QDxJOBS when more than one)
the table gives each arm's medians over the rounds, then ratio rows: the
median over the rounds of ARM/BASE measured in the same round, with the
distribution-free interval of that median (scripts/bench/ratioci.py, at
least 90%).  Every ratio is ARM/BASE: above 1 is better for IOPS, below 1
better for latency and CPU.  The cost pass's lines ("cost ARM qd=Q ...",
scripts/bench/costline.py) follow as a table of what each I/O costs.  The
goals of issues 19 and 36 close the table, each with its verdict from the
interval."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratioci import median_ci, verdict  # noqa: E402

FIELDS = {"iops": "iops", "p50": "p50_us", "p99": "p99_us",
          "ipi": "irq_per_io", "cpu": "cpu_us_per_io"}
# (arm, base): the comparisons, in the order printed
PAIRS = [("ssdtune", "nvme"), ("ssdtune-poll", "nvme-poll"),
         ("nvme-poll", "nvme"), ("ssdtune-poll", "ssdtune"),
         ("ssdtune-latency", "nvme"), ("ssdtune-latency", "nvme-poll")]
ORDER = {"nvme": 0, "ssdtune": 1, "nvme-poll": 8, "ssdtune-poll": 9,
         "ssdtune-latency": 10}


def load(paths, fields=None):
    """{(qd, jobs): {arm: {round: {field: value}}}} from the raw lines;
    fields maps a name to the raw key (default FIELDS)."""
    fields = fields or FIELDS
    runs, base = {}, 0
    for path in paths.split(","):
        top = base
        for line in open(path):
            f = line.split()
            if len(f) < 8 or not f[0].startswith("round="):
                continue
            kv = dict(x.split("=", 1) for x in f if "=" in x)
            rnd = base + int(kv["round"])
            top = max(top, rnd)
            key = (int(kv["qd"]), int(kv.get("jobs", 1)))
            runs.setdefault(key, {}).setdefault(f[1], {})[rnd] = {
                k: float(kv.get(v, 0)) for k, v in fields.items()}
        base = top
    return runs


COST = ("mmio_w", "mmio_r", "db_sq", "db_cq", "msix", "evidx",
        "usr", "sys", "irq", "softirq", "idle", "busy")


def load_cost(paths):
    """The cost pass's lines ("cost ARM qd=Q ios=N ..."), last one wins."""
    cost = {}
    for path in paths.split(","):
        for line in open(path):
            f = line.split()
            if len(f) < 4 or f[0] != "cost":
                continue
            kv = dict(x.split("=", 1) for x in f if "=" in x)
            cost[(int(kv["qd"]), f[1])] = kv
    return cost


def print_cost(cost, arms):
    print("cost per I/O (cost pass: one run per arm with QEMU's trace events on, so slower;")
    print("device accesses counted by QEMU; guest CPU from /proc/stat, all vCPUs, in us;")
    print("busy%: the busiest vCPU's share of the run not idle)")
    hdr = "%-6s %-18s %6s %7s %7s %6s %6s %6s %6s %7s %7s %6s %7s %7s %5s" % (
        "QD", "arm", "IOs", "MMIO wr", "MMIO rd", "SQ db", "CQ db", "MSI-X",
        "evidx", "usr", "sys", "irq", "softirq", "idle", "busy%")
    print(hdr)
    print("-" * len(hdr))
    order = {a: i for i, a in enumerate(arms)}
    for qd, arm in sorted(cost, key=lambda k: (k[0], order.get(k[1], 99), k[1])):
        kv = cost[(qd, arm)]
        v = [float(kv.get(k, 0)) for k in COST]
        print("%-6s %-18s %6s %7.3f %7.3f %6.3f %6.3f %6.3f %6.3f %7.1f %7.1f %6.1f %7.1f %7.1f %5.0f"
              % ("QD%d" % qd, arm, kv["ios"], *v))
    print()


def ratios(d, arm, base, m):
    a, b = d.get(arm, {}), d.get(base, {})
    return [a[r][m] / b[r][m] if b[r][m] else float("nan")
            for r in sorted(set(a) & set(b))]


def cell(xs):
    """median [lo-hi] of per-round ratios, or '-' when there are none."""
    if not xs:
        return "-"
    ci = median_ci(xs)
    med = statistics.median(xs)
    if ci is None:
        return "%.2f [n=%d]" % (med, len(xs))
    return "%.2f [%.2f-%.2f]" % (med, ci[0], ci[1])


def pairs(arms):
    out = []
    for a in arms:
        if a.startswith("ssdtune+"):
            out += [(a, "nvme"), (a, "ssdtune")]
    return [p for p in PAIRS[:1] + out + PAIRS[1:]
            if p[0] in arms and p[1] in arms]


def goals(runs, arms):
    """Issue 19's and 36's goals, one line each: (text, verdict)."""
    g = []
    q32, q1 = runs.get((32, 1), {}), runs.get((1, 1), {})
    if "ssdtune" in arms:
        qds = sorted(q for q, j in runs if j == 1)
        for qd in qds:
            g.append(("parity (36): QD%d IOPS ssdtune/nvme >= 0.97" % qd,
                      verdict(ratios(runs[(qd, 1)], "ssdtune", "nvme", "iops"), 0.97)))
        pooled = [x for qd in qds
                  for x in ratios(runs[(qd, 1)], "ssdtune", "nvme", "iops")]
        if len(qds) > 1:
            g.append(("parity (36): IOPS ssdtune/nvme >= 0.97, the QDs pooled",
                      verdict(pooled, 0.97)))
        g.append(("defaults: QD32 IOPS ssdtune/nvme >= 1.10",
                  verdict(ratios(q32, "ssdtune", "nvme", "iops"), 1.10)))
        g.append(("defaults: QD1 p50 ssdtune/nvme <= 1.05",
                  verdict(ratios(q1, "ssdtune", "nvme", "p50"), 1.05, False)))
    best = [a for a in arms if a == "ssdtune" or a.startswith("ssdtune+")]
    if best and q32:
        arm = max(best, key=lambda a: statistics.median(
            ratios(q32, a, "nvme", "iops") or [0]))
        g.append(("best profile (%s): QD32 IOPS %s/nvme >= 1.25" % (arm, arm),
                  verdict(ratios(q32, arm, "nvme", "iops"), 1.25)))
        g.append(("best profile (%s): QD32 CPU/IO %s/nvme <= 0.80" % (arm, arm),
                  verdict(ratios(q32, arm, "nvme", "cpu"), 0.80, False)))
    if "ssdtune-poll" in arms and "nvme-poll" in arms:
        g.append(("polled: QD1 IOPS ssdtune-poll/nvme-poll >= 1.00",
                  verdict(ratios(q1, "ssdtune-poll", "nvme-poll", "iops"), 1.0)))
    if "ssdtune-latency" in arms:
        for m, goal, above in (("iops", 1.7, True), ("p50", 0.6, False),
                               ("p99", 0.8, False)):
            g.append(("latency profile (36): QD1 %s ssdtune-latency/nvme %s %.2f"
                      % ("IOPS" if m == "iops" else m, ">=" if above else "<=", goal),
                      verdict(ratios(q1, "ssdtune-latency", "nvme", m), goal, above)))
    for a in arms:
        if a.startswith("ssdtune+") and "ssdtune" in arms:
            for m in ("p50", "p99"):
                g.append(("%s as default: QD1 %s %s/ssdtune <= 1.05" % (a[8:], m, a),
                          verdict(ratios(q1, a, "ssdtune", m), 1.05, False)))
    return g


def main():
    raw, kver, secs = sys.argv[1:4]
    method = sys.argv[4] if len(sys.argv) > 4 else ""
    runs, cost = load(raw), load_cost(raw)
    arms = sorted({a for d in runs.values() for a in d} | {a for _, a in cost},
                  key=lambda a: (ORDER.get(a, 2), a))
    med = statistics.median
    print("make bench: 4K random read, %s s per run, kernel %s, emulated NVMe (QEMU TCG)"
          % (secs, kver))
    if method:
        print("fio " + method)
    print("medians over the rounds; ratios ARM/BASE: median over the rounds of the same-round")
    print("ratio [its interval, >= 90%]; IOPS above 1 is better, p50, p99 and CPU below 1")
    hdr = "%-6s %-28s %6s %9s %9s %9s %8s %10s" % (
        "QD", "arm", "rounds", "IOPS", "p50 us", "p99 us", "irq/IO", "CPU us/IO")
    print(hdr)
    print("-" * len(hdr))
    for key in sorted(runs, key=lambda k: (k[1], k[0])):
        d = runs[key]
        qd = "QD%d" % key[0] if key[1] == 1 else "QD%dx%d" % key
        for arm in arms:
            v = list(d.get(arm, {}).values())
            if v:
                print("%-6s %-28s %6d %9.0f %9.1f %9.1f %8.3f %10.2f" % (
                    qd, arm, len(v), med(x["iops"] for x in v),
                    med(x["p50"] for x in v), med(x["p99"] for x in v),
                    med(x["ipi"] for x in v), med(x["cpu"] for x in v)))
        for arm, base in pairs(arms):
            n = len(ratios(d, arm, base, "iops"))
            if not n:
                continue
            print("%-6s %-28s %6d  IOPS %s  p50 %s  p99 %s  CPU/IO %s" % (
                qd, "%s/%s" % (arm, base), n,
                *(cell(ratios(d, arm, base, m)) for m in ("iops", "p50", "p99", "cpu"))))
        print()
    if cost:
        print_cost(cost, arms)
    g = goals(runs, arms)
    if g:
        print("goals (issues 19 and 36):")
        w = max(len(t) for t, _ in g)
        for t, v in g:
            print("  %-*s  %s" % (w, t, v))


if __name__ == "__main__":
    main()
