/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PCI function's interrupt vectors, found in one place for topology,
 * plan, verify, revert and bench.  A vector's IRQ number changes across
 * rebinds and reboots; its identity does not:
 *  - the MSI-X (or MSI) table entry, from the chip and hwirq columns of
 *    /proc/interrupts (irqvec_msi_entry() below);
 *  - for a controller on ssdtune, the queue K whose queues/qK/irq names it.
 * Where /proc/interrupts does not say the entry (INTx, another chip), a
 * vector's rank among the function's msi_irqs stands in for it.
 */
#ifndef SSDTUNE_LIB_IRQVEC_H
#define SSDTUNE_LIB_IRQVEC_H

#include <stdbool.h>

#include "lib/error.h"

struct irqvec {
	int irq;		/* Linux IRQ number, now */
	int entry;		/* MSI-X/MSI entry (or the rank, see above) */
	int queue;		/* ssdtune: K of queues/qK/irq; else -1 */
	char name[64];		/* action in /proc/interrupts, "nvme0q3" */
	bool vmd;		/* remapped by Intel VMD (chip VMD-MSI) */
};

struct irqvecs {
	struct irqvec *v;	/* ascending by entry */
	int n;
	bool by_rank;		/* entries are ranks: the kernel did not say */
};

/* /proc/interrupts, read once for several irqvec_list() calls. */
struct irqtable {
	struct irqline *l;
	int n;
};
int irqtable_read(struct irqtable *t, struct lib_err *err);
void irqtable_free(struct irqtable *t);

/*
 * The vectors of PCI function @bdf ("0000:41:00.0"): its msi_irqs, or its
 * INTx line if it has none.  @tab: a table already read, or NULL to read
 * /proc/interrupts here.  @ssdt: its ssdtune controller ("ssdt0"), or
 * NULL/"" if none.  0 (n may be 0) or -errno with @err filled.
 */
int irqvec_list(const char *bdf, const char *ssdt,
		const struct irqtable *tab, struct irqvecs *out,
		struct lib_err *err);
void irqvec_free(struct irqvecs *v);

/* How often @irq has fired, on all CPUs together (/proc/interrupts), or
 * -1 if it is not listed. */
long long irqvec_count(int irq);
/* The same for @irqs[0..@n) together, in one read; -1 if none is listed. */
long long irqvec_count_sum(const int *irqs, int n);

/*
 * Can userspace steer vector @entry (Linux IRQ @irq) of a function bound
 * to @driver?  1: no, kernel-managed; 0: yes; -1: unknown.  6.12+ makes a
 * managed vector's smp_affinity read-only (0444): that is proof.  Before,
 * only a write tells (EIO), and nothing is written: inferred from the
 * driver.  A vector Intel VMD remaps (@vmd: its chip is VMD-MSI) cannot
 * move either: VMD's chip refuses affinity writes (EINVAL).  *@why says
 * how it was judged.
 */
int irqvec_managed(int irq, int entry, const char *driver, bool vmd,
		   const char **why);

/* Whether /proc/interrupts' chip column @chip is Intel VMD's remapping. */
bool irqvec_chip_vmd(const char *chip);

/* The IRQ number that vector @entry of @bdf has now, or -ENOENT. */
int irqvec_irq(const char *bdf, int entry);

/* Reading /proc/interrupts: pure, tests/unit.c calls them directly. */

/*
 * One /proc/interrupts line: "  33:   0   5  PCI-MSIX-0000:41:00.0  0-edge
 * nvme0q0" -> @irq 33, @name "nvme0q0" (the last field).  0, or -1 for the
 * CPU header, NMI/LOC/... rows and malformed lines.
 */
int irqvec_parse_line(const char *line, int *irq, char *name, size_t len);

/*
 * The same line's chip and hwirq columns ("PCI-MSIX-0000:41:00.0",
 * 3 from "3-edge"): 0 with @irq set, @chip "" and @hwirq ~0 where the
 * line has none; -1 for lines without an IRQ number.
 */
int irqvec_parse_hw(const char *line, int *irq, char *chip, size_t clen,
		    unsigned long long *hwirq);

/* The same line's per-CPU counts, summed: 0 with @irq and @total set,
 * -1 for lines without an IRQ number. */
int irqvec_parse_total(const char *line, int *irq,
		       unsigned long long *total);

/*
 * The MSI-X (or MSI) table entry that hwirq @hwirq of chip @chip is for PCI
 * function @bdf ("0000:41:00.0"): "PCI-MSIX-<bdf>" (a domain per device,
 * 6.2+) numbers vectors by entry; the older global "PCI-MSI" domain puts
 * the entry in the low 11 bits next to the device's id.  -1 when the chip
 * does not say or the hwirq is another function's.
 */
int irqvec_msi_entry(const char *chip, unsigned long long hwirq,
		     const char *bdf);

#endif
