#!/usr/bin/env python3
"""fiojson.py FIO.json LABEL QD JOBS IRQ_DELTA: one line of read results.

IRQ_DELTA counts the device's interrupts over the whole fio run, ramp-up
included; it is divided by every read fio completed in that time (the ramp
I/O is not in the JSON's io counts, so it is estimated from the rate)."""
import json
import sys

path, label, qd, jobs, irqs = sys.argv[1:6]
with open(path) as f:
    text = f.read()
# fio may print warnings before the JSON object
data = json.loads(text[text.index("{"):])
job = data["jobs"][0]
r = job["read"]
iops = r["iops"]
clat = r["clat_ns"]
p99 = clat.get("percentile", {}).get("99.000000", 0) / 1000.0
mean = clat["mean"] / 1000.0
ios = r["total_ios"]
# the 1 s ramp is not counted in total_ios: add it at the measured rate
ios_all = ios + iops * 1.0
per_io = int(irqs) / ios_all if ios_all else 0.0
errs = job.get("error", 0)
print("%s qd=%s jobs=%s iops=%.0f mean_us=%.1f p99_us=%.1f irq_per_io=%.3f err=%d"
      % (label, qd, jobs, iops, mean, p99, per_io, errs))
