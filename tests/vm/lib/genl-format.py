#!/usr/bin/env python3
"""genl-format.py CTRL NSID SES [--omit ATTR] [--extack]: send the ssdtune
netlink command FORMAT with raw generic netlink (no library), print the
kernel's answer as an errno name ("OK" for an ack) and exit 0.  For the VM
tests of bad FORMAT requests: attribute values are sent as given, --omit
leaves one of ctrl, nsid, ses out; --extack adds the kernel's extended ack
message after the name ("EINVAL: integer out of range"), as the attribute
policy sets it (a handler's own refusal has none).  Numbers come from
include/uapi/linux/ssdtune.h (read at run time, not copied)."""
import errno
import os
import re
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLMSG_ERROR = 2
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1

UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../../include/uapi/linux/ssdtune.h")


def enum_values(text, name):
    """Values of the members of C enum NAME (implicit numbering only)."""
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    return {m: i for i, m in enumerate(
        x.strip() for x in body.split(",") if x.strip())}


def attr(kind, payload):
    pad = (4 - len(payload) % 4) % 4
    return struct.pack("HH", 4 + len(payload), kind) + payload + b"\0" * pad


def request(sock, family, cmd, attrs, seq):
    """Send; return (type, payload) of the first reply to @seq, and read
    on to its ack (a reply with data is followed by one)."""
    body = struct.pack("BBH", cmd, 1, 0) + b"".join(attrs)
    msg = struct.pack("IHHII", 16 + len(body), family,
                      NLM_F_REQUEST | NLM_F_ACK, seq, 0) + body
    sock.send(msg)
    first = None
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            ln, kind, _, s, _ = struct.unpack("IHHII", data[off:off + 16])
            if s == seq:
                if first is None:
                    first = (kind, data[off + 16:off + ln])
                if kind == NLMSG_ERROR:
                    return first
            off += (ln + 3) & ~3


def main():
    args = sys.argv[1:]
    omit = None
    extack = "--extack" in args
    if extack:
        args.remove("--extack")
    if "--omit" in args:
        i = args.index("--omit")
        omit = args[i + 1]
        del args[i:i + 2]
    ctrl, nsid, ses = (int(x) for x in args)
    text = open(UAPI).read()
    cmds = enum_values(text, "ssdtune_cmd")
    attrs = enum_values(text, "ssdtune_attr")
    name = re.search(r'#define SSDTUNE_GENL_NAME\s+"(\w+)"', text).group(1)

    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    # errors echo only the request's header, then the extended ack's TLVs
    sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    kind, payload = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                            [attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")], 1)
    if kind == NLMSG_ERROR:
        print("no family %s" % name)
        return 1
    family = None
    off = 4
    while off + 4 <= len(payload):
        ln, t = struct.unpack("HH", payload[off:off + 4])
        if t == CTRL_ATTR_FAMILY_ID:
            family = struct.unpack("H", payload[off + 4:off + 6])[0]
        off += (ln + 3) & ~3
    a = []
    for key, value in (("ctrl", ctrl), ("nsid", nsid), ("ses", ses)):
        if key != omit:
            a.append(attr(attrs["SSDTUNE_A_" + key.upper()],
                          struct.pack("I", value)))
    kind, payload = request(sock, family, cmds["SSDTUNE_CMD_FORMAT"], a, 2)
    if kind != NLMSG_ERROR:
        print("unexpected reply type %d" % kind)
        return 1
    err = -struct.unpack("i", payload[:4])[0]
    # (Python names 95 ENOTSUP; the kernel's name is EOPNOTSUPP)
    names = dict(errno.errorcode)
    names[errno.EOPNOTSUPP] = "EOPNOTSUPP"
    out = "OK" if err == 0 else names.get(err, str(err))
    off = 20                    # int error, struct nlmsghdr
    while extack and off + 4 <= len(payload):
        ln, t = struct.unpack("HH", payload[off:off + 4])
        if ln < 4:
            break
        if t == NLMSGERR_ATTR_MSG:
            out += ": " + payload[off + 4:off + ln].rstrip(b"\0").decode()
        off += (ln + 3) & ~3
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
