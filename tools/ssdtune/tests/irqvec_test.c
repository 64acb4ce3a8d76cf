// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure part of interrupt vectors (irqvec.c): lines of
 * /proc/interrupts in, IRQ, action name, chip, MSI-X entry and counts out.
 * What reads the live /proc (irqvec_irq(), irqvec_count()) is left to the
 * bats tests against fixture trees.
 */
#include <stdbool.h>
#include <string.h>

#include "tap.h"
#include "tests.h"
#include "lib/irqvec.h"

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

void test_irqvec(void)
{
	test_interrupts();
	test_interrupts_vmd();
	test_interrupts_entry();
	test_interrupts_total();
}
