#!/usr/bin/env python3
"""fiojson.py FIO.json LABEL QD JOBS IRQ_DELTA: one line of read results,
  LABEL qd=Q jobs=J iops=N mean_us=N p99_us=N irq_per_io=N err=N p50_us=N cpu_us_per_io=N
(the first fields in the order demo-guest.sh reads them).

IRQ_DELTA counts the device's interrupts over the whole fio run, ramp-up
included; it is divided by every read fio completed in that time (the ramp
I/O is not in the JSON's io counts, so it is estimated from the rate).
cpu_us_per_io is fio's own CPU time (usr + sys of its jobs, measured after
the ramp) over the reads it completed: what an I/O costs the submitting
thread, including the polling of a polled run and any interrupt that
lands on that CPU while it runs."""
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
pct = clat.get("percentile", {})
p50 = pct.get("50.000000", 0) / 1000.0
p99 = pct.get("99.000000", 0) / 1000.0
mean = clat["mean"] / 1000.0
ios = r["total_ios"]
# the 1 s ramp is not counted in total_ios: add it at the measured rate
ios_all = ios + iops * 1.0
per_io = int(irqs) / ios_all if ios_all else 0.0
# usr_cpu and sys_cpu are percent of the job's run time (all jobs of the
# group together); job_runtime is in ms
cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"] / 1000.0
cpu_per_io = cpu_s * 1e6 / ios if ios else 0.0
errs = job.get("error", 0)
print("%s qd=%s jobs=%s iops=%.0f mean_us=%.1f p99_us=%.1f irq_per_io=%.3f err=%d"
      " p50_us=%.1f cpu_us_per_io=%.2f"
      % (label, qd, jobs, iops, mean, p99, per_io, errs, p50, cpu_per_io))
