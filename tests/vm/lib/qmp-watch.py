#!/usr/bin/env python3
"""Host side of the guest's requests to QEMU (run by scripts/vm.sh).

    qmp-watch.py QMP_SOCKET CTL_DIR NVME_ID

CTL_DIR is shared read-write with the guest.  A guest test asks for
something by creating CTL_DIR/NAME.req (write it under another name and
rename it, so the request is whole); this process answers with
CTL_DIR/NAME.done (renamed into place) whose first line is "ok" or
"error: ..." and then details.  Requests (the file's content is ignored):

    ping.req      QMP query-status; answers "ok running"
    unplug.req    QMP device_del of NVME_ID, then waits (up to 120 s) for the
                  DEVICE_DELETED event, i.e. the guest released the device;
                  answers "ok" or "error: ..."

The process exits when QEMU closes the socket or on SIGTERM.  Standard
library only.
"""
import json
import os
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

    def cmd(self, name, **args):
        msg = {"execute": name}
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


def answer(ctl, name, text):
    tmp = os.path.join(ctl, "." + name + ".done.tmp")
    with open(tmp, "w") as f:
        f.write(text.rstrip("\n") + "\n")
    os.rename(tmp, os.path.join(ctl, name + ".done"))


def handle(q, ctl, name, nvme_id):
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
                          120)
        if ev is None:
            return "error: no DEVICE_DELETED for %s within 120 s" % nvme_id
        return "ok\n" + json.dumps(ev)
    return "error: unknown request %s" % name


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, ctl, nvme_id = sys.argv[1:]
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
                    text = handle(q, ctl, name, nvme_id)
                except (socket.timeout, OSError, ValueError) as e:
                    text = "error: %s" % e
                print("qmp-watch: %s -> %s" % (name, text.splitlines()[0]),
                      file=sys.stderr, flush=True)
                answer(ctl, name, text)
            time.sleep(0.2)
    except EOFError:
        pass


if __name__ == "__main__":
    main()
