#!/usr/bin/env python3
"""Raw NVMe ioctls (include/uapi/linux/nvme_ioctl.h) for the passthrough
tests, where nvme-cli cannot send what is wanted: bad input, and ioctls on
a file held open while the controller goes away.

  nvme_pt.py DEV id                   NVME_IOCTL_ID
  nvme_pt.py DEV admin OPCODE [k=v]   NVME_IOCTL_ADMIN_CMD; k: nsid, cdw10,
                                      cdw11, cdw12, len, addr (bad: an
                                      unmapped address), meta_len, timeout
                                      (timeout_ms), ioctl64=1
  nvme_pt.py DEV io OPCODE [k=v]      NVME_IOCTL_IO_CMD, the same keys
  nvme_pt.py DEV submit OPCODE [k=v]  NVME_IOCTL_SUBMIT_IO; k: slba, nblocks
                                      (0-based), len (the buffer)
  nvme_pt.py DEV ioctl NUMBER         an ioctl with no argument
  nvme_pt.py DEV hold CMD...          open DEV, run CMD (a shell command
                                      line), then NVME_IOCTL_ID and an
                                      Identify Controller on the held file

Prints one line per ioctl: 'ok N' (N: the ioctl's return value, an NVMe
status for admin commands, then the result dword) or 'errno NAME'.
"""
import ctypes
import errno
import fcntl
import os
import subprocess
import sys


class PassthruCmd(ctypes.Structure):
    _fields_ = [("opcode", ctypes.c_uint8), ("flags", ctypes.c_uint8),
                ("rsvd1", ctypes.c_uint16), ("nsid", ctypes.c_uint32),
                ("cdw2", ctypes.c_uint32), ("cdw3", ctypes.c_uint32),
                ("metadata", ctypes.c_uint64), ("addr", ctypes.c_uint64),
                ("metadata_len", ctypes.c_uint32),
                ("data_len", ctypes.c_uint32),
                ("cdw10", ctypes.c_uint32), ("cdw11", ctypes.c_uint32),
                ("cdw12", ctypes.c_uint32), ("cdw13", ctypes.c_uint32),
                ("cdw14", ctypes.c_uint32), ("cdw15", ctypes.c_uint32),
                ("timeout_ms", ctypes.c_uint32)]


class UserIo(ctypes.Structure):
    _fields_ = [("opcode", ctypes.c_uint8), ("flags", ctypes.c_uint8),
                ("control", ctypes.c_uint16), ("nblocks", ctypes.c_uint16),
                ("rsvd", ctypes.c_uint16), ("metadata", ctypes.c_uint64),
                ("addr", ctypes.c_uint64), ("slba", ctypes.c_uint64),
                ("dsmgmt", ctypes.c_uint32), ("reftag", ctypes.c_uint32),
                ("apptag", ctypes.c_uint16), ("appmask", ctypes.c_uint16)]


class PassthruCmd32(ctypes.Structure):
    _fields_ = PassthruCmd._fields_ + [("result", ctypes.c_uint32)]


class PassthruCmd64(ctypes.Structure):
    _fields_ = PassthruCmd._fields_ + [("rsvd2", ctypes.c_uint32),
                                       ("result", ctypes.c_uint64)]


def _iowr(nr, size):
    return (3 << 30) | (size << 16) | (ord("N") << 8) | nr


NVME_IOCTL_ID = (ord("N") << 8) | 0x40
NVME_IOCTL_ADMIN_CMD = _iowr(0x41, ctypes.sizeof(PassthruCmd32))
NVME_IOCTL_ADMIN64_CMD = _iowr(0x47, ctypes.sizeof(PassthruCmd64))
NVME_IOCTL_IO_CMD = _iowr(0x43, ctypes.sizeof(PassthruCmd32))
NVME_IOCTL_IO64_CMD = _iowr(0x48, ctypes.sizeof(PassthruCmd64))
NVME_IOCTL_SUBMIT_IO = (1 << 30) | (ctypes.sizeof(UserIo) << 16) | (ord("N") << 8) | 0x42
assert ctypes.sizeof(UserIo) == 48
assert ctypes.sizeof(PassthruCmd32) == 72 and ctypes.sizeof(PassthruCmd64) == 80

libc = ctypes.CDLL(None, use_errno=True)
libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]


def ioctl(fd, nr, arg=None):
    ret = libc.ioctl(fd, nr, arg)
    if ret < 0:
        return "errno " + errno.errorcode[ctypes.get_errno()]
    return "ok %d" % ret


def admin(fd, opcode, kv, io=False):
    big = kv.get("ioctl64") == "1"
    c = (PassthruCmd64 if big else PassthruCmd32)()
    c.opcode = opcode
    c.nsid = int(kv.get("nsid", "0"), 0)
    c.cdw10 = int(kv.get("cdw10", "0"), 0)
    c.cdw11 = int(kv.get("cdw11", "0"), 0)
    c.cdw12 = int(kv.get("cdw12", "0"), 0)
    c.metadata_len = int(kv.get("meta_len", "0"), 0)
    c.timeout_ms = int(kv.get("timeout", "0"), 0)
    n = int(kv.get("len", "0"), 0)
    buf = ctypes.create_string_buffer(max(n, 1))
    c.data_len = n
    if n:
        c.addr = 0x10 if kv.get("addr") == "bad" else ctypes.addressof(buf)
    if io:
        nr = NVME_IOCTL_IO64_CMD if big else NVME_IOCTL_IO_CMD
    else:
        nr = NVME_IOCTL_ADMIN64_CMD if big else NVME_IOCTL_ADMIN_CMD
    r = ioctl(fd, nr, ctypes.addressof(c))
    return r if r.startswith("errno") else "%s result %#x" % (r, c.result)


def main(argv):
    dev, what, rest = argv[1], argv[2], argv[3:]
    fd = os.open(dev, os.O_RDONLY)
    if what == "id":
        print(ioctl(fd, NVME_IOCTL_ID))
    elif what == "admin":
        kv = dict(a.split("=", 1) for a in rest[1:])
        print(admin(fd, int(rest[0], 0), kv))
    elif what == "io":
        kv = dict(a.split("=", 1) for a in rest[1:])
        print(admin(fd, int(rest[0], 0), kv, io=True))
    elif what == "submit":
        kv = dict(a.split("=", 1) for a in rest[1:])
        u = UserIo()
        u.opcode = int(rest[0], 0)
        u.slba = int(kv.get("slba", "0"), 0)
        u.nblocks = int(kv.get("nblocks", "0"), 0)
        buf = ctypes.create_string_buffer(int(kv.get("len", "4096"), 0))
        u.addr = ctypes.addressof(buf)
        print(ioctl(fd, NVME_IOCTL_SUBMIT_IO, ctypes.addressof(u)))
    elif what == "ioctl":
        print(ioctl(fd, int(rest[0], 0)))
    elif what == "hold":
        subprocess.run(rest[0], shell=True, check=True)
        print(ioctl(fd, NVME_IOCTL_ID))
        print(admin(fd, 0x06, {"cdw10": "1", "len": "4096"}))
    else:
        sys.exit("nvme_pt.py: unknown request " + what)
    os.close(fd)


if __name__ == "__main__":
    main(sys.argv)
