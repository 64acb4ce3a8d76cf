#!/usr/bin/env python3
"""costline.py FIO.json LABEL QD STAT0 STAT1 < TRACE_ANSWER: one line of
make bench's cost pass,
  cost LABEL qd=Q ios=N mmio_w=.. mmio_r=.. db_sq=.. db_cq=.. msix=..
       evidx=.. usr=.. sys=.. irq=.. softirq=.. idle=.. busy=..
per I/O: the device's MMIO writes and reads, its doorbell writes (SQ
tail, CQ head), MSI-X messages and shadow-doorbell event index updates,
counted by QEMU's trace events over the fio run (qmp-watch.py's
trace-stop answer on stdin, "EVENT N" lines), and the guest's CPU time
in microseconds per I/O from the aggregate "cpu" lines of /proc/stat
read before and after (STAT0, STAT1: the "cpu" lines, USER_HZ 100).
Those sum all vCPUs; busy is the busiest vCPU's share of the run that
was not idle, in percent, from the "cpuN" lines (0 without them): with
one fio job on one vCPU, near 100 means the guest's CPU sets the rate,
however idle the other vCPUs are.  fio ran without a ramp, so its
total_ios counts every read of the run."""
import json
import sys

path, label, qd, stat0, stat1 = sys.argv[1:6]
with open(path) as f:
    text = f.read()
data = json.loads(text[text.index("{"):])
ios = data["jobs"][0]["read"]["total_ios"]
ev = {}
for line in sys.stdin:
    f = line.split()
    if len(f) == 2 and f[0].startswith("pci_nvme_"):
        ev[f[0][len("pci_nvme_"):]] = int(f[1])


def cpu_lines(text):
    """{"cpu": [...], "cpu0": [...], ...} from /proc/stat's cpu lines."""
    return {f[0]: [int(x) for x in f[1:]] for f in
            (line.split() for line in text.splitlines()) if f and f[0].startswith("cpu")}


s0, s1 = cpu_lines(stat0), cpu_lines(stat1)
# user nice system idle iowait irq softirq steal ...
d = [y - x for x, y in zip(s0["cpu"], s1["cpu"])]
us = 1e6 / 100
cpu = {"usr": d[0] + d[1], "sys": d[2], "idle": d[3] + d[4],
       "irq": d[5], "softirq": d[6]}
busy = 0.0
for name in s0:
    if name != "cpu" and name in s1:
        dn = [y - x for x, y in zip(s0[name], s1[name])]
        if sum(dn) > 0:
            busy = max(busy, 100.0 * (sum(dn) - dn[3] - dn[4]) / sum(dn))


def per(n):
    return n / ios if ios else 0.0


print("cost %s qd=%s ios=%d mmio_w=%.3f mmio_r=%.3f db_sq=%.3f db_cq=%.3f "
      "msix=%.3f evidx=%.3f usr=%.1f sys=%.1f irq=%.1f softirq=%.1f idle=%.1f busy=%.0f"
      % (label, qd, ios, per(ev.get("mmio_write", 0)), per(ev.get("mmio_read", 0)),
         per(ev.get("mmio_doorbell_sq", 0)), per(ev.get("mmio_doorbell_cq", 0)),
         per(ev.get("irq_msix", 0)),
         per(ev.get("eventidx_sq", 0) + ev.get("eventidx_cq", 0)),
         per(cpu["usr"] * us), per(cpu["sys"] * us), per(cpu["irq"] * us),
         per(cpu["softirq"] * us), per(cpu["idle"] * us), busy))
