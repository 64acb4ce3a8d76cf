#!/usr/bin/env python3
"""demo-plot.py DIR: the picture make demo points at.

Reads DIR/stock/bench.json and DIR/ssdtune/bench.json (ssdtune bench
reports of the same job on the stock nvme driver and on ssdtune) and
writes DIR/stock-vs-ssdtune.dat, .gp and, with gnuplot, .png: IOPS and
p99 completion latency per queue depth, the two drivers side by side
(the median of each cell's rounds).  Prints the PNG's path; exits 1 with
one line when a report is missing or holds no cell; without gnuplot it
says so on stderr, prints no path and exits 0 (the .dat and .gp are
there to plot by hand)."""
import json
import os
import shutil
import subprocess
import sys

DRIVERS = ("stock", "ssdtune")


def medians(path):
    """{qd: (iops, p99_us)} of the report's cells."""
    with open(path) as f:
        rep = json.load(f)
    out = {}
    for cell in (rep.get("cells") or {}).values():
        summ = cell.get("summary") or {}
        iops = (summ.get("iops") or {}).get("median")
        p99 = (summ.get("clat_p99_us") or {}).get("median")
        if cell.get("qd") is None or iops is None or p99 is None:
            continue
        out[int(cell["qd"])] = (iops, p99)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: demo-plot.py DIR")
    d = sys.argv[1]
    data = {}
    for drv in DRIVERS:
        p = os.path.join(d, drv, "bench.json")
        try:
            data[drv] = medians(p)
        except (OSError, ValueError) as e:
            sys.exit("demo-plot: cannot read %s: %s" % (p, e))
        if not data[drv]:
            sys.exit("demo-plot: %s has no cell with IOPS and p99" % p)
    qds = sorted(set(data["stock"]) & set(data["ssdtune"]))
    if not qds:
        sys.exit("demo-plot: the two reports share no queue depth")
    base = os.path.join(d, "stock-vs-ssdtune")
    with open(base + ".dat", "w") as f:
        f.write("# qd stock_iops ssdtune_iops stock_p99_us ssdtune_p99_us\n")
        for qd in qds:
            s, t = data["stock"][qd], data["ssdtune"][qd]
            f.write("QD%d %g %g %g %g\n" % (qd, s[0], t[0], s[1], t[1]))
    with open(base + ".gp", "w") as f:
        f.write("""set terminal pngcairo size 1000,450
set output 'stock-vs-ssdtune.png'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key top left
set multiplot layout 1,2 title '4k random read, the same emulated NVMe: stock nvme and ssdtune (median of the rounds)'
set title 'IOPS (higher is better)'
plot 'stock-vs-ssdtune.dat' using 2:xtic(1) title 'stock nvme', '' using 3 title 'ssdtune'
set title 'p99 completion latency, us (lower is better)'
plot 'stock-vs-ssdtune.dat' using 4:xtic(1) title 'stock nvme', '' using 5 title 'ssdtune'
unset multiplot
""")
    if not shutil.which("gnuplot"):
        print("demo-plot: gnuplot is not installed: %s.dat and .gp are there to plot" % base,
              file=sys.stderr)
        return 0
    r = subprocess.run(["gnuplot", "stock-vs-ssdtune.gp"], cwd=d,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        sys.exit("demo-plot: gnuplot failed: %s" % why)
    print(base + ".png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
