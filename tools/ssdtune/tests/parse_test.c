// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the text helpers (parse.c, parse.h): device numbers,
 * mountinfo and swaps lines, paths, escaping, schedulers, byte counts.
 */
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/parse.h"

static void test_devnum(void)
{
	unsigned int ma = 0, mi = 0;

	CHECK(!parse_devnum("259:3\n", &ma, &mi) && ma == 259 && mi == 3,
	      "parse_devnum reads a sysfs dev file");
	CHECK(!parse_devnum("0:45", &ma, &mi) && ma == 0 && mi == 45,
	      "parse_devnum reads an anonymous device number");
	CHECK(parse_devnum("259", &ma, &mi) && parse_devnum("259:", &ma, &mi) &&
	      parse_devnum(":3", &ma, &mi) && parse_devnum("259:3x", &ma, &mi) &&
	      parse_devnum("99999999999:1", &ma, &mi),
	      "parse_devnum refuses malformed and overflowing numbers");
}

static void test_mountinfo(void)
{
	struct mountinfo_entry e;

	CHECK(!parse_mountinfo_line("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n", &e) &&
	      e.maj == 98 && e.min == 0 && !strcmp(e.mountpoint, "/mnt2") &&
	      !strcmp(e.source, "/dev/root"),
	      "parse_mountinfo_line reads the kernel's documented example");
	CHECK(!parse_mountinfo_line("90 28 259:1 / /mnt/my\\040data rw - xfs /dev/nvme0n1p1 rw\n", &e) &&
	      !strcmp(e.mountpoint, "/mnt/my data") && e.maj == 259 && e.min == 1,
	      "parse_mountinfo_line unescapes \\040 in mount points");
	CHECK(!parse_mountinfo_line("95 28 0:52 / /data rw shared:7 master:3 - btrfs /dev/nvme0n1p2 rw\n", &e) &&
	      e.maj == 0 && e.min == 52 && !strcmp(e.source, "/dev/nvme0n1p2"),
	      "parse_mountinfo_line skips optional fields (btrfs 0:N source)");
	CHECK(parse_mountinfo_line("36 35 98:0 /mnt1 /mnt2 rw\n", &e) &&
	      parse_mountinfo_line("", &e) && parse_mountinfo_line("1 2 x:y / / rw - a b c", &e),
	      "parse_mountinfo_line refuses truncated or malformed lines");
}

static void test_swaps(void)
{
	char p[64];

	CHECK(parse_swaps_line("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n", p, sizeof(p)),
	      "parse_swaps_line skips the header");
	CHECK(!parse_swaps_line("/dev/nvme0n1p2                          partition\t8388604\t0\t-2\n", p, sizeof(p)) &&
	      !strcmp(p, "/dev/nvme0n1p2"),
	      "parse_swaps_line reads the swap device");
	CHECK(!parse_swaps_line("/swap\\040file file 10 0 -3\n", p, sizeof(p)) &&
	      !strcmp(p, "/swap file"),
	      "parse_swaps_line unescapes the path");
}

static void test_pci_class(void)
{
	CHECK(pci_class_is_nvme(0x010802) && !pci_class_is_nvme(0x010801) &&
	      !pci_class_is_nvme(0x010601),
	      "pci_class_is_nvme wants class 01, subclass 08, prog-if 02");
}

static void test_paths(void)
{
	CHECK(path_is_under("/sys/devices/pci0000:40/0000:41:00.0/nvme/nvme0/nvme0n1",
			    "/sys/devices/pci0000:40/0000:41:00.0"),
	      "path_is_under sees a namespace under its PCI device");
	CHECK(!path_is_under("/sys/devices/pci0000:40/0000:41:00.10/x",
			     "/sys/devices/pci0000:40/0000:41:00.1"),
	      "path_is_under does not confuse 00.1 with 00.10");
	CHECK(!path_is_under("/a/b", "/a/b") && path_is_under("/a/b/c", "/a/b/"),
	      "path_is_under wants a strict child, trailing slash or not");
}

static void test_escape(void)
{
	char out[32];

	CHECK(!strcmp(escape_value("\n", out, sizeof(out)), "\\n"),
	      "escape_value shows a lone newline as \\n");
	CHECK(!strcmp(escape_value("ssdtune", out, sizeof(out)), "ssdtune"),
	      "escape_value leaves plain text alone");
	CHECK(!strcmp(escape_value("a\\b\t\x01", out, sizeof(out)), "a\\\\b\\t\\x01"),
	      "escape_value escapes backslash, tab and control bytes");
	CHECK(strlen(escape_value("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", out, 8)) <= 7,
	      "escape_value truncates to the buffer");
}

static void test_all_digits(void)
{
	CHECK(all_digits("0") && all_digits("4711") && !all_digits("") &&
	      !all_digits("12a") && !all_digits("-1") && !all_digits(" 1"),
	      "all_digits: one or more decimal digits and nothing else");
}

static void test_sched_active(void)
{
	char b[32];

	CHECK(!strcmp(sched_active("none [mq-deadline] kyber\n", b, sizeof(b)), "mq-deadline") &&
	      !strcmp(sched_active("[none] mq-deadline\n", b, sizeof(b)), "none") &&
	      !strcmp(sched_active("none\n", b, sizeof(b)), "none"),
	      "sched_active: the bracketed scheduler, or the only name");
}

static void test_bytes(void)
{
	unsigned long long v = 0, o = 0, l = 0;

	CHECK(!parse_bytes("0", &v) && v == 0 && !parse_bytes("4096", &v) && v == 4096 &&
	      !parse_bytes("64m", &v) && v == 64ULL << 20 &&
	      !parse_bytes("1G", &v) && v == 1ULL << 30 && !parse_bytes("2t", &v) && v == 2ULL << 40,
	      "parse_bytes: digits and a binary suffix");
	CHECK(parse_bytes("", &v) && parse_bytes("k", &v) && parse_bytes("1x", &v) &&
	      parse_bytes("1kb", &v) && parse_bytes("-1", &v) && parse_bytes(" 1", &v) &&
	      parse_bytes("1 ", &v) && parse_bytes("1.5g", &v) && parse_bytes("4194305t", &v) &&
	      parse_bytes("99999999999999999999", &v),
	      "parse_bytes: empty, unknown suffixes, signs, spaces, fractions and overflow refused");
	CHECK(!parse_byte_range("1g:64m", &o, &l) && o == 1ULL << 30 && l == 64ULL << 20 &&
	      !parse_byte_range("0:4096", &o, &l) && o == 0 && l == 4096,
	      "parse_byte_range: OFFSET:LENGTH");
	CHECK(parse_byte_range("1g", &o, &l) && parse_byte_range("1g:0", &o, &l) &&
	      parse_byte_range(":4k", &o, &l) && parse_byte_range("4k:", &o, &l) &&
	      parse_byte_range("1:2:3", &o, &l),
	      "parse_byte_range: no colon, a zero length, a missing side, two colons refused");
}

void test_parse(void)
{
	test_devnum();
	test_mountinfo();
	test_swaps();
	test_pci_class();
	test_paths();
	test_escape();
	test_all_digits();
	test_sched_active();
	test_bytes();
}
