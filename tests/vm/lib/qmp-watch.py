#!/usr/bin/env python3
"""Host side of the guest's requests to QEMU (run by scripts/vm.sh).

    qmp-watch.py QMP_SOCKET CTL_DIR NVME_ID [TRACE_LOG]

CTL_DIR is shared read-write with the guest.  A guest test asks for
something by creating CTL_DIR/NAME.req (write it under another name and
rename it, so the request is whole); this process answers with
CTL_DIR/NAME.done (renamed into place) whose first line is "ok" or
"error: ..." and then details.  Requests (the file's content is ignored):

    ping.req      QMP query-status; answers "ok running"
    unplug.req    QMP device_del of NVME_ID, then waits (up to 300 s) for the
                  DEVICE_DELETED event, i.e. the guest released the device;
                  answers "ok" or "error: ..."
    trace-start.req   turn on QEMU's trace events of the NVMe device's MMIO
                      reads and writes, doorbells and MSI-X sends (TRACE_LOG
                      is QEMU's -D file: vm.sh passes it); answers "ok"
    trace-stop.req    turn them off; answers "ok" and one line "EVENT N" per
                      event name: how often it fired since trace-start

The process exits when QEMU closes the socket or on SIGTERM.  Standard
library only.
"""
import json
import os
import re
import socket
import sys
import time


class QMP:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.buf = b""
        self.events = []
        self.recv()  # greeting
        self.cmd("qmp_capabilities")

    def recv(self, timeout=None):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("QMP socket closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, execute, **args):
        msg = {"execute": execute}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            r = self.recv(30)
            if "event" in r:
                self.events.append(r)
                continue
            return r

    def wait_event(self, name, pred, timeout):
        end = time.time() + timeout
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("event") == name and pred(ev):
                    del self.events[i]
                    return ev
            left = end - time.time()
            if left <= 0:
                return None
            try:
                r = self.recv(left)
            except socket.timeout:
                return None
            if "event" in r:
                self.events.append(r)

    def poll_events(self):
        try:
            while True:
                r = self.recv(0.001)
                if "event" in r:
                    self.events.append(r)
        except (socket.timeout, BlockingIOError):
            pass


# What make bench's cost pass counts (QEMU 7.2 hw/nvme trace events):
# every MMIO write (doorbells included) and read of the BAR, the doorbell
# writes, the MSI-X messages sent, and the shadow-doorbell event index
# updates.
TRACE_EVENTS = ("pci_nvme_mmio_write", "pci_nvme_mmio_read",
                "pci_nvme_mmio_doorbell_sq", "pci_nvme_mmio_doorbell_cq",
                "pci_nvme_irq_msix", "pci_nvme_eventidx_sq",
                "pci_nvme_eventidx_cq")


class Trace:
    def __init__(self, log):
        self.log = log
        self.start = None

    def set(self, q, on):
        for ev in TRACE_EVENTS:
            r = q.cmd("trace-event-set-state", name=ev, enable=on)
            if "return" not in r:
                return "error: trace-event-set-state %s: %s" % (
                    ev, json.dumps(r.get("error", r)))
        return None

    def begin(self, q):
        if not self.log:
            return "error: no trace log (vm.sh passes QEMU's -D file)"
        err = self.set(q, True)
        if err:
            return err
        self.start = os.path.getsize(self.log) if os.path.exists(self.log) else 0
        return "ok"

    def end(self, q):
        if self.start is None:
            return "error: trace-stop without trace-start"
        err = self.set(q, False)
        if err:
            return err
        time.sleep(0.3)  # let QEMU's log writes of the last events land
        counts = dict.fromkeys(TRACE_EVENTS, 0)
        with open(self.log, "rb") as f:
            f.seek(self.start)
            for line in f:
                m = re.search(rb"(pci_nvme_\w+)", line)
                if m and m.group(1).decode() in counts:
                    counts[m.group(1).decode()] += 1
        self.start = None
        return "ok\n" + "\n".join("%s %d" % kv for kv in counts.items())


def answer(ctl, name, text):
    tmp = os.path.join(ctl, "." + name + ".done.tmp")
    with open(tmp, "w") as f:
        f.write(text.rstrip("\n") + "\n")
    os.rename(tmp, os.path.join(ctl, name + ".done"))


def handle(q, ctl, name, nvme_id, trace):
    if name == "trace-start":
        return trace.begin(q)
    if name == "trace-stop":
        return trace.end(q)
    if name == "ping":
        r = q.cmd("query-status")
        if "return" in r:
            return "ok %s" % r["return"].get("status")
        return "error: %s" % json.dumps(r)
    if name == "unplug":
        r = q.cmd("device_del", id=nvme_id)
        if "return" not in r:
            return "error: device_del: %s" % json.dumps(r.get("error", r))
        ev = q.wait_event("DEVICE_DELETED",
                          lambda e: e.get("data", {}).get("device") == nvme_id,
                          300)
        if ev is None:
            return "error: no DEVICE_DELETED for %s within 300 s" % nvme_id
        return "ok\n" + json.dumps(ev)
    return "error: unknown request %s" % name


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    path, ctl, nvme_id = sys.argv[1:4]
    trace = Trace(sys.argv[4] if len(sys.argv) == 5 else None)
    try:
        q = QMP(path, time.time() + 120)
    except OSError as e:
        sys.exit("qmp-watch: cannot connect to %s: %s" % (path, e))
    try:
        while True:
            q.poll_events()
            for f in sorted(os.listdir(ctl)):
                if not f.endswith(".req"):
                    continue
                name = f[:-4]
                os.unlink(os.path.join(ctl, f))
                try:
                    text = handle(q, ctl, name, nvme_id, trace)
                except Exception as e:  # noqa: BLE001 (answer, not die)
                    text = "error: %s: %s" % (type(e).__name__, e)
                print("qmp-watch: %s -> %s" % (name, text.splitlines()[0]),
                      file=sys.stderr, flush=True)
                answer(ctl, name, text)
            time.sleep(0.2)
    except EOFError:
        pass


if __name__ == "__main__":
    main()
