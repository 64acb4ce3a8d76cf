// SPDX-License-Identifier: GPL-2.0
/* Pure parsing helpers; see parse.h. */
#include <stdio.h>
#include <string.h>

#include "lib/bdf.h"
#include "lib/parse.h"
#include "uapi/linux/ssdtune.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Decimal digits at *sp -> *v; -1 if none or overflowing 32 bits. */
static int dec(const char **sp, unsigned int *v)
{
	const char *s = *sp;
	unsigned long long x = 0;

	if (!is_digit(*s))
		return -1;
	while (is_digit(*s)) {
		x = x * 10 + (unsigned int)(*s - '0');
		if (x > 0xffffffffULL)
			return -1;
		s++;
	}
	*sp = s;
	*v = (unsigned int)x;
	return 0;
}

int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!is_digit(*s))
			return false;
	return true;
}

int parse_devnum(const char *s, unsigned int *maj, unsigned int *min)
{
	unsigned int a, b;

	if (!s || dec(&s, &a) || *s++ != ':' || dec(&s, &b))
		return -1;
	if (*s == '\n')
		s++;
	if (*s)
		return -1;
	*maj = a;
	*min = b;
	return 0;
}

void unescape_octal(const char *in, size_t inlen, char *out, size_t outlen)
{
	size_t i = 0, o = 0;

	if (!outlen)
		return;
	while (i < inlen && o + 1 < outlen) {
		if (in[i] == '\\' && i + 3 < inlen &&
		    in[i + 1] >= '0' && in[i + 1] <= '3' &&
		    in[i + 2] >= '0' && in[i + 2] <= '7' &&
		    in[i + 3] >= '0' && in[i + 3] <= '7') {
			out[o++] = (char)(((in[i + 1] - '0') << 6) |
					  ((in[i + 2] - '0') << 3) |
					  (in[i + 3] - '0'));
			i += 4;
		} else {
			out[o++] = in[i++];
		}
	}
	out[o] = '\0';
}

/* Next space-separated field of *sp: start and length; -1 at the end. */
static int field(const char **sp, const char **start, size_t *len)
{
	const char *s = *sp;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return -1;
	*start = s;
	while (*s && *s != ' ' && *s != '\n')
		s++;
	*len = (size_t)(s - *start);
	*sp = s;
	return 0;
}

/*
 * 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)   (10)         (11)
 * Field 7 is zero or more optional fields ended by the "-" separator.
 */
int parse_mountinfo_line(const char *line, struct mountinfo_entry *e)
{
	const char *p = line, *f;
	size_t n;
	unsigned int maj, min;
	char num[32];
	int i;

	if (!line)
		return -1;
	for (i = 0; i < 2; i++)		/* mount id, parent id */
		if (field(&p, &f, &n))
			return -1;
	if (field(&p, &f, &n) || n >= sizeof(num))
		return -1;
	memcpy(num, f, n);
	num[n] = '\0';
	if (parse_devnum(num, &maj, &min))
		return -1;
	if (field(&p, &f, &n))		/* root */
		return -1;
	if (field(&p, &f, &n))		/* mount point */
		return -1;
	unescape_octal(f, n, e->mountpoint, sizeof(e->mountpoint));
	for (;;) {			/* options, optional fields, "-" */
		if (field(&p, &f, &n))
			return -1;
		if (n == 1 && *f == '-')
			break;
	}
	if (field(&p, &f, &n))		/* fs type */
		return -1;
	if (field(&p, &f, &n))		/* source */
		return -1;
	unescape_octal(f, n, e->source, sizeof(e->source));
	e->maj = maj;
	e->min = min;
	return 0;
}

/* Filename				Type		Size	Used	Priority
 * /dev/nvme0n1p2                          partition	8388604	0	-2
 */
int parse_swaps_line(const char *line, char *path, size_t len)
{
	const char *p = line, *f;
	size_t n;

	if (!line || field(&p, &f, &n) || *f != '/')
		return -1;
	unescape_octal(f, n, path, len);
	return 0;
}

int ssdt_ctrl_index(const char *name)
{
	size_t pl = strlen(SSDTUNE_CTRL_PREFIX);
	const char *s;
	unsigned int v;

	if (!name || strncmp(name, SSDTUNE_CTRL_PREFIX, pl))
		return -1;
	s = name + pl;
	if (dec(&s, &v) || *s || v > 0x7fffffff)
		return -1;
	if (name[pl] == '0' && name[pl + 1])	/* no leading zeros */
		return -1;
	return (int)v;
}

bool is_ctrl_disk(const char *name, const char *ctrl)
{
	size_t cl;
	const char *s;
	unsigned int v;

	if (!name || !ctrl || !*ctrl)
		return false;
	cl = strlen(ctrl);
	if (strncmp(name, ctrl, cl) || name[cl] != 'n')
		return false;
	s = name + cl + 1;
	return !dec(&s, &v) && !*s;
}

bool path_is_under(const char *path, const char *dir)
{
	size_t dl;

	if (!path || !dir)
		return false;
	dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	if (dl == 1 && dir[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return !strncmp(path, dir, dl) && path[dl] == '/' && path[dl + 1] != '\0';
}

char *escape_value(const char *in, char *out, size_t outlen)
{
	size_t o = 0;
	const unsigned char *s = (const unsigned char *)in;
	char tmp[5];
	const char *rep;

	if (!outlen)
		return out;
	for (; *s; s++) {
		switch (*s) {
		case '\n': rep = "\\n"; break;
		case '\t': rep = "\\t"; break;
		case '\r': rep = "\\r"; break;
		case '\\': rep = "\\\\"; break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				snprintf(tmp, sizeof(tmp), "\\x%02x", *s);
				rep = tmp;
			} else {
				tmp[0] = (char)*s;
				tmp[1] = '\0';
				rep = tmp;
			}
		}
		if (o + strlen(rep) + 1 > outlen)
			break;
		memcpy(out + o, rep, strlen(rep));
		o += strlen(rep);
	}
	out[o] = '\0';
	return out;
}

char *cpulist_format(const int *ids, size_t n, char *buf, size_t len)
{
	size_t i = 0, o = 0, j;
	int w;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (i < n) {
		j = i;
		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (j == i)
			w = snprintf(buf + o, len - o, "%s%d", o ? "," : "", ids[i]);
		else
			w = snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "",
				     ids[i], ids[j]);
		if (w < 0 || (size_t)w >= len - o) {
			buf[o] = '\0';	/* drop a partial range */
			break;
		}
		o += (size_t)w;
		i = j + 1;
	}
	return buf;
}

int parse_interrupts_line(const char *line, int *irq, char *name, size_t len)
{
	const char *p = line, *last = NULL, *f;
	unsigned int v;
	size_t n = 0, fl;

	while (*p == ' ')
		p++;
	if (dec(&p, &v) || *p != ':' || v > 0x7fffffff)
		return -1;
	p++;
	while (!field(&p, &f, &fl)) {
		last = f;
		n = fl;
	}
	if (!last || !len)
		return -1;
	if (n >= len)
		n = len - 1;
	memcpy(name, last, n);
	name[n] = '\0';
	*irq = (int)v;
	return 0;
}

int msi_entry(const char *chip, unsigned long long hw, const char *bdf)
{
	size_t bl = strlen(bdf);
	struct bdf b;

	if (!strncmp(chip, "IR-", 3))		/* interrupt remapping */
		chip += 3;
	/* 6.2+: a domain per device, "PCI-MSIX-0000:41:00.0": hwirq = entry */
	if ((!strncmp(chip, "PCI-MSIX-", 9) && !strcmp(chip + 9, bdf)) ||
	    (!strncmp(chip, "PCI-MSI-", 8) && !strcmp(chip + 8, bdf)))
		return hw <= 0x7fffffffULL ? (int)hw : -1;
	/* Before: one "PCI-MSI" domain, hwirq = entry | devid << 11 |
	 * domain << 27 (pci_msi_domain_calc_hwirq()); check it is @bdf's. */
	if (!strcmp(chip, "PCI-MSI") && bl && !bdf_parse(bdf, &b) &&
	    ((hw >> 11) & 0xffff) == (b.bus << 8 | b.dev << 3 | b.fn) &&
	    (hw >> 27) == b.domain)
		return (int)(hw & 0x7ff);
	return -1;
}

int parse_interrupts_hw(const char *line, int *irq, char *chip, size_t clen,
			unsigned long long *hwirq)
{
	const char *p = line, *f;
	unsigned long long hw = 0;
	unsigned int v;
	size_t fl;

	while (*p == ' ')
		p++;
	if (dec(&p, &v) || *p != ':' || v > 0x7fffffff || !clen)
		return -1;
	p++;
	*irq = (int)v;
	chip[0] = '\0';
	*hwirq = ~0ULL;
	/* the per-CPU counts, then the chip, then the hwirq ("5-edge") */
	do {
		if (field(&p, &f, &fl))
			return 0;
	} while (strspn(f, "0123456789") >= fl);
	if (fl >= clen)
		return 0;
	memcpy(chip, f, fl);
	chip[fl] = '\0';
	if (field(&p, &f, &fl) || !is_digit(*f))
		return 0;
	for (; fl && is_digit(*f); f++, fl--) {
		if (hw > 0xffffffffffULL)
			return 0;
		hw = hw * 10 + (unsigned int)(*f - '0');
	}
	*hwirq = hw;
	return 0;
}

int parse_interrupts_total(const char *line, int *irq,
			   unsigned long long *total)
{
	const char *p = line;
	unsigned long long sum = 0, v;
	unsigned int n;

	while (*p == ' ')
		p++;
	if (dec(&p, &n) || *p != ':' || n > 0x7fffffff)
		return -1;
	*irq = (int)n;
	for (p++;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!is_digit(*p))
			break;
		for (v = 0; is_digit(*p); p++)
			v = v * 10 + (unsigned int)(*p - '0');
		if (*p && *p != ' ' && *p != '\t' && *p != '\n')
			break;	/* "5-edge": the hwirq, not a count */
		sum += v;
	}
	*total = sum;
	return 0;
}

char *sched_active(const char *list, char *out, size_t len)
{
	const char *a = strchr(list, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(out, len, "%.*s", (int)strcspn(list, " \n"), list);
	return out;
}
