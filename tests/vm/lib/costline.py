#!/usr/bin/env python3
"""costline.py FIO.json LABEL QD STAT0 STAT1 < TRACE_ANSWER: one line of
make bench's cost pass,
  cost LABEL qd=Q ios=N mmio_w=.. mmio_r=.. db_sq=.. db_cq=.. msix=..
       evidx=.. usr=.. sys=.. irq=.. softirq=.. idle=..
per I/O: the device's MMIO writes and reads, its doorbell writes (SQ
tail, CQ head), MSI-X messages and shadow-doorbell event index updates,
counted by QEMU's trace events over the fio run (qmp-watch.py's
trace-stop answer on stdin, "EVENT N" lines), and the guest's CPU time
in microseconds per I/O from the aggregate "cpu" lines of /proc/stat
read before and after (STAT0, STAT1; USER_HZ 100).  fio ran without a
ramp, so its total_ios counts every read of the run."""
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
a = [int(x) for x in stat0.split()[1:]]
b = [int(x) for x in stat1.split()[1:]]
# user nice system idle iowait irq softirq steal ...
d = [y - x for x, y in zip(a, b)]
us = 1e6 / 100
cpu = {"usr": d[0] + d[1], "sys": d[2], "idle": d[3] + d[4],
       "irq": d[5], "softirq": d[6]}


def per(n):
    return n / ios if ios else 0.0


print("cost %s qd=%s ios=%d mmio_w=%.3f mmio_r=%.3f db_sq=%.3f db_cq=%.3f "
      "msix=%.3f evidx=%.3f usr=%.1f sys=%.1f irq=%.1f softirq=%.1f idle=%.1f"
      % (label, qd, ios, per(ev.get("mmio_write", 0)), per(ev.get("mmio_read", 0)),
         per(ev.get("mmio_doorbell_sq", 0)), per(ev.get("mmio_doorbell_cq", 0)),
         per(ev.get("irq_msix", 0)),
         per(ev.get("eventidx_sq", 0) + ev.get("eventidx_cq", 0)),
         per(cpu["usr"] * us), per(cpu["sys"] * us), per(cpu["irq"] * us),
         per(cpu["softirq"] * us), per(cpu["idle"] * us)))
