#!/usr/bin/env python3
"""demo-plot.py DIR: the table and the picture make demo ends with.

Reads DIR/demo.raw (scripts/bench/guest/demo.sh: one line per run,
  round=R arm=ARM job=JOB engine=E pin=CPU <fiojson.py's line>
with ARM stock, defaults or tuned) and DIR/about.txt (one line on the run),
and writes DIR/summary.txt: per job and arm the median over the rounds of
IOPS, p50, p99 and CPU time per I/O, and for ssdtune's two arms the
median of the per-round ratios to stock with the sign-test interval
(ratioci.py) and a verdict: "better" or "worse" only when the whole
interval is on that side of 1.0, else "within noise" (fewer than 5
rounds: no interval, "too few rounds").  Also DIR/demo.dat, .gp and,
with gnuplot, demo.png: IOPS and p99 per job, the three arms side by
side.  Prints the PNG's path; exits 1 with one line when the raw file is
missing or lacks an arm; without gnuplot it says so on stderr, prints no
path and exits 0."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratioci import median_ci  # noqa: E402

ARMS = ("stock", "defaults", "tuned")
JOBS = ("qd1-io_uring", "qd1-libaio", "qd32-io_uring")
METRICS = ("iops", "p50_us", "p99_us", "cpu_us_per_io")


def load(path):
    """{(arm, job): {round: {metric: value, "engine": e}}}"""
    d = {}
    with open(path) as f:
        for line in f:
            kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
            if "arm" not in kv or "iops" not in kv:
                continue
            run = {m: float(kv[m]) for m in METRICS if m in kv}
            run["engine"] = kv.get("engine", "")
            d.setdefault((kv["arm"], kv["job"]), {})[kv["round"]] = run
    return d


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else float("nan")


def verdict(xs, higher_is_better):
    """'1.85 [1.70-1.92] better' from per-round ratios to stock"""
    ci = median_ci(xs)
    s = "%.2f" % median(xs)
    if ci is None:
        return s + " (too few rounds)"
    lo, hi = ci[0], ci[1]
    better, worse = (lo > 1.0, hi < 1.0) if higher_is_better else (hi < 1.0, lo > 1.0)
    return "%s [%.2f-%.2f] %s" % (s, lo, hi, "better" if better else "worse" if worse else "within noise")


def table(d, about):
    out = [about, "median of the rounds; ssdtune's arms against stock: the median of the per-round",
           "ratios [interval, >= 90% coverage], better/worse only when the whole interval says so", ""]
    hdr = "%-14s %-9s %-15s %8s %8s %8s %8s  %-30s %-30s" % (
        "job", "arm", "engine", "IOPS", "p50 us", "p99 us", "CPU/IO", "IOPS vs stock", "p99 vs stock")
    out += [hdr, "-" * len(hdr)]
    for job in JOBS:
        base = d[("stock", job)]
        for arm in ARMS:
            runs = d[(arm, job)]
            rs = sorted(set(runs) & set(base))
            med = {m: median([runs[r][m] for r in runs if m in runs[r]]) for m in METRICS}
            eng = next(iter(runs.values()))["engine"]
            cmp_i = cmp_p = ""
            if arm != "stock":
                cmp_i = verdict([runs[r]["iops"] / base[r]["iops"] for r in rs], True)
                cmp_p = verdict([runs[r]["p99_us"] / base[r]["p99_us"] for r in rs], False)
            out.append("%-14s %-9s %-15s %8.0f %8.1f %8.1f %8.1f  %-30s %-30s" % (
                job if arm == "stock" else "", arm, eng, med["iops"], med["p50_us"],
                med["p99_us"], med["cpu_us_per_io"], cmp_i, cmp_p))
    out += ["", "CPU/IO: fio's own CPU time per I/O in us (a polled job spins: more CPU for less latency)",
            "(TCG emulation: absolute numbers say little; the same device and jobs for every arm)"]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: demo-plot.py DIR")
    d = sys.argv[1]
    raw = os.path.join(d, "demo.raw")
    try:
        data = load(raw)
        about = open(os.path.join(d, "about.txt")).read().strip() \
            if os.path.exists(os.path.join(d, "about.txt")) else "4K random read"
    except (OSError, ValueError) as e:
        sys.exit("demo-plot: cannot read %s: %s" % (raw, e))
    for arm in ARMS:
        for job in JOBS:
            if not data.get((arm, job)):
                sys.exit("demo-plot: %s has no %s run of %s" % (raw, arm, job))
    with open(os.path.join(d, "summary.txt"), "w") as f:
        f.write(table(data, about))
    base = os.path.join(d, "demo")
    with open(base + ".dat", "w") as f:
        f.write("# job " + " ".join("%s_iops" % a for a in ARMS) + " " +
                " ".join("%s_p99_us" % a for a in ARMS) + "\n")
        for job in JOBS:
            iops = [median([r["iops"] for r in data[(a, job)].values()]) for a in ARMS]
            p99 = [median([r["p99_us"] for r in data[(a, job)].values()]) for a in ARMS]
            f.write("%s %s %s\n" % (job, " ".join("%g" % x for x in iops),
                                    " ".join("%g" % x for x in p99)))
    with open(base + ".gp", "w") as f:
        f.write("""set terminal pngcairo size 1100,450 noenhanced
set output 'demo.png'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key top left
set multiplot layout 1,2 title '4K random read, one emulated NVMe: stock nvme, ssdtune attached, ssdtune with apply --profile latency (medians)'
set title 'IOPS (higher is better)'
plot 'demo.dat' using 2:xtic(1) title 'stock', '' using 3 title 'ssdtune defaults', '' using 4 title 'ssdtune tuned'
set title 'p99 completion latency, us (lower is better)'
plot 'demo.dat' using 5:xtic(1) title 'stock', '' using 6 title 'ssdtune defaults', '' using 7 title 'ssdtune tuned'
unset multiplot
""")
    if not shutil.which("gnuplot"):
        print("demo-plot: gnuplot is not installed: %s.dat and .gp are there to plot" % base,
              file=sys.stderr)
        return 0
    r = subprocess.run(["gnuplot", "demo.gp"], cwd=d, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        sys.exit("demo-plot: gnuplot failed: %s" % why)
    print(base + ".png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
