/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure text helpers for what sysfs and procfs hand us: device numbers,
 * mountinfo and swaps lines, paths, display escaping.  No I/O here,
 * so tests/parse_test.c reaches every function directly.
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

/* Decimal digits at *@sp -> *@v, *@sp moved past them; -1 if none or
 * overflowing 32 bits. */
int parse_dec(const char **sp, unsigned int *v);
/* The next space-separated field of *@sp (its start and length), *@sp
 * moved past it; -1 at the end of the line. */
int parse_field(const char **sp, const char **start, size_t *len);

/* A byte count: decimal digits, then optionally k, m, g or t (binary:
 * 1k = 1024), upper or lower case; "64m" -> 67108864.  0, or -1 if
 * malformed or beyond 2^62. */
int parse_bytes(const char *s, unsigned long long *v);
/* "OFFSET:LENGTH", each as parse_bytes(), LENGTH above 0: 0, or -1. */
int parse_byte_range(const char *s, unsigned long long *off,
		     unsigned long long *len);

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

/* Is @path strictly inside directory @dir ("/a/b/c" is inside "/a/b")? */
bool path_is_under(const char *path, const char *dir);

/*
 * Copy @in to @out for one-line display: newline, tab, CR, backslash and
 * other control bytes become \n, \t, \r, \\ and \xHH.  Returns @out
 * (truncated to fit, always NUL-terminated).
 */
char *escape_value(const char *in, char *out, size_t outlen);

/* The active scheduler of a queue/scheduler file: "none [mq-deadline]
 * kyber" -> "mq-deadline"; a single name as it is.  Returns @out. */
char *sched_active(const char *list, char *out, size_t len);

#endif
