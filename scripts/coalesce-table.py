#!/usr/bin/env python3
"""coalesce-table.py RAW KVER SECS DAT: the make-bench-coalesce table from
bench-coalesce-guest.sh's raw lines, and DAT, a gnuplot data file (one
block per setting, rows: rw index, qd, irq/IO, p50 us, IOPS)."""
import sys

raw, kver, secs, dat = sys.argv[1:5]
rows = []
for line in open(raw):
    kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
    if "setting" in kv:
        rows.append(kv)

print("make bench-coalesce: 4K, %s s per run, kernel %s, QEMU TCG emulated NVMe"
      % (secs, kver))
print("irq/IO from queues/qK interrupts/completed; CPU = guest non-idle share")
hdr = "%-9s %-15s %4s %7s %8s %8s %9s %7s %5s" % (
    "rw", "setting", "QD", "IOPS", "p50 us", "p99 us", "p99.99us", "irq/IO", "CPU%")
print(hdr)
print("-" * len(hdr))
for r in rows:
    print("%-9s %-15s %4s %7s %8s %8s %9s %7s %5s" % (
        r["rw"], r["setting"], r["qd"], r["iops"], r["p50_us"], r["p99_us"],
        r["p9999_us"], r["irq_per_io"], r["cpu_pct"]))

settings = []
for r in rows:
    if r["setting"] not in settings:
        settings.append(r["setting"])
rws = []
for r in rows:
    if r["rw"] not in rws:
        rws.append(r["rw"])
with open(dat, "w") as f:
    for n, s in enumerate(settings):
        if n:
            f.write("\n\n")
        f.write('"%s"\n' % s)
        for r in rows:
            if r["setting"] == s:
                f.write("%d %s %s %s %s\n" % (rws.index(r["rw"]), r["qd"],
                                             r["irq_per_io"], r["p50_us"], r["iops"]))
