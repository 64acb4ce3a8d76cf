#!/usr/bin/env python3
"""powerjson.py FIO.json LABEL EST_MW: one line for a power-limit run.

Prints "LABEL iops=N mbps=N p99_us=N est_mw=N": IOPS and MB/s (10^6 bytes)
of reads and writes together, p99 completion latency of whichever direction
did more I/O (fio group_reporting JSON)."""
import json
import sys

path, label, est = sys.argv[1:4]
with open(path) as f:
    text = f.read()
# fio may print warnings before the JSON object
job = json.loads(text[text.index("{"):])["jobs"][0]
r, w = job["read"], job["write"]
main = r if r["total_ios"] >= w["total_ios"] else w
p99 = main["clat_ns"].get("percentile", {}).get("99.000000", 0) / 1000.0
iops = r["iops"] + w["iops"]
mbps = (r["bw_bytes"] + w["bw_bytes"]) / 1e6
print("%s iops=%.0f mbps=%.1f p99_us=%.0f est_mw=%s" % (label, iops, mbps, p99, est))
