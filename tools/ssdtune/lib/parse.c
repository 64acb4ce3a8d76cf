// SPDX-License-Identifier: GPL-2.0
/* Pure parsing helpers; see parse.h. */
#include <stdio.h>
#include <string.h>

#include "lib/parse.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int parse_dec(const char **sp, unsigned int *v)
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

/* Digits and a suffix from @s up to @end (exclusive) into *@v. */
static int bytes_in(const char *s, const char *end, unsigned long long *v)
{
	static const char units[] = "kmgt";
	unsigned long long x = 0;
	const char *u;
	int shift = 0;

	if (s == end || !is_digit(*s))
		return -1;
	for (; s < end && is_digit(*s); s++) {
		x = x * 10 + (unsigned int)(*s - '0');
		if (x > (1ULL << 62))
			return -1;
	}
	if (s < end) {
		u = strchr(units, *s | 0x20);
		if (!u || !*u || s + 1 != end)
			return -1;
		shift = 10 * (int)(u - units + 1);
	}
	if (x > (1ULL << 62) >> shift)
		return -1;
	*v = x << shift;
	return 0;
}

int parse_bytes(const char *s, unsigned long long *v)
{
	return bytes_in(s, s + strlen(s), v);
}

int parse_byte_range(const char *s, unsigned long long *off,
		     unsigned long long *len)
{
	const char *colon = strchr(s, ':');
	unsigned long long o, l;

	if (!colon || bytes_in(s, colon, &o) ||
	    bytes_in(colon + 1, colon + 1 + strlen(colon + 1), &l) || !l)
		return -1;
	*off = o;
	*len = l;
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

	if (!s || parse_dec(&s, &a) || *s++ != ':' || parse_dec(&s, &b))
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

int parse_field(const char **sp, const char **start, size_t *len)
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
		if (parse_field(&p, &f, &n))
			return -1;
	if (parse_field(&p, &f, &n) || n >= sizeof(num))
		return -1;
	memcpy(num, f, n);
	num[n] = '\0';
	if (parse_devnum(num, &maj, &min))
		return -1;
	if (parse_field(&p, &f, &n))		/* root */
		return -1;
	if (parse_field(&p, &f, &n))		/* mount point */
		return -1;
	unescape_octal(f, n, e->mountpoint, sizeof(e->mountpoint));
	for (;;) {			/* options, optional fields, "-" */
		if (parse_field(&p, &f, &n))
			return -1;
		if (n == 1 && *f == '-')
			break;
	}
	if (parse_field(&p, &f, &n))		/* fs type */
		return -1;
	if (parse_field(&p, &f, &n))		/* source */
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

	if (!line || parse_field(&p, &f, &n) || *f != '/')
		return -1;
	unescape_octal(f, n, path, len);
	return 0;
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

char *sched_active(const char *list, char *out, size_t len)
{
	const char *a = strchr(list, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	else
		snprintf(out, len, "%.*s", (int)strcspn(list, " \n"), list);
	return out;
}
