/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure text helpers for what sysfs and procfs hand us: device numbers,
 * mountinfo and swaps lines, device names, display escaping.  No I/O here,
 * so tests/unit.c reaches every function directly.
 */
#ifndef SSDTUNE_PARSE_H
#define SSDTUNE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define PCI_CLASS_NVME 0x010802u	/* mass storage, NVM, NVMe interface */

static inline bool pci_class_is_nvme(unsigned int class24)
{
	return class24 == PCI_CLASS_NVME;
}

/* Is @s one or more decimal digits and nothing else? */
bool all_digits(const char *s);
/* qsort() comparison of two ints, ascending. */
int int_cmp(const void *a, const void *b);
/* The value of hex digit @c, or -1. */
int hex_digit(char c);

/* "259:3" (a sysfs dev file, newline allowed) -> 0, or -1. */
int parse_devnum(const char *s, unsigned int *maj, unsigned int *min);

struct mountinfo_entry {
	unsigned int maj, min;
	char mountpoint[4096];	/* unescaped (\040 -> ' ') */
	char source[4096];	/* unescaped; "none", "/dev/x", ... */
};

/* One /proc/PID/mountinfo line -> 0, or -1 if malformed. */
int parse_mountinfo_line(const char *line, struct mountinfo_entry *e);

/* One /proc/swaps line -> the swap file/device path (unescaped), or -1
 * (also for the header line). */
int parse_swaps_line(const char *line, char *path, size_t len);

/* Undo the kernel's octal escapes (\040, \011, \012, \134) in place of a
 * field copied to @out. */
void unescape_octal(const char *in, size_t inlen, char *out, size_t outlen);

/* "ssdt12" -> 12; anything else -> -1. */
int ssdt_ctrl_index(const char *name);

/* Is @name namespace disk "<ctrl>n<digits>" of controller @ctrl? */
bool is_ctrl_disk(const char *name, const char *ctrl);

/* Is @path strictly inside directory @dir ("/a/b/c" is inside "/a/b")? */
bool path_is_under(const char *path, const char *dir);

/*
 * Copy @in to @out for one-line display: newline, tab, CR, backslash and
 * other control bytes become \n, \t, \r, \\ and \xHH.  Returns @out
 * (truncated to fit, always NUL-terminated).
 */
char *escape_value(const char *in, char *out, size_t outlen);

/*
 * Format @n CPU (or node) numbers, ascending, as a kernel cpulist
 * ("0-3,8,10-11"); "" for none.  Returns @buf (truncated to fit).
 */
char *cpulist_format(const int *ids, size_t n, char *buf, size_t len);

/*
 * One /proc/interrupts line: "  33:   0   5  PCI-MSIX-0000:41:00.0  0-edge
 * nvme0q0" -> @irq 33, @name "nvme0q0" (the last field).  0, or -1 for the
 * CPU header, NMI/LOC/... rows and malformed lines.
 */
int parse_interrupts_line(const char *line, int *irq, char *name, size_t len);

/*
 * The same line's chip and hwirq columns ("PCI-MSIX-0000:41:00.0",
 * 3 from "3-edge"): 0 with @irq set, @chip "" and @hwirq ~0 where the
 * line has none; -1 for lines without an IRQ number.
 */
int parse_interrupts_hw(const char *line, int *irq, char *chip, size_t clen,
			unsigned long long *hwirq);

/* The same line's per-CPU counts, summed: 0 with @irq and @total set,
 * -1 for lines without an IRQ number. */
int parse_interrupts_total(const char *line, int *irq,
			   unsigned long long *total);

/*
 * The MSI-X (or MSI) table entry that hwirq @hwirq of chip @chip is for PCI
 * function @bdf ("0000:41:00.0"): "PCI-MSIX-<bdf>" (a domain per device,
 * 6.2+) numbers vectors by entry; the older global "PCI-MSI" domain puts
 * the entry in the low 11 bits next to the device's id.  -1 when the chip
 * does not say or the hwirq is another function's.
 */
int msi_entry(const char *chip, unsigned long long hwirq, const char *bdf);

/* The active scheduler of a queue/scheduler file: "none [mq-deadline]
 * kyber" -> "mq-deadline"; a single name as it is.  Returns @out. */
char *sched_active(const char *list, char *out, size_t len);

#endif
