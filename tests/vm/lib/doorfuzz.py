#!/usr/bin/env python3
"""doorfuzz.py [options] CTRL_DEV NS_DEV SYSFS_CTRL: generated input at the
driver's doors (issue 38), seeded so that any input can be replayed.

  --seed S        the run's seed (default: from the clock; printed)
  --count N       inputs in all (default 3000), spread over the doors
  --doors LIST    comma list of ioctl, netlink, sysfs (default all three)
  --tasks T       sysfs writers at once (default 4), each on its own knobs
  --only I[-J]    replay input I (or I to J) of --seed S and print each
  --log FILE      write each input's index and description before sending
                  it (the last lines name the input a crash stopped at)
  --no-reset-check  no check of the kernel log for resets (for a run while
                  the controller detaches and attaches)

Input i of a run is made by random.Random("S:i"): --only replays it
alone.  The doors:

- ioctl: NVME_IOCTL_ADMIN_CMD, ADMIN64, IO_CMD, IO64, SUBMIT_IO and ID on
  the controller and the namespace, and unknown numbers; RESET and RESCAN
  one input in 500.  Lengths 0, 1, 4095, 4096, 128 KiB +-1, huge and
  random; buffers valid, NULL, unaligned, unmapped and in kernel space;
  metadata pointers and lengths; timeouts 0, 1 and huge; nsid 0, 1, 2,
  ffffffff and random; every opcode but those that would destroy the
  test's data or namespace (admin 0Dh namespace management, 15h
  attachment, 80h Format, 10h firmware commit: the driver owns or tests
  them elsewhere); data-changing I/O opcodes (write, write uncorrectable,
  write zeroes, DSM, copy) are aimed at the last 64 MiB of the namespace,
  which the test leaves to the fuzzer.
- netlink: every command number (and some beyond), with missing,
  duplicate, oversized and wrongly typed attributes, as requests and
  dumps; a FORMAT always ends with a namespace id other than 1, the
  attribute that wins.
- sysfs: every knob of include/uapi/linux/ssdtune_knobs.h gets random
  bytes, long writes, numbers at and past the limits, signs and
  whitespace, from --tasks processes each owning its knobs; a refused
  write must leave the value as it was (else: exit 1 with the input).

After every ioctl and netlink input the kernel log (/dev/kmsg) must show
no reset of the controller (an admin timeout that stops it, a reset, a
"reset done"), unless the input is one meant to reset it: NVME_IOCTL_RESET,
or an I/O passthrough whose timeout_ms (1, 100) is shorter than the
device may take; after one of those the next input waits for "reset
done".  A timeout_ms of 0 or ffffffff must not reset (issue 54: it
wrapped to 0 s).  The sysfs writers run at once, so their check is the
phase's: no more resets than accepted poll_queues writes (the only knob
whose write resets).

Prints a summary line per door (inputs, accepted, refused by errno) and
exits 0; 1 when a refused knob write changed its knob, a reset followed an
input not meant to reset, or an input raised something no refusal
explains (the input is printed)."""
import argparse
import ctypes
import errno
import importlib.util
import multiprocessing
import os
import random
import re
import socket
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nvme_pt  # noqa: E402

_spec = importlib.util.spec_from_file_location("genl_format", os.path.join(HERE, "genl-format.py"))
genl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(genl)

UAPI_DIR = os.path.join(HERE, "../../../include/uapi/linux")
BUF_LEN = 4 << 20
SCRATCH = 64 << 20          # the last 64 MiB of the namespace
KERNEL_ADDR = 0xffff888000000000
UNMAPPED = 0x10


UserIo = nvme_pt.UserIo
NVME_IOCTL_SUBMIT_IO = nvme_pt.NVME_IOCTL_SUBMIT_IO
NVME_IOCTL_RESET = (ord("N") << 8) | 0x44
NVME_IOCTL_RESCAN = (ord("N") << 8) | 0x46
ADMIN_SKIP = {0x0D, 0x15, 0x80, 0x10}
IO_DATA = {0x01, 0x04, 0x08, 0x09, 0x19}


# Kernel log lines of a reset of the controller (ssdt_ctrl.c, ssdt_admin.c,
# ssdt_blk.c): a stop, a reset starting, a reset ending.
RESET_RE = re.compile(r"stopping the controller|resetting|reset done|reset failed|halted for")
RESET_END_RE = re.compile(r"reset done|reset failed")


class Kmsg:
    """The kernel log lines about one controller since the last read."""

    def __init__(self, sysfs_ctrl, on):
        self.fd = None
        if not on:
            return
        with open(os.path.join(sysfs_ctrl, "pci_address")) as f:
            self.tag = "ssdtune %s: " % f.read().strip()
        self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)

    def lines(self):
        out = []
        if self.fd is None:
            return out
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                return out
            except BrokenPipeError:     # overwritten records: go on
                continue
            msg = rec.decode(errors="replace").split(";", 1)[-1].split("\n", 1)[0]
            if self.tag in msg:
                out.append(msg)

    def resets(self):
        return [m for m in self.lines() if RESET_RE.search(m)]

    def wait_reset_end(self, secs=60):
        """After an input meant to reset: its reset, if it began, ended."""
        end = time.time() + secs
        seen = []
        while time.time() < end:
            seen += self.lines()
            if not any(RESET_RE.search(m) for m in seen) or \
               any(RESET_END_RE.search(m) for m in seen):
                return True
            time.sleep(0.05)
        return False


def errname(e):
    return "EOPNOTSUPP" if e == errno.EOPNOTSUPP else errno.errorcode.get(e, str(e))


def pick_len(r):
    return r.choice([0, 1, 511, 512, 4095, 4096, 4097, (128 << 10) - 1, 128 << 10,
                     (128 << 10) + 1, 1 << 20, BUF_LEN, 0x7fffffff, 0xffffffff,
                     r.randrange(1 << 16)])


def pick_addr(r, buf, n):
    base = ctypes.addressof(buf)
    return r.choice([base, base, base + 1, base + 4095, 0, UNMAPPED, KERNEL_ADDR,
                     base + BUF_LEN - max(min(n, BUF_LEN), 1), r.getrandbits(64)])


class Ioctls:
    def __init__(self, ctrl_dev, ns_dev):
        self.fds = [os.open(ctrl_dev, os.O_RDWR), os.open(ns_dev, os.O_RDWR)]
        self.buf = ctypes.create_string_buffer(BUF_LEN)
        self.meta = ctypes.create_string_buffer(4096)
        with open("/sys/class/block/%s/size" % os.path.basename(ns_dev)) as f:
            self.sectors = int(f.read())

    def scratch_slba(self, r, shift=9):
        first = (self.sectors * 512 - SCRATCH) >> shift
        return first + r.randrange((SCRATCH >> shift) - 256)

    def pt(self, r):
        io = r.random() < 0.5
        big = r.random() < 0.5
        c = (nvme_pt.PassthruCmd64 if big else nvme_pt.PassthruCmd32)()
        if io:
            op = r.choice([0x00, 0x01, 0x02, 0x04, 0x05, 0x08, 0x09, 0x0C, 0x0D,
                           0x0E, 0x11, 0x15, 0x19, 0x7F, 0x80, 0x81, 0xFF,
                           r.randrange(256)])
        else:
            op = r.choice([0x01, 0x02, 0x04, 0x05, 0x06, 0x06, 0x08, 0x09, 0x0A,
                           0x0C, 0x11, 0x14, 0x18, 0x19, 0x1A, 0x7C, 0x84, 0xC0,
                           0xFF, r.randrange(256)])
            if op in ADMIN_SKIP:
                op = 0x06
        c.opcode = op
        c.flags = r.choice([0, 0, 0, 1, 0x40, 0x80, r.randrange(256)])
        c.nsid = r.choice([0, 1, 1, 2, 0xffffffff, r.getrandbits(32)])
        n = pick_len(r)
        c.data_len = n
        c.addr = pick_addr(r, self.buf, n)
        if r.random() < 0.2:
            c.metadata_len = pick_len(r)
            c.metadata = r.choice([ctypes.addressof(self.meta), 0, UNMAPPED, KERNEL_ADDR])
        for k in ("cdw2", "cdw3", "cdw10", "cdw11", "cdw12", "cdw13", "cdw14", "cdw15"):
            setattr(c, k, r.choice([0, 0, 1, 0xff, 0xffff, 0xffffffff, r.getrandbits(32)]))
        if io and op in IO_DATA:
            slba = self.scratch_slba(r)
            c.cdw10, c.cdw11 = slba & 0xffffffff, slba >> 32
            c.cdw12 &= 0xff             # at most 256 blocks
            if op in (0x09, 0x19):      # ranges in the buffer: in the scratch area too
                for i in range(16):
                    struct.pack_into("<IIQ", self.buf, 16 * i, 0, r.randrange(256),
                                     self.scratch_slba(r))
        c.timeout_ms = r.choice([0, 0, 1, 100, 0xffffffff])
        if io:
            nr = nvme_pt.NVME_IOCTL_IO64_CMD if big else nvme_pt.NVME_IOCTL_IO_CMD
        else:
            nr = nvme_pt.NVME_IOCTL_ADMIN64_CMD if big else nvme_pt.NVME_IOCTL_ADMIN_CMD
        fd = self.fds[r.randrange(2)]
        desc = "%s%s op=%#x flags=%#x nsid=%#x len=%#x addr=%#x mlen=%#x cdw10=%#x cdw11=%#x cdw12=%#x tmo=%d fd=%s" % (
            "io" if io else "admin", "64" if big else "", op, c.flags, c.nsid, n, c.addr,
            c.metadata_len, c.cdw10, c.cdw11, c.cdw12, c.timeout_ms,
            "ctrl" if fd == self.fds[0] else "ns")
        self.may_reset = io and c.timeout_ms in (1, 100)
        return desc, lambda: nvme_pt.libc.ioctl(fd, nr, ctypes.addressof(c))

    def submit_io(self, r):
        u = UserIo()
        u.opcode = r.choice([0x01, 0x02, 0x05, 0x00, 0x04, r.randrange(256)])
        u.flags = r.choice([0, 0, 1, r.randrange(256)])
        u.nblocks = r.choice([0, 1, 7, 255, 256, 0xffff, r.randrange(1 << 16)])
        u.control = r.choice([0, 0x4000, 0x8000, r.randrange(1 << 16)])
        u.addr = pick_addr(r, self.buf, (u.nblocks + 1) * 512)
        u.metadata = r.choice([0, 0, ctypes.addressof(self.meta), UNMAPPED])
        u.slba = r.choice([0, self.sectors - 1, self.sectors, 1 << 63, r.getrandbits(64)])
        if u.opcode in IO_DATA or u.opcode not in (0x02, 0x05):
            u.slba = self.scratch_slba(r)
            u.nblocks &= 0xff
        u.dsmgmt, u.reftag = r.getrandbits(32), r.getrandbits(32)
        fd = self.fds[r.randrange(2)]
        desc = "submit_io op=%#x flags=%#x nblocks=%d slba=%#x addr=%#x" % (
            u.opcode, u.flags, u.nblocks, u.slba, u.addr)
        return desc, lambda: nvme_pt.libc.ioctl(fd, NVME_IOCTL_SUBMIT_IO, ctypes.addressof(u))

    def make(self, r):
        x = r.random()
        self.may_reset = False
        if x < 0.55:
            return self.pt(r)
        if x < 0.75:
            return self.submit_io(r)
        fd = self.fds[r.randrange(2)]
        if x < 0.80:
            return "id", lambda: nvme_pt.libc.ioctl(fd, nvme_pt.NVME_IOCTL_ID, None)
        if x < 0.802:
            nr = r.choice([NVME_IOCTL_RESET, NVME_IOCTL_RESCAN])
            self.may_reset = nr == NVME_IOCTL_RESET
            return "ioctl %#x" % nr, lambda: nvme_pt.libc.ioctl(fd, nr, None)
        # unknown numbers: type N with other numbers and sizes, and any
        nr = r.choice([(r.randrange(4) << 30) | (r.randrange(1 << 14) << 16) |
                       (ord("N") << 8) | r.randrange(0x49, 0x100),
                       r.getrandbits(32)])
        arg = r.choice([0, UNMAPPED, KERNEL_ADDR, ctypes.addressof(self.buf)])
        return "ioctl %#x arg=%#x" % (nr, arg), lambda: nvme_pt.libc.ioctl(fd, nr, arg)


class Netlink:
    def __init__(self, ctrl_index):
        text = open(os.path.join(UAPI_DIR, "ssdtune.h")).read()
        self.cmds = genl.enum_values(text, "ssdtune_cmd")
        self.attrs = genl.enum_values(text, "ssdtune_attr")
        name = re.search(r'#define SSDTUNE_GENL_NAME\s+"(\w+)"', text).group(1)
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, genl.NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.sock.settimeout(30)
        kind, payload = genl.request(self.sock, genl.GENL_ID_CTRL, genl.CTRL_CMD_GETFAMILY,
                                     [genl.attr(genl.CTRL_ATTR_FAMILY_NAME,
                                                name.encode() + b"\0")], 1)
        off, self.family = 4, None
        while off + 4 <= len(payload):
            ln, t = struct.unpack("HH", payload[off:off + 4])
            if t == genl.CTRL_ATTR_FAMILY_ID:
                self.family = struct.unpack("H", payload[off + 4:off + 6])[0]
            off += (ln + 3) & ~3
        if self.family is None:
            raise SystemExit("doorfuzz: no %s family" % name)
        self.ctrl = ctrl_index
        self.seq = 100
        self.may_reset = False          # no FORMAT of namespace 1, no reset

    def payload(self, r):
        k = r.random()
        if k < 0.5:
            return struct.pack("I", r.choice([0, 1, 2, 3, self.ctrl, 99, 0xffffffff,
                                              r.getrandbits(32)]))
        if k < 0.6:
            return b""
        if k < 0.7:
            return struct.pack("Q", r.getrandbits(64))
        if k < 0.8:
            return bytes(r.getrandbits(8) for _ in range(r.choice([1, 2, 3, 5, 7])))
        if k < 0.9:
            return b"x" * r.choice([64, 255, 1000, 4000])
        return bytes(r.getrandbits(8) for _ in range(r.randrange(64)))

    def make(self, r):
        # Seven in ten inputs are a command the family serves, sent as it
        # is served (GET_CTRL as a dump, FORMAT as a request) four times
        # in five, so that they pass genetlink's dispatch and reach the
        # attribute policy and the handlers; the rest are any command.
        real = r.random() < 0.7
        dump_cmd = self.cmds["SSDTUNE_CMD_GET_CTRL"]
        fmt_cmd = self.cmds["SSDTUNE_CMD_FORMAT"]
        if real:
            cmd = r.choice([dump_cmd, fmt_cmd])
        else:
            cmd = r.choice(list(self.cmds.values()) + [r.randrange(16), 255])
        na = r.choice([0, 1, 2, 3, 3, 4, 6])
        top = max(self.attrs.values())
        al = []
        if real and cmd == fmt_cmd and r.random() < 0.6:
            # the attributes FORMAT needs, with values at and past the
            # edges, so that the handler runs (the NSID is added below)
            al.append((self.attrs["SSDTUNE_A_CTRL"],
                       struct.pack("I", r.choice([self.ctrl, self.ctrl, 99, 0xffffffff]))))
            al.append((self.attrs["SSDTUNE_A_SES"],
                       struct.pack("I", r.choice([0, 0, 1, 2, 3, 0xffffffff]))))
        for _ in range(na):
            t = r.choice(list(self.attrs.values()) + [0, top + 1, top + 7, 0x7fff,
                                                      0x8000 | r.randrange(top + 1)])
            al.append((t, self.payload(r)))
        if cmd == self.cmds.get("SSDTUNE_CMD_FORMAT"):
            # never a FORMAT of namespace 1: the last NSID wins
            al.append((self.attrs["SSDTUNE_A_NSID"],
                       struct.pack("I", r.choice([0, 2, 7, 0xffffffff]))))
        flags = genl.NLM_F_REQUEST | genl.NLM_F_ACK
        if real and r.random() < 0.8:
            dump = cmd == dump_cmd
        else:
            dump = r.random() < 0.3
        if dump:
            flags |= 0x300      # NLM_F_DUMP
        body = struct.pack("BBH", cmd, r.choice([1, 1, 0, 2, 255]), 0) + \
            b"".join(genl.attr(t & 0xffff, p) for t, p in al)
        desc = "netlink cmd=%d flags=%#x attrs=%s" % (
            cmd, flags, ",".join("%d:%s" % (t, p.hex()[:32]) for t, p in al))

        def send():
            self.seq += 1
            seq = self.seq
            msg = struct.pack("IHHII", 16 + len(body), self.family, flags, seq, 0) + body
            self.sock.send(msg)
            while True:         # read to this request's ack or error
                data = self.sock.recv(1 << 20)
                off = 0
                while off + 16 <= len(data):
                    ln, kind, _, s, _ = struct.unpack("IHHII", data[off:off + 16])
                    if s == seq and kind in (genl.NLMSG_ERROR, 3):     # error, NLMSG_DONE
                        if kind == 3:
                            return 0
                        e = -struct.unpack("i", data[off + 16:off + 20])[0]
                        return 0 if e == 0 else -e
                    off += max((ln + 3) & ~3, 16)
        return desc, send


def knob_list():
    text = open(os.path.join(UAPI_DIR, "ssdtune_knobs.h")).read()
    return re.findall(r"^SSDTUNE_KNOB\((\w+),", text, re.M)


def knob_value(r):
    k = r.random()
    nums = ["0", "1", "2", "63", "64", "65", "100", "1000", "65535", "65536",
            "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
            "-1", "-0", "+1", "0x10", "010", "1e3", "1.5"]
    words = ["off", "on", "auto", "adaptive", "latency", "balanced", "iops",
             "throughput", "custom", "hw", "host", "soft", "hard", "none", "default"]
    if k < 0.35:
        v = r.choice(nums)
    elif k < 0.55:
        v = r.choice(words)
    elif k < 0.7:
        v = r.choice(nums + words)
        v = r.choice(["", " ", "\t", "\n"]) + v + r.choice(["", " ", "\n", "\n\n", " x", "\0"])
    elif k < 0.8:
        v = r.choice(["x", "9", " ", "\n"]) * r.choice([100, 4095, 4096, 5000])
    elif k < 0.9:
        return bytes(r.getrandbits(8) for _ in range(r.randrange(1, 40)))
    else:
        v = r.choice(["", "\n", " ", "\0", "1 2", "1,2", "1\n2\n"])
    return v.encode()


def sysfs_worker(args):
    """One writer: its knobs, its inputs.  Returns (counts, failure)."""
    seed, indices, knobs, ctrl = args
    counts = {}
    for i in indices:
        r = random.Random("%s:%d" % (seed, i))
        knob = knobs[r.randrange(len(knobs))]
        path = os.path.join(ctrl, knob)
        val = knob_value(r)
        # a poll_queues change drains and resets the controller: keep
        # one in twenty of the numbers it might take, refuse the rest
        if knob == "poll_queues" and val.strip().isdigit() and r.random() < 0.95:
            val = b"q" + val
        with open(path, "rb") as f:
            before = f.read()
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.write(fd, val)
                res = "ok"
            finally:
                os.close(fd)
        except OSError as e:
            res = errname(e.errno)
        counts[res] = counts.get(res, 0) + 1
        if knob == "poll_queues" and res == "ok":
            counts["poll_queues ok"] = counts.get("poll_queues ok", 0) + 1
        if res != "ok":
            with open(path, "rb") as f:
                after = f.read()
            if after != before:
                return counts, "input %d: refused write %r to %s (%s) changed it: %r -> %r" % (
                    i, val[:80], knob, res, before, after)
    return counts, None


def run_sysfs(seed, indices, ctrl, tasks):
    knobs = [k for k in knob_list() if os.path.exists(os.path.join(ctrl, k))]
    # each task owns a family of knobs (coalesce_*, power_*, ...: a write
    # to one may set the others, as a coalesce_profile does), so that a
    # refused write's knob can be checked
    groups = {}
    for k in knobs:
        groups.setdefault(k.split("_")[0], []).append(k)
    fams = sorted(groups.values())
    own = [sum(fams[t::tasks], []) for t in range(tasks) if fams[t::tasks]]
    parts = [(seed, indices[t::len(own)], own[t], ctrl) for t in range(len(own))]
    with multiprocessing.Pool(len(own)) as pool:
        res = pool.map(sysfs_worker, parts)
    counts, fail = {}, None
    for c, f in res:
        for k, v in c.items():
            counts[k] = counts.get(k, 0) + v
        fail = fail or f
    return counts, fail


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--seed", default=str(int(time.time())))
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--doors", default="ioctl,netlink,sysfs")
    ap.add_argument("--tasks", type=int, default=4)
    ap.add_argument("--only")
    ap.add_argument("--log")
    ap.add_argument("--no-reset-check", dest="reset_check", action="store_false")
    ap.add_argument("ctrl_dev")
    ap.add_argument("ns_dev")
    ap.add_argument("sysfs_ctrl")
    a = ap.parse_args()
    doors = a.doors.split(",")
    for d in doors:
        if d not in ("ioctl", "netlink", "sysfs"):
            sys.exit("doorfuzz: unknown door %s" % d)
    print("doorfuzz: seed %s, %d inputs, doors %s" % (a.seed, a.count, a.doors), flush=True)
    # input i goes to door doors[i % len(doors)]
    if a.only:
        lo, _, hi = a.only.partition("-")
        indices = range(int(lo), int(hi or lo) + 1)
    else:
        indices = range(a.count)
    by_door = {d: [i for i in indices if doors[i % len(doors)] == d] for d in doors}
    log = open(a.log, "a", buffering=1) if a.log else None
    rc = 0
    makers = {}
    if "ioctl" in doors:
        makers["ioctl"] = Ioctls(a.ctrl_dev, a.ns_dev)
    if "netlink" in doors:
        makers["netlink"] = Netlink(int(re.sub(r"\D", "", os.path.basename(a.sysfs_ctrl))))
    kmsg = Kmsg(a.sysfs_ctrl, a.reset_check)
    for d in ("ioctl", "netlink"):
        if d not in makers:
            continue
        counts = {}
        resets = 0
        t0 = time.time()
        for i in by_door[d]:
            r = random.Random("%s:%d" % (a.seed, i))
            desc, send = makers[d].make(r)
            if log:
                log.write("%d %s\n" % (i, desc))
            ret = send()
            res = "ok" if ret >= 0 else errname(ctypes.get_errno() if d == "ioctl" else -ret)
            if a.only:
                print("%d %s -> %s" % (i, desc, res))
            counts[res] = counts.get(res, 0) + 1
            if makers[d].may_reset:
                if not kmsg.wait_reset_end():
                    print("doorfuzz: FAILED (seed %s): input %d: %s -> %s: its reset did not end in 60 s" % (
                        a.seed, i, desc, res), flush=True)
                    return 1
                resets += 1
                continue
            seen = kmsg.resets()
            if seen:
                print("doorfuzz: FAILED (seed %s): input %d: %s -> %s: the controller was reset: %s" % (
                    a.seed, i, desc, res, " | ".join(seen)), flush=True)
                return 1
        print("doorfuzz: %s: %d inputs in %.0f s: %s; no reset but after the %d inputs meant to" % (
            d, len(by_door[d]), time.time() - t0,
            " ".join("%s %d" % kv for kv in sorted(counts.items())), resets), flush=True)
    if "sysfs" in doors:
        t0 = time.time()
        kmsg.lines()
        counts, fail = run_sysfs(a.seed, by_door["sysfs"], a.sysfs_ctrl, max(1, a.tasks))
        print("doorfuzz: sysfs: %d inputs in %.0f s: %s" % (
            len(by_door["sysfs"]), time.time() - t0,
            " ".join("%s %d" % kv for kv in sorted(counts.items()))), flush=True)
        done = [m for m in kmsg.lines() if RESET_END_RE.search(m)]
        if not fail and len(done) > counts.get("poll_queues ok", 0):
            fail = "%d resets, %d accepted poll_queues writes: %s" % (
                len(done), counts.get("poll_queues ok", 0), " | ".join(done))
        if fail:
            print("doorfuzz: FAILED (seed %s): %s" % (a.seed, fail), flush=True)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
