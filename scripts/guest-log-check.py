#!/usr/bin/env python3
"""guest-log-check.py DMESG: make check-debug's scan of a whole guest
kernel log for what a debug kernel reports: KASAN, lockdep, WARNING, BUG,
Oops, hung tasks, kmemleak.  Prints one line per report and exits 1 if
any report is not on the list of known kernel reports below; 0 if the log
is clean or has only those.

A known report is one the kernel makes whatever driver is bound: its
locks and frames are the kernel's own (read in Debian's linux-source-6.1),
and it must not name ssdtune anywhere in its block.  Each entry: a name,
and the strings its block must all contain.
"""
import re
import sys

KNOWN = [
    # Debian 6.1's pciehp_unconfigure_device() (pciehp_pci.c) takes
    # pci_rescan_remove_lock with reset_lock held (pciehp_ist), then drops
    # and retakes reset_lock inside it around each device's removal;
    # lockdep reports that on the first hot-unplug of a boot, when it
    # retakes reset_lock after the device's removal: the two locks in the
    # cycle are pciehp's own (QMP device_del of the test NVMe).
    ("pciehp: reset_lock taken inside pci_rescan_remove_lock on a hot-unplug",
     ("possible circular locking dependency", "-pciehp", "reset_lock",
      "pci_rescan_remove_lock", "pciehp_unconfigure_device")),
]

START = re.compile(
    r"BUG: KASAN|KASAN: |WARNING: possible circular locking|"
    r"WARNING: possible recursive locking|WARNING: inconsistent lock state|"
    r"WARNING: suspicious RCU usage|WARNING: bad unlock balance|"
    r"WARNING: lock held when returning|"
    r"------------\[ cut here \]------------|WARNING: CPU: |"
    r"BUG: |Oops|general protection fault|"
    r"INFO: task .* blocked for more than|hung_task|"
    r"kmemleak: [0-9]+ new suspected memory leaks")
END = re.compile(r"</TASK>|---\[ end trace|^={20,}$")


def blocks(lines):
    """(first line, the report's lines) for each report in the log."""
    i = 0
    while i < len(lines):
        text = lines[i].split("] ", 1)[-1]
        if not START.search(text):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and j - i < 400:
            if END.search(lines[j].split("] ", 1)[-1].strip()):
                break
            j += 1
        yield text.strip(), lines[i:j + 1]
        i = j + 1


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], errors="replace") as f:
        lines = f.read().splitlines()
    bad = 0
    for first, block in blocks(lines):
        body = "\n".join(block)
        known = None
        if "ssdt" not in body:
            for name, needs in KNOWN:
                if all(n in body for n in needs):
                    known = name
                    break
        if known:
            print("known kernel report (not the driver's): %s" % known)
        else:
            print("REPORT: %s" % first)
            bad += 1
    if bad:
        print("%d report(s) in %s" % (bad, sys.argv[1]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
