#!/usr/bin/env python3
"""fiojson.py FIO.json LABEL QD JOBS IRQ_DELTA [RAMP [RQWAIT_NS]] [ipis=N]:
one line of results,
  LABEL qd=Q jobs=J iops=N mean_us=N p99_us=N irq_per_io=N err=N p50_us=N
  cpu_us_per_io=N p999_us=N [rqwait_us_per_io=N] [ipi_per_io=N]
  [write_iops=N write_p99_us=N]
(the first fields in the order guest/demo.sh reads them).  The latencies
are the reads'; iops counts reads and writes.  A job that writes adds
write_iops and write_p99_us; a job that only writes reports its writes in
the read fields' place.

ipis=N: the rescheduling and function-call interrupts (/proc/interrupts
RES and CAL, every CPU) over the run, divided per I/O like IRQ_DELTA: a
completion that lands on another CPU than its waiter costs one to wake it.

The latencies are fio's completion latency (clat: from the submission's
return to the completion), or its total latency (lat: submission
included) when the run asked for lat_percentiles and not
clat_percentiles: a busy CPU can delay fio between submitting an I/O and
noting its issue time, long enough for the I/O to complete in between, so
under CPU contention only the total latency tells the truth.

RAMP is fio's ramp_time in seconds (default 1).  RQWAIT_NS, when given, is
the time fio's job spent runnable but waiting for a CPU over the whole job
(its /proc/PID/schedstat second field, after minus before; the job must
run without a ramp, so that its reads are all counted), divided per read.

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
rest = [a for a in sys.argv[6:] if "=" not in a]
kw = dict(a.split("=", 1) for a in sys.argv[6:] if "=" in a)
ramp = float(rest[0]) if len(rest) > 0 else 1.0
rqwait = int(rest[1]) if len(rest) > 1 else None
ipis = int(kw["ipis"]) if "ipis" in kw else None
with open(path) as f:
    text = f.read()
# fio may print warnings before the JSON object
data = json.loads(text[text.index("{"):])
job = data["jobs"][0]
r, w = job["read"], job.get("write", {})
if not r.get("total_ios") and w.get("total_ios"):
    r, w = w, {}
iops = r["iops"] + w.get("iops", 0)
clat = r["clat_ns"]
if "percentile" not in clat and "percentile" in r.get("lat_ns", {}):
    clat = r["lat_ns"]
pct = clat.get("percentile", {})
p50 = pct.get("50.000000", 0) / 1000.0
p99 = pct.get("99.000000", 0) / 1000.0
p999 = pct.get("99.900000", 0) / 1000.0
mean = clat["mean"] / 1000.0
ios = r["total_ios"] + w.get("total_ios", 0)
# the ramp is not counted in total_ios: add it at the measured rate
ios_all = ios + iops * ramp
per_io = int(irqs) / ios_all if ios_all else 0.0
# usr_cpu and sys_cpu are percent of the job's run time (all jobs of the
# group together); job_runtime is in ms
cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"] / 1000.0
cpu_per_io = cpu_s * 1e6 / ios if ios else 0.0
errs = job.get("error", 0)
line = ("%s qd=%s jobs=%s iops=%.0f mean_us=%.1f p99_us=%.1f irq_per_io=%.3f err=%d"
        " p50_us=%.1f cpu_us_per_io=%.2f p999_us=%.1f"
        % (label, qd, jobs, iops, mean, p99, per_io, errs, p50, cpu_per_io, p999))
if rqwait is not None:
    line += " rqwait_us_per_io=%.2f" % (rqwait / 1000.0 / ios if ios else 0.0)
if ipis is not None:
    line += " ipi_per_io=%.3f" % (ipis / ios_all if ios_all else 0.0)
if w.get("total_ios"):
    wp = (w.get("clat_ns") or {}).get("percentile", {})
    line += " write_iops=%.0f write_p99_us=%.1f" % (w["iops"], wp.get("99.000000", 0) / 1000.0)
print(line)
