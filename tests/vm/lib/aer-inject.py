#!/usr/bin/env python3
"""aer-inject.py BDF UNCOR_STATUS [COR_STATUS]: inject a PCIe error into
the device at BDF (DDDD:BB:DD.F) through the kernel's aer_inject module
(/dev/aer_inject, CONFIG_PCIEAER_INJECT), as the aer-inject tool does;
the AER driver of its Root Port then handles it as a real one.  Status
words are AER register bits (0x10: Data Link Protocol, fatal by default;
0x1000: Poisoned TLP, non-fatal).  The layout is the module's struct
aer_error_inj: bus, dev, fn as bytes, then eight 32-bit words."""
import os
import struct
import sys

bdf = sys.argv[1]
uncor = int(sys.argv[2], 0)
cor = int(sys.argv[3], 0) if len(sys.argv) > 3 else 0
dom, bus, rest = bdf.split(":")
dev, fn = rest.split(".")
msg = struct.pack("=BBBxIIIIIII", int(bus, 16), int(dev, 16), int(fn, 16),
                  uncor, cor, 0, 0, 0, 0, int(dom, 16))
fd = os.open("/dev/aer_inject", os.O_WRONLY)
try:
    os.write(fd, msg)
finally:
    os.close(fd)
