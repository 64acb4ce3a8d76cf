// SPDX-License-Identifier: GPL-2.0
/* Unit tests of ssdtune's pure helpers (bdf.c, parse.c, config.c, ...).  TAP on stdout. */
#include <string.h>

#include "tap.h"
#include "lib/bdf.h"
#include "lib/cpuset.h"
#include "lib/irqvec.h"
#include "lib/parse.h"
#include "lib/pcie.h"
#include "lib/ssdtdev.h"
#include "plan_test.c"
#include "config_test.c"
#include "ctrlview_test.c"

static int bdf_is(const char *s, unsigned int dom, unsigned int bus,
		  unsigned int dev, unsigned int fn)
{
	struct bdf b;

	return !bdf_parse(s, &b) && b.domain == dom && b.bus == bus &&
	       b.dev == dev && b.fn == fn;
}

static int bdf_bad(const char *s)
{
	struct bdf b = { 1, 2, 3, 4 };

	return bdf_parse(s, &b) == -1 && b.domain == 1 && b.fn == 4;
}

static void test_bdf(void)
{
	struct bdf b = { 0x10000, 0xe0, 0x06, 0 };
	char buf[BDF_BUFSZ];

	CHECK(bdf_is("0000:41:00.0", 0, 0x41, 0, 0),
	      "bdf_parse accepts the kernel's DDDD:BB:DD.F");
	CHECK(bdf_is("41:00.0", 0, 0x41, 0, 0),
	      "bdf_parse reads BB:DD.F as domain 0");
	CHECK(bdf_is("0000:AF:1F.7", 0, 0xaf, 0x1f, 7),
	      "bdf_parse accepts upper-case hex and the top device/function");
	CHECK(bdf_is("10000:e0:06.0", 0x10000, 0xe0, 6, 0),
	      "bdf_parse accepts a five-digit (VMD) domain");
	CHECK(bdf_bad("0000:41:20.0"), "bdf_parse refuses device 0x20");
	CHECK(bdf_bad("0000:41:00.8"), "bdf_parse refuses function 8");
	CHECK(bdf_bad("0000:41:00.0 "), "bdf_parse refuses trailing text");
	CHECK(bdf_bad("0000:41:00"), "bdf_parse refuses a missing function");
	CHECK(bdf_bad("0000:4:00.0"), "bdf_parse refuses a one-digit bus");
	CHECK(bdf_bad("000041:00.0"), "bdf_parse refuses a missing separator");
	CHECK(bdf_bad("123456789:00:00.0"),
	      "bdf_parse refuses a domain over eight digits");
	CHECK(bdf_bad("") && bdf_bad(NULL) && bdf_bad("zz"),
	      "bdf_parse refuses empty, NULL and junk");
	CHECK(bdf_bad("0000:41:00.0/../x"), "bdf_parse refuses path tricks");
	CHECK(!strcmp(bdf_format(&b, buf, sizeof(buf)), "10000:e0:06.0"),
	      "bdf_format spells a VMD domain like the kernel");
	b = (struct bdf){ 0, 0x41, 0, 0 };
	CHECK(!strcmp(bdf_format(&b, buf, sizeof(buf)), "0000:41:00.0"),
	      "bdf_format pads to DDDD:BB:DD.F");
}

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

static void test_names(void)
{
	char p[64], small[24];

	CHECK(ssdtdev_index("ssdt0") == 0 && ssdtdev_index("ssdt17") == 17,
	      "ssdtdev_index reads ssdtN");
	CHECK(ssdtdev_index("ssdt") < 0 && ssdtdev_index("ssdt0n1") < 0 &&
	      ssdtdev_index("ssdt01") < 0 && ssdtdev_index("nvme0") < 0 &&
	      ssdtdev_index(NULL) < 0,
	      "ssdtdev_index refuses disks, leading zeros and other names");
	CHECK(ssdtdev_is_disk("ssdt0n1", "ssdt0") && ssdtdev_is_disk("ssdt10n12", "ssdt10"),
	      "ssdtdev_is_disk matches the controller's namespaces");
	CHECK(!ssdtdev_is_disk("ssdt10n1", "ssdt1") && !ssdtdev_is_disk("ssdt0n1p1", "ssdt0") &&
	      !ssdtdev_is_disk("ssdt0n", "ssdt0") && !ssdtdev_is_disk("ssdt0", "ssdt0"),
	      "ssdtdev_is_disk refuses other controllers, partitions and stubs");
	CHECK(!strcmp(ssdtdev_path(p, sizeof(p), "ssdt3", NULL), "/sys/class/ssdtune/ssdt3") &&
	      !strcmp(ssdtdev_path(p, sizeof(p), "ssdt3", "queues/q1/irq"),
		      "/sys/class/ssdtune/ssdt3/queues/q1/irq"),
	      "ssdtdev_path builds a controller's directory and its files");
	CHECK(!strcmp(ssdtdev_path(small, sizeof(small), "ssdt3", "power_limit_mw"), ""),
	      "ssdtdev_path leaves a path that does not fit empty");
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

static void test_cpulist(void)
{
	const int a[] = { 0, 1, 2, 3, 8, 10, 11 }, b[] = { 5 };
	const int c[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20 };
	char buf[64], small[6];

	CHECK(!strcmp(cpulist_format(a, 7, buf, sizeof(buf)), "0-3,8,10-11"),
	      "cpulist_format folds runs into ranges");
	CHECK(!strcmp(cpulist_format(b, 1, buf, sizeof(buf)), "5") &&
	      !strcmp(cpulist_format(a, 0, buf, sizeof(buf)), ""),
	      "cpulist_format writes a single CPU and an empty list");
	CHECK(!strcmp(cpulist_format(c, 15, small, sizeof(small)), "0-13"),
	      "cpulist_format drops what does not fit, never a partial range");
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

static void test_interrupts(void)
{
	char name[16];
	int irq = -1;

	CHECK(!irqvec_parse_line(" 133:          0         57  PCI-MSIX-0000:41:00.0    1-edge      nvme0q1\n",
				     &irq, name, sizeof(name)) &&
	      irq == 133 && !strcmp(name, "nvme0q1"),
	      "irqvec_parse_line reads the IRQ and its action name");
	CHECK(irqvec_parse_line("           CPU0       CPU1\n", &irq, name, sizeof(name)) &&
	      irqvec_parse_line("NMI:  0  0   Non-maskable interrupts\n", &irq, name, sizeof(name)) &&
	      irqvec_parse_line(" 12:\n", &irq, name, sizeof(name)),
	      "irqvec_parse_line skips the header, named rows and empty lines");
}

/* irqvec_parse_hw() then irqvec_msi_entry(): the entry, or -1. */
static int entry_of(const char *line, const char *bdf, int *irq)
{
	unsigned long long hw;
	char chip[64];

	if (irqvec_parse_hw(line, irq, chip, sizeof(chip), &hw))
		return -2;
	return irqvec_msi_entry(chip, hw, bdf);
}

static void test_interrupts_vmd(void)
{
	const char *why = NULL;
	unsigned long long hw;
	char chip[64];
	int irq;

	CHECK(!irqvec_parse_hw(" 160:  0  12  VMD-MSI  524288-edge  ssdt0q1\n",
			       &irq, chip, sizeof(chip), &hw) &&
	      irqvec_chip_vmd(chip) && irq == 160,
	      "a vector behind Intel VMD: its chip column is VMD-MSI");
	CHECK(!irqvec_chip_vmd("IR-PCI-MSIX-0000:41:00.0") && !irqvec_chip_vmd("PCI-MSI"),
	      "other MSI chips are not VMD's");
	CHECK(irqvec_managed(-1, 1, "ssdtune", true, &why) == 1 && strstr(why, "VMD"),
	      "a VMD-remapped vector is not steerable, even on ssdtune");
	CHECK(irqvec_managed(-1, 1, "ssdtune", false, &why) == 0,
	      "an ssdtune vector otherwise is");
}

static void test_interrupts_entry(void)
{
	const char *bdf = "0000:41:00.0";
	int irq = -1;

	CHECK(entry_of(" 133:          0         57  PCI-MSIX-0000:41:00.0    3-edge      nvme0q3\n",
		       bdf, &irq) == 3 && irq == 133,
	      "MSI-X entry from a per-device domain (6.2+): the hwirq");
	CHECK(entry_of(" 40:  1  2  IR-PCI-MSIX-0000:41:00.0  7-edge  ssdt0q7\n",
		       bdf, &irq) == 7 && irq == 40,
	      "MSI-X entry behind interrupt remapping");
	/* 6.1: hwirq = 3 | 0x4100 << 11 (bus 0x41, devfn 0) */
	CHECK(entry_of(" 24:  0  0  PCI-MSI 34078723-edge  nvme0q3\n", bdf, &irq) == 3 &&
	      irq == 24,
	      "MSI-X entry from the global PCI-MSI domain (6.1): the low 11 bits");
	CHECK(entry_of(" 24:  0  0  PCI-MSI 34078723-edge  nvme0q3\n", "0000:42:00.0",
		       &irq) == -1,
	      "a global-domain hwirq of another function gives no entry");
	CHECK(entry_of(" 50:  0  0  PCI-MSIX-0000:42:00.0  1-edge  nvme1q1\n", bdf, &irq) == -1 &&
	      entry_of(" 51:  0  ITS-MSI 524288 Edge  nvme0q1\n", bdf, &irq) == -1 && irq == 51,
	      "another device's domain or an unknown chip gives no entry");
	CHECK(entry_of("NMI:  0  0   Non-maskable interrupts\n", bdf, &irq) == -2 &&
	      entry_of(" 12:\n", bdf, &irq) == -1,
	      "irqvec_parse_hw skips named rows, an empty row has no entry");
}

static void test_interrupts_total(void)
{
	unsigned long long t = 0;
	int irq = -1;

	CHECK(!irqvec_parse_total(" 133:   10   57  PCI-MSIX-0000:41:00.0    3-edge  nvme0q3\n",
				      &irq, &t) && irq == 133 && t == 67 &&
	      !irqvec_parse_total(" 12:\n", &irq, &t) && irq == 12 && t == 0 &&
	      irqvec_parse_total("NMI:  1  2  Non-maskable interrupts\n", &irq, &t),
	      "irqvec_parse_total sums the per-CPU counts, not the hwirq");
}

static void test_pcie(void)
{
	struct pcie_link g3x4 = { 3, 4 }, g3x2 = { 3, 2 }, g4x4 = { 4, 4 };
	struct pcie_link g2x8 = { 2, 8 }, bad = { 9, 4 }, c;

	CHECK(pcie_link_mbps(&g3x4) == 3940 && pcie_link_mbps(&g4x4) == 7876,
	      "pcie_link_mbps: Gen3 x4 is 3940 MB/s, Gen4 x4 7876 MB/s (128b/130b)");
	CHECK(pcie_link_mbps(&g2x8) == 4000,
	      "pcie_link_mbps: Gen2 x8 is 4 GB/s whatever the slot (8b/10b)");
	CHECK(pcie_link_mbps(&bad) == 0 && !strcmp(pcie_speed_str(9), "unknown") &&
	      !strcmp(pcie_speed_str(1), "2.5GT/s"),
	      "pcie speeds: unknown codes give 0 MB/s and 'unknown'");
	c = pcie_link_ceiling(&g4x4, &g3x4);
	CHECK(c.speed == 3 && c.width == 4 && pcie_link_degraded(&c, &g4x4),
	      "pcie_link_ceiling: a Gen3 port caps a Gen4 device");
	c = pcie_link_ceiling(&g3x4, NULL);
	CHECK(pcie_link_degraded(&g3x2, &c) && !pcie_link_degraded(&g3x4, &c),
	      "pcie_link_degraded: x2 of an x4 link is degraded, x4 is not");
}

int main(void)
{
	test_bdf();
	test_devnum();
	test_mountinfo();
	test_swaps();
	test_names();
	test_paths();
	test_escape();
	test_cpulist();
	test_all_digits();
	test_sched_active();
	test_bytes();
	test_interrupts();
	test_interrupts_vmd();
	test_interrupts_entry();
	test_interrupts_total();
	test_pcie();
	test_cpuset();
	test_plan_latency();
	test_plan_profiles();
	test_plan_rules();
	test_plan_group();
	test_config_good();
	test_config_bad();
	test_plan_config();
	test_qualify_diff();
	return tap_done();
}
