#!/usr/bin/env python3
"""Where one I/O's time goes on fio's CPU, per stage, from ftrace.

  stages.py run LABEL TRACE   one line for the raw file: LABEL, the I/Os
                              seen (blk_mq_submit_bio calls), the traced
                              span per I/O and each stage's us per I/O
  stages.py table RAW         medians over the runs of each label, and
                              ssdtune/nvme ratios

TRACE is the function_graph tracer's text (tracing_cpumask one CPU,
funcgraph-abstime on, set_ftrace_filter = the functions of STAGES), as
scripts/bench/guest/stages.sh writes it.  A function's time includes the
traced functions it calls, and every traced call costs the tracer's own
time too: compare the drivers with each other, not with an untraced run.
"""
import re
import statistics
import sys
from collections import Counter

# stage -> the functions whose time it sums (either driver's)
STAGES = [
    ("enter", ["__x64_sys_io_uring_enter"]),
    ("blk_submit", ["blk_mq_submit_bio"]),
    ("drv_submit", ["nvme_queue_rqs", "nvme_queue_rq", "ssdt_queue_rqs",
                    "ssdt_queue_rq"]),
    ("dma_map", ["dma_map_page_attrs"]),
    ("start_rq", ["blk_mq_start_request"]),
    ("hardirq", ["__common_interrupt"]),
    ("drv_irq", ["nvme_irq", "ssdt_irq"]),
    ("drv_batch", ["nvme_pci_complete_batch", "ssdt_complete_batch"]),
    ("blk_end", ["blk_mq_end_request_batch"]),
    ("dma_unmap", ["dma_unmap_page_attrs"]),
    ("tick", ["__sysvec_apic_timer_interrupt"]),
]
FUNCS = [f for _, fs in STAGES for f in fs]

LINE = re.compile(r"\s*([\d.]+)\s*\|\s*\d+\)\s*[!#*@+$&=]?\s*"
                  r"(?:([\d.]+) us)?\s*\|\s*(.*)$")
OPEN = re.compile(r"(\w+)(?: \[\w+\])?\(\) \{$")
LEAF = re.compile(r"(\w+)(?: \[\w+\])?\(\);$")
TAIL = re.compile(r"\}\s*/\* (\w+)")


def parse(lines):
    """Total us and calls per function, and the span the trace covers."""
    total, calls = Counter(), Counter()
    stack, first, last = [], None, None
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        ts, dur, body = float(m.group(1)), m.group(2), m.group(3).strip()
        first = ts if first is None else first
        last = ts
        mo = OPEN.match(body)
        if mo:
            stack.append(mo.group(1))
            continue
        if dur is None:
            continue
        ml = LEAF.match(body)
        if ml:
            fn = ml.group(1)
        elif body.startswith("}"):
            mt = TAIL.search(body)
            # a closing brace whose opening line the buffer lost names it
            fn = mt.group(1) if mt else (stack[-1] if stack else None)
            if stack:
                stack.pop()
        else:
            continue
        if fn:
            total[fn] += float(dur)
            calls[fn] += 1
    span = (last - first) * 1e6 if first is not None else 0.0
    return total, calls, span


def run_line(label, path):
    with open(path, encoding="utf-8", errors="replace") as f:
        total, calls, span = parse(f)
    ios = calls["blk_mq_submit_bio"]
    if not ios:
        sys.exit(f"stages: no blk_mq_submit_bio call in {path}: nothing traced")
    out = [f"label={label}", f"ios={ios}", f"span={span / ios:.2f}"]
    for stage, fns in STAGES:
        out.append(f"{stage}={sum(total[f] for f in fns) / ios:.2f}")
    irqs = sum(calls[f] for f in ("nvme_irq", "ssdt_irq"))
    out.append(f"irq_per_io={irqs / ios:.3f}")
    return " ".join(out)


def own(r):
    """The driver's own code: its submit and interrupt paths without the
    DMA API and the block layer's calls they make."""
    return (r["drv_submit"] - r["dma_map"] - r["start_rq"] + r["drv_irq"] -
            r["blk_end"] - r["dma_unmap"])


def table(path):
    runs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
            if "label" not in kv:
                continue
            r = {k: float(v) for k, v in kv.items() if k != "label"}
            r["own"] = own(r)
            runs.setdefault(kv["label"], []).append(r)
    labels = [lab for lab in ("nvme", "ssdtune") if lab in runs]
    if len(labels) != 2:
        sys.exit(f"stages: {path} needs runs of nvme and ssdtune")
    n = min(len(runs[lab]) for lab in labels)
    rows = [("span", "traced wall time per I/O on fio's CPU")] + \
        [(s, " ".join(fs)) for s, fs in STAGES] + \
        [("own", "driver's own: drv_submit+drv_irq-dma-start_rq-blk_end"),
         ("irq_per_io", "driver interrupt handler calls per I/O")]
    print(f"us per I/O, medians over {n} runs each "
          "(function_graph on, so every figure is inflated by the tracer)")
    print(f"{'stage':12s} {'nvme':>8s} {'ssdtune':>8s} {'ratio':>6s}  what")
    for key, what in rows:
        med = [statistics.median(r[key] for r in runs[lab]) for lab in labels]
        ratio = f"{med[1] / med[0]:6.2f}" if med[0] else "     -"
        print(f"{key:12s} {med[0]:8.2f} {med[1]:8.2f} {ratio}  {what}")
    for lab in labels:
        share = statistics.median(100 * r["own"] / r["span"]
                                  for r in runs[lab])
        print(f"{lab}: the driver's own code is {share:.1f}% of the traced "
              "time per I/O")


def main(argv):
    if len(argv) == 4 and argv[1] == "run":
        print(run_line(argv[2], argv[3]))
    elif len(argv) == 3 and argv[1] == "table":
        table(argv[2])
    elif len(argv) == 2 and argv[1] == "funcs":
        print("\n".join(FUNCS))
    else:
        sys.exit("usage: stages.py run LABEL TRACE | table RAW | funcs")


if __name__ == "__main__":
    main(sys.argv)
