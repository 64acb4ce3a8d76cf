#!/usr/bin/env python3
"""profiletable.py RAW[,RAW...] KVER SECS NOTE: the profile table of
scripts/bench/guest/profiles.sh's raw lines
  round=R arm=ARM cell=NAME engine=E rw=RW bs=BS <fiojson.py's line>
Each profile against untuned stock nvme at each of its cells: the median
over the rounds of the per-round ratio (profile/stock) of IOPS, p99 and
CPU per I/O, with the sign-test interval of ratioci.py and a verdict on
the goals (IOPS >= 1.0, p99 <= 1.0).  A polled cell (io_uring-hipri) is
measured against stock's io_uring at the same depth: untuned stock has no
poll queue.  Several RAW files, comma-separated, are pooled (rounds are
numbered apart per file)."""
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ratioci import median_ci  # noqa: E402

GOALS = (("iops", 1.0, True), ("p99_us", 1.0, False))


def load(paths):
    """{(arm, cell, engine): {round: fields}}"""
    d = {}
    for n, path in enumerate(paths.split(",")):
        for line in open(path):
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if "arm" not in kv or "iops" not in kv:
                continue
            key = (kv["arm"], kv["cell"], kv["engine"])
            r = "%d.%s" % (n, kv["round"])
            d.setdefault(key, {})[r] = {k: float(v) for k, v in kv.items()
                                        if k not in ("arm", "cell", "engine", "rw", "bs", "round")
                                        and v.replace(".", "", 1).isdigit()}
    return d


def base_of(cell, engine):
    return (cell.replace("-poll", ""), "io_uring") if engine == "io_uring-hipri" else (cell, engine)


def fmt(xs, bound=None, at_least=True):
    """median [lo-hi] and a verdict word (when a bound is given)"""
    xs = sorted(x for x in xs if x == x)
    if not xs:
        return "-", ""
    med = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    ci = median_ci(xs)
    s = "%.2f" % med + (" [%.2f-%.2f]" % (ci[0], ci[1]) if ci else " [-]")
    if bound is None:
        return s, ""
    if ci is None:
        return s, "few"
    lo, hi = ci[0], ci[1]
    good, bad = (lo >= bound, hi < bound) if at_least else (hi <= bound, lo > bound)
    return s, "met" if good else "MISSED" if bad else "unresolved"


def main():
    paths, kver, secs, note = sys.argv[1:5]
    d = load(paths)
    profiles = []
    for arm, _, _ in d:
        if arm != "nvme" and arm not in profiles:
            profiles.append(arm)
    order = ["latency", "iops", "throughput", "balanced"]
    profiles.sort(key=lambda p: order.index(p) if p in order else 99)
    rounds = max((len(v) for v in d.values()), default=0)
    print("ssdtune's profiles applied, against untuned stock nvme (%s; %s s runs; %s)" % (kver, secs, note))
    print("ratio profile/stock per round: median [interval, >= 90%% coverage over %d rounds]; "
          "goals: IOPS >= 1.0, p99 <= 1.0 (met: the whole interval; MISSED: none of it)" % rounds)
    hdr = "%-10s %-9s %-14s %8s %8s  %-17s %-10s  %-17s %-10s  %-17s %6s %6s" % (
        "profile", "cell", "engine", "stock", "profile", "IOPS", "", "p99", "", "CPU/IO", "irq/IO", "ipi/IO")
    print(hdr)
    print("-" * len(hdr))
    summary = {"met": 0, "unresolved": 0, "MISSED": 0, "few": 0}
    for p in profiles:
        for (arm, cell, engine) in sorted((k for k in d if k[0] == p), key=lambda k: list(d).index(k)):
            a = d[(arm, cell, engine)]
            b = d.get(("nvme",) + base_of(cell, engine), {})
            rs = sorted(set(a) & set(b))
            if not rs:
                continue

            def ratio(m):
                return [a[r][m] / b[r][m] if b[r].get(m) else float("nan") for r in rs]
            cols = []
            for m, bound, at_least in GOALS:
                s, w = fmt(ratio(m), bound, at_least)
                summary[w] = summary.get(w, 0) + 1
                cols += [s, w]
            cpu, _ = fmt(ratio("cpu_us_per_io"))
            med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
            print("%-10s %-9s %-14s %8.0f %8.0f  %-17s %-10s  %-17s %-10s  %-17s %6.2f %6.2f" % (
                p, cell, engine, med([b[r]["iops"] for r in rs]), med([a[r]["iops"] for r in rs]),
                cols[0], cols[1], cols[2], cols[3], cpu,
                med([a[r].get("irq_per_io", 0) for r in rs]), med([a[r].get("ipi_per_io", 0) for r in rs])))
    print()
    print("stock's own irq/IO and ipi/IO at the same cells:")
    for (arm, cell, engine), a in d.items():
        if arm == "nvme":
            rs = sorted(a)
            print("  %-9s %-9s irq/IO %.2f  ipi/IO %.2f" % (
                cell, engine, sorted(a[r].get("irq_per_io", 0) for r in rs)[len(rs) // 2],
                sorted(a[r].get("ipi_per_io", 0) for r in rs)[len(rs) // 2]))
    print()
    print("goals: %d met, %d not resolved, %d missed" % (
        summary["met"], summary["unresolved"] + summary["few"], summary["MISSED"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
