#!/usr/bin/env python3
"""The tool spells no sysfs file name of ssdtune.ko: it takes them from the
driver's table, include/uapi/linux/ssdtune_knobs.h, through KNOB_FILE()
(lib/knobtab.h), ATTR_FILE() and QUEUE_FILE() (lib/ssdtdev.h), so a
rename in the driver breaks the tool's build instead of its reads.

The names: every SSDTUNE_KNOB(), SSDTUNE_ATTR() and SSDTUNE_QUEUE_ATTR()
line of that header, and SSDTUNE_QUEUES_DIR of ssdtune.h.  The files:
tools/ssdtune/{lib,cmd,bench}/*.[ch], or the files and directories given
as arguments.  Each C string literal outside comments and #include lines
fails, naming file and line, when

- it is a path (it has a '/') one of whose components is a name
  ("%s/serial", "queues/q%d/cpus"), unless it starts with /proc/ or
  /dev/, where the driver has no file; or
- it is a name ("serial"), unless it is an argument of a call that takes
  a key, not a file: json_object_*(), report_*(), rebind_set_*(),
  bench_add_*(), bench_j*() (JSON keys and report fields that happen to
  be spelled as a file are not file names).

A literal that is not the driver's file (a file of stock nvme or of the
PCI core with the same name, a configuration key, an option) passes on
a line with a comment that says why with the mark "lint-names:", or on
the line after such a comment, e.g. /* lint-names: stock nvme's file */.
Run by `make lint` (scripts/lint.sh)
and by the host tests (tests/host/harness/names.bats).  Exit 0 if clean.
"""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UAPI = os.path.join(REPO, "include", "uapi", "linux")
DIRS = [os.path.join(REPO, "tools", "ssdtune", d) for d in ("lib", "cmd", "bench")]
KEY_CALL = re.compile(r"json_object_\w+|report_\w+|rebind_set_\w+|bench_add_\w+|bench_j\w+")
MARK = "lint-names:"
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                   r'|[A-Za-z_]\w*|\n|[()]|[^\sA-Za-z_()"\'/]+|/|\s+', re.S)


def names():
    with open(os.path.join(UAPI, "ssdtune_knobs.h")) as f:
        found = set(re.findall(r"^SSDTUNE_(?:KNOB|ATTR|QUEUE_ATTR)\((\w+)", f.read(), re.M))
    with open(os.path.join(UAPI, "ssdtune.h")) as f:
        found |= set(re.findall(r'^#define\s+SSDTUNE_QUEUES_DIR\s+"(\w+)"', f.read(), re.M))
    return found


def literals(text, marked):
    """(line, text of the literal, the call it is an argument of or None);
    the lines a comment with MARK covers go into @marked."""
    line, calls, prev = 1, [], None
    for m in TOKEN.finditer(text):
        tok = m.group(0)
        if tok.startswith("/*") or tok.startswith("//"):
            end = line + tok.count("\n")
            if MARK in tok:
                marked.update(range(line, end + 2))
            line = end
            continue
        if tok == "\n" or tok.isspace():
            line += tok.count("\n")
            continue
        if tok == "(":
            calls.append(prev if prev and re.match(r"[A-Za-z_]", prev) else None)
        elif tok == ")":
            if calls:
                calls.pop()
        elif tok.startswith('"'):
            yield line, tok[1:-1], calls[-1] if calls else None
        prev = tok


def check(path, table, out):
    with open(path, errors="replace") as f:
        text = f.read()
    raw = text.split("\n")
    bad = 0
    marked = set()
    for line, lit, call in list(literals(text, marked)):
        if line in marked or re.match(r"\s*#\s*include\b", raw[line - 1]):
            continue
        if "/" in lit:
            if lit.startswith(("/proc/", "/dev/")) or not table & set(lit.split("/")):
                continue
        elif lit not in table or (call and KEY_CALL.fullmatch(call)):
            continue
        out.append('%s:%d: "%s" names a sysfs file of ssdtune.ko: build it with '
                   'KNOB_FILE(), ATTR_FILE() or QUEUE_FILE(), or say on the line '
                   'why it is not the driver\'s (/* %s ... */)'
                   % (os.path.relpath(path, REPO) if path.startswith(REPO) else path,
                      line, lit, MARK))
        bad += 1
    return bad


def sources(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith((".c", ".h")):
                    yield os.path.join(a, n)
        else:
            yield a


def main():
    table = names()
    if len(table) < 20:
        print("lint-names: only %d names in %s/ssdtune_knobs.h" % (len(table), UAPI))
        return 1
    files = list(sources(sys.argv[1:] or DIRS))
    if not files:
        print("lint-names: no C files to read")
        return 1
    out = []
    bad = sum(check(f, table, out) for f in files)
    for o in out:
        print("lint-names: " + o)
    if bad:
        print("lint-names: %d literal sysfs file names of ssdtune.ko (above)" % bad)
        return 1
    print("lint-names: %d files spell no sysfs file name of ssdtune.ko (%d names)"
          % (len(files), len(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
